"""Self-play training with MaskablePPO: config, opponent pool, callbacks, and the training run.

``train.py`` is a thin command line over :func:`train`. A run directory holds everything a run
makes: ``config.yaml`` (as used), ``tb/`` (TensorBoard), ``snapshots/`` (frozen copies of the
learner that opponents are drawn from), ``checkpoints/``, ``final.zip``, ``eval_history.json``,
``learning_curve.png`` and ``summary.json``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from agents import best_baseline, make_agent
from agents.base import Agent
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
    },
    "policy": {"net_arch": [128, 128], "activation": "tanh"},
    "opponents": {
        "scripted": {"random": 0.1},
        "latest": 0.45,
        "past": 0.45,
        "snapshot_every": 50_000,
        "max_snapshots": 20,
    },
    "eval": {"every": 50_000, "deals": 100, "against": None, "final_deals": 500},
    "checkpoint_every": 100_000,
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
    data = yaml.safe_load(path.read_text()) or {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: top level must be a mapping")
    return _merge(_merge(DEFAULTS, data), overrides or {})


class OpponentPool:
    """Where self-play opponents come from: frozen learner snapshots and scripted baselines.

    Each opponent seat is drawn independently: with probability ``latest`` the newest snapshot,
    ``past`` a uniformly chosen older snapshot, otherwise a scripted baseline by the weights of
    ``scripted``. Until the first snapshot exists the snapshot share goes to the scripted mix.
    Snapshots are read from ``snapshot_dir`` and loaded once per process (``refresh()`` picks up
    new files; workers of a SubprocVecEnv each keep their own cache).
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
        self.game = game
        self.snapshot_dir = Path(snapshot_dir)
        self.scripted_names = list(scripted)
        weights = np.array([scripted[k] for k in self.scripted_names], dtype=float)
        self.scripted_p = weights / weights.sum() if weights.sum() > 0 else weights
        self.latest, self.past = latest, past
        self.max_snapshots = max_snapshots
        self._scripted_agents = {name: [] for name in self.scripted_names}
        self._snapshots: list[tuple[str, Any]] = []  # (name, NumpyActor), oldest first
        self._loaded: set[str] = set()
        self._resets = 0

    def refresh(self) -> None:
        from agents.policy import load_actor

        if not self.snapshot_dir.exists():
            return
        for path in sorted(self.snapshot_dir.glob("*.zip")):
            if path.name not in self._loaded:
                self._loaded.add(path.name)
                self._snapshots.append((path.stem, load_actor(path)))
        self._snapshots = self._snapshots[-self.max_snapshots :]

    def __call__(self, rng: np.random.Generator, k: int) -> list[Agent]:
        from agents.policy import PolicyAgent

        self._resets += 1
        if self._resets % 16 == 1:
            self.refresh()
        out: list[Agent] = []
        for _ in range(k):
            u = rng.random()
            if self._snapshots and u < self.latest:
                name, actor = self._snapshots[-1]
                out.append(PolicyAgent(actor, name=f"snapshot:{name}", deterministic=False))
            elif self._snapshots and u < self.latest + self.past:
                name, actor = self._snapshots[int(rng.integers(len(self._snapshots)))]
                out.append(PolicyAgent(actor, name=f"snapshot:{name}", deterministic=False))
            else:
                name = self.scripted_names[
                    int(rng.choice(len(self.scripted_names), p=self.scripted_p))
                ]
                out.append(make_agent(self.game, name))
        return out


def _make_env_fn(cfg: dict[str, Any], rank: int, snapshot_dir: Path):
    def thunk():
        from envs.core.registry import get_spec
        from envs.core.single_agent import SelfPlayEnv

        opp = cfg["opponents"]
        pool = OpponentPool(
            cfg["game"],
            snapshot_dir,
            opp["scripted"],
            opp["latest"],
            opp["past"],
            opp["max_snapshots"],
        )
        cooperative = get_spec(cfg["game"]).cooperative
        return SelfPlayEnv(
            cfg["game"],
            cfg["env"],
            opponents=None if cooperative else pool,
            shared_policy=cooperative,  # cooperative games: one policy plays every seat
            seed=cfg["seed"] * 1000 + rank,
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
    from agents.policy import PolicyAgent
    from agents.tournament import play_game, summarise
    from envs.core.registry import get_spec

    spec = get_spec(game)
    n = spec.make_engine(**env_options).num_players
    records = []
    me = PolicyAgent(actor, name="learner")
    if spec.cooperative:  # the learner plays every seat; the team result is what counts
        from agents.tournament import summarise_coop

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


def train(cfg: dict[str, Any], progress_bar: bool = True) -> Path:
    """Run one self-play training; returns the run directory."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback, CallbackList
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from agents.policy import NumpyActor
    from envs.core.registry import get_spec

    game = cfg["game"]
    get_spec(game).make_engine(**cfg["env"])  # fail early on bad env options
    run_dir = Path(cfg["output_dir"])
    run_dir.mkdir(parents=True, exist_ok=True)
    snapshot_dir = run_dir / "snapshots"
    ckpt_dir = run_dir / "checkpoints"
    snapshot_dir.mkdir(exist_ok=True)
    ckpt_dir.mkdir(exist_ok=True)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    against = cfg["eval"]["against"] or best_baseline(game)

    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)
    vec = VecMonitor(
        DummyVecEnv([_make_env_fn(cfg, i, snapshot_dir) for i in range(cfg["n_envs"])])
    )
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[cfg["policy"]["activation"]]
    model = MaskablePPO(
        "MlpPolicy",
        vec,
        policy_kwargs={"net_arch": list(cfg["policy"]["net_arch"]), "activation_fn": activation},
        tensorboard_log=str(run_dir / "tb"),
        seed=cfg["seed"],
        device="cpu",
        verbose=0,
        **cfg["ppo"],
    )

    history: list[dict[str, float]] = []

    class SelfPlayCallback(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.wins: list[float] = []
            self.next_snapshot = 0
            self.next_eval = cfg["eval"]["every"]
            self.next_ckpt = cfg["checkpoint_every"]

        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                if "win" in info:
                    self.wins.append(info["win"])
            t = self.num_timesteps
            if t >= self.next_snapshot:
                self.model.save(snapshot_dir / f"step_{t:09d}.zip")
                self.next_snapshot = t + cfg["opponents"]["snapshot_every"]
            if t >= self.next_ckpt:
                self.model.save(ckpt_dir / f"step_{t:09d}.zip")
                self.next_ckpt = t + cfg["checkpoint_every"]
            if t >= self.next_eval:
                self._evaluate(t)
                self.next_eval = t + cfg["eval"]["every"]
            return True

        def _on_rollout_end(self) -> None:
            if self.wins:
                self.logger.record("selfplay/win_rate_in_pool", float(np.mean(self.wins[-500:])))

        def _evaluate(self, t: int) -> None:
            res = evaluate_actor(
                game,
                cfg["env"],
                NumpyActor(self.model.policy),
                against,
                cfg["eval"]["deals"],
                first_seed=10_000_000 + t,
            )
            res["timesteps"] = t
            res["seconds"] = time.perf_counter() - start
            history.append(res)
            self.logger.record(f"eval/win_rate_vs_{against}", res["win_rate"])
            self.logger.record(f"eval/mean_score_vs_{against}", res["mean_score"])
            print(
                f"\n[eval @ {t}] win rate vs {against}: {res['win_rate']:.3f} "
                f"[{res['ci_low']:.3f}, {res['ci_high']:.3f}]",
                flush=True,
            )

    start = time.perf_counter()
    model.learn(
        total_timesteps=cfg["total_timesteps"],
        callback=CallbackList([SelfPlayCallback()]),
        progress_bar=progress_bar,
    )
    train_seconds = time.perf_counter() - start
    model.save(run_dir / "final.zip")
    final = evaluate_actor(
        game,
        cfg["env"],
        NumpyActor(model.policy),
        against,
        cfg["eval"]["final_deals"],
        first_seed=20_000_000,
    )
    summary = {
        "game": game,
        "env": cfg["env"],
        "timesteps": int(model.num_timesteps),
        "train_seconds": round(train_seconds, 1),
        "steps_per_second": round(model.num_timesteps / train_seconds, 1),
        "final_eval": {"against": against, "deals": cfg["eval"]["final_deals"], **final},
    }
    (run_dir / "eval_history.json").write_text(json.dumps(history, indent=1))
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    spec = get_spec(game)
    par = None if spec.cooperative else 1 / spec.make_engine(**cfg["env"]).num_players
    label = (
        "team win rate (learner in every seat)" if spec.cooperative else f"win rate vs {against}"
    )
    plot_learning_curve(history, run_dir / "learning_curve.png", label, par)
    return run_dir


def plot_learning_curve(
    history: Sequence[dict[str, float]], path: Path, label: str, par: float | None
) -> None:
    """Greedy evaluation win rate over training, with its 95% band and the par line."""
    if not history:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = [h["timesteps"] for h in history]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(t, [h["win_rate"] for h in history], marker="o", label=label)
    ax.fill_between(t, [h["ci_low"] for h in history], [h["ci_high"] for h in history], alpha=0.2)
    if par is not None:
        ax.axhline(par, color="grey", ls="--", label=f"par ({par:.3g})")
    ax.set_xlabel("learner timesteps")
    ax.set_ylabel("win rate")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
