"""Where results go: the ``.jsonl`` results store (games appended as they finish, read back to
resume) and the final ``.json`` file (setup, statistics and every game)."""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from cardarena.agents.evaluation.records import GameRecord, TournamentResult, clean
from cardarena.agents.evaluation.schedule import Key
from cardarena.agents.files import atomic_writer, numbered_backup
from cardarena.envs.core.engine import ConfigError

RESULTS_FORMAT = 1


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
        for line in self.path.read_text().splitlines():
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short when a run was killed
            if not isinstance(item, dict):
                continue
            if item.get("type") == "run":
                self._check(item)
            elif item.get("type") == "game":
                record = GameRecord.from_dict(item)
                games.setdefault((record.deal_seed, tuple(record.lineup)), record)
        return games

    def _check(self, run: dict[str, Any]) -> None:
        mine = self.header
        hint = (
            f"; pass --fresh to start {self.path} over (the old file is kept as a numbered "
            f"backup, {self.path.name}.bak1, .bak2, ...) or use another --out"
        )
        if run.get("format", RESULTS_FORMAT) != RESULTS_FORMAT:
            raise ConfigError(
                f"{self.path} is in results format {run.get('format')}, this version reads "
                f"format {RESULTS_FORMAT}{hint}"
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
        self._write([{"type": "game", **asdict(r)} for r in records])

    def _write(self, items: Sequence[dict[str, Any]]) -> None:
        text = "".join(json.dumps(clean(i), separators=(",", ":")) + "\n" for i in items)
        with self.path.open("a") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())


def save_result(result: TournamentResult, path: str | Path) -> None:
    """The JSON file: setup, leaderboard, rating, matrices and every game (written atomically;
    the games are streamed one by one, so a long run is never held as one big string)."""
    head = json.dumps(result.to_json(games=False), indent=1)
    with atomic_writer(path) as f:  # a unique temporary name: two runs never share one
        f.write(head[: head.rindex("}")].rstrip() + ',\n "games": [')
        for i, record in enumerate(result.records):
            f.write(("\n  " if i == 0 else ",\n  ") + json.dumps(clean(asdict(record))))
        f.write("\n ]\n}\n")
