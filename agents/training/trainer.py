"""Self-play training with MaskablePPO: config, opponent pool, callbacks, and the training run.

``train.py`` is a thin command line over :func:`train`. A run directory holds everything a run
makes: ``config.yaml`` (as used), ``tb/`` (TensorBoard), ``snapshots/`` (frozen copies of the
learner that opponents are drawn from), ``checkpoints/``, ``final.zip``, ``eval_history.json``,
``learning_curve.png`` and ``summary.json``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from agents import best_baseline, make_agent, scripted_names
from agents.base import Agent
from agents.training.improve import improve_config
from envs.core import seeding
from envs.core.engine import ConfigError

DEFAULTS: dict[str, Any] = {
    "game": "flip6",
    "env": {},
    "seed": 0,
    "total_timesteps": 200_000,
    "n_envs": 8,
    "reward_shaping": 0.0,
    "output_dir": "runs/flip6",
    "ppo": {
        "learning_rate": 3e-4,
        "n_steps": 256,
        "batch_size": 512,
        "n_epochs": 5,
        "gamma": 0.995,
        "gae_lambda": 0.95,
        "clip_range": 0.2,
        "ent_coef": 0.01,
        "vf_coef": 0.5,
        "max_grad_norm": 0.5,
        "target_kl": None,
    },
    "policy": {"net_arch": [128, 128], "activation": "tanh"},
    "vec_env": "dummy",
    "torch_threads": {"rollout": 1, "update": None},
    "opponents": {
        "scripted": {"random": 0.1},
        "latest": 0.45,
        "past": 0.45,
        "prioritized": True,
        "priority_power": 1.0,
        "snapshot_every": 50_000,
        "snapshot_win_rate": None,
        "max_snapshots": 20,
    },
    "eval": {
        "every": 50_000,
        "deals": 100,
        "against": None,
        "baselines": "all",
        "final_deals": 500,
    },
    "checkpoint_every": 100_000,
    "warm_start": {
        "imitate": None,
        "games": 2000,
        "epochs": 15,
        "learning_rate": 1e-3,
        "lr_decay": 1.0,
        "rare_games": 0,
        "improve": None,
    },
}


#: mappings whose keys are free (replaced whole by the YAML, not merged key by key)
_FREE_MAPPINGS = ("env", "scripted")


def _merge(base: dict[str, Any], over: dict[str, Any], where: str = "") -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if key not in base:
            raise ConfigError(
                f"unknown config key {where + key!r}; known keys here: {sorted(base)}"
            )
        if isinstance(base[key], dict) and key not in _FREE_MAPPINGS:
            if not isinstance(value, dict):
                raise ConfigError(f"config key {where + key!r} must be a mapping")
            out[key] = _merge(base[key], value, f"{where}{key}.")
        else:
            out[key] = value
    return out


def load_config(path: str | Path, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """Read a YAML config over the defaults; unknown keys fail loudly with the known ones."""
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"config file {str(path)!r} not found")
    try:  # safe_load builds plain data only: a python/object tag is an error, never a call
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as err:
        raise ConfigError(f"{path} is not a valid YAML config: {err}") from None
    if data is None:
        raise ConfigError(
            f"{path} is empty; a config needs at least 'game:' (see configs/*.yaml for examples)"
        )
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: top level must be a mapping")
    cfg = _merge(_merge(DEFAULTS, data), overrides or {})
    improve_config(cfg["warm_start"]["improve"])  # bad improve settings fail before any work
    torch_threads(cfg)
    vec_env_class(cfg)
    rare = cfg["warm_start"]["rare_games"]
    if not isinstance(rare, int) or isinstance(rare, bool) or rare < 0:
        raise ConfigError(f"warm_start.rare_games must be an integer >= 0, got {rare!r}")
    decay = cfg["warm_start"]["lr_decay"]
    if not isinstance(decay, (int, float)) or not 0 < decay <= 1:
        raise ConfigError(f"warm_start.lr_decay must be in (0, 1], got {decay!r}")
    return cfg


def torch_threads(cfg: dict[str, Any]) -> tuple[int, int]:
    """(rollout, update) torch thread counts of a config's ``torch_threads``.

    Collecting rollouts runs the learner's network on one small batch per step, where extra
    threads only add overhead; the PPO update works on big minibatches and uses every core
    (``update: null`` = the cores this process may use)."""
    spec = cfg["torch_threads"]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    out = []
    for key, default in (("rollout", 1), ("update", cores or 1)):
        value = spec.get(key)
        value = default if value is None else value
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ConfigError(
                f"torch_threads.{key} must be a positive integer or null, got {value!r}"
            )
        out.append(value)
    return out[0], out[1]


def vec_env_class(cfg: dict[str, Any]) -> Any:
    """The VecEnv class of a config's ``vec_env``: ``dummy`` (every game in this process),
    ``split`` (a share here and the rest in one worker process, stepped at the same time:
    :mod:`agents.training.split_vec_env`) or ``subproc`` (one process per game)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from agents.training.split_vec_env import SplitVecEnv

    classes = {"dummy": DummyVecEnv, "split": SplitVecEnv, "subproc": SubprocVecEnv}
    if cfg["vec_env"] not in classes:
        raise ConfigError(f"vec_env must be one of {sorted(classes)}, got {cfg['vec_env']!r}")
    if cfg["vec_env"] == "split" and cfg["n_envs"] < 2:
        raise ConfigError("vec_env: split needs n_envs >= 2 (one game here, one in the worker)")
    return classes[cfg["vec_env"]]


def thread_switch(rollout: int, update: int) -> Any:
    """An SB3 callback that sets torch's thread count to ``rollout`` while collecting and to
    ``update`` for the PPO update that follows each rollout.

    numpy's BLAS (the network opponents' forward passes) gets ``rollout`` threads too: left at
    its default (every core) it spins threads for single-row products and fights the other
    process of a ``vec_env: split`` run for the cores (suicidium: ~2,170 against ~2,550 learner
    steps/s, bench/README.md)."""
    import torch
    from stable_baselines3.common.callbacks import BaseCallback
    from threadpoolctl import threadpool_limits

    class ThreadSwitch(BaseCallback):
        def _on_rollout_start(self) -> None:
            torch.set_num_threads(rollout)
            threadpool_limits(rollout, user_api="blas")

        def _on_rollout_end(self) -> None:
            torch.set_num_threads(update)
            threadpool_limits(update, user_api="blas")

        def _on_step(self) -> bool:
            return True

    return ThreadSwitch()


class OpponentPool:
    """Where self-play opponents come from: frozen learner snapshots and scripted baselines.

    Each opponent seat is drawn independently: with probability ``latest`` the newest snapshot,
    with probability ``past`` an older snapshot, otherwise a scripted baseline by the weights of
    ``scripted``. Older snapshots are drawn uniformly, or, with ``prioritized`` (prioritised
    fictitious self-play), in proportion to ``(1 - learner win rate against it) ** power``, so
    the snapshots that still beat the learner come back more often. The win rates are measured
    by the trainer and pushed to every env with :meth:`set_priorities`. Until the first
    snapshot exists the snapshot share goes to the scripted mix.

    Snapshots are read from ``snapshot_dir`` and loaded once per process: ``refresh()`` picks up
    new files (each SubprocVecEnv worker keeps its own cache; nothing is pickled per step).
    """

    def __init__(
        self,
        game: str,
        snapshot_dir: str | Path,
        scripted: dict[str, float],
        latest: float,
        past: float,
        max_snapshots: int = 20,
    ) -> None:
        if latest < 0 or past < 0 or latest + past > 1 + 1e-9:
            raise ConfigError("opponents.latest and .past must be >= 0 and add up to at most 1")
        if any(w < 0 for w in scripted.values()):
            raise ConfigError("opponents.scripted weights must be >= 0")
        if sum(scripted.values()) <= 0 and latest + past < 1:
            raise ConfigError("opponents.scripted needs a positive weight (or latest+past = 1)")
        for name in scripted:
            make_agent(game, name)  # unknown names fail here, with the known ones listed
        self.game = game
        self.snapshot_dir = Path(snapshot_dir)
        self.scripted_names = list(scripted)
        weights = np.array([scripted[k] for k in self.scripted_names], dtype=float)
        self.scripted_p = weights / weights.sum() if weights.sum() > 0 else weights
        self.latest, self.past = latest, past
        self.max_snapshots = max_snapshots
        self._snapshots: list[tuple[str, Any]] = []  # (name, NumpyActor), oldest first
        self._loaded: set[str] = set()
        self._priorities: dict[str, float] = {}
        self._resets = 0

    def refresh(self) -> None:
        from agents.policy import load_actor

        if not self.snapshot_dir.exists():
            return
        for path in sorted(self.snapshot_dir.glob("step_*.zip")):
            if path.name not in self._loaded:
                self._loaded.add(path.name)
                self._snapshots.append((path.stem, load_actor(path)))
        self._snapshots = self._snapshots[-self.max_snapshots :]

    def set_priorities(self, priorities: dict[str, float]) -> None:
        """Sampling weights of past snapshots by name (missing names weigh 1)."""
        self._priorities = dict(priorities)

    def _past_index(self, rng: np.random.Generator) -> int:
        if not self._priorities:
            return int(rng.integers(len(self._snapshots)))
        w = np.array([self._priorities.get(name, 1.0) for name, _ in self._snapshots]) + 1e-6
        return int(rng.choice(len(w), p=w / w.sum()))

    def __call__(self, rng: np.random.Generator, k: int) -> list[Agent]:
        from agents.policy import PolicyAgent

        self._resets += 1
        if self._resets % 16 == 1:
            self.refresh()
        out: list[Agent] = []
        for _ in range(k):
            u = rng.random()
            if self._snapshots and u < self.latest + self.past:
                i = len(self._snapshots) - 1 if u < self.latest else self._past_index(rng)
                name, actor = self._snapshots[i]
                out.append(PolicyAgent(actor, name=f"snapshot:{name}", deterministic=False))
            else:
                j = int(rng.choice(len(self.scripted_names), p=self.scripted_p))
                out.append(make_agent(self.game, self.scripted_names[j]))
        return out


def _make_env_fn(cfg: dict[str, Any], rank: int, snapshot_dir: Path):
    def thunk():
        from envs.core.registry import get_spec
        from envs.core.single_agent import SelfPlayEnv

        cooperative = get_spec(cfg["game"]).cooperative
        pool = None
        if not cooperative:
            opp = cfg["opponents"]
            pool = OpponentPool(
                cfg["game"],
                snapshot_dir,
                opp["scripted"],
                opp["latest"],
                opp["past"],
                opp["max_snapshots"],
            )
        return SelfPlayEnv(
            cfg["game"],
            cfg["env"],
            opponents=pool,
            shared_policy=cooperative,  # cooperative games: one policy plays every seat
            seed=seeding.derive(cfg["seed"], 2, rank),
            shaping=cfg["reward_shaping"],
        )

    return thunk


def evaluate_actor(
    game: str,
    env_options: dict[str, Any],
    actor: Any,
    against: str,
    deals: int,
    first_seed: int,
) -> dict[str, float]:
    """Win rate of ``actor`` (greedy) at a table of ``against`` players, every seat rotation."""
    from agents.evaluation.tournament import play_game, summarise
    from agents.policy import PolicyAgent
    from envs.core.registry import get_spec

    spec = get_spec(game)
    n = spec.make_engine(**env_options).num_players
    records = []
    me = PolicyAgent(actor, name="learner")
    if spec.cooperative:  # the learner plays every seat; the team result is what counts
        from agents.evaluation.tournament import summarise_coop

        for d in range(deals):
            seats = [PolicyAgent(actor, name="learner") for _ in range(n)]
            records.append(play_game(game, env_options, seats, first_seed + d, agent_seed=d))
        team = summarise_coop(records)[0]
        return {
            "win_rate": team.win_rate,
            "ci_low": team.win_ci[0],
            "ci_high": team.win_ci[1],
            "mean_score": team.mean_score,
        }
    others = [make_agent(game, against) for _ in range(n - 1)]
    for d in range(deals):
        for seat in range(n):
            seats: list[Any] = list(others)
            seats.insert(seat, me)
            rec = play_game(game, env_options, seats, first_seed + d, agent_seed=d)
            rec.lineup = ["learner" if i == seat else against for i in range(n)]
            records.append(rec)
    summary = {s.name: s for s in summarise(records, ["learner", against])}["learner"]
    return {
        "win_rate": summary.win_rate,
        "ci_low": summary.win_ci[0],
        "ci_high": summary.win_ci[1],
        "mean_score": summary.mean_score,
    }


#: decision kinds under this share of the teacher games' decisions count as rare (rare_games)
RARE_SHARE = 0.1


def imitation_warm_start(
    model: Any,
    game: str,
    env_options: dict[str, Any],
    teacher: str,
    games: int,
    epochs: int,
    learning_rate: float,
    shaping: float,
    seed: int,
    progress: bool = True,
    improve: dict[str, Any] | None = None,
    lr_decay: float = 1.0,
    threads: int = 1,
    rare_games: int = 0,
) -> dict[str, Any]:
    """Behaviour cloning before PPO ("kickstarting"): fit the policy to ``teacher``'s decisions
    and the value head to the return-to-go, on ``games`` games the teacher plays in every seat.

    PPO then starts from the teacher's level instead of spending millions of steps re-deriving
    it. With ``improve`` (``warm_start.improve``), every decision is relabelled by rollouts
    (:mod:`agents.training.improve`): the policy imitates the teacher improved by one step of policy
    iteration, which is how a trained agent gets above the teacher. The value target matches what the self-play env pays: the seat's final return, minus
    ``shaping * potential`` at the decision (the shaping still to come sums to exactly that).

    ``rare_games`` more teacher games add only their rare decisions: the kinds
    (``engine.decision_name``) that make up less than :data:`RARE_SHARE` of the first games'
    decisions (sevn: FREEZE / FLIP_THREE targets, FORK), so that the network sees enough of
    them; the common kinds already have plenty of examples. With ``improve`` they go to the
    plain-teacher pretraining (``improve.pretrain_games``), so they need one.
    """
    import torch

    from envs.core.registry import get_spec

    spec = get_spec(game)
    engine = spec.make_engine(**env_options)
    obs_rows, mask_rows, act_rows, seat_rows, game_rows, pot_rows = [], [], [], [], [], []
    finals = []
    agents = [make_agent(game, teacher) for _ in range(engine.num_players)]
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    rng = np.random.default_rng(seed)
    extra: dict[str, Any] = {}
    weights = None
    if improve is not None:
        from agents.training.improve import improved_dataset

        # labels first: the labelling forks worker processes, which must happen before torch
        # starts its thread pool for the cloning
        data = improved_dataset(game, env_options, teacher, games, improve, seed, progress)
        pretrain_agreement = None
        if improve["pretrain_games"]:  # clone the plain teacher first, on cheap games
            first = imitation_warm_start(
                model,
                game,
                env_options,
                teacher,
                improve["pretrain_games"],
                epochs,
                learning_rate,
                shaping,
                seed + 1,
                progress,
                lr_decay=lr_decay,
                threads=threads,
                rare_games=rare_games,
            )
            pretrain_agreement = first["agreement"]
        changed = data["improved"] != data["teacher"]
        weights = np.where(changed, float(improve["changed_weight"]), 1.0).astype(np.float32)
        obs_rows, mask_rows, act_rows = list(data["obs"]), list(data["mask"]), data["improved"]
        seat_rows, game_rows, pot_rows = data["seat"], data["game"], data["pot"]
        finals = list(data["finals"])
        extra = {
            "improved": True,
            "changed_share": data["changed"],
            "leaf_value_rows": data["leaf_rows"],
            "leaf_value_r2": data["leaf_r2"],
        }
        if pretrain_agreement is not None:
            extra["pretrain_agreement"] = pretrain_agreement
    plain = 0 if improve is not None else games
    if improve is not None:
        rare_games = 0  # the pretraining (above) took them
    iterator: Any = range(plain + rare_games)
    if progress and (plain + rare_games):
        from tqdm import tqdm

        iterator = tqdm(iterator, desc=f"imitating {teacher}", unit="game")
    kinds: dict[str, int] = {}
    rare: set[str] = set()
    rare_rows = 0
    for g in iterator:
        if g == plain:  # the first games are done: which kinds are rare?
            total = sum(kinds.values())
            rare = {k for k, c in kinds.items() if c < RARE_SHARE * total}
        state = engine.new_game(np.random.default_rng(int(rng.integers(2**63))))
        for i, agent in enumerate(agents):
            agent.reset(int(rng.integers(2**31)) + i)
        while not engine.is_over(state):
            seat = engine.current_player(state)
            kind = engine.decision_name(state)
            keep = g < plain or kind in rare
            mask[:] = 0
            mask[engine.legal_actions(state)] = 1
            reads = keep or getattr(agents[seat], "uses_observation", True)
            obs = spec.encode(state, seat) if reads else None
            action = int(agents[seat].act(obs, mask, spec.view(state, seat)))
            if keep:
                obs_rows.append(obs)
                mask_rows.append(mask.astype(bool))
                act_rows.append(action)
                seat_rows.append(seat)
                game_rows.append(g)
                pot_rows.append(engine.potential(state, seat))
                if g < plain:
                    kinds[kind] = kinds.get(kind, 0) + 1
                else:
                    rare_rows += 1
            engine.apply(state, action, seat)
        finals.append(engine.returns(state))
    if rare_games:
        extra["rare_kinds"] = sorted(rare)
        extra["rare_decisions"] = rare_rows
    finals_arr = np.asarray(finals, dtype=np.float32)
    obs_t = torch.as_tensor(np.asarray(obs_rows))
    mask_np = np.asarray(mask_rows)
    act_t = torch.as_tensor(np.asarray(act_rows))
    target = finals_arr[np.asarray(game_rows), np.asarray(seat_rows)] - shaping * np.asarray(
        pot_rows, dtype=np.float32
    )
    target_t = torch.as_tensor(target)
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    n = len(act_rows)
    order_rng = np.random.default_rng(seed + 1)
    policy.set_training_mode(True)
    weights_t = None if weights is None else torch.as_tensor(weights)
    # the fitting uses ``threads`` torch threads (labelling workers, if any, are done by now)
    threads_before = torch.get_num_threads()
    torch.set_num_threads(threads)
    epoch_iter: Any = range(epochs)
    if progress:
        from tqdm import tqdm

        epoch_iter = tqdm(epoch_iter, desc=f"cloning {n} decisions", unit="epoch")
    for _ in epoch_iter:
        order = order_rng.permutation(n)
        for start in range(0, n, 512):
            idx = order[start : start + 512]
            values, log_prob, _ = policy.evaluate_actions(
                obs_t[idx], act_t[idx], action_masks=mask_np[idx]
            )
            if weights is None:
                nll = -log_prob.mean()
            else:  # decisions the rollouts changed may count more: they are few
                w = weights_t[idx]
                nll = -(log_prob * w).sum() / w.sum()
            loss = nll + 0.5 * torch.nn.functional.mse_loss(values.flatten(), target_t[idx])
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
        for group in optimizer.param_groups:  # per-epoch decay: settle on the labels
            group["lr"] *= lr_decay
    policy.set_training_mode(False)
    with torch.no_grad():
        dist = policy.get_distribution(obs_t, action_masks=mask_np)
        agree = float((dist.distribution.probs.argmax(dim=1) == act_t).float().mean())
    torch.set_num_threads(threads_before)
    return {"teacher": teacher, "decisions": n, "games": games, "agreement": agree, **extra}


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def save_model(model: Any, path: Path, cfg: dict[str, Any], training: bool = False) -> None:
    """Write the learner as a cardarena checkpoint (:mod:`agents.checkpoint`: JSON and arrays,
    atomically); ``training`` adds the optimizer's state for ``--resume``."""
    from agents import checkpoint

    arrays = checkpoint.state_arrays(model.policy)
    meta: dict[str, Any] = {
        "game": cfg["game"],
        "env": cfg["env"],
        "policy": {**cfg["policy"], "net_arch": list(cfg["policy"]["net_arch"])},
        "timesteps": int(model.num_timesteps),
    }
    if training:
        state = model.policy.optimizer.state_dict()
        meta["optimizer"] = checkpoint.split_tensors(state, arrays, "optimizer/")
    checkpoint.write(path, meta, arrays)


def load_model_state(model: Any, path: Path) -> None:
    """Restore a training checkpoint of :func:`save_model` into a freshly built ``model``."""
    import torch

    from agents import checkpoint

    meta, arrays = checkpoint.read(path)
    names = list(model.policy.state_dict())
    missing = [k for k in names if k not in arrays]
    if missing or "optimizer" not in meta:
        raise ConfigError(
            f"{path} does not fit this run's network (missing {missing[:3]}"
            f"{' and the optimizer state' if 'optimizer' not in meta else ''}); start a new run"
        )
    try:
        model.policy.load_state_dict({k: torch.from_numpy(arrays[k].copy()) for k in names})
        model.policy.optimizer.load_state_dict(checkpoint.join_tensors(meta["optimizer"], arrays))
    except (RuntimeError, ValueError, KeyError) as err:
        raise ConfigError(f"{path} does not fit this run's network: {err}") from None
    model.num_timesteps = int(meta["timesteps"])


def _latest_checkpoint(run_dir: Path) -> tuple[Path, dict[str, Any]]:
    state_path = run_dir / "trainer_state.json"
    if not state_path.exists():
        raise ConfigError(
            f"{run_dir} has no trainer_state.json: it is not a run directory, or it was killed "
            f"before its first checkpoint (then start it again without --resume)"
        )
    state = json.loads(state_path.read_text())
    return run_dir / "checkpoints" / state["checkpoint"], state


def train(cfg: dict[str, Any], progress_bar: bool = True, resume: bool = False) -> Path:
    """Run (or, with ``resume``, continue) one self-play training; returns the run directory.

    Every ``checkpoint_every`` steps the model (weights and optimizer), the step count, the
    evaluation history, the opponent statistics and the schedule are saved atomically, so a run
    killed at any moment continues from its last checkpoint with ``train.py --resume RUN_DIR``.
    """
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecMonitor

    from agents.policy import NumpyActor
    from agents.training.masked_policy import FastMaskablePolicy
    from envs.core.registry import get_spec

    game = cfg["game"]
    spec = get_spec(game)
    num_players = spec.make_engine(**cfg["env"]).num_players  # fails early on bad env options
    run_dir = Path(cfg["output_dir"])
    snapshot_dir = run_dir / "snapshots"
    ckpt_dir = run_dir / "checkpoints"
    state: dict[str, Any] = {}
    if resume:
        ckpt_path, state = _latest_checkpoint(run_dir)
        # snapshots taken after the checkpoint belong to the lost stretch of the run
        for snap in snapshot_dir.glob("step_*.zip"):
            if int(snap.stem.split("_")[1]) > state["timesteps"]:
                snap.unlink()
        for partial in run_dir.rglob(".tmp_*"):  # saves cut short by the kill
            partial.unlink()
    else:
        if (run_dir / "trainer_state.json").exists():
            raise ConfigError(
                f"{run_dir} already holds a run; continue it with --resume {run_dir} or choose "
                f"another --output-dir"
            )
        run_dir.mkdir(parents=True, exist_ok=True)
        snapshot_dir.mkdir(exist_ok=True)
        ckpt_dir.mkdir(exist_ok=True)
        (run_dir / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    against = cfg["eval"]["against"] or best_baseline(game)
    if spec.cooperative:
        eval_against = [against]
    elif cfg["eval"]["baselines"] == "all":
        eval_against = list(dict.fromkeys([*scripted_names(game), against]))
    else:
        eval_against = list(dict.fromkeys([*cfg["eval"]["baselines"], against]))

    torch.manual_seed(cfg["seed"] + int(state.get("timesteps", 0)))
    rollout_threads, update_threads = torch_threads(cfg)
    # one thread until PPO starts: the warm start may fork labelling workers, and a forked child
    # must not inherit a running OpenMP pool
    torch.set_num_threads(rollout_threads)
    vec_cls = vec_env_class(cfg)
    offset = int(state.get("timesteps", 0))  # new env seeds after a resume
    vec = VecMonitor(
        vec_cls([_make_env_fn(cfg, offset + i, snapshot_dir) for i in range(cfg["n_envs"])])
    )
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[cfg["policy"]["activation"]]
    model = MaskablePPO(
        FastMaskablePolicy,  # MaskableActorCriticPolicy, bit for bit, with less overhead
        vec,
        policy_kwargs={
            "net_arch": list(cfg["policy"]["net_arch"]),
            "activation_fn": activation,
        },
        tensorboard_log=str(run_dir / "tb"),
        seed=cfg["seed"],
        device="cpu",
        verbose=0,
        **cfg["ppo"],
    )
    if resume:
        load_model_state(model, ckpt_path)

    warm = cfg["warm_start"]
    if not resume and warm["imitate"]:
        info = imitation_warm_start(
            model,
            game,
            cfg["env"],
            warm["imitate"],
            warm["games"],
            warm["epochs"],
            warm["learning_rate"],
            cfg["reward_shaping"],
            cfg["seed"],
            progress=progress_bar,
            improve=improve_config(warm["improve"]),
            lr_decay=warm["lr_decay"],
            threads=update_threads,
            rare_games=warm["rare_games"],
        )
        print(
            f"warm start: imitated {info['teacher']} on {info['decisions']} decisions "
            f"({info['games']} games); greedy agreement {info['agreement']:.3f}"
            + (
                f"; rollouts changed {info['changed_share']:.1%} of the teacher's choices "
                f"(leaf value R^2 {info['leaf_value_r2']:.3f})"
                if info.get("improved")
                else ""
            ),
            flush=True,
        )
        _atomic_write(run_dir / "warm_start.json", json.dumps(info))

    history: list[dict[str, Any]] = list(state.get("history", []))
    opp_cfg = cfg["opponents"]
    start = time.perf_counter() - float(state.get("train_seconds", 0.0))

    class SelfPlayCallback(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.wins: list[float] = list(state.get("recent_wins", []))
            # per opponent name: [learner wins, games]
            self.vs: dict[str, list[float]] = {k: list(v) for k, v in state.get("vs", {}).items()}
            t0 = int(state.get("timesteps", 0))
            self.next_snapshot = state.get("next_snapshot", 0)
            self.next_eval = state.get("next_eval", cfg["eval"]["every"])
            self.next_ckpt = state.get("next_ckpt", t0 + cfg["checkpoint_every"])
            self.wins_at_snapshot = 0

        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                if "win" in info:
                    self.wins.append(info["win"])
                    for name in info["opponents"]:
                        if name.startswith("snapshot:"):
                            rec = self.vs.setdefault(name[9:], [0.0, 0.0])
                            rec[0] += info["win"]
                            rec[1] += 1
            self.wins = self.wins[-500:]
            t = self.num_timesteps
            threshold = opp_cfg["snapshot_win_rate"]
            beat_pool = (
                threshold is not None
                and len(self.wins) - self.wins_at_snapshot >= 200
                and float(np.mean(self.wins[-200:])) > threshold
            )
            if t >= self.next_snapshot or beat_pool:
                save_model(self.model, snapshot_dir / f"step_{t:09d}.zip", cfg)
                self.next_snapshot = t + opp_cfg["snapshot_every"]
                self.wins_at_snapshot = len(self.wins)
            if t >= self.next_eval:
                self._evaluate(t)
                self.next_eval = t + cfg["eval"]["every"]
            if t >= self.next_ckpt:
                self._checkpoint(t)
                self.next_ckpt = t + cfg["checkpoint_every"]
            return True

        def _on_rollout_end(self) -> None:
            if self.wins:
                self.logger.record("selfplay/win_rate_in_pool", float(np.mean(self.wins)))
            if opp_cfg["prioritized"] and self.vs:
                # PFSP: weight (1 - learner's smoothed win rate against the snapshot) ** power
                par = 1.0 / num_players
                prio = {
                    name: (1.0 - (w + par) / (g + 1.0)) ** opp_cfg["priority_power"]
                    for name, (w, g) in self.vs.items()
                }
                self.training_env.env_method("set_opponent_priorities", prio)

        def _checkpoint(self, t: int) -> None:
            name = f"step_{t:09d}.zip"
            save_model(self.model, ckpt_dir / name, cfg, training=True)
            payload = {
                "timesteps": t,
                "checkpoint": name,
                "history": history,
                "recent_wins": self.wins,
                "vs": self.vs,
                "next_snapshot": self.next_snapshot,
                "next_eval": self.next_eval,
                "next_ckpt": t + cfg["checkpoint_every"],
                "train_seconds": time.perf_counter() - start,
            }
            _atomic_write(run_dir / "trainer_state.json", json.dumps(payload))

        def _evaluate(self, t: int) -> None:
            actor = NumpyActor.from_policy(self.model.policy)
            entry: dict[str, Any] = {"timesteps": t, "seconds": time.perf_counter() - start}
            for name in eval_against:
                res = evaluate_actor(
                    game, cfg["env"], actor, name, cfg["eval"]["deals"], first_seed=10_000_000 + t
                )
                entry[name] = res
                tag = "team" if spec.cooperative else f"vs_{name}"
                self.logger.record(f"eval/win_rate_{tag}", res["win_rate"])
                self.logger.record(f"eval/mean_score_{tag}", res["mean_score"])
            entry.update(entry[against])  # the headline figures: against the best baseline
            history.append(entry)
            print(
                f"\n[eval @ {t}] win rate vs {against}: {entry['win_rate']:.3f} "
                f"[{entry['ci_low']:.3f}, {entry['ci_high']:.3f}]",
                flush=True,
            )

    remaining = cfg["total_timesteps"] - int(state.get("timesteps", 0))
    if remaining > 0:
        model.learn(
            total_timesteps=remaining,
            callback=[thread_switch(rollout_threads, update_threads), SelfPlayCallback()],
            progress_bar=progress_bar,
            reset_num_timesteps=not resume,
        )
    train_seconds = time.perf_counter() - start
    vec.close()
    save_model(model, run_dir / "final.zip", cfg)
    final = evaluate_actor(
        game,
        cfg["env"],
        NumpyActor.from_policy(model.policy),
        against,
        cfg["eval"]["final_deals"],
        first_seed=20_000_000,
    )
    summary = {
        "game": game,
        "env": cfg["env"],
        "timesteps": int(model.num_timesteps),
        "train_seconds": round(train_seconds, 1),
        "steps_per_second": round(model.num_timesteps / max(train_seconds, 1e-9), 1),
        "resumed": resume,
        "final_eval": {"against": against, "deals": cfg["eval"]["final_deals"], **final},
    }
    _atomic_write(run_dir / "eval_history.json", json.dumps(history, indent=1))
    _atomic_write(run_dir / "summary.json", json.dumps(summary, indent=1))
    par = None if spec.cooperative else 1 / num_players
    plot_learning_curve(
        history, run_dir / "learning_curve.png", eval_against, par, team=spec.cooperative
    )
    return run_dir


def plot_learning_curve(
    history: Sequence[dict[str, Any]],
    path: Path,
    baselines: Sequence[str],
    par: float | None,
    team: bool = False,
) -> None:
    """Greedy evaluation win rate over training against each baseline, 95% bands, par line."""
    if not history:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = [h["timesteps"] for h in history]
    fig, ax = plt.subplots(figsize=(7, 4))
    for name in baselines:
        rows = [h[name] for h in history]
        label = "team win rate (learner in every seat)" if team else f"vs {name}"
        ax.plot(t, [r["win_rate"] for r in rows], marker="o", label=label)
        ax.fill_between(t, [r["ci_low"] for r in rows], [r["ci_high"] for r in rows], alpha=0.15)
    if par is not None:
        ax.axhline(par, color="grey", ls="--", label=f"par ({par:.3g})")
    ax.set_xlabel("learner timesteps")
    ax.set_ylabel("greedy win rate")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
