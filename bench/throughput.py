"""Random-play throughput of every registered game next to PettingZoo's classic envs.

    python bench/throughput.py [--seconds 2] [--repeats 3] [--rss-games 10000]

AEC loop, the same for every env: ``env.last()`` (observation + mask), a random legal action
drawn from the mask with numpy, ``env.step``; terminated agents are stepped with None and the env
is reset when every agent is done. Engine loop: ``legal_actions`` + ``apply`` only. Each figure is
the median of ``--repeats`` timed runs; ratios are against texas_holdem_v4 (and connect_four_v3)
measured in the same run. Peak RSS: a fresh process playing ``--rss-games`` random games.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import envs  # noqa: E402


def aec_steps_per_second(make_env, seconds: float, seed: int = 0) -> float:
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
                env.reset(seed=seed + games)
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


def engine_decisions_per_second(
    game: str, num_players: int, seconds: float, seed: int = 0
) -> float:
    engine = envs.get_spec(game).make_engine(num_players=num_players)
    rng = np.random.default_rng(seed)
    decisions = 0
    g = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = engine.new_game(np.random.default_rng(seed + g))
        g += 1
        while not engine.is_over(state):
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(rng.integers(len(legal)))])
            decisions += 1
    return decisions / (time.perf_counter() - start)


def median_of(fn, repeats: int) -> float:
    return statistics.median(fn() for _ in range(repeats))


def player_counts(game: str) -> list[int]:
    """2 (or the minimum), 4 (or the nearest allowed) and the maximum."""
    cls = envs.get_spec(game).engine_cls
    return sorted({cls.min_players, min(max(4, cls.min_players), cls.max_players), cls.max_players})


def aec_ratio(game: str, num_players: int, seconds: float, repeats: int = 3) -> float:
    """AEC steps/s of ``game`` over texas_holdem_v4's, measured interleaved (A B A B ...) so
    that both see the same machine load; the median of ``repeats`` pairs."""
    from pettingzoo.classic import texas_holdem_v4

    ratios = []
    for _ in range(repeats):
        peer = aec_steps_per_second(texas_holdem_v4.env, seconds)
        ours = aec_steps_per_second(lambda: envs.make(game, num_players=num_players), seconds)
        ratios.append(ours / peer)
    return statistics.median(ratios)


_RSS_SCRIPT = """
import resource, sys
import numpy as np
import envs
game, n, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
engine = envs.get_spec(game).make_engine(num_players=n)
rng = np.random.default_rng(0)
for g in range(games):
    state = engine.new_game(np.random.default_rng(g))
    while not engine.is_over(state):
        legal = engine.legal_actions(state)
        engine.apply(state, legal[int(rng.integers(len(legal)))])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_rss_mib(game: str, num_players: int, games: int) -> float:
    """Peak resident memory of a fresh process playing ``games`` random games (MiB)."""
    import subprocess

    out = subprocess.run(
        [sys.executable, "-c", _RSS_SCRIPT, game, str(num_players), str(games)],
        check=True,
        capture_output=True,
        text=True,
        cwd=str(Path(__file__).resolve().parent.parent),
    )
    return int(out.stdout.strip().splitlines()[-1]) / 1024.0


def main(argv: list[str] | None = None) -> dict:
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
        help="random games for the peak-RSS figure (0: skip)",
    )
    args = parser.parse_args(argv)

    from pettingzoo.classic import connect_four_v3, texas_holdem_v4

    results: dict = {
        "machine": {
            "python": platform.python_version(),
            "processor": platform.processor(),
            "cpus": __import__("os").cpu_count(),
        },
        "seconds": args.seconds,
        "repeats": args.repeats,
        "peers": {},
        "games": {},
    }
    peer = median_of(lambda: aec_steps_per_second(texas_holdem_v4.env, args.seconds), args.repeats)
    results["peers"]["texas_holdem_v4"] = peer
    print(f"{'pettingzoo texas_holdem_v4':<32} {peer:>10.0f} AEC steps/s")
    c4 = median_of(lambda: aec_steps_per_second(connect_four_v3.env, args.seconds), args.repeats)
    results["peers"]["connect_four_v3"] = c4
    print(f"{'pettingzoo connect_four_v3':<32} {c4:>10.0f} AEC steps/s  x{c4 / peer:5.2f}")
    for game in args.games or envs.names():
        counts = player_counts(game)
        for n in counts:
            aec = median_of(
                lambda g=game, k=n: aec_steps_per_second(
                    lambda: envs.make(g, num_players=k), args.seconds
                ),
                args.repeats,
            )
            eng = median_of(
                lambda g=game, k=n: engine_decisions_per_second(g, k, args.seconds), args.repeats
            )
            rss = peak_rss_mib(game, n, args.rss_games) if args.rss_games else None
            results["games"][f"{game}/{n}p"] = {
                "aec_steps_per_s": aec,
                "engine_decisions_per_s": eng,
                "ratio_vs_texas_holdem": aec / peer,
                "ratio_vs_connect_four": aec / c4,
                "peak_rss_mib": rss,
                "rss_games": args.rss_games,
            }
            print(
                f"{game + f' {n} players':<32} {aec:>10.0f} AEC steps/s  x{aec / peer:5.2f} vs texas_holdem"
                f"   engine {eng:>9.0f} decisions/s"
                + (f"   peak RSS {rss:6.1f} MiB ({args.rss_games} games)" if rss else "")
            )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1))
    print(f"written to {out}")
    return results


if __name__ == "__main__":
    main()
