"""The replay file format: a game saved as JSON lines, written while it is played, read back and
checked against the engine (:func:`verify`), so a rules change shows up as a readable difference.
The viewer and its command line are ``agents/tools/replay.py``; the files are plain JSON, read
with :func:`json.loads`, so nothing in them can run.

The file, one JSON object per line:

===========  =====================================================================================
line         fields
===========  =====================================================================================
header       ``{"type": "header", "format": 1, "game", "version", "options"`` (engine options,
             ``num_players`` included) ``, "reset_options"`` (``new_game`` options; usually {})
             ``, "seed"`` (the deal: ``new_game(np.random.default_rng(seed), reset_options)``)
             ``, "players"`` (a name per seat) ``, "source", "check_every", "initial"`` (the
             whole ``to_dict()`` at the start: the deck order (``draw_pile``, top first), every
             hand and the RNG, so a replay does not depend on how the engine shuffles)
action       ``{"seat": s, "action": "hit", "digest": d}``, one per decision in order; ``d`` is a
             short hash of ``to_dict()`` (8 hex digits) and of the legal actions (4) after it
check        ``{"type": "check", "step": k, "to_move", "decision", "legal"`` (texts) ``, "scores",
             "zones"`` (every card zone; a long one as size and hash) ``, "fields"`` (a short
             hash per ``to_dict()`` field)``}`` every ``check_every`` actions and after the last:
             what a difference is explained with
result       ``{"type": "result", "steps", "scores", "winners", "returns"}`` (absent when a game was
             left unfinished)
===========  =====================================================================================

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

from envs.core.engine import CardArenaError, GameEngine
from envs.core.registry import get_spec

FORMAT = 1
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
        """Close the file, with the result line if the game is over."""
        if self._file is None:
            return
        if engine.is_over(state):
            self._write(make_result(engine, state, self.steps))
        self._file.close()
        self._file = None

    def _write(self, item: dict[str, Any]) -> None:
        assert self._file is not None, "call begin() first"
        self._file.write(json.dumps(item, separators=(",", ":")) + "\n")
        self._file.flush()


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
    """A file that is not a replay (or is cut before its header)."""


@dataclass
class Replay:
    header: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)
    checks: dict[int, dict[str, Any]] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    path: Path | None = None

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        path = Path(path)
        try:
            lines = path.read_text().splitlines()
        except OSError as err:
            raise ReplayFormatError(f"cannot read replay {str(path)!r}: {err}") from None
        return cls.parse(lines, path)

    @classmethod
    def parse(cls, lines: Sequence[str], path: Path | None = None) -> Replay:
        where = str(path) if path else "replay"
        items = []
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError:
                if n == len(lines):
                    break  # a last line cut short (a game killed while writing)
                raise ReplayFormatError(f"{where}:{n}: not JSON: {line[:80]!r}") from None
        if not items or not isinstance(items[0], dict) or items[0].get("type") != "header":
            raise ReplayFormatError(
                f"{where}: the first line must be the replay header "
                f'{{"type": "header", "game": ..., "seed": ...}}'
            )
        header = items[0]
        if header.get("format") != FORMAT:
            raise ReplayFormatError(
                f"{where}: replay format {header.get('format')!r}; this version reads {FORMAT}"
            )
        replay = cls(header=header, path=path)
        for item in items[1:]:
            kind = item.get("type")
            if kind == "check":
                replay.checks[int(item["step"])] = item
            elif kind == "result":
                replay.result = item
            elif "action" in item:
                replay.actions.append(item)
        return replay

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


@dataclass
class Verdict:
    """The outcome of :func:`verify`: ``ok``, and the first difference explained."""

    path: str
    ok: bool
    steps: int
    lines: list[str] = field(default_factory=list)

    def text(self) -> str:
        if self.ok:
            return f"{self.path}: OK ({self.steps} actions)"
        return "\n".join([f"{self.path}: the engine disagrees with the recording", *self.lines])


def _seat_label(replay: Replay, seat: int) -> str:
    players = replay.players
    return f"seat {seat} ({players[seat]})" if 0 <= seat < len(players) else f"seat {seat}"


def verify(replay: Replay | str | Path) -> Verdict:
    """Play the replay through today's engine; the first difference, with expected and got."""
    if not isinstance(replay, Replay):
        replay = Replay.load(replay)
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
    except CardArenaError as err:
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
    if replay.result is None:
        if engine.is_over(state):  # the result line was lost (a process killed while writing)
            note = "(no result line, but the game ends here now too)"
            return fail(steps) if out else Verdict(where, True, steps, [note])
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
