"""ratatat's native core against the Python core: lock-step alignment over many games, and speed.

* **lock-step** (``bench/native_lockstep.py``): the Python engine (``rules.py``) and the native
  engine (``native.py``) play the same games side by side, every quantity compared at every step.
  The games cycle through the memory modes, R12 turn caps and round counts, with various first
  dealers; some start from stacked decks, scores, dealers and a later round (``new_game``
  options).
* **speed** (CPU time of this process, ``time.process_time``, so a loaded machine reports what
  one core does): decisions/s of both engines stepped from Python (``legal_actions`` + ``apply``,
  the same random legal actions); the encoder's microseconds per observation (Python encoder,
  compiled encoder on a Python state, compiled encoder on a native state); rollouts in one call
  (``NativeState.rollouts``) to the game's and to the round's end, decisions/s, with a random
  policy and with the ``tracker`` baseline at every seat (and, for comparison, the Python
  ``TrackerAgent`` stepping the Python engine).

    python bench/native_ratatat.py [--games 50000] [--seed 0] [--speed-games 100]
        [--rollouts 2000] [--out bench/results/native_ratatat.json]

``tests/test_native_ratatat.py`` runs the lock-step on 500 games per player count.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench import native_lockstep
from cardarena.envs.ratatat import encoding
from cardarena.envs.ratatat.native import (
    NATIVE_BUILT,
    NativeRatatatGame,
    NativeState,
    compiled_encode,
)
from cardarena.envs.ratatat.rules import CARD_CODES, FULL_DECK, MEMORY_MODES, RatatatGame

PLAYER_COUNTS = (2, 3, 4, 5, 6)
#: (max_turns, num_rounds) the games cycle through (None: the default, 30 per player and as
#: many rounds as players). A cap is either the default or at most the player count: a knock
#: within n - 2 turns of the cap leaves a running round with turns == max_turns (R12 caps only
#: a round without a knock), a state the Python engine's ``from_dict`` refuses today, which the
#: harness's ``from_dict`` step would trip on.
SHAPES = ((None, 1), (2, 2), (None, None), (1, 3), (None, 2))


def _options(plan: np.random.Generator, n: int) -> dict[str, Any] | None:
    """``new_game`` options for one game in eight (a stacked deck top, game totals, a dealer,
    sometimes a later round)."""
    if plan.integers(8):
        return None
    top = plan.permutation(FULL_DECK)[: int(plan.integers(1, 30))]
    options: dict[str, Any] = {
        "deck": [CARD_CODES[c] for c in top],
        "scores": [int(x) for x in plan.integers(0, 20, size=n)],
        "dealer": int(plan.integers(n)),
    }
    if plan.integers(2):
        options["round_index"] = 0
    return options


def _engine_options(plan: np.random.Generator, n: int, g: int) -> dict[str, Any]:
    """A first dealer, a memory mode, a turn cap and a round count per game."""
    max_turns, num_rounds = SHAPES[g % len(SHAPES)]
    options: dict[str, Any] = {
        "first_dealer": int(plan.integers(n)),
        "memory": MEMORY_MODES[(g // len(SHAPES)) % len(MEMORY_MODES)],
    }
    if max_turns is not None:
        options["max_turns"] = max_turns
    if num_rounds is not None:
        options["num_rounds"] = num_rounds
    return options


def _short_engine_options(plan: np.random.Generator, n: int, g: int) -> dict[str, Any]:
    """The unit suite's games: mostly one round, half of them under a short R12 cap (one turn
    to one per seat: no knock then, see ``SHAPES``), one in eight of two rounds; every memory
    mode."""
    options: dict[str, Any] = {
        "first_dealer": int(plan.integers(n)),
        "memory": MEMORY_MODES[g % len(MEMORY_MODES)],
        "num_rounds": 2 if g % 8 == 7 else 1,
    }
    if plan.integers(2):
        options["max_turns"] = int(plan.integers(1, n + 1))
    return options


def lockstep(num_players: int, games: int, seed: int = 0, short: bool = False) -> dict[str, int]:
    """``games`` games of ``num_players`` in lock-step (``bench/native_lockstep.py``); ``short``:
    the unit suite's shorter games (mostly one round, short turn caps)."""
    engine_options = _short_engine_options if short else _engine_options
    return native_lockstep.lockstep("ratatat", num_players, games, seed, engine_options, _options)


# ---- speed --------------------------------------------------------------------------------------
def stepping_speed(engine: Any, games: int, seed: int = 0) -> float:
    """Decisions/s (CPU) of ``engine`` stepped from Python with random legal actions."""
    rng = np.random.default_rng(seed)
    picks = rng.random(1 << 16).tolist()
    k = steps = 0
    start = time.process_time()
    for g in range(games):
        state = engine.new_game(np.random.default_rng([seed, g]))
        while not engine.is_over(state):
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(picks[k] * len(legal))])
            k = (k + 1) & 0xFFFF
            steps += 1
    return steps / (time.process_time() - start)


def encoder_speed(num_players: int, positions: int = 2000, seed: int = 0) -> dict[str, float]:
    """Microseconds (CPU) per observation of the three encoders, over positions of random games."""
    py = RatatatGame(num_players)
    rng = np.random.default_rng(seed)
    states = []
    state = py.new_game(np.random.default_rng(seed))
    while len(states) < positions:
        if py.is_over(state):
            state = py.new_game(np.random.default_rng([seed, len(states)]))
        states.append((py.clone(state), int(rng.integers(num_players))))
        legal = py.legal_actions(state)
        py.apply(state, legal[int(rng.integers(len(legal)))])
    natives = [(NativeState.from_python(s), seat) for s, seat in states]
    out = {}
    for name, fn, pairs in (
        ("python", encoding.encode_python, states),
        ("compiled_python_state", compiled_encode, states),
        ("compiled_native_state", None, natives),
    ):
        repeats = 0
        start = time.process_time()
        while True:
            if fn is None:
                for s, seat in pairs:
                    s.encode(seat)
            else:
                for s, seat in pairs:
                    fn(s, seat)
            repeats += 1
            elapsed = time.process_time() - start
            if elapsed > 0.5:
                break
        out[name] = elapsed / (repeats * len(pairs)) * 1e6
    return out


def rollout_speed(
    num_players: int, count: int, horizon: str, seed: int = 0, policy: str = "random"
) -> float:
    """Decisions/s (CPU) of ``count`` rollouts in one call (``policy`` at every seat), from a
    fresh deal."""
    nat = NativeRatatatGame(num_players)
    state = nat.new_game(np.random.default_rng(seed))
    start = time.process_time()
    _values, decisions = nat.rollouts(state, count, seed, horizon, policy)
    return decisions / (time.process_time() - start)


def python_tracker_speed(num_players: int, games: int, seed: int = 0) -> float:
    """Decisions/s (CPU) of the Python ``TrackerAgent`` at every seat on the Python engine (what
    a tracker rollout costs without the native core): view, mask, act, apply."""
    from cardarena.agents.baselines.ratatat import TrackerAgent

    py = RatatatGame(num_players)
    agent = TrackerAgent(seed=seed)
    steps = 0
    start = time.process_time()
    for g in range(games):
        state = py.new_game(np.random.default_rng([seed, g]))
        while not py.is_over(state):
            mask = np.zeros(py.num_actions, dtype=np.int8)
            mask[py.legal_actions(state)] = 1
            seat = state.decider
            py.apply(state, agent.act(None, mask, encoding.view(state, seat)))
            steps += 1
    return steps / (time.process_time() - start)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50_000, help="lock-step games in all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed-games", type=int, default=100, help="games per stepping figure")
    parser.add_argument("--rollouts", type=int, default=2000, help="rollouts per rollout figure")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    if not NATIVE_BUILT:
        raise SystemExit("the native core is not built (setup.py build_ext --inplace)")
    report: dict[str, Any] = {"lockstep": {}, "speed": {}}
    # at least --games in all (rounded up per player count); --games 0: no lock-step
    per_count = max(1, -(-args.games // len(PLAYER_COUNTS))) if args.games else 0
    for n in PLAYER_COUNTS if per_count else ():
        start = time.perf_counter()
        result = lockstep(n, per_count, args.seed)
        result["seconds"] = round(time.perf_counter() - start, 1)
        report["lockstep"][n] = result
        print(f"lock-step {n} players: {result}", flush=True)
    for n in PLAYER_COUNTS:
        row = {
            "python_decisions_per_s": stepping_speed(RatatatGame(n), args.speed_games, args.seed),
            "native_decisions_per_s": stepping_speed(
                NativeRatatatGame(n), args.speed_games, args.seed
            ),
            "encoder_us": encoder_speed(n, seed=args.seed),
            "rollout_game_decisions_per_s": rollout_speed(n, args.rollouts, "game", args.seed),
            "rollout_round_decisions_per_s": rollout_speed(
                n, 10 * args.rollouts, "round", args.seed
            ),
            "tracker_python_decisions_per_s": python_tracker_speed(n, 5, args.seed),
            "rollout_tracker_game_decisions_per_s": rollout_speed(
                n, args.rollouts, "game", args.seed, "tracker"
            ),
            "rollout_tracker_round_decisions_per_s": rollout_speed(
                n, 10 * args.rollouts, "round", args.seed, "tracker"
            ),
        }
        report["speed"][n] = row
        print(f"speed {n} players: {json.dumps(row)}", flush=True)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    main()
