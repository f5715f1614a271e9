"""Checking a replay against today's engine: one :class:`Verdict` per file."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardarena.envs.core.engine import CardArenaError, GameEngine
from cardarena.envs.core.replay.format import _canon, make_check, make_result, state_digest
from cardarena.envs.core.replay.reader import Replay, ReplayFormatError

MAX_SHOWN = 160  # characters of a value shown in a difference


def _short(x: Any) -> str:
    text = json.dumps(x) if not isinstance(x, str) else repr(x)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 5] + " ...]"


def diff_values(name: str, expected: Any, got: Any, limit: int = 8) -> list[str]:
    """Readable lines saying where two JSON values differ (nested by key and position)."""
    expected, got = _canon(expected), _canon(got)
    if expected == got:
        return []
    if isinstance(expected, dict) and isinstance(got, dict):
        lines = []
        for key in list(expected) + [k for k in got if k not in expected]:
            if key not in got:
                lines.append(f"{name}.{key}: expected {_short(expected[key])}, now missing")
            elif key not in expected:
                lines.append(f"{name}.{key}: not recorded, now {_short(got[key])}")
            else:
                lines += diff_values(f"{name}.{key}", expected[key], got[key], limit)
            if len(lines) >= limit:
                return lines[:limit] + ["..."]
        return lines
    if (
        isinstance(expected, list)
        and isinstance(got, list)
        and len(expected) == len(got)
        and any(isinstance(v, list | dict) for v in expected + got)
    ):
        lines = []
        for i, (a, b) in enumerate(zip(expected, got, strict=True)):
            lines += diff_values(f"{name}[{i}]", a, b, limit)
            if len(lines) >= limit:
                return lines[:limit] + ["..."]
        return lines
    return [f"{name}: expected {_short(expected)}, got {_short(got)}"]


def _close(a: Any, b: Any) -> bool:
    a, b = _canon(a), _canon(b)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    return a == b


def compare_check(expected: dict[str, Any], engine: GameEngine, state: Any) -> list[str]:
    got = make_check(engine, state, expected.get("step", 0))
    lines = []
    for key in ("to_move", "decision", "legal", "scores", "zones"):
        if key in expected:
            lines += diff_values(key, expected[key], got[key])
    fields = expected.get("fields") or {}
    changed = [k for k in fields if got["fields"].get(k) != fields[k]]
    added = [k for k in got["fields"] if k not in fields]
    if changed:
        lines.append(f"to_dict() fields that differ: {', '.join(changed)}")
    if added:
        lines.append(f"to_dict() fields not in the recording: {', '.join(added)}")
    return lines


MAX_VERDICT = 300  # characters of the one-line verdict


@dataclass
class Verdict:
    """The outcome of :func:`verify`: ``ok``, why not (``reason``) and the first difference
    explained (``lines``)."""

    path: str
    ok: bool
    steps: int
    lines: list[str] = field(default_factory=list)
    reason: str = "the engine disagrees with the recording"

    def line(self) -> str:
        """One line: ``FILE: OK (N actions)`` or ``FILE: FAIL: why: the first difference``."""
        if self.ok:
            note = "".join(f"; {x.strip('() ')}" for x in self.lines)
            text = f"{self.path}: OK ({self.steps} actions{note})"
        else:
            # the explanation's lines, joined (the one line is cut to MAX_VERDICT below)
            first = " ".join(x.strip() for x in self.lines if x.strip()[:1] not in ("", "("))
            text = f"{self.path}: FAIL: {self.reason}" + (f": {first}" if first else "")
        text = " ".join(text.split())  # no line breaks, whatever a file held
        return text if len(text) <= MAX_VERDICT else text[: MAX_VERDICT - 3] + "..."

    def text(self) -> str:
        """The verdict line, then (for a difference) every line explaining it."""
        if self.ok:
            return self.line()
        return "\n".join([self.line(), *self.lines])


def _seat_label(replay: Replay, seat: int) -> str:
    players = replay.players
    return f"seat {seat} ({players[seat]})" if 0 <= seat < len(players) else f"seat {seat}"


def verify(replay: Replay | str | Path) -> Verdict:
    """Play the replay through today's engine; the first difference, with expected and got.
    Never raises: a file that is not a complete replay fails with the reason."""
    where = str(replay.path or replay.game) if isinstance(replay, Replay) else str(replay)
    try:
        if not isinstance(replay, Replay):
            replay = Replay.load(replay)
        replay.check_complete()
        return _verify(replay)
    except ReplayFormatError as err:
        return Verdict(where, False, 0, reason=err.short())
    except CardArenaError as err:
        return Verdict(where, False, 0, reason=f"the engine refuses the recording: {err}")
    except Exception as err:  # noqa: BLE001 - a verdict per file, whatever the file holds
        return Verdict(
            where, False, 0, reason=f"internal error while verifying: {type(err).__name__}: {err}"
        )


def _verify(replay: Replay) -> Verdict:
    where = str(replay.path or replay.game)
    out: list[str] = []

    def fail(steps: int, *lines: str) -> Verdict:
        return Verdict(where, False, steps, [*out, *lines])

    try:
        engine = replay.engine()
    except CardArenaError as err:
        return fail(0, f"  the recorded options {replay.header.get('options')} are refused: {err}")
    try:
        state = replay.deal(engine)
    except Exception as err:  # noqa: BLE001 - bad reset options are the report
        return fail(0, f"  the deal (seed {replay.header.get('seed')}) is refused: {err}")
    initial = replay.header.get("initial")
    if initial is not None:
        dealt = _canon(engine.to_dict(state))
        if dealt != initial:
            out.append(f"  the deal from seed {replay.header['seed']} differs from the recording:")
            out += ["    " + line for line in diff_values("initial", initial, dealt)]
            try:
                state = engine.from_dict(initial)
            except Exception as err:  # noqa: BLE001 - any failure to read it is the report
                return fail(0, f"  and the recorded initial state cannot be loaded: {err!r}")
            out.append("  (the actions below are replayed from the recorded initial state)")
    pending: list[str] = []  # a digest difference waiting for the next check to explain it
    for i, line in enumerate(replay.actions, 1):
        seat, text = int(line["seat"]), line["action"]
        label = f"action {i} ({_seat_label(replay, seat)}: {text!r})"
        problem = _replay_action(engine, state, seat, text, label)
        if problem:
            return fail(i, *pending, problem)
        digest = line.get("digest")
        if not pending and digest and digest != (now := state_digest(engine, state)):
            pending = _digest_difference(engine, state, label, digest, now)
        check = replay.checks.get(i)
        if check is not None:
            lines = compare_check(check, engine, state)
            if lines:
                head = f"  at the check after action {i}:"
                return fail(i, *pending, head, *["    " + x for x in lines])
            if pending:
                return fail(
                    i, *pending, f"  (the check after action {i} agrees on everything it shows)"
                )
    steps = len(replay.actions)
    if pending:
        return fail(steps, *pending)
    return _verify_end(replay, engine, state, steps, where, out)


def _replay_action(engine: Any, state: Any, seat: int, text: str, label: str) -> str | None:
    """Apply the recorded action ``text`` of ``seat`` to ``state``; what stops it (None: it is
    applied)."""
    if engine.is_over(state):
        return f"  {label}: the game is already over now"
    current = engine.current_player(state)
    if current != seat:
        return (
            f"  {label}: expected seat {seat} to act, got seat {current} "
            f"(decision {engine.decision_name(state)!r})"
        )
    legal = engine.legal_actions(state)
    legal_text = [engine.describe_action(a) for a in legal]
    try:
        action = engine.parse_action(text)
    except CardArenaError as err:
        return f"  {label}: the action text no longer parses: {err}"
    if action not in legal:
        return (
            f"  {label}: not legal now in decision {engine.decision_name(state)!r}; "
            f"legal now: {legal_text}"
        )
    engine.apply(state, action, seat)
    return None


def _digest_difference(engine: Any, state: Any, label: str, digest: str, now: str) -> list[str]:
    """The lines that say how the recorded ``digest`` after ``label`` differs from ``now``."""
    pending = [f"  first difference after {label}:"]
    if digest[:8] != now[:8]:
        pending.append(f"    the state differs (digest {digest[:8]} recorded, {now[:8]} now)")
    if digest[8:] != now[8:]:
        nxt = engine.current_player(state)
        legal_now = [engine.describe_action(a) for a in engine.legal_actions(state)]
        pending.append(
            f"    the legal actions of the next decision differ (seat {nxt}, "
            f"{engine.decision_name(state)!r}); now: {legal_now}"
        )
    return pending


def _verify_end(
    replay: Replay, engine: Any, state: Any, steps: int, where: str, out: list[str]
) -> Verdict:
    """The verdict once every action has replayed: the game's end against the recorded one."""

    def fail(*lines: str) -> Verdict:
        return Verdict(where, False, steps, [*out, *lines])

    if replay.result is None:  # a format 2 file of a game left unfinished (check_complete)
        if engine.is_over(state):
            return fail(
                f"  the recording ends unfinished after action {steps}; the game ends there now"
            )
        if out:
            return fail()
        return Verdict(where, True, steps, ["(unfinished game: no result to compare)"])
    if not engine.is_over(state):
        seat = engine.current_player(state)
        legal_text = [engine.describe_action(a) for a in engine.legal_actions(state)]
        return fail(
            f"  the recording ends after action {steps} but the game goes on now: seat {seat} "
            f"to act in {engine.decision_name(state)!r}, legal {legal_text}",
        )
    got = make_result(engine, state, steps)
    lines = []
    for key in ("scores", "winners", "returns"):
        if not _close(replay.result.get(key), got[key]):
            lines += diff_values(key, replay.result.get(key), got[key])
    if lines:
        return fail("  the final result differs:", *["    " + x for x in lines])
    if out:  # only the deal differs
        return fail("  (from the recorded initial state every action and check agrees)")
    return Verdict(where, True, steps)
