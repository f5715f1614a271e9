"""The Game's baselines: registration, legal and reproducible play, and their single choices (the
ladder random < greedy < planner is a claim of ``bench/strength.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from cardarena import envs
from cardarena.agents import best_baseline, make_agent, scripted_names
from cardarena.agents.baselines.thegame import GreedyAgent, PlannerAgent
from cardarena.envs.thegame.rules import END, NUM_ACTIONS, play_action


def test_registry_names_and_best_baseline():
    assert scripted_names("thegame") == ["random", "greedy", "planner"]
    assert best_baseline("thegame") == "planner"
    assert isinstance(make_agent("thegame", "planner"), PlannerAgent)
    assert isinstance(make_agent("thegame", "greedy"), GreedyAgent)


@pytest.mark.parametrize("signals", [False, True])
def test_agents_pick_legal_actions_reproducibly(signals: bool):
    env = envs.make("thegame", num_players=3, signals=signals)
    for name in ("greedy", "planner"):
        runs = []
        for _ in range(2):
            agents = [make_agent("thegame", name, seed=s) for s in range(3)]
            env.reset(seed=4)
            seq = []
            for agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                seat = int(agent.split("_")[1])
                action = agents[seat].act(obs["observation"], obs["action_mask"], env.view(seat))
                assert obs["action_mask"][action] == 1, (name, env.describe_action(action))
                seq.append(action)
                env.step(action)
            runs.append(seq)
        assert runs[0] == runs[1]
        used_signals = any(a > END for a in runs[0])
        assert used_signals == (signals and name == "planner")


def _view(hand, tops, played=0, minimum=2, piles=None, draw=10):
    piles = piles if piles is not None else [[t] if t not in (1, 100) else [] for t in tops]
    view = {
        "seat": 0,
        "num_players": 1,
        "hand": sorted(hand),
        "hand_sizes": [len(hand)],
        "tops": list(tops),
        "piles": piles,
        "draw_pile_size": draw,
        "cards_left": 98 - sum(len(p) for p in piles),
        "current_player": 0,
        "played_this_turn": played,
        "minimum": minimum,
        "signals_on": False,
        "signals": [["none"] * 4],
        "signal_changed": [False] * 4,
        "min_cards_when_empty": 1,
        "over": False,
        "won": False,
    }
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for c in hand:
        for p, t in enumerate(tops):
            if (p < 2 and (c > t or c == t - 10)) or (p >= 2 and (c < t or c == t + 10)):
                mask[play_action(c, p)] = 1
    if played >= minimum:
        mask[END] = 1
    return view, mask


def test_greedy_prefers_the_backwards_trick_and_stops_on_big_jumps():
    view, mask = _view([20, 44, 70], [30, 50, 60, 80])
    assert GreedyAgent().act(np.zeros(0), mask, view) == play_action(20, 0)  # 30 - 10
    view, mask = _view([40, 70], [30, 55, 65, 85], played=2)
    assert GreedyAgent().act(np.zeros(0), mask, view) == END  # smallest jump is 10


def test_planner_sets_up_a_trick_with_its_own_cards():
    # only pile 0 (at 30) takes these cards: 45 then 35 (45 - 10) jumps 14 open cards and
    # reopens 9; 35 then 45 would waste 4 + 9 of them for good
    view, mask = _view([35, 45, 60, 65], [30, 90, 20, 10])
    plan = [a for _, a in PlannerAgent().plan_turn(view)]
    assert plan[:2] == [play_action(45, 0), play_action(35, 0)]
    assert plan[-1] == END
