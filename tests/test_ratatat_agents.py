"""The Ratatat baseline ladder: random < greedy <= tracker, with clear 95% confidence intervals.

One 3-player tournament seats the three agents at every table in every seat rotation for the same
deck seeds (``agents.evaluation.tournament``); CIs are over deck seeds. Lower scores are better in Ratatat.
"""

from __future__ import annotations

import numpy as np
import pytest

import envs.ratatat  # noqa: F401  (registers the game even before it is in envs.GAMES)
from agents import best_baseline, make_agent, scripted_names
from agents.baselines.ratatat import BASELINES, GreedyAgent, TrackerAgent
from agents.evaluation.tournament import play_game, run_tournament

DEALS = 300  # x 3 rotations = 900 games, a few seconds


def test_baselines_are_registered_weakest_first() -> None:
    assert list(BASELINES) == ["greedy", "tracker"]
    assert scripted_names("ratatat") == ["random", "greedy", "tracker"]
    assert best_baseline("ratatat") == "tracker"
    assert isinstance(make_agent("ratatat", "greedy", seed=1), GreedyAgent)
    assert isinstance(make_agent("ratatat", "tracker", seed=1), TrackerAgent)


def test_ladder_random_greedy_tracker() -> None:
    result = run_tournament(
        "ratatat",
        ["random", "greedy", "tracker"],
        DEALS,
        options={"num_players": 3},
        workers=1,
        progress=False,
    )
    by_name = {s.name: s for s in result.summaries()}
    rnd, greedy, tracker = by_name["random"], by_name["greedy"], by_name["tracker"]
    summary = {
        k: (round(s.win_rate, 3), s.win_ci, round(s.mean_score, 2)) for k, s in by_name.items()
    }
    # win rates: the CIs do not overlap
    assert rnd.win_ci[1] < greedy.win_ci[0], summary
    assert greedy.win_ci[1] < tracker.win_ci[0], summary
    # game totals (lower is better)
    assert rnd.score_ci[0] > greedy.score_ci[1], summary
    assert tracker.mean_score < greedy.mean_score, summary


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


def test_pretrained_agent_beats_the_trackers():
    """zoo:ratatat beats the best baseline (README): 0.265 [0.259, 0.271] on 10,000 games of deck
    seeds it was never chosen on (2000000..), 0.264 over 24,000. 4,000 games cannot show that at
    95% (their interval is about +-0.011), so this test pins the level on the README's 4,000
    games (deck seeds 100000.., every rotation: 0.259 [0.248, 0.270]); the agent is greedy and the
    games seeded, so an encoder or checkpoint change that weakens it fails here.
    """
    result = run_tournament(
        "ratatat",
        ["zoo:ratatat", "tracker", "tracker", "tracker"],
        1000,
        {"num_players": 4},
        workers=1,
        progress=False,
        first_seed=100000,
    )
    zoo = {s.name: s for s in result.summaries()}["zoo:ratatat"]
    assert zoo.games == 4000
    assert zoo.win_rate > 0.25 and zoo.win_ci[0] > 0.24
