"""The prompt a language model plays from, and the reading of its reply.

:func:`build_prompt` writes one decision as text from what the seat may see and nothing else: the
game's rules summary (:func:`rules_summary`), the seat's ``view`` as JSON (its schema:
``envs.core.view_schema``), the legal actions as their texts (``engine.describe_action``) and the
reply format. The same view and legal actions always give the same prompt (keys sorted, no time,
no seed). :func:`read_reply` finds the action in a reply (:data:`REPLY_FORMAT`) and parses it with
the engine's ``parse_action``; a reply it cannot read, or an action that is not legal now, raises
:class:`Refused`, whose message is what the model is told before it tries again.

The rules summaries are the opening paragraph and the ``## Rules`` and ``## Actions`` sections of
``docs/rules/<game>.md``, shipped with the package in ``agents/outside/rules/<game>.md`` (the docs
are not in the wheel); ``tests/test_llm_agent.py`` fails when a copy differs from its rules file,
and ``python -m cardarena.agents.outside.prompt --write-rules`` writes them again.

Manual: docs/llm_agents.md.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardarena.envs.core.engine import CardArenaError, GameEngine

RULES_DIR = Path(__file__).resolve().parent / "rules"
#: what the prompt asks the reply to end with
REPLY_FORMAT = (
    "Think it over if you like, then end your reply with one line of the form\n"
    "ACTION: <action>\n"
    "where <action> is one of the legal actions above, written exactly as listed."
)
#: the system message of every conversation (``agents/outside/llm.py``)
SYSTEM = (
    "You play a card game of the cardarena suite, one decision at a time. Each message gives the "
    "rules, what your seat can see as JSON, and the legal actions. Answer with a legal action."
)
_ANSWER = re.compile(r"\baction\W{0,3}:\W{0,3}?\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


class Refused(CardArenaError):
    """A reply with no legal action in it; the message is what the model is told."""


def extract_summary(markdown: str) -> str:
    """The opening paragraph and the ``## Rules`` and ``## Actions`` sections of a rules file,
    links written as their text."""
    lines = markdown.splitlines()
    sections: dict[str, list[str]] = {}
    intro: list[str] = []
    current: str | None = None
    for line in lines[1:]:  # the first line is the title
        if line.startswith("## "):
            current = line[3:].strip()
            sections[current] = [line]
        elif current is not None:
            sections[current].append(line)
        elif line.strip() or intro:
            intro.append(line)
    opening = "\n".join(intro).strip().split("\n\n")[0]
    parts = [opening] + [
        "\n".join(sections[s]).strip() for s in ("Rules", "Actions") if s in sections
    ]
    return _LINK.sub(r"\1", "\n\n".join(parts)) + "\n"


def rules_summary(game: str) -> str | None:
    """The shipped rules summary of ``game`` (None: the game ships none, e.g. a plug-in game)."""
    path = RULES_DIR / f"{game}.md"
    if not re.fullmatch(r"[A-Za-z0-9_]+", game) or not path.is_file():
        return None
    return path.read_text(encoding="utf-8")


def view_json(view: Any) -> str:
    """The view as one line of JSON, keys sorted (the same view, the same text)."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


def build_prompt(game: str, view: dict[str, Any], legal: Sequence[str]) -> str:
    """The user message of one decision: rules, the seat's view, the legal action texts, the
    reply format. Built from the view and the legal actions only (no hidden information)."""
    if not legal:
        raise CardArenaError(f"{game}: a prompt needs at least one legal action")
    rules = rules_summary(game)
    seat = view.get("seat") if isinstance(view, dict) else None
    players = view.get("num_players") if isinstance(view, dict) else None
    who = f"You are seat {seat} of {players} (seats count from 0)." if seat is not None else ""
    parts = [
        f"# {game}: your decision",
        who,
        "## Rules",
        rules.strip() if rules else f"(no rules summary ships for {game})",
        "## What you see (JSON)",
        view_json(view),
        "## Legal actions",
        "\n".join(f"- {text}" for text in legal),
        "## Your reply",
        REPLY_FORMAT,
    ]
    return "\n\n".join(p for p in parts if p) + "\n"


def _clean(text: str) -> str:
    """An answer without the decoration models add: quotes, backticks, bold, a final full stop."""
    before = None
    while text != before:
        before = text
        text = text.strip().strip("`*_\"'").removesuffix(".")
    return text


def read_reply(engine: GameEngine, reply: str, legal: Sequence[int]) -> int:
    """The action a reply names: the text after the last ``ACTION:`` line if there is one, else
    the reply's last non-empty line, parsed by ``engine.parse_action``; raises :class:`Refused`
    (its message names what was wrong and lists the legal texts) if that is no legal action."""
    texts = [engine.describe_action(int(a)) for a in legal]
    listed = ", ".join(texts)
    if not isinstance(reply, str):
        raise Refused(f"the reply was {type(reply).__name__}, not text. Legal actions: {listed}")
    ask = f"End your reply with one line 'ACTION: <action>', where <action> is one of: {listed}"
    marked = _ANSWER.findall(reply)
    rest = [line for line in reply.splitlines() if line.strip()]
    answer = _clean(marked[-1]) if marked else _clean(rest[-1]) if rest else ""
    if not answer:
        raise Refused(f"your reply holds no action. {ask}")
    shown = answer if len(answer) <= 60 else answer[:57] + "..."
    try:
        action = engine.parse_action(answer)
    except CardArenaError:
        if not marked:
            raise Refused(
                f"your reply has no 'ACTION:' line, and its last line ({shown!r}) is no action "
                f"of {engine.name} either. {ask}"
            ) from None
        raise Refused(f"{shown!r} is not an action of {engine.name}. {ask}") from None
    if action not in {int(a) for a in legal}:
        raise Refused(f"{shown!r} is not legal now. {ask}")
    return int(action)


def write_rules(docs: Path) -> list[Path]:
    """Write ``agents/outside/rules/<game>.md`` from ``docs/rules/<game>.md`` of every game."""
    from cardarena.envs.core.registry import names

    RULES_DIR.mkdir(exist_ok=True)
    written = []
    for game in names():
        source = docs / "rules" / f"{game}.md"
        if source.is_file():
            target = RULES_DIR / f"{game}.md"
            target.write_text(extract_summary(source.read_text(encoding="utf-8")), encoding="utf-8")
            written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] != ["--write-rules"] or len(args) > 2:
        print("usage: python -m cardarena.agents.outside.prompt --write-rules [DOCS_DIR]")
        return 2
    docs = Path(args[1]) if len(args) == 2 else Path("docs")
    if not (docs / "rules").is_dir():
        print(f"error: {docs / 'rules'} is not a folder (run from a checkout, or name its docs/)")
        return 2
    for path in write_rules(docs):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
