"""Tournaments: many games with shared deck seeds under every seat rotation, and a leaderboard.

Variance reduction: for each deck seed every table of the rotation set (or, with
``permutations=True``, every distinct seating) is played with the same seed, so each agent meets
the same cards from every seat. Intervals are paired bootstrap intervals over deck seeds (a seed
with all its tables is one sample), since games that share a seed are not independent; see
:mod:`agents.evaluation.ratings` for the rating, the finishing orders and the head-to-head matrix.

Games are played by :func:`agents.evaluation.lockstep.play_lockstep` in chunks of deck seeds (network agents
decide for every game of a chunk in one forward pass), on one process, a local process pool or Ray
tasks; the chunks and every game's seeds depend only on the deck seeds and the tables, so results
are identical whatever the backend and the number of workers. With a results file, finished games
are appended to ``<out>.jsonl`` as they come, and a re-run skips the (seed, table) pairs already
there.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import math
import multiprocessing as mp
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from agents.evaluation.ratings import (
    bootstrap_indices,
    bootstrap_mean,
    finishing_ranks,
    head_to_head,
    rate,
)
from envs.core import seeding
from envs.core.engine import CardArenaError, ConfigError
from envs.core.loop import play
from envs.core.registry import get_spec

BOOTSTRAP = 1000  # resamples of deck seeds for the intervals
BATCH_GAMES = 256  # games played in lock-step per chunk
MAX_PERMUTATION_SEATS = 4
RESULTS_FORMAT = 1


@dataclass
class GameRecord:
    deal_seed: int
    lineup: list[str]  # agent name per seat
    returns: list[float]
    scores: list[float]
    winners: list[int]
    decisions: int
    ranks: list[int] = field(default_factory=list)  # finishing place per seat (0 = first)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        names = {f.name for f in fields(cls)}
        record = cls(**{k: v for k, v in data.items() if k in names})
        if not record.ranks:
            record.ranks = finishing_ranks(record.scores, record.winners)
        return record


@dataclass
class AgentSummary:
    name: str
    games: int
    win_rate: float
    win_ci: tuple[float, float]
    mean_return: float
    mean_score: float
    score_ci: tuple[float, float]
    rating: float | None = None  # OpenSkill mu, random = 0
    rating_ci: tuple[float, float] | None = None
    rating_sigma: float | None = None


@dataclass
class TeamSummary:
    team: str  # agent names around the table, e.g. "planner" or "zoo:thegame+greedy"
    games: int
    win_rate: float
    win_ci: tuple[float, float]
    good_share: float  # share of games with a team score below the game's "good" mark
    mean_score: float
    score_ci: tuple[float, float]


@dataclass
class TournamentResult:
    game: str
    options: dict[str, Any]
    agents: list[str]
    num_deals: int
    records: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0
    cooperative: bool = False
    tables_per_deal: int = 0
    first_seed: int = 0
    tables: list[list[str]] = field(default_factory=list)
    permutations: bool = False
    backend: str = "local"
    played: int = 0  # games played by this run
    reused: int = 0  # games read back from the results file
    bootstrap: int = BOOTSTRAP
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    # ---- statistics ----------------------------------------------------------------------
    def _seed_index(self) -> tuple[list[int], np.ndarray]:
        if "seeds" not in self._cache:
            seeds = sorted({r.deal_seed for r in self.records})
            self._cache["seeds"] = (seeds, bootstrap_indices(len(seeds), self.bootstrap))
        return self._cache["seeds"]

    def rating(self) -> dict[str, Any] | None:
        """OpenSkill ratings with intervals (None for a cooperative game)."""
        if self.cooperative:
            return None
        if "rating" not in self._cache:
            seats, ranks, seed_pos = self._arrays()
            _, idx = self._seed_index()
            self._cache["rating"] = rate(seats, ranks, seed_pos, self.agents, idx)
        return self._cache["rating"]

    def head_to_head(self) -> tuple[np.ndarray, np.ndarray]:
        if "h2h" not in self._cache:
            seats, ranks, _ = self._arrays()
            self._cache["h2h"] = head_to_head(seats, ranks, len(self.agents))
        return self._cache["h2h"]

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if "arrays" not in self._cache:
            index = {a: i for i, a in enumerate(self.agents)}
            seeds, _ = self._seed_index()
            pos = {s: i for i, s in enumerate(seeds)}
            n = len(self.records[0].lineup) if self.records else 0
            seats = np.array([[index[a] for a in r.lineup] for r in self.records], dtype=np.int64)
            ranks = np.array([r.ranks for r in self.records], dtype=np.int64)
            self._cache["arrays"] = (
                seats.reshape(len(self.records), n),
                ranks.reshape(len(self.records), n),
                np.array([pos[r.deal_seed] for r in self.records], dtype=np.int64),
            )
        return self._cache["arrays"]

    def summaries(self) -> list[AgentSummary]:
        """Per agent: win rate, mean score (bootstrap intervals) and rating; best first."""
        if "summaries" not in self._cache:
            _, idx = self._seed_index()
            out = summarise(self.records, self.agents, idx=idx)
            rating = self.rating()
            if rating and self.records:
                for s in out:
                    r = rating["agents"][s.name]
                    s.rating, s.rating_ci, s.rating_sigma = r["rating"], r["ci"], r["sigma"]
                out.sort(key=lambda s: -(s.rating if s.rating is not None else -math.inf))
            self._cache["summaries"] = out
        return self._cache["summaries"]

    def team_summaries(self) -> list[TeamSummary]:
        if "teams" not in self._cache:
            self._cache["teams"] = summarise_coop(
                self.records, bootstrap=self.bootstrap, agents=self.agents
            )
        return self._cache["teams"]

    def cross_play(self) -> dict[str, Any]:
        """Cooperative games: win rate and mean score of row and column as partners (every seating
        of the pair together; the diagonal is the agent playing every seat)."""
        by_team = {s.team: s for s in self.team_summaries()}
        k = len(self.agents)
        win = np.full((k, k), np.nan)
        score = np.full((k, k), np.nan)
        games = np.zeros((k, k), dtype=np.int64)
        for i, a in enumerate(self.agents):
            for j, b in enumerate(self.agents):
                s = by_team.get(team_name([a, b], self.agents))
                if s:
                    win[i, j], score[i, j], games[i, j] = s.win_rate, s.mean_score, s.games
        return {"agents": list(self.agents), "win_rate": win, "mean_score": score, "games": games}

    # ---- output ------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        board = self.team_summaries() if self.cooperative else self.summaries()
        out: dict[str, Any] = {
            "game": self.game,
            "options": self.options,
            "agents": self.agents,
            "cooperative": self.cooperative,
            "first_seed": self.first_seed,
            "num_deals": self.num_deals,
            "permutations": self.permutations,
            "tables": self.tables,
            "backend": self.backend,
            "seconds": self.seconds,
            "played": self.played,
            "reused": self.reused,
            "bootstrap": self.bootstrap,
            "leaderboard": [asdict(s) for s in board],
        }
        if self.cooperative:
            cp = self.cross_play()
            out["cross_play"] = {k: _listed(v) for k, v in cp.items()}
        else:
            share, games = self.head_to_head()
            out["rating"] = self.rating()
            out["head_to_head"] = {
                "agents": self.agents,
                "share": _listed(share),
                "games": _listed(games),
                "meaning": "share[row][col]: games where row finished ahead of col (ties half)",
            }
        out["games"] = [asdict(r) for r in self.records]
        return _clean(out)


def _listed(x: Any) -> Any:
    return x.tolist() if isinstance(x, np.ndarray) else x


def _clean(x: Any) -> Any:
    """JSON-safe copy: NaN/inf become None, tuples lists, numpy scalars Python numbers."""
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_clean(v) for v in x]
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


# ---- tables ------------------------------------------------------------------------------------
def lineups(agents: Sequence[str], num_players: int) -> list[list[str]]:
    """Tables to play per deck seed: each agent sits once in every seat.

    Table j seats ``agents[(j + i) % k]`` at seat i, for j in 0..k-1. With as many agents as
    seats these are the k cyclic rotations; with fewer agents they repeat around the table
    (A B A B, then B A B A); with more, each table takes the next ``num_players`` of them.
    """
    k = len(agents)
    return [[agents[(j + i) % k] for i in range(num_players)] for j in range(k)]


def _unique(tables: Sequence[Sequence[str]]) -> list[list[str]]:
    return [list(t) for t in dict.fromkeys(tuple(t) for t in tables)]


def _check_permutation_seats(num_players: int) -> None:
    if num_players > MAX_PERMUTATION_SEATS:
        raise ConfigError(
            f"permutations: every seating of {num_players} seats is {math.factorial(num_players)} "
            f"tables per deck seed; it is offered for up to {MAX_PERMUTATION_SEATS} seats. "
            f"Use the cyclic rotations (the default) instead."
        )


def seatings(
    agents: Sequence[str], num_players: int, permutations: bool = False
) -> list[list[str]]:
    """Distinct tables per deck seed: the cyclic rotations of :func:`lineups`, or with
    ``permutations`` every distinct reordering of each of them (up to 4 seats). Either way each
    agent sits in every seat equally often."""
    tables = _unique(lineups(agents, num_players))
    if not permutations:
        return tables
    _check_permutation_seats(num_players)
    return _unique(
        [[t[i] for i in p] for t in tables for p in itertools.permutations(range(num_players))]
    )


def coop_tables(
    agents: Sequence[str], num_players: int, cross_play: bool, permutations: bool = False
) -> list[list[str]]:
    """Tables for a cooperative game: each agent as a whole team, and (cross-play) every pair of
    agents as partners, each agent taking each seat."""
    tables = [[a] * num_players for a in agents]
    if cross_play and num_players > 1:
        for i, a in enumerate(agents):
            for b in agents[i + 1 :]:
                tables.extend(seatings([a, b], num_players, permutations))
    return _unique(tables)


def plan_tables(
    game: str, agents: Sequence[str], num_players: int, permutations: bool = False
) -> list[list[str]]:
    if get_spec(game).cooperative:
        if permutations:
            _check_permutation_seats(num_players)
        return coop_tables(list(dict.fromkeys(agents)), num_players, True, permutations)
    return seatings(list(agents), num_players, permutations)


# ---- one game ----------------------------------------------------------------------------------
def play_game(
    game: str,
    options: dict[str, Any],
    seat_agents: Sequence[Any],
    deal_seed: int,
    agent_seed: int | None = None,
) -> GameRecord:
    """One game through the engine (same rules as the AEC env, without its bookkeeping)."""
    spec = get_spec(game)
    engine = spec.make_engine(**options)
    state = engine.new_game(np.random.default_rng(deal_seed))
    for i, agent in enumerate(seat_agents):
        agent.reset(None if agent_seed is None else seeding.agent_seed(agent_seed, i))
    decisions = play(spec, engine, state, seat_agents)
    scores = [float(s) for s in engine.scores(state)]
    winners = [int(w) for w in engine.winners(state)]
    return GameRecord(
        deal_seed=deal_seed,
        lineup=[a.name for a in seat_agents],
        returns=[float(r) for r in engine.returns(state)],
        scores=scores,
        winners=winners,
        decisions=decisions,
        ranks=finishing_ranks(scores, winners),
    )


# ---- summaries ---------------------------------------------------------------------------------
def _per_seed(
    records: Sequence[GameRecord], seeds: Sequence[int], key: Callable[[GameRecord], Any]
) -> dict[Any, np.ndarray]:
    """{group: per-seed mean of the samples ``key`` yields} with NaN where a seed has none."""
    pos = {s: i for i, s in enumerate(seeds)}
    sums: dict[Any, np.ndarray] = {}
    counts: dict[Any, np.ndarray] = {}
    for r in records:
        for group, value in key(r):
            if group not in sums:
                sums[group] = np.zeros(len(seeds))
                counts[group] = np.zeros(len(seeds))
            sums[group][pos[r.deal_seed]] += value
            counts[group][pos[r.deal_seed]] += 1
    with np.errstate(invalid="ignore", divide="ignore"):
        return {g: np.where(counts[g] > 0, sums[g] / counts[g], np.nan) for g in sums}


def summarise(
    records: Sequence[GameRecord],
    agents: Sequence[str],
    bootstrap: int = BOOTSTRAP,
    idx: np.ndarray | None = None,
) -> list[AgentSummary]:
    """Win rate (ties share the win) and mean score per agent, with paired bootstrap 95%
    intervals over deck seeds; highest win rate first."""
    seeds = sorted({r.deal_seed for r in records})
    if idx is None:
        idx = bootstrap_indices(len(seeds), bootstrap)

    def wins(r: GameRecord) -> Iterator[tuple[str, float]]:
        for seat, who in enumerate(r.lineup):
            yield who, (1.0 / len(r.winners) if seat in r.winners else 0.0)

    def scores(r: GameRecord) -> Iterator[tuple[str, float]]:
        for seat, who in enumerate(r.lineup):
            yield who, r.scores[seat]

    win_by = _per_seed(records, seeds, wins)
    score_by = _per_seed(records, seeds, scores)
    out = []
    for name in agents:
        if name not in win_by:
            continue
        returns = [r.returns[s] for r in records for s, who in enumerate(r.lineup) if who == name]
        win_rate, win_ci = bootstrap_mean(win_by[name], idx)
        mean_score, score_ci = bootstrap_mean(score_by[name], idx)
        out.append(
            AgentSummary(
                name=name,
                games=len(returns),
                win_rate=win_rate,
                win_ci=(max(win_ci[0], 0.0), min(win_ci[1], 1.0)),
                mean_return=float(np.mean(returns)),
                mean_score=mean_score,
                score_ci=score_ci,
            )
        )
    out.sort(key=lambda s: -s.win_rate)
    return out


def team_name(table: Sequence[str], agents: Sequence[str] | None = None) -> str:
    """The agents of a cooperative table, whatever their seats: in the order of ``agents`` (or
    alphabetical), joined by "+"."""
    names = set(table)
    order = [a for a in agents if a in names] if agents else []
    return "+".join(order + sorted(names - set(order)))


def summarise_coop(
    records: Sequence[GameRecord],
    good_below: float = 10,
    bootstrap: int = BOOTSTRAP,
    agents: Sequence[str] | None = None,
) -> list[TeamSummary]:
    """Cooperative table per team (the set of agents at the table, every seating together): win
    rate, share of good results, mean team score (cards left), with paired bootstrap 95%
    intervals over deck seeds."""
    seeds = sorted({r.deal_seed for r in records})
    idx = bootstrap_indices(len(seeds), bootstrap)
    teams = [team_name(r.lineup, agents) for r in records]
    win_by = _per_seed(
        records, seeds, lambda r: [(team_name(r.lineup, agents), float(bool(r.winners)))]
    )
    score_by = _per_seed(records, seeds, lambda r: [(team_name(r.lineup, agents), r.scores[0])])
    out = []
    for team in dict.fromkeys(teams):
        recs = [r for r, t in zip(records, teams, strict=True) if t == team]
        win_rate, win_ci = bootstrap_mean(win_by[team], idx)
        mean_score, score_ci = bootstrap_mean(score_by[team], idx)
        out.append(
            TeamSummary(
                team=team,
                games=len(recs),
                win_rate=win_rate,
                win_ci=(max(win_ci[0], 0.0), min(win_ci[1], 1.0)),
                good_share=float(np.mean([r.scores[0] < good_below for r in recs])),
                mean_score=mean_score,
                score_ci=score_ci,
            )
        )
    out.sort(key=lambda s: (-s.win_rate, s.mean_score))
    return out


# ---- agents ------------------------------------------------------------------------------------
def build_agents(game: str, specs: Sequence[str], base_dir: str | None = None) -> dict[str, Any]:
    """One agent per spec; relative checkpoint paths are taken from ``base_dir`` (the driver's
    working directory when games run in other processes)."""
    from agents import make_agent

    built = {}
    for spec in dict.fromkeys(specs):
        target = spec
        if base_dir and spec.endswith(".zip") and not os.path.isabs(spec):
            target = os.path.join(base_dir, spec)
        built[spec] = make_agent(game, target)
    return built


def agent_fingerprint(spec: str) -> str | None:
    """A hash of a checkpoint's file (None for agents that are code)."""
    from agents import ZOO_DIR

    path = ZOO_DIR / f"{spec[4:]}.zip" if spec.startswith("zoo:") else Path(spec)
    if not spec.endswith(".zip") and not spec.startswith("zoo:"):
        return None
    if not path.is_file():
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


# ---- results file (JSON lines) -------------------------------------------------------------------
Key = tuple[int, tuple[str, ...]]


def jsonl_path(out: str | Path) -> Path:
    return Path(out).with_suffix(".jsonl")


class ResultsStore:
    """Finished games of one configuration as JSON lines: a ``run`` line per run, then one
    ``game`` line per game, appended (and flushed to disk) as chunks finish."""

    def __init__(self, path: str | Path, header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.header = header

    def load(self, fresh: bool = False) -> dict[Key, GameRecord]:
        """Games already in the file; raises ConfigError if the file is of another setup."""
        if fresh and self.path.exists():
            self.path.replace(self.path.with_suffix(".jsonl.bak"))
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
        hint = f"; pass --fresh to start {self.path} over (the old file is kept as .jsonl.bak) or use another --out"
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
        text = "".join(json.dumps(_clean(i), separators=(",", ":")) + "\n" for i in items)
        with self.path.open("a") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())


# ---- running many games ---------------------------------------------------------------------
Chunk = list[tuple[int, tuple[str, ...]]]
_WORKER: dict[str, Any] = {}
_RAY_CACHE: dict[Any, dict[str, Any]] = {}
_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def make_chunks(todo: Sequence[Key], tables_per_deal: int, batch_games: int) -> list[Chunk]:
    """Group the games to play by blocks of deck seeds (aligned on the seed numbers, so a
    chunk's games do not depend on the run's first seed or on what was played before)."""
    per_chunk = max(1, batch_games // max(1, tables_per_deal))
    chunks: dict[int, Chunk] = {}
    for seed, table in todo:
        chunks.setdefault(seed // per_chunk, []).append((seed, table))
    return list(chunks.values())


def _play_chunk(
    game: str,
    options: dict[str, Any],
    agents: dict[str, Any],
    chunk: Chunk,
    record_dir: str | None = None,
) -> list[GameRecord]:
    """Play a chunk; with ``record_dir``, also write each game's replay there."""
    from agents.evaluation.lockstep import play_lockstep

    if record_dir is None:
        return play_lockstep(game, options, agents, chunk)
    from envs.core.replay import record_game, replay_name

    traces: list[list[int]] = []
    records = play_lockstep(game, options, agents, chunk, trace=traces)
    for record, actions in zip(records, traces, strict=True):
        path = Path(record_dir) / replay_name(game, record.deal_seed, record.lineup)
        result = record_game(
            path, game, options, record.deal_seed, record.lineup, actions, source="evaluate.py"
        )
        if result["winners"] != record.winners or result["steps"] != record.decisions:
            raise CardArenaError(f"{path}: the replayed game does not end as the game played")
    return records


def _pool_init(
    game: str,
    options: dict[str, Any],
    specs: list[str],
    base_dir: str,
    record_dir: str | None = None,
) -> None:
    _WORKER["game"] = game
    _WORKER["options"] = options
    _WORKER["agents"] = build_agents(game, specs, base_dir)
    _WORKER["record_dir"] = record_dir


def _pool_chunk(chunk: Chunk) -> list[GameRecord]:
    return _play_chunk(
        _WORKER["game"], _WORKER["options"], _WORKER["agents"], chunk, _WORKER.get("record_dir")
    )


def _ray_chunk(
    game: str,
    options: dict[str, Any],
    specs: list[str],
    base_dir: str,
    chunk: Chunk,
    record_dir: str | None = None,
) -> list[GameRecord]:
    key = (game, json.dumps(options, sort_keys=True), tuple(specs), base_dir)
    if key not in _RAY_CACHE:
        _RAY_CACHE[key] = build_agents(game, specs, base_dir)
    return _play_chunk(game, options, _RAY_CACHE[key], chunk, record_dir)


@contextlib.contextmanager
def _single_threaded_children() -> Iterator[None]:
    """Child processes get one BLAS thread each (they are as many as the cores already)."""
    saved = {v: os.environ.get(v) for v in _THREAD_VARS}
    for v in _THREAD_VARS:
        os.environ.setdefault(v, "1")
    try:
        yield
    finally:
        for v, value in saved.items():
            if value is None:
                os.environ.pop(v, None)
            else:
                os.environ[v] = value


def _run_local(
    game: str,
    options: dict[str, Any],
    specs: list[str],
    chunks: list[Chunk],
    workers: int,
    done: Callable[[list[GameRecord]], None],
    record_dir: str | None = None,
) -> None:
    base_dir = os.getcwd()
    if workers <= 1 or len(chunks) <= 1:
        from threadpoolctl import threadpool_limits

        built = build_agents(game, specs, base_dir)
        with threadpool_limits(1, user_api="blas"):  # small products: threads only cost
            for chunk in chunks:
                done(_play_chunk(game, options, built, chunk, record_dir))
        return
    ctx = mp.get_context("spawn")
    init_args = (game, options, specs, base_dir, record_dir)
    with (
        _single_threaded_children(),
        ctx.Pool(min(workers, len(chunks)), _pool_init, init_args) as pool,
    ):
        for records in pool.imap_unordered(_pool_chunk, chunks):
            done(records)


def _user_paths() -> list[str]:
    """The driver's import paths outside the interpreter (project, cwd, test dirs)."""
    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    paths = [os.getcwd()]
    for p in sys.path:
        real = os.path.realpath(p or os.getcwd())
        if os.path.isdir(real) and not any(real.startswith(pre + os.sep) for pre in prefixes):
            paths.append(real)
    return list(dict.fromkeys(paths))


def _run_ray(
    game: str,
    options: dict[str, Any],
    specs: list[str],
    chunks: list[Chunk],
    workers: int,
    address: str | None,
    done: Callable[[list[GameRecord]], None],
    record_dir: str | None = None,
) -> None:
    try:
        import ray
    except ImportError:
        raise ConfigError(
            "the ray backend needs Ray: pip install 'cardarena[ray]' (or 'ray>=2.9,<3')"
        ) from None
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            ray.init(address=address, **kwargs)
        else:
            env = {v: os.environ.get(v, "1") for v in _THREAD_VARS}
            env["PYTHONPATH"] = os.pathsep.join(
                _user_paths() + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
            )
            ray.init(num_cpus=max(1, workers), runtime_env={"env_vars": env}, **kwargs)
        started = True
    try:
        task = ray.remote(num_cpus=1)(_ray_chunk)
        opts = ray.put(options)
        base_dir = os.getcwd()
        pending = [task.remote(game, opts, specs, base_dir, chunk, record_dir) for chunk in chunks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                done(ray.get(ref))
    finally:
        if started:
            ray.shutdown()


def run_tournament(
    game: str,
    agents: Sequence[str],
    num_deals: int,
    options: dict[str, Any] | None = None,
    first_seed: int = 0,
    workers: int = 1,
    progress: bool = True,
    *,
    permutations: bool = False,
    backend: str = "local",
    address: str | None = None,
    results_path: str | Path | None = None,
    fresh: bool = False,
    batch_games: int = BATCH_GAMES,
    bootstrap: int = BOOTSTRAP,
    record_dir: str | Path | None = None,
) -> TournamentResult:
    """Play ``num_deals`` deck seeds x every table of ``agents`` (rotations, or every seating
    with ``permutations``), on ``backend`` "local" (``workers`` processes) or "ray".

    With ``results_path`` (a ``.jsonl`` file) games already there are reused and new ones are
    appended as they finish. With ``record_dir``, every game played (not those reused) is saved
    there as a replay (:mod:`agents.tools.replay`), written by the process that plays it (on a Ray
    cluster, give a directory every node shares).
    """
    if backend not in ("local", "ray"):
        raise ConfigError(f"backend must be 'local' or 'ray', got {backend!r}")
    options = dict(options or {})
    spec = get_spec(game)
    num_players = spec.make_engine(**options).num_players
    names = list(dict.fromkeys(agents))
    tables = plan_tables(game, list(agents), num_players, permutations)
    order = {tuple(t): i for i, t in enumerate(tables)}
    wanted: list[Key] = [(first_seed + d, tuple(t)) for d in range(num_deals) for t in tables]
    have: dict[Key, GameRecord] = {}
    store = None
    if results_path is not None:
        header = {
            "format": RESULTS_FORMAT,
            "game": game,
            "config": {**options, "num_players": num_players},
            "fingerprints": {s: agent_fingerprint(s) for s in names},
        }
        store = ResultsStore(results_path, header)
        have = store.load(fresh)
        store.begin()
    todo = [k for k in wanted if k not in have]
    reused = len(wanted) - len(todo)
    chunks = make_chunks(todo, len(tables), batch_games)
    result = TournamentResult(
        game=game,
        options=options,
        agents=names,
        num_deals=num_deals,
        cooperative=spec.cooperative,
        tables_per_deal=len(tables),
        first_seed=first_seed,
        tables=tables,
        permutations=permutations,
        backend=backend,
        played=len(todo),
        reused=reused,
        bootstrap=bootstrap,
    )
    bar = None
    if progress and todo:
        from tqdm import tqdm

        bar = tqdm(total=len(todo), unit="game", desc=f"{game} tournament")

    def done(records: list[GameRecord]) -> None:
        if store is not None:
            store.append(records)
        for r in records:
            have[(r.deal_seed, tuple(r.lineup))] = r
        if bar:
            bar.update(len(records))

    start = time.perf_counter()
    try:
        record = None if record_dir is None else os.path.abspath(record_dir)
        if chunks and backend == "ray":
            _run_ray(game, options, names, chunks, workers, address, done, record)
        elif chunks:
            _run_local(game, options, names, chunks, workers, done, record)
    finally:
        if bar:
            bar.close()
    result.seconds = time.perf_counter() - start
    result.records = sorted(
        (have[k] for k in wanted), key=lambda r: (r.deal_seed, order[tuple(r.lineup)])
    )
    return result


# ---- text output -------------------------------------------------------------------------------
def _render(table: Any) -> str:
    from rich.console import Console

    console = Console(width=140, record=True, force_terminal=False)
    with console.capture() as cap:
        console.print(table)
    return cap.get()


def _title(result: TournamentResult) -> str:
    opts = " ".join(f"{k}={v}" for k, v in result.options.items())
    how = "every seating" if result.permutations else "rotations"
    return (
        f"{result.game} {opts}: {len(result.records)} games "
        f"({result.num_deals} deck seeds x {result.tables_per_deal} tables, {how})"
    )


def _ci(ci: Sequence[float] | None, fmt: str) -> str:
    if ci is None or any(v is None or not math.isfinite(v) for v in ci):
        return "-"
    return f"[{ci[0]:{fmt}}, {ci[1]:{fmt}}]"


def leaderboard_text(result: TournamentResult) -> str:
    """The leaderboard and head-to-head matrix (or, for a cooperative game, the team table and
    cross-play matrix)."""
    from rich.table import Table

    title = _title(result)
    if result.cooperative:
        return coop_text(result, title)
    table = Table(title=title)
    cols = ("rank", "agent", "games", "rating", "95% CI", "win rate", "95% CI ", "mean score")
    for col in (*cols, "95% CI  "):
        table.add_column(col, justify="left" if col == "agent" else "right")
    board = result.summaries()
    for i, s in enumerate(board, 1):
        table.add_row(
            str(i),
            s.name,
            str(s.games),
            "-" if s.rating is None else f"{s.rating:+.2f}",
            _ci(s.rating_ci, "+.2f"),
            f"{s.win_rate:.3f}",
            _ci(s.win_ci, ".3f"),
            f"{s.mean_score:.2f}",
            _ci(s.score_ci, ".2f"),
        )
    rating = result.rating() or {}
    anchor = "random = 0" if rating.get("anchor") == "random" else "mean of the agents = 0"
    table.caption = (
        f"rating: OpenSkill Plackett-Luce mu over finishing orders, {anchor}; 95% intervals: "
        f"paired bootstrap over deck seeds ({result.bootstrap} resamples)"
    )
    out = _render(table)
    if len(board) > 1:
        share, games = result.head_to_head()
        index = {a: i for i, a in enumerate(result.agents)}
        matrix = Table(title="head-to-head: share of games where row finished ahead of column")
        matrix.add_column("")
        for j, _ in enumerate(board, 1):
            matrix.add_column(f"#{j}", justify="right")
        for i, a in enumerate(board, 1):
            cells = []
            for b in board:
                v = share[index[a.name], index[b.name]]
                cells.append("-" if a.name == b.name or not math.isfinite(v) else f"{v:.3f}")
            matrix.add_row(f"#{i} {a.name}", *cells)
        out += _render(matrix)
    return out


def coop_text(result: TournamentResult, title: str) -> str:
    from rich.table import Table

    teams = result.team_summaries()
    table = Table(title=title)
    for col in ("team", "games", "win rate", "95% CI", "< 10 left", "mean left", "95% CI "):
        table.add_column(col, justify="left" if col == "team" else "right")
    for s in teams:
        table.add_row(
            s.team,
            str(s.games),
            f"{s.win_rate:.3f}",
            _ci(s.win_ci, ".3f"),
            f"{s.good_share:.3f}",
            f"{s.mean_score:.2f}",
            _ci(s.score_ci, ".2f"),
        )
    out = _render(table)
    if len(result.agents) > 1 and any("+" in s.team for s in teams):
        cp = result.cross_play()
        matrix = Table(title="cross-play: win rate (mean cards left) of row and column as partners")
        matrix.add_column("")
        for b in result.agents:
            matrix.add_column(b, justify="right")
        for i, a in enumerate(result.agents):
            cells = []
            for j in range(len(result.agents)):
                w, s = cp["win_rate"][i, j], cp["mean_score"][i, j]
                cells.append(f"{w:.3f} ({s:.1f})" if math.isfinite(w) else "-")
            matrix.add_row(a, *cells)
        out += _render(matrix)
    return out


def save_result(result: TournamentResult, path: str | Path) -> None:
    """The JSON file: setup, leaderboard, rating, matrices and every game (written atomically)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(result.to_json(), indent=1))
    tmp.replace(path)
