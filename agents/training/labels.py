"""Search labels for expert iteration: games played by a search agent in every seat, each of its
decisions kept with what the search thought of every legal action.

A labelling round is a list of games; game ``g`` of round ``r`` is dealt from
``seeding.derive(seed, 6, r, g)`` and its seats' agents are reset with ``seeding.agent_seed`` of
that deal, fresh agents for every game. A game's labels therefore depend on its seed alone, not
on which process played it or what it played before, and the games are cut into chunks of
consecutive indices whose labels are put back together in index order: the same labels from one
process, a local pool of ``workers`` processes (:func:`label_games`) or Ray tasks on any cluster
(``backend="ray"``).

Each kept decision (one with two or more legal actions) is a row: the observation, the mask, the
search's action, its scores over the legal actions (pimc: mean rollout value per action; ismcts:
root visits; 0 elsewhere), the search's value (pimc: the best mean; ismcts: NaN), the seat's
final return, the game index and the seat.

With ``network`` (the actor's layers as ``(weights, bias, activation)`` arrays: plain data that
pickles), the search's rollouts are played by that network, greedy, in every seat.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardarena.envs.core import seeding
from cardarena.envs.core.engine import CardArenaError, ConfigError

#: the seeding path of labelling deals: ``derive(seed, LABEL_PATH, round, game)``
LABEL_PATH = 6
FIELDS = ("obs", "mask", "action", "scores", "search_value", "result", "game", "seat")


class _Labeller:
    """A search agent at one seat of a labelling game, writing each decision it searches."""

    uses_worlds = True
    uses_observation = True
    uses_view = False

    def __init__(self, search: Any, seat: int, rows: list[dict[str, Any]], game: int) -> None:
        from cardarena.agents.search.pimc import PimcAgent

        self.search, self.seat, self.rows, self.game = search, seat, rows, game
        self.name = getattr(search, "name", "search")
        self.pimc = isinstance(search, PimcAgent)

    def set_worlds(self, worlds: Any) -> None:
        self.search.set_worlds(worlds)

    def act_forced(self, action: int) -> bool:
        return True  # one legal action: nothing to learn

    def act(self, observation: Any, action_mask: np.ndarray, view: Any) -> int:
        self.search.last_scores = None
        action = int(self.search.act(observation, action_mask, view))
        scores = np.zeros(action_mask.shape[0], dtype=np.float32)
        value = float("nan")
        if self.search.last_scores is not None:
            legal, values = self.search.last_scores
            scores[legal] = values
            if self.pimc:  # its scores are mean values; the search's value is its move's
                value = float(values[legal.index(action)])  # (the best, unless a gate kept
                # the rollout policy's move)
        self.rows.append(
            {
                "obs": np.asarray(observation, dtype=np.float32),
                "mask": action_mask.astype(bool),
                "action": action,
                "scores": scores,
                "search_value": value,
                "game": self.game,
                "seat": self.seat,
            }
        )
        return action


def _network_players(layers: list[tuple[np.ndarray, np.ndarray, str]]):
    """``make(num_players)``: greedy players of the network ``layers`` (one actor, shared)."""
    from cardarena.agents.policy import NumpyActor, PolicyAgent

    actor = NumpyActor(layers)

    def make(num_players: int) -> list[Any]:
        return [PolicyAgent(actor, name="network") for _ in range(num_players)]

    return make


def play_label_games(
    game: str,
    env_options: dict[str, Any],
    teacher: str,
    network: list[tuple[np.ndarray, np.ndarray, str]] | None,
    seed: int,
    round_index: int,
    games: list[int],
) -> dict[str, np.ndarray]:
    """The label rows of ``games`` (indices of round ``round_index``), in game order."""
    from cardarena.agents import make_agent
    from cardarena.envs.core.loop import play
    from cardarena.envs.core.registry import get_spec

    spec = get_spec(game)
    engine = spec.make_engine(**env_options)
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    players = None if network is None else _network_players(network)
    rows: list[dict[str, Any]] = []
    for g in games:
        deal = seeding.derive(seed, LABEL_PATH, round_index, g)
        state = engine.new_game(np.random.default_rng(deal))
        first = len(rows)
        seats = []
        for seat in range(engine.num_players):
            search = make_agent(game, teacher, seed=seeding.agent_seed(deal, seat))
            search.rollout_agents = players
            seats.append(_Labeller(search, seat, rows, g))
        play(spec, engine, state, seats, mask=mask)
        returns = engine.returns(state)
        for row in rows[first:]:
            row["result"] = float(returns[row["seat"]])
    return _stack(rows, engine.num_actions, spec.obs_size)


def _stack(rows: list[dict[str, Any]], num_actions: int, obs_size: int) -> dict[str, np.ndarray]:
    if not rows:
        return empty_labels(num_actions, obs_size)
    return {
        "obs": np.stack([r["obs"] for r in rows]),
        "mask": np.stack([r["mask"] for r in rows]),
        "action": np.array([r["action"] for r in rows], dtype=np.int64),
        "scores": np.stack([r["scores"] for r in rows]),
        "search_value": np.array([r["search_value"] for r in rows], dtype=np.float32),
        "result": np.array([r["result"] for r in rows], dtype=np.float32),
        "game": np.array([r["game"] for r in rows], dtype=np.int64),
        "seat": np.array([r["seat"] for r in rows], dtype=np.int64),
    }


def empty_labels(num_actions: int, obs_size: int) -> dict[str, np.ndarray]:
    return {
        "obs": np.zeros((0, obs_size), np.float32),
        "mask": np.zeros((0, num_actions), bool),
        "action": np.zeros(0, np.int64),
        "scores": np.zeros((0, num_actions), np.float32),
        "search_value": np.zeros(0, np.float32),
        "result": np.zeros(0, np.float32),
        "game": np.zeros(0, np.int64),
        "seat": np.zeros(0, np.int64),
    }


def concat(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Label sets one after the other (in the order given)."""
    return {k: np.concatenate([p[k] for p in parts]) for k in FIELDS}


def chunks(games: int, chunk_games: int) -> list[list[int]]:
    """Game indices ``0..games-1`` cut into runs of ``chunk_games`` consecutive indices."""
    return [list(range(i, min(i + chunk_games, games))) for i in range(0, games, chunk_games)]


def _job(args: tuple) -> dict[str, np.ndarray]:
    return play_label_games(*args)


def label_games(
    game: str,
    env_options: dict[str, Any],
    teacher: str,
    network: list[tuple[np.ndarray, np.ndarray, str]] | None,
    seed: int,
    round_index: int,
    games: int,
    *,
    chunk_games: int = 4,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
) -> dict[str, np.ndarray]:
    """The labels of round ``round_index``'s ``games`` games, in game order, whatever the
    backend: ``local`` (here with ``workers`` 1, else a pool of that many spawned processes) or
    ``ray`` (one task per chunk on the running Ray instance, or on ``address``, or on a local
    instance of ``workers`` CPUs started and shut down here)."""
    jobs = [
        (game, dict(env_options), teacher, network, seed, round_index, part)
        for part in chunks(games, chunk_games)
    ]
    if backend == "ray":
        parts = _run_ray(jobs, workers, address)
    elif backend != "local":
        raise ConfigError(f"backend must be 'local' or 'ray', got {backend!r}")
    elif workers <= 1 or len(jobs) <= 1:
        parts = [_job(job) for job in jobs]
    else:
        parts = _run_pool(jobs, workers)
    return concat(parts)


def _run_pool(jobs: list[tuple], workers: int, job: Any = _job) -> list[dict[str, np.ndarray]]:
    """The jobs on a pool of ``workers`` spawned processes (``job``: what each runs, a test's
    failing stand-in too); a worker that dies or fails is one CardArenaError naming its games."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from cardarena.agents.evaluation.backends import single_threaded_children
    from cardarena.agents.parent_watch import watch_parent

    with (
        single_threaded_children(),  # the workers are as many as the cores
        ProcessPoolExecutor(
            min(workers, len(jobs)), mp.get_context("spawn"), initializer=watch_parent
        ) as pool,
    ):
        futures = [pool.submit(job, args) for args in jobs]
        out = []
        for args, future in zip(jobs, futures, strict=True):
            try:
                out.append(future.result())  # in the jobs' order
            except BrokenProcessPool:
                for f in futures:
                    f.cancel()
                raise CardArenaError(
                    f"a labelling worker process died (killed, or out of memory) while playing "
                    f"{_games_of(args)}; nothing of this round is kept"
                ) from None
            except CardArenaError:
                raise
            except Exception as err:  # noqa: BLE001 - a bug in an agent: say where
                for f in futures:
                    f.cancel()
                raise CardArenaError(
                    f"labelling {_games_of(args)} failed: {type(err).__name__}: "
                    f"{str(err).splitlines()[0] if str(err) else ''}"
                ) from None
        return out


def _games_of(job: tuple) -> str:
    game, _options, teacher, _network, seed, round_index, part = job
    return (
        f"{game} round {round_index} games {part[0]}..{part[-1]} (teacher {teacher}, seed {seed})"
        if part
        else f"{game} round {round_index}"
    )


def _run_ray(jobs: list[tuple], workers: int, address: str | None) -> list[dict[str, np.ndarray]]:
    from cardarena.agents.evaluation.backends import ray_session

    with ray_session(workers, address) as ray:
        task = ray.remote(num_cpus=1, max_retries=0)(_job)
        refs = [task.remote(job) for job in jobs]
        try:
            return ray.get(refs)  # in the jobs' order, wherever they ran
        except Exception as err:  # noqa: BLE001 - a task error or a dead worker
            for ref in refs:
                ray.cancel(ref, force=True)
            cause = getattr(err, "cause", None)
            if isinstance(cause, CardArenaError):
                raise ConfigError(str(cause)) from None
            raise CardArenaError(
                f"a Ray labelling task failed: {type(err).__name__}: "
                f"{str(err).splitlines()[0] if str(err) else ''}"
            ) from None
