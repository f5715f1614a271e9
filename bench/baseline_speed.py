"""Scripted-baseline speed: games/s with one baseline in every seat, engine and views included.

    python bench/baseline_speed.py [--games sevn ...] [--num-games 150] [--repeats 3] [--out F]

The baselines play the cloning warm starts (``warm_start.imitate``), most evaluation tables and
the rollouts of ``agents/improve.py``, so their speed is much of a training run's wall time. One
process, deck seeds 0..N-1, 4-player tables (thegame: 2 players), the best of ``--repeats`` runs.
Prints a table and writes JSON (bench/results/baseline_speed.json).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardarena.agents import make_agent, scripted  # noqa: E402
from cardarena.agents.evaluation.tournament import play_game  # noqa: E402
from cardarena.envs.core.registry import names  # noqa: E402


def games_per_second(game: str, baseline: str, num_games: int, repeats: int) -> tuple[float, int]:
    """(best games/s over ``repeats`` runs of ``num_games`` games, decisions per run), each game
    played by ``agents.evaluation.tournament.play_game`` as evaluations play it."""
    players = 2 if game == "thegame" else 4
    options = {"num_players": players}
    best, decisions = float("inf"), 0
    for _ in range(repeats):
        agents = [make_agent(game, baseline, seed=s) for s in range(players)]
        start = time.perf_counter()
        decisions = sum(
            play_game(game, options, agents, g, agent_seed=g).decisions for g in range(num_games)
        )
        best = min(best, time.perf_counter() - start)
    return num_games / best, decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", default=names(), help="games (default: all)")
    parser.add_argument("--num-games", type=int, default=150, help="games per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs; the best is reported")
    parser.add_argument("--out", default="bench/results/baseline_speed.json", help="JSON file")
    args = parser.parse_args(argv)
    if args.num_games < 1 or args.repeats < 1:
        parser.error("--num-games and --repeats must be at least 1")
    unknown = sorted(set(args.games) - set(names()))
    if unknown:
        parser.error(f"unknown game(s) {unknown}; choose from {names()}")
    rows = []
    for game in args.games:
        for baseline in scripted(game):
            rate, decisions = games_per_second(game, baseline, args.num_games, args.repeats)
            per_second = rate * decisions / args.num_games
            rows.append(
                {
                    "game": game,
                    "baseline": baseline,
                    "games_per_s": rate,
                    "decisions_per_s": per_second,
                }
            )
            print(f"{game:<10} {baseline:<10} {rate:8.1f} games/s  {per_second:9.0f} decisions/s")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"num_games": args.num_games, "repeats": args.repeats, "rows": rows}))
    print(f"written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
