"""Small variants with explicit chance (envs/openspiel_explicit.py): the chance node, OpenSpiel's
own random-simulation test, the documented tree sizes, the limits, and CFR on the tiny variant.

The ratatat variants lean on R12 (the ``max_turns`` cap ends the round), R16 (``num_rounds=1``:
no second deal), R3/R4 (the deal, each seat sees its outer slots 0 and 3) and R11 (a reshuffle
only when the draw pile is empty, which the variants never reach)."""

from __future__ import annotations

import itertools
import os

import pytest

from cardarena.envs.core.errors import ConfigError

if os.environ.get("CI"):
    import pyspiel  # the dev extra installs open_spiel: CI must run these
else:
    pyspiel = pytest.importorskip("pyspiel")

from cardarena.envs import openspiel_explicit as ox  # noqa: E402

#: the sizes docs/openspiel.md gives for the presets
SIZES = {
    "ratatat_tiny": {
        "deals": 55,
        "histories": 6106,
        "decision_histories": 1650,
        "terminal_histories": 4455,
        "info_states": [342, 25],
        "max_depth": 5,
    },
}


@pytest.fixture(scope="module")
def tiny():
    return ox.load_preset("ratatat_tiny")


def test_chance_outcomes_are_the_distinct_orderings_and_sum_to_one(tiny):
    root = tiny.new_initial_state()
    assert root.is_chance_node()
    outcomes = root.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    deck = ox.PRESETS["ratatat_tiny"].deck
    # nine 9s and two 0s: an ordering is where the two 0s lie, 11 choose 2 = 55 of them
    brute = {
        tuple("0" if i in zeros else "9" for i in range(11))
        for zeros in itertools.combinations(range(11), 2)
    }
    assert len(outcomes) == len(brute) == ox.distinct_orderings(deck) == 55
    assert set(tiny.deals) == brute and len(set(tiny.deals)) == len(tiny.deals)
    # a uniform shuffle gives each distinct ordering (multiplicity 9! 2!) the same probability
    assert all(p == pytest.approx(1 / 55) for _, p in outcomes)
    assert root.action_to_string(root.current_player(), 0).startswith("deal ")


def test_openspiel_random_simulation_test(tiny):
    pyspiel.random_sim_test(tiny, num_sims=20, serialize=False, verbose=False)


def walk(state, seen):
    seen["histories"] += 1
    if state.is_terminal():
        seen["terminal"] += 1
        assert sum(state.returns()) == pytest.approx(0.0)
        return
    for action in state.legal_actions():
        child = state.child(action)
        if not state.is_chance_node():
            for seat in range(2):  # perfect recall: a seat's information only grows
                assert child.information_state_string(seat).startswith(
                    state.information_state_string(seat)
                )
            seen["info"][state.current_player()].add(state.information_state_string())
        walk(child, seen)


def test_tiny_tree_has_the_documented_size(tiny):
    assert tiny.sizes() == SIZES["ratatat_tiny"]
    seen = {"histories": 0, "terminal": 0, "info": [set(), set()]}
    walk(tiny.new_initial_state(), seen)  # counted through OpenSpiel's API, not the tree
    assert seen["histories"] == SIZES["ratatat_tiny"]["histories"]
    assert seen["terminal"] == SIZES["ratatat_tiny"]["terminal_histories"]
    assert [len(s) for s in seen["info"]] == SIZES["ratatat_tiny"]["info_states"]


def test_information_states_hide_the_unseen_cards(tiny):
    """R4: seat 1 (left of the dealer, first to play) sees its slots 0 and 3 and the first
    discard: deals that differ only in its slots 1, 2 and seat 0's row look the same to it."""
    root = tiny.new_initial_state()
    first = {}
    for action, _ in root.chance_outcomes():
        state = root.child(action)
        order = tiny.deals[action]  # seat 1's slots 0-3, seat 0's, then the discard
        first.setdefault(state.information_state_string(1), set()).add(
            (order[0], order[3], order[8])
        )
    assert len(first) == 7  # (slot 0, slot 3, discard) in {0, 9}^3 but not three 0s (two)
    assert all(len(v) == 1 for v in first.values())


def test_cfr_beats_uniform_random_after_a_few_iterations(tiny):
    from open_spiel.python import policy
    from open_spiel.python.algorithms import cfr, exploitability

    uniform = exploitability.nash_conv(tiny, policy.UniformRandomPolicy(tiny))
    solver = cfr.CFRSolver(tiny)
    for _ in range(4):
        solver.evaluate_and_update_policy()
    after = exploitability.nash_conv(tiny, solver.average_policy())
    assert uniform > 0.4
    assert after < uniform / 2


def test_limits_and_bad_variants_raise_config_errors():
    with pytest.raises(ConfigError, match="no explicit variant 'nope'"):
        ox.load_preset("nope")
    small = ox.PRESETS["ratatat_small"]
    with pytest.raises(ConfigError, match="330 distinct orderings, more than max_deals=100"):
        ox.build_tree("ratatat_small", small, max_deals=100)
    with pytest.raises(ConfigError, match="more than 1,000 histories"):
        ox.build_tree("ratatat_tiny", ox.PRESETS["ratatat_tiny"], max_histories=1000)
    # a third turn draws a twelfth card: below the small deck of 11
    longer = ox.Preset("ratatat", {"num_players": 2, "num_rounds": 1, "max_turns": 3}, small.deck)
    with pytest.raises(ConfigError, match="outside its small deck of 11"):
        ox.build_tree("longer", longer)
    # two rounds deal again (R16): from cards that are not the variant's
    rounds = ox.Preset("ratatat", {"num_players": 2, "num_rounds": 2, "max_turns": 2}, small.deck)
    with pytest.raises(ConfigError, match="deals or reshuffles again"):
        ox.build_tree("rounds", rounds)
    with pytest.raises(ConfigError, match="no explicit-chance variant of 'flip6'"):
        ox.build_tree("f", ox.Preset("flip6", {"num_players": 3}, ("6", "6")))


def test_exact_values_are_what_the_engine_plays(tiny):
    """The tree is the game: greedy against tracker valued exactly on the tree (built on the
    python core) equals their games played on the default core over every deal of the small
    deck, with other cards below it (another generator), in both seatings."""
    import numpy as np

    from bench.exploitability import agent_policy, vs_target
    from cardarena.agents import make_agent
    from cardarena.envs.core.loop import play
    from cardarena.envs.core.registry import get_spec

    greedy, tracker = make_agent("ratatat", "greedy"), make_agent("ratatat", "tracker")
    exact = vs_target(tiny, agent_policy(tiny, greedy), agent_policy(tiny, tracker))
    spec = get_spec("ratatat")
    engine = spec.make_engine(**ox.PRESETS["ratatat_tiny"].options)
    for seat in range(2):
        total = 0.0
        for order in tiny.deals:
            state = engine.new_game(np.random.default_rng(123), {"deck": list(order)})
            agents = [greedy if s == seat else tracker for s in range(2)]
            for agent in agents:
                agent.reset(0)
            play(spec, engine, state, agents)
            total += engine.returns(state)[seat]
        assert total / len(tiny.deals) == pytest.approx(exact[seat], abs=1e-6)  # 6 digits
    assert exact != [0.0, 0.0]  # the seats differ: the check has something to compare
