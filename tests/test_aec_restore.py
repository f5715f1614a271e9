"""A saved env restores who is still at the table: after the game's end, agents that already
stepped out get no further turn (the ``aec`` block's ``agents``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cardarena import envs
from cardarena.envs.core.errors import ConfigError


def _ended(name: str):
    env = envs.make(name)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env


def _step_out(env) -> list[str]:
    order = []
    for agent in env.agent_iter():
        order.append(agent)
        env.step(None)
    return order


@pytest.mark.parametrize("name", envs.names())
def test_agents_that_stepped_out_stay_out_after_a_restore(name):
    env = _ended(name)
    env.step(None)  # the first agent collects its result and leaves
    saved = json.loads(json.dumps(env.to_dict()))
    assert len(saved["aec"]["agents"]) == env.num_agents == env.max_num_agents - 1
    restored = envs.make(name)
    restored.from_dict(saved)
    assert restored.agents == env.agents
    assert restored.rewards == env.rewards
    assert _step_out(restored) == _step_out(env)


def test_a_bad_agents_list_is_refused():
    env = _ended("flip6")
    saved = env.to_dict()
    for bad in ([0, 0], [9], "all", [2, 1]):
        with pytest.raises(ConfigError, match="aec.agents"):
            envs.make("flip6").from_dict({**saved, "aec": {**saved["aec"], "agents": bad}})
    running = envs.make("flip6")
    running.reset(seed=0)
    data = running.to_dict()
    with pytest.raises(ConfigError, match="every seat while the game runs"):
        envs.make("flip6").from_dict({**data, "aec": {**data["aec"], "agents": [0]}})
    older = {**saved, "aec": {k: v for k, v in saved["aec"].items() if k != "agents"}}
    again = envs.make("flip6")
    again.from_dict(older)  # a save from before the agents were kept: everyone still there
    assert again.agents == again.possible_agents
