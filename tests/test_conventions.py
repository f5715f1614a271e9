"""PettingZoo's conventions on the AEC envs: ``state()`` / ``state_space`` (every seat's
observation, then the hidden state), ``illegal_action="terminate"`` (the classic -1 for the
offender), and metadata that belongs to each env."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from pettingzoo.test.state_test import test_state as pz_state
from pettingzoo.test.state_test import test_state_space as pz_state_space
from pettingzoo.utils import average_total_reward
from pettingzoo.utils.wrappers import CaptureStdoutWrapper

from cardarena import envs
from cardarena.envs.core.errors import ActionTypeError, ConfigError, IllegalActionError

GAMES = envs.names()


def random_steps(env, rng, steps):
    for _ in range(steps):
        if env.terminations[env.agent_selection]:
            return
        legal = env.legal_actions()
        env.step(int(legal[rng.integers(len(legal))]))


@pytest.mark.parametrize("name", GAMES)
def test_state_is_every_observation_then_the_hidden_state(name: str) -> None:
    spec = envs.get_spec(name)
    cls = spec.engine_cls
    for n in sorted({cls.min_players, cls.max_players}):
        env = envs.make(name, num_players=n)
        privileged = spec.privileged_module()
        extra = privileged.privileged_size(env.game)
        assert env.state_space.shape == (n * spec.obs_size + extra,)
        rng = np.random.default_rng(n)
        for seed in range(3):
            env.reset(seed=seed)
            while True:
                state = env.state()
                assert state.dtype == np.float32 and env.state_space.contains(state)
                for seat in range(n):  # the observations, in seat order
                    part = state[seat * spec.obs_size : (seat + 1) * spec.obs_size]
                    assert np.array_equal(part, env.observe(f"player_{seat}")["observation"])
                hidden = privileged.encode_privileged(env.state_obj, 0)
                assert np.array_equal(state[n * spec.obs_size :], hidden)
                if env.terminations[env.agent_selection]:
                    break
                random_steps(env, rng, 7)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoos_state_test_and_average_total_reward(name: str) -> None:
    env = envs.make(name, illegal_action="terminate")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # none of PettingZoo's warnings about the state either
        pz_state_space(env)
        pz_state(env, 30)  # it samples actions without the mask: illegal ones end the game
    average = average_total_reward(envs.make(name, illegal_action="terminate"), 3, 10**6)
    assert -1.0 <= average <= 1.0
    with pytest.raises(IllegalActionError):  # the default still raises
        average_total_reward(envs.make(name), 3, 10**6)


@pytest.mark.parametrize("name", GAMES)
def test_terminate_ends_the_episode_with_minus_one_for_the_offender(name: str) -> None:
    env = envs.make(name, illegal_action="terminate", illegal_reward=-2.5)
    env.reset(seed=4)
    random_steps(env, np.random.default_rng(4), 5)
    agent = env.agent_selection
    legal = env.legal_actions()
    illegal = next(a for a in range(env.game.num_actions) if a not in legal)
    before = env.unwrapped.game.to_dict(env.state_obj)
    with pytest.raises(ActionTypeError):  # not an action at all: still refused
        env.step(1.5)
    env.step(illegal)
    assert env.unwrapped.game.to_dict(env.state_obj) == before  # the game itself untouched
    assert env.forfeited_by == int(agent.split("_")[1])
    assert all(env.terminations.values())
    assert env.rewards == {a: (-2.5 if a == agent else 0.0) for a in env.agents}
    assert "illegal_action" in env.infos[agent]
    saved = json.loads(json.dumps(env.to_dict()))  # a save of the ended episode restores it
    twin = envs.make(name)
    twin.from_dict(saved)
    assert twin.forfeited_by == env.forfeited_by and all(twin.terminations.values())
    got = {}
    for a in twin.agent_iter():
        got[a] = twin.last()[1]
        twin.step(None)
    assert got == {a: (-2.5 if a == agent else 0.0) for a in env.possible_agents}
    for bad in ("ignore", None, 1):
        with pytest.raises(ConfigError, match="illegal_action"):
            envs.make(name, illegal_action=bad)
    with pytest.raises(ConfigError, match="illegal_reward"):
        envs.make(name, illegal_action="terminate", illegal_reward=float("nan"))
    env.reset(seed=5)  # a new game plays normally
    assert env.forfeited_by is None and not any(env.terminations.values())


def test_each_env_has_its_own_metadata() -> None:
    one = envs.make("flip6", render_mode="human")
    CaptureStdoutWrapper(one)  # adds "ansi" to the env's render modes
    assert one.metadata is not envs.make("flip6").metadata
    assert envs.make("sevn").metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    assert envs.make("sevn").metadata["name"] == "sevn_v" + str(envs.get_spec("sevn").version)
