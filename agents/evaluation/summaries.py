"""Per-agent and per-team summaries of a list of games, with paired bootstrap intervals.

Everything is reduced to per-deck-seed sums first (one row per seed), so the cost in memory is a
few numbers per seed and agent, whatever the number of games and of bootstrap resamples.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from cardarena.agents.evaluation.ratings import Resamples, bootstrap_means

if TYPE_CHECKING:
    from cardarena.agents.evaluation.records import GameRecord

BOOTSTRAP = 1000  # resamples of deck seeds for the intervals


@dataclass
class AgentSummary:
    name: str
    games: int
    win_rate: float
    win_ci: tuple[float, float]
    mean_return: float
    mean_score: float
    score_ci: tuple[float, float]
    rating: float | None = None  # Bradley-Terry rating, random = 0 (see ratings.py)
    rating_ci: tuple[float, float] | None = None


@dataclass
class TeamSummary:
    team: str  # agent names around the table, e.g. "planner" or "zoo:thegame+greedy"
    games: int
    win_rate: float
    win_ci: tuple[float, float]
    good_share: float  # share of games with a team score below the game's "good" mark
    mean_score: float
    score_ci: tuple[float, float]


def seed_positions(records: Sequence[GameRecord]) -> tuple[list[int], np.ndarray]:
    """The sorted distinct deck seeds and each record's position among them."""
    seeds = sorted({r.deal_seed for r in records})
    pos = {s: i for i, s in enumerate(seeds)}
    return seeds, np.fromiter((pos[r.deal_seed] for r in records), np.int64, len(records))


def _per_seed(
    seed_pos: np.ndarray, group: np.ndarray, values: np.ndarray, num_seeds: int, groups: int
) -> np.ndarray:
    """(num_seeds, groups): mean of ``values`` per seed and group (NaN where none); entries with
    ``group`` < 0 are left out."""
    keep = group >= 0
    flat = seed_pos[keep] * groups + group[keep]
    size = num_seeds * groups
    sums = np.bincount(flat, weights=values[keep], minlength=size).reshape(num_seeds, groups)
    counts = np.bincount(flat, minlength=size).reshape(num_seeds, groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / counts, np.nan)


def _seat_rows(
    records: Sequence[GameRecord], agents: Sequence[str]
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One row per seat of every game: (number of seeds, seed position, agent index (-1: not in
    ``agents``), win share (ties share the win), score, return)."""
    seeds, seed_of = seed_positions(records)
    index = {a: i for i, a in enumerate(agents)}
    seat_seed, who, wins, scores, returns = [], [], [], [], []
    for pos, r in zip(seed_of.tolist(), records, strict=True):
        share = 1.0 / len(r.winners) if r.winners else 0.0
        for seat, name in enumerate(r.lineup):
            seat_seed.append(pos)
            who.append(index.get(name, -1))
            wins.append(share if seat in r.winners else 0.0)
            scores.append(r.scores[seat])
            returns.append(r.returns[seat])
    return (
        len(seeds),
        np.array(seat_seed, dtype=np.int64),
        np.array(who, dtype=np.int64),
        np.array(wins, dtype=np.float64),
        np.array(scores, dtype=np.float64),
        np.array(returns, dtype=np.float64),
    )


def wins_per_seed(records: Sequence[GameRecord], agents: Sequence[str]) -> np.ndarray:
    """(deck seeds, agents): each agent's mean win share per deck seed (NaN where it did not
    play that seed), in the order of ``agents``: paired comparisons take differences of columns."""
    num_seeds, pos_arr, who_arr, wins, _, _ = _seat_rows(records, agents)
    return _per_seed(pos_arr, who_arr, wins, num_seeds, len(agents))


def summarise(
    records: Sequence[GameRecord],
    agents: Sequence[str],
    bootstrap: int = BOOTSTRAP,
    resamples: Resamples | None = None,
) -> list[AgentSummary]:
    """Win rate (ties share the win) and mean score per agent, with paired bootstrap 95%
    intervals over deck seeds; highest win rate first. Names not in ``agents`` are left out."""
    num_seeds, pos_arr, who_arr, wins, scores, returns = _seat_rows(records, agents)
    if resamples is None:
        resamples = Resamples(num_seeds, bootstrap)
    k = len(agents)
    win_by = _per_seed(pos_arr, who_arr, wins, num_seeds, k)
    score_by = _per_seed(pos_arr, who_arr, scores, num_seeds, k)
    mean, low, high = bootstrap_means(np.hstack([win_by, score_by]), resamples)
    keep = who_arr >= 0
    games = np.bincount(who_arr[keep], minlength=k)
    return_sum = np.bincount(who_arr[keep], weights=returns[keep], minlength=k)
    out = []
    for i, name in enumerate(agents):
        if not games[i]:
            continue
        out.append(
            AgentSummary(
                name=name,
                games=int(games[i]),
                win_rate=float(mean[i]),
                win_ci=(max(float(low[i]), 0.0), min(float(high[i]), 1.0)),
                mean_return=float(return_sum[i] / games[i]),
                mean_score=float(mean[k + i]),
                score_ci=(float(low[k + i]), float(high[k + i])),
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
    seeds, seed_of = seed_positions(records)
    resamples = Resamples(len(seeds), bootstrap)
    names = [team_name(r.lineup, agents) for r in records]
    teams = list(dict.fromkeys(names))
    index = {t: i for i, t in enumerate(teams)}
    team = np.fromiter((index[t] for t in names), np.int64, len(names))
    won = np.array([float(bool(r.winners)) for r in records])
    score = np.array([float(r.scores[0]) for r in records])
    m = len(teams)
    win_by = _per_seed(seed_of, team, won, len(seeds), m)
    score_by = _per_seed(seed_of, team, score, len(seeds), m)
    mean, low, high = bootstrap_means(np.hstack([win_by, score_by]), resamples)
    games = np.bincount(team, minlength=m)
    good = np.bincount(team, weights=(score < good_below).astype(float), minlength=m)
    out = [
        TeamSummary(
            team=t,
            games=int(games[i]),
            win_rate=float(mean[i]),
            win_ci=(max(float(low[i]), 0.0), min(float(high[i]), 1.0)),
            good_share=float(good[i] / games[i]),
            mean_score=float(mean[m + i]),
            score_ci=(float(low[m + i]), float(high[m + i])),
        )
        for i, t in enumerate(teams)
    ]
    out.sort(key=lambda s: (-s.win_rate, s.mean_score))
    return out
