"""The replay file format: a game saved as JSON lines, written while it is played, read back and
checked against the engine (:func:`verify`), so a rules change shows up as a readable difference.
The viewer and its command line are ``agents/tools/replay.py``; the files are plain JSON, read
with :func:`json.loads`, so nothing in them can run.

The file, one JSON object per line:

===========  =====================================================================================
line         fields
===========  =====================================================================================
header       ``{"type": "header", "format": 2, "game", "version", "options"`` (engine options,
             ``num_players`` included) ``, "reset_options"`` (``new_game`` options; usually {})
             ``, "seed"`` (the deal: ``new_game(np.random.default_rng(seed), reset_options)``)
             ``, "players"`` (a name per seat) ``, "source", "check_every", "initial"`` (the
             whole ``to_dict()`` at the start: the deck order (``draw_pile``, top first), every
             hand and the RNG, so a replay does not depend on how the engine shuffles)
action       ``{"seat": s, "action": "hit", "digest": d}``, one per decision in order; ``d`` is a
             short hash of ``to_dict()`` (8 hex digits) and of the legal actions (4) after it
check        ``{"type": "check", "step": k, "to_move", "decision", "legal"`` (texts) ``, "scores",
             "zones"`` (every card zone; a long one as size and hash) ``, "fields"`` (a short
             hash per ``to_dict()`` field)``}`` right after action ``k``, every ``check_every``
             actions and after the last one of a finished game: what a difference is explained with
result       ``{"type": "result", "steps", "scores", "winners", "returns"}`` (absent when a game was
             left unfinished)
end          ``{"type": "end", "lines", "steps", "finished"}``: the last line (format 2), written
             when the file is closed: how many lines come before it, how many actions, and whether
             the game finished. A file without it was cut short (a process killed while writing).
===========  =====================================================================================

Format 2 added the ``end`` line; format 1 files (no ``end`` line) are still read. A format 1 file
cannot tell a cut file from a game left unfinished, so :func:`verify` takes one without a result
line for cut short.

Reading checks every line (JSON, types, keys, seats in range, a check right after its action,
nothing after the end) and raises a :class:`ReplayFormatError` subclass naming the line:
:class:`ReplayHeaderError` (header, game, options), :class:`ReplayLineError` (a malformed line),
:class:`ReplayTruncatedError` (lines missing: cut short or dropped). :func:`verify` never raises:
it returns a :class:`Verdict` whose :meth:`Verdict.line` is one line per file.

Verifying deals the game again from the seed and compares the deal with ``initial``; if the deal
differs (a changed shuffle), that is reported and the rules are still checked from the recorded
``initial`` state. Then each action text is parsed and applied: the first place where the seat to
act, the legality of the recorded action, a digest, a check or the result differs is reported
with expected and got values.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from envs.core.engine import MAX_ACTION_TEXT, CardArenaError, GameEngine
from envs.core.registry import get_spec, names

FORMAT = 2  # 2: the end line
READS = (1, 2)  # the formats this version reads
CHECK_EVERY = 30  # actions between two check lines
ZONE_SHOWN = 12  # a check line lists the cards of zones up to this size, else size and hash


# ---- hashing -------------------------------------------------------------------------------------
def _canon(x: Any) -> Any:
    """JSON-ready copy with string keys (so sorting never meets mixed key types)."""
    if isinstance(x, dict):
        return {str(k): _canon(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_canon(v) for v in x]
    if isinstance(x, np.ndarray):
        return _canon(x.tolist())
    if isinstance(x, np.generic):
        return x.item()
    return x


def _dumps(x: Any) -> str:
    return json.dumps(_canon(x), sort_keys=True, separators=(",", ":"))


def _hash(x: Any, n: int) -> str:
    return hashlib.sha1(_dumps(x).encode()).hexdigest()[:n]


def state_digest(engine: GameEngine, state: Any) -> str:
    """A short hash of the whole state (8 hex digits) then of the legal actions of the next
    decision (4 more), so a difference says which of the two changed."""
    return _hash(engine.to_dict(state), 8) + _hash(engine.legal_actions(state), 4)


def _zone(cards: list[Any]) -> Any:
    """A zone as its cards, or a long one (a draw pile) as its size and a hash of its order."""
    return cards if len(cards) <= ZONE_SHOWN else {"cards": len(cards), "hash": _hash(cards, 6)}


def make_check(engine: GameEngine, state: Any, step: int) -> dict[str, Any]:
    data = _canon(engine.to_dict(state))
    return {
        "type": "check",
        "step": step,
        "to_move": engine.current_player(state),
        "decision": None if engine.is_over(state) else engine.decision_name(state),
        "legal": [engine.describe_action(a) for a in engine.legal_actions(state)],
        "scores": _canon(engine.scores(state)),
        "zones": {k: _zone(v) for k, v in _canon(engine.card_zones(state)).items()},
        "fields": {k: _hash(v, 6) for k, v in data.items()},
    }


def make_result(engine: GameEngine, state: Any, steps: int) -> dict[str, Any]:
    return {
        "type": "result",
        "steps": steps,
        "scores": _canon(engine.scores(state)),
        "winners": _canon(engine.winners(state)),
        "returns": _canon(engine.returns(state)),
    }


# ---- writing -------------------------------------------------------------------------------------
class ReplayWriter:
    """Writes a replay while a game is played (each line flushed, so a game cut short is kept)."""

    def __init__(
        self,
        path: str | Path,
        game: str,
        options: dict[str, Any],
        seed: int,
        players: Sequence[str],
        reset_options: dict[str, Any] | None = None,
        source: str = "",
        check_every: int = CHECK_EVERY,
        timestamp: bool = True,
    ) -> None:
        self.path = Path(path)
        self.timestamp = timestamp
        self.game = game
        self.options = dict(options)
        self.seed = int(seed)
        self.players = list(players)
        self.reset_options = dict(reset_options or {})
        self.source = source
        self.check_every = int(check_every)
        self.steps = 0
        self.lines = 0  # lines written so far
        self._file: IO[str] | None = None

    def begin(self, engine: GameEngine, state: Any) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("w")
        initial = _canon(engine.to_dict(state))
        options = {**self.options, "num_players": engine.num_players}
        self._write(
            {
                "type": "header",
                "format": FORMAT,
                "game": self.game,
                "version": get_spec(self.game).version,
                "options": _canon(options),
                "reset_options": _canon(self.reset_options),
                "seed": self.seed,
                "players": self.players,
                "source": self.source,
                "created": time.strftime("%Y-%m-%dT%H:%M:%S") if self.timestamp else None,
                "check_every": self.check_every,
                "initial": initial,
            }
        )

    def action(self, engine: GameEngine, state: Any, seat: int, action: int) -> None:
        """Record ``action`` of ``seat``, already applied to ``state``."""
        self.steps += 1
        self._write(
            {
                "seat": int(seat),
                "action": engine.describe_action(int(action)),
                "digest": state_digest(engine, state),
            }
        )
        if engine.is_over(state) or self.steps % self.check_every == 0:
            self._write(make_check(engine, state, self.steps))

    def end(self, engine: GameEngine, state: Any) -> None:
        """Close the file: the result line if the game is over, then the end line."""
        if self._file is None:
            return
        finished = engine.is_over(state)
        if finished:
            self._write(make_result(engine, state, self.steps))
        end = {"type": "end", "lines": self.lines, "steps": self.steps, "finished": finished}
        self._write(end)
        self._file.close()
        self._file = None

    def _write(self, item: dict[str, Any]) -> None:
        assert self._file is not None, "call begin() first"
        self._file.write(json.dumps(item, separators=(",", ":")) + "\n")
        self._file.flush()
        self.lines += 1


def record_game(
    path: str | Path,
    game: str,
    options: dict[str, Any],
    seed: int,
    players: Sequence[str],
    actions: Sequence[int],
    reset_options: dict[str, Any] | None = None,
    source: str = "",
    check_every: int = CHECK_EVERY,
    timestamp: bool = True,
) -> dict[str, Any]:
    """Write the replay of a game already played (its deal seed and action ids) by playing the
    actions again through the engine; returns the result line."""
    engine = get_spec(game).make_engine(**options)
    state = engine.new_game(np.random.default_rng(seed), dict(reset_options or {}))
    writer = ReplayWriter(
        path, game, options, seed, players, reset_options, source, check_every, timestamp
    )
    writer.begin(engine, state)
    try:
        for action in actions:
            seat = engine.current_player(state)
            engine.apply(state, int(action), seat)
            writer.action(engine, state, seat, action)
    finally:
        writer.end(engine, state)
    return make_result(engine, state, len(actions))


def slug(name: str) -> str:
    """A file-name friendly short form of an agent spec (``runs/x/final.zip`` -> ``final``)."""
    if name.endswith(".zip"):
        name = Path(name).stem
    out = "".join(c if c.isalnum() else "-" for c in name).strip("-")
    return out[-24:] or "agent"


def replay_name(game: str, seed: int, players: Sequence[str]) -> str:
    """``<game>-seed<seed>-<players>-<hash>.jsonl``: unique per deal and seating."""
    tag = hashlib.sha1("\0".join(players).encode()).hexdigest()[:6]
    return f"{game}-seed{seed}-{'_'.join(slug(p) for p in players)}-{tag}.jsonl"


# ---- reading -------------------------------------------------------------------------------------
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
        kind = what.get(type(item), "a number")
        raise ReplayLineError(where, f"{kind}, not a JSON object", n)
    if replay.end is not None:
        raise ReplayLineError(where, "a line after the end line", n)
    kind = item.get("type")
    steps = len(replay.actions)
    if kind is None and "action" in item:
        if replay.result is not None:
            raise ReplayLineError(where, "an action line after the result line", n)
        r = _LineReader(where, n, item, "action")
        r.keys({"seat", "action", "digest"})
        r.get(
            "seat", lambda x: _is_int(x) and 0 <= x < num_players, f"a seat in 0..{num_players - 1}"
        )
        r.get(
            "action",
            lambda x: isinstance(x, str) and 0 < len(x) <= MAX_ACTION_TEXT,
            f"an action text (1 to {MAX_ACTION_TEXT} characters)",
        )
        r.get(
            "digest",
            lambda x: (
                isinstance(x, str) and len(x) == 12 and all(c in "0123456789abcdef" for c in x)
            ),
            "12 hex digits",
        )
        replay.actions.append(item)
        replay.action_lines.append(n)
    elif kind == "check":
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
    elif kind == "result":
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
    elif kind == "end" and fmt >= 2:
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
    elif kind == "header":
        raise ReplayLineError(where, "a second header line", n)
    else:
        raise ReplayLineError(
            where,
            f"neither an action line nor a check, result{' or end' if fmt >= 2 else ''} line "
            f"(type {_shown(kind)}, keys {_shown(sorted(map(str, item)))})",
            n,
        )


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
        path = Path(path)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
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
        return list(self.header.get("players") or [])

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
        if engine.is_over(state):
            return fail(i, *pending, f"  {label}: the game is already over now")
        current = engine.current_player(state)
        if current != seat:
            return fail(
                i,
                *pending,
                f"  {label}: expected seat {seat} to act, got seat {current} "
                f"(decision {engine.decision_name(state)!r})",
            )
        legal = engine.legal_actions(state)
        legal_text = [engine.describe_action(a) for a in legal]
        try:
            action = engine.parse_action(text)
        except CardArenaError as err:
            return fail(i, *pending, f"  {label}: the action text no longer parses: {err}")
        if action not in legal:
            return fail(
                i,
                *pending,
                f"  {label}: not legal now in decision {engine.decision_name(state)!r}; "
                f"legal now: {legal_text}",
            )
        engine.apply(state, action, seat)
        digest = line.get("digest")
        if not pending and digest and digest != (now := state_digest(engine, state)):
            pending = [f"  first difference after {label}:"]
            if digest[:8] != now[:8]:
                pending.append(
                    f"    the state differs (digest {digest[:8]} recorded, {now[:8]} now)"
                )
            if digest[8:] != now[8:]:
                nxt = engine.current_player(state)
                legal_now = [engine.describe_action(a) for a in engine.legal_actions(state)]
                pending.append(
                    f"    the legal actions of the next decision differ (seat {nxt}, "
                    f"{engine.decision_name(state)!r}); now: {legal_now}"
                )
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
    if replay.result is None:  # a format 2 file of a game left unfinished (check_complete)
        if engine.is_over(state):
            return fail(
                steps,
                f"  the recording ends unfinished after action {steps}; the game ends there now",
            )
        if out:
            return fail(steps)
        return Verdict(where, True, steps, ["(unfinished game: no result to compare)"])
    if not engine.is_over(state):
        seat = engine.current_player(state)
        legal_text = [engine.describe_action(a) for a in engine.legal_actions(state)]
        return fail(
            steps,
            f"  the recording ends after action {steps} but the game goes on now: seat {seat} "
            f"to act in {engine.decision_name(state)!r}, legal {legal_text}",
        )
    got = make_result(engine, state, steps)
    lines = []
    for key in ("scores", "winners", "returns"):
        if not _close(replay.result.get(key), got[key]):
            lines += diff_values(key, replay.result.get(key), got[key])
    if lines:
        return fail(steps, "  the final result differs:", *["    " + x for x in lines])
    if out:  # only the deal differs
        return fail(steps, "  (from the recorded initial state every action and check agrees)")
    return Verdict(where, True, steps)
