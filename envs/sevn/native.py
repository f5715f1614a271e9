"""SEVN on the native core: the compiled engine state and encoder of ``_native.pyx``.

The extension is optional (``setup.py`` builds it when Cython, numpy and a C compiler are there).
This module always imports: ``NATIVE_BUILT`` says whether the extension is there,
``NATIVE_AVAILABLE`` whether it is used (built, and not switched off by ``CARDARENA_CORE=python``
in the environment). The Python engine (``rules.py``) and encoder (``encoding.py``) stay the
reference and the fallback; ``tests/test_native_sevn.py`` steps both cores side by side (legal
actions, every seat's observation bit for bit, returns, ``to_dict``, the generator's state).

=========================  ===================================================================
``NativeSevnGame``         a ``SevnGame`` whose states are ``NativeState`` (a C struct): the
                           same games from the same generator, faster stepped from Python
``native_encoder()``       the compiled ``encode(state, seat)`` (a ``SevnState`` or a native
                           state), or None; ``encoding.encode`` is it when it is available
``rollouts(state, ...)``   random playouts to the hand's or the game's end, all inside C
``play_out(states, ...)``  ``Rollout.run`` of the search agents in C, in place: the values the
                           Python rollout computes from the same generators (``agents/search``)
``policy_action(state)``   the action of a C rollout policy (the alignment tests)
=========================  ===================================================================

The rollout policies are C ports of the scripted baselines (``agents/baselines/sevn.py``:
``threshold`` and ``ev``), named in ``NativeSevnGame.rollout_policies`` with the options each
takes, named as the attributes of the baseline (``ThresholdAgent.threshold``,
``ExpectedValueAgent.margin``, ...): the search reads them off its own agents, and the engine
knows nothing of agents. Neither baseline draws a random number, so the ports make the agents'
decisions from the same positions (``tests/test_native_sevn.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cardarena.envs.core.engine import ConfigError, state_error
from cardarena.envs.core.native import NativeEngine, core_choice
from cardarena.envs.sevn.rules import NUM_ACTIONS, SevnGame, SevnState

try:
    from cardarena.envs.sevn import _native
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
            "sevn: the native core is not built (envs/sevn/_native.pyx needs Cython, numpy and "
            "a C compiler at install time); reinstall with them, or use the Python core "
            "(SevnGame, core='python')"
        )


class NativeSevnGame(NativeEngine, SevnGame):
    """``SevnGame`` on the native core: states are ``NativeState`` (C structs).

    Same options, same games from the same generator, same errors. A ``NativeState`` has the
    read-only attributes of a ``SevnState`` (fresh lists), so everything that only reads a state
    (``potential``, ``card_zones``, renders, views, the encoder, scripted baselines) works on it.
    ``to_dict``/``from_dict``/``resample_hidden`` and ``new_game`` with options go through the
    Python engine (the reference), converting the state.
    """

    state_class = NativeState
    python_state = SevnState

    def __init__(self, num_players: int = 4, first_dealer: int = 0, target_score: int = 250):
        _require_built()
        super().__init__(num_players, first_dealer, target_score)
        self.python = SevnGame(num_players, first_dealer, target_score)

    # ---- set-up and conversion ----------------------------------------------------------------
    def new_game(self, rng: np.random.Generator, options: dict[str, Any] | None = None) -> Any:
        if options:  # stacked decks, scores, dealer: the Python engine deals, then the copy
            return NativeState.from_python(self.python.new_game(rng, options))
        return NativeState.new_game(rng, self.num_players, self.target_score, self.first_dealer)

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
        self, state: Any, count: int, seed: int, horizon: str = "game"
    ) -> tuple[np.ndarray, int]:
        """``count`` random-legal-action playouts from ``state`` inside C (see
        ``NativeState.rollouts``): (values float64[count, seats], decisions played)."""
        return state.rollouts(count, seed, horizon)

    # ---- rollout policies in C (agents/search) ------------------------------------------------
    #: policy -> the options of its C port (attribute names of the scripted baseline it ports)
    rollout_policies: dict[str, tuple[str, ...]] = {
        "random": (),
        "threshold": ("threshold",),
        "ev": ("margin", "chase_in_hand", "lead_aversion"),
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

    def policy_action(self, state: Any, policy: str, **options: Any) -> int | None:
        """The action of the C port of ``policy`` for the deciding seat (None: game over)."""
        return _native.policy_action(state, policy, **options)

    def _native_states(self, states: Any) -> list[Any]:
        states = list(states)
        for st in states:
            if not isinstance(st, NativeState) or st.num_players != self.num_players:
                raise ConfigError(
                    f"sevn rollouts: {type(st).__name__} among the states; allowed: native "
                    f"states of this {self.num_players}-player engine (from_python converts a "
                    f"SevnState)"
                )
        return states
