"""Small variants with explicit chance (envs/openspiel_explicit.py): the chance node, OpenSpiel's
own random-simulation test, the documented tree sizes, the limits, and CFR on the tiny variant.

The ratatat variants lean on R12 (the ``max_turns`` cap ends the round), R16 (``num_rounds=1``:
no second deal), R3/R4 (the deal, each seat sees its outer slots 0 and 3) and R11 (a reshuffle
only when the draw pile is empty, which the variants never reach).

The flip6 and sevn variants end at the first round's (hand's) end (their own rule: the highest total banked wins)
or at a bank that reaches the target (F17); they lean on F5 (the deal from left of the dealer),
F6 (turns), F7 (STAY banks), F8 (a duplicate busts), F11 (FREEZE) and F16 (no reshuffle while
the draw pile holds cards); sevn's on S7/S8 (deal and turns), S9 (bust), S11 (ballast), S21
(the floor at 0) and S26 (no reshuffle), in place of S27 (a tie at the top plays on)."""

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
    "flip6_tiny": {
        "deals": 126,
        "histories": 3571,
        "decision_histories": 1722,
        "terminal_histories": 1848,
        "info_states": [181, 78, 114],
        "max_depth": 7,
    },
    "flip6_small": {
        "deals": 1260,
        "histories": 45109,
        "decision_histories": 21924,
        "terminal_histories": 23184,
        "info_states": [1361, 682, 930],
        "max_depth": 8,
    },
    "sevn_tiny": {
        "deals": 126,
        "histories": 1523,
        "decision_histories": 698,
        "terminal_histories": 824,
        "info_states": [32, 16],
        "max_depth": 5,
    },
    "sevn_small": {
        "deals": 560,
        "histories": 10081,
        "decision_histories": 4760,
        "terminal_histories": 5320,
        "info_states": [417, 227],
        "max_depth": 7,
    },
    "sevn_mid": {
        "deals": 2520,
        "histories": 76545,
        "decision_histories": 37012,
        "terminal_histories": 39532,
        "info_states": [2383, 1621],
        "max_depth": 8,
    },
    "flip6_mid": {
        "deals": 1260,
        "histories": 46003,
        "decision_histories": 22496,
        "terminal_histories": 23506,
        "info_states": [778, 441, 568],
        "max_depth": 8,
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
            for seat in range(len(seen["info"])):  # perfect recall: a seat's information grows
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
    with pytest.raises(ConfigError, match="no explicit-chance variant of 'thegame'"):
        ox.build_tree("t", ox.Preset("thegame", {"num_players": 2}, ("2", "3")))


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


# ---- flip6 ------------------------------------------------------------------------------------
FLIP6 = ("flip6_tiny", "flip6_small", "flip6_mid")


@pytest.fixture(scope="module")
def flip6_tiny():
    return ox.load_preset("flip6_tiny")


@pytest.mark.parametrize("name", FLIP6)
def test_flip6_presets_have_the_documented_size_and_pass_openspiels_simulation(name):
    game = ox.load_preset(name)
    assert game.sizes() == SIZES[name]
    assert game.num_players() == 3
    assert game.sizes()["deals"] == ox.distinct_orderings(ox.PRESETS[name].deck)
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)


def test_flip6_tiny_tree_counted_through_openspiel(flip6_tiny):
    seen = {"histories": 0, "terminal": 0, "info": [set(), set(), set()]}
    walk(flip6_tiny.new_initial_state(), seen)
    assert seen["histories"] == SIZES["flip6_tiny"]["histories"]
    assert seen["terminal"] == SIZES["flip6_tiny"]["terminal_histories"]
    assert [len(s) for s in seen["info"]] == SIZES["flip6_tiny"]["info_states"]


def _play_texts(game, deal, texts):
    """The history after the deal ``deal`` (codes, top first) and the actions ``texts``."""
    state = game.new_initial_state()
    state.apply_action(game.deals.index(tuple(deal)))
    for text in texts:
        player = state.current_player()
        legal = {state.action_to_string(player, a): a for a in state.legal_actions()}
        state.apply_action(legal[text])
    return state


def test_flip6_variant_ends_at_the_target_or_at_the_round_end(flip6_tiny):
    """F5: the deal goes seats 1, 2, 0 (left of dealer 0); F6: turns from seat 1. F17: a bank
    at the target (11 = 5 + 6) ends the game at once; else the round's end ends the variant,
    the highest total banked winning (a tie shares the win, all busted: all 0)."""
    deal = ("6", "5", "5", "5", "6", "6", "6", "5", "6")  # seat 1: 6, seat 2: 5, seat 0: 5
    # seat 1 hits a 5, seats 2 and 0 each hit a 6: all three hold 11, nobody has banked
    state = _play_texts(flip6_tiny, deal, ["hit", "hit", "hit"])
    assert not state.is_terminal() and state.current_player() == 1
    # seat 1 stays first: its bank reaches the target and wins at once (F7, F17)
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == [-0.5, 1.0, -0.5]
    # everybody stays on the deal card: seat 1 banks 6, seats 2 and 0 bank 5 (F7)
    state = _play_texts(flip6_tiny, deal, ["stay", "stay", "stay"])
    assert state.is_terminal() and state.returns() == [-0.5, 1.0, -0.5]
    # two seats at the top (6, 6 against 5) share the win
    deal = ("6", "6", "5", "5", "5", "5", "6", "6", "6")
    state = _play_texts(flip6_tiny, deal, ["stay", "stay", "stay"])
    assert state.is_terminal() and state.returns() == [-1.0, 0.5, 0.5]
    # every seat busts (F8: a second 6 or 5): nobody banks, a three-way tie at 0
    deal = ("6", "5", "6", "6", "5", "6", "5", "5", "6")  # seats 1, 2, 0 draw their duplicate
    state = _play_texts(flip6_tiny, deal, ["hit", "hit", "hit"])
    assert state.is_terminal() and state.returns() == [0.0, 0.0, 0.0]


def test_flip6_freeze_targets_any_seat_still_in_the_round():
    """F11 in the variant with a FREEZE: a hit that draws it asks its drawer for a target among
    the seats still in the round (itself included); the frozen seat banks its round score."""
    game = ox.load_preset("flip6_mid")
    deal = ("5", "6", "6", "FREEZE", "5", "5", "5", "6", "6", "6")
    state = _play_texts(game, deal, ["stay", "hit"])  # seat 1 banks 5, seat 2 draws the FREEZE
    assert state.current_player() == 2
    targets = sorted(state.action_to_string(2, a) for a in state.legal_actions())
    assert targets == ["target 0", "target 2"]  # seat 1 already left the round
    state = _play_texts(game, deal, ["stay", "hit", "target 0", "stay"])  # seat 0 frozen at 6
    assert state.is_terminal() and state.returns() == [0.5, -1.0, 0.5]  # 6, 5, 6


def test_flip6_inside_check_refuses_what_leaves_the_small_deck():
    small = ox.PRESETS["flip6_tiny"]
    # without the variant's end the engine deals a second round, below the small deck
    rounds = ox.Preset("flip6", small.options, small.deck)
    with pytest.raises(ConfigError, match="deals or reshuffles again"):
        ox.build_tree("rounds", rounds)
    # eight cards: three seats of three cards each (two values, then a bust) draw a ninth
    short = ox.Preset("flip6", small.options, ("5",) * 3 + ("6",) * 5, one_round=True)
    with pytest.raises(ConfigError, match="outside its small deck of 8"):
        ox.build_tree("short", short)


def test_flip6_exact_values_are_what_the_engine_plays(flip6_tiny):
    """threshold against ev valued exactly on the tree (python core) equals their games on the
    default core, each stopped at the first round's end and scored by the variant's rule, over
    every deal with other cards below the small deck (another generator), in every seat."""
    import numpy as np

    from bench.exploitability import agent_policy, vs_target
    from cardarena.agents import make_agent
    from cardarena.envs.core.loop import play
    from cardarena.envs.core.registry import get_spec

    one, other = make_agent("flip6", "threshold"), make_agent("flip6", "ev")
    exact = vs_target(flip6_tiny, agent_policy(flip6_tiny, one), agent_policy(flip6_tiny, other))
    spec = get_spec("flip6")
    engine = spec.make_engine(**ox.PRESETS["flip6_tiny"].options)
    for seat in range(3):
        total = 0.0
        for order in flip6_tiny.deals:
            state = engine.new_game(np.random.default_rng(123), {"deck": list(order)})
            agents = [one if s == seat else other for s in range(3)]
            for agent in agents:
                agent.reset(0)
            play(spec, engine, state, agents, until=lambda st: engine.round_index(st) >= 1)
            if engine.is_over(state):
                total += engine.returns(state)[seat]
            else:
                best = max(engine.scores(state))
                winners = [s for s, v in enumerate(engine.scores(state)) if v == best]
                if len(winners) < 3:
                    share = 1 / len(winners) if seat in winners else -1 / (3 - len(winners))
                    total += share
        assert total / len(flip6_tiny.deals) == pytest.approx(exact[seat], abs=1e-6)
    assert exact != [0.0, 0.0, 0.0]


def test_flip6_training_env_ends_where_the_variant_does(flip6_tiny):
    """The approximate best response trains on games of the variant: each ends at the first
    round's end or at the target (OneRoundEngine), dealt from the small deck, and pays the
    variant's returns (the learner's last reward is its return there)."""
    import numpy as np

    from bench.exploitability import _variant_env

    env = _variant_env(flip6_tiny, "ev", 0, 0)()
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(100):
        env.reset()
        done, reward = False, 0.0
        while not done:
            action = rng.choice(np.flatnonzero(env.action_masks()))
            _, reward, done, _, info = env.step(action)
        engine, state = env.engine, env.state
        assert engine.round_index(state) <= 1 and engine.is_over(state)
        assert engine.current_player(state) is None and engine.legal_actions(state) == []
        assert reward == engine.returns(state)[info["seat"]]
        assert sum(engine.returns(state)) == pytest.approx(0.0)
        seen.add(engine.round_index(state))
    assert seen == {0, 1}  # some games end at the target, some at the round's end


# ---- sevn -------------------------------------------------------------------------------------
SEVN = ("sevn_tiny", "sevn_small", "sevn_mid")


@pytest.mark.parametrize("name", SEVN)
def test_sevn_presets_have_the_documented_size_and_pass_openspiels_simulation(name):
    game = ox.load_preset(name)
    assert game.sizes() == SIZES[name]
    assert game.num_players() == 2
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)


def test_sevn_variant_ends_at_the_first_hands_end():
    """S7/S8: seat 1 (left of dealer 0) is dealt and plays first. The variant ends after the
    hand: the higher total banked wins, a tie shares it (where S27 would play another hand)."""
    game = ox.load_preset("sevn_tiny")
    state = _play_texts(game, ("13", "12", "13", "12", "12", "13", "13", "12", "13"), [])
    assert state.current_player() == 1
    state = _play_texts(game, ("13", "12", "13", "12", "12", "13", "13", "12", "13"), ["pass"] * 2)
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]  # 13 against 12
    state = _play_texts(game, ("13", "13", "12", "13", "12", "12", "13", "12", "13"), ["pass"] * 2)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]  # 13 and 13: a shared win
    # seat 1 draws a 12 (25, at the target), seat 0 draws a 13 (a duplicate: S9 bust)
    deal = ("13", "13", "12", "13", "12", "12", "13", "12", "13")
    state = _play_texts(game, deal, ["draw", "draw", "pass"])
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]


def test_sevn_ballast_is_kept_or_discarded_and_the_score_floored():
    """S11: a dealt -2 asks its drawer to keep or discard it; kept, it is a value and the hand
    score (-2) is floored at 0 (S21), so the other seat's 12 wins."""
    game = ox.load_preset("sevn_mid")
    deal = ("-2", "12", "13", "11", "12", "12", "13", "13", "13")
    state = _play_texts(game, deal, [])
    assert state.current_player() == 1
    assert sorted(state.action_to_string(1, a) for a in state.legal_actions()) == [
        "discard",
        "keep",
    ]
    state = _play_texts(game, deal, ["keep", "pass", "pass"])
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_sevn_inside_check_refuses_a_second_hand():
    small = ox.PRESETS["sevn_tiny"]
    with pytest.raises(ConfigError, match="deals or reshuffles again"):
        ox.build_tree("hands", ox.Preset("sevn", small.options, small.deck))
    short = ox.Preset("sevn", small.options, ("12",) * 2 + ("13",) * 3, one_round=True)
    with pytest.raises(ConfigError, match="outside its small deck of 5"):
        ox.build_tree("short", short)
