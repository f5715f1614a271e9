"""Random-play throughput of every registered game next to PettingZoo's classic envs.

    python bench/throughput.py [--seconds 2] [--repeats 3] [--games flip6 ...] [--rss-games 10000]
    python bench/throughput.py --profile sevn/8 [--seconds 5]     # cProfile of one AEC loop

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

Every figure is the median of ``--repeats`` timed runs of ``--seconds``. Prints a table and writes
JSON (``--out``, default bench/results/throughput.json).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardarena import envs  # noqa: E402

#: games whose random games are long: their peak-RSS runs go last
LONG_GAMES = ("sevn", "suicidium")


def aec_steps_per_second(
    make_env: Callable[[], Any], seconds: float, seed: int = 0, reseed: bool = False
) -> float:
    """AEC steps/s of random legal play (the loop of the module docstring) for ``seconds``.

    ``reseed=False`` is the plain (training) loop: ``reset(seed)`` once, then ``reset()`` between
    games; ``reseed=True`` the seeded loop: ``reset(seed)`` before every game (texas_holdem_v4
    rebuilds its rlcard env on a seeded reset, which halves its speed)."""
    env = make_env()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(256):
            if not env.agents:
                games += 1
                if reseed:
                    env.reset(seed=seed + games)
                else:
                    env.reset()
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        if time.perf_counter() >= deadline:
            break
    return steps / (time.perf_counter() - start)


def encoder_cost(game: str, num_players: int, seconds: float) -> tuple[float, float]:
    """(microseconds per ``encode`` call, its share of the plain loop's time): the plain loop of
    ``game`` with its encoder wrapped in a timer (a separate run from the timed ratios)."""
    import dataclasses

    spent = [0.0, 0]
    clock = time.perf_counter

    def make_env() -> Any:
        env = envs.make(game, num_players=num_players)
        encode = env.spec.encode

        def timed(state: Any, seat: int) -> np.ndarray:
            t0 = clock()
            out = encode(state, seat)
            spent[0] += clock() - t0
            spent[1] += 1
            return out

        env.spec = dataclasses.replace(env.spec, encode=timed)
        return env

    start = clock()
    aec_steps_per_second(make_env, seconds)
    took = clock() - start
    return 1e6 * spent[0] / max(spent[1], 1), spent[0] / took


def engine_decisions_per_second(
    game: str, num_players: int, seconds: float, seed: int = 0
) -> float:
    """Decisions/s of random legal play on the bare engine (``legal_actions`` + ``apply``)."""
    engine = envs.get_spec(game).make_engine(num_players=num_players)
    rng = np.random.default_rng(seed)
    # the random choices come from a block of uniforms drawn at once: one rng.integers call per
    # decision (about 1.2 us) would be a third of the time measured, and none of it the engine's
    block = 4096
    uniforms = iter(())
    decisions = 0
    g = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = engine.new_game(np.random.default_rng(seed + g))
        g += 1
        is_over, legal_actions, apply = engine.is_over, engine.legal_actions, engine.apply
        while not is_over(state):
            legal = legal_actions(state)
            u = next(uniforms, None)
            if u is None:
                uniforms = iter(rng.random(block).tolist())
                u = next(uniforms)
            apply(state, legal[int(u * len(legal))])
            decisions += 1
    return decisions / (time.perf_counter() - start)


def median_of(fn: Callable[[], float], repeats: int) -> float:
    return statistics.median(fn() for _ in range(repeats))


def player_counts(game: str) -> list[int]:
    """2 (or the minimum when above 2; plus the minimum when below 2, e.g. a solitaire), 4 (or
    the nearest allowed) and the maximum."""
    cls = envs.get_spec(game).engine_cls
    low, high = cls.min_players, cls.max_players
    return sorted({low, max(2, low) if high >= 2 else low, min(max(4, low), high), high})


def texas_env() -> Any:
    from pettingzoo.classic import texas_holdem_v4

    return texas_holdem_v4.env()


def connect_four_env() -> Any:
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.env()


def interleaved(
    make_env: Callable[[], Any], seconds: float, repeats: int, reseed: bool = False
) -> tuple[list[float], list[float]]:
    """(env steps/s, texas_holdem_v4 steps/s) of ``repeats`` interleaved pairs, both in the plain
    loop (``reseed=False``) or both in the seeded loop."""
    ours, peer = [], []
    for _ in range(repeats):
        peer.append(aec_steps_per_second(texas_env, seconds, reseed=reseed))
        ours.append(aec_steps_per_second(make_env, seconds, reseed=reseed))
    return ours, peer


def aec_ratio(
    game: str, num_players: int, seconds: float, repeats: int = 3, reseed: bool = False
) -> float:
    """AEC steps/s of ``game`` over texas_holdem_v4's, measured interleaved (A B A B ...) so
    that both see the same machine load; the median of ``repeats`` pairs. The plain loop by
    default, the seeded loop with ``reseed=True``."""
    ours, peer = interleaved(
        lambda: envs.make(game, num_players=num_players), seconds, repeats, reseed
    )
    return statistics.median(o / p for o, p in zip(ours, peer, strict=True))


_RSS_SCRIPT = """
import resource, sys
import numpy as np
from cardarena import envs

def peak_kib():
    # VmHWM: this process's own high-water mark. ru_maxrss is not: on Linux it keeps the
    # parent's resident size across fork + exec, so every child would report the bench's own.
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

game, n, games, loop = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = np.random.default_rng(0)
if loop == "aec":
    env = envs.make(game, num_players=n)
    env.reset(seed=0)
    base = peak_kib()
    for g in range(games):
        env.reset(seed=g)
        while env.agents:
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
else:
    engine = envs.get_spec(game).make_engine(num_players=n)
    base = peak_kib()
    for g in range(games):
        state = engine.new_game(np.random.default_rng(g))
        while not engine.is_over(state):
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(rng.integers(len(legal)))])
print(base, peak_kib())
"""


def peak_rss(game: str, num_players: int, games: int, loop: str = "aec") -> tuple[float, float]:
    """(RSS after the imports and one reset, peak RSS) in MiB of a fresh process playing
    ``games`` random games through the AEC loop (``loop="aec"``) or the bare engine."""
    out = subprocess.run(
        [sys.executable, "-c", _RSS_SCRIPT, game, str(num_players), str(games), loop],
        check=True,
        capture_output=True,
        text=True,
        cwd=str(ROOT),
    )
    base, peak = out.stdout.strip().splitlines()[-1].split()
    return int(base) / 1024.0, int(peak) / 1024.0


def peak_rss_mib(game: str, num_players: int, games: int, loop: str = "aec") -> float:
    """Peak resident memory of a fresh process playing ``games`` random games (MiB)."""
    return peak_rss(game, num_players, games, loop)[1]


def profile(target: str, seconds: float, lines: int = 25) -> None:
    """cProfile of the AEC loop of ``target`` ("game/players"), sorted by own time."""
    import cProfile
    import pstats

    game, _, count = target.partition("/")
    n = int(count) if count else None
    options = {"num_players": n} if n else {}
    profiler = cProfile.Profile()
    profiler.enable()
    rate = aec_steps_per_second(lambda: envs.make(game, **options), seconds)
    profiler.disable()
    print(f"{target}: {rate:.0f} AEC steps/s under the profiler")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(lines)


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
    parser.add_argument("--profile", metavar="GAME/N", help="only profile one AEC loop")
    args = parser.parse_args(argv)
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
        "seconds": args.seconds,
        "repeats": args.repeats,
        "peers": {},
        "games": {},
        "rss": {},
    }
    if not args.no_throughput:
        throughput(games, args.seconds, args.repeats, results)
    if args.rss_games:
        print(f"peak RSS, {args.rss_games} random games through the {args.rss_loop} loop:")
        cls_of = {g: envs.get_spec(g).engine_cls for g in games}
        ordered = sorted(games, key=lambda g: (g in LONG_GAMES, g))
        for game in ordered:
            cls = cls_of[game]
            n = min(max(args.rss_players, cls.min_players), cls.max_players)
            start = time.perf_counter()
            base, peak = peak_rss(game, n, args.rss_games, args.rss_loop)
            took = time.perf_counter() - start
            results["rss"][f"{game}/{n}p"] = {
                "games": args.rss_games,
                "loop": args.rss_loop,
                "rss_after_reset_mib": base,
                "peak_rss_mib": peak,
                "seconds": took,
            }
            print(
                f"{f'{game} {n}p':<28} peak {peak:6.1f} MiB (after imports and a reset "
                f"{base:6.1f} MiB)  {took:6.0f} s",
                flush=True,
            )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1))
    print(f"written to {out}")
    return results


if __name__ == "__main__":
    main()
