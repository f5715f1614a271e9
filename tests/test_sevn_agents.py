"""SEVN baselines: registration, whole games at any player count and sensible single choices (the
ladder random < threshold < ev is a claim of ``bench/strength.py``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardarena.envs.sevn  # noqa: F401  (registers the game even before it is listed in envs.GAMES)
from cardarena import envs
from cardarena.agents import make_agent, scripted_names
from cardarena.agents.baselines.sevn import BASELINES, ExpectedValueAgent, ThresholdAgent
from cardarena.agents.evaluation.tournament import run_tournament
from cardarena.envs.core import CardGameEnv
from cardarena.envs.sevn.rules import DISCARD, DRAW, FORK0, KEEP, PASS, TARGET0


def test_baselines_are_registered_weakest_first() -> None:
    assert list(BASELINES) == ["threshold", "ev"]
    assert scripted_names("sevn") == ["random", "threshold", "ev"]
    assert make_agent("sevn", "ev", seed=1).name == "ev"


@pytest.mark.parametrize("n", [2, 8])
@pytest.mark.parametrize("name", ["threshold", "ev"])
def test_baselines_play_whole_games_at_any_player_count(name: str, n: int) -> None:
    lineup = [name, "random"] * (n // 2)  # an agent per seat: A B A B ... (2 distinct tables)
    result = run_tournament("sevn", lineup, num_deals=2, options={"num_players": n}, progress=False)
    assert len(result.records) == 4 and all(len(r.winners) == 1 for r in result.records)


# ---- single decisions of the expected-value player ----------------------------------------------
def scenario(deck: list[str], moves: list[str], n: int = 3, **reset: Any) -> CardGameEnv:
    env = envs.make("sevn", num_players=n)
    env.reset(seed=0, options={"deck": deck, "dealer": 0, **reset})
    for move in moves:
        seat, text = move.split(" ", 1)
        assert env.agent_selection == f"player_{seat}"
        env.step(env.parse_action(text))
    return env


def ev_choice(env: CardGameEnv, agent: Any = None) -> int:
    seat = int(env.agent_selection.split("_")[1])
    obs = env.observe(env.agent_selection)
    agent = agent or ExpectedValueAgent(seed=0)
    action = agent.act(obs["observation"], obs["action_mask"], env.view(seat))
    assert obs["action_mask"][action] == 1
    return action


def test_ev_draws_a_small_hand_and_passes_a_risky_big_one() -> None:
    env = scenario(["2", "9", "10"], [])  # seat 1 holds a 2: nothing to lose
    assert ev_choice(env) == DRAW
    # seat 1 holds 13, 12, 11 (36 points, a third of the deck duplicates them)
    env = scenario(["FLIP_THREE", "13", "12", "11", "9", "10"], ["1 target 1"])
    assert env.view(1)["hand_scores"][1] == 36
    assert ev_choice(env) == PASS
    assert ev_choice(env, ThresholdAgent()) == PASS


def test_ev_keeps_the_ballast_that_makes_sevn_and_discards_a_useless_one() -> None:
    deck = ["1", "9", "FLIP_THREE", "2", "3", "4", "FLIP_THREE", "5", "6", "-2"]
    env = scenario(deck, ["1 draw", "1 target 1", "0 draw", "0 target 1"], n=2)
    assert env.view(1)["decision"] == "ballast"
    assert ev_choice(env) == KEEP
    env = scenario(["13", "9", "-6"], ["1 draw"], n=2)
    assert env.view(1)["decision"] == "ballast"
    assert ev_choice(env) == DISCARD


def test_ev_fork_avoids_the_bust() -> None:
    env = scenario(["13", "9", "10", "FORK", "13", "4"], ["1 draw"])
    assert env.view(1)["holding"] == ["13", "4"]
    assert ev_choice(env) == FORK0 + 1
    env = scenario(["13", "9", "10", "FORK", "4", "13"], ["1 draw"])
    assert ev_choice(env) == FORK0


def test_ev_freezes_an_opponent_still_to_be_dealt() -> None:
    env = scenario(["FREEZE"], [], n=4)  # seat 1 is dealt FREEZE first: nobody holds a card
    assert env.view(1)["decision"] == "target_freeze"
    assert ev_choice(env) != TARGET0 + 1


def test_ev_flip_three_hits_the_opponent_with_most_to_lose() -> None:
    # seat 2 holds 13, 12, 11 (risky, 36 points), seat 0 holds a 2; seat 1 draws FLIP_THREE
    deck = ["3", "FLIP_THREE", "13", "12", "11", "2", "FLIP_THREE"]
    env = scenario(deck, ["2 target 2", "1 draw"], n=3)
    assert env.view(1)["decision"] == "target_flip_three"
    assert env.view(1)["hand_scores"] == [2, 3, 36]
    assert ev_choice(env) == TARGET0 + 2


def test_ev_hands_second_chance_to_the_trailing_player() -> None:
    deck = ["SECOND_CHANCE", "5", "6", "SECOND_CHANCE"]
    env = scenario(deck, ["1 draw"], n=3, scores=[200, 0, 50])
    assert env.view(1)["decision"] == "target_second_chance"
    assert ev_choice(env) == TARGET0 + 2


def test_agents_are_reproducible() -> None:
    env = envs.make("sevn", num_players=4)
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    seat = int(env.agent_selection.split("_")[1])
    for name in ("threshold", "ev"):
        a, b = make_agent("sevn", name, seed=5), make_agent("sevn", name, seed=5)
        v = env.view(seat)
        assert a.act(obs["observation"], obs["action_mask"], v) == b.act(
            obs["observation"], obs["action_mask"], v
        )
    assert np.flatnonzero(obs["action_mask"]).tolist() == [PASS, DRAW]
