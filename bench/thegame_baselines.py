"""Strength of The Game's scripted baselines at every player count (engine-direct).

    python bench/thegame_baselines.py [--games 10000] [--workers 2] [--agents random greedy planner]
        [--players 1 2 3 4 5] [--signals] [--out bench/results/thegame_baselines.json]

Every seat is played by the same kind of agent (cooperative game). Game g of every row is dealt
from seed ``--seed + g``, so the rows compare the agents on the same deals. Per (agent, player
count) it reports the win rate (all 98 cards played, G8) with its 95% CI, the share of games that
end with fewer than 10 cards left, the share with 10 or fewer (G10's "good result"), the mean
cards left (G10) and the speed (games per CPU second of one worker). Agents read only ``view`` and the action mask; the observation
vector is not built (no baseline reads it), which keeps the loop on the engine.

Published heuristic results to compare with (no communication, 10k games): wins 12/18/8/11/12%
for 1/2/3/4/5 players.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardarena.agents import make_agent  # noqa: E402
from cardarena.envs.core.loop import play  # noqa: E402
from cardarena.envs.core.registry import get_spec  # noqa: E402
from cardarena.envs.thegame.rules import NUM_ACTIONS, TheGame  # noqa: E402

PUBLISHED_WIN_RATE = {1: 0.12, 2: 0.18, 3: 0.08, 4: 0.11, 5: 0.12}


def play_games(job: tuple[str, int, dict[str, Any], int, int]) -> tuple[list[int], int, float]:
    """Play seeds ``first .. first+count-1``; (cards left per game, decisions, CPU seconds)."""
    agent_name, n, options, first, count = job
    engine = TheGame(num_players=n, **options)
    spec = get_spec("thegame")
    agents = [make_agent("thegame", agent_name) for _ in range(n)]
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    left, decisions = [], 0
    start = time.process_time()
    for g in range(first, first + count):
        state = engine.new_game(np.random.default_rng(g))
        for seat, agent in enumerate(agents):
            agent.reset(g * 8 + seat)
        decisions += play(spec, engine, state, agents, mask=mask)
        left.append(int(engine.scores(state)[0]))
    return left, decisions, time.process_time() - start


def ci95(p: float, k: int) -> tuple[float, float]:
    half = 1.959963984540054 * math.sqrt(max(p * (1 - p), 0.0) / k) if k else 0.0
    return max(p - half, 0.0), min(p + half, 1.0)


def run(
    agent: str, n: int, games: int, workers: int, seed: int, options: dict[str, Any], pool: Any
) -> dict[str, Any]:
    chunk = max(1, min(250, math.ceil(games / (workers * 4))))
    jobs = [(agent, n, options, seed + i, min(chunk, games - i)) for i in range(0, games, chunk)]
    start = time.perf_counter()
    results = pool.map(play_games, jobs) if pool else [play_games(j) for j in jobs]
    wall = time.perf_counter() - start
    left = [x for part in results for x in part[0]]
    decisions = sum(part[1] for part in results)
    cpu = sum(part[2] for part in results)
    arr = np.asarray(left, dtype=np.float64)
    win = float(np.mean(arr == 0))
    return {
        "agent": agent,
        "num_players": n,
        "games": len(left),
        "win_rate": win,
        "win_ci95": ci95(win, len(left)),
        "under_10_left": float(np.mean(arr < 10)),
        "at_most_10_left": float(np.mean(arr <= 10)),
        "mean_cards_left": float(arr.mean()),
        "cards_left_ci95": (
            float(arr.mean() - 1.96 * arr.std(ddof=1) / math.sqrt(len(arr))),
            float(arr.mean() + 1.96 * arr.std(ddof=1) / math.sqrt(len(arr))),
        )
        if len(arr) > 1
        else (float(arr.mean()), float(arr.mean())),
        "published_win_rate": PUBLISHED_WIN_RATE[n],
        "games_per_cpu_second": len(left) / cpu if cpu else 0.0,
        "decisions_per_cpu_second": decisions / cpu if cpu else 0.0,
        "wall_seconds": wall,
    }


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| agent | players | games | win rate | 95% CI | < 10 left | <= 10 left | mean left "
        "| published win | games/CPU-s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lo, hi = r["win_ci95"]
        lines.append(
            f"| {r['agent']} | {r['num_players']} | {r['games']} | {r['win_rate']:.1%} "
            f"| [{lo:.1%}, {hi:.1%}] | {r['under_10_left']:.1%} | {r['at_most_10_left']:.1%} "
            f"| {r['mean_cards_left']:.2f} | {r['published_win_rate']:.0%} "
            f"| {r['games_per_cpu_second']:.0f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10_000, help="games per agent and count")
    parser.add_argument("--workers", type=int, default=2, help="processes (1: no pool)")
    parser.add_argument("--agents", nargs="+", default=["random", "greedy", "planner"])
    parser.add_argument("--players", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal")
    parser.add_argument("--signals", action="store_true", help="G11 signals on")
    parser.add_argument("--min-cards-when-empty", type=int, default=1, choices=(1, 2))
    parser.add_argument("--out", default="bench/results/thegame_baselines.json")
    args = parser.parse_args(argv)
    options = {"signals": args.signals, "min_cards_when_empty": args.min_cards_when_empty}
    rows = []
    pool = mp.get_context("spawn").Pool(args.workers) if args.workers > 1 else None
    try:
        for agent in args.agents:
            for n in args.players:
                row = run(agent, n, args.games, args.workers, args.seed, options, pool)
                rows.append(row)
                print(
                    f"{agent:>8} {n}p: win {row['win_rate']:.1%}  mean left "
                    f"{row['mean_cards_left']:.2f}  ({row['wall_seconds']:.1f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        if pool:
            pool.close()
            pool.join()
    text = table(rows)
    print(text)
    result = {
        "game": "thegame",
        "options": options,
        "games_per_row": args.games,
        "first_seed": args.seed,
        "workers": args.workers,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "rows": rows,
        "markdown": text,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
