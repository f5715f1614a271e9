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
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np

from cardarena.agents.files import check_writable
from cardarena.agents.tools.commands import UserHelp, for_user, prog
from cardarena.envs.core import seeding
from cardarena.envs.core.engine import CardArenaError, ConfigError, GameEngine
from cardarena.envs.core.loop import decide
from cardarena.envs.core.options import parse_options
from cardarena.envs.core.registry import get_spec, names

HUMAN = "human"
QUIT_WORDS = ("quit", "exit", ":q")


def table_size(game: str, agents: Sequence[str], num_players: int | None) -> int:
    """Seats: ``num_players`` if given, else one per agent plus the person when the game allows
    it, else the game's default."""
    if num_players is not None:
        return num_players
    engine_cls = get_spec(game).engine_cls
    wanted = len(agents) + 1
    if agents and engine_cls.min_players <= wanted <= engine_cls.max_players:
        return wanted
    return get_spec(game).make_engine().num_players


def seat_specs(
    num_players: int, seat: int, agents: Sequence[str], cooperative: bool = False
) -> list[str]:
    """Who sits where: the person at ``seat``, the agents in the other seats in order. The rule
    of tournaments (``check_enough_agents``): a competitive game needs one agent per other seat
    (list one twice to seat it twice); a cooperative game's team repeats its agents round the
    table."""
    if not 0 <= seat < num_players:
        raise ConfigError(f"the human seat must be in [0, {num_players - 1}], got {seat}")
    others = num_players - 1
    if others and not agents:
        raise ConfigError(f"{num_players} seats: give agents for the other seats (--agents ...)")
    if len(agents) > others or (not cooperative and len(agents) < others):
        example = [*agents, *[agents[-1]] * (others - len(agents))][:others] if agents else []
        raise ConfigError(
            f"{num_players} seats with you at seat {seat}: give one agent per other seat "
            f"({others}), got {len(agents)} ({' '.join(agents)}); list one more than once to "
            f"seat it several times (e.g. --agents {' '.join(example)}), or change --num-players"
        )
    out, k = [], 0
    for s in range(num_players):
        if s == seat:
            out.append(HUMAN)
        else:
            out.append(agents[k % len(agents)])
            k += 1
    return out


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


def verdict(cooperative: bool, seat: int, winners: list[int], who: Any) -> str:
    """How the game ended for the person at ``seat`` (``who(s)`` names a seat)."""
    if cooperative:
        return "the team won" if winners else "the team lost"
    if seat in winners:
        return "you won" if len(winners) == 1 else f"you share the win with {winners}"
    return f"you lost; winners: {[who(w) for w in winners]}"


def _players(game: str, lineup: list[str], seed: int) -> dict[int, Any]:
    """The agents of the seats the person does not play, each reset with its seat's seed."""
    from cardarena.agents import make_agent

    players: dict[int, Any] = {}
    for s, name in enumerate(lineup):
        if name != HUMAN:
            players[s] = make_agent(game, name, seed=seeding.agent_seed(seed, s))
            players[s].reset(seeding.agent_seed(seed, s))
    return players


def _check_seed_and_record(seed: Any, record_dir: str | Path | None) -> None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ConfigError(f"the deal seed must be an integer >= 0, got {seed!r} (or leave it out)")
    if record_dir is not None:
        check_writable("the replay directory (--record)", Path(record_dir), directory=True)


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
    from cardarena.envs.core.replay import ReplayWriter, agent_note, replay_name

    inp = sys.stdin if inp is None else inp
    out = sys.stdout if out is None else out
    echo = not inp.isatty()  # piped input: show what was read, so a transcript reads well

    options = dict(options or {})
    spec = get_spec(game)
    _check_seed_and_record(seed, record_dir)
    num_players = table_size(game, agents, options.pop("num_players", None))
    options["num_players"] = num_players
    engine = spec.make_engine(**options)
    lineup = seat_specs(num_players, seat, agents, get_spec(game).cooperative)
    if seed is None:
        seed = int(np.random.default_rng().integers(2**31))
    players = _players(game, lineup, seed)
    state = engine.new_game(np.random.default_rng(seed))
    writer = None
    if record_dir is not None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = Path(record_dir) / f"{stamp}-{replay_name(game, seed, lineup)}"
        writer = ReplayWriter(path, game, options, seed, lineup, source="human play")
        writer.begin(engine, state)

    def say(text: str = "") -> None:
        print(text, file=out)

    def who(s: int) -> str:
        return "you" if s == seat else f"seat {s} ({lineup[s]})"

    say(f"{game} {options}  seed {seed}")
    say("  " + "  ".join(f"seat {s}: {'YOU' if s == seat else n}" for s, n in enumerate(lineup)))
    say("type an action's number or its text; '?' shows the screen again, 'quit' stops")
    events: list[str] = []
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    quit_reason = ""
    try:
        while not engine.is_over(state):
            current = engine.current_player(state)
            if current == seat:
                say("-" * 72)
                say(screen(engine, spec, state, seat, events))
                events = []
                action, quit_reason = read_action(engine, spec, state, seat, inp, out, echo)
                if quit_reason:
                    break
                engine.apply(state, action, seat)
                events.append(f"you: {engine.describe_action(action)}")
            else:
                action = decide(spec, engine, state, current, players[current], mask)
                engine.apply(state, action, current)
                events.append(f"{who(current)}: {engine.describe_action(action)}")
            if writer is not None:
                note = None if current == seat else agent_note(players[current])
                writer.action(engine, state, current, action, note)
    except KeyboardInterrupt:
        quit_reason = "interrupted"
    finally:
        if writer is not None:
            writer.end(engine, state)
    say("=" * 72)
    if quit_reason:
        say(f"game stopped ({quit_reason}).")
    else:
        for e in events:
            say(f"  {e}")
        say(spec.render(state, seat))
        winners = engine.winners(state)
        scores = engine.scores(state)
        say(f"game over: {verdict(spec.cooperative, seat, winners, who)}. scores {scores}")
    if writer is not None:
        say(
            for_user(
                f"replay saved: {writer.path}  (python -m cardarena.agents.tools.replay {writer.path})"
            )
        )
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
