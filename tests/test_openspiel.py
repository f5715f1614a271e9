"""Every game as an OpenSpiel game (envs/openspiel.py): OpenSpiel's own random-simulation test
on each, and what OpenSpiel reads (observations, information states, returns, parameters)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from cardarena import envs
from cardarena.envs.core.errors import ConfigError

if os.environ.get("CI"):
    import pyspiel  # the dev extra installs open_spiel: CI must run these
else:
    pyspiel = pytest.importorskip("pyspiel")

from cardarena.envs import openspiel  # noqa: E402

SMALL = {"flip6": 3, "sevn": 3, "ratatat": 2, "thegame": 2, "suicidium": 2}


@pytest.mark.parametrize("game", envs.names())
def test_openspiel_random_simulation_test(game):
    """pyspiel.random_sim_test: legal actions, apply, clone, returns, observation and
    information-state strings and tensors, checked by OpenSpiel itself."""
    loaded = openspiel.load_game(game, num_players=SMALL[game], seed=3)
    pyspiel.random_sim_test(loaded, num_sims=2, serialize=False, verbose=False)


def random_playout(state, rng, steps=10_000):
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("game", envs.names())
def test_what_openspiel_reads_is_the_suites(game):
    loaded = openspiel.load_game(game, num_players=SMALL[game], seed=1)
    spec = envs.get_spec(game)
    state = loaded.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(30):
        if state.is_terminal():
            break
        seat = state.current_player()
        assert state.legal_actions() == sorted(
            int(a) for a in state.engine.legal_actions(state.inner)
        )
        tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
        assert np.array_equal(tensor, spec.encode(state.inner, seat))
        assert state.observation_string(seat) == spec.render(state.inner, seat)
        # everything the seat was shown, its current render last (perfect recall)
        assert state.information_state_string(seat).endswith(spec.render(state.inner, seat))
        state.apply_action(int(rng.choice(state.legal_actions())))
    twin = state.clone()
    a, b = (
        random_playout(state, np.random.default_rng(5)),
        random_playout(twin, np.random.default_rng(5)),
    )
    assert a.is_terminal() and a.returns() == b.returns()  # a clone draws the same cards
    returns = a.returns()
    if spec.cooperative:
        assert len(set(returns)) == 1 and 0.0 <= returns[0] <= 1.0
    else:
        assert sum(returns) == pytest.approx(0.0) and max(returns) > 0


def test_information_states_tell_private_hands_apart():
    """In ratatat a seat sees its own outer cards at the deal: two deals that differ there give
    two information states for that seat from the start."""
    loaded = openspiel.load_game("ratatat", num_players=2, seed=0)
    seen = {loaded.new_initial_state().information_state_string(0) for _ in range(20)}
    assert len(seen) > 1


def test_deals_follow_the_seed_and_parameters_are_checked():
    first = openspiel.load_game("sevn", num_players=3, seed=7).new_initial_state()
    again = openspiel.load_game("sevn", num_players=3, seed=7).new_initial_state()
    assert str(first) == str(again)
    with pytest.raises(ConfigError, match="num_players"):
        openspiel.load_game("flip6", num_players=9)
    with pytest.raises(pyspiel.SpielError, match="bogus"):
        openspiel.load_game("flip6", bogus=1)
    with pytest.raises(ConfigError, match="no game"):
        openspiel.load_game("chess")
    assert pyspiel.load_game("cardarena_thegame").num_players() == 2


def test_openspiel_rl_environment_plays_a_game():
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(openspiel.load_game("flip6", num_players=3, seed=2))
    step = env.reset()
    rng = np.random.default_rng(0)
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
    assert sum(step.rewards) == pytest.approx(0.0)
