"""suicidium's native core against the Python core: the compiled encoder, bit for bit, and speed.

* **encoder alignment**: random games of every player count and option set (``game.toml``'s
  ``option_sets``: mode SURVIVE / DEPRESSION, base deck / expansion), the reference encoder
  (``encoding.encode_python``) and the compiled one (``native.compiled_encode``) compared byte for
  byte on every seat of every step.
* **speed** (CPU time of this process, ``time.process_time``, so a loaded machine reports what
  one core does): microseconds per observation of both encoders over positions of random games.

    python bench/native_suicidium.py [--games 300] [--seed 0] [--out bench/results/native_suicidium.json]

``tests/test_native_suicidium.py`` runs the alignment on fewer games.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from cardarena.envs.suicidium import encoding
from cardarena.envs.suicidium.native import NATIVE_BUILT, compiled_encode
from cardarena.envs.suicidium.rules import SuicidiumGame

PLAYER_COUNTS = (2, 3, 4, 5)
#: the engine option sets that change the encoding (game.toml's option_sets)
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {"mode": "SURVIVE", "expansion": False},
    {"mode": "SURVIVE", "expansion": True},
    {"mode": "DEPRESSION", "expansion": False},
    {"mode": "DEPRESSION", "expansion": True},
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
    out = {}
    for name, fn in (("python", encoding.encode_python), ("compiled", compiled_encode)):
        repeats = 0
        start = time.process_time()
        while True:
            for s, seat in pairs:
                fn(s, seat)
            repeats += 1
            elapsed = time.process_time() - start
            if elapsed > 0.5:
                break
        out[name] = elapsed / (repeats * len(pairs)) * 1e6
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=int, default=300, help="encoder games per player count and option set"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    if not NATIVE_BUILT:
        raise SystemExit("the native core is not built (setup.py build_ext --inplace)")
    report: dict[str, Any] = {"encoder": {}, "speed": {}}
    for n in PLAYER_COUNTS:
        for options in OPTION_SETS:
            label = f"{n} {options['mode']} expansion={options['expansion']}"
            start = time.perf_counter()
            result: dict[str, Any] = encoder_alignment(n, options, args.games, args.seed)
            result["seconds"] = round(time.perf_counter() - start, 1)
            report["encoder"][label] = result
            print(f"encoder {label}: {result}", flush=True)
    for n in PLAYER_COUNTS:
        options = OPTION_SETS[1]
        row = {"encoder_us": encoder_speed(n, options, seed=args.seed)}
        report["speed"][n] = row
        print(f"speed {n} players {options}: {json.dumps(row)}", flush=True)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    main()
