"""The interface every rules engine implements. Its errors live in ``errors.py``, the reading of
saved states in ``state_io.py`` and the guard on action texts in ``action_text.py``; their names
are importable from here too, as engines always did.

An engine is a small class holding a game's configuration; the game state is a separate mutable
object it creates and advances. Engines know cards, seats and turns only: no gymnasium, pettingzoo,
torch or agent code is imported here or in any ``rules.py``. Actions are plain ints in
``range(num_actions)`` whose meaning never changes during a game; every engine also gives each action
a stable text form.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections import Counter
from typing import Any, Generic, TypeVar

import numpy as np

from cardarena.envs.core.action_text import (  # noqa: F401  (re-exported)
    MAX_ACTION_TEXT,
    _guard_parse,
    action_forms,
    refuse_text,
)
from cardarena.envs.core.engine_parts import (  # noqa: F401  (re-exported)
    card_parser,
    dealer_options,
    fixed_size,
    lead,
    split_returns,
    stack_deck,
    standing_features,
)
from cardarena.envs.core.errors import (  # noqa: F401  (re-exported: engines import them from here)
    ActionTypeError,
    CardArenaError,
    ConfigError,
    GameOverError,
    IllegalActionError,
    OutOfTurnError,
    ResetNeededError,
    check_int,
    check_scores,
)
from cardarena.envs.core.state_io import (  # noqa: F401  (re-exported)
    _MISSING,
    BIT_GENERATORS,
    Loading,
    StateReader,
    _canon,
    _show,
    rng_from_dict,
    rng_to_dict,
)

S = TypeVar("S")

#: the engine methods whose first argument is a game state: given None (no game yet) each raises
#: ResetNeededError instead of an AttributeError from deep inside (:func:`guard_state`)
STATE_METHODS = (
    "apply",
    "current_player",
    "legal_actions",
    "is_over",
    "returns",
    "scores",
    "winners",
    "potential",
    "standing",
    "round_index",
    "round_features",
    "state_features",
    "decision_name",
    "to_dict",
    "card_zones",
    "resample_hidden",
    "clone",
    "conservation_error",
)


def guard_state(method: Any) -> Any:
    """``method`` refusing ``state=None`` with :class:`ResetNeededError` ("start a game with
    new_game() first"). The unguarded function stays at ``__wrapped__``: the envs' hot loops,
    which hold a state by construction, call it directly (:func:`unguarded`)."""
    if getattr(method, "_guards_state", False):
        return method

    @functools.wraps(method)
    def guarded(self: Any, state: Any, *args: Any, **kwargs: Any) -> Any:
        if state is None:
            raise state_error(self, method.__name__, state)
        return method(self, state, *args, **kwargs)

    guarded._guards_state = True  # type: ignore[attr-defined]
    return guarded


def state_error(engine: Any, method: str, state: Any) -> CardArenaError:
    """The error of an engine method given something that is not one of its states: None (no
    game yet) is :class:`ResetNeededError`, anything else a ConfigError naming its type. For the
    methods that check inline (``checks_state_inline``): ``try`` costs nothing until it raises."""
    if state is None:
        return ResetNeededError(
            f"{engine.name}: {method}() was given no game state (None); start a game with "
            f"new_game(rng) first (on an env: call reset() first)."
        )
    return ConfigError(
        f"{engine.name}: {method}() was given a {type(state).__name__}, not a state of "
        f"{type(engine).__name__}; pass a state its new_game() or from_dict() made"
    )


def unguarded(bound: Any) -> Any:
    """A bound engine method without :func:`guard_state`'s check (for callers that always pass a
    state: the env's step, the table's masks)."""
    func = getattr(bound, "__func__", None)
    inner = getattr(func, "__wrapped__", None)
    if inner is None or not getattr(func, "_guards_state", False):
        return bound
    return inner.__get__(bound.__self__)


#: reset options given as a list of card codes
_CODE_LISTS = ("deck",)


def check_reset_options(game: str, options: Any) -> dict[str, Any]:
    """``options`` as a dict, its ``deck`` a list of card code strings, or the ConfigError; the
    engine reads the values, and :func:`_guard_new_game` checks the state they give."""
    if not isinstance(options, dict):
        raise ConfigError(f"{game}: reset options must be a dict, got {_show(options)}")
    for key in _CODE_LISTS:
        value = options.get(key)
        if value is not None and (
            not isinstance(value, list | tuple) or not all(isinstance(c, str) for c in value)
        ):
            raise ConfigError(
                f"{game}: reset option {key!r} must be a list of card codes (top first), got "
                f"{_show(value)}; e.g. {key}=[...] with the codes of the rules"
            )
    return options


def _guard_new_game(deal: Any) -> Any:
    """``new_game`` with the one checker of scenarios: options that set up a state (a stacked
    deck, scores, hands, piles, a dealer) must give a state ``from_dict`` accepts, so a reset
    option is refused exactly where a saved state with that content would be (a card more often
    than the deck holds it, a score out of range, a hand too big, a card no pile can take). A
    deal without options is not checked (it is a state of the rules)."""

    @functools.wraps(deal)
    def new_game(self: Any, rng: np.random.Generator, options: dict[str, Any] | None = None) -> Any:
        if not options:
            return deal(self, rng, options)
        options = check_reset_options(self.name, options)
        state = deal(self, rng, options)
        try:
            self.from_dict(self.to_dict(state))
        except ConfigError as err:
            raise ConfigError(
                f"{self.name}: the reset options {sorted(options)} give a state no game reaches: "
                f"{err}"
            ) from None
        return state

    new_game._guarded = True  # type: ignore[attr-defined]
    return new_game


class GameEngine(ABC, Generic[S]):
    """Rules of one game for a fixed configuration.

    Subclasses declare ``name``, ``num_actions``, ``min_players``/``max_players`` and the card codes
    of the rules file, and implement the abstract methods. ``apply`` mutates the state in place and
    advances it to the next decision (or the end), so a state is always waiting on exactly one seat
    or over.
    """

    name: str = ""
    num_actions: int = 0
    min_players: int = 1
    max_players: int = 1
    #: "zero_sum" (returns add up to 0) or "shared" (every seat gets the same return)
    reward_kind: str = "zero_sum"

    num_players: int

    def __init_subclass__(cls, describe: Any = None, parse: Any = None, **kwargs: Any) -> None:
        """Every engine's ``parse_action`` is wrapped by :func:`_guard_parse`, so a text from a
        person or a file is refused with a clear :class:`IllegalActionError`, whatever the game's
        own parser would have raised. ``class G(GameEngine[S], describe=f, parse=g)`` makes the
        module functions ``f(action)`` and ``g(text)`` its ``describe_action`` and
        ``parse_action``."""
        super().__init_subclass__(**kwargs)
        if describe is not None:
            cls.describe_action = staticmethod(describe)  # type: ignore[method-assign]
        if parse is not None:
            cls.parse_action = staticmethod(parse)  # type: ignore[method-assign]
        if "state_class" not in cls.__dict__:  # GameEngine[MyState]: MyState
            for base in getattr(cls, "__orig_bases__", ()):
                args = [a for a in getattr(base, "__args__", ()) if isinstance(a, type)]
                origin = getattr(base, "__origin__", None)
                if args and isinstance(origin, type) and issubclass(origin, GameEngine):
                    cls.state_class = args[0]
        own = cls.__dict__.get("parse_action")
        if isinstance(own, staticmethod):  # ``parse_action = staticmethod(module function)``
            own = _as_method(own.__func__)
        if own is not None and callable(own) and not getattr(own, "_guarded", False):
            if not getattr(own, "__isabstractmethod__", False):
                cls.parse_action = _guard_parse(own)  # type: ignore[method-assign,assignment]
        inline = getattr(cls, "checks_state_inline", ())  # hot methods that check themselves
        for method in STATE_METHODS:
            if method in inline:
                continue
            own_method = cls.__dict__.get(method)
            if callable(own_method) and not getattr(own_method, "__isabstractmethod__", False):
                setattr(cls, method, guard_state(own_method))
        deal = cls.__dict__.get("new_game")
        if deal is not None and not getattr(deal, "__isabstractmethod__", False):
            if not getattr(deal, "_guarded", False):
                cls.new_game = _guard_new_game(deal)  # type: ignore[method-assign]

    # ----- life cycle -------------------------------------------------------------------------
    @abstractmethod
    def new_game(self, rng: np.random.Generator, options: dict[str, Any] | None = None) -> S:
        """A fresh game; ``options`` may stack the deck (``deck``) and set up scenarios."""

    @abstractmethod
    def apply(self, state: S, action: int, seat: int | None = None) -> None:
        """Play ``action`` for the deciding seat (``seat`` if given must be that seat)."""

    # ----- queries ----------------------------------------------------------------------------
    # The defaults read the fields most states have: ``over``, ``decider``, ``winners``,
    # ``scores`` and ``decision`` (an index into the class's ``decision_names``).
    def current_player(self, state: S) -> int | None:
        """The seat holding the decision, or None once the game is over."""
        return None if state.over else state.decider  # type: ignore[attr-defined]

    @abstractmethod
    def legal_actions(self, state: S) -> list[int]:
        """Legal actions of the deciding seat, sorted; empty once the game is over."""

    def is_over(self, state: S) -> bool:
        return bool(state.over)  # type: ignore[attr-defined]

    def returns(self, state: S) -> list[float]:
        """Return of every seat accumulated so far (the final payoff once the game is over).

        Environments reward each step with the change of this list, so a game with only a
        terminal payoff returns zeros until the end, and a game with running rewards (thegame:
        +1/98 per card placed) returns the running total. Default: :func:`split_returns` of
        the state's ``winners`` once its ``over`` is set.
        """
        if not state.over:  # type: ignore[attr-defined]
            return [0.0] * self.num_players
        return split_returns(state.winners, self.num_players)  # type: ignore[attr-defined]

    def scores(self, state: S) -> list[float]:
        """Game totals per seat as the rules count them (points, cards left, ...)."""
        return [float(s) for s in state.scores]  # type: ignore[attr-defined]

    def winners(self, state: S) -> list[int]:
        """Winning seats once the game is over (empty while it runs)."""
        return list(state.winners)  # type: ignore[attr-defined]

    # ----- text form of actions ----------------------------------------------------------------
    @abstractmethod
    def describe_action(self, action: int) -> str: ...

    @abstractmethod
    def parse_action(self, text: str) -> int:
        """The action id of an action text (any form ``describe_action`` writes). Every engine's
        version is wrapped (see ``__init_subclass__``): any text it cannot read raises
        :class:`IllegalActionError` naming the text and the texts it reads."""

    def potential(self, state: S, seat: int) -> float:
        """A measure of how well ``seat`` stands, for potential-based reward shaping in training.

        Shaping with ``coef * (potential(after) - potential(before))`` adds up over a game to
        ``coef * (potential(end) - potential(start))`` and leaves the optimal policy unchanged
        (Ng et al., 1999); it only gives the learner a denser signal. Default: no shaping.
        """
        return 0.0

    def standing(self, state: S, seat: int) -> float:
        """How well ``seat`` stands at a round boundary, for search rollouts cut at the end of a
        round (``agents/search``, ``horizon=round``): higher is better, 0 for level, about -1..1.
        Default: :meth:`potential`. A game played over rounds whose ``potential`` is not its
        standing (it may be 0: no shaping) overrides this."""
        return self.potential(state, seat)

    # ----- optional hooks for rollout policy improvement (agents/improve.py) -----------------
    def round_index(self, state: S) -> int | None:
        """Index of the round (hand) in progress, for games played over rounds; None otherwise.

        Rollouts used to improve a policy stop when it changes and value the position there.
        """
        return None

    def round_features(self, state: S, seat: int) -> np.ndarray:
        """A small vector describing ``seat``'s standing between rounds (totals, seat order), the
        input of the learned value of a round boundary. Only games with rounds define it."""
        raise ConfigError(
            f"{self.name} does not define round_features(), so rollout improvement cannot value "
            f"a round boundary; set warm_start.improve to null for this game"
        )

    def state_features(self, state: S, seat: int) -> np.ndarray:
        """A small vector describing ``seat``'s prospects at any decision point (what decides
        the outcome from here), the input of the learned value of a search rollout cut after a
        number of decisions (``depth``). Games that define it: suicidium, thegame."""
        raise ConfigError(
            f"{self.name} does not define state_features(), so a rollout cut after a number of "
            f"decisions cannot be valued by a learned value; use value=standing"
        )

    #: names of the state's ``decision`` values, for the default :meth:`decision_name`
    decision_names: tuple[str, ...] | list[str] = ()

    def decision_name(self, state: S) -> str:
        """A short name of the pending decision, used in error messages and renders."""
        if not self.decision_names:
            return "turn"
        return "game_over" if self.is_over(state) else self.decision_names[state.decision]  # type: ignore[attr-defined]

    # ----- serialisation (from the state class's declaration, envs/core/state_fields.py) ------
    #: the state class, declared with ``@state_fields`` (``from_dict`` builds one); by default
    #: the ``S`` of ``class MyGame(GameEngine[S])``
    state_class: type[Any] = None  # type: ignore[assignment]  # set by __init_subclass__ from GameEngine[S]

    def _layout(self, cls: type | None = None) -> Any:
        layout = getattr(cls or self.state_class, "__layout__", None)
        if layout is None:
            raise NotImplementedError(
                f"{self.name}: declare the state class with @state_fields and set state_class, "
                f"or override to_dict / from_dict / card_zones"
            )
        return layout

    def to_dict(self, state: S) -> dict[str, Any]:
        """The state as JSON data: ``game``, ``num_players``, then the declared fields in order."""
        return self._layout(type(state)).to_dict(self, state)

    def from_dict(self, data: dict[str, Any]) -> S:
        """The state ``to_dict`` saved; ConfigError (naming the field) for an impossible one.

        Reads every declared field through a :class:`StateReader` (fields with constant bounds
        first), lets :meth:`check_state` refuse what is impossible between fields and rebuild the
        caches, then runs :meth:`check_loaded`."""
        r = StateReader(self, data)
        layout = self._layout()
        state = object.__new__(self.state_class)
        state.num_players = r.num_players
        c = Loading(self, r, state)
        get = r.get
        for fields in layout.passes:
            for key, attr, f in fields:
                setattr(state, attr, f.load(c, key, get(key)))
        self.check_state(state, r)
        for attr in layout.caches:
            if not hasattr(state, attr):
                raise NotImplementedError(f"{self.name}: check_state did not rebuild {attr!r}")
        return self.check_loaded(state, r, derived=layout.derived)

    def check_state(self, state: S, r: StateReader) -> None:
        """The rules between fields that the declaration cannot say (raise ``r.error(...)``),
        and the rebuilding of the ``Cache`` attributes; ``from_dict`` calls it once every field
        is read. Default: nothing to check."""

    # ----- invariants used by tests -------------------------------------------------------------
    def card_zones(self, state: S) -> dict[str, list[str]]:
        """Every zone that holds cards (draw pile, discard, table, hands, set-aside) as codes
        (the declared fields with a ``zone``)."""
        zones: dict[str, list[str]] = {}
        for attr, f in self._layout(type(state)).zones:
            f.zones(getattr(state, attr), zones)
        return zones

    #: the card codes (index = card int) and the full deck as ints, for :meth:`deck_codes`
    card_codes: list[str] = []
    full_deck: list[int] = []

    def deck_codes(self) -> list[str]:
        """The full deck as codes (a multiset): the zones must always add up to it."""
        codes = self.card_codes
        return [codes[c] for c in self.full_deck]

    @abstractmethod
    def resample_hidden(self, state: S, seat: int, rng: np.random.Generator) -> S:
        """A copy of ``state`` whose parts hidden from ``seat`` are redrawn consistently with what
        ``seat`` has seen: one world of ``seat``'s information set, drawn from its posterior
        (uniform over the arrangements of the unseen cards; no inference from other players'
        choices). The result is a function of ``seat``'s information and ``rng`` only: two
        states that differ only in what ``seat`` cannot see give the same copy for the same
        ``rng`` state (the unseen cards are put in a canonical order before they are shuffled).
        Used by the leak tests and by search agents (``envs.core.loop.Worlds``)."""

    # ----- copying ------------------------------------------------------------------------------
    def clone(self, state: S, rng: np.random.Generator | None = None) -> S:
        """An independent copy of ``state`` for search rollouts (no JSON, no checks).

        Game states are slotted dataclasses of ints, bools, lists (nested lists copied, tuples
        shared: they are immutable) and one generator: copied exactly when ``rng`` is None,
        else replaced by ``rng`` (cheaper: rollouts from one sampled world may share its
        generator). A state class declared with ``@state_fields`` has this copy compiled from
        its annotations, which refuse at definition what it could not copy safely."""
        cls = type(state)
        layout = getattr(cls, "__layout__", None)
        if layout is not None:
            return layout.clone(state, rng)
        new = object.__new__(cls)
        for name in [n for klass in cls.__mro__ for n in getattr(klass, "__slots__", ())]:
            value = getattr(state, name)
            if type(value) is list:
                value = _dup(value)
            elif isinstance(value, np.random.Generator):
                value = rng if rng is not None else copy_generator(value)
            setattr(new, name, value)
        return new

    def conservation_error(self, state: S) -> str | None:
        """None when every card of the deck is in exactly one zone, else what is wrong."""
        seen: Counter[str] = Counter()
        for cards in self.card_zones(state).values():
            seen.update(cards)
        want = Counter(self.deck_codes())
        if seen == want:
            return None
        return f"missing {dict(want - seen)}, extra {dict(seen - want)}"

    def check_loaded(self, state: S, reader: StateReader, derived: tuple[str, ...] = ()) -> S:
        """The checks every ``from_dict`` ends with, on the state it built from ``reader``.

        Every card of the deck exactly once (:meth:`conservation_error`); a running game waits on
        a seat that has a legal action, an ended one on nobody; the saved fields are exactly those
        ``to_dict`` writes, and the ``derived`` ones (written but not read back, such as
        ``current_player``) agree with the state. Only ``from_dict`` calls this, never play.
        """
        game = self.name
        seen = [c for cards in self.card_zones(state).values() for c in cards]
        seen.sort()
        deck = self.__dict__.get("_sorted_deck")
        if deck is None:
            deck = self.__dict__["_sorted_deck"] = sorted(self.deck_codes())
        problem = None if seen == deck else self.conservation_error(state)
        if problem is not None:
            raise ConfigError(
                f"{game} state: the cards do not add up to the deck ({problem}); allowed: every "
                f"card of the deck exactly once across draw pile, discard pile, table, hands and "
                f"set-aside"
            )
        if not self.is_over(state):
            seat = self.current_player(state)
            if not isinstance(seat, int) or not 0 <= seat < self.num_players:
                raise ConfigError(
                    f"{game} state: the game runs but the deciding seat is {seat!r}; allowed: a "
                    f"seat in [0, {self.num_players - 1}]"
                )
            if not self.legal_actions(state):
                raise ConfigError(
                    f"{game} state: seat {seat} holds the decision "
                    f"'{self.decision_name(state)}' but has no legal action in it; allowed: a "
                    f"running game waits on a seat that can act"
                )
        saved = self.to_dict(state)
        data = reader.data
        unknown = sorted(str(k) for k in data if k not in saved)
        if unknown:
            raise ConfigError(
                f"{game} state: unknown field(s) {_show(unknown)}; allowed fields: {sorted(saved)}"
            )
        missing = sorted(k for k in saved if k not in data)
        if missing:
            raise reader.error(missing[0], _MISSING, "the value to_dict() writes")
        for key in derived:
            if _canon(data[key]) != _canon(saved[key]):
                raise reader.error(
                    key, data[key], f"{saved[key]!r} (what the rest of the state implies)"
                )
        return state

    # ----- helpers for subclasses ---------------------------------------------------------------
    def illegal(self, state: S, action: Any) -> IllegalActionError:
        legal = self.legal_actions(state)
        seat = self.current_player(state)
        shown = ", ".join(f"{a}={self.describe_action(a)!r}" for a in legal)
        what = (
            repr(self.describe_action(int(action)))
            if isinstance(action, int | np.integer) and 0 <= int(action) < self.num_actions
            else "out of range"
        )
        return IllegalActionError(
            f"{self.name}: action {action!r} ({what}) is not legal for seat {seat} in decision "
            f"'{self.decision_name(state)}'. Legal actions: [{shown}]. Pick one of them "
            f"(the observation's action_mask marks them)."
        )

    def checked_action(self, state: S, action: Any, seat: int | None) -> tuple[int, int]:
        """The deciding seat and ``action`` as an int, for ``apply``; raises when the game is
        over, ``seat`` is not the one to act or the action is not legal."""
        seat = self.check_turn(state, seat)
        action = int(action)
        if action not in self.legal_actions(state):
            raise self.illegal(state, action)
        return seat, action

    def check_turn(self, state: S, seat: int | None) -> int:
        """The deciding seat; raises when the game is over or ``seat`` is not the one to act."""
        current = self.current_player(state)
        if current is None:
            raise GameOverError(f"{self.name}: the game is over; start a new one (env.reset()).")
        if seat is not None and seat != current:
            raise OutOfTurnError(
                f"{self.name}: seat {seat} tried to act, but seat {current} holds the decision "
                f"'{self.decision_name(state)}'."
            )
        return current


def _as_method(fn: Any) -> Any:
    """``fn(text)`` as a method ``parse_action(self, text)`` (for the guard of ``parse_action``)."""
    import functools

    @functools.wraps(fn)
    def parse_action(self: Any, text: str) -> int:
        return fn(text)

    return parse_action


def _dup(value: list[Any]) -> list[Any]:
    """A copy of a list, nested lists copied too (everything else in a state is immutable)."""
    return [_dup(x) if type(x) is list else x for x in value]


def copy_generator(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in exactly ``rng``'s state."""
    bits = rng.bit_generator
    fresh = type(bits)()
    fresh.state = bits.state
    return np.random.Generator(fresh)


for _method in STATE_METHODS:  # the defaults of GameEngine itself (subclasses: __init_subclass__)
    _own = GameEngine.__dict__.get(_method)
    if callable(_own) and not getattr(_own, "__isabstractmethod__", False):
        setattr(GameEngine, _method, guard_state(_own))
