"""The one game in play that both env paths drive: the PettingZoo AEC env (``aec.py``) and the
single-agent self-play env (``single_agent.py``).

A :class:`Table` holds the spec, the engine, the state and the returns paid out so far, and owns
what the two envs must agree on:

* reset options: :meth:`Table.game_options` refuses an unknown key with a :class:`ConfigError`
  naming it and the known ones (the spec's ``reset_options``); the engine's ``new_game`` checks
  the values; a seed must be a non-negative integer (:func:`check_seed`);
* the deal: :meth:`Table.deal` plays ``engine.new_game(np.random.default_rng(seed), options)``,
  the game replays record; :meth:`Table.reset` is the AEC env's seeding on top (a seed gives that
  deal and restarts the table's own generator, no seed draws the next deal seed from it);
* safety checks: :meth:`Table.apply` refuses a step before reset, a ``None``, a bool, a
  non-integer or an index outside ``Discrete(num_actions)`` (:class:`CardArenaError`), and gives
  the engine the acting seat, which refuses a finished game (``GameOverError``), a seat out of
  turn (``OutOfTurnError``) and an illegal action (``IllegalActionError``);
* rewards: :meth:`Table.pay`, the change of every seat's return (``engine.returns``, a new list
  at every call, as every engine gives) since the last payout;
* masks: :meth:`Table.mask`, a fresh array of a seat's legal actions (a copy of the mask kept
  for that set of legal actions: most decisions of a game repeat a few sets, and copying a small
  array costs a third of building it).

It imports no gymnasium or PettingZoo: the envs add their APIs around it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from cardarena.envs.core.engine import unguarded
from cardarena.envs.core.errors import (
    ActionTypeError,
    ConfigError,
    GameOverError,
    IllegalActionError,
    ResetNeededError,
)

#: deal seeds are drawn below this bound (numpy's 63 bits)
SEED_BOUND = 2**63
#: the second word of the table's own generator after ``reset(seed)``: ``[seed, RESET_WORD]``
RESET_WORD = 0x5EED
#: legal-action lists up to this long are written into a mask one by one (cheaper than put)
_SCALAR_MASK = 6
#: distinct legal-action sets whose masks a table keeps (per dtype) to hand out copies of; a
#: game with more sets than this builds the others each time (the cache never evicts, so its
#: memory is bounded and what it holds does not depend on the order of play)
MASK_CACHE = 1024


def check_seed(seed: Any) -> int | None:
    """``seed`` as an int (None stays None), or the ConfigError saying what a seed must be."""
    if seed is None:
        return None
    if isinstance(seed, bool | np.bool_) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ConfigError(f"seed must be None or a non-negative integer, got {seed!r}")
    return int(seed)


class Table:
    """One game at a table: ``spec``, ``engine``, ``state`` (None before the first deal) and the
    returns paid out so far. ``checks=False`` skips the action checks of :meth:`apply` (the
    engine still refuses illegal actions)."""

    __slots__ = (
        "_current",
        "_legal",
        "_masks",
        "_apply",
        "_returns",
        "_rng",
        "_root",
        "checks",
        "encode",
        "engine",
        "known_options",
        "name",
        "num_actions",
        "paid",
        "spec",
        "state",
    )

    def __init__(self, spec: Any, engine: Any, checks: bool = True) -> None:
        self.spec = spec
        self.engine = engine
        self.name: str = spec.name
        self.checks = checks
        self.num_actions: int = engine.num_actions
        self.known_options: tuple[str, ...] = tuple(spec.reset_options)
        self.encode = spec.encode
        # the engine's hot methods without their check of the state (the table checks it)
        self._current = unguarded(engine.current_player)
        self._legal = unguarded(engine.legal_actions)
        self._apply = unguarded(engine.apply)
        self._returns = unguarded(engine.returns)
        #: per dtype, the mask of each legal-action set seen (as a tuple), never handed out
        self._masks: dict[Any, dict[tuple[int, ...], np.ndarray]] = {}
        self.state: Any = None
        self.paid: list[float] = []
        self._root: int | None = None  # the seed of the last seeded reset
        self._rng: np.random.Generator | None = None  # built from _root on first use

    # ---- reset -----------------------------------------------------------------------------------
    def game_options(self, options: Any) -> dict[str, Any]:
        """The reset options for ``new_game``, or a ConfigError naming an unknown key and the
        known ones (the engine's ``new_game`` then checks the values)."""
        if options is None:
            return {}
        if not isinstance(options, Mapping):
            raise ConfigError(
                f"{self.name}: reset options must be a dict, got {options!r}; known reset "
                f"options: {list(self.known_options)}"
            )
        unknown = [key for key in options if key not in self.known_options]
        if unknown:
            raise ConfigError(
                f"{self.name}: unknown reset option{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(map(repr, unknown))}; known reset options: {list(self.known_options)}"
            )
        return dict(options)

    def deal(self, seed: int, game_options: dict[str, Any]) -> Any:
        """Start ``engine.new_game(np.random.default_rng(seed), game_options)`` (options already
        checked by :meth:`game_options`); nothing is owed for what the deal itself returns."""
        state = self.engine.new_game(np.random.default_rng(seed), game_options)
        self.load(state)
        return state

    def reset(self, seed: Any = None, options: Any = None) -> Any:
        """A new game: with ``seed``, the deal of that seed (and the table's own generator starts
        again from ``[seed, RESET_WORD]``); without, the deal of the next seed of that generator
        (fresh entropy if no seed was ever given)."""
        seed = check_seed(seed)
        game_options = self.game_options(options)
        if seed is not None:
            self._root, self._rng = seed, None
            return self.deal(seed, game_options)
        return self.deal(self.next_seed(), game_options)

    def next_seed(self) -> int:
        """A deal seed from the table's own generator (see :meth:`reset`)."""
        rng = self._rng
        if rng is None:
            root = self._root
            rng = np.random.default_rng(None if root is None else [root, RESET_WORD])
            self._rng = rng
        return int(rng.integers(SEED_BOUND))

    def load(self, state: Any) -> None:
        """Play on from ``state`` (a deal or a loaded save); its returns count as paid."""
        self.state = state
        self.paid = self.engine.returns(state)

    def mark(self) -> None:
        """Count the returns as they are now as paid (what happened before a learner's first
        decision is nobody's reward)."""
        self.paid = self.engine.returns(self.state)

    # ---- play ------------------------------------------------------------------------------------
    def require(self, what: str) -> Any:
        """The state, or the CardArenaError saying that ``what`` needs a reset first."""
        state = self.state
        if state is None:
            raise ResetNeededError(f"{self.name}: call reset() before {what}.")
        return state

    def action(self, action: Any, seat: int) -> int:
        """``action`` as an index of ``Discrete(num_actions)`` (a Python or numpy integer, or a
        0-d integer array such as ``model.predict`` returns), or the error saying what is wrong
        with it: :class:`ActionTypeError` for what is not an integer, IllegalActionError for an
        integer outside the action space."""
        if type(action) is int and 0 <= action < self.num_actions:  # the common case
            return action
        index = self.integer(action, seat)
        if not 0 <= index < self.num_actions:
            raise IllegalActionError(
                f"{self.name}: action {action!r} is outside the action space "
                f"Discrete({self.num_actions}); use an int from the action_mask."
            )
        return index

    def integer(self, action: Any, seat: int) -> int:
        """``action`` as an int when it is an integer (in range or not), else the error: None
        while the seat must act, a bool, a float, a text, a list (:class:`ActionTypeError`); a
        finished game is GameOverError whatever the action."""
        if type(action) is int:
            return action
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = action[()]
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            state = self.require("step()")
            if self.engine.is_over(state):
                raise GameOverError(
                    f"{self.name}: the game is over (got action {action!r}); call reset() for a "
                    f"new game."
                )
            if action is None:
                raise ActionTypeError(
                    f"{self.name}: player_{seat} must act (decision "
                    f"'{self.engine.decision_name(state)}'); got None."
                )
            raise ActionTypeError(
                f"{self.name}: action {action!r} is not an int; actions are the ints of "
                f"Discrete({self.num_actions}) (Python or numpy integers): use one from the "
                f"action_mask."
            )
        return int(action)

    def apply(self, action: Any, seat: int) -> None:
        """Play ``action`` for ``seat`` after the checks of the module docstring."""
        state = self.state
        if state is None:
            raise ResetNeededError(f"{self.name}: call reset() before step().")
        # the common case (a plain int in range) passes with one type test and one comparison
        if type(action) is not int or not 0 <= action < self.num_actions:
            # raw (checks off): the type is still checked, the range left to the engine
            action = self.action(action, seat) if self.checks else self.integer(action, seat)
        self._apply(state, action, seat)

    def pay(self, out: Any, keys: Iterable[Any]) -> bool:
        """Pay every seat its change of return since the last payout: ``out[keys[i]]`` becomes
        seat i's (a float); False, and nothing written, when no return changed (most steps of a
        game with only a terminal payoff). ``out`` is the AEC env's rewards dict keyed by agent
        or a list keyed by seat (the self-play env)."""
        after = self._returns(self.state)
        before = self.paid
        self.paid = after  # kept even when equal: an engine may hand out its own list
        if after == before:
            return False
        i = 0
        for key in keys:  # a plain loop: no list or comprehension frame on the hot path
            out[key] = float(after[i] - before[i])
            i += 1
        return True

    def mask(self, seat: int | None = None, dtype: Any = np.int8) -> np.ndarray:
        """A fresh mask (``dtype``, one entry per action) of the legal actions of ``seat`` (the
        deciding seat's when None); all zeros unless ``seat`` decides now (so once it is over)."""
        state = self.state
        current = self._current(state)
        if current is None or (seat is not None and seat != current):
            return np.zeros(self.num_actions, dtype=dtype)
        key = tuple(self._legal(state))
        masks = self._masks.get(dtype)
        if masks is None:
            masks = self._masks[dtype] = {}
        kept = masks.get(key)
        if kept is not None:
            return kept.copy()
        out = np.zeros(self.num_actions, dtype=dtype)
        if len(key) <= _SCALAR_MASK:
            for action in key:
                out[action] = 1
        else:
            out.put(key, 1)
        if len(masks) < MASK_CACHE:
            masks[key] = out.copy()
        return out

    def is_over(self) -> bool:
        return self.engine.is_over(self.state)
