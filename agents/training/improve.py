"""Rollout policy improvement: one step of policy iteration over a scripted teacher.

Cloning a good baseline only reaches the baseline, and PPO's signal on top of it (one win or loss
per game, four players) is too noisy to move a 4-player win rate by a point or two within this
machine's budget. This module makes the labels better instead: for a decision of the teacher's
games it tries every legal action on sampled deals and keeps the one that does best, so the
network is trained to imitate a policy that is at least as good as the teacher (the policy
improvement theorem, with the teacher playing every seat in the rollouts).

* **Sampled deals.** ``engine.resample_hidden(state, seat, rng)`` redraws what ``seat`` cannot see
  consistently with what it saw, so the choice uses only the seat's information.
* **Truncated rollouts.** From the position after each action the teacher plays every seat to the
  end of the round (``engine.round_index``); the end of the game is valued by its payoff, a round
  boundary by a small network fitted to the final payoffs of teacher games
  (:func:`fit_leaf_value` on ``engine.round_features``). Whole-game rollouts are far noisier: with
  them the improved choice measured *worse* than the teacher (flip6: 0.17 against three ``ev``).
* **Common random numbers and a gate.** Every action is tried on the same sampled deals; an action
  replaces the teacher's only when its mean advantage is above ``gate`` standard errors. Decisions
  that are clear after ``min_rollouts`` samples stop early.

Labelling runs in ``workers`` processes; it is deterministic for a given seed and worker count.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardarena.agents import make_agent
from cardarena.agents.search.leaf import LeafValue, fit_leaf_value
from cardarena.agents.search.leaf import round_value_rows as _round_value_rows
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.loop import play

#: keys of ``warm_start.improve`` in a training config, with their defaults
IMPROVE_DEFAULTS: dict[str, Any] = {
    "rollouts": 64,  # most sampled deals per decision
    "min_rollouts": 16,  # deals after which a clear decision stops early
    "gate": 1.5,  # standard errors an action must gain to replace the teacher's
    "value_games": 10000,  # teacher games whose round boundaries fit the leaf value
    "value_epochs": 15,
    "workers": 2,  # processes for the value games and the labelling
    "pretrain_games": 0,  # first clone the plain teacher on this many games (0 = no)
    "changed_weight": 1.0,  # loss weight of decisions where the rollouts overruled the teacher
}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def improve_config(raw: Any) -> dict[str, Any] | None:
    """Validate ``warm_start.improve`` (None/null = off) against :data:`IMPROVE_DEFAULTS`."""
    if raw is None or raw is False:
        return None
    if raw is True:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(f"warm_start.improve must be null or a mapping, got {raw!r}")
    unknown = [str(k) for k in raw if k not in IMPROVE_DEFAULTS]
    if unknown:
        raise ConfigError(
            f"unknown config key(s) warm_start.improve.{unknown}; known: {sorted(IMPROVE_DEFAULTS)}"
        )
    cfg = {**IMPROVE_DEFAULTS, **raw}
    rules = [
        (key, "a positive integer", lambda v: isinstance(v, int) and _number(v) and v >= 1)
        for key in ("rollouts", "min_rollouts", "value_games", "value_epochs", "workers")
    ] + [
        (
            "pretrain_games",
            "an integer >= 0",
            lambda v: isinstance(v, int) and _number(v) and v >= 0,
        ),
        ("changed_weight", "a number > 0", lambda v: _number(v) and v > 0),
        ("gate", "a number >= 0", lambda v: _number(v) and v >= 0),
    ]
    for key, text, ok in rules:
        if not ok(cfg[key]):
            raise ConfigError(f"warm_start.improve.{key} must be {text}, got {cfg[key]!r}")
    if cfg["min_rollouts"] > cfg["rollouts"]:
        raise ConfigError("warm_start.improve.min_rollouts must be <= rollouts")
    return cfg


def _mask(engine: Any, state: Any) -> np.ndarray:
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    mask[engine.legal_actions(state)] = 1
    return mask


class Improver:
    """Chooses, for one decision, the best action by truncated rollouts (see the module doc)."""

    def __init__(
        self,
        game: str,
        env_options: dict[str, Any],
        teacher: str,
        leaf: LeafValue,
        cfg: dict[str, Any],
        seed: int,
    ) -> None:
        from cardarena.envs.core.registry import get_spec

        self.spec = get_spec(game)
        self.engine = self.spec.make_engine(**env_options)
        self.agents = [make_agent(game, teacher, seed=i) for i in range(self.engine.num_players)]
        self.leaf = leaf
        self.cfg = cfg
        self.rng = np.random.default_rng(seed)

    def _rollout(self, state: Any, seat: int) -> tuple[float | None, np.ndarray | None]:
        engine, spec = self.engine, self.spec
        start = engine.round_index(state)
        play(spec, engine, state, self.agents, until=lambda st: engine.round_index(st) != start)
        if engine.is_over(state):
            return float(engine.returns(state)[seat]), None
        return None, engine.round_features(state, seat)

    def _samples(self, state: Any, seat: int, legal: list[int], count: int) -> np.ndarray:
        engine = self.engine
        values = np.zeros((len(legal), count))
        pending: list[tuple[int, int, np.ndarray]] = []
        for k in range(count):
            deal = engine.to_dict(engine.resample_hidden(state, seat, self.rng))
            for i, action in enumerate(legal):
                trial = engine.from_dict(deal)
                engine.apply(trial, action, seat)
                final, features = self._rollout(trial, seat)
                if features is None:
                    values[i, k] = final
                else:
                    pending.append((i, k, features))
        if pending:
            leaf = self.leaf(np.asarray([f for _, _, f in pending]))
            for (i, k, _), v in zip(pending, leaf, strict=True):
                values[i, k] = v
        return values

    def choose(self, state: Any, seat: int, teacher_action: int) -> int:
        legal = self.engine.legal_actions(state)
        if len(legal) < 2:
            return teacher_action
        t = legal.index(teacher_action)
        values = self._samples(state, seat, legal, self.cfg["min_rollouts"])

        def best(vals: np.ndarray, z: float) -> int | None:
            """The other action with the best mean advantage, if it beats ours by z SEs."""
            adv = vals - vals[t]
            mean = adv.mean(axis=1)
            se = adv.std(axis=1, ddof=1) / np.sqrt(vals.shape[1]) + 1e-12
            mean[t] = -np.inf
            b = int(np.argmax(mean))
            return b if mean[b] - z * se[b] > 0 else None

        # stop early when no action could plausibly beat the teacher's (2 standard errors)
        if best(values, -2.0) is None:
            return teacher_action
        more = self.cfg["rollouts"] - self.cfg["min_rollouts"]
        if more > 0:
            values = np.concatenate([values, self._samples(state, seat, legal, more)], axis=1)
        b = best(values, float(self.cfg["gate"]))
        return teacher_action if b is None else legal[b]


def _label_games(job: tuple) -> dict[str, Any]:
    """Worker: teacher games; every decision recorded with the teacher's and the improved action."""
    from cardarena.envs.core.registry import get_spec

    game, env_options, teacher, leaf, cfg, seeds, worker_seed, privileged = job
    spec = get_spec(game)
    hidden = None
    if privileged:  # a privileged critic's rows: [observation | hidden state]
        from cardarena.agents.training.privileged import privileged_module

        hidden = privileged_module(game).encode_privileged
    engine = spec.make_engine(**env_options)
    improver = Improver(game, env_options, teacher, leaf, cfg, worker_seed)
    agents = [make_agent(game, teacher, seed=i) for i in range(engine.num_players)]
    out: dict[str, list] = {k: [] for k in ("obs", "mask", "teacher", "improved", "seat", "pot")}
    games: list[list[float]] = []
    counts: list[int] = []
    for seed in seeds:
        state = engine.new_game(np.random.default_rng(seed))
        n = 0
        while not engine.is_over(state):
            seat = engine.current_player(state)
            mask = _mask(engine, state)
            obs = spec.encode(state, seat)
            action = int(agents[seat].act(obs, mask, spec.view(state, seat)))
            out["obs"].append(obs if hidden is None else np.concatenate([obs, hidden(state, seat)]))
            out["mask"].append(mask.astype(bool))
            out["teacher"].append(action)
            out["improved"].append(improver.choose(state, seat, action))
            out["seat"].append(seat)
            out["pot"].append(engine.potential(state, seat))
            engine.apply(state, action, seat)
            n += 1
        games.append(list(engine.returns(state)))
        counts.append(n)
    return {**out, "finals": games, "counts": counts}


def _pool_map(
    fn: Any, jobs: list, workers: int, progress: str | None, budget: Any = None, phase: str = ""
) -> list:
    """Map ``fn`` over ``jobs`` in ``workers`` processes (in order), with a progress bar;
    ``budget`` (a :class:`~agents.training.budget.TimeBudget`) stops it between jobs (after the
    first), the results so far kept and the jobs in flight dropped."""
    from cardarena.agents.training.budget import TimeBudget

    budget = budget if budget is not None else TimeBudget(None)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(jobs), desc=progress, unit="job")
    results: list = []
    if workers <= 1:
        for job in budget.steps(jobs, phase, len(jobs), "jobs"):
            results.append(fn(job))
            if bar:
                bar.update()
    else:
        import multiprocessing as mp

        from cardarena.agents.parent_watch import watch_parent

        with mp.get_context("fork").Pool(workers, initializer=watch_parent) as pool:
            for res in budget.steps(pool.imap(fn, jobs), phase, len(jobs), "jobs"):
                results.append(res)
                if bar:
                    bar.update()
    if bar:
        bar.close()
    return results


def improved_dataset(
    game: str,
    env_options: dict[str, Any],
    teacher: str,
    games: int,
    cfg: dict[str, Any],
    seed: int,
    progress: bool = True,
    privileged: bool = False,
    budget: Any = None,
) -> dict[str, Any]:
    """Teacher games with every decision relabelled by :class:`Improver`; ``privileged``: each
    row's ``obs`` is ``[observation | hidden state]`` (a privileged critic's input); ``budget``
    stops the value games and the labelling between jobs.

    Returns the arrays ``obs``, ``mask``, ``teacher``, ``improved``, ``seat``, ``game``, ``pot``,
    the final returns per game (``finals``) and facts about the leaf value and the labels.
    """
    from cardarena.envs.core.registry import get_spec

    engine = get_spec(game).make_engine(**env_options)
    if engine.round_index(engine.new_game(np.random.default_rng(0))) is None:
        raise ConfigError(
            f"{game} has no rounds (engine.round_index), so rollout improvement does not apply; "
            f"set warm_start.improve to null"
        )
    rng = np.random.default_rng(seed)
    workers = cfg["workers"]
    value_seeds = [int(s) for s in rng.integers(2**62, size=cfg["value_games"])]
    chunk = max(1, -(-len(value_seeds) // (workers * 8)))
    jobs = [
        (game, env_options, teacher, value_seeds[i : i + chunk])
        for i in range(0, len(value_seeds), chunk)
    ]
    parts = _pool_map(
        _round_value_rows,
        jobs,
        workers,
        "leaf value games" if progress else None,
        budget,
        "warm start: leaf value games",
    )
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    leaf, r2 = fit_leaf_value(x, y, epochs=cfg["value_epochs"], seed=seed)

    label_seeds = [int(s) for s in rng.integers(2**62, size=games)]
    chunk = max(1, -(-games // (workers * 16)))
    jobs = [
        (
            game,
            env_options,
            teacher,
            leaf,
            cfg,
            label_seeds[i : i + chunk],
            seed + 7919 * (i + 1),
            privileged,
        )
        for i in range(0, games, chunk)
    ]
    parts = _pool_map(
        _label_games,
        jobs,
        workers,
        "improving labels" if progress else None,
        budget,
        "warm start: rollout labelling",
    )
    data: dict[str, Any] = {}
    for key in ("obs", "mask", "teacher", "improved", "seat", "pot"):
        data[key] = np.asarray([row for p in parts for row in p[key]])
    counts = [c for p in parts for c in p["counts"]]
    data["game"] = np.repeat(np.arange(len(counts)), counts)
    data["finals"] = np.asarray([f for p in parts for f in p["finals"]], dtype=np.float32)
    data["leaf_rows"] = int(len(x))
    data["leaf_r2"] = float(r2)
    data["changed"] = float(np.mean(data["teacher"] != data["improved"]))
    return data
