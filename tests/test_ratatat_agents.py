"""Ratatat baselines: registration and legal play at every table size (the ladder random < greedy <
tracker and zoo:ratatat against the trackers are claims of ``bench/strength.py``)."""

from __future__ import annotations

import numpy as np
import pytest

import cardarena.envs.ratatat  # noqa: F401  (registers the game even before it is in envs.GAMES)
from cardarena.agents import best_baseline, make_agent, scripted_names
from cardarena.agents.baselines.ratatat import BASELINES, GreedyAgent, TrackerAgent
from cardarena.agents.evaluation.tournament import play_game

DEALS = 300  # x 3 rotations = 900 games, a few seconds


def test_baselines_are_registered_weakest_first() -> None:
    assert list(BASELINES) == ["greedy", "tracker"]
    assert scripted_names("ratatat") == ["random", "greedy", "tracker"]
    assert best_baseline("ratatat") == "tracker"
    assert isinstance(make_agent("ratatat", "greedy", seed=1), GreedyAgent)
    assert isinstance(make_agent("ratatat", "tracker", seed=1), TrackerAgent)


@pytest.mark.parametrize(
    ("n", "options"),
    [(2, {}), (6, {}), (4, {"memory": "none", "max_turns": 24}), (3, {"memory": "seer"})],
)
def test_baselines_play_only_legal_moves(n: int, options: dict) -> None:
    opts = {"num_players": n, **options}
    for seed in range(3):
        seats = [make_agent("ratatat", ("greedy", "tracker")[i % 2]) for i in range(n)]
        record = play_game("ratatat", opts, seats, deal_seed=seed, agent_seed=seed)
        assert record.winners and abs(sum(record.returns)) < 1e-9
        assert np.isfinite(record.scores).all()
