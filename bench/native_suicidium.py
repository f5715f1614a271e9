"""suicidium's native core against the Python core: lock-step alignment over many games, the
compiled encoder bit for bit, and speed.

* **lock-step** (``bench/native_lockstep.py``): the Python engine (``rules.py``) and the native
  engine (``native.py``) play the same games side by side, every quantity compared at every step,
  the option sets (mode SURVIVE / DEPRESSION, base deck / expansion) in turn. Eleven games in
  twelve start from ``new_game`` options (WP 1-3, objects already held, a stacked deck top, a first
  player: short games that reach U5 at once), the others from a plain deal.
* **encoder alignment**: random games of every player count and option set (``game.toml``'s
  ``option_sets``), the reference encoder (``encoding.encode_python``) and the compiled one
  (``native.compiled_encode``) compared byte for byte on every seat of every step.
* **speed** (CPU time of this process, ``time.process_time``, so a loaded machine reports what
  one core does): decisions/s of both engines stepped from Python (``legal_actions`` + ``apply``,
  the same random legal actions); microseconds per observation of the encoders (Python, compiled
  on a Python state, compiled on a native state); random rollouts in one call
  (``NativeState.rollouts``), decisions/s.

    python -m bench.native_suicidium [--games 50000] [--encoder-games 300] [--seed 0] [--out F]

``tests/test_native_suicidium.py`` runs the lock-step on 500 games per player count and the
encoder alignment on fewer games.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench import native_lockstep
from cardarena.envs.suicidium import encoding
from cardarena.envs.suicidium.native import (
    NATIVE_BUILT,
    NativeState,
    NativeSuicidiumGame,
    compiled_encode,
)
from cardarena.envs.suicidium.rules import BASE_DECK, CARD_IDS, OBJECT_CODES, SuicidiumGame

PLAYER_COUNTS = (2, 3, 4, 5)
#: the engine option sets that change the encoding (game.toml's option_sets)
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {"mode": "SURVIVE", "expansion": False},
    {"mode": "SURVIVE", "expansion": True},
    {"mode": "DEPRESSION", "expansion": False},
    {"mode": "DEPRESSION", "expansion": True},
)


def _options(plan: np.random.Generator, n: int) -> dict[str, Any] | None:
    """``new_game`` options for eleven games in twelve: WP 1-3, objects already held (every seat
    one, or every seat RAZOR, NOOSE and POISON (and HARAKIRI at 5 players, U35) with BOOTH on the
    object pile, so that its next object is a match: short games that reach U5 at once), now and then a stacked deck top (base
    cards: legal with either deck), a first player."""
    if plan.integers(12) == 0:
        return None
    options: dict[str, Any] = {
        "wp": [int(w) for w in plan.integers(1, 4, size=n)],
        "first_player": int(plan.integers(n)),
    }
    if plan.integers(2):  # the next object is BOOTH or repeats a type held: a match
        every = ["RAZOR", "NOOSE", "POISON"] + (["HARAKIRI"] if n == 5 else [])
        options["held"] = [list(every) for _ in range(n)]
        options["objects"] = ["BOOTH"]
    else:
        # no BOOTH: it matches every type (U5, U36), so no seat still playing holds it
        objects = plan.permutation([0] * 4 + [1] * 4 + [2] * 4)[:n].tolist()
        options["held"] = [[OBJECT_CODES[o]] for o in objects]
    if plan.integers(3) == 0:
        top = plan.permutation(BASE_DECK)[: int(plan.integers(1, 20))]
        options["deck"] = [CARD_IDS[c] for c in top]
    return options


def _engine_options(plan: np.random.Generator, n: int, g: int) -> dict[str, Any]:
    """The option sets in turn."""
    return dict(OPTION_SETS[g % len(OPTION_SETS)])


def lockstep(num_players: int, games: int, seed: int = 0) -> dict[str, int]:
    """``games`` games of ``num_players`` in lock-step (``bench/native_lockstep.py``)."""
    return native_lockstep.lockstep(
        "suicidium", num_players, games, seed, _engine_options, _options
    )


def random_games(num_players: int, options: dict[str, Any], games: int, seed: int) -> Any:
    """The states of ``games`` random games (random legal actions), every step, as they come
    (the same object, stepped: read it before the next one)."""
    engine = SuicidiumGame(num_players, **options)
    plan = np.random.default_rng([seed, num_players, games])
    for g in range(games):
        state = engine.new_game(np.random.default_rng([seed, num_players, g]))
        while True:
            yield state
            if state.over:
                break
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(plan.integers(len(legal)))])


def encoder_alignment(
    num_players: int, options: dict[str, Any], games: int, seed: int = 0
) -> dict[str, int]:
    """Both encoders on every seat of every step of ``games`` random games; the counts (an
    AssertionError names the first observation that differs)."""
    steps = observations = 0
    for state in random_games(num_players, options, games, seed):
        steps += 1
        for seat in range(num_players):
            want = encoding.encode_python(state, seat)
            got = compiled_encode(state, seat)
            if got.tobytes() != want.tobytes():
                where = np.flatnonzero(got != want)[:8].tolist()
                raise AssertionError(
                    f"{num_players} players {options}, step {steps}, seat {seat}: the compiled "
                    f"observation differs at {where}: {got[where]} != {want[where]}"
                )
            observations += 1
    return {"games": games, "steps": steps, "observations": observations}


def encoder_speed(
    num_players: int, options: dict[str, Any], positions: int = 2000, seed: int = 0
) -> dict[str, float]:
    """Microseconds (CPU) per observation of both encoders, over positions of random games."""
    engine = SuicidiumGame(num_players, **options)
    rng = np.random.default_rng(seed)
    pairs = []
    for state in random_games(num_players, options, 10_000, seed):
        pairs.append((engine.clone(state), int(rng.integers(num_players))))
        if len(pairs) >= positions:
            break
    natives = [(NativeState.from_python(s), seat) for s, seat in pairs]
    out = {}
    for name, fn, states in (
        ("python", encoding.encode_python, pairs),
        ("compiled_python_state", compiled_encode, pairs),
        ("compiled_native_state", compiled_encode, natives),
    ):
        repeats = 0
        start = time.process_time()
        while True:
            for s, seat in states:
                fn(s, seat)
            repeats += 1
            elapsed = time.process_time() - start
            if elapsed > 0.5:
                break
        out[name] = elapsed / (repeats * len(states)) * 1e6
    return out


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


def rollout_speed(num_players: int, options: dict[str, Any], count: int, seed: int = 0) -> float:
    """Decisions/s (CPU) of ``count`` random rollouts in one call, from a fresh deal."""
    nat = NativeSuicidiumGame(num_players, **options)
    state = nat.new_game(np.random.default_rng(seed))
    start = time.process_time()
    _values, decisions = nat.rollouts(state, count, seed)
    return decisions / (time.process_time() - start)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50_000, help="lock-step games in all")
    parser.add_argument(
        "--encoder-games", type=int, default=300, help="games per player count and option set"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed-games", type=int, default=200, help="games per stepping figure")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    if not NATIVE_BUILT:
        raise SystemExit("the native core is not built (setup.py build_ext --inplace)")
    report: dict[str, Any] = {"lockstep": {}, "encoder": {}, "speed": {}}
    per_count = max(1, -(-args.games // len(PLAYER_COUNTS)))  # at least --games in all
    for n in PLAYER_COUNTS:
        start = time.perf_counter()
        steps: dict[str, Any] = lockstep(n, per_count, args.seed)
        steps["seconds"] = round(time.perf_counter() - start, 1)
        report["lockstep"][n] = steps
        print(f"lock-step {n} players: {steps}", flush=True)
    for n in PLAYER_COUNTS:
        for options in OPTION_SETS:
            label = f"{n} {options['mode']} expansion={options['expansion']}"
            start = time.perf_counter()
            result: dict[str, Any] = encoder_alignment(n, options, args.encoder_games, args.seed)
            result["seconds"] = round(time.perf_counter() - start, 1)
            report["encoder"][label] = result
            print(f"encoder {label}: {result}", flush=True)
    for n in PLAYER_COUNTS:
        options = OPTION_SETS[1]
        row = {
            "python_decisions_per_s": stepping_speed(
                SuicidiumGame(n, **options), args.speed_games, args.seed
            ),
            "native_decisions_per_s": stepping_speed(
                NativeSuicidiumGame(n, **options), args.speed_games, args.seed
            ),
            "encoder_us": encoder_speed(n, options, seed=args.seed),
            "rollout_decisions_per_s": rollout_speed(n, options, 2000, args.seed),
        }
        report["speed"][n] = row
        print(f"speed {n} players {options}: {json.dumps(row)}", flush=True)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    main()
