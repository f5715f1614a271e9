"""How much of an observation an incremental encoder could reuse, in the plain AEC loop.

An encoder that keeps each seat's last output and rewrites only the parts that changed (version
counters bumped by the engine, a dirty set, ...) can at best skip the parts that are unchanged.
This measures that ceiling on the plain loop's own observations (``bench/aec_timing.py``): for
every observation, whether each present seat's block and the rest of the vector (everything after
or before the seat blocks) are byte-identical to

* the same seat's previous observation (a per-observer cache), and
* the previous observation of any seat (a cache of the last output, one action ago).

It also gives the share of observations made by the same seat as the one before, and the share of
the vector's elements that are unchanged (against both). ``--budget`` adds what an encoder may cost
for the plain loop to reach 3x and 4x texas_holdem_v4: the same loop with a constant observation
(a copy of one zero vector) is timed against texas_holdem_v4, interleaved (``--seconds`` each,
3 pairs, thread CPU time), and the encoder budget is texas's step time / 3 (or / 4) minus the
constant loop's step time.

    python bench/obs_reuse.py [--games sevn suicidium] [--seconds 2] [--budget]

Figures: bench/README.md ("Incremental observations").
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.aec_timing import (  # noqa: E402
    aec_steps_per_second,
    interleaved,
    player_counts,
    use_clock,
)
from cardarena import envs  # noqa: E402


def seat_layout(game: str) -> tuple[int, int]:
    """(offset of the first seat block, seat block size) of ``game``'s observation."""
    enc = importlib.import_module(f"cardarena.envs.{game}.encoding")
    if game == "thegame":  # card planes and pile blocks come first
        from cardarena.envs.thegame.rules import NUM_CARDS, NUM_PILES

        return NUM_CARDS * 3 + enc.PILE_BLOCK * NUM_PILES, enc.SEAT_BLOCK
    return 0, enc.SEAT_BLOCK


def reuse(game: str, num_players: int, seconds: float) -> dict[str, float]:
    """The shares described in the module docstring, over ``seconds`` of the plain loop."""
    offset, block = seat_layout(game)
    stop = offset + block * num_players
    last_of: dict[int, np.ndarray] = {}
    prev: list[Any] = [None, None]  # the previous observation and its seat
    tally = dict.fromkeys(
        ("obs", "compared", "same_seat", "blocks", "blocks_seat", "blocks_any", "rest_seat"), 0
    )
    tally.update(rest_any=0, elements=0.0, elements_any=0.0)

    def parts(x: np.ndarray) -> tuple[list[bytes], bytes]:
        b = x.tobytes()
        seats = [
            b[4 * (offset + s * block) : 4 * (offset + (s + 1) * block)] for s in range(num_players)
        ]
        return seats, b[: 4 * offset] + b[4 * stop :]

    def make_env() -> Any:
        env = envs.make(game, num_players=num_players)
        encode = env.spec.encode

        def watched(state: Any, seat: int) -> np.ndarray:
            out = encode(state, seat)
            tally["obs"] += 1
            seats, rest = parts(out)
            mine = last_of.get(seat)
            if mine is not None:
                tally["compared"] += 1
                tally["same_seat"] += prev[1] == seat
                old_seats, old_rest = parts(mine)
                any_seats, any_rest = parts(prev[0])
                tally["blocks"] += num_players
                tally["blocks_seat"] += sum(map(bytes.__eq__, seats, old_seats))
                tally["blocks_any"] += sum(map(bytes.__eq__, seats, any_seats))
                tally["rest_seat"] += rest == old_rest
                tally["rest_any"] += rest == any_rest
                tally["elements"] += float(np.mean(out == mine))
                tally["elements_any"] += float(np.mean(out == prev[0]))
            last_of[seat] = out.copy()
            prev[:] = [last_of[seat], seat]
            return out

        env.spec = dataclasses.replace(env.spec, encode=watched)
        return env

    aec_steps_per_second(make_env, seconds)
    k = max(tally["compared"], 1)
    b = max(tally["blocks"], 1)
    return {
        "observations": tally["obs"],
        "same seat as the step before": tally["same_seat"] / k,
        "seat blocks unchanged, same seat's last": tally["blocks_seat"] / b,
        "seat blocks unchanged, last observation": tally["blocks_any"] / b,
        "rest unchanged, same seat's last": tally["rest_seat"] / k,
        "rest unchanged, last observation": tally["rest_any"] / k,
        "elements unchanged, same seat's last": tally["elements"] / k,
        "elements unchanged, last observation": tally["elements_any"] / k,
    }


def budget(game: str, num_players: int, seconds: float) -> tuple[float, float, float]:
    """(constant-observation loop over texas_holdem_v4, encoder microseconds left for 3x, for
    4x), thread CPU time, 3 interleaved pairs."""

    def make_env() -> Any:
        env = envs.make(game, num_players=num_players)
        zeros = np.zeros(env.spec.obs_size, np.float32)
        env.spec = dataclasses.replace(env.spec, encode=lambda state, seat: zeros.copy())
        return env

    ours, texas = interleaved(make_env, seconds, 3)
    ratio = statistics.median(o / t for o, t in zip(ours, texas, strict=True))
    step, texas_step = 1e6 / statistics.median(ours), 1e6 / statistics.median(texas)
    return ratio, texas_step / 3 - step, texas_step / 4 - step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=None, help="default: every game")
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="plain-loop thread CPU seconds per run"
    )
    parser.add_argument("--budget", action="store_true", help="also the encoder budget for 3x, 4x")
    args = parser.parse_args()
    use_clock("cpu")  # every run: this thread's CPU time (a busy machine gives each run its share)
    for game in args.games or envs.names():
        for n in player_counts(game):
            shares = reuse(game, n, args.seconds)
            cells = [f"{shares.pop('observations')} obs"]
            cells += [f"{name} {value:.2f}" for name, value in shares.items()]
            if args.budget:
                ratio, for3, for4 = budget(game, n, args.seconds)
                cells.append(
                    f"constant-observation loop {ratio:.2f}x texas, encoder budget "
                    f"{for3:.1f} us for 3x, {for4:.1f} us for 4x"
                )
            print(f"{game} {n}p: " + "; ".join(cells), flush=True)


if __name__ == "__main__":
    main()
