"""Checkpoint files that cannot run code: JSON metadata and numpy arrays in a zip.

A cardarena checkpoint (``.zip``, written by ``train.py``; the zoo's agents are such files) has
two members and nothing else is read from it:

* ``cardarena.json``: ``{"format": "cardarena-checkpoint", "version": 1, "game": ..., "env":
  {...}, "policy": {"net_arch": [...], "activation": "tanh"}, ...}``, read with :func:`json.loads`;
* ``arrays.npz``: the network's parameters by their torch names (``mlp_extractor.policy_net.0.weight``,
  ``action_net.bias``, ...) and, in a training checkpoint, the optimizer's tensors, read with
  ``numpy.load(allow_pickle=False)``, which refuses object arrays.

Loading never unpickles anything, so a planted payload cannot run, and a file names no Python
module or class of this project, so moving code never breaks a checkpoint.

Files saved by plain stable-baselines3 (``model.save``) pickle Python objects inside; they are
read only on request (the agent spec ``sb3:PATH``), and even then only their weights
(``policy.pth`` through torch's ``weights_only`` loader, which builds tensors and nothing else)
and the plain-JSON fields of ``data``; no pickled field is ever decoded.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from cardarena.envs.core.engine import ConfigError

FORMAT = "cardarena-checkpoint"
VERSION = 1
META = "cardarena.json"
ARRAYS = "arrays.npz"
#: the biggest member a checkpoint may hold (a zoo network is a few MB)
MAX_MEMBER_BYTES = 512 * 2**20


def write(path: str | Path, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> Path:
    """Write a checkpoint atomically: a kill in the middle never leaves a truncated file at
    ``path`` (the temporary name starts with ``.tmp_``)."""
    path = Path(path)
    body = io.BytesIO()
    np.savez(body, **{k: np.ascontiguousarray(v) for k, v in arrays.items()})
    header = {"format": FORMAT, "version": VERSION, **meta}
    tmp = path.with_name(f".tmp_{path.name}")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(META, json.dumps(header, indent=1, sort_keys=True))
        zf.writestr(ARRAYS, body.getvalue())
    os.replace(tmp, path)
    return path


def _member(zf: zipfile.ZipFile, name: str, path: Path) -> bytes:
    info = zf.getinfo(name)
    if info.file_size > MAX_MEMBER_BYTES:
        raise ConfigError(f"{path}: member {name!r} is {info.file_size} bytes, over the limit")
    return zf.read(name)


def _open(path: str | Path) -> tuple[Path, zipfile.ZipFile]:
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"checkpoint {str(path)!r} does not exist (or is not a file)")
    try:
        return path, zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as err:
        raise ConfigError(f"{path} is not a checkpoint (not a zip archive: {err})") from None


def is_sb3_archive(names: list[str]) -> bool:
    return "data" in names and "policy.pth" in names


def read(path: str | Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(metadata, arrays) of a cardarena checkpoint; a clear :class:`ConfigError` otherwise."""
    path, zf = _open(path)
    with zf:
        names = zf.namelist()
        if META not in names or ARRAYS not in names:
            if is_sb3_archive(names):
                raise ConfigError(
                    f"{path} is a stable-baselines3 archive, whose pickled fields could run code "
                    f"when loaded; to load only its weights (nothing unpickled), pass the agent "
                    f"spec 'sb3:{path}'"
                )
            raise ConfigError(f"{path} is not a cardarena checkpoint (it lacks {META}/{ARRAYS})")
        try:
            meta = json.loads(_member(zf, META, path))
        except ValueError as err:
            raise ConfigError(f"{path}: {META} is not valid JSON ({err})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise ConfigError(f"{path}: {META} does not describe a {FORMAT}")
        if meta.get("version") != VERSION:
            raise ConfigError(
                f"{path}: checkpoint version {meta.get('version')!r}; this cardarena reads "
                f"version {VERSION}"
            )
        limit = declared_bytes(meta)
        size = zf.getinfo(ARRAYS).file_size
        if limit is not None and size > limit:
            raise ConfigError(
                f"{path}: its arrays are {size} bytes, more than the network it declares "
                f"(game {meta.get('game')!r}, net_arch {meta.get('policy', {}).get('net_arch')}) "
                f"can hold ({limit} bytes at most); the file is damaged or not what it says"
            )
        arrays = _load_npz(_member(zf, ARRAYS, path), path)
    return meta, arrays


def declared_bytes(meta: dict[str, Any]) -> int | None:
    """The most bytes the arrays of the network ``meta`` declares can take (actor and critic of
    ``net_arch`` between the game's observation and actions, float64, with the optimizer's two
    moments and room to spare); None when the metadata declares no network to measure by."""
    from cardarena.envs.core.registry import names

    policy = meta.get("policy")
    game = meta.get("game")
    arch = policy.get("net_arch") if isinstance(policy, dict) else None
    if game not in names() or not isinstance(arch, list) or not arch:
        return None
    if not all(isinstance(h, int) and not isinstance(h, bool) and 0 < h <= 1 << 16 for h in arch):
        return None
    from cardarena.envs.core.registry import get_spec

    spec = get_spec(game)
    obs = spec.obs_size * (8 if policy.get("privileged_critic") else 1)  # the critic's input
    actions = 4096  # more than any game's action count
    dims = [obs, *arch]
    params = sum(a * b + b for a, b in itertools.pairwise(dims)) * 2  # actor and critic trunks
    params += arch[-1] * (actions + 1) + actions + 1  # action and value heads
    copies = 3 if "optimizer" in meta else 1  # Adam's two moments
    return params * 8 * copies + 2**20  # float64, and the npz headers


def _load_npz(raw: bytes, path: Path) -> dict[str, np.ndarray]:
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as npz:
            return {k: npz[k] for k in npz.files}
    except (ValueError, OSError, zipfile.BadZipFile) as err:
        raise ConfigError(f"{path}: the arrays cannot be read without unpickling ({err})") from None


_ACTIVATION_RE = re.compile(r"torch\.nn\.modules\.activation\.(\w+)")


def read_sb3(path: str | Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(metadata, arrays) of a stable-baselines3 / sb3-contrib ``.zip``, without unpickling.

    The weights come from ``policy.pth`` through ``torch.load(weights_only=True)``; the
    activation from the printable ``activation_fn`` that SB3 writes next to the pickled policy
    keywords (SB3's default, tanh, when it is absent). Pickled fields are never decoded."""
    import torch

    path, zf = _open(path)
    with zf:
        if not is_sb3_archive(zf.namelist()):
            raise ConfigError(f"{path} is not a stable-baselines3 archive (no data/policy.pth)")
        try:
            data = json.loads(_member(zf, "data", path))
        except ValueError as err:
            raise ConfigError(f"{path}: its 'data' member is not JSON ({err})") from None
        raw = _member(zf, "policy.pth", path)
    try:
        state = torch.load(io.BytesIO(raw), map_location="cpu", weights_only=True)
    except Exception as err:  # the restricted unpickler refuses anything but tensors
        raise ConfigError(f"{path}: policy.pth holds more than weights, refused ({err})") from None
    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
        raise ConfigError(f"{path}: policy.pth is not a state dict of tensors")
    kwargs = data.get("policy_kwargs") if isinstance(data, dict) else None
    found = _ACTIVATION_RE.search(str(kwargs.get("activation_fn", ""))) if kwargs else None
    activation = found.group(1).lower() if found else "tanh"
    arrays = {k: v.detach().cpu().numpy() for k, v in state.items()}
    return {"format": FORMAT, "version": VERSION, "policy": {"activation": activation}}, arrays


def actor_layers(
    meta: dict[str, Any], arrays: dict[str, np.ndarray], where: str = "checkpoint"
) -> list[tuple[np.ndarray, np.ndarray, str]]:
    """The actor's layers (weights inputs x outputs, bias, activation) from an SB3-style state
    dict: ``mlp_extractor.policy_net.<i>`` linear layers, each followed by the activation, then
    ``action_net``."""
    activation = str(meta.get("policy", {}).get("activation", "tanh")).lower()
    hidden = sorted(
        int(m.group(1))
        for k in arrays
        if (m := re.fullmatch(r"mlp_extractor\.policy_net\.(\d+)\.weight", k))
    )
    names = [f"mlp_extractor.policy_net.{i}" for i in hidden] + ["action_net"]
    layers = []
    for j, name in enumerate(names):
        w, b = arrays.get(f"{name}.weight"), arrays.get(f"{name}.bias")
        if w is None or b is None or w.ndim != 2 or b.shape != w.shape[:1]:
            raise ConfigError(f"{where}: no usable {name} weights and bias")
        if layers and layers[-1][0].shape[1] != w.shape[1]:
            raise ConfigError(f"{where}: {name} does not fit the layer before it")
        layers.append((w.T, b, activation if j < len(names) - 1 else "identity"))
    return layers


def state_arrays(module: Any) -> dict[str, np.ndarray]:
    """A torch module's parameters and buffers as numpy arrays, by their state-dict names."""
    return {k: v.detach().cpu().numpy().copy() for k, v in module.state_dict().items()}


def split_tensors(obj: Any, arrays: dict[str, np.ndarray], prefix: str) -> Any:
    """``obj`` (nested dicts, lists, tuples, numbers, strings, torch tensors: an optimizer's
    state dict) as JSON data, its tensors moved into ``arrays`` under ``prefix``-based names."""
    import torch

    if isinstance(obj, torch.Tensor):
        key = f"{prefix}{len(arrays)}"
        arrays[key] = obj.detach().cpu().numpy().copy()
        return {"__array__": key}
    if isinstance(obj, dict):
        return {
            "__items__": [
                [split_tensors(k, arrays, prefix), split_tensors(v, arrays, prefix)]
                for k, v in obj.items()
            ]
        }
    if isinstance(obj, list | tuple):
        items = [split_tensors(v, arrays, prefix) for v in obj]
        return {"__tuple__": items} if isinstance(obj, tuple) else items
    if obj is None or isinstance(obj, bool | int | float | str):
        return obj
    raise ConfigError(f"cannot store a {type(obj).__name__} in a checkpoint")


def join_tensors(data: Any, arrays: dict[str, np.ndarray]) -> Any:
    """The inverse of :func:`split_tensors` (tensors come back as torch tensors)."""
    import torch

    if isinstance(data, list):
        return [join_tensors(v, arrays) for v in data]
    if isinstance(data, dict):
        if set(data) == {"__array__"}:
            if data["__array__"] not in arrays:
                raise ConfigError(f"checkpoint: missing array {data['__array__']!r}")
            return torch.from_numpy(arrays[data["__array__"]].copy())
        if set(data) == {"__tuple__"}:
            return tuple(join_tensors(v, arrays) for v in data["__tuple__"])
        if set(data) == {"__items__"}:
            return {join_tensors(k, arrays): join_tensors(v, arrays) for k, v in data["__items__"]}
        raise ConfigError(f"checkpoint: unexpected entry {sorted(data)}")
    return data
