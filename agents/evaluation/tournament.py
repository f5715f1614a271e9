"""Tournaments: many games with shared deck seeds under every seat rotation, and a leaderboard.

Variance reduction: for each deck seed every table of the rotation set (or, with
``permutations=True``, every distinct seating) is played with the same seed, so each agent meets
the same cards from every seat (:mod:`agents.evaluation.schedule`). Intervals are paired bootstrap
intervals over deck seeds (a seed with all its tables is one sample), since games that share a
seed are not independent; see :mod:`agents.evaluation.ratings` for the rating, the finishing
orders and the head-to-head matrix.

Games are played by :func:`agents.evaluation.lockstep.play_lockstep` in chunks of deck seeds
(network agents decide for every game of a chunk in one forward pass), on one process, a local
process pool or Ray tasks (:mod:`agents.evaluation.backends`); every game's seeds depend only on
its deck seed and table, and so do the chunks when an agent batches (without one, the chunks are
cut smaller to keep every worker busy: :func:`agents.evaluation.schedule.make_chunks`), so
results are identical whatever the backend and the number of workers. With a results file, finished games are appended to ``<out>.jsonl`` as
they come (:mod:`agents.evaluation.results`), and a re-run skips the (seed, table) pairs already
there. Every argument is checked before the first game is played.
"""

from __future__ import annotations

import inspect
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from cardarena.agents.evaluation.backends import (
    TournamentError,
    build_agents,
    check_ray,
    check_ray_address,
    run_local,
    run_ray,
)
from cardarena.agents.evaluation.lockstep import batch_kind
from cardarena.agents.evaluation.ratings import finishing_ranks
from cardarena.agents.evaluation.records import RANK_BY, GameRecord, TournamentResult, provenance
from cardarena.agents.evaluation.results import RESULTS_FORMAT, ResultsStore, agent_fingerprint
from cardarena.agents.evaluation.schedule import (
    Key,
    check_enough_agents,
    check_networks_fit,
    make_chunks,
    plan_tables,
)
from cardarena.agents.evaluation.summaries import BOOTSTRAP, summarise, summarise_coop
from cardarena.agents.files import OutputLock, check_writable
from cardarena.envs.core import seeding
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.errors import AgentFault
from cardarena.envs.core.loop import finish, play, result
from cardarena.envs.core.registry import get_spec

__all__ = ["BATCH_GAMES", "BOOTSTRAP", "play_game", "run_tournament", "summarise", "summarise_coop"]

BATCH_GAMES = 256  # games played in lock-step per chunk


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
    try:
        decisions = play(spec, engine, state, seat_agents)
    except AgentFault as err:
        raise err.at(deal_seed=deal_seed) from None
    outcome = result(engine, state, cooperative=spec.cooperative)
    finish(seat_agents, outcome)  # outside agents hear the result
    return GameRecord(
        deal_seed=deal_seed,
        lineup=[a.name for a in seat_agents],
        returns=outcome["returns"],
        scores=outcome["scores"],
        winners=outcome["winners"],
        decisions=decisions,
        ranks=finishing_ranks(outcome["scores"], outcome["winners"]),
    )


# ---- checks ------------------------------------------------------------------------------------
def make_engine(game: str, options: dict[str, Any]) -> Any:
    """The game's engine with ``options``; an unknown option or a bad value is a ConfigError that
    names it and what the game accepts."""
    spec = get_spec(game)
    try:
        return spec.make_engine(**options)
    except TypeError as err:
        engine_cls = type(spec.make_engine())
        accepted = [
            p for p in inspect.signature(engine_cls.__init__).parameters if p not in ("self",)
        ]
        unknown = [k for k in options if k not in accepted]
        if not unknown:
            raise ConfigError(f"{game} options {options}: {err}") from None
        raise ConfigError(
            f"{game} has no option {', '.join(repr(k) for k in unknown)}; its options are "
            f"{', '.join(accepted)}"
        ) from None


def _at_least(name: str, value: Any, low: int, fix: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
        raise ConfigError(f"{name} must be an integer >= {low}, got {value!r}; {fix}")


# ---- many games --------------------------------------------------------------------------------
def _check_backend(backend: str, rank_by: str) -> None:
    if backend not in ("local", "ray"):
        raise ConfigError(f"backend must be 'local' or 'ray', got {backend!r}")
    if rank_by not in RANK_BY:
        raise ConfigError(f"rank_by must be one of {', '.join(RANK_BY)}, got {rank_by!r}")


#: what ``on_agent_fault`` may be
ON_AGENT_FAULT = ("stop", "forfeit")


def check_conduct(
    on_agent_fault: str, decision_time: float | None, game_time: float | None
) -> dict[str, Any]:
    """The outside agents' rules of conduct as one dict for the backends, or the ConfigError."""
    if on_agent_fault not in ON_AGENT_FAULT:
        raise ConfigError(
            f"on_agent_fault must be one of {', '.join(ON_AGENT_FAULT)}, got {on_agent_fault!r}"
        )
    for name, value in (("decision_time", decision_time), ("game_time", game_time)):
        if value is not None and (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not (np.isfinite(value) and value > 0)
        ):
            raise ConfigError(f"{name} must be a positive number of seconds, got {value!r}")
    return {"on_fault": on_agent_fault, "decision_time": decision_time, "game_time": game_time}


def check_legal_players(built: dict[str, Any], allow_seers: bool) -> list[str]:
    """The specs of ``built`` that are no legal players (``agents.seer.is_legal_player``); a
    ConfigError naming them and the fix when they would share a leaderboard with legal players
    and ``allow_seers`` is not set."""
    from cardarena.agents.seer import is_legal_player

    not_legal = [spec for spec, agent in built.items() if not is_legal_player(agent)]
    legal = [spec for spec in built if spec not in not_legal]
    if not_legal and legal and not allow_seers:
        raise ConfigError(
            f"{', '.join(repr(s) for s in not_legal)} is not a legal player (it sees every "
            f"hidden card), so it may not share a leaderboard with "
            f"{', '.join(repr(s) for s in legal)}; to measure the perfect-information "
            f"ceiling anyway add --allow-seers (run_tournament(..., allow_seers=True)): it is "
            f"then labelled 'not a legal player'"
        )
    return not_legal


#: the most games one tournament plays (its schedule is built before the first game)
MAX_GAMES = 2_000_000


def _check_cluster(backend: str, address: str | None) -> None:
    if backend == "ray":
        check_ray()
        if address:
            check_ray_address(address)  # before any work: Ray retries a dead one for minutes
    elif address:
        raise ConfigError(f"an address ({address}) is for the ray backend; add backend='ray'")


def _check_outputs(results_path: str | Path | None, record_dir: str | Path | None) -> None:
    if results_path is not None:
        check_writable("the results file", Path(results_path), directory=False)
    if record_dir is not None:
        check_writable("the replay directory", Path(record_dir), directory=True)


def _open_store(
    results_path: str | Path | None,
    game: str,
    options: dict[str, Any],
    num_players: int,
    names: list[str],
    fresh: bool,
    command: list[str] | None = None,
) -> tuple[ResultsStore | None, dict[Key, GameRecord]]:
    """The results file (None: none) and the games it already holds."""
    if results_path is None:
        return None, {}
    header = {
        "format": RESULTS_FORMAT,
        "game": game,
        "config": {**options, "num_players": num_players},
        "fingerprints": {s: agent_fingerprint(s) for s in names},
        "made_by": provenance(command=command),
    }
    store = ResultsStore(results_path, header)
    store.lock = OutputLock(store.path, "--out").acquire()  # one run per results file
    try:
        have = store.load(fresh)
        store.begin()
    except BaseException:
        store.close()
        raise
    return store, have


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
    rank_by: str = "rating",
    command: list[str] | None = None,
    on_agent_fault: str = "stop",
    decision_time: float | None = None,
    game_time: float | None = None,
    allow_seers: bool = False,
) -> TournamentResult:
    """Play ``num_deals`` deck seeds x every table of ``agents`` (rotations, or every seating
    with ``permutations``), on ``backend`` "local" (``workers`` processes) or "ray".

    A competitive game needs an agent per seat: fewer agents than seats is a ``ConfigError``
    saying how to list one several times (the evaluate command's rule, the same check); a
    cooperative game seats each agent as a whole team, so any number will do.

    With ``results_path`` (a ``.jsonl`` file) games already there are reused and new ones are
    appended as they finish. With ``record_dir``, every game played (not those reused) is saved
    there as a replay (:mod:`envs.core.replay`), written by the process that plays it (on a Ray
    cluster, give a directory every node shares). Every argument is checked, and every agent
    built, before the first game; a failure while playing raises
    :class:`~agents.evaluation.backends.TournamentError`, with the games finished before it kept in
    the results file. ``command`` is the command line recorded as what made the result
    (``made_by``: with the versions and the checkpoints' fingerprints; default this process's).

    Outside agents (``exec:COMMAND``, ``docs/protocol.md``) answer each decision within
    ``decision_time`` seconds and a game's decisions within ``game_time`` (None: the defaults of
    ``agents/outside/process.py``); each of their games is a chunk of its own. Their faults
    (:class:`~envs.core.errors.AgentFault`) stop the run (``on_agent_fault="stop"``, the games
    finished kept) or forfeit the game (``"forfeit"``: recorded with the seat and the verdict,
    ranked as that seat's loss to every other seat).

    A reference that is no legal player (a seer, ``agents/seer.py``: it reads the true state) is
    refused at a table with legal players unless ``allow_seers``; with it, the result lists it
    in ``not_legal`` and the leaderboards label it "(not a legal player)".
    """
    # every check before anything is played or written
    _check_backend(backend, rank_by)
    spec = get_spec(game)
    options = dict(options or {})
    num_players = make_engine(game, options).num_players
    _at_least("the number of deals", num_deals, 1, "each deal is one deck seed under every table")
    _at_least("the first seed", first_seed, 0, "deck seeds are non-negative integers")
    _at_least("workers", workers, 1, "use 1 to play in this process")
    _at_least("the games per batch", batch_games, 1, f"the default is {BATCH_GAMES}")
    _at_least("the bootstrap resamples", bootstrap, 1, f"the default is {BOOTSTRAP}")
    if not agents:
        raise ConfigError("no agents given; name at least one (e.g. random)")
    check_enough_agents(game, list(agents), num_players)  # the evaluate command's rule too
    _check_cluster(backend, address)
    conduct = {**check_conduct(on_agent_fault, decision_time, game_time), "options": options}
    names = list(dict.fromkeys(agents))
    built = build_agents(
        game, names, os.getcwd(), conduct
    )  # unknown agents, checkpoints of other games
    check_networks_fit(game, options or {}, built)  # e.g. a DEPRESSION agent at a SURVIVE table
    not_legal = check_legal_players(built, allow_seers)
    tables = plan_tables(game, list(agents), num_players, permutations)
    if num_deals * len(tables) > MAX_GAMES:
        raise ConfigError(
            f"{num_deals} deals x {len(tables)} tables = {num_deals * len(tables)} games, more "
            f"than {MAX_GAMES} in one run (MAX_GAMES in agents/evaluation/tournament.py); split "
            "it into runs over seed ranges (--first-seed, --deals) with an --out each"
        )
    _check_outputs(results_path, record_dir)

    order = {tuple(t): i for i, t in enumerate(tables)}
    wanted: list[Key] = [(first_seed + d, tuple(t)) for d in range(num_deals) for t in tables]
    store, have = _open_store(results_path, game, options, num_players, names, fresh, command)
    start = time.perf_counter()
    bar = None
    try:
        todo = [k for k in wanted if k not in have]
        batching = any(batch_kind(a) is not None for a in built.values())
        chunks = make_chunks(todo, len(tables), batch_games, workers, batching)
        if any(getattr(a, "one_game_at_a_time", False) for a in built.values()):
            chunks = [[game_key] for chunk in chunks for game_key in chunk]
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
            reused=len(wanted) - len(todo),
            bootstrap=bootstrap,
            rank_by=rank_by,
            made_by=provenance({s: agent_fingerprint(s) for s in names}, command),
            not_legal=not_legal,
        )
        if progress and todo:
            from tqdm import tqdm

            bar = tqdm(total=len(todo), unit="game", desc=f"{game} tournament")
        played = 0

        def done(records: list[GameRecord]) -> None:
            nonlocal played
            if store is not None:
                store.append(records)
            for r in records:
                have[(r.deal_seed, tuple(r.lineup))] = r
            played += len(records)
            if bar:
                bar.update(len(records))

        record = None if record_dir is None else os.path.abspath(record_dir)
        if chunks and backend == "ray":
            run_ray(game, options, names, chunks, workers, address, done, record, conduct)
        elif chunks:
            run_local(game, options, names, chunks, workers, done, record, built, conduct)
    except TournamentError as err:
        kept = (
            f"; the {played} games finished by this run (and {result.reused} from earlier ones) "
            f"are kept in {store.path}: run the same command again to resume"
            if store is not None
            else ""
        )
        raise TournamentError(f"{err}{kept}") from None
    finally:
        if bar:
            bar.close()
        if store is not None:
            store.close()
    result.seconds = time.perf_counter() - start
    result.records = sorted(
        (have[k] for k in wanted), key=lambda r: (r.deal_seed, order[tuple(r.lineup)])
    )
    return result
