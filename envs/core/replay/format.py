"""Writing replays: hashing, check lines, the writer and ``record_game`` (the format is described
in ``envs/core/replay/__init__.py``)."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np

from cardarena.envs.core.engine import GameEngine
from cardarena.envs.core.registry import get_spec

FORMAT = 3  # 2: the end line; 3: an action line may hold the agent's note
READS = (1, 2, 3)  # the formats this version reads
CHECK_EVERY = 30  # actions between two check lines
ZONE_SHOWN = 12  # a check line lists the cards of zones up to this size, else size and hash
#: the longest note an action line keeps (as JSON): a longer one is replaced by its size, so that
#: every line stays under the reader's limit (``reader.MAX_LINE_CHARS``, 1 MiB)
MAX_NOTE_CHARS = 2**19


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

    def action(
        self, engine: GameEngine, state: Any, seat: int, action: int, note: Any = None
    ) -> None:
        """Record ``action`` of ``seat``, already applied to ``state``; ``note`` (a JSON object
        or None) is what the agent said about its decision (:func:`agent_note`)."""
        self.steps += 1
        item: dict[str, Any] = {
            "seat": int(seat),
            "action": engine.describe_action(int(action)),
            "digest": state_digest(engine, state),
        }
        if note is not None:
            note = _canon(note)
            size = len(json.dumps(note, separators=(",", ":")))
            item["note"] = note if size <= MAX_NOTE_CHARS else {"cut": size}
        self._write(item)
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


def agent_note(agent: Any) -> Any:
    """The note an agent left on its last decision (its ``note`` attribute: a JSON object, such
    as a language model's transcript), or None for an agent that keeps none."""
    note = getattr(agent, "note", None)
    return note if isinstance(note, dict) else None


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
    notes: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """Write the replay of a game already played (its deal seed and action ids) by playing the
    actions again through the engine; returns the result line. ``notes``: the agents' note of
    each action (None where there is none), written into its action line."""
    engine = get_spec(game).make_engine(**options)
    state = engine.new_game(np.random.default_rng(seed), dict(reset_options or {}))
    writer = ReplayWriter(
        path, game, options, seed, players, reset_options, source, check_every, timestamp
    )
    writer.begin(engine, state)
    try:
        for i, action in enumerate(actions):
            seat: int = engine.current_player(state)  # None: apply raises
            engine.apply(state, int(action), seat)
            writer.action(engine, state, seat, action, notes[i] if notes else None)
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
