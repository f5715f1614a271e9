"""Tournament and leaderboard entry point.

    python evaluate.py --game flip6 --agents zoo:flip6 ev threshold random --deals 500

Agents are scripted names (``random``, ``threshold``, ``ev``), ``zoo:NAME`` pretrained agents,
checkpoint paths (``runs/flip6/final.zip``) or ``module:factory`` entry points. Every deck seed is
played under every seat rotation; the leaderboard gives win rate and mean score with 95% confidence
intervals over deck seeds, and the JSON file holds every game.
"""

from __future__ import annotations

import argparse
import os
import sys

from agents import make_agent
from agents.tournament import leaderboard_text, run_tournament, save_result
from envs.core.engine import CardArenaError
from envs.core.registry import names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="flip6", help=f"one of {names()}")
    parser.add_argument("--agents", nargs="+", required=True, help="agents to rank")
    parser.add_argument(
        "--num-players", type=int, default=None, help="seats per table (game default if omitted)"
    )
    parser.add_argument(
        "--deals", type=int, default=200, help="deck seeds (each under every rotation)"
    )
    parser.add_argument("--first-seed", type=int, default=0, help="first deck seed")
    parser.add_argument(
        "--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes"
    )
    parser.add_argument(
        "--out", default=None, help="JSON results file (default results/<game>.json)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="extra env option, e.g. --option target_score=40 (repeatable)",
    )
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    options: dict = {}
    if args.num_players is not None:
        options["num_players"] = args.num_players
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            parser.error(f"--option needs KEY=VALUE, got {item!r}")
        options[key] = int(value) if value.lstrip("-").isdigit() else value
    try:
        for spec in args.agents:  # fail before starting workers if an agent cannot be built
            make_agent(args.game, spec)
        result = run_tournament(
            args.game,
            args.agents,
            args.deals,
            options,
            args.first_seed,
            workers=args.workers,
            progress=not args.no_progress,
        )
    except CardArenaError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(leaderboard_text(result))
    out = args.out or f"results/{args.game}.json"
    save_result(result, out)
    print(f"{len(result.records)} games in {result.seconds:.1f} s; results written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
