"""Tournaments: many games with shared deck seeds under every seat rotation, and a leaderboard.

Variance reduction: for each deck seed every table of the rotation set is played with the same
seed, so each agent meets the same cards from every seat. Confidence intervals are computed over
deck seeds (the per-seed mean of an agent is one sample), since games that share a seed are not
independent.
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from envs.core.registry import get_spec

Z95 = 1.959963984540054


@dataclass
class GameRecord:
    deal_seed: int
    lineup: list[str]  # agent name per seat
    returns: list[float]
    scores: list[float]
    winners: list[int]
    decisions: int


@dataclass
class AgentSummary:
    name: str
    games: int
    win_rate: float
    win_ci: tuple[float, float]
    mean_return: float
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

    def summaries(self) -> list[AgentSummary]:
        return summarise(self.records, self.agents)

    def team_summaries(self) -> list[TeamSummary]:
        return summarise_coop(self.records)

    def to_json(self) -> dict[str, Any]:
        board = self.team_summaries() if self.cooperative else self.summaries()
        return {
            "game": self.game,
            "options": self.options,
            "agents": self.agents,
            "cooperative": self.cooperative,
            "num_deals": self.num_deals,
            "seconds": self.seconds,
            "leaderboard": [asdict(s) for s in board],
            "games": [asdict(r) for r in self.records],
        }


def lineups(agents: Sequence[str], num_players: int) -> list[list[str]]:
    """Tables to play per deck seed: each agent sits once in every seat.

    Table j seats ``agents[(j + i) % k]`` at seat i, for j in 0..k-1. With as many agents as
    seats these are the k cyclic rotations; with fewer agents they repeat around the table
    (A B A B, then B A B A); with more, each table takes the next ``num_players`` of them.
    """
    k = len(agents)
    return [[agents[(j + i) % k] for i in range(num_players)] for j in range(k)]


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
        agent.reset(None if agent_seed is None else agent_seed * 1000 + i)
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    decisions = 0
    while not engine.is_over(state):
        seat = engine.current_player(state)
        mask[:] = 0
        mask[engine.legal_actions(state)] = 1
        action = seat_agents[seat].act(spec.encode(state, seat), mask, spec.view(state, seat))
        engine.apply(state, int(action), seat)
        decisions += 1
    return GameRecord(
        deal_seed=deal_seed,
        lineup=[a.name for a in seat_agents],
        returns=[float(r) for r in engine.returns(state)],
        scores=[float(s) for s in engine.scores(state)],
        winners=engine.winners(state),
        decisions=decisions,
    )


def _mean_ci(
    values: np.ndarray, low: float = -math.inf, high: float = math.inf
) -> tuple[float, tuple[float, float]]:
    """Mean and normal 95% interval over independent samples, clipped to [low, high]."""
    mean = float(values.mean())
    if len(values) < 2:
        return mean, (mean, mean)
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(len(values))
    return mean, (max(mean - half, low), min(mean + half, high))


def summarise(records: Sequence[GameRecord], agents: Sequence[str]) -> list[AgentSummary]:
    """Win rate (ties share the win) and mean score per agent, with 95% CIs over deck seeds."""
    out = []
    for name in agents:
        per_seed_win: dict[int, list[float]] = {}
        per_seed_score: dict[int, list[float]] = {}
        returns = []
        for r in records:
            for seat, who in enumerate(r.lineup):
                if who != name:
                    continue
                win = 1.0 / len(r.winners) if seat in r.winners else 0.0
                per_seed_win.setdefault(r.deal_seed, []).append(win)
                per_seed_score.setdefault(r.deal_seed, []).append(r.scores[seat])
                returns.append(r.returns[seat])
        if not returns:
            continue
        wins = np.array([np.mean(v) for v in per_seed_win.values()])
        scores = np.array([np.mean(v) for v in per_seed_score.values()])
        win_rate, win_ci = _mean_ci(wins, 0.0, 1.0)
        mean_score, score_ci = _mean_ci(scores)
        out.append(
            AgentSummary(
                name=name,
                games=len(returns),
                win_rate=win_rate,
                win_ci=win_ci,
                mean_return=float(np.mean(returns)),
                mean_score=mean_score,
                score_ci=score_ci,
            )
        )
    out.sort(key=lambda s: -s.win_rate)
    return out


# ---- running many games ---------------------------------------------------------------------
_WORKER: dict[str, Any] = {}


def _init_worker(game: str, options: dict[str, Any], agent_specs: list[str]) -> None:
    from agents import make_agent

    _WORKER["game"] = game
    _WORKER["options"] = options
    _WORKER["agents"] = {s: make_agent(game, s) for s in agent_specs}


def _play_deal(job: tuple[int, list[list[str]]]) -> list[GameRecord]:
    deal_seed, tables = job
    records = []
    for t, table in enumerate(tables):
        # one agent object per seat even when an agent sits twice (agents keep per-game state)
        seat_agents = [_seat_agent(spec, i) for i, spec in enumerate(table)]
        record = play_game(
            _WORKER["game"],
            _WORKER["options"],
            seat_agents,
            deal_seed,
            agent_seed=deal_seed * 64 + t,
        )
        record.lineup = list(table)
        records.append(record)
    return records


def _seat_agent(spec: str, seat: int) -> Any:
    key = f"{spec}#{seat}"
    if key not in _WORKER["agents"]:
        import copy

        _WORKER["agents"][key] = copy.copy(_WORKER["agents"][spec])
    return _WORKER["agents"][key]


def run_tournament(
    game: str,
    agents: Sequence[str],
    num_deals: int,
    options: dict[str, Any] | None = None,
    first_seed: int = 0,
    workers: int = 1,
    progress: bool = True,
) -> TournamentResult:
    """Play ``num_deals`` deck seeds x every rotation of ``agents`` around the table."""
    options = dict(options or {})
    spec = get_spec(game)
    num_players = spec.make_engine(**options).num_players
    if spec.cooperative:
        tables = coop_tables(list(dict.fromkeys(agents)), num_players, cross_play=True)
    else:
        tables = lineups(list(agents), num_players)
    jobs = [(first_seed + d, tables) for d in range(num_deals)]
    result = TournamentResult(
        game=game,
        options=options,
        agents=list(dict.fromkeys(agents)),
        num_deals=num_deals,
        cooperative=spec.cooperative,
        tables_per_deal=len(tables),
    )
    start = time.perf_counter()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=num_deals * len(tables), unit="game", desc=f"{game} tournament")
    if workers <= 1:
        _init_worker(game, options, list(dict.fromkeys(agents)))
        for job in jobs:
            records = _play_deal(job)
            result.records.extend(records)
            if bar:
                bar.update(len(records))
    else:
        ctx = mp.get_context("spawn")
        with ctx.Pool(workers, _init_worker, (game, options, list(dict.fromkeys(agents)))) as pool:
            for records in pool.imap(
                _play_deal, jobs, chunksize=max(1, num_deals // (workers * 8))
            ):
                result.records.extend(records)
                if bar:
                    bar.update(len(records))
    if bar:
        bar.close()
    result.seconds = time.perf_counter() - start
    return result


def _render(table: Any) -> str:
    from rich.console import Console

    console = Console(width=140, record=True, force_terminal=False)
    with console.capture() as cap:
        console.print(table)
    return cap.get()


def leaderboard_text(result: TournamentResult) -> str:
    """The leaderboard (or, for a cooperative game, the team table and cross-play matrix)."""
    from rich.table import Table

    opts = " ".join(f"{k}={v}" for k, v in result.options.items())
    title = (
        f"{result.game} {opts}: {len(result.records)} games "
        f"({result.num_deals} deck seeds x {result.tables_per_deal} tables)"
    )
    if result.cooperative:
        return coop_text(result, title)
    table = Table(title=title)
    for col in ("rank", "agent", "games", "win rate", "95% CI", "mean score", "95% CI "):
        table.add_column(col, justify="left" if col == "agent" else "right")
    for i, s in enumerate(result.summaries(), 1):
        table.add_row(
            str(i),
            s.name,
            str(s.games),
            f"{s.win_rate:.3f}",
            f"[{s.win_ci[0]:.3f}, {s.win_ci[1]:.3f}]",
            f"{s.mean_score:.2f}",
            f"[{s.score_ci[0]:.2f}, {s.score_ci[1]:.2f}]",
        )
    return _render(table)


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
            f"[{s.win_ci[0]:.3f}, {s.win_ci[1]:.3f}]",
            f"{s.good_share:.3f}",
            f"{s.mean_score:.2f}",
            f"[{s.score_ci[0]:.2f}, {s.score_ci[1]:.2f}]",
        )
    out = _render(table)
    by_team = {s.team: s for s in teams}
    if len(result.agents) > 1 and any("+" in t for t in by_team):
        matrix = Table(title="cross-play: win rate (mean cards left) of row and column as partners")
        matrix.add_column("")
        for b in result.agents:
            matrix.add_column(b, justify="right")
        for a in result.agents:
            cells = []
            for b in result.agents:
                s = by_team.get(a if a == b else f"{a}+{b}") or by_team.get(f"{b}+{a}")
                cells.append(f"{s.win_rate:.3f} ({s.mean_score:.1f})" if s else "-")
            matrix.add_row(a, *cells)
        out += _render(matrix)
    return out


def save_result(result: TournamentResult, path: str | Path) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result.to_json(), indent=1))


# ---- cooperative games -------------------------------------------------------------------------
@dataclass
class TeamSummary:
    team: str  # agent names around the table, e.g. "planner" or "zoo:thegame+greedy"
    games: int
    win_rate: float
    win_ci: tuple[float, float]
    good_share: float  # share of games with a team score below the game's "good" mark
    mean_score: float
    score_ci: tuple[float, float]


def coop_tables(agents: Sequence[str], num_players: int, cross_play: bool) -> list[list[str]]:
    """Tables for a cooperative game: each agent as a whole team, and (cross-play) every pair of
    agents as partners, each agent taking each seat."""
    tables = [[a] * num_players for a in agents]
    if cross_play and num_players > 1:
        for i, a in enumerate(agents):
            for b in agents[i + 1 :]:
                tables.extend(lineups([a, b], num_players))
    return tables


def team_name(table: Sequence[str]) -> str:
    names = list(dict.fromkeys(table))
    return "+".join(names)


def summarise_coop(records: Sequence[GameRecord], good_below: float = 10) -> list[TeamSummary]:
    """Cooperative table per team: win rate, share of good results, mean team score (cards left)."""
    by_team: dict[str, list[GameRecord]] = {}
    for r in records:
        by_team.setdefault(team_name(r.lineup), []).append(r)
    out = []
    for team, recs in by_team.items():
        seeds: dict[int, list[tuple[float, float]]] = {}
        for r in recs:
            seeds.setdefault(r.deal_seed, []).append((1.0 if r.winners else 0.0, r.scores[0]))
        wins = np.array([np.mean([w for w, _ in v]) for v in seeds.values()])
        scores = np.array([np.mean([s for _, s in v]) for v in seeds.values()])
        win_rate, win_ci = _mean_ci(wins, 0.0, 1.0)
        mean_score, score_ci = _mean_ci(scores)
        out.append(
            TeamSummary(
                team=team,
                games=len(recs),
                win_rate=win_rate,
                win_ci=win_ci,
                good_share=float(np.mean([r.scores[0] < good_below for r in recs])),
                mean_score=mean_score,
                score_ci=score_ci,
            )
        )
    out.sort(key=lambda s: (-s.win_rate, s.mean_score))
    return out
