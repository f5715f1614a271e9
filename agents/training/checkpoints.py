"""Run files: the learner as a cardarena checkpoint (:mod:`agents.checkpoint`: JSON and numpy
arrays, nothing unpickled), training checkpoints for ``--resume`` and atomic writes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from cardarena.agents.training.config import TrainConfig
from cardarena.envs.core.engine import ConfigError


def atomic_write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def save_model(model: Any, path: Path, cfg: TrainConfig, training: bool = False) -> None:
    """Write the learner as a cardarena checkpoint (:mod:`agents.checkpoint`: JSON and arrays,
    atomically); ``training`` adds the optimizer's state for ``--resume``."""
    from cardarena.agents import checkpoint

    arrays = checkpoint.state_arrays(model.policy)
    meta: dict[str, Any] = {
        "game": cfg.game,
        "env": dict(cfg.env),
        "policy": {
            "net_arch": list(cfg.policy.net_arch),
            "activation": cfg.policy.activation,
            # the critic also read the hidden state in training; the actor reads the observation
            "privileged_critic": cfg.policy.privileged_critic,
        },
        "timesteps": int(model.num_timesteps),
    }
    if training:
        state = model.policy.optimizer.state_dict()
        meta["optimizer"] = checkpoint.split_tensors(state, arrays, "optimizer/")
    checkpoint.write(path, meta, arrays)


def load_model_state(model: Any, path: Path) -> None:
    """Restore a training checkpoint of :func:`save_model` into a freshly built ``model``."""
    import torch

    from cardarena.agents import checkpoint

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


def latest_checkpoint(run_dir: Path) -> tuple[Path, dict[str, Any]]:
    """The last checkpoint of a run directory and the trainer state saved with it."""
    state_path = run_dir / "trainer_state.json"
    if not state_path.exists():
        raise ConfigError(
            f"{run_dir} has no trainer_state.json: it is not a run directory, or it was killed "
            f"before its first checkpoint (then start it again without --resume)"
        )
    try:
        state = json.loads(state_path.read_text())
        timesteps, name = state["timesteps"], state["checkpoint"]
    except (ValueError, KeyError, TypeError) as err:
        raise ConfigError(
            f"{state_path} is not a trainer state ({err!r}); start a new run"
        ) from None
    if not isinstance(timesteps, int) or not isinstance(name, str) or Path(name).name != name:
        raise ConfigError(f"{state_path} is not a trainer state; start a new run")
    return run_dir / "checkpoints" / name, state
