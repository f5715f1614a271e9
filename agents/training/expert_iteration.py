"""Expert iteration: the network learns to imitate a search agent, then the search rolls out with
the network, round after round (``expert_iteration`` section of a training config).

One round:

1. **Labels** (:mod:`agents.training.labels`): ``games_per_round`` games with the ``teacher``
   search (``pimc:...`` / ``ismcts:...``) in every seat; every decision with two or more legal
   actions is kept with the search's choice, its scores over the legal actions and its value.
   Once there is a network (after a warm start or a round) and ``network_rollout`` is on, the
   search's rollouts are played by that network instead of the spec's ``rollout`` policy. The
   games run on a local process pool (``train.py --workers N``) or on Ray (``--backend ray
   [--address ADDR]``), with the same labels for the same seed either way.
2. **Fit**: ``epochs`` passes over the labels of the newest ``keep_rounds`` rounds (0: all).
   Policy head: cross-entropy on the search's action (``policy_target: action``) or on its
   scores over the legal actions (``scores``: pimc's mean values through a softmax at
   ``temperature``, ismcts's visit shares). Value head: the seat's final return (``value_target:
   result``) or the search's value (``search``: pimc's best mean, the return where the search
   gave none).

The network's greedy agreement with each round's labels is measured before and after its fit
(``rounds`` in ``summary.json``); each round's network is ``round_<r>.zip`` in the run directory,
the last one also ``final.zip``. An expert-iteration run trains by these labels only: no PPO
(``total_timesteps`` is not used), and a ``warm_start`` (cloning a baseline) runs first if set.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from cardarena.agents.training.config import TrainConfig
from cardarena.agents.training.labels import concat, label_games
from cardarena.envs.core.engine import ConfigError


def build_learner(cfg: TrainConfig) -> Any:
    """The actor-critic of ``cfg.policy`` (the class PPO runs train), in an object with the
    ``policy`` and ``num_timesteps`` that the warm start and ``save_model`` read."""
    import gymnasium as gym
    import torch

    from cardarena.agents.training.masked_policy import FastMaskablePolicy
    from cardarena.envs.core.registry import get_spec

    spec = get_spec(cfg.game)
    engine = spec.make_engine(**cfg.env)
    torch.manual_seed(cfg.seed)
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[cfg.policy.activation]
    policy = FastMaskablePolicy(
        gym.spaces.Box(spec.obs_low, spec.obs_high, (spec.obs_size,), np.float32),
        gym.spaces.Discrete(engine.num_actions),
        lambda _: cfg.expert_iteration.learning_rate,
        net_arch=list(cfg.policy.net_arch),
        activation_fn=activation,
    )
    return SimpleNamespace(policy=policy, num_timesteps=0)


def network_layers(policy: Any) -> list[tuple[np.ndarray, np.ndarray, str]]:
    """The actor of a live policy as plain ``(weights, bias, activation)`` data (it pickles, so
    it travels to label workers and Ray tasks)."""
    from cardarena.agents.checkpoint import actor_layers, state_arrays

    name = policy.activation_fn.__name__.lower()
    return actor_layers({"policy": {"activation": name}}, state_arrays(policy), "policy")


def policy_targets(labels: dict[str, np.ndarray], target: str, temperature: float) -> np.ndarray:
    """Per row, the distribution over actions the policy head is fitted to (0 off the mask)."""
    n, width = labels["mask"].shape
    if target == "action":
        out = np.zeros((n, width), np.float32)
        out[np.arange(n), labels["action"]] = 1.0
        return out
    scores = labels["scores"].astype(np.float64)
    mask = labels["mask"]
    out = np.zeros((n, width))
    for i in range(n):
        legal = np.flatnonzero(mask[i])
        s = scores[i, legal]
        if np.isnan(labels["search_value"][i]):  # ismcts: visit shares
            p = s / s.sum() if s.sum() > 0 else np.full(len(legal), 1.0 / len(legal))
        else:  # pimc: mean values through a softmax
            z = (s - s.max()) / temperature
            p = np.exp(z) / np.exp(z).sum()
        out[i, legal] = p
    return out.astype(np.float32)


def value_targets(labels: dict[str, np.ndarray], target: str) -> np.ndarray:
    if target == "result":
        return labels["result"]
    search = labels["search_value"]
    return np.where(np.isnan(search), labels["result"], search).astype(np.float32)


def agreement(policy: Any, labels: dict[str, np.ndarray]) -> float:
    """Share of label rows where the network's greedy choice is the search's action."""
    import torch

    from cardarena.agents.training.masked_policy import masked_log_probs

    if not len(labels["action"]):
        return float("nan")
    with torch.no_grad():
        latent_pi, _ = policy._latents(torch.as_tensor(labels["obs"]))
        logp, _ = masked_log_probs(policy.action_net(latent_pi), labels["mask"])
    return float((logp.argmax(dim=1).numpy() == labels["action"]).mean())


def fit(
    policy: Any,
    labels: dict[str, np.ndarray],
    probs: np.ndarray,
    values: np.ndarray,
    epochs: int,
    learning_rate: float,
    batch_size: int,
    value_coef: float,
    seed: int,
) -> float:
    """``epochs`` Adam passes of cross-entropy to ``probs`` plus ``value_coef`` x MSE to
    ``values``; returns the last pass's mean loss."""
    import torch

    from cardarena.agents.training.masked_policy import masked_log_probs

    obs_t = torch.as_tensor(labels["obs"])
    mask = labels["mask"]
    probs_t = torch.as_tensor(probs)
    values_t = torch.as_tensor(values)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    order_rng = np.random.default_rng(seed)
    n = len(values)
    policy.set_training_mode(True)
    last = 0.0
    for _ in range(epochs):
        total = 0.0
        order = order_rng.permutation(n)
        for start in range(0, n, batch_size):
            idx = order[start : start + batch_size]
            latent_pi, latent_vf = policy._latents(obs_t[idx])
            logp, _ = masked_log_probs(policy.action_net(latent_pi), mask[idx])
            # illegal actions have probability 0 in the target: their -1e8 log-probs add nothing
            ce = -(probs_t[idx] * torch.where(probs_t[idx] > 0, logp, 0.0)).sum(dim=1).mean()
            mse = torch.nn.functional.mse_loss(policy.value_net(latent_vf).flatten(), values_t[idx])
            loss = ce + value_coef * mse
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            total += float(loss.detach()) * len(idx)
        last = total / max(n, 1)
    policy.set_training_mode(False)
    return last


def run_rounds(
    cfg: TrainConfig,
    learner: Any,
    run_dir: Any = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    trained: bool = False,
    progress: bool = False,
    budget: Any = None,
    history: list[dict[str, Any]] | None = None,
    kept: list[dict[str, np.ndarray]] | None = None,
    on_round: Any = None,
) -> list[dict[str, Any]]:
    """The ``expert_iteration.rounds`` rounds on ``learner`` (``trained``: it already plays, e.g.
    after a warm start, so round 0's rollouts may use it); one summary per round. ``budget`` (a
    :class:`~agents.training.budget.TimeBudget`): a round starts only if it still fits (estimated
    by the round before), none if the budget is already spent. A resumed run passes the
    ``history`` of its finished rounds and the labels it still fits on (``kept``), and goes on
    from the next round; ``on_round(r, labels, history)`` runs after each round (the run
    directory's saves)."""
    from cardarena.agents.training.budget import TimeBudget

    budget = budget if budget is not None else TimeBudget(None)

    ex = cfg.expert_iteration
    history = list(history or [])
    kept = list(kept or [])
    first = len(history)
    todo = range(first, ex.rounds)
    for r in budget.steps(todo, "expert iteration", len(todo), "rounds", least=0):
        started = time.perf_counter()
        network = network_layers(learner.policy) if ex.network_rollout and trained else None
        labels = label_games(
            cfg.game,
            cfg.env,
            ex.teacher,
            network,
            cfg.seed,
            r,
            ex.games_per_round,
            chunk_games=ex.chunk_games,
            workers=workers,
            backend=backend,
            address=address,
        )
        label_seconds = time.perf_counter() - started
        before = agreement(learner.policy, labels)
        kept.append(labels)
        if ex.keep_rounds:
            kept = kept[-ex.keep_rounds :]
        data = concat(kept)
        loss = fit(
            learner.policy,
            data,
            policy_targets(data, ex.policy_target, ex.temperature),
            value_targets(data, ex.value_target),
            ex.epochs,
            ex.learning_rate,
            ex.batch_size,
            ex.value_coef,
            cfg.seed + 1000 + r,
        )
        trained = True
        info = {
            "round": r,
            "decisions": int(len(labels["action"])),
            "fitted_on": int(len(data["action"])),
            "network_rollout": network is not None,
            "agreement_before": before,
            "agreement_after": agreement(learner.policy, labels),
            "loss": loss,
            "label_seconds": round(label_seconds, 1),
            "seconds": round(time.perf_counter() - started, 1),
        }
        history.append(info)
        if progress:
            print(
                f"expert iteration round {r}: {info['decisions']} decisions labelled in "
                f"{info['label_seconds']} s; agreement {before:.3f} -> "
                f"{info['agreement_after']:.3f}",
                flush=True,
            )
        if on_round is not None:
            on_round(r, labels, history)
        elif run_dir is not None:
            from cardarena.agents.training.checkpoints import save_model

            save_model(learner, run_dir / f"round_{r}.zip", cfg)
    return history


# ---- the run directory: each finished round saved, so a killed run resumes --------------------
#: the file naming the finished rounds (written last in each round: a round it lists is whole)
PROGRESS = "rounds.json"


def _labels_path(run_dir: Path, r: int) -> Path:
    return run_dir / f"labels_{r}.npz"


def _saver(cfg: TrainConfig, learner: Any, run_dir: Path, budget: Any) -> Any:
    """The per-round save: the network, the round's labels (as many rounds as are still fitted
    on), then the progress file, atomically and in that order."""
    from cardarena.agents.files import atomic_write_text, atomic_writer
    from cardarena.agents.training.checkpoints import save_model

    keep = cfg.expert_iteration.keep_rounds

    def on_round(r: int, labels: dict[str, np.ndarray], history: list[dict[str, Any]]) -> None:
        save_model(learner, run_dir / f"round_{r}.zip", cfg)
        with atomic_writer(_labels_path(run_dir, r), "wb") as f:
            np.savez(f, **labels)
        progress = {"rounds": history, "run_seconds": round(budget.elapsed(), 3)}  # with spent
        atomic_write_text(run_dir / PROGRESS, json.dumps(progress, indent=1))
        if keep:
            for old in range(r - keep + 1):
                _labels_path(run_dir, old).unlink(missing_ok=True)

    return on_round


def _resume_point(
    cfg: TrainConfig, learner: Any, run_dir: Path
) -> tuple[list[dict[str, Any]], list[dict[str, np.ndarray]], float]:
    """The finished rounds' history, the labels still fitted on, the seconds spent; the learner
    loaded with the last finished round's network. Nothing finished: a fresh start."""
    from cardarena.agents import checkpoint

    path = run_dir / PROGRESS
    if not path.exists():
        return [], [], 0.0
    try:
        progress = json.loads(path.read_text())
        history = list(progress["rounds"])
        spent = float(progress.get("run_seconds", 0.0))
    except (ValueError, KeyError, TypeError) as err:
        raise ConfigError(
            f"{path} is damaged ({err}); start the run over with --overwrite"
        ) from None
    if not history:
        return [], [], spent
    last = len(history) - 1
    keep = cfg.expert_iteration.keep_rounds
    window = range(max(0, last - keep + 1) if keep else 0, last + 1)
    needed = [run_dir / f"round_{last}.zip", *(_labels_path(run_dir, r) for r in window)]
    missing = [p.name for p in needed if not p.exists()]
    if missing:
        raise ConfigError(
            f"{run_dir} lacks {missing} of its {len(history)} finished rounds; it cannot resume "
            "exactly: start it over with --overwrite"
        )
    import torch

    meta, arrays = checkpoint.read(run_dir / f"round_{last}.zip")
    names = list(learner.policy.state_dict())
    if any(k not in arrays for k in names):
        raise ConfigError(f"{run_dir / f'round_{last}.zip'} does not fit this run's network")
    learner.policy.load_state_dict({k: torch.from_numpy(arrays[k].copy()) for k in names})
    kept = []
    for r in window:
        with np.load(_labels_path(run_dir, r), allow_pickle=False) as npz:
            kept.append({k: npz[k] for k in npz.files})
    return history, kept, spent


def train_expert_iteration(
    cfg: TrainConfig,
    progress_bar: bool = True,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    budget: Any = None,
    overwrite: bool = False,
    resume: bool = False,
) -> Any:
    """An expert-iteration run (``train.py`` with ``expert_iteration.rounds`` > 0): the warm
    start if set, the rounds, ``final.zip``, the final evaluation and ``summary.json``; returns
    the run directory. ``cfg.time_limit_minutes`` (or ``budget``) caps the warm start and the
    rounds, not the final evaluation (agents/training/budget.py). A directory holding a run is
    refused unless ``overwrite``; one run at a time per directory (``trainer.run_lock``).

    Each finished round is saved (its network ``round_<r>.zip``, its labels ``labels_<r>.npz``,
    then ``rounds.json``), so ``resume`` continues a killed run from its last finished round,
    to the same result as a run never interrupted."""
    from cardarena.agents.training.trainer import run_lock

    lock = run_lock(cfg, resume=resume, overwrite=overwrite)
    try:
        return _train_expert_iteration(
            cfg, progress_bar, workers, backend, address, budget, overwrite, resume
        )
    finally:
        lock.release()


def _train_expert_iteration(
    cfg: TrainConfig,
    progress_bar: bool,
    workers: int,
    backend: str,
    address: str | None,
    budget: Any,
    overwrite: bool,
    resume: bool,
) -> Any:
    import torch

    from cardarena.agents.policy import NumpyActor
    from cardarena.agents.training.budget import TimeBudget
    from cardarena.agents.training.checkpoints import atomic_write, save_model
    from cardarena.agents.training.learner_eval import eval_opponents, evaluate_actor
    from cardarena.agents.training.trainer import _prepare_run_dir
    from cardarena.agents.training.warm_start import warm_start
    from cardarena.envs.core.registry import get_spec

    if workers < 1:
        raise ConfigError(f"workers must be at least 1, got {workers}")
    learner = build_learner(cfg)
    history: list[dict[str, Any]] = []
    kept: list[dict[str, np.ndarray]] = []
    spent = 0.0
    if resume:
        run_dir = Path(cfg.output_dir)
        history, kept, spent = _resume_point(cfg, learner, run_dir)
    else:
        run_dir, _, _ = _prepare_run_dir(cfg, resume=False, overwrite=overwrite)
    budget = budget if budget is not None else TimeBudget.from_config(cfg, spent)
    start = time.perf_counter()
    threads = cfg.torch_threads.counts()[1]
    info: dict[str, Any] = {}
    if cfg.warm_start.imitate and not history:  # resumed after a round: the warm start is in it
        info = warm_start(learner, cfg, progress_bar, threads, budget)
        atomic_write(run_dir / "warm_start.json", json.dumps(info))
    torch.set_num_threads(threads)
    rounds = run_rounds(
        cfg,
        learner,
        run_dir,
        workers,
        backend,
        address,
        trained=bool(cfg.warm_start.imitate) or bool(history),
        progress=True,
        budget=budget,
        history=history,
        kept=kept,
        on_round=_saver(cfg, learner, run_dir, budget),
    )
    train_seconds = time.perf_counter() - start
    run_seconds = budget.elapsed()
    save_model(learner, run_dir / "final.zip", cfg)
    against, _ = eval_opponents(cfg, get_spec(cfg.game).cooperative)
    eval_start = time.perf_counter()  # the final evaluation is outside the time limit
    final = evaluate_actor(
        cfg.game,
        cfg.env,
        NumpyActor.from_policy(learner.policy),
        against,
        cfg.eval.final_deals,
        first_seed=20_000_000,
    )
    final_eval_seconds = time.perf_counter() - eval_start
    summary = {
        "game": cfg.game,
        "env": cfg.env,
        "mode": "expert_iteration",
        "timesteps": 0,
        "train_seconds": round(train_seconds, 1),
        "steps_per_second": 0.0,
        "run_seconds": round(run_seconds, 1),
        "final_eval_seconds": round(final_eval_seconds, 1),
        "resumed": bool(resume),
        "time_limit": budget.report(run_seconds),
        "rounds": rounds,
        "final_eval": {"against": against, "deals": cfg.eval.final_deals, **final},
    }
    atomic_write(run_dir / "summary.json", json.dumps(summary, indent=1))
    return run_dir
