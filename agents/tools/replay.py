"""The replay viewer: step through a saved game from any seat's view, or check files against
today's engine (the format is :mod:`envs.core.replay`).

    python -m cardarena.agents.tools.replay FILE                 # step through it, full view (hidden cards too)
    python -m cardarena.agents.tools.replay FILE --seat 2        # what seat 2 saw
    python -m cardarena.agents.tools.replay FILE --transcript    # and what each agent noted (a model's prompts and replies)
    python -m cardarena.agents.tools.replay FILE... --verify     # through today's engine; exit 1 on a difference
    python -m cardarena.agents.tools.replay FILE... --verify -v  # and every line explaining a difference

``--verify`` prints one verdict line per file (``FILE: OK (N actions)`` or ``FILE: FAIL: why``),
goes on to the next file whatever one holds (not JSON, lines missing, the engine disagreeing) and
exits 1 if any file fails.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import IO, Any

from cardarena.agents.tools.commands import UserHelp, prog
from cardarena.envs.core.engine import CardArenaError, GameEngine
from cardarena.envs.core.narration import narrate
from cardarena.envs.core.registry import get_spec
from cardarena.envs.core.replay import Replay, ReplayFormatError, Verdict, _seat_label, verify
from cardarena.envs.core.replay.reader import printable


def full_view(engine: GameEngine, spec: Any, state: Any, max_cards: int = 16) -> str:
    """The public render and every card zone (hidden ones included)."""
    lines = [spec.render(state, None), "every card (hidden ones included):"]
    zones = dict(engine.card_zones(state))
    pile = engine.to_dict(state).get("draw_pile")
    if "draw_pile" in zones and isinstance(pile, list):
        zones["draw_pile"] = pile  # in the to_dict() order: top first
    for zone, cards in zones.items():
        shown = " ".join(map(str, cards[:max_cards])) or "-"
        more = f" ... (+{len(cards) - max_cards})" if len(cards) > max_cards else ""
        lines.append(f"  {zone:<14} {shown}{more}")
    return "\n".join(lines)


def note_text(note: dict[str, Any]) -> str:
    """An agent's note on its decision, for reading: a language model's conversation (each
    message under its role), how many replies were asked for and whether the fallback played;
    any other note as its JSON. Control characters are escaped (the text comes from a file)."""
    if note.get("kind") != "llm" or not isinstance(note.get("messages"), list):
        return printable(json.dumps(note, indent=1, sort_keys=True))
    fell = "yes" if note.get("fallback") else "no"
    lines = [f"-- transcript: {note.get('asked')} repl(y/ies) asked, fallback played: {fell}"]
    if note.get("error"):
        lines.append(f"   error: {printable(str(note['error']))}")
    for m in note["messages"]:
        role = m.get("role", "?") if isinstance(m, dict) else "?"
        content = m.get("content", "") if isinstance(m, dict) else m
        lines.append(f"[{printable(str(role))}]")
        lines += [f"   {printable(t)}" for t in str(content).splitlines()]
    lines.append(f"-- played: {printable(str(note.get('action')))}")
    return "\n".join(lines)


def told(
    replay: Replay, spec: Any, previous: Any, state: Any, step: int, seat: int | None
) -> list[str]:
    """What action ``step`` did (``previous`` -> ``state``), told from ``seat``'s views
    (``envs.core.narration``), or, in the full view, from the views of the seat that acted."""
    line = replay.actions[step - 1]
    actor = int(line["seat"])
    teller = actor if seat is None else seat
    lines = narrate(
        spec,
        spec.view(previous, teller),
        spec.view(state, teller),
        actor,
        str(line["action"]),
        teller,
        lambda s: "you" if s == seat else _seat_label(replay, s),
    )[1:]
    if seat is None and lines:
        lines.insert(0, f"  (as {_seat_label(replay, actor)} saw it)")
    return lines


def frame(
    replay: Replay,
    engine: GameEngine,
    state: Any,
    step: int,
    seat: int | None,
    transcript: bool = False,
    previous: Any = None,
) -> str:
    """One screen of the replay: the action that led here (with ``transcript``, the note its
    agent left on it), what it did (told from ``seat``'s views when ``previous``, the state
    before it, is given) and the state from ``seat``'s view."""
    spec = get_spec(replay.game)
    total = len(replay.actions)
    if step == 0:
        head = f"== {replay.game} seed {replay.header.get('seed')}: start ({total} actions)"
    else:
        line = replay.actions[step - 1]
        head = f"== {step}/{total}  {_seat_label(replay, int(line['seat']))}: {line['action']}"
        if previous is not None:
            head = "\n".join([head, *told(replay, spec, previous, state, step, seat)])
        if transcript and isinstance(line.get("note"), dict):
            head += "\n" + note_text(line["note"])
    body = full_view(engine, spec, state) if seat is None else spec.render(state, seat)
    return f"{head}\n{body}"


def _result_text(replay: Replay) -> str:
    r = replay.result
    if r is None:
        return "(the game was not finished)"
    return f"result: scores {r['scores']}, winners {r['winners']}, returns {r['returns']}"


def view(
    replay: Replay,
    seat: int | None = None,
    interactive: bool = False,
    out: IO[str] | None = None,
    inp: IO[str] | None = None,
    transcript: bool = False,
) -> int:
    """Print the replay (or step through it: Enter next, b back, a number goes there, q quits);
    ``transcript``: with the notes agents left on their decisions (a model's conversation)."""
    out = sys.stdout if out is None else out
    inp = sys.stdin if inp is None else inp
    engine = replay.engine()
    if seat is not None and not 0 <= seat < engine.num_players:
        raise CardArenaError(f"--seat must be in [0, {engine.num_players - 1}], got {seat}")
    who = "full view" if seat is None else f"seat {seat}'s view"
    print(f"{replay.path or replay.game}: {replay.game} {replay.header.get('options')}", file=out)
    try:
        replay.check_complete()
    except ReplayFormatError as err:
        print(f"note: {err.short()}", file=out)
    print(f"players: {replay.players}  ({who})", file=out)
    if not interactive:
        try:
            previous = None
            for step, state in replay.states(engine):
                print(frame(replay, engine, state, step, seat, transcript, previous), file=out)
                previous = engine.clone(state)
        except CardArenaError as err:
            print(f"the engine refuses the next action: {err}", file=out)
            return 1
        print(_result_text(replay), file=out)
        return 0
    snapshots = [engine.to_dict(replay.start(engine))]  # state after each step, as we reach it
    step = 0
    while True:
        state = engine.from_dict(snapshots[step])
        previous = engine.from_dict(snapshots[step - 1]) if step else None
        print(frame(replay, engine, state, step, seat, transcript, previous), file=out)
        if step == len(replay.actions):
            print(_result_text(replay), file=out)
        print("[Enter] next  [b] back  [N] go to action N  [q] quit > ", end="", file=out)
        out.flush()
        answer = inp.readline()
        if not answer:
            print(file=out)
            return 0
        answer = answer.strip().lower()
        if answer in ("q", "quit", "exit"):
            return 0
        target = step + 1
        if answer == "b":
            target = step - 1
        elif answer.isdigit():
            target = int(answer)
        target = max(0, min(target, len(replay.actions)))
        try:
            while len(snapshots) <= target:
                i = len(snapshots)
                state = engine.from_dict(snapshots[-1])
                line = replay.actions[i - 1]
                engine.apply(state, engine.parse_action(line["action"]), int(line["seat"]))
                snapshots.append(engine.to_dict(state))
        except CardArenaError as err:
            print(f"the engine refuses action {len(snapshots)}: {err}", file=out)
            target = len(snapshots) - 1
        step = target


def verify_file(path: str) -> Verdict:
    """:func:`verify`, and a failing verdict should anything still escape it (one bad file must
    not stop a batch)."""
    try:
        return verify(path)
    except Exception as err:  # noqa: BLE001 - verify() returns verdicts; this is a last guard
        return Verdict(path, False, 0, reason=f"internal error: {type(err).__name__}: {err}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog("replay"),
        description=__doc__,
        formatter_class=UserHelp,
    )
    parser.add_argument("files", nargs="+", help="replay files (.jsonl)")
    parser.add_argument("--seat", type=int, default=None, help="show what this seat saw")
    parser.add_argument(
        "--verify", action="store_true", help="replay through the engine; exit 1 on a difference"
    )
    parser.add_argument(
        "-v",
        "--explain",
        action="store_true",
        help="with --verify: after a failing file's verdict line, every line explaining it",
    )
    parser.add_argument(
        "--transcript",
        action="store_true",
        help="show what each agent noted on its decisions (a language model's prompts and replies)",
    )
    parser.add_argument(
        "--no-pause", action="store_true", help="print every step at once (default off a terminal)"
    )
    args = parser.parse_args(argv)
    try:
        if args.verify:
            bad = 0
            for path in args.files:
                verdict = verify_file(path)
                print(verdict.text() if args.explain else verdict.line(), flush=True)
                bad += not verdict.ok
            if bad:
                print(f"{bad} of {len(args.files)} replays fail", file=sys.stderr)
            return 1 if bad else 0
        if len(args.files) != 1:
            parser.error("give one file to view (several only with --verify)")
        replay = Replay.load(args.files[0])
        interactive = not args.no_pause and sys.stdin.isatty() and sys.stdout.isatty()
        return view(replay, args.seat, interactive, transcript=args.transcript)
    except CardArenaError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the output piped into a reader that stopped (| head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
