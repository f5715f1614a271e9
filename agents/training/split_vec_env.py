"""A VecEnv whose games run in two processes at once: this one and one worker.

With ``DummyVecEnv`` every game is stepped in the training process while the second core idles;
``SubprocVecEnv`` (one process per game) pays a pipe round trip per game and step and leaves the
training process waiting, which on this 2-core machine measured *slower* than ``DummyVecEnv``
(suicidium, 32 games: about 1,450 against 1,950 learner steps/s). :class:`SplitVecEnv` keeps a
share of the games here and gives the rest to a single worker process that holds them in its own
``DummyVecEnv``: a step sends the worker its actions, steps the local games meanwhile, then
collects the worker's results in one message, which also carries the action masks of its games,
so sb3-contrib's ``get_action_masks`` costs no second round trip.

The games are the ones ``DummyVecEnv`` would play: the same env functions, seeds
(``VecEnv.seed``) and order, so observations, rewards and infos are identical
(``tests/test_training.py::test_split_vec_env_plays_the_games_of_dummy_vec_env``). Env functions
must be picklable with cloudpickle (closures are fine) since the worker is started with
``forkserver``/``spawn`` (never ``fork``: the training process runs torch thread pools). An
exception in a worker game is raised again here with the worker's traceback.

``vec_env: split`` in a training config selects it (``local_share`` of the games stay here: the
training process also runs the network, so it gets the smaller share).
"""

from __future__ import annotations

import multiprocessing as mp
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv
from stable_baselines3.common.vec_env.base_vec_env import (
    CloudpickleWrapper,
    VecEnv,
    VecEnvIndices,
    VecEnvStepReturn,
)

#: share of the games stepped in the training process (measured: 0.33-0.5 all within noise, see
#: bench/README.md; the rest go to the worker)
LOCAL_SHARE = 0.4


class FreshInfoDummyVecEnv(DummyVecEnv):
    """``DummyVecEnv`` that hands out each step's info dicts without deep-copying them.

    ``DummyVecEnv.step_wait`` deep-copies every game's info dict at every step, so that a caller
    keeping them cannot see them change. The games of this suite build a new info dict, with a
    new action mask, at every step, so a copy of each dict (and of the terminal observation this
    class adds to it, the one object an env might reuse) protects the caller as well; the deep
    copy of 64 dicts was 5-6% of a suicidium rollout's time. Everything else is
    ``DummyVecEnv``'s (stable-baselines3 2.x ``step_wait``, line for line but the copy), and the
    steps are the same (``tests/test_training.py``).
    """

    def step_wait(self) -> VecEnvStepReturn:
        for i in range(self.num_envs):
            obs, self.buf_rews[i], terminated, truncated, info = self.envs[i].step(self.actions[i])
            self.buf_infos[i] = info
            self.buf_dones[i] = terminated or truncated
            info["TimeLimit.truncated"] = truncated and not terminated
            if self.buf_dones[i]:  # the final observation for the caller, then a new game
                info["terminal_observation"] = np.array(obs, copy=True)
                obs, self.reset_infos[i] = self.envs[i].reset()
            self._save_obs(i, obs)
        return (
            self._obs_from_buf(),
            np.copy(self.buf_rews),
            np.copy(self.buf_dones),
            [dict(info) for info in self.buf_infos],
        )


def _masks(venv: DummyVecEnv) -> np.ndarray | None:
    if not venv.envs or not hasattr(venv.envs[0], "action_masks"):
        return None
    return np.stack([env.action_masks() for env in venv.envs])


def _worker(remote: Any, parent_remote: Any, fns: CloudpickleWrapper) -> None:
    from threadpoolctl import threadpool_limits

    from cardarena.agents.parent_watch import watch_parent

    watch_parent()  # a killed train.py takes this worker with it
    parent_remote.close()
    # one thread for BLAS and OpenMP: this process steps games (small numpy products) next to
    # the training process, and extra threads only fight it for the cores
    threadpool_limits(1)
    venv: DummyVecEnv | None = None
    while True:
        try:
            cmd, data = remote.recv()
        except (EOFError, KeyboardInterrupt):  # the training process is gone
            break
        try:
            if cmd == "close":
                if venv is not None:
                    venv.close()
                remote.send(("ok", None))
                break
            if cmd == "init":
                venv = FreshInfoDummyVecEnv(fns.var)
                out: Any = (venv.observation_space, venv.action_space)
            elif cmd == "step":
                venv.step_async(data)
                obs, rewards, dones, infos = venv.step_wait()
                out = (obs, rewards, dones, infos, venv.reset_infos, _masks(venv))
            elif cmd == "reset":
                venv._seeds, venv._options = data
                obs = venv.reset()
                out = (obs, venv.reset_infos, _masks(venv))
            elif cmd == "call":
                # a DummyVecEnv method that takes indices: env_method, get_attr, set_attr, ...
                method, args, kwargs, indices = data
                out = getattr(venv, method)(*args, indices=indices, **kwargs)
            elif cmd == "get_images":
                out = venv.get_images()
            else:
                raise NotImplementedError(f"unknown command {cmd!r}")
            remote.send(("ok", out))
        except Exception:  # noqa: BLE001 - reported to the training process, which raises
            remote.send(("error", traceback.format_exc()))


class SplitVecEnv(VecEnv):
    """``n`` games: ``round(n * local_share)`` (at least one) stepped here, the rest in one worker
    process, concurrently (see the module docstring)."""

    def __init__(
        self,
        env_fns: Sequence[Callable[[], gym.Env]],
        local_share: float = LOCAL_SHARE,
        start_method: str | None = None,
    ) -> None:
        n = len(env_fns)
        if n < 2:
            raise ValueError("SplitVecEnv needs at least 2 envs (one here, one in the worker)")
        if not 0.0 < local_share < 1.0:
            raise ValueError(f"local_share must be in (0, 1), got {local_share}")
        self.num_local = min(n - 1, max(1, round(n * local_share)))
        if start_method is None:
            methods = mp.get_all_start_methods()
            start_method = "forkserver" if "forkserver" in methods else "spawn"
        ctx = mp.get_context(start_method)
        self._remote, worker_end = ctx.Pipe()
        self._process = ctx.Process(
            target=_worker,
            args=(worker_end, self._remote, CloudpickleWrapper(list(env_fns[self.num_local :]))),
            daemon=True,
        )
        self._process.start()
        worker_end.close()
        self._closed = False
        self._remote.send(("init", None))  # the worker builds its games while we build ours
        self.local = FreshInfoDummyVecEnv(list(env_fns[: self.num_local]))
        self._call_result()
        self._remote_masks: np.ndarray | None = None
        self._stepping = False
        super().__init__(n, self.local.observation_space, self.local.action_space)

    # ---- messages ---------------------------------------------------------------------------------
    def _call_result(self) -> Any:
        try:
            status, payload = self._remote.recv()
        except EOFError as exc:
            raise RuntimeError("the SplitVecEnv worker process died") from exc
        if status == "error":
            raise RuntimeError(f"error in a SplitVecEnv worker game:\n{payload}")
        return payload

    def _call(self, cmd: str, data: Any = None) -> Any:
        self._remote_masks = None  # anything but step/reset may change the worker's games
        self._remote.send((cmd, data))
        return self._call_result()

    def _split(self, indices: VecEnvIndices) -> tuple[list[int], list[int]]:
        idx = list(self._get_indices(indices))
        local = [i for i in idx if i < self.num_local]
        remote = [i - self.num_local for i in idx if i >= self.num_local]
        return local, remote

    # ---- VecEnv API ------------------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        k = self.num_local
        self._remote.send(("reset", (self._seeds[k:], self._options[k:])))
        self.local._seeds, self.local._options = self._seeds[:k], self._options[:k]
        local_obs = self.local.reset()
        remote_obs, remote_infos, self._remote_masks = self._call_result()
        self.reset_infos = list(self.local.reset_infos) + list(remote_infos)
        self._reset_seeds()
        self._reset_options()
        return np.concatenate([local_obs, remote_obs])

    def step_async(self, actions: np.ndarray) -> None:
        self._remote.send(("step", actions[self.num_local :]))
        self._stepping = True
        self.local.step_async(actions[: self.num_local])

    def step_wait(self) -> VecEnvStepReturn:
        local = self.local.step_wait()  # the worker steps its games meanwhile
        self._stepping = False
        obs, rewards, dones, infos, reset_infos, self._remote_masks = self._call_result()
        self.reset_infos = list(self.local.reset_infos) + list(reset_infos)
        return (
            np.concatenate([local[0], obs]),
            np.concatenate([local[1], rewards]),
            np.concatenate([local[2], dones]),
            list(local[3]) + list(infos),
        )

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **kwargs: Any
    ) -> list[Any]:
        local, remote = self._split(indices)
        if (
            method_name == "action_masks"
            and not method_args
            and not kwargs
            and self._remote_masks is not None
        ):  # sent with the last step or reset: no round trip
            return self.local.env_method(method_name, indices=local) + [
                self._remote_masks[i] for i in remote
            ]
        return self._on_both("env_method", indices, method_name, *method_args, **kwargs)

    def _on_both(self, method: str, indices: VecEnvIndices, *args: Any, **kwargs: Any) -> list[Any]:
        """Call a DummyVecEnv method taking ``indices`` on both sides of the split; results in
        env order (``[]`` for methods that return nothing)."""
        local, remote = self._split(indices)
        out = (
            list(getattr(self.local, method)(*args, indices=local, **kwargs) or []) if local else []
        )
        if remote:
            out += list(self._call("call", (method, args, kwargs, remote)) or [])
        return out

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self._on_both("get_attr", indices, attr_name)

    def has_attr(self, attr_name: str) -> bool:
        return self.local.has_attr(attr_name)  # every game is built by the same kind of function

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        self._on_both("set_attr", indices, attr_name, value)

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return self._on_both("env_is_wrapped", indices, wrapper_class)

    def get_images(self) -> Sequence[np.ndarray | None]:
        return list(self.local.get_images()) + list(self._call("get_images"))

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if self._stepping:
                self._call_result()
            self._remote.send(("close", None))
            self._call_result()
        except (OSError, RuntimeError):
            pass  # the worker is already gone (killed, or died with an error raised earlier)
        self._process.join(timeout=10)
        if self._process.is_alive():
            self._process.terminate()
        self.local.close()


def vec_env_class(kind: str) -> Any:
    """The VecEnv class of a config's ``vec_env``: ``dummy`` (every game in this process),
    ``split`` (a share here and the rest in one worker process, stepped at the same time:
    :class:`SplitVecEnv`) or ``subproc`` (one process per game)."""
    from stable_baselines3.common.vec_env import SubprocVecEnv

    classes = {"dummy": FreshInfoDummyVecEnv, "split": SplitVecEnv, "subproc": SubprocVecEnv}
    if kind not in classes:
        raise ValueError(f"vec_env must be one of {sorted(classes)}, got {kind!r}")
    return classes[kind]
