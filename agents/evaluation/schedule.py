"""Which games a tournament plays: the tables per deck seed, and the chunks they are played in.

For each deck seed every table of the rotation set (or, with ``permutations=True``, every distinct
seating) is played with the same seed, so each agent meets the same cards from every seat.
Chunks group games by blocks of deck seed numbers, so a chunk's games (and, with network agents
deciding without BLAS, its results) do not depend on the run's first seed, the backend or the
number of workers.

When no agent batches (``act_batch``: scripted, search and network agents all decide game by
game), playing games in lock-step gains nothing, and big chunks only leave workers idle: 100 deck
seeds of 4 tables are two chunks of 256 and 144 games, so of 4 workers two sit idle and of 2 one
waits for the other. Then the chunks are cut smaller, to about :data:`CHUNKS_PER_WORKER` per
worker (blocks of seed numbers still): a worker takes the next chunk as it finishes one, so every
worker stays busy until the last chunks. One process gets its :data:`CHUNKS_PER_WORKER` chunks
too, so that the progress bar moves and the results file grows while a slow agent (search)
plays, and a stopped run keeps all but the chunk it was in. Each game's result depends only on its deck seed and
table (agents are reset per game and seat), so it does not change with the chunks.
"""

from __future__ import annotations

import inspect
import itertools
import math
from collections.abc import Sequence
from typing import Any

from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.registry import get_spec

MAX_PERMUTATION_SEATS = 4
#: without batching agents, chunks are cut to about this many per worker (dynamic load balance)
CHUNKS_PER_WORKER = 8

Key = tuple[int, tuple[str, ...]]  # (deck seed, agent spec per seat): one game
Chunk = list[Key]


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


def check_permutation_seats(num_players: int) -> None:
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
    check_permutation_seats(num_players)
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
    """The tables of one deck seed. A competitive game gets an agent per seat (the tournament
    and evaluate.py refuse fewer: :func:`check_enough_agents`); an agent listed twice sits twice."""
    if get_spec(game).cooperative:
        if permutations:
            check_permutation_seats(num_players)
        return coop_tables(list(dict.fromkeys(agents)), num_players, True, permutations)
    if permutations:
        check_permutation_seats(num_players)
    return seatings(list(agents), num_players, permutations)


def check_enough_agents(game: str, agents: Sequence[str], num_players: int) -> None:
    """A competitive game needs an agent for every seat, an agent listed again to sit twice."""
    if not get_spec(game).cooperative and len(agents) < num_players:
        raise ConfigError(
            f"{game} with {num_players} seats needs {num_players} agents, got {len(agents)} "
            f"({' '.join(agents)}): add agents, list one more than once to seat it several times "
            f"(e.g. {' '.join([*agents, *[agents[-1]] * (num_players - len(agents))])}), or "
            f"play with --num-players {max(len(agents), 1)}"
        )


def make_chunks(
    todo: Sequence[Key],
    tables_per_deal: int,
    batch_games: int,
    workers: int = 1,
    batching: bool = True,
) -> list[Chunk]:
    """Group the games to play by blocks of deck seeds (aligned on the seed numbers, so a
    chunk's games do not depend on the run's first seed or on what was played before).

    With ``batching`` (an agent decides many games in one ``act_batch`` call) a chunk holds up
    to ``batch_games`` games whatever the workers; without, chunks are also cut to about
    :data:`CHUNKS_PER_WORKER` per worker, so that ``workers`` processes all have work (and one
    process reports progress and saves results as it goes)."""
    per_chunk = max(1, batch_games // max(1, tables_per_deal))
    if not batching:
        seeds = len({seed for seed, _ in todo})
        per_chunk = min(per_chunk, max(1, math.ceil(seeds / (workers * CHUNKS_PER_WORKER))))
    chunks: dict[int, Chunk] = {}
    for seed, table in todo:
        chunks.setdefault(seed // per_chunk, []).append((seed, table))
    return list(chunks.values())


def check_networks_fit(game: str, options: dict[str, Any], agents: dict[str, Any]) -> None:
    """Refuse a network trained under other game options than these (suicidium's ``mode`` or
    ``expansion``): its observations would mean something else. The player count may differ."""
    params = inspect.signature(get_spec(game).engine_cls).parameters
    defaults = {k: p.default for k, p in params.items() if p.default is not inspect.Parameter.empty}

    def same(a: Any, b: Any) -> bool:
        if isinstance(a, str) and isinstance(b, str):
            return a.strip().upper() == b.strip().upper()
        return a == b

    for spec, agent in agents.items():
        meta = getattr(getattr(agent, "actor", None), "meta", None) or {}
        for key, trained in (meta.get("env") or {}).items():
            if key == "num_players" or key not in defaults:
                continue
            now = options.get(key, defaults[key])
            if not same(now, trained):
                raise ConfigError(
                    f"{spec} was trained with {key}={trained!r} but this {game} table has "
                    f"{key}={now!r}; add --option {key}={trained} or pick an agent trained for "
                    f"{key}={now}"
                )
