"""Vector envs over every gymnasium id: gymnasium's make_vec (sync and async) and SB3's make_vec_env
(DummyVecEnv, SubprocVecEnv), with each sub-env's action mask right after an auto-reset."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

from cardarena import envs

GAMES = envs.names()
N = 2  # sub-envs
#: the cheapest opponents, so that a step costs little
FAST = {"opponents": "random"}


def _id(game: str) -> str:
    return f"cardarena/{game}-v0"


def _illegal(mask: np.ndarray) -> int | None:
    """An action the mask forbids (the env forfeits the episode on it: a quick auto-reset)."""
    banned = np.flatnonzero(mask == 0)
    return int(banned[0]) if len(banned) else None


def _masks_of(vec: gym.vector.VectorEnv) -> np.ndarray:
    return np.stack(vec.call("action_masks"))


def _check_gymnasium_vector(vec: gym.vector.VectorEnv, steps: int, natural: bool) -> int:
    """Step ``vec``; sub-env 0 forfeits (an illegal action) whenever it can unless ``natural``.
    Every mask in ``infos`` is the sub-env's own; on the step after an episode's end (the reset
    step of NEXT_STEP autoreset) it is the new episode's. Returns the number of such steps."""
    mode = vec.metadata.get("autoreset_mode", "NextStep")  # gymnasium 1.0 has only NEXT_STEP
    assert getattr(mode, "value", mode) == "NextStep", mode
    n_actions = vec.single_action_space.n
    rng = np.random.default_rng(0)
    _, infos = vec.reset(seed=0)
    masks = infos["action_mask"]
    assert masks.shape == (N, n_actions) and infos["_action_mask"].all()
    assert np.array_equal(masks.astype(bool), _masks_of(vec)) and masks.any(axis=1).all()
    ended = np.zeros(N, dtype=bool)
    resets = 0
    for _ in range(steps):
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]
        if not natural and not ended[0] and _illegal(masks[0]) is not None:
            actions[0] = _illegal(masks[0])
        _, _, terminated, truncated, infos = vec.step(np.array(actions))
        masks = infos["action_mask"]
        assert masks.shape == (N, n_actions) and infos["_action_mask"].all()
        assert np.array_equal(masks.astype(bool), _masks_of(vec))
        for i in range(N):
            if ended[i]:  # the reset step: a new episode with its own legal actions
                assert masks[i].any(), f"sub-env {i}: all-zero mask after the auto-reset"
                resets += 1
            elif terminated[i] or truncated[i]:
                assert not masks[i].any()  # the episode is over: no legal action
            else:
                assert masks[i].any()
        ended = terminated | truncated
    return resets


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_make_vec_sync(game):
    vec = gym.make_vec(_id(game), num_envs=N, vectorization_mode="sync", **FAST)
    assert _check_gymnasium_vector(vec, steps=8, natural=False) >= 1
    vec.close()


def test_gymnasium_make_vec_natural_episode_ends():
    """Whole flip6 episodes (short): the masks after their natural ends."""
    vec = gym.make_vec(_id("flip6"), num_envs=N, vectorization_mode="sync", **FAST)
    assert _check_gymnasium_vector(vec, steps=40, natural=True) >= 2
    vec.close()


def test_gymnasium_make_vec_async_and_pictures():
    vec = gym.make_vec(
        "cardarena.envs:"
        + _id("thegame"),  # the workers import the games whatever their start method
        num_envs=N,
        vectorization_mode="async",
        render_mode="rgb_array",
        **FAST,
    )
    assert _check_gymnasium_vector(vec, steps=6, natural=False) >= 1
    frames = vec.render()
    assert len(frames) == N and all(f.dtype == np.uint8 and f.ndim == 3 for f in frames)
    vec.close()


def _check_sb3(vec, steps: int) -> int:
    """SB3 resets a finished sub-env inside step(): ``get_action_masks`` (``env_method``) then
    gives the new episode's mask, the one of ``reset_infos``. Sub-env 0 forfeits when it can."""
    rng = np.random.default_rng(0)
    vec.seed(0)
    vec.reset()
    resets = 0
    for _ in range(steps):
        masks = get_action_masks(vec)
        assert masks.shape == (N, vec.action_space.n) and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        illegal = _illegal(masks[0])
        if illegal is not None:
            actions[0] = illegal
        _, _, dones, infos = vec.step(actions)
        after = get_action_masks(vec)
        for i in range(N):
            assert after[i].any(), f"sub-env {i}: all-zero mask after step (auto-reset: {dones[i]})"
            if dones[i]:
                resets += 1
                assert np.array_equal(after[i], vec.reset_infos[i]["action_mask"].astype(bool))
                assert "terminal_observation" in infos[i]
            else:
                assert np.array_equal(after[i], infos[i]["action_mask"].astype(bool))
    return resets


@pytest.mark.parametrize("game", GAMES)
def test_sb3_make_vec_env_dummy(game):
    vec = make_vec_env(_id(game), n_envs=N, env_kwargs=FAST)  # asks for render_mode="rgb_array"
    assert isinstance(vec, DummyVecEnv)
    assert _check_sb3(vec, steps=4) >= 1
    image = vec.render()
    assert image.dtype == np.uint8 and image.ndim == 3  # the sub-envs' pictures, tiled
    vec.close()


def test_sb3_make_vec_env_subproc():
    """SubprocVecEnv starts its workers by forkserver: "cardarena.envs:" before the id has gymnasium import
    the games there (a script importing envs at the top needs no prefix; pytest's does)."""
    vec = make_vec_env(
        "cardarena.envs:" + _id("flip6"), n_envs=N, env_kwargs=FAST, vec_env_cls=SubprocVecEnv
    )
    assert _check_sb3(vec, steps=4) >= 1
    vec.close()


def test_maskable_ppo_trains_on_make_vec_env():
    import torch
    from sb3_contrib import MaskablePPO

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        vec = make_vec_env(_id("flip6"), n_envs=N, seed=0)
        model = MaskablePPO("MlpPolicy", vec, n_steps=128, batch_size=128, n_epochs=1, seed=0)
        model.learn(256)
        assert model.num_timesteps == 256
        vec.close()
    finally:
        torch.set_num_threads(threads)
