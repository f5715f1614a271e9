"""flip6's native core against the Python core: lock-step alignment over many games, and speed.

* **lock-step** (``bench/native_lockstep.py``): the Python engine (``rules.py``) and the native
  engine (``native.py``) play the same games side by side, every quantity compared at every step.
  Some games start from stacked decks and scores (``new_game`` options), with various first
  dealers and target scores.
* **speed** (CPU time of this process, ``time.process_time``, so a loaded machine reports what
  one core does): decisions/s of both engines stepped from Python (``legal_actions`` + ``apply``,
  the same random legal actions); the encoder's microseconds per observation (Python encoder,
  compiled encoder on a Python state, compiled encoder on a native state); random rollouts in one
  call (``NativeState.rollouts``) to the game's and to the round's end, decisions/s.

    python bench/native_flip6.py [--games 50000] [--seed 0] [--out bench/results/native_flip6.json]

``tests/test_native_flip6.py`` runs the lock-step on 500 games per player count.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench import native_lockstep
from cardarena.envs.flip6 import encoding
from cardarena.envs.flip6.native import NATIVE_BUILT, NativeFlip6Game, NativeState, compiled_encode
from cardarena.envs.flip6.rules import CARD_CODES, FULL_DECK, Flip6Game

PLAYER_COUNTS = (3, 4, 5, 6)
TARGETS = (60, 60, 25, 100)  #: target scores the games cycle through (60 is the default)


def _options(rng: np.random.Generator, n: int) -> dict[str, Any] | None:
    """``new_game`` options for one game in eight (a stacked deck top, game totals, a dealer)."""
    if rng.integers(8):
        return None
    top = rng.permutation(FULL_DECK)[: int(rng.integers(1, 12))]
    return {
        "deck": [CARD_CODES[c] for c in top],
        "scores": [int(x) for x in rng.integers(0, 20, size=n)],
        "dealer": int(rng.integers(n)),
    }


def _engine_options(plan: np.random.Generator, n: int, g: int) -> dict[str, Any]:
    """A first dealer and a target score per game (60, the default, half the time)."""
    return {"first_dealer": int(plan.integers(n)), "target_score": TARGETS[g % len(TARGETS)]}


def lockstep(num_players: int, games: int, seed: int = 0) -> dict[str, int]:
    """``games`` games of ``num_players`` in lock-step (``bench/native_lockstep.py``)."""
    return native_lockstep.lockstep("flip6", num_players, games, seed, _engine_options, _options)


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
    py = Flip6Game(num_players)
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


def rollout_speed(num_players: int, count: int, horizon: str, seed: int = 0) -> float:
    """Decisions/s (CPU) of ``count`` random rollouts in one call, from a fresh deal."""
    nat = NativeFlip6Game(num_players)
    state = nat.new_game(np.random.default_rng(seed))
    start = time.process_time()
    _values, decisions = nat.rollouts(state, count, seed, horizon)
    return decisions / (time.process_time() - start)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50_000, help="lock-step games in all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed-games", type=int, default=400, help="games per stepping figure")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    if not NATIVE_BUILT:
        raise SystemExit("the native core is not built (setup.py build_ext --inplace)")
    report: dict[str, Any] = {"lockstep": {}, "speed": {}}
    per_count = max(1, -(-args.games // len(PLAYER_COUNTS)))  # at least --games in all
    for n in PLAYER_COUNTS:
        start = time.perf_counter()
        result = lockstep(n, per_count, args.seed)
        result["seconds"] = round(time.perf_counter() - start, 1)
        report["lockstep"][n] = result
        print(f"lock-step {n} players: {result}", flush=True)
    for n in PLAYER_COUNTS:
        row = {
            "python_decisions_per_s": stepping_speed(Flip6Game(n), args.speed_games, args.seed),
            "native_decisions_per_s": stepping_speed(
                NativeFlip6Game(n), args.speed_games, args.seed
            ),
            "encoder_us": encoder_speed(n, seed=args.seed),
            "rollout_game_decisions_per_s": rollout_speed(n, 20_000, "game", args.seed),
            "rollout_round_decisions_per_s": rollout_speed(n, 100_000, "round", args.seed),
        }
        report["speed"][n] = row
        print(f"speed {n} players: {json.dumps(row)}", flush=True)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    main()
