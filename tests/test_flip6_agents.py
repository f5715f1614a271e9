"""flip6 baselines: registration, legal and seeded play, and their single choices (the strength
ladder random < threshold < ev is a claim of ``bench/strength.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from cardarena.agents import best_baseline, make_agent, scripted_names
from cardarena.agents.base import RandomAgent
from cardarena.agents.baselines.flip6 import ExpectedValueAgent, ThresholdAgent, bust_probability
from cardarena.envs.core.engine import ConfigError


def test_registry_names_and_best_baseline():
    assert scripted_names("flip6") == ["random", "threshold", "ev"]
    assert best_baseline("flip6") == "ev"
    assert isinstance(make_agent("flip6", "ev"), ExpectedValueAgent)
    assert isinstance(make_agent("flip6", "threshold"), ThresholdAgent)
    assert isinstance(make_agent("flip6", "random"), RandomAgent)
    with pytest.raises(ConfigError, match="unknown agent"):
        make_agent("flip6", "alphazero")
    with pytest.raises(ConfigError, match="does not exist"):
        make_agent("flip6", "no/such/checkpoint.zip")
    with pytest.raises(ConfigError, match="zoo holds"):
        make_agent("flip6", "zoo:nope")


def test_agents_only_pick_legal_actions_and_are_seeded():
    from cardarena import envs

    env = envs.make("flip6", num_players=5)
    for name in ("random", "threshold", "ev"):
        picks = []
        for _ in range(2):
            agent = make_agent("flip6", name)
            agent.reset(7)
            env.reset(seed=3)
            seq = []
            for a in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                seat = int(a.split("_")[1])
                act = agent.act(obs["observation"], obs["action_mask"], env.unwrapped.view(seat))
                assert obs["action_mask"][act] == 1, (name, act)
                seq.append(act)
                env.step(act)
            picks.append(seq)
        assert picks[0] == picks[1], f"{name} is not reproducible under the same seed"


def test_bust_probability_counts_the_discard_pile():
    view = {
        "draw_pile_size": 4,
        "unseen": {"6": 2, "5": 1, "ZERO": 1},
        "discard_pile": [],
        "values": [[6], []],
    }
    assert bust_probability(view, 0) == pytest.approx(0.5)
    assert bust_probability(view, 1) == 0.0
    # empty draw pile: the next card comes from the reshuffled discard pile (F16)
    view2 = {
        "draw_pile_size": 0,
        "unseen": {},
        "discard_pile": ["6", "1", "1", "2"],
        "values": [[1]],
    }
    assert bust_probability(view2, 0) == pytest.approx(0.5)


def test_ev_freezes_itself_when_at_risk_with_points():
    agent = ExpectedValueAgent(seed=0)
    view = {
        "seat": 0,
        "num_players": 3,
        "target_score": 60,
        "decision": "target_freeze",
        "scores": [10, 10, 10],
        "status": ["in_round"] * 3,
        "values": [[3, 4, 5, 6], [1], [2]],
        "round_scores": [18, 1, 2],
        "has_double": [False] * 3,
        "has_extra_life": [False] * 3,
        "draw_pile_size": 10,
        "discard_pile": [],
        "unseen": {"6": 4, "5": 3, "4": 2, "1": 1},
    }
    mask = np.zeros(8, dtype=np.int8)
    mask[2:5] = 1
    assert agent.act(np.zeros(1), mask, view) == 2  # target 0 = itself
