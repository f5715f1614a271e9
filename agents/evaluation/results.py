"""Where results go: the ``.jsonl`` results store (games appended as they finish, read back to
resume) and the final ``.json`` file (setup, statistics and every game)."""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from cardarena.agents.evaluation.records import (
    FAULT_CHARS,
    GameRecord,
    TournamentResult,
    clean,
    record_dict,
)
from cardarena.agents.evaluation.schedule import Key
from cardarena.agents.files import atomic_writer, numbered_backup
from cardarena.envs.core.engine import ConfigError

#: format 2 adds a checksum to every game line (``sum``); format 1 files are still read
RESULTS_FORMAT = 2
READS = (1, 2)
#: the longest line read back (a game line is a few hundred characters)
MAX_LINE_CHARS = 2**16


#: the keys of a game line
GAME_KEYS = {"type", "sum", *(f.name for f in fields(GameRecord))}


def line_sum(item: dict[str, Any]) -> str:
    """The checksum of a results line: its canonical JSON without the ``sum`` key."""
    body = {k: v for k, v in item.items() if k != "sum"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def jsonl_path(out: str | Path) -> Path:
    return Path(out).with_suffix(".jsonl")


def agent_fingerprint(spec: str) -> str | None:
    """A hash of a checkpoint's file (None for agents that are code)."""
    from cardarena.agents import ZOO_DIR

    path = ZOO_DIR / f"{spec[4:]}.zip" if spec.startswith("zoo:") else Path(spec)
    if not spec.endswith(".zip") and not spec.startswith("zoo:"):
        return None
    if not path.is_file():
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


class ResultsStore:
    """Finished games of one configuration as JSON lines: a ``run`` line per run, then one
    ``game`` line per game, appended (and flushed to disk) as chunks finish."""

    def __init__(self, path: str | Path, header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.header = header
        #: where ``load(fresh=True)`` moved the old file (``<name>.bak<k>``), or None
        self.backup: Path | None = None
        #: the run's hold on the file (``agents.files.OutputLock``), set by whoever opens it
        self.lock: Any = None

    def close(self) -> None:
        """Let another run write the file (releases :attr:`lock`)."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def load(self, fresh: bool = False) -> dict[Key, GameRecord]:
        """Games already in the file; raises ConfigError if the file is of another setup."""
        if fresh:
            self.backup = numbered_backup(self.path)
        games: dict[Key, GameRecord] = {}
        if not self.path.exists():
            return games
        run: dict[str, Any] | None = None
        with self.path.open(encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                if len(line) > MAX_LINE_CHARS:
                    raise self._bad(n, f"a line of {len(line)} characters")
                try:
                    item = json.loads(line)
                except (ValueError, RecursionError):
                    continue  # a line cut short when a run was killed
                if not isinstance(item, dict) or item.get("type") not in ("run", "game"):
                    raise self._bad(n, "not a run or game line")
                if item["type"] == "run":
                    self._check(item)
                    run = item
                    continue
                if run is None:
                    raise self._bad(n, "a game line before any run line")
                record = self._record(item, run, n)
                games.setdefault((record.deal_seed, tuple(record.lineup)), record)
        return games

    def _bad(self, n: int, why: str) -> ConfigError:
        return ConfigError(
            f"{self.path} line {n}: {why}; this is not a results file as evaluate.py writes it "
            f"(edited or damaged?). Pass --fresh to start it over (the old file is kept as a "
            f"numbered backup) or use another --out"
        )

    def _record(self, item: dict[str, Any], run: dict[str, Any], n: int) -> GameRecord:
        """A game line checked against its run line: its checksum (format 2), the fields' types,
        the seats, the agents."""
        if run.get("format", 1) >= 2 and item.get("sum") != line_sum(item):
            raise self._bad(n, "its checksum does not match its content")
        seats = run.get("config", {}).get("num_players")
        agents = set(run.get("fingerprints") or {})
        unknown = sorted(set(item) - GAME_KEYS)
        if unknown:
            raise self._bad(n, f"unknown fields {unknown}")
        try:
            record = GameRecord.from_dict(item)
        except TypeError as err:
            raise self._bad(n, f"a game line with missing or unknown fields ({err})") from None
        problem = check_record(record, seats, agents)
        if problem:
            raise self._bad(n, problem)
        return record

    def _check(self, run: dict[str, Any]) -> None:
        mine = self.header
        hint = (
            f"; pass --fresh to start {self.path} over (the old file is kept as a numbered "
            f"backup, {self.path.name}.bak1, .bak2, ...) or use another --out"
        )
        if run.get("format", 1) not in READS or isinstance(run.get("format"), bool):
            raise ConfigError(
                f"{self.path} is in results format {run.get('format')!r}, this version reads "
                f"formats {list(READS)}{hint}"
            )
        if run.get("game") != mine["game"] or run.get("config") != mine["config"]:
            raise ConfigError(
                f"{self.path} holds games of {run.get('game')} {run.get('config')}, not "
                f"{mine['game']} {mine['config']}{hint}"
            )
        for spec, fp in (run.get("fingerprints") or {}).items():
            now = mine["fingerprints"].get(spec)
            if spec in mine["fingerprints"] and fp != now:
                raise ConfigError(
                    f"{self.path}: checkpoint {spec!r} has changed since its games were played "
                    f"(file hash {fp} then, {now} now){hint}"
                )

    def begin(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a+b") as f:
            f.seek(0, os.SEEK_END)
            if f.tell():
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    f.write(b"\n")
        self._write([{"type": "run", "time": time.strftime("%Y-%m-%dT%H:%M:%S"), **self.header}])

    def append(self, records: Sequence[GameRecord]) -> None:
        items = [clean({"type": "game", **record_dict(r)}) for r in records]
        self._write([{**i, "sum": line_sum(i)} for i in items])

    def _write(self, items: Sequence[dict[str, Any]]) -> None:
        text = "".join(json.dumps(clean(i), separators=(",", ":")) + "\n" for i in items)
        with self.path.open("a") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Any) -> bool:
    return (isinstance(x, (int, float)) and not isinstance(x, bool)) and math.isfinite(x)


def check_record(record: GameRecord, seats: Any, agents: set[str]) -> str | None:
    """What is wrong with a game record read back (None: nothing): types, one entry per seat,
    winners and ranks that are seats, agents of the run."""
    if not _is_int(seats) or seats < 1:
        return f"its run line has no player count (num_players {seats!r})"
    if not _is_int(record.deal_seed) or record.deal_seed < 0:
        return f"deal_seed {record.deal_seed!r} (a non-negative integer)"
    if not _is_int(record.decisions) or record.decisions < 0:
        return f"decisions {record.decisions!r} (a non-negative integer)"
    for name in ("lineup", "returns", "scores", "ranks"):
        value = getattr(record, name)
        if not isinstance(value, list) or len(value) != seats:
            return f"{name} {value!r} (one entry per seat, {seats} seats)"
    if not all(isinstance(a, str) and (not agents or a in agents) for a in record.lineup):
        return f"lineup {record.lineup!r} (agents of this run: {sorted(agents)})"
    if not all(_is_number(x) for x in record.returns + record.scores):
        return "returns and scores must be finite numbers"
    winners = record.winners
    if not isinstance(winners, list) or len(set(map(repr, winners))) != len(winners):
        return f"winners {winners!r} (distinct seats)"
    if not all(_is_int(w) and 0 <= w < seats for w in winners + record.ranks):
        return f"winners {winners!r} / ranks {record.ranks!r} (seats 0..{seats - 1})"
    if record.forfeit is not None and not (_is_int(record.forfeit) and 0 <= record.forfeit < seats):
        return f"forfeit {record.forfeit!r} (a seat 0..{seats - 1} or absent)"
    if record.fault is not None and not (
        isinstance(record.fault, str) and len(record.fault) <= FAULT_CHARS
    ):
        return f"fault {record.fault!r:.80} (the verdict, at most {FAULT_CHARS} characters)"
    if (record.forfeit is None) != (record.fault is None):
        return "forfeit and fault come together (the seat that forfeited and why)"
    return None


def save_result(result: TournamentResult, path: str | Path) -> None:
    """The JSON file: setup, leaderboard, rating, matrices and every game (written atomically;
    the games are streamed one by one, so a long run is never held as one big string)."""
    head = json.dumps(result.to_json(games=False), indent=1)
    with atomic_writer(path) as f:  # a unique temporary name: two runs never share one
        f.write(head[: head.rindex("}")].rstrip() + ',\n "games": [')
        for i, record in enumerate(result.records):
            f.write(("\n  " if i == 0 else ",\n  ") + json.dumps(clean(record_dict(record))))
        f.write("\n ]\n}\n")
