"""Tournament and leaderboard entry point.

    python evaluate.py --game flip6 --agents zoo:flip6 ev threshold random --deals 500

Agents are scripted names (``random``, ``threshold``, ``ev``), ``zoo:NAME`` pretrained agents,
checkpoint paths (``runs/flip6/final.zip``) or ``module:factory`` entry points (``factory(game=...,
seed=...)`` returns an agent; the module is looked up from the current directory too). Every deck
seed is played under every seat rotation (``--permutations``: every seating, up to 4 seats).

Output: the leaderboard (OpenSkill rating anchored at random = 0, win rate, mean score, paired
bootstrap 95% intervals over deck seeds) and head-to-head matrix on the terminal; ``--out`` (JSON:
every game's seed, seats and result, and the statistics); ``<out>.jsonl`` (games streamed as they
finish: a re-run with the same agents and options plays only what is missing, so more deals extend
the results and a killed run resumes); ``<out>.md`` with PNG plots next to it. Cooperative games
(thegame) get the team table and a cross-play matrix instead of a ranking.

``--record DIR`` saves every game played as a replay (JSON lines: deal seed, every action as text,
final result; ``python -m agents.tools.replay FILE [--seat N] [--verify]`` steps through or checks it).
``--human SEAT`` seats you at SEAT against ``--agents`` (one per other seat, in order) in the
terminal instead of running a tournament; the game is saved to ``--record`` (default ``replays/``).

``--backend ray`` runs the games as Ray tasks: on a local Ray instance with ``--workers`` CPUs, or
on the cluster at ``--address`` (its nodes need this project importable and the checkpoints at
the same paths, e.g. ``ray job submit --working-dir . -- python evaluate.py --backend ray
--address auto ...``). Results are identical for every backend and number of workers.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from agents import make_agent
from agents.evaluation.tournament import (
    BATCH_GAMES,
    BOOTSTRAP,
    jsonl_path,
    leaderboard_text,
    run_tournament,
    save_result,
)
from envs.core.engine import CardArenaError
from envs.core.registry import names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="flip6", help=f"one of {names()}")
    parser.add_argument(
        "--agents", nargs="+", default=None, help="agents to rank (with --human: the opponents)"
    )
    parser.add_argument(
        "--num-players", type=int, default=None, help="seats per table (game default if omitted)"
    )
    parser.add_argument(
        "--deals", type=int, default=200, help="deck seeds (each under every rotation)"
    )
    parser.add_argument("--first-seed", type=int, default=0, help="first deck seed")
    parser.add_argument(
        "--workers",
        type=int,
        default=min(2, os.cpu_count() or 1),
        help="processes (local) or CPUs of the local Ray instance",
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
    parser.add_argument(
        "--permutations",
        action="store_true",
        help="play every seating of each table per deck seed instead of the rotations (<= 4 seats)",
    )
    parser.add_argument("--backend", choices=("local", "ray"), default="local")
    parser.add_argument(
        "--address", default=None, help="Ray cluster address (default: start a local instance)"
    )
    parser.add_argument(
        "--report",
        default=None,
        help="Markdown report path (default: <out> with .md; PNG plots next to it)",
    )
    parser.add_argument("--no-report", action="store_true", help="skip the report and plots")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="start the .jsonl results over (the old one is kept as .jsonl.bak)",
    )
    parser.add_argument(
        "--bootstrap", type=int, default=BOOTSTRAP, help="bootstrap resamples of deck seeds"
    )
    parser.add_argument(
        "--batch-games",
        type=int,
        default=BATCH_GAMES,
        help="games played in lock-step per task (network agents batch across them)",
    )
    parser.add_argument(
        "--record",
        default=None,
        metavar="DIR",
        help="save every game played as a replay file in DIR (see python -m agents.tools.replay)",
    )
    parser.add_argument(
        "--human",
        type=int,
        default=None,
        metavar="SEAT",
        help="play yourself at SEAT against --agents in the terminal (no tournament)",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="deal seed of the --human game (random if omitted)"
    )
    args = parser.parse_args(argv)
    if args.agents is None and args.human is None:
        parser.error("the following arguments are required: --agents")
    options: dict = {}
    if args.num_players is not None:
        options["num_players"] = args.num_players
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            parser.error(f"--option needs KEY=VALUE, got {item!r}")
        if value.lstrip("-").isdigit():
            options[key] = int(value)
        elif value.lower() in ("true", "false"):  # thegame signals=true, suicidium expansion=true
            options[key] = value.lower() == "true"
        else:
            options[key] = value
    if os.getcwd() not in sys.path:  # module:factory agents from the current directory
        sys.path.append(os.getcwd())
    if args.human is not None:
        from agents.tools.play import play_human

        try:
            return play_human(
                args.game,
                args.human,
                args.agents or [],
                options,
                args.seed,
                args.record or "replays",
            )
        except CardArenaError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
    out = args.out or f"results/{args.game}.json"
    try:
        for spec in dict.fromkeys(args.agents):  # fail before starting workers
            make_agent(args.game, spec)
        result = run_tournament(
            args.game,
            args.agents,
            args.deals,
            options,
            args.first_seed,
            workers=args.workers,
            progress=not args.no_progress,
            permutations=args.permutations,
            backend=args.backend,
            address=args.address,
            results_path=jsonl_path(out),
            fresh=args.fresh,
            batch_games=args.batch_games,
            bootstrap=args.bootstrap,
            record_dir=args.record,
        )
    except CardArenaError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(leaderboard_text(result))
    save_result(result, out)
    written = [out, str(jsonl_path(out))]
    if args.record:
        written.append(f"replays of the {result.played} games played in {args.record}/")
    if not args.no_report:
        from agents.evaluation.report import write_report

        report = args.report or str(Path(out).with_suffix(".md"))
        written += [str(p) for p in write_report(result, report, str(jsonl_path(out)))]
    print(
        f"{len(result.records)} games ({result.played} played in {result.seconds:.1f} s, "
        f"{result.reused} from earlier runs); written: {', '.join(written)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
