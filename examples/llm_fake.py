"""A stand-in for a language model, to try the ``llm:`` agent without one (docs/llm_agents.md).

    python examples/llm_fake.py                     # tiny: 2 flip6 deals against ev and random; one transcript
    python examples/llm_fake.py --game ratatat --deals 10

``ask(messages)`` is the model function an ``llm:module:function`` spec names: it takes the
conversation (chat messages, the last one the prompt or a refusal) and returns a reply. This one
reads the legal actions the prompt lists and answers the first of them, with some chatter before
it, as a model would. The evaluator plays it like any agent, and ``--record`` keeps every prompt
and reply in the replays:

    PYTHONPATH=examples python evaluate.py --game flip6 --agents llm:llm_fake:ask ev random random --deals 2 --record replays

A real model goes behind the same function (docs/llm_agents.md shows one).
"""

from __future__ import annotations

import argparse
import glob
import re
import sys
import tempfile
from pathlib import Path

from cardarena.agents.tools.replay import note_text
from cardarena.envs.core.replay import Replay


def legal_actions(text: str) -> list[str]:
    """The action texts a prompt lists (``- text`` lines under ``## Legal actions``), or those a
    refusal names (``one of: a, b, c``)."""
    listed = text.partition("## Legal actions")[2].partition("\n## ")[0]
    found = [line[2:].strip() for line in listed.splitlines() if line.startswith("- ")]
    if found:
        return found
    named = re.search(r"one of: (.+)$", text, re.MULTILINE)
    return [t.strip() for t in named.group(1).split(",")] if named else []


def ask(messages: list[dict[str, str]]) -> str:
    """The model function: the first legal action of the last message, marked ``ACTION:``."""
    options = legal_actions(messages[-1]["content"])
    if not options:
        return "I am not sure what to do."
    return f"Let me look at the table... I will go with the first option.\nACTION: {options[0]}"


def main(argv: list[str] | None = None) -> int:
    from cardarena.agents import best_baseline
    from cardarena.agents.evaluation.report import leaderboard_text
    from cardarena.agents.evaluation.tournament import run_tournament
    from cardarena.envs.core.registry import get_spec

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="flip6")
    parser.add_argument("--deals", type=int, default=2, help="deck seeds (each under 4 seatings)")
    parser.add_argument(
        "--opponents", nargs="+", help="the other seats (default: the best baseline, then random)"
    )
    args = parser.parse_args(argv)
    if args.opponents is None:  # a seat per player of the game's default table
        seats = get_spec(args.game).make_engine().num_players
        args.opponents = [best_baseline(args.game)] + ["random"] * max(seats - 2, 0)
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # so that llm_fake is importable
    with tempfile.TemporaryDirectory() as replays:
        result = run_tournament(
            args.game,
            ["llm:llm_fake:ask", *args.opponents],
            args.deals,
            progress=False,
            record_dir=replays,
        )
        print(leaderboard_text(result))
        replay = Replay.load(sorted(glob.glob(f"{replays}/*.jsonl"))[0])
        noted = next(line["note"] for line in replay.actions if "note" in line)
        print(f"\nthe first decision of the model in {Path(replay.path or '').name}:")
        print(note_text(noted))
    return 0


if __name__ == "__main__":
    sys.exit(main())
