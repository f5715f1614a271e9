"""Human play in the terminal: a person takes one seat, agents the others.

    python evaluate.py --game flip6 --human 0 --agents ev threshold random
    python -m cardarena.agents.tools.play --game ratatat --seat 1 --agents tracker tracker --seed 7

The screen shows what the person's seat may see and nothing else: what the others did since its
last decision (action texts, which are public in every game of the suite), the game rendered for
that seat (``spec.render(state, seat)``) and the legal actions, numbered. Type an action's number
or its text (``hit``, ``play 57 0``; any form ``parse_action`` reads); anything else is refused
with the legal list. ``?`` shows the screen again, ``quit`` (or end of input) stops. Every game is
saved as a replay (``replays/`` unless ``--record DIR``); ``python -m cardarena.agents.tools.replay FILE`` shows it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from cardarena.agents.tools.commands import UserHelp, for_user, prog
from cardarena.agents.tools.session import (  # noqa: F401 (the terminal table's API)
    HUMAN,
    SeatSession,
    seat_specs,
    table_size,
    verdict,
)
from cardarena.envs.core.engine import CardArenaError, GameEngine
from cardarena.envs.core.options import parse_options
from cardarena.envs.core.registry import names

QUIT_WORDS = ("quit", "exit", ":q")


def legal_menu(engine: GameEngine, state: Any) -> list[tuple[int, str]]:
    return [(a, engine.describe_action(a)) for a in engine.legal_actions(state)]


def menu_text(menu: Sequence[tuple[int, str]]) -> str:
    return "  ".join(f"[{i}] {text}" for i, (_, text) in enumerate(menu, 1))


def screen(engine: GameEngine, spec: Any, state: Any, seat: int, events: Sequence[str]) -> str:
    """Everything shown to the person at ``seat`` before a decision (only what the seat sees)."""
    lines = []
    if events:
        lines.append("since your last turn:")
        lines += [f"  {e}" for e in events]
    lines.append(spec.render(state, seat))
    lines.append(f"your decision ({engine.decision_name(state)}):")
    lines.append("  " + menu_text(legal_menu(engine, state)))
    return "\n".join(lines)


def parse_entry(engine: GameEngine, state: Any, entry: str) -> int | None:
    """The legal action meant by ``entry`` (its number in the menu or its text), or None for
    anything else: a number off the menu, a text the game does not read or an action not legal
    now. Never raises on any line a person can type (``²``, 5,000 digits, control characters)."""
    menu = legal_menu(engine, state)
    text = " ".join(str(entry).split())
    if not text:
        return None
    for action, label in menu:
        if text.lower() == label.lower():
            return action
    if text.isascii() and text.isdigit():  # '²' and '٣' pass isdigit() but are no menu number
        if len(text) > 6:  # no menu is that long; int() of 5,000 digits would raise
            return None
        i = int(text)
        return menu[i - 1][0] if 1 <= i <= len(menu) else None
    try:
        action = engine.parse_action(text)
    except CardArenaError:  # every engine's parse_action refuses a bad text with this
        return None
    return action if action in dict(menu) else None


def read_action(
    engine: Any, spec: Any, state: Any, seat: int, inp: IO[str], out: IO[str], echo: bool
) -> tuple[int, str]:
    """The person's next legal action, asked for until one is given, or (-1, why it stopped:
    ``input ended`` or ``you quit``)."""

    def say(text: str = "") -> None:
        print(text, file=out)

    while True:
        print("> ", end="", file=out)
        out.flush()
        try:
            entry = inp.readline()
        except UnicodeDecodeError:  # bytes that are no text in the terminal's encoding
            say("that line is not readable text. Legal actions:")
            say("  " + menu_text(legal_menu(engine, state)))
            continue
        if not entry:
            return -1, "input ended"
        entry = entry.strip()
        if echo:
            say(entry)
        if entry.lower() in QUIT_WORDS:
            return -1, "you quit"
        if entry in ("?", "help"):
            say(screen(engine, spec, state, seat, []))
            continue
        action = parse_entry(engine, state, entry)
        if action is not None:
            return action, ""
        shown = entry if len(entry) <= 60 else entry[:57] + "..."
        say(f"{shown!r} is not a legal action here. Legal actions:")
        say("  " + menu_text(legal_menu(engine, state)))


def play_human(
    game: str,
    seat: int,
    agents: Sequence[str],
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    record_dir: str | Path | None = "replays",
    inp: IO[str] | None = None,
    out: IO[str] | None = None,
) -> int:
    """Play one game with a person at ``seat`` (reading ``inp``, default stdin); 0 when the game
    ends or the person quits (``quit``, end of input, Ctrl-C)."""
    inp = sys.stdin if inp is None else inp
    out = sys.stdout if out is None else out
    echo = not inp.isatty()  # piped input: show what was read, so a transcript reads well

    def say(text: str = "") -> None:
        print(text, file=out)

    quit_reason = ""
    session: SeatSession | None = None
    try:
        session = SeatSession(game, seat, agents, options, seed, record_dir, "human play")
        engine, spec, state = session.engine, session.spec, session.state
        say(f"{game} {session.options}  seed {session.seed}")
        say(
            "  "
            + "  ".join(
                f"seat {s}: {'YOU' if s == seat else n}" for s, n in enumerate(session.lineup)
            )
        )
        say("type an action's number or its text; '?' shows the screen again, 'quit' stops")
        while session.to_move:
            say("-" * 72)
            say(screen(engine, spec, state, seat, session.take_events()))
            action, quit_reason = read_action(engine, spec, state, seat, inp, out, echo)
            if quit_reason:
                break
            session.play(action)
    except KeyboardInterrupt:
        quit_reason = "interrupted"
    finally:
        if session is not None:
            session.close()
    say("=" * 72)
    if session is None:  # interrupted while the agents played up to the first decision
        say(f"game stopped ({quit_reason}).")
        return 0
    if quit_reason:
        say(f"game stopped ({quit_reason}).")
    else:
        for e in session.take_events():
            say(f"  {e}")
        say(session.render())
        result = session.result()
        say(f"game over: {result['verdict']}. scores {result['scores']}")
    if session.replay_path is not None:
        path = session.replay_path
        say(for_user(f"replay saved: {path}  (python -m cardarena.agents.tools.replay {path})"))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog("play"),
        description=__doc__,
        formatter_class=UserHelp,
    )
    parser.add_argument("--game", default="flip6", help=f"one of {names()}")
    parser.add_argument("--seat", type=int, default=0, help="your seat (0-based)")
    parser.add_argument("--agents", nargs="*", default=[], help="agents for the other seats")
    parser.add_argument("--num-players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=None, help="deal seed (random if omitted)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--record", default="replays", metavar="DIR", help="replay directory")
    parser.add_argument("--no-record", action="store_true", help="do not save a replay")
    args = parser.parse_args(argv)
    try:
        options = parse_options(args.option)
        if args.num_players is not None:
            options["num_players"] = args.num_players
        return play_human(
            args.game,
            args.seat,
            args.agents,
            options,
            args.seed,
            None if args.no_record else args.record,
        )
    except CardArenaError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
