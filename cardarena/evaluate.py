"""Tournament and leaderboard entry point.

    python evaluate.py --game flip6 --agents zoo:flip6 ev threshold random --deals 500

Agents are scripted names (``random``, ``threshold``, ``ev``), ``zoo:NAME`` pretrained agents,
checkpoint paths (``runs/flip6/final.zip``) or ``module:factory`` entry points (``factory(game=...,
seed=...)`` returns an agent; the module is looked up from the current directory too) or
``exec:COMMAND``, a program of any language playing through JSON lines on its stdin and stdout
(docs/protocol.md: ``--decision-time`` and ``--game-time`` hold it to time, ``--on-agent-fault``
says whether its faults stop the run or forfeit the game). Every deck
seed is played under every seat rotation (``--permutations``: every seating, up to 4 seats).

Output: the leaderboard (Bradley-Terry rating fitted over all games at once, Elo scale, random
= 0; win rate; mean score; paired bootstrap 95% intervals over deck seeds; ranked by ``--rank-by``)
and head-to-head matrix on the terminal, then one verdict line in words for ``--verdict AGENT``
(default: the first of ``--agents``): its win rate against par (an equal share of the wins at the
table) and above, level with or below each other agent (paired 95% intervals); ``--out`` (JSON:
every game's seed, seats and result, and the statistics); ``<out>.jsonl`` (games streamed as they
finish: a re-run with the same agents and options plays only what is missing, so more deals extend
the results and a killed run resumes); ``<out>.md`` with PNG plots next to it. Cooperative games
(thegame) get the team table and a cross-play matrix instead of a ranking.

``--record DIR`` saves every game played as a replay (JSON lines: deal seed, every action as text,
final result; ``python -m cardarena.agents.tools.replay FILE [--seat N] [--verify]`` steps through or checks it).
``--human SEAT`` seats you at SEAT against ``--agents`` (one per other seat, in order) in the
terminal (``--web``: in a local browser page, docs/web.md) instead of running a tournament; the
game is saved to ``--record`` (default ``replays/``).

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
from typing import Any

from cardarena.agents.evaluation.records import RANK_BY
from cardarena.agents.evaluation.report import leaderboard_text, verdict_line
from cardarena.agents.evaluation.results import jsonl_path, save_result
from cardarena.agents.evaluation.schedule import check_enough_agents, check_permutation_seats
from cardarena.agents.evaluation.tournament import (
    BATCH_GAMES,
    BOOTSTRAP,
    ON_AGENT_FAULT,
    check_conduct,
    make_engine,
    run_tournament,
)
from cardarena.agents.outside.process import DECISION_TIME, GAME_TIME
from cardarena.agents.tools.commands import UserHelp, prog
from cardarena.envs.core import options as core_options
from cardarena.envs.core.engine import CardArenaError, ConfigError
from cardarena.envs.core.registry import get_spec, names


def _check_counts(args: argparse.Namespace) -> None:
    for flag, value, low, fix in (
        ("--deals", args.deals, 1, "each deal is one deck seed played at every table"),
        ("--first-seed", args.first_seed, 0, "deck seeds are non-negative"),
        ("--workers", args.workers, 1, "--workers 1 plays in this process"),
        ("--bootstrap", args.bootstrap, 1, f"the default is {BOOTSTRAP} resamples"),
        ("--batch-games", args.batch_games, 1, f"the default is {BATCH_GAMES}"),
    ):
        if value < low:
            raise ConfigError(f"{flag} must be at least {low}, got {value}; {fix}")


def _describe(spec: str) -> int:
    """``--describe zoo:NAME``: the model card."""
    from cardarena.agents.model_cards import describe

    try:
        print(describe(spec))
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


def _check_args(args: argparse.Namespace, options: dict[str, Any]) -> None:
    """The checks between arguments, before any game is played (a ConfigError naming the fix)."""
    _check_counts(args)
    if args.web and args.human is None:
        raise ConfigError("--web is the browser table of --human SEAT: add --human 0")
    check_conduct(args.on_agent_fault, args.decision_time, args.game_time)
    if args.human is None and args.agents:
        num_players = make_engine(args.game, options).num_players
        if args.permutations:
            check_permutation_seats(num_players)
        check_enough_agents(args.game, args.agents, num_players)
        if args.verdict is not None and args.verdict not in args.agents:
            raise ConfigError(
                f"--verdict {args.verdict} is not one of --agents ({' '.join(args.agents)}); "
                "name one of them, as written there"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog("evaluate"),
        description=__doc__,
        formatter_class=UserHelp,
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
        help="start the .jsonl results over (the old one is kept as a numbered backup, .jsonl.bak1, .bak2, ...)",
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
        "--rank-by",
        choices=RANK_BY,
        default="rating",
        help="leaderboard order: the Bradley-Terry rating (default) or the win rate",
    )
    parser.add_argument(
        "--verdict",
        default=None,
        metavar="AGENT",
        help="the agent whose verdict in words ends the output (default: the first of --agents)",
    )
    parser.add_argument(
        "--record",
        default=None,
        metavar="DIR",
        help="save every game played as a replay file in DIR (see python -m cardarena.agents.tools.replay)",
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
    parser.add_argument(
        "--web", action="store_true", help="with --human: play in the browser (docs/web.md)"
    )
    parser.add_argument(
        "--on-agent-fault",
        choices=ON_AGENT_FAULT,
        default="stop",
        help="what an outside agent's fault (timeout, crash, garbage, illegal answer) does: stop "
        "the run, keeping the games played (default), or forfeit that game (a loss) and go on",
    )
    parser.add_argument(
        "--decision-time",
        type=float,
        default=None,
        metavar="S",
        help=f"seconds an outside agent (exec:...) has for one answer (default {DECISION_TIME:g})",
    )
    parser.add_argument(
        "--game-time",
        type=float,
        default=None,
        metavar="S",
        help=f"seconds an outside agent has for all its answers of one game (default {GAME_TIME:g})",
    )
    parser.add_argument(
        "--allow-seers",
        action="store_true",
        help="seat a seer (seer[:...]: it sees every hidden card, so it is no legal player) with "
        "legal agents, to measure the perfect-information ceiling; leaderboards label it",
    )
    parser.add_argument(
        "--describe",
        metavar="zoo:NAME",
        help="print a pretrained agent's model card (training, strength, file) and exit",
    )
    args = parser.parse_args(argv)
    if args.describe is not None:
        return _describe(args.describe)
    if args.agents is None and args.human is None:
        parser.error("the following arguments are required: --agents")
    try:
        options = parse_options(args.option, args.num_players)
        _check_args(args, options)
        if args.address and args.backend != "ray":
            raise ConfigError(f"--address {args.address} is for --backend ray; add --backend ray")
        if args.human is None:
            get_spec(args.game)  # a typo in --game first, before any agent is looked up
            out, report = check_outputs(args.out, args.game, args.report, args.no_report)
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if os.getcwd() not in sys.path:  # module:factory agents from the current directory
        sys.path.append(os.getcwd())
    if args.human is not None:
        from cardarena.agents.tools.play import play_human
        from cardarena.agents.tools.web import serve

        try:
            return (serve if args.web else play_human)(
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
    try:
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
            rank_by=args.rank_by,
            on_agent_fault=args.on_agent_fault,
            decision_time=args.decision_time,
            game_time=args.game_time,
            allow_seers=args.allow_seers,
            command=["evaluate.py", *(sys.argv[1:] if argv is None else argv)],
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
        from cardarena.agents.evaluation.report import write_report

        written += [str(p) for p in write_report(result, report, str(jsonl_path(out)))]
    print(
        f"{len(result.records)} games ({result.played} played in {result.seconds:.1f} s, "
        f"{result.reused} from earlier runs); written: {', '.join(written)}"
    )
    print(verdict_line(result, args.verdict or args.agents[0]))
    return 0


def parse_options(items: list[str], num_players: int | None) -> dict:
    """``--option KEY=VALUE`` items (the one parser, :mod:`envs.core.options`) and
    ``--num-players`` as engine options; the game then checks the values."""
    options = core_options.parse_options(items)
    if num_players is not None:
        if "num_players" in options:
            raise ConfigError(
                f"--option num_players={options['num_players']!r}: num_players is already set "
                f"by --num-players; give it once"
            )
        options = {"num_players": num_players, **options}
    return options


def check_outputs(
    out: str | None, game: str, report: str | None, no_report: bool
) -> tuple[str, str | None]:
    """The JSON results path and the report path, refused when one would overwrite another (the
    ``.jsonl`` results store and the ``.md`` report are named after ``--out``) or cannot be
    written, before anything is played."""
    out = out or f"results/{game}.json"
    path = Path(out)
    if out.endswith(("/", os.sep)) or path.is_dir():
        raise ConfigError(
            f"--out {out} is a directory; give a file in it, e.g. --out {path / (game + '.json')}"
        )
    if path.suffix != ".json":
        raise ConfigError(
            f"--out {out}: the results file must end in .json (its .jsonl results store and .md "
            f"report are named after it, so {path.suffix or 'no suffix'} would overwrite or mix "
            f"them up); e.g. --out {path.with_suffix('.json')}"
        )
    md = None if no_report else (report or str(path.with_suffix(".md")))
    if md is not None:
        mine = {path.resolve(), jsonl_path(path).resolve()}
        if Path(md).resolve() in mine or Path(md).suffix != ".md":
            raise ConfigError(
                f"--report {md}: the report must be a .md file other than --out and its .jsonl; "
                f"e.g. --report {path.with_suffix('.md')}"
            )
    for target in filter(None, (out, md)):
        for parent in Path(target).resolve().parents:
            if parent.exists():
                if not parent.is_dir() or not os.access(parent, os.W_OK):
                    raise ConfigError(f"cannot write {target}: {parent} is not a writable folder")
                break
    return out, md


if __name__ == "__main__":
    sys.exit(main())
