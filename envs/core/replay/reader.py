"""Reading replays: every line checked (a malformed or cut file raises a :class:`ReplayFormatError`
naming the line), and the :class:`Replay` it gives."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cardarena.envs.core.engine import MAX_ACTION_TEXT, CardArenaError, GameEngine
from cardarena.envs.core.registry import get_spec, names
from cardarena.envs.core.replay.format import CHECK_EVERY, READS

#: the largest replay file read (a replay of one game is a few kilobytes)
MAX_REPLAY_BYTES = 64 * 2**20
#: the longest line of a replay read (a header with a whole initial state is a few kilobytes)
MAX_LINE_CHARS = 2**20


class ReplayFormatError(CardArenaError, ValueError):
    """A file that is not a readable replay; ``reason`` says why, ``line`` where (1-based)."""

    def __init__(self, where: str, reason: str, line: int | None = None) -> None:
        self.where, self.reason, self.line = where, reason, line
        super().__init__(f"{where}:{line}: {reason}" if line else f"{where}: {reason}")

    def short(self) -> str:
        """The reason without the file name: ``line 7: ...``."""
        return f"line {self.line}: {self.reason}" if self.line else self.reason


class ReplayHeaderError(ReplayFormatError):
    """The first line is no replay header, or names an unknown game, format or bad options."""


class ReplayLineError(ReplayFormatError):
    """A line that is not JSON or not one of the line kinds with the right keys and types."""


class ReplayTruncatedError(ReplayFormatError):
    """Lines are missing: the file was cut short, or a line was dropped."""


MAX_SEED = 2**128
MAX_CHECK_EVERY = 1_000_000


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Any) -> bool:
    return (_is_int(x) or isinstance(x, float)) and x == x and abs(x) != float("inf")


def printable(text: str) -> str:
    """``text`` with every control character (and so every terminal escape sequence) written as
    a Python escape (``\\x1b``); printable text, non-ASCII letters included, is unchanged."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _shown(x: Any, limit: int = 60) -> str:
    text = repr(x)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _LineReader:
    """Checks one line's keys and types, raising :class:`ReplayLineError` at that line."""

    def __init__(self, where: str, n: int, item: dict[str, Any], kind: str) -> None:
        self.where, self.n, self.item, self.kind = where, n, item, kind

    def error(self, reason: str) -> ReplayLineError:
        return ReplayLineError(self.where, f"{self.kind} line: {reason}", self.n)

    def keys(self, required: set[str], optional: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        missing = sorted(required - set(self.item))
        if missing:
            raise self.error(f"missing key(s) {missing}")
        unknown = sorted(str(k) for k in set(self.item) - required - optional)
        if unknown:
            raise self.error(f"unknown key(s) {_shown(unknown)}")

    def get(self, key: str, ok: Any, allowed: str) -> Any:
        value = self.item.get(key)
        if not ok(value):
            raise self.error(f"{key!r} is {_shown(value)}; allowed: {allowed}")
        return value


def _str_list(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(v, str) for v in x)


def _number_list(x: Any) -> bool:
    return isinstance(x, list) and all(_is_number(v) for v in x)


def _read_header(where: str, item: Any) -> tuple[dict[str, Any], GameEngine]:
    if not isinstance(item, dict) or item.get("type") != "header":
        raise ReplayHeaderError(
            where,
            'the first line must be the replay header {"type": "header", "game": ..., "seed": ...}',
            1,
        )
    fmt = item.get("format")
    if not _is_int(fmt) or fmt not in READS:
        raise ReplayHeaderError(
            where, f"replay format {_shown(fmt)}; this version reads formats {list(READS)}", 1
        )
    r = _LineReader(where, 1, item, "header")

    def fail(reason: str) -> ReplayHeaderError:
        return ReplayHeaderError(where, f"header: {reason}", 1)

    required = {"type", "format", "game", "options", "seed", "players"}
    optional = {"version", "reset_options", "source", "created", "check_every", "initial"}
    try:
        r.keys(required, optional)
        game = r.get("game", lambda x: isinstance(x, str), "a game name")
        if game not in names():
            raise fail(f"unknown game {_shown(game)}; games: {names()}")
        options = r.get(
            "options",
            lambda x: isinstance(x, dict) and all(isinstance(k, str) for k in x),
            "the engine options as a JSON object",
        )
        r.get("reset_options", lambda x: x is None or isinstance(x, dict), "a JSON object")
        r.get("seed", lambda x: _is_int(x) and 0 <= x < MAX_SEED, "an integer in [0, 2**128)")
        r.get("players", _str_list, "a list of player names")
        r.get("source", lambda x: x is None or isinstance(x, str), "a string")
        r.get("created", lambda x: x is None or isinstance(x, str), "a string")
        r.get("version", lambda x: x is None or _is_int(x) or isinstance(x, str), "a version")
        r.get(
            "check_every",
            lambda x: x is None or (_is_int(x) and 1 <= x <= MAX_CHECK_EVERY),
            f"an integer in [1, {MAX_CHECK_EVERY}]",
        )
        r.get("initial", lambda x: x is None or isinstance(x, dict), "a to_dict() object")
    except ReplayLineError as err:
        raise ReplayHeaderError(where, err.reason, 1) from None
    try:
        engine = get_spec(game).make_engine(**options)
    except (CardArenaError, TypeError, ValueError, OverflowError) as err:
        raise fail(f"the recorded options {_shown(options, 200)} are refused: {err}") from None
    if len(item["players"]) != engine.num_players:
        raise fail(
            f"{len(item['players'])} player names for {engine.num_players} seats "
            f"(options {_shown(options, 200)})"
        )
    return item, engine


def _read_line(where: str, n: int, item: Any, replay: Replay, num_players: int, fmt: int) -> None:
    """Check line ``n`` and add it to ``replay`` (actions, checks, result, end)."""
    if not isinstance(item, dict):
        what = {type(None): "null", list: "a list", str: "a string", bool: "a boolean"}
        shown = what.get(type(item), "a number")
        raise ReplayLineError(where, f"{shown}, not a JSON object", n)
    if replay.end is not None:
        raise ReplayLineError(where, "a line after the end line", n)
    kind = item.get("type")
    steps = len(replay.actions)
    if kind is None and "action" in item:
        _read_action(where, n, item, replay, num_players, steps, fmt)
    elif kind == "check":
        _read_check(where, n, item, replay, num_players, steps)
    elif kind == "result":
        _read_result(where, n, item, replay, num_players, steps)
    elif kind == "end" and fmt >= 2:
        _read_end(where, n, item, replay, num_players, steps)
    elif kind == "header":
        raise ReplayLineError(where, "a second header line", n)
    else:
        raise ReplayLineError(
            where,
            f"neither an action line nor a check, result{' or end' if fmt >= 2 else ''} line "
            f"(type {_shown(kind)}, keys {_shown(sorted(map(str, item)))})",
            n,
        )


def _read_action(
    where: str, n: int, item: dict, replay: Replay, num_players: int, steps: int, fmt: int = 3
) -> None:
    """An action line (after ``steps`` actions)."""
    if replay.result is not None:
        raise ReplayLineError(where, "an action line after the result line", n)
    r = _LineReader(where, n, item, "action")
    r.keys({"seat", "action", "digest"}, {"note"} if fmt >= 3 else set())
    if "note" in item:
        r.get("note", lambda x: isinstance(x, dict), "a JSON object")
    r.get("seat", lambda x: _is_int(x) and 0 <= x < num_players, f"a seat in 0..{num_players - 1}")
    r.get(
        "action",
        lambda x: isinstance(x, str) and 0 < len(x) <= MAX_ACTION_TEXT,
        f"an action text (1 to {MAX_ACTION_TEXT} characters)",
    )
    r.get(
        "digest",
        lambda x: isinstance(x, str) and len(x) == 12 and all(c in "0123456789abcdef" for c in x),
        "12 hex digits",
    )
    replay.actions.append(item)
    replay.action_lines.append(n)


def _read_check(
    where: str, n: int, item: dict, replay: Replay, num_players: int, steps: int
) -> None:
    """A check line: the digest of the state after action ``steps``."""
    r = _LineReader(where, n, item, "check")
    r.keys({"type", "step", "to_move", "decision", "legal", "scores", "zones", "fields"})
    step = r.get("step", _is_int, "an integer")
    if step != steps:
        raise ReplayTruncatedError(
            where,
            f"the check of action {_shown(step)} follows action {steps}: "
            f"{'action lines are missing' if _is_int(step) and step > steps else 'lines are out of order'}",
            n,
        )
    if step in replay.checks:
        raise ReplayLineError(where, f"a second check after action {step}", n)
    r.get(
        "to_move",
        lambda x: x is None or (_is_int(x) and 0 <= x < num_players),
        "a seat or null",
    )
    r.get("decision", lambda x: x is None or isinstance(x, str), "a decision name or null")
    r.get("legal", _str_list, "a list of action texts")
    r.get("scores", _number_list, "a list of numbers")
    r.get("zones", lambda x: isinstance(x, dict), "a JSON object")
    r.get(
        "fields",
        lambda x: isinstance(x, dict) and all(isinstance(v, str) for v in x.values()),
        "an object of field hashes",
    )
    replay.checks[step] = item


def _read_result(
    where: str, n: int, item: dict, replay: Replay, num_players: int, steps: int
) -> None:
    """The result line (after all ``steps`` actions)."""
    if replay.result is not None:
        raise ReplayLineError(where, "a second result line", n)
    r = _LineReader(where, n, item, "result")
    r.keys({"type", "steps", "scores", "winners", "returns"})
    got = r.get("steps", _is_int, "an integer")
    if got != steps:
        raise ReplayTruncatedError(
            where, f"the result counts {got} actions, the file holds {steps}", n
        )
    r.get("scores", _number_list, "a list of numbers")
    r.get(
        "winners",
        lambda x: isinstance(x, list) and all(_is_int(v) and 0 <= v < num_players for v in x),
        "a list of seats",
    )
    r.get("returns", _number_list, "a list of numbers")
    replay.result = item


def _read_end(where: str, n: int, item: dict, replay: Replay, num_players: int, steps: int) -> None:
    """The end line (format 2): how many lines and actions came before it."""
    r = _LineReader(where, n, item, "end")
    r.keys({"type", "lines", "steps", "finished"})
    lines = r.get("lines", _is_int, "an integer")
    got = r.get("steps", _is_int, "an integer")
    finished = r.get("finished", lambda x: isinstance(x, bool), "true or false")
    if lines != n - 1:
        raise ReplayTruncatedError(
            where, f"the end line counts {lines} lines before it, the file has {n - 1}", n
        )
    if got != steps:
        raise ReplayTruncatedError(
            where, f"the end line counts {got} actions, the file holds {steps}", n
        )
    if finished != (replay.result is not None):
        raise ReplayTruncatedError(
            where,
            "the end line says the game finished, but there is no result line"
            if finished
            else "the end line says the game is unfinished, but there is a result line",
            n,
        )
    replay.end = item


@dataclass
class Replay:
    header: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)
    checks: dict[int, dict[str, Any]] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    path: Path | None = None
    #: the end line (format 2); None in a format 1 file or a file cut short
    end: dict[str, Any] | None = None
    #: why the file looks cut (the last line half written), else None
    cut: str | None = None
    #: the line number of each action line
    action_lines: list[int] = field(default_factory=list)
    num_lines: int = 0

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        """Read a replay file (at most :data:`MAX_REPLAY_BYTES`, lines of at most
        :data:`MAX_LINE_CHARS`: a replay of one game is a few kilobytes)."""
        path = Path(path)
        try:
            with path.open("rb") as f:
                data = f.read(MAX_REPLAY_BYTES + 1)
            if len(data) > MAX_REPLAY_BYTES:
                raise ReplayFormatError(
                    str(path),
                    f"larger than {MAX_REPLAY_BYTES} bytes, the limit of a replay "
                    "(envs/core/replay/reader.py MAX_REPLAY_BYTES); a replay of one game is a "
                    "few kilobytes: is this a replay?",
                )
            lines = data.decode("utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as err:
            raise ReplayFormatError(str(path), f"cannot read replay: {err}") from None
        return cls.parse(lines, path)

    @classmethod
    def parse(cls, lines: Sequence[str], path: Path | None = None) -> Replay:
        """Read and check every line; raises a :class:`ReplayFormatError` subclass at the first
        line that is not part of a replay. A last line that is not JSON is taken for a line cut
        while written (``cut`` says so) so the rest can still be viewed; :func:`verify` fails it."""
        where = str(path) if path else "replay"
        replay: Replay | None = None
        engine: GameEngine | None = None
        for n, line in enumerate(lines, 1):
            if len(line) > MAX_LINE_CHARS:
                raise ReplayLineError(
                    where, f"a line of {len(line)} characters (the limit is {MAX_LINE_CHARS})", n
                )
            try:
                item = json.loads(line)
            except (ValueError, RecursionError) as err:  # JSONDecodeError, 5,000-digit numbers
                if n == len(lines) and replay is not None and replay.end is None:
                    replay.cut = f"the last line (line {n}) is cut short: {_shown(line, 40)}"
                    break
                why = "not JSON" if isinstance(err, json.JSONDecodeError) else str(err)[:80]
                raise ReplayLineError(where, f"{why}: {_shown(line, 60)}", n) from None
            if replay is None:
                header, engine = _read_header(where, item)
                replay = cls(header=header, path=path)
            else:
                assert engine is not None
                fmt = replay.header["format"]
                _read_line(where, n, item, replay, engine.num_players, fmt)
            replay.num_lines = n
        if replay is None:
            raise ReplayHeaderError(where, "an empty file, not a replay (no header line)")
        return replay

    def check_complete(self) -> None:
        """Raise :class:`ReplayTruncatedError` if lines are missing: the file was cut short (no
        end line in format 2; no result line in format 1) or a check line was dropped."""
        where = str(self.path) if self.path else "replay"
        steps = len(self.actions)

        def cut(reason: str) -> ReplayTruncatedError:
            return ReplayTruncatedError(where, f"cut short after line {self.num_lines}: {reason}")

        if self.cut:
            raise cut(self.cut)
        every = int(self.header.get("check_every") or CHECK_EVERY)
        missing = [k for k in range(every, steps + 1, every) if k not in self.checks]
        if missing:
            raise ReplayTruncatedError(
                where, f"the check line after action {missing[0]} is missing (every {every})"
            )
        over = [k for k, c in self.checks.items() if c.get("decision") is None]
        if self.result is not None:
            if steps not in self.checks:
                raise cut(f"the check after the last action ({steps}) is missing")
        elif over:
            raise cut(f"the check after action {over[0]} shows the game over, but no result line")
        if self.header["format"] >= 2:
            if self.end is None:
                raise cut("no end line (the file was not closed)")
        elif self.result is None:
            raise cut(
                "no result line (a format 1 file has no end line, so a game left unfinished "
                "and a cut file look alike)"
            )

    @property
    def game(self) -> str:
        return self.header["game"]

    @property
    def players(self) -> list[str]:
        """The player names, with control characters escaped (a name comes from a file: an ANSI
        escape sequence in it must not reach the terminal)."""
        return [printable(p) for p in self.header.get("players") or []]

    def engine(self) -> GameEngine:
        return get_spec(self.game).make_engine(**self.header.get("options", {}))

    def deal(self, engine: GameEngine) -> Any:
        rng = np.random.default_rng(int(self.header["seed"]))
        return engine.new_game(rng, dict(self.header.get("reset_options") or {}))

    def start(self, engine: GameEngine) -> Any:
        """The initial state: the recorded one if the engine reads it, else dealt from the seed."""
        if self.header.get("initial") is not None:
            try:
                return engine.from_dict(self.header["initial"])
            except Exception:  # an older state format: deal from the seed instead
                pass
        return self.deal(engine)

    def states(self, engine: GameEngine) -> Iterator[tuple[int, Any]]:
        """(step, state) from the start; raises CardArenaError where the engine refuses a step."""
        state = self.start(engine)
        yield 0, state
        for i, line in enumerate(self.actions, 1):
            action = engine.parse_action(line["action"])
            engine.apply(state, action, int(line["seat"]))
            yield i, state


# ---- verifying -----------------------------------------------------------------------------------
