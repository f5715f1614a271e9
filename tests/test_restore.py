"""Every state a game reaches restores, and the restored game goes on as the original
(``bench/restore_fuzz.py``: a JSON round trip after every step of random games, every game,
player count and option set of the manifests). The bench runs 2,000 games per game and player
count; here fewer, plus the states an earlier fuzz found refused, as regression cases."""

from __future__ import annotations

import pytest

from bench.restore_fuzz import option_sets, player_counts, restore_every_step
from cardarena import envs

CASES = [
    (name, n, i, options)
    for name in envs.names()
    for n in player_counts(name)
    for i, options in enumerate(option_sets(name))
]


@pytest.mark.parametrize(
    ("name", "n", "i", "options"), CASES, ids=[f"{c[0]}-{c[1]}p-o{c[2]}" for c in CASES]
)
def test_every_state_of_random_games_restores_and_plays_on_the_same(name, n, i, options):
    done = restore_every_step(name, n, 1, seed=37, options=options)
    assert done["round_trips"] > done["games"]


@pytest.mark.parametrize(
    ("name", "n", "options", "game"),
    [
        # a knock at the turn limit: the last turns run past max_turns (R10 before R12)
        ("ratatat", 3, {"max_turns": 6, "num_rounds": 2}, 5),
        # the active seat goes out during its own turn's resolution, which runs on
        ("suicidium", 3, {"mode": "SURVIVE", "expansion": True}, 19),
    ],
)
def test_the_states_an_earlier_fuzz_found_refused_now_restore(name, n, options, game):
    done = restore_every_step(name, n, 1, seed=0, options=options, first=game)
    assert done["games"] == 1 and done["round_trips"] > 20
