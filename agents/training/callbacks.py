"""The SB3 callbacks of a training run: torch's thread switch between rollouts and updates, and
the self-play bookkeeping (snapshots for the opponent pool, evaluations, checkpoints)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from stable_baselines3.common.callbacks import BaseCallback
from threadpoolctl import threadpool_limits

from cardarena.agents.training.checkpoints import atomic_write, save_model
from cardarena.agents.training.config import TrainConfig
from cardarena.agents.training.learner_eval import eval_opponents, evaluate_actor

#: learner games of the pool win rate (TensorBoard; snapshot_win_rate looks at the last 200)
RECENT_GAMES = 500


class ThreadSwitch(BaseCallback):
    """Sets torch's thread count to ``rollout`` while collecting and to ``update`` for the PPO
    update that follows each rollout.

    numpy's BLAS (the network opponents' forward passes) gets ``rollout`` threads too: left at
    its default (every core) it spins threads for single-row products and fights the other
    process of a ``vec_env: split`` run for the cores (suicidium: ~2,170 against ~2,550 learner
    steps/s, bench/README.md)."""

    def __init__(self, rollout: int, update: int) -> None:
        super().__init__()
        self.rollout, self.update = rollout, update

    def _on_rollout_start(self) -> None:
        torch.set_num_threads(self.rollout)
        threadpool_limits(self.rollout, user_api="blas")

    def _on_rollout_end(self) -> None:
        torch.set_num_threads(self.update)
        threadpool_limits(self.update, user_api="blas")

    def _on_step(self) -> bool:
        return True


class SelfPlayCallback(BaseCallback):
    """Snapshots of the learner (the opponent pool's past selves), prioritised fictitious
    self-play weights, greedy evaluations and ``--resume`` checkpoints, on the schedule of
    ``cfg``; ``state`` is the trainer state of the checkpoint a resumed run continues from."""

    def __init__(
        self,
        cfg: TrainConfig,
        run_dir: Path,
        state: dict[str, Any],
        num_players: int,
        cooperative: bool,
        start: float,
        budget: Any = None,
    ) -> None:
        super().__init__()
        self.cfg = cfg
        self.run_dir = run_dir
        self.num_players = num_players
        self.cooperative = cooperative
        self.start = start  # perf_counter() at the run's start (earlier if resumed)
        self.budget = budget  # the run's TimeBudget: its time so far goes into checkpoints
        self.against, self.eval_against = eval_opponents(cfg, cooperative)
        self.history: list[dict[str, Any]] = list(state.get("history", []))
        self.wins: list[float] = list(state.get("recent_wins", []))
        # per opponent name: [learner wins, games]
        self.vs: dict[str, list[float]] = {k: list(v) for k, v in state.get("vs", {}).items()}
        t0 = int(state.get("timesteps", 0))
        self.next_snapshot = state.get("next_snapshot", 0)
        self.next_eval = state.get("next_eval", cfg.eval.every)
        self.next_ckpt = state.get("next_ckpt", t0 + cfg.checkpoint_every)
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
        self.wins = self.wins[-RECENT_GAMES:]
        t = self.num_timesteps
        opp = self.cfg.opponents
        beat_pool = (
            opp.snapshot_win_rate is not None
            and len(self.wins) - self.wins_at_snapshot >= 200
            and float(np.mean(self.wins[-200:])) > opp.snapshot_win_rate
        )
        if t >= self.next_snapshot or beat_pool:
            save_model(self.model, self.run_dir / "snapshots" / f"step_{t:09d}.zip", self.cfg)
            self.next_snapshot = t + opp.snapshot_every
            self.wins_at_snapshot = len(self.wins)
        if t >= self.next_eval:
            self.evaluate(t)
            self.next_eval = t + self.cfg.eval.every
        if t >= self.next_ckpt:
            self.checkpoint(t)
            self.next_ckpt = t + self.cfg.checkpoint_every
        return True

    def _on_rollout_end(self) -> None:
        if self.wins:
            self.logger.record("selfplay/win_rate_in_pool", float(np.mean(self.wins)))
        opp = self.cfg.opponents
        if opp.prioritized and self.vs:
            # PFSP: weight (1 - learner's smoothed win rate against the snapshot) ** power
            par = 1.0 / self.num_players
            prio = {
                name: (1.0 - (w + par) / (g + 1.0)) ** opp.priority_power
                for name, (w, g) in self.vs.items()
            }
            self.training_env.env_method("set_opponent_priorities", prio)

    def checkpoint(self, t: int) -> None:
        name = f"step_{t:09d}.zip"
        save_model(self.model, self.run_dir / "checkpoints" / name, self.cfg, training=True)
        payload = {
            "timesteps": t,
            "checkpoint": name,
            "history": self.history,
            "recent_wins": self.wins,
            "vs": self.vs,
            "next_snapshot": self.next_snapshot,
            "next_eval": self.next_eval,
            "next_ckpt": t + self.cfg.checkpoint_every,
            "train_seconds": time.perf_counter() - self.start,
        }
        if self.budget is not None:  # the whole run's time (warm start included), for --resume
            payload["run_seconds"] = self.budget.elapsed()
        atomic_write(self.run_dir / "trainer_state.json", json.dumps(payload))

    def measure(self, t: int, policy: Any = None) -> dict[str, Any]:
        """The greedy evaluation of ``policy`` (the model's) at step ``t`` against every
        evaluation opponent, the headline figures (against the best baseline) at the top level.
        Also called before PPO, at step 0, for the warm start's point (``trainer``)."""
        from cardarena.agents.policy import NumpyActor

        actor = NumpyActor.from_policy(self.model.policy if policy is None else policy)
        entry: dict[str, Any] = {"timesteps": t, "seconds": time.perf_counter() - self.start}
        for name in self.eval_against:
            entry[name] = evaluate_actor(
                self.cfg.game,
                self.cfg.env,
                actor,
                name,
                self.cfg.eval.deals,
                first_seed=10_000_000 + t,
            )
        entry.update(entry[self.against])  # the headline figures: against the best baseline
        return entry

    def evaluate(self, t: int) -> None:
        entry = self.measure(t)
        for name in self.eval_against:
            tag = "team" if self.cooperative else f"vs_{name}"
            self.logger.record(f"eval/win_rate_{tag}", entry[name]["win_rate"])
            self.logger.record(f"eval/mean_score_{tag}", entry[name]["mean_score"])
        self.history.append(entry)
        print(
            f"\n[eval @ {t}] win rate vs {self.against}: {entry['win_rate']:.3f} "
            f"[{entry['ci_low']:.3f}, {entry['ci_high']:.3f}]",
            flush=True,
        )
