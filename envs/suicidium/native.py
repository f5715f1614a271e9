"""Suicidium on the native core: the compiled engine state and encoder of ``_native.pyx``.

The extension is optional (``setup.py`` builds it when Cython, numpy and a C compiler are there).
This module always imports: ``NATIVE_BUILT`` says whether the extension is there,
``NATIVE_AVAILABLE`` whether it is used (built, and not switched off by ``CARDARENA_CORE=python``
in the environment). The Python engine (``rules.py``) and encoder (``encoding.encode_python``)
stay the reference and the fallback; ``tests/test_native_suicidium.py`` steps both cores side by
side (legal actions, every seat's observation bit for bit, returns, ``to_dict``, the generator's
state).

=============================  ===============================================================
``NativeSuicidiumGame``        a ``SuicidiumGame`` whose states are ``NativeState`` (a C
                               struct): the same games from the same generator
``native_encoder()``           the compiled ``encode(state, seat)`` (a ``SuicidiumState`` or a
                               native state), or None; ``encoding.encode`` is it when available
``rollouts(state, ...)``       random playouts to the game's end, all inside C
``rollout_batch(states)``      many playouts of many states in one call into C, with a rollout
                               policy (``random`` or ``heuristic``, the C port of the scripted
                               baseline), a horizon (game end or N decisions) and a seed;
                               states untouched
``play_out(states, ...)``      ``Rollout.run`` of the search agents in C, in place: the values
                               the Python rollout computes from the same generators
``policy_action(state)``       the action of the C heuristic for the deciding seat (alignment)
=============================  ===============================================================

The heuristic's port (``_native.pyx``, "the heuristic baseline in C") makes the decisions of
``agents/baselines/suicidium.py::HeuristicAgent`` in every mode, with and without the expansion,
out of turn (responses) included: the same view read off the struct, the same doubles in the same
order, the same plan of follow-up actions per seat, and its one random choice (when nothing else
decides) drawn from the seat's own generator with numpy's algorithm.
``NativeSuicidiumGame.rollout_policies`` names its options as the agent's attributes
(``play_threshold``, ``draw_margin``, ``lift_weight``) and ``rng``: the search passes each seat's
agent's generator (``agents/search/rollout.py``), so the engine knows nothing of agents.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cardarena.envs.core.engine import ConfigError, state_error
from cardarena.envs.core.native import NativeEngine, core_choice
from cardarena.envs.suicidium.rules import NUM_ACTIONS, SuicidiumGame, SuicidiumState

try:
    from cardarena.envs.suicidium import _native
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
            "suicidium: the native core is not built (envs/suicidium/_native.pyx needs Cython, "
            "numpy and a C compiler at install time); reinstall with them, or use the Python "
            "core (SuicidiumGame, core='python')"
        )


class NativeSuicidiumGame(NativeEngine, SuicidiumGame):
    """``SuicidiumGame`` on the native core: states are ``NativeState`` (C structs).

    Same options, same games from the same generator, same errors. A ``NativeState`` has the
    read-only attributes of a ``SuicidiumState`` (fresh lists), so everything that only reads a
    state (``card_zones``, renders, views, the encoder, scripted baselines) works on it.
    ``to_dict``/``from_dict``/``resample_hidden`` and ``new_game`` with options go through the
    Python engine (the reference), converting the state.
    """

    state_class = NativeState
    python_state = SuicidiumState

    def __init__(self, num_players: int = 4, mode: str = "SURVIVE", expansion: bool = False):
        _require_built()
        super().__init__(num_players, mode, expansion)
        self.python = SuicidiumGame(num_players, mode, expansion)

    # ---- set-up and conversion ----------------------------------------------------------------
    def new_game(self, rng: np.random.Generator, options: dict[str, Any] | None = None) -> Any:
        if options:  # stacked decks, hands, WP, objects: the Python engine deals, then the copy
            return NativeState.from_python(self.python.new_game(rng, options))
        return NativeState.new_game(
            rng, self.num_players, self.mode, self.expansion, self.action_deck, self.object_deck
        )

    # ---- queries ------------------------------------------------------------------------------
    # ---- play ---------------------------------------------------------------------------------
    def apply(self, state: Any, action: int, seat: int | None = None) -> None:
        try:  # no cost unless raised: a None (or foreign) state has no such attribute
            if state.over or (seat is not None and seat != state.decider):
                self.check_turn(state, seat)  # raises GameOverError / OutOfTurnError
            if type(action) is not int:
                action = int(action)
            if not (0 <= action < NUM_ACTIONS and state.apply(action)):
                raise self.illegal(state, action)
        except AttributeError:
            raise state_error(self, "apply", state) from None

    def rollouts(
        self, state: Any, count: int, seed: int, horizon: str = "game"
    ) -> tuple[np.ndarray, int]:
        """``count`` random-legal-action playouts from ``state`` to the game's end inside C (see
        ``NativeState.rollouts``): (returns float64[count, seats], decisions played)."""
        return state.rollouts(count, seed, horizon)

    # ---- rollout policies in C (agents/search) ------------------------------------------------
    #: policy -> the options of its C port (attribute names of the scripted baseline it ports;
    #: ``rng``: each seat's agent's generator, passed as ``rngs``)
    rollout_policies: dict[str, tuple[str, ...]] = {
        "random": (),
        "heuristic": ("play_threshold", "draw_margin", "lift_weight", "rng"),
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
        (returns float64[len(states) * rollouts, seats], rollout r of state i in row
        i * rollouts + r; decisions played). ``horizon``: ``"game"`` (``"round"`` is the same:
        no rounds) or N decisions (a playout cut before the end is worth 0 to every seat, the
        standing of a game without rounds). Random actions, the heuristic's random choices and
        the engine's draws from ``default_rng(seed)``; the states and their generators are
        unchanged."""
        states = self._native_states(states)
        values, decisions = _native.rollout_batch(
            states, policy, horizon, seed, rollouts, start, **options
        )
        return (values if states else np.zeros((0, self.num_players))), decisions

    def play_out(
        self,
        states: list[Any],
        policy: str,
        start: int | None = None,
        seeds: list[int] | None = None,
        py: Any = None,
        rngs: list[np.random.Generator] | None = None,
        **options: Any,
    ) -> np.ndarray:
        """``Rollout.run`` on every state, in place, in C (``_native.play_out``): values
        float64[len(states), seats], those of the Python rollout from the same generators (the
        random policy's actions from ``random.Random(seeds[i])`` or the one ``py``; the
        heuristic's random choices from ``rngs``, seat k's agent's generator, advanced as the
        agent would advance it)."""
        states = self._native_states(states)
        if not states:
            return np.zeros((0, self.num_players))
        return _native.play_out(states, policy, start, seeds, py, rngs, **options)

    def policy_action(
        self, state: Any, policy: str = "heuristic", rng: Any = None, **options: Any
    ) -> int | None:
        """The action of the C port of ``policy`` (a fresh one: no plan) for the deciding seat
        (None: game over); its random choice, if any, from ``rng``."""
        return _native.policy_action(state, policy, rng, **options)

    def _native_states(self, states: Any) -> list[Any]:
        states = list(states)
        for st in states:
            if not isinstance(st, NativeState) or st.num_players != self.num_players:
                raise ConfigError(
                    f"suicidium rollouts: {type(st).__name__} among the states; allowed: native "
                    f"states of this {self.num_players}-player engine (from_python converts a "
                    f"SuicidiumState)"
                )
        return states
