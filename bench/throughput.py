"""Random-play throughput of every registered game next to PettingZoo's classic envs.

    python bench/throughput.py [--seconds 2] [--repeats 3] [--games flip6 ...] [--rss-games 10000]
    python bench/throughput.py --profile sevn/8 [--seconds 5]     # cProfile of one AEC loop
    python bench/throughput.py --clock cpu ...    # thread CPU time: a machine shared with other jobs

What is measured, for every game at 2 (or its minimum, and 1 for a solitaire), 4 and its maximum
player count (bench/README.md has the latest figures):

* AEC steps/s through ``envs.make`` (the ``env()`` with its safety checks), the same loop for
  every env, PettingZoo's included: ``env.last()`` (observation + action mask), a random legal
  action drawn from the mask with numpy, ``env.step``; terminated agents are stepped with None and
  the env is reset when every agent is done. Two loops: the plain loop (``reset(seed)`` once, then
  ``reset()`` between games, as training does; the headline) and the seeded loop
  (``reset(seed)`` before every game, which halves texas_holdem_v4's speed: it rebuilds its rlcard
  env on a seeded reset).
* Its ratio to PettingZoo's texas_holdem_v4 in the same loop, measured interleaved (texas, game,
  texas, game, ...) so that both see the same machine load; the median of ``--repeats`` pairs.
  connect_four_v3 is measured the same way against texas_holdem_v4 once per loop, which gives the
  ratio to connect_four_v3.
* Engine decisions/s: ``legal_actions`` + ``apply`` only (no observation, no env), random play
  (the random choices drawn in blocks, not one ``rng.integers`` call per decision).
* The encoder's microseconds per observation and its share of a plain-loop step, from a separate
  run with the encoder wrapped in a timer.
* Peak RSS: a fresh process playing ``--rss-games`` random games through the AEC loop above, per
  game at ``--rss-players`` (4) players; the long games (sevn, suicidium) run last.

Every figure is the median of ``--repeats`` timed runs of ``--seconds`` (wall seconds, or with
``--clock cpu`` this thread's CPU seconds, which leave out the waits for a core on a busy
machine). Prints a table and writes JSON (``--out``, default bench/results/throughput.json). The
timed loops are in ``bench/aec_timing.py``, the peak-RSS runs in ``bench/peak_rss.py``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.aec_timing import (  # noqa: E402
    aec_ratio,
    aec_steps_per_second,
    connect_four_env,
    encoder_cost,
    engine_decisions_per_second,
    interleaved,
    median_of,
    player_counts,
    profile,
    texas_env,
    use_clock,
)
from bench.peak_rss import rss_section  # noqa: E402
from cardarena import envs  # noqa: E402

__all__ = [
    "aec_ratio",
    "aec_steps_per_second",
    "encoder_cost",
    "engine_decisions_per_second",
    "interleaved",
    "player_counts",
    "texas_env",
]

LOOPS = (("plain", False), ("seeded", True))


def throughput(games: list[str], seconds: float, repeats: int, results: dict[str, Any]) -> None:
    """The timed part: peers, then every game at its player counts, into ``results``."""
    results["peers"] = {}
    for loop, reseed in LOOPS:
        c4, texas = interleaved(connect_four_env, seconds, repeats, reseed)
        c4_ratio = statistics.median(c / t for c, t in zip(c4, texas, strict=True))
        results["peers"][loop] = {
            "texas_holdem_v4": statistics.median(texas),
            "connect_four_v3": statistics.median(c4),
            "connect_four_v3_vs_texas_holdem_v4": c4_ratio,
        }
        print(
            f"{loop} loop: pettingzoo texas_holdem_v4 {statistics.median(texas):.0f} AEC steps/s,"
            f" connect_four_v3 {statistics.median(c4):.0f} (x{c4_ratio:.2f} texas)"
        )
    print(
        f"{'game':<14} {'plain steps/s':>13} {'x texas':>7} {'x c4':>5}"
        f" {'seeded steps/s':>14} {'x texas':>7} {'engine dec/s':>12} {'enc us':>6} {'enc %':>5}"
    )
    for game in games:
        for n in player_counts(game):
            row: dict[str, Any] = {}
            for loop, reseed in LOOPS:
                ours, peer = interleaved(
                    lambda g=game, k=n: envs.make(g, num_players=k), seconds, repeats, reseed
                )
                ratio = statistics.median(o / p for o, p in zip(ours, peer, strict=True))
                row[loop] = {
                    "aec_steps_per_s": statistics.median(ours),
                    "texas_holdem_steps_per_s": statistics.median(peer),
                    "ratio_vs_texas_holdem": ratio,
                    "ratio_vs_connect_four": ratio
                    / results["peers"][loop]["connect_four_v3_vs_texas_holdem_v4"],
                }
            row["engine_decisions_per_s"] = median_of(
                lambda g=game, k=n: engine_decisions_per_second(g, k, seconds), repeats
            )
            us, share = encoder_cost(game, n, seconds)
            row["encode_us_per_observation"] = us
            row["encode_share_of_plain_step"] = share
            results["games"][f"{game}/{n}p"] = row
            plain, seeded = row["plain"], row["seeded"]
            print(
                f"{f'{game} {n}p':<14} {plain['aec_steps_per_s']:>13.0f}"
                f" {plain['ratio_vs_texas_holdem']:>7.2f} {plain['ratio_vs_connect_four']:>5.2f}"
                f" {seeded['aec_steps_per_s']:>14.0f} {seeded['ratio_vs_texas_holdem']:>7.2f}"
                f" {row['engine_decisions_per_s']:>12.0f} {us:>6.1f} {100 * share:>5.0f}",
                flush=True,
            )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", nargs="*", default=None, help="games (default: all registered)")
    parser.add_argument("--out", default="bench/results/throughput.json")
    parser.add_argument(
        "--rss-games",
        type=int,
        default=10_000,
        help="random games of the peak-RSS runs (0: skip them)",
    )
    parser.add_argument("--rss-players", type=int, default=4, help="player count of those runs")
    parser.add_argument(
        "--rss-loop",
        choices=("aec", "engine"),
        default="aec",
        help="play the peak-RSS games through the AEC env (default) or the bare engine",
    )
    parser.add_argument(
        "--no-throughput", action="store_true", help="skip the timings (peak RSS runs only)"
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time with the wall clock (default) or the thread's CPU time (a machine shared with "
        "other jobs: leaves out the time spent waiting for a core)",
    )
    parser.add_argument("--profile", metavar="GAME/N", help="only profile one AEC loop")
    args = parser.parse_args(argv)
    use_clock(args.clock)
    if args.profile:
        profile(args.profile, args.seconds)
        return {}

    games = args.games or envs.names()
    results: dict[str, Any] = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "command": "python bench/throughput.py " + " ".join(argv or sys.argv[1:]),
        "machine": {
            "python": platform.python_version(),
            "processor": platform.processor(),
            "cpus": os.cpu_count(),
            "load_average": list(os.getloadavg()),
        },
        "clock": args.clock,
        "seconds": args.seconds,
        "repeats": args.repeats,
        "peers": {},
        "games": {},
        "rss": {},
    }
    if not args.no_throughput:
        throughput(games, args.seconds, args.repeats, results)
    if args.rss_games:
        rss_section(games, args.rss_games, args.rss_players, args.rss_loop, results["rss"])
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1))
    print(f"written to {out}")
    return results


if __name__ == "__main__":
    main()
