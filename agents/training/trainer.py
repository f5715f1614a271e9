"""Self-play training with MaskablePPO: the training run.

``train.py`` is a thin command line over :func:`train`. A run directory holds everything a run
makes: ``config.yaml`` (as used), ``tb/`` (TensorBoard), ``snapshots/`` (frozen copies of the
learner that opponents are drawn from), ``checkpoints/``, ``final.zip``, ``eval_history.json``,
``learning_curve.png`` and ``summary.json``.

The pieces: :mod:`~agents.training.config` (the checked config), :mod:`~agents.training.opponents`
(the opponent pool), :mod:`~agents.training.warm_start` (behaviour cloning before PPO),
:mod:`~agents.training.callbacks` (snapshots, evaluations, checkpoints, thread switch),
:mod:`~agents.training.checkpoints` (run files) and :mod:`~agents.training.plots`.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import yaml

from cardarena.agents.training.checkpoints import (
    atomic_write,
    latest_checkpoint,
    load_model_state,
    save_model,
)
from cardarena.agents.training.config import TrainConfig
from cardarena.envs.core import seeding
from cardarena.envs.core.engine import ConfigError


def make_env_fn(cfg: TrainConfig, rank: int, snapshot_dir: Path):
    """A thunk building the ``rank``-th self-play env of a run (in whichever process runs it)."""

    def thunk():
        from cardarena.agents.training.opponents import OpponentPool
        from cardarena.envs.core.registry import get_spec
        from cardarena.envs.core.single_agent import SelfPlayEnv

        cooperative = get_spec(cfg.game).cooperative
        env = SelfPlayEnv(
            cfg.game,
            cfg.env,
            opponents=None if cooperative else OpponentPool.from_config(cfg, snapshot_dir),
            shared_policy=cooperative,  # cooperative games: one policy plays every seat
            seed=seeding.derive(cfg.seed, 2, rank),
            shaping=cfg.reward_shaping,
        )
        if cfg.policy.privileged_critic:  # the critic's extra inputs: the hidden state
            from cardarena.agents.training.privileged import PrivilegedObservation

            return PrivilegedObservation(env)
        return env

    return thunk


def build_model(cfg: TrainConfig, vec: Any, tensorboard_log: str | None = None) -> Any:
    """The MaskablePPO learner of a config over the vector env ``vec``."""
    import torch
    from sb3_contrib import MaskablePPO

    from cardarena.agents.training.device import resolve_device
    from cardarena.agents.training.masked_policy import FastMaskablePolicy

    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[cfg.policy.activation]
    # MaskableActorCriticPolicy, bit for bit, with less overhead
    policy: Any = FastMaskablePolicy
    kwargs: dict[str, Any] = {"net_arch": list(cfg.policy.net_arch), "activation_fn": activation}
    if cfg.policy.privileged_critic:  # the actor reads the observation, the critic all of it
        from cardarena.agents.training.privileged import PrivilegedCriticPolicy, actor_inputs

        policy, kwargs["actor_inputs"] = PrivilegedCriticPolicy, actor_inputs(cfg)
    return MaskablePPO(
        policy,
        vec,
        policy_kwargs=kwargs,
        tensorboard_log=tensorboard_log,
        seed=cfg.seed,
        device=resolve_device(cfg.device),
        verbose=0,
        **asdict(cfg.ppo),
    )


#: the files that say a directory holds a run (a started PPO run, a finished run of either kind)
RUN_MARKS = ("trainer_state.json", "summary.json", "final.zip")
#: what ``--overwrite`` clears before a new run starts in a directory holding one
RUN_FILES = (
    "rounds.json",
    "trainer_state.json",
    "summary.json",
    "final.zip",
    "eval_history.json",
    "warm_start.json",
    "learning_curve.png",
    "config.yaml",
)
RUN_FOLDERS = ("checkpoints", "snapshots")


def run_lock(cfg: TrainConfig, resume: bool = False, overwrite: bool = False) -> Any:
    """The hold of one run on its directory (``agents/files.py``): a second run on the same
    ``output_dir`` is refused while the first runs. A run that would be refused anyway
    (:func:`check_run_dir`) is refused first, leaving the directory as it was."""
    from cardarena.agents.files import OutputLock

    check_run_dir(Path(cfg.output_dir), resume, overwrite)
    return OutputLock(Path(cfg.output_dir) / ".run", "--output-dir").acquire()


def _prepare_run_dir(
    cfg: TrainConfig, resume: bool, overwrite: bool = False
) -> tuple[Path, dict[str, Any], Path | None]:
    """The run directory, the trainer state to continue from and its checkpoint (if resuming).

    A directory holding a run (``RUN_MARKS``, ``round_*.zip``) is never written unless
    ``overwrite`` (a new run, not ``resume``) clears it first."""
    run_dir = Path(cfg.output_dir)
    snapshot_dir = run_dir / "snapshots"
    held = check_run_dir(run_dir, resume, overwrite)
    if resume:
        ckpt_path, state = latest_checkpoint(run_dir)
        # snapshots taken after the checkpoint belong to the lost stretch of the run
        for snap in snapshot_dir.glob("step_*.zip"):
            if int(snap.stem.split("_")[1]) > state["timesteps"]:
                snap.unlink()
        for partial in run_dir.rglob(".tmp_*"):  # saves cut short by the kill
            partial.unlink()
        return run_dir, state, ckpt_path
    if held:
        _clear_run(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    snapshot_dir.mkdir(exist_ok=True)
    (run_dir / "checkpoints").mkdir(exist_ok=True)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(cfg.to_dict(), sort_keys=False))
    return run_dir, {}, None


def check_run_dir(run_dir: Path, resume: bool, overwrite: bool = False) -> list[str]:
    """Refuse (ConfigError) what would lose a run: ``resume`` of a finished run, a new run in a
    directory holding one without ``overwrite``. The run files found (for ``overwrite``)."""
    finished = [n for n in ("summary.json",) if (run_dir / n).exists()]  # written last
    if resume and finished:
        raise ConfigError(
            f"{run_dir} holds a finished run ({', '.join(finished)}): there is nothing to resume, "
            f"and nothing was changed. To train on, start a new run from its settings with "
            f"--config {run_dir / 'config.yaml'} --output-dir <another directory>"
        )
    if resume:
        return []
    held = [n for n in RUN_MARKS if (run_dir / n).exists()]
    held += sorted(p.name for p in run_dir.glob("round_*.zip"))  # expert-iteration rounds
    if held and not overwrite:
        again = "" if finished else f"continue it with --resume {run_dir}, "
        raise ConfigError(
            f"{run_dir} already holds a run ({', '.join(held)}); {again}choose another "
            f"--output-dir, or pass --overwrite to delete it and start over"
        )
    return held


def _clear_run(run_dir: Path) -> None:
    """Delete the files of a run (``--overwrite``); anything else in the directory stays."""
    import shutil

    for name in RUN_FILES:
        (run_dir / name).unlink(missing_ok=True)
    for pattern in ("round_*.zip", "labels_*.npz"):
        for path in run_dir.glob(pattern):
            path.unlink()
    for folder in RUN_FOLDERS:
        shutil.rmtree(run_dir / folder, ignore_errors=True)


def train(
    cfg: TrainConfig,
    progress_bar: bool = True,
    resume: bool = False,
    budget: Any = None,
    overwrite: bool = False,
) -> Path:
    """Run (or, with ``resume``, continue) one self-play training; returns the run directory.

    One run at a time per directory (:func:`run_lock`); a directory holding a run is refused
    unless ``resume`` (a run that has not finished) or ``overwrite`` (delete it, start over).

    ``cfg`` comes checked from :func:`agents.training.config.load_config`. Every
    ``checkpoint_every`` steps the model (weights and optimizer), the step count, the evaluation
    history, the opponent statistics and the schedule are saved atomically, so a run killed at
    any moment continues from its last checkpoint with ``train.py --resume RUN_DIR``.

    ``cfg.time_limit_minutes`` (``budget``: a :class:`~agents.training.budget.TimeBudget` to use
    instead, e.g. with a test's clock) caps the wall time of everything before the final
    evaluation: the warm start stops between games and epochs, PPO at a rollout boundary (or is
    skipped if nothing is left), and ``summary.json`` says what the limit cut.
    """
    lock = run_lock(cfg, resume, overwrite)
    try:
        return _train(cfg, progress_bar, resume, budget, overwrite)
    finally:
        lock.release()


def _train(
    cfg: TrainConfig, progress_bar: bool, resume: bool, budget: Any, overwrite: bool
) -> Path:
    import torch
    from stable_baselines3.common.vec_env import VecMonitor

    from cardarena.agents.policy import NumpyActor
    from cardarena.agents.training.budget import StopFirst, TimeBudget, TimeLimit
    from cardarena.agents.training.callbacks import SelfPlayCallback, ThreadSwitch
    from cardarena.agents.training.learner_eval import evaluate_actor
    from cardarena.agents.training.plots import curve_options, log_warm_start, plot_learning_curve
    from cardarena.agents.training.split_vec_env import vec_env_class
    from cardarena.agents.training.warm_start import warm_start
    from cardarena.envs.core.registry import get_spec

    spec = get_spec(cfg.game)
    num_players = spec.make_engine(**cfg.env).num_players
    run_dir, state, ckpt_path = _prepare_run_dir(cfg, resume, overwrite)
    if budget is None:  # a resumed run counts the time its checkpoint had used
        budget = TimeBudget.from_config(
            cfg, state.get("run_seconds", state.get("train_seconds", 0))
        )
    done = int(state.get("timesteps", 0))
    torch.manual_seed(cfg.seed + done)
    rollout_threads, update_threads = cfg.torch_threads.counts()
    # one thread until PPO starts: the warm start may fork labelling workers, and a forked child
    # must not inherit a running OpenMP pool
    torch.set_num_threads(rollout_threads)
    snapshot_dir = run_dir / "snapshots"
    vec = VecMonitor(  # new env seeds after a resume: ranks start at the steps done
        vec_env_class(cfg.vec_env)(
            [make_env_fn(cfg, done + i, snapshot_dir) for i in range(cfg.n_envs)]
        )
    )
    model = build_model(cfg, vec, tensorboard_log=str(run_dir / "tb"))
    if ckpt_path is not None:
        load_model_state(model, ckpt_path)
    warm_info = None
    if not resume and cfg.warm_start.imitate:
        warm_info = warm_start(model, cfg, progress_bar, update_threads, budget)
        atomic_write(run_dir / "warm_start.json", json.dumps(warm_info))

    start = time.perf_counter() - float(state.get("train_seconds", 0.0))
    selfplay = SelfPlayCallback(cfg, run_dir, state, num_players, spec.cooperative, start, budget)
    if warm_info is not None:  # the strength right after imitation: the curve's step-0 point
        warm_info["evaluation"] = selfplay.measure(0, model.policy)
        atomic_write(run_dir / "warm_start.json", json.dumps(warm_info))
        log_warm_start(run_dir / "tb", warm_info, selfplay.eval_against, spec.cooperative)
        print(
            f"[eval @ 0, after the warm start] win rate vs {selfplay.against}: "
            f"{warm_info['evaluation']['win_rate']:.3f}",
            flush=True,
        )
    if cfg.total_timesteps > done and not budget.allows():  # the warm start used it all
        budget.cut("ppo", done, cfg.total_timesteps, "timesteps")
    elif cfg.total_timesteps > done:
        callbacks = [ThreadSwitch(rollout_threads, update_threads), selfplay]
        limit = None
        if budget.limit is not None:  # first: its stop skips the others' bookkeeping
            limit = TimeLimit(budget)
            callbacks.insert(0, limit)
        model.learn(
            total_timesteps=cfg.total_timesteps - done,
            callback=StopFirst(callbacks),
            progress_bar=progress_bar,
            reset_num_timesteps=not resume,
        )
        if limit is not None and limit.stopping:
            # the dropped rollout's first step was counted; it was not learnt from
            model.num_timesteps = limit.timesteps
            budget.cut("ppo", limit.timesteps, cfg.total_timesteps, "timesteps")
    train_seconds = time.perf_counter() - start
    run_seconds = budget.elapsed()
    vec.close()
    save_model(model, run_dir / "final.zip", cfg)
    actor = NumpyActor.from_policy(model.policy)
    against = selfplay.against
    eval_start = time.perf_counter()  # the final evaluation is outside the time limit
    final = evaluate_actor(
        cfg.game, cfg.env, actor, against, cfg.eval.final_deals, first_seed=20_000_000
    )
    final_eval_seconds = time.perf_counter() - eval_start
    summary = {
        "game": cfg.game,
        "env": cfg.env,
        "timesteps": int(model.num_timesteps),
        "total_timesteps": cfg.total_timesteps,
        "train_seconds": round(train_seconds, 1),
        "steps_per_second": round(model.num_timesteps / max(train_seconds, 1e-9), 1),
        "run_seconds": round(run_seconds, 1),
        "final_eval_seconds": round(final_eval_seconds, 1),
        "resumed": resume,
        "time_limit": budget.report(run_seconds),
        "final_eval": {"against": against, "deals": cfg.eval.final_deals, **final},
    }
    atomic_write(run_dir / "eval_history.json", json.dumps(selfplay.history, indent=1))
    atomic_write(run_dir / "summary.json", json.dumps(summary, indent=1))
    par = None if spec.cooperative else 1 / num_players
    warm_file = run_dir / "warm_start.json"  # a resumed run's comes from its first part
    warm_point = json.loads(warm_file.read_text()).get("evaluation") if warm_file.exists() else None
    plot_learning_curve(
        selfplay.history,
        run_dir / "learning_curve.png",
        selfplay.eval_against,
        par,
        team=spec.cooperative,
        warm=warm_point,
        title=f"{cfg.game}, {curve_options(cfg.env)}: run {run_dir.name} "
        f"({cfg.eval.deals} deals per point)",
    )
    return run_dir
