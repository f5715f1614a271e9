"""Single-agent gymnasium envs (issue 10): ``gymnasium.make("cardarena/<game>-v0", ...)`` with
scripted or network opponents, gymnasium's check_env, and MaskablePPO on top."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cardarena import envs
from cardarena.envs.core.engine import ConfigError, GameOverError, IllegalActionError

GAMES = envs.names()


def _make(game, **kwargs):
    return gym.make(f"cardarena/{game}-v0", **kwargs)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_is_registered_and_passes_check_env(game):
    env = _make(game)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    problems = [str(w.message) for w in caught if "WARN" in str(w.message)]
    assert not problems, problems
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gymnasium advises checking the unwrapped env
        check_env(env)  # through gym.make's wrappers too
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32 and obs in env.observation_space
    assert env.unwrapped.action_masks().any() and "seat" in info
    with pytest.warns(UserWarning, match="render_mode=None"):
        assert env.unwrapped.render() is None
    text = _make(game, render_mode="ansi")
    text.reset(seed=0)
    assert "(you)" in text.render()


@pytest.mark.parametrize(
    "game,kwargs",
    [
        ("flip6", {"opponents": "ev", "num_players": 4}),
        ("sevn", {"opponents": ["ev", "threshold", "random"], "learner_seat": 1}),
        ("ratatat", {"opponents": {"tracker": 2, "random": 1}, "memory": "none", "num_players": 3}),
        ("thegame", {"opponents": "planner", "num_players": 3, "signals": True}),
        ("suicidium", {"opponents": "tiny_policy:make", "mode": "DEPRESSION", "expansion": True}),
        ("thegame", {"shared_policy": True, "num_players": 2}),
    ],
)
def test_options_opponents_and_seats_play_whole_games(game, kwargs):
    env = _make(game, **kwargs)
    base = env.unwrapped
    rng = np.random.default_rng(0)
    seats = set()
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        seats.add(info["seat"])
        done = False
        while not done:
            legal = np.flatnonzero(base.action_masks())
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            done = terminated or truncated
        assert "illegal_action" not in info and "scores" in info
    if "learner_seat" in kwargs:
        assert seats == {kwargs["learner_seat"]}
    if "opponents" in kwargs and not isinstance(kwargs["opponents"], dict):
        names = kwargs["opponents"]
        names = [names] * (base.num_players - 1) if isinstance(names, str) else names
        others = [n for s, n in enumerate(info["opponents"]) if s != info["seat"]]
        want = [base.opponents._agent(i, spec).name for i, spec in enumerate(names)]
        assert others == want


def test_same_seed_same_episode():
    def episode(seed):
        env = _make("sevn", opponents={"ev": 1, "random": 1}, num_players=3)
        obs, info = env.reset(seed=seed)
        trace = [obs.tobytes(), info["seat"]]
        done, rng = False, np.random.default_rng(seed)
        while not done:
            legal = np.flatnonzero(env.unwrapped.action_masks())
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            trace += [obs.tobytes(), reward]
            done = terminated or truncated
        return trace

    assert episode(3) == episode(3)
    assert episode(3) != episode(4)


def test_illegal_actions_forfeit_by_default_or_raise():
    env = _make("flip6", num_players=3)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.unwrapped.action_masks())[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and not truncated and reward == -1.0
    assert "is not legal" in info["illegal_action"]
    strict = _make("flip6", num_players=3, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match="Legal actions"):
        strict.step(illegal)
    env.reset(seed=1)
    done = False
    while not done:  # play to the end: a step after it is an error, not another forfeit
        legal = np.flatnonzero(env.unwrapped.action_masks())
        done = env.step(int(legal[0]))[2]
    with pytest.raises(GameOverError):
        env.unwrapped.step(0)


def test_bad_options_say_what_is_allowed():
    with pytest.raises(ConfigError, match="one agent per other seat"):
        _make("flip6", opponents=["ev"], num_players=4)
    with pytest.raises(ConfigError, match="unknown agent"):
        _make("flip6", opponents="nope")
    with pytest.raises(ConfigError, match="illegal_action"):
        _make("flip6", illegal_action="ignore")
    with pytest.raises(ConfigError, match="num_players"):
        _make("flip6", num_players=9)


def test_readme_maskable_ppo_example_trains(tmp_path):
    """The README's example, with small rollouts so a few hundred steps suffice."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = gym.make("cardarena/flip6-v0", opponents="ev", num_players=4)
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=2, seed=0)
    model.learn(total_timesteps=256)
    model.save(tmp_path / "flip6_vs_ev")
    model = MaskablePPO.load(tmp_path / "flip6_vs_ev")
    obs, info = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
    assert env.unwrapped.action_masks()[int(action)]
    assert model.num_timesteps >= 256
    # the checkpoint is an agent like any other: in a tournament and as a gym opponent
    from cardarena.agents import make_agent
    from cardarena.agents.evaluation.tournament import play_game

    path = "sb3:" + str(tmp_path / "flip6_vs_ev.zip")  # sb3: reads its weights, nothing pickled
    seats = [make_agent("flip6", s) for s in (path, "ev", "random")]
    assert play_game("flip6", {"num_players": 3}, seats, deal_seed=0).decisions > 0
    versus = gym.make("cardarena/flip6-v0", opponents=path, num_players=3)
    versus.reset(seed=0)
    assert versus.unwrapped.opponents(np.random.default_rng(0), 2)[0].name == "flip6_vs_ev"
