"""What a tournament produces: one :class:`GameRecord` per game and the :class:`TournamentResult`
that holds them with the statistics computed from them (leaderboard, rating, head-to-head,
cross-play) and its JSON form."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import numpy as np

from cardarena.agents.evaluation.ratings import (
    Resamples,
    finishing_ranks,
    pair_results,
    rate,
    share_of,
)
from cardarena.agents.evaluation.summaries import (
    BOOTSTRAP,
    AgentSummary,
    TeamSummary,
    seed_positions,
    summarise,
    summarise_coop,
    team_name,
)

RANK_BY = ("rating", "win-rate")


@dataclass
class GameRecord:
    deal_seed: int
    lineup: list[str]  # agent name per seat
    returns: list[float]
    scores: list[float]
    winners: list[int]
    decisions: int
    ranks: list[int] = field(default_factory=list)  # finishing place per seat (0 = first)
    #: the seat that forfeited the game (an outside agent's fault; None: played to the end);
    #: the game is scored as it stood, every other seat a winner, and ``fault`` says why
    forfeit: int | None = None
    fault: str | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        names = {f.name for f in fields(cls)}
        record = cls(**{k: v for k, v in data.items() if k in names})
        if not record.ranks:
            record.ranks = finishing_ranks(record.scores, record.winners)
        return record


#: the longest fault verdict kept in a game record (characters)
FAULT_CHARS = 1000


def short_fault(text: str | None) -> str | None:
    """A verdict cut to :data:`FAULT_CHARS` characters for the results (None stays None)."""
    if text is None or len(text) <= FAULT_CHARS:
        return text
    return text[: FAULT_CHARS - 3] + "..."


def record_dict(record: GameRecord) -> dict[str, Any]:
    """A record as a dict, without ``forfeit``/``fault`` when the game was played to its end
    (so the lines of every finished game read as before)."""
    out = asdict(record)
    if record.forfeit is None and record.fault is None:
        del out["forfeit"], out["fault"]
    return out


#: the version of the result file's layout (``evaluate.py --out``)
RESULT_FORMAT = 1


def provenance(
    fingerprints: dict[str, Any] | None = None, command: list[str] | None = None
) -> dict[str, Any]:
    """What makes a result: the command line (``command``, else this process's), the time,
    cardarena's, Python's and the main libraries' versions, and the agents' checkpoint
    fingerprints (file hashes)."""
    import platform
    import sys
    import time
    from importlib import metadata

    versions: dict[str, str | None] = {"python": platform.python_version()}
    for package in ("cardarena", "numpy", "torch", "gymnasium", "pettingzoo"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    return {
        "command": list(command)
        if command is not None
        else ([sys.argv[0].rsplit("/", 1)[-1], *sys.argv[1:]] if sys.argv else []),
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "versions": versions,
        "fingerprints": dict(fingerprints or {}),
    }


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
    rank_by: str = "rating"  # leaderboard order: "rating" (the fit) or "win-rate"
    #: what made the result: the command, the versions, the agents' checkpoint fingerprints
    made_by: dict[str, Any] = field(default_factory=dict)
    #: agents that are no legal players (seers, seated with ``allow_seers``): labelled as such
    not_legal: list[str] = field(default_factory=list)
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    # ---- statistics ----------------------------------------------------------------------
    def _resamples(self) -> Resamples:
        if "resamples" not in self._cache:
            seeds, seed_of = seed_positions(self.records)
            self._cache["seeds"] = (seeds, seed_of)
            self._cache["resamples"] = Resamples(len(seeds), self.bootstrap)
        return self._cache["resamples"]

    def _pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """Per deck seed, the pairwise finishing results (see ratings.pair_results)."""
        if "pairs" not in self._cache:
            self._resamples()
            seeds, seed_of = self._cache["seeds"]
            index = {a: i for i, a in enumerate(self.agents)}
            n = len(self.records[0].lineup) if self.records else 0
            seats = np.array(
                [[index.get(a, -1) for a in r.lineup] for r in self.records], dtype=np.int64
            ).reshape(len(self.records), n)
            ranks = np.array([r.ranks for r in self.records], dtype=np.int64).reshape(seats.shape)
            self._cache["pairs"] = pair_results(seats, ranks, seed_of, len(seeds), len(self.agents))
        return self._cache["pairs"]

    def rating(self) -> dict[str, Any] | None:
        """Bradley-Terry ratings with intervals (None for a cooperative game)."""
        if self.cooperative:
            return None
        if "rating" not in self._cache:
            ahead, met = self._pairs()
            self._cache["rating"] = rate(ahead, met, self.agents, self._resamples())
        return self._cache["rating"]

    def head_to_head(self) -> tuple[np.ndarray, np.ndarray]:
        ahead, met = self._pairs()
        return share_of(ahead.sum(axis=0), met.sum(axis=0))

    def summaries(self) -> list[AgentSummary]:
        """Per agent: win rate, mean score (bootstrap intervals) and rating, in leaderboard order
        (``rank_by``; ties by the other figure, then by name)."""
        if self.rank_by not in RANK_BY:
            raise ValueError(f"rank_by must be one of {RANK_BY}, got {self.rank_by!r}")
        if "summaries" not in self._cache:
            out = summarise(self.records, self.agents, resamples=self._resamples())
            rating = self.rating()
            if rating and self.records:
                for s in out:
                    r = rating["agents"][s.name]
                    s.rating, s.rating_ci = r["rating"], r["ci"]
            self._cache["summaries"] = out
        board = list(self._cache["summaries"])

        def fit(s: AgentSummary) -> float:
            return -(s.rating if s.rating is not None else -math.inf)

        if self.rank_by == "rating":
            board.sort(key=lambda s: (fit(s), -s.win_rate, s.name))
        else:
            board.sort(key=lambda s: (-s.win_rate, fit(s), s.name))
        return board

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

    def shown(self, name: str, quote: str = "") -> str:
        """``name`` as leaderboards write it (between ``quote`` marks): labelled when it is no
        legal player."""
        label = " (not a legal player)" if name in self.not_legal else ""
        return f"{quote}{name}{quote}{label}"

    # ---- output ------------------------------------------------------------------------
    def to_json(self, games: bool = True) -> dict[str, Any]:
        """Setup and statistics, and (``games``) every game."""
        board = self.team_summaries() if self.cooperative else self.summaries()
        out: dict[str, Any] = {
            "format": RESULT_FORMAT,
            "made_by": self.made_by or provenance(),
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
            "forfeits": sum(r.forfeit is not None for r in self.records),
        }
        if self.not_legal:
            out["not_legal_players"] = list(self.not_legal)
        if self.cooperative:
            cp = self.cross_play()
            out["cross_play"] = {k: listed(v) for k, v in cp.items()}
        else:
            share, met = self.head_to_head()
            out["rank_by"] = self.rank_by
            out["rating"] = self.rating()
            out["head_to_head"] = {
                "agents": self.agents,
                "share": listed(share),
                "games": listed(met),
                "meaning": "share[row][col]: games where row finished ahead of col (ties half)",
            }
        if games:
            out["games"] = [record_dict(r) for r in self.records]
        return clean(out)


def listed(x: Any) -> Any:
    return x.tolist() if isinstance(x, np.ndarray) else x


def clean(x: Any) -> Any:
    """JSON-safe copy: NaN/inf become None, tuples lists, numpy scalars Python numbers."""
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [clean(v) for v in x]
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x
