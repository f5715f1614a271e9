"""Where the games run: in this process, on a local process pool, or as Ray tasks.

Each backend gets the chunks to play and a ``done`` callback that it calls with each chunk's
records as soon as the chunk finishes (the tournament appends them to its results store). A
failure stops the run with a :class:`TournamentError` that names the game, the agents and the deck
seeds; the chunks finished before it have gone through ``done`` already, so nothing played is
lost:

* an agent that raises or calls ``sys.exit`` (in any process): the agent's own error, with its
  seat and deck seed (:class:`agents.evaluation.lockstep.AgentError`);
* a worker process that dies (killed, out of memory, ``os._exit`` in an agent): the
  pool reports it (``concurrent.futures`` raises ``BrokenProcessPool`` where a
  ``multiprocessing.Pool`` would wait forever) and the run stops with the chunks it lost.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing as mp
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from cardarena.agents.evaluation.records import GameRecord
from cardarena.agents.evaluation.schedule import Chunk
from cardarena.agents.outside.process import KINDS as OUTSIDE_KINDS
from cardarena.agents.parent_watch import watch_parent
from cardarena.envs.core.engine import CardArenaError, ConfigError

Done = Callable[[list[GameRecord]], None]
_WORKER: dict[str, Any] = {}
_RAY_CACHE: dict[Any, dict[str, Any]] = {}
_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


class TournamentError(CardArenaError):
    """A tournament stopped before every game was played."""


def describe(game: str, chunks: Sequence[Chunk]) -> str:
    """'flip6 deck seeds 4..7 with agents 'a', 'b'' for the games of ``chunks``."""
    seeds = sorted({seed for chunk in chunks for seed, _ in chunk})
    names = dict.fromkeys(a for chunk in chunks for _, table in chunk for a in table)
    span = f"{seeds[0]}..{seeds[-1]}" if len(seeds) > 1 else f"{seeds[0]}" if seeds else "-"
    return f"{game} deck seeds {span} with agents {', '.join(repr(a) for a in names)}"


#: how outside agents are held to time and what a fault does (``run_tournament``'s arguments)
Conduct = dict[str, Any]


def build_agents(
    game: str,
    specs: Sequence[str],
    base_dir: str | None = None,
    conduct: Conduct | None = None,
) -> dict[str, Any]:
    """One agent per spec; relative checkpoint paths are taken from ``base_dir`` (the driver's
    working directory when games run in other processes, also where outside agents' commands
    run); outside agents get the time limits of ``conduct`` (``decision_time``, ``game_time``).
    """
    from cardarena.agents import make_agent

    built = {}
    for spec in dict.fromkeys(specs):
        target = spec
        prefix, path = ("sb3:", spec[4:]) if spec.startswith("sb3:") else ("", spec)
        if base_dir and path.endswith(".zip") and not os.path.isabs(path):
            target = prefix + os.path.join(base_dir, path)
        outside = spec.startswith(OUTSIDE_KINDS)
        here = base_dir if outside and base_dir and os.path.isdir(base_dir) else None
        with contextlib.chdir(here) if here else contextlib.nullcontext():
            agent = make_agent(game, target)  # an exec: command's path is the driver's
        if getattr(agent, "uses_text", False) and hasattr(agent, "set_limits"):
            conduct = conduct or {}
            agent.set_limits(conduct.get("decision_time"), conduct.get("game_time"))
            if base_dir and getattr(agent, "cwd", "") is None:
                agent.cwd = base_dir  # type: ignore[attr-defined]
            agent.table_options = conduct.get("options")  # type: ignore[attr-defined]
        built[spec] = agent
    return built


def play_chunk(
    game: str,
    options: dict[str, Any],
    agents: dict[str, Any],
    chunk: Chunk,
    record_dir: str | None = None,
    on_fault: str = "stop",
) -> list[GameRecord]:
    """Play a chunk; with ``record_dir``, also write each game's replay there (not of a game
    forfeited: it has no end)."""
    from cardarena.agents.evaluation.lockstep import play_lockstep

    if record_dir is None:
        return play_lockstep(game, options, agents, chunk, on_fault=on_fault)
    from cardarena.envs.core.replay import record_game, replay_name

    traces: list[list[int]] = []
    notes: list[list[Any]] = []  # the agents' notes per action (a language model's transcript)
    records = play_lockstep(
        game, options, agents, chunk, trace=traces, on_fault=on_fault, notes=notes
    )
    for record, actions, said in zip(records, traces, notes, strict=True):
        if record.forfeit is not None:
            continue
        path = Path(record_dir) / replay_name(game, record.deal_seed, record.lineup)
        result = record_game(
            path,
            game,
            options,
            record.deal_seed,
            record.lineup,
            actions,
            source="evaluate.py",
            notes=said,
        )
        if result["winners"] != record.winners or result["steps"] != record.decisions:
            raise CardArenaError(f"{path}: the replayed game does not end as the game played")
    return records


def _failed(game: str, chunk: Chunk, err: BaseException) -> TournamentError:
    if isinstance(err, CardArenaError):
        return TournamentError(str(err))
    return TournamentError(f"playing {describe(game, [chunk])}: {type(err).__name__}: {err}")


# ---- local ------------------------------------------------------------------------------------
def _pool_init(
    game: str,
    options: dict[str, Any],
    specs: list[str],
    base_dir: str,
    record_dir: str | None,
    conduct: Conduct | None = None,
) -> None:
    watch_parent()  # a killed evaluate.py takes its workers with it
    _WORKER["game"] = game
    _WORKER["options"] = options
    _WORKER["agents"] = build_agents(game, specs, base_dir, conduct)
    _WORKER["record_dir"] = record_dir
    _WORKER["on_fault"] = (conduct or {}).get("on_fault", "stop")


def _pool_chunk(chunk: Chunk) -> list[GameRecord]:
    return play_chunk(
        _WORKER["game"],
        _WORKER["options"],
        _WORKER["agents"],
        chunk,
        _WORKER["record_dir"],
        _WORKER["on_fault"],
    )


@contextlib.contextmanager
def single_threaded_children() -> Iterator[None]:
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


def run_local(
    game: str,
    options: dict[str, Any],
    specs: list[str],
    chunks: list[Chunk],
    workers: int,
    done: Done,
    record_dir: str | None = None,
    built: dict[str, Any] | None = None,
    conduct: Conduct | None = None,
) -> None:
    """Play ``chunks`` here (one worker or one chunk; ``built`` agents are reused) or on a pool of
    ``workers`` processes."""
    base_dir = os.getcwd()
    on_fault = (conduct or {}).get("on_fault", "stop")
    if workers <= 1 or len(chunks) <= 1:
        from threadpoolctl import threadpool_limits

        agents = built if built is not None else build_agents(game, specs, base_dir, conduct)
        with threadpool_limits(1, user_api="blas"):  # small products: threads only cost
            for chunk in chunks:
                try:
                    records = play_chunk(game, options, agents, chunk, record_dir, on_fault)
                except (Exception, SystemExit) as err:  # noqa: BLE001 - reported with its chunk
                    raise _failed(game, chunk, err) from None
                done(records)
        return
    init_args = (game, options, specs, base_dir, record_dir, conduct)
    pool = ProcessPoolExecutor(
        min(workers, len(chunks)), mp.get_context("spawn"), _pool_init, init_args
    )
    futures: dict[Future, Chunk] = {}
    delivered: set[Future] = set()
    error: TournamentError | None = None
    try:
        with single_threaded_children():  # the workers start as the chunks are submitted
            futures = {pool.submit(_pool_chunk, chunk): chunk for chunk in chunks}
        error = deliver(futures, done, delivered, lambda err: _pool_error(game, futures, err))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    # chunks that were still running when another failed: keep what they finished
    for future, _ in futures.items():
        if future in delivered or future.cancelled() or future.exception() is not None:
            continue
        done(future.result())
    if error is not None:
        raise error


def deliver(
    futures: dict[Future, Chunk],
    done: Done,
    delivered: set[Future],
    fail: Callable[[BaseException], TournamentError],
) -> TournamentError | None:
    """Hand each chunk's records to ``done`` as soon as its future finishes (so a results file
    grows while the run goes on, and a killed run keeps what finished), until all are done or
    one fails; returns that failure (``fail(err)``), None when every chunk succeeded."""
    pending = set(futures)
    while pending:
        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
        for future in sorted(finished, key=lambda f: futures[f][0]):
            err = future.exception()
            if err is not None:
                return fail(err)
            delivered.add(future)
            done(future.result())
    return None


def _pool_error(game: str, futures: dict[Future, Chunk], err: BaseException) -> TournamentError:
    if isinstance(err, BrokenProcessPool):
        lost = [c for f, c in futures.items() if not f.done() or f.exception() is not None]
        return TournamentError(
            f"a worker process died (killed, out of memory, or an agent ended the process) "
            f"while playing {describe(game, lost)}"
        )
    chunk = next(c for f, c in futures.items() if f.done() and f.exception() is err)
    return _failed(game, chunk, err)


# ---- Ray --------------------------------------------------------------------------------------
def _ray_chunk(
    game: str,
    options: dict[str, Any],
    specs: list[str],
    base_dir: str,
    chunk: Chunk,
    record_dir: str | None = None,
    conduct: Conduct | None = None,
) -> list[GameRecord]:
    conduct = conduct or {}
    key: tuple[Any, ...] = (game, json.dumps(options, sort_keys=True), tuple(specs), base_dir)
    key += (json.dumps(conduct, sort_keys=True),)
    if key not in _RAY_CACHE:
        _RAY_CACHE[key] = build_agents(game, specs, base_dir, conduct)
    try:
        return play_chunk(
            game, options, _RAY_CACHE[key], chunk, record_dir, conduct.get("on_fault", "stop")
        )
    except SystemExit as err:  # Ray would take it for the worker's own exit
        raise _failed(game, chunk, err) from None


def _user_paths() -> list[str]:
    """The driver's import paths outside the interpreter (project, cwd, test dirs)."""
    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    paths = [os.getcwd()]
    for p in sys.path:
        real = os.path.realpath(p or os.getcwd())
        if os.path.isdir(real) and not any(real.startswith(pre + os.sep) for pre in prefixes):
            paths.append(real)
    return list(dict.fromkeys(paths))


def check_ray() -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        raise ConfigError(
            "the ray backend needs Ray: pip install 'cardarena[ray]' (or 'ray>=2.9,<3')"
        ) from None


@contextlib.contextmanager
def ray_session(workers: int, address: str | None) -> Iterator[Any]:
    """Ray, started for the duration (a local instance with ``workers`` CPUs, or the cluster at
    ``address``) unless it already runs; local workers get one BLAS thread and this project's
    import paths. Shared by tournaments and expert iteration's labelling."""
    check_ray()
    import ray

    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            check_ray_address(address)
            ray.init(address=address, **kwargs)
        else:
            env = {v: os.environ.get(v, "1") for v in _THREAD_VARS}
            env["PYTHONPATH"] = os.pathsep.join(
                _user_paths() + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
            )
            ray.init(num_cpus=max(1, workers), runtime_env={"env_vars": env}, **kwargs)
        started = True
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


#: seconds a Ray cluster's address has to accept a connection before the run is refused
RAY_CONNECT_TIMEOUT = 15.0


def check_ray_address(address: str, timeout: float = RAY_CONNECT_TIMEOUT) -> None:
    """A ConfigError unless ``address`` (``host:port``, ``ray://host:port`` or ``auto``) accepts
    a connection within ``timeout`` seconds: Ray itself retries a dead address for minutes."""
    if address == "auto":
        return
    rest = address.split("://", 1)[-1]
    host, sep, port = rest.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(
            f"--address {address!r} is not host:port (e.g. 192.168.1.5:6379, ray://head:10001 "
            "or auto)"
        )
    import socket

    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as err:
        raise ConfigError(
            f"the Ray cluster at --address {address} does not answer (no connection within "
            f"{timeout:g} s: {err}); start it (ray start --head) or check the address"
        ) from None


def run_ray(
    game: str,
    options: dict[str, Any],
    specs: list[str],
    chunks: list[Chunk],
    workers: int,
    address: str | None,
    done: Done,
    record_dir: str | None = None,
    conduct: Conduct | None = None,
) -> None:
    with ray_session(workers, address) as ray:
        task = ray.remote(num_cpus=1, max_retries=0)(_ray_chunk)
        opts = ray.put(options)
        base_dir = os.getcwd()
        refs = {
            task.remote(game, opts, specs, base_dir, chunk, record_dir, conduct): i
            for i, chunk in enumerate(chunks)
        }
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                try:
                    records = ray.get(ref)
                except Exception as err:  # noqa: BLE001 - a task error or a dead worker
                    for other in pending:
                        ray.cancel(other, force=True)
                    cause = getattr(err, "cause", None)
                    if isinstance(cause, CardArenaError):
                        raise TournamentError(str(cause)) from None
                    raise TournamentError(
                        f"a Ray task failed while playing {describe(game, [chunks[refs[ref]]])}: "
                        f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"
                    ) from None
                done(records)
