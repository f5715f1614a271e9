"""Peak memory of the end-of-run statistics for many games (issue: 4 GiB for 200,000 games).

    python bench/eval_memory.py [--games 200000] [--seats 4] [--all]

Builds synthetic records (``--seats`` agents in rotation, one deck seed per rotation set), then
measures the peak resident memory added by :func:`summarise` (and with ``--all`` by the whole
leaderboard: rating fit with its bootstrap intervals, head-to-head, terminal table). Prints one
line per step: seconds and peak MiB above the records themselves.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

try:
    from cardarena.agents.evaluation.records import GameRecord, TournamentResult
except ImportError:  # an older layout, to measure the code before the split
    from cardarena.agents.evaluation.tournament import GameRecord, TournamentResult  # type: ignore
from cardarena.agents.evaluation.tournament import summarise  # noqa: E402


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def synthetic(games: int, seats: int) -> tuple[list[GameRecord], list[str]]:
    agents = ["random", *[f"agent{i}" for i in range(1, seats)]]
    rng = random.Random(0)
    out = []
    for g in range(games):
        seed, j = divmod(g, seats)
        lineup = [agents[(j + i) % seats] for i in range(seats)]
        scores = [rng.random() + 0.1 * agents.index(a) for a in lineup]
        order = sorted(scores, reverse=True)
        ranks = [order.index(x) for x in scores]
        out.append(GameRecord(seed, lineup, scores, scores, [ranks.index(0)], 50, ranks))
    return out, agents


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--all", action="store_true", help="the whole leaderboard, not summarise")
    args = parser.parse_args()
    records, agents = synthetic(args.games, args.seats)
    base = peak_mib()
    print(f"{args.games} records: {base:.0f} MiB resident")
    start = time.perf_counter()
    summarise(records, agents)
    print(f"summarise: {time.perf_counter() - start:.1f} s, peak +{peak_mib() - base:.0f} MiB")
    if args.all:
        from cardarena.agents.evaluation.report import leaderboard_text

        result = TournamentResult(
            "flip6", {"num_players": args.seats}, agents, args.games // args.seats, records
        )
        start = time.perf_counter()
        leaderboard_text(result)
        print(
            f"leaderboard (rating + intervals, head-to-head, table): "
            f"{time.perf_counter() - start:.1f} s, peak +{peak_mib() - base:.0f} MiB"
        )


if __name__ == "__main__":
    main()
