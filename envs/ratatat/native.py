"""Ratatat on the native core: the compiled engine state and encoder of ``_native.pyx``.

The extension is optional (``setup.py`` builds it when Cython, numpy and a C compiler are there).
This module always imports: ``NATIVE_BUILT`` says whether the extension is there,
``NATIVE_AVAILABLE`` whether it is used (built, and not switched off by ``CARDARENA_CORE=python``
in the environment). The Python engine (``rules.py``) and encoder (``encoding.encode_python``)
stay the reference and the fallback; ``tests/test_native_ratatat.py`` steps both cores side by
side (legal actions and mask, every seat's observation bit for bit, returns, ``to_dict``, the
generator's state).

=========================  ===================================================================
``NativeRatatatGame``      a ``RatatatGame`` whose states are ``NativeState`` (a C struct): the
                           same games from the same generator
``native_encoder()``       the compiled ``encode(state, seat)`` (a ``RatatatState`` or a native
                           state), or None; ``encoding.encode`` is it when it is available
``rollouts(state, ...)``   playouts to the round's or the game's end, all inside C, with a
                           random policy or the ``tracker`` baseline's decisions
``play_out(states, ...)``  ``Rollout.run`` of the search agents in C, in place: the values the
                           Python rollout computes from the same generators (``agents/search``)
=========================  ===================================================================

The rollout policies in C are named in ``NativeRatatatGame.rollout_policies`` with the options
each takes, named as the attributes of the baseline it ports (``TrackerAgent.knock_margin``,
``TrackerAgent.peek_value``): the search reads them off its own agents, and the engine knows
nothing of agents. The tracker draws no random number (its ``fallback`` is never reached on a
legal decision), so its C port makes the Python agent's decisions from the same positions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cardarena.envs.core.engine import ConfigError, state_error
from cardarena.envs.core.native import NativeEngine, core_choice
from cardarena.envs.ratatat.rules import NUM_ACTIONS, RatatatGame, RatatatState

try:
    from cardarena.envs.ratatat import _native
except ImportError:  # not built: the Python core only
    _native = None  # type: ignore[assignment]

NATIVE_BUILT = _native is not None
NATIVE_AVAILABLE = NATIVE_BUILT and core_choice() == "native"
NativeState: Any = _native.NativeState if _native is not None else None
#: the compiled encoder whether or not CARDARENA_CORE switches it off (tests, benches)
compiled_encode: Any = _native.encode if _native is not None else None


def native_encoder() -> Callable[[Any, int], np.ndarray] | None:
    """The compiled encoder when the native core is available, else None."""
    return _native.encode if NATIVE_AVAILABLE else None


def _require_built() -> None:
    if not NATIVE_BUILT:
        raise ConfigError(
            "ratatat: the native core is not built (envs/ratatat/_native.pyx needs Cython, numpy "
            "and a C compiler at install time); reinstall with them, or use the Python core "
            "(RatatatGame, core='python')"
        )


class NativeRatatatGame(NativeEngine, RatatatGame):
    """``RatatatGame`` on the native core: states are ``NativeState`` (C structs).

    Same options, same games from the same generator, same errors. A ``NativeState`` has the
    read-only attributes of a ``RatatatState`` (fresh lists), so everything that only reads a
    state (``potential``, ``hidden_positions``, renders, views, the encoder, scripted baselines)
    works on it. ``to_dict``/``from_dict``/``card_zones``/``resample_hidden`` and ``new_game``
    with options go through the Python engine (the reference), converting the state.
    """

    state_class = NativeState
    python_state = RatatatState

    def __init__(
        self,
        num_players: int = 4,
        first_dealer: int = 0,
        max_turns: int | None = None,
        num_rounds: int | None = None,
        memory: str = "perfect_recall",
    ) -> None:
        _require_built()
        super().__init__(num_players, first_dealer, max_turns, num_rounds, memory)
        self.python = RatatatGame(num_players, first_dealer, max_turns, num_rounds, memory)

    # ---- set-up and conversion ----------------------------------------------------------------
    def new_game(self, rng: np.random.Generator, options: dict[str, Any] | None = None) -> Any:
        if options:  # stacked decks, scores, dealer, round: the Python engine deals, then the copy
            return NativeState.from_python(self.python.new_game(rng, options))
        return NativeState.new_game(
            rng, self.num_players, self.max_turns, self.num_rounds, self._memory, self.first_dealer
        )

    # ---- queries ------------------------------------------------------------------------------
    def scores(self, state: Any) -> list[float]:
        return [float(s) for s in state.scores]

    def winners(self, state: Any) -> list[int]:
        return state.winners

    # ---- play ---------------------------------------------------------------------------------
    def apply(self, state: Any, action: int, seat: int | None = None) -> None:
        try:  # no cost unless raised: a None (or foreign) state has no such attribute
            if (seat is not None and seat != state.decider) or state.over:
                self.check_turn(state, seat)  # raises GameOverError / OutOfTurnError
            action = int(action)
            if not (0 <= action < NUM_ACTIONS and state.apply(action)):
                raise self.illegal(state, action)
        except AttributeError:
            raise state_error(self, "apply", state) from None

    def rollouts(
        self, state: Any, count: int, seed: int, horizon: str = "game", policy: str = "random"
    ) -> tuple[np.ndarray, int]:
        """``count`` playouts from ``state`` inside C, every seat playing ``policy`` ("random"
        or "tracker", see ``NativeState.rollouts``): (values float64[count, seats], decisions
        played)."""
        return state.rollouts(count, seed, horizon, policy)

    # ---- rollout policies in C (agents/search) ------------------------------------------------
    #: policy -> the options of its C port (attribute names of the scripted baseline it ports)
    rollout_policies: dict[str, tuple[str, ...]] = {
        "random": (),
        "tracker": ("knock_margin", "peek_value"),
    }

    def rollout_batch(
        self,
        states: list[Any],
        policy: str = "random",
        horizon: str | int = "game",
        seed: int = 0,
        rollouts: int = 1,
        start: int | None = None,
        **options: Any,
    ) -> tuple[np.ndarray, int]:
        """``rollouts`` playouts of every state in one call into C (``_native.rollout_batch``):
        (values float64[len(states) * rollouts, seats], rollout r of state i in row
        i * rollouts + r; decisions played). ``horizon``: ``"game"`` (the returns), ``"round"``
        (the end of round ``start``, default each state's own: the standing, or the returns if
        the game ended) or N decisions. Random actions (and
        reshuffles) from ``default_rng(seed)``; the states and their generators are
        unchanged."""
        states = self._native_states(states)
        values, made = _native.rollout_batch(
            states, policy, horizon, seed, rollouts, start, **options
        )
        return (values if states else np.zeros((0, self.num_players))), made

    def play_out(
        self,
        states: list[Any],
        policy: str,
        start: int | None = None,
        seeds: list[int] | None = None,
        py: Any = None,
        **options: Any,
    ) -> np.ndarray:
        """``Rollout.run`` on every state, in place, in C (``_native.play_out``): values
        float64[len(states), seats], those of the Python rollout from the same generators (the
        random policy's actions from ``random.Random(seeds[i])`` or the one ``py``; reshuffles
        from each state's own generator)."""
        states = self._native_states(states)
        if not states:
            return np.zeros((0, self.num_players))
        return _native.play_out(states, policy, start, seeds, py, **options)

    def _native_states(self, states: Any) -> list[Any]:
        states = list(states)
        for st in states:
            if not isinstance(st, NativeState) or st.num_players != self.num_players:
                raise ConfigError(
                    f"ratatat rollouts: {type(st).__name__} among the states; allowed: native "
                    f"states of this {self.num_players}-player engine (from_python converts a "
                    f"RatatatState)"
                )
        return states
