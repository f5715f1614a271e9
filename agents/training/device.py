"""The torch device of a training run: ``auto`` (a CUDA GPU when torch sees one, else the CPU),
``cpu`` or ``cuda``."""

from __future__ import annotations

from cardarena.envs.core.engine import ConfigError

DEVICES = ("auto", "cpu", "cuda")


def resolve_device(name: str) -> str:
    """``cpu`` or ``cuda`` for a config's ``device`` (or ``train.py --device``); a
    :class:`ConfigError` naming the value and the fix when ``cuda`` is asked for and torch sees
    no GPU, so nothing is trained on the wrong device."""
    import torch

    if name not in DEVICES:
        raise ConfigError(f"device must be one of {list(DEVICES)}, got {name!r}")
    has_gpu = torch.cuda.is_available()
    if name == "auto":
        return "cuda" if has_gpu else "cpu"
    if name == "cuda" and not has_gpu:
        raise ConfigError(
            f"device: 'cuda' was asked for, but torch {torch.__version__} sees no CUDA GPU here "
            f"(torch.cuda.is_available() is False); use --device auto or --device cpu (or set "
            f"device: auto in the config), or install a CUDA build of torch on a GPU machine"
        )
    return name
