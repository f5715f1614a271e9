"""Suicidium baselines: registration, whole games in both modes, the heuristic's sense of mode (the
ladder random < heuristic and the settings it was tuned to are claims of ``bench/strength.py``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardarena.envs.suicidium  # noqa: F401  (registers the game)
from cardarena import envs
from cardarena.agents import best_baseline, make_agent, scripted_names
from cardarena.agents.baselines.suicidium import BASELINES, HeuristicAgent
from cardarena.envs.core import CardGameEnv

DEALS = 30  # x 2 seat rotations = 60 games per mode


def test_registered_as_the_best_baseline() -> None:
    assert list(BASELINES) == ["heuristic"]
    assert scripted_names("suicidium") == ["random", "heuristic"]
    assert best_baseline("suicidium") == "heuristic"
    assert isinstance(make_agent("suicidium", "heuristic", seed=1), HeuristicAgent)


# ---- the heuristic reads the mode from the view ---------------------------------------------------
def table_env(mode: str, hands: list[list[str]], wp: list[int], moves: list[str]) -> CardGameEnv:
    env = envs.make("suicidium", num_players=3, mode=mode)
    env.reset(seed=0, options={"hands": hands, "wp": wp})
    for move in moves:
        seat, text = move.split(" ", 1)
        assert env.to_dict()["current_player"] == int(seat), move
        env.step(env.parse_action(text))
    return env


def heuristic_choice(env: CardGameEnv) -> str:
    agent = HeuristicAgent(seed=0)
    seat = env.game.current_player(env.state_obj)
    obs: dict[str, Any] = env.observe(f"player_{seat}")
    action = agent.act(obs["observation"], obs["action_mask"], env.view(seat))
    assert obs["action_mask"][action] == 1
    return env.describe_action(action)


def test_survive_cancels_a_harmful_card_aimed_at_itself_depression_welcomes_it() -> None:
    hands = [["SFRATTO"], ["SUSPENSE"], []]
    moves = ["0 draw 0", "0 play SFRATTO", "0 target 1", "0 pass"]
    env = table_env("SURVIVE", hands, [10, 8, 10], moves)
    assert heuristic_choice(env) == "play SUSPENSE"
    env = table_env("DEPRESSION", hands, [10, 8, 10], moves)
    assert heuristic_choice(env) == "pass"
    # DEPRESSION: a gift of willpower is what hurts, so that is what it cancels
    hands = [["GRATTA_E_VINCI"], ["SUSPENSE"], []]
    moves = ["0 draw 0", "0 play GRATTA_E_VINCI", "0 target 1", "0 pass"]
    env = table_env("DEPRESSION", hands, [10, 4, 10], moves)
    assert heuristic_choice(env) == "play SUSPENSE"


def test_survive_attacks_the_weakest_opponent_depression_hits_itself() -> None:
    hands = [["SFRATTO", "PISOLINO"], [], []]
    env = table_env("SURVIVE", hands, [10, 9, 4], ["0 draw 0", "0 play SFRATTO"])
    assert heuristic_choice(env) == "target 2"
    env = table_env("DEPRESSION", hands, [6, 9, 4], ["0 draw 0", "0 play SFRATTO"])
    assert heuristic_choice(env) == "target 0"


def test_heuristic_plays_whole_games_in_both_modes_with_legal_actions() -> None:
    for mode in ("SURVIVE", "DEPRESSION"):
        env = envs.make("suicidium", num_players=4, mode=mode)
        env.reset(seed=5)
        agents = [HeuristicAgent(seed=s) for s in range(4)]
        steps = 0
        for agent_name in env.agent_iter(20_000):
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            seat = int(agent_name.split("_")[1])
            action = agents[seat].act(obs["observation"], obs["action_mask"], env.view(seat))
            assert obs["action_mask"][action] == 1
            env.step(action)
            steps += 1
        assert not env.agents and steps > 10
        assert np.isclose(sum(env.game.returns(env.state_obj)), 0.0)


def test_survive_heuristic_draws_only_when_nothing_is_worth_playing() -> None:
    """U7: in SURVIVE every card drawn costs 1 WP; the heuristic draws none while it holds a card
    worth playing, one when it holds nothing it would play (U9: it must draw or play)."""
    env = table_env("SURVIVE", [["SFRATTO"], [], []], [10, 8, 10], [])
    assert heuristic_choice(env) == "draw 0"
    env = table_env("SURVIVE", [["SUSPENSE"], [], []], [10, 8, 10], [])  # a response: no target
    assert heuristic_choice(env) == "draw 1"
    old = HeuristicAgent(seed=0, draw_margin=5)  # the former rule: draw while WP stays above 5
    env = table_env("SURVIVE", [["SFRATTO"], [], []], [10, 8, 10], [])
    obs = env.observe("player_0")
    assert env.describe_action(old.act(obs["observation"], obs["action_mask"], env.view(0))) == (
        "draw 5"
    )


def test_baseline_settings_parse_and_refuse_unknown_agents() -> None:
    from bench.baseline_settings import duel, parse_agent

    assert parse_agent("heuristic:draw_margin=7,play_threshold=0.5,x=abc") == (
        "heuristic",
        {"draw_margin": 7, "play_threshold": 0.5, "x": "abc"},
    )
    assert parse_agent("heuristic") == ("heuristic", {})
    with pytest.raises(SystemExit, match="not a scripted baseline"):
        duel("suicidium", {"num_players": 4}, "heuristic", "ev", 1, 0)
    with pytest.raises(SystemExit, match="not key=value"):
        parse_agent("heuristic:draw_margin")


def test_seat_noise_replaces_that_share_of_the_seats_choices() -> None:
    """bench/baseline_settings.py --seat-noise: at 1.0 every choice with two or more legal
    actions is random, and the seat falls far below the heuristic it wraps."""
    import numpy as np

    from bench.baseline_settings import Noisy, duel

    options = {"num_players": 4, "mode": "SURVIVE"}
    clean = duel("suicidium", options, "heuristic", "heuristic", 50, 910_000)
    noisy = duel("suicidium", options, "heuristic", "heuristic", 50, 910_000, seat_noise=1.0)
    assert noisy["seat_noise"] == 1.0 and noisy["games"] == clean["games"] == 200
    assert noisy["win_ci"][1] < clean["win_ci"][0]

    class First:
        def act(self, observation, action_mask, view):
            return int(np.flatnonzero(action_mask)[0])

    wrapped = Noisy(First(), 0.5, seed=0)
    mask = np.array([0, 1, 1, 1], dtype=np.int8)
    picks = [wrapped.act(None, mask, {}) for _ in range(2000)]
    assert 0.45 < wrapped.changed / 2000 < 0.55  # a changed pick may still be the same action
    assert set(picks) == {1, 2, 3}
    assert Noisy(First(), 1.0, seed=0).act(None, np.array([0, 0, 1]), {}) == 2  # one legal: kept
    with pytest.raises(SystemExit, match="seat-noise"):
        duel("suicidium", options, "heuristic", "heuristic", 1, 0, seat_noise=1.5)
