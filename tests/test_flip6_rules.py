"""Stacked-deck scenario tests for every rule id F1-F18 of ``docs/rules/flip6.md``.

Each test is named after the rule id it checks (``test_F5_...``). Scenarios stack the top of the
draw pile with ``reset(options={"deck": [...]})`` so that every card is known, then play a script of
moves written as ``"SEAT ACTION"`` (``"1 hit"``, ``"2 stay"``, ``"1 target 3"``); every move checks
that SEAT really holds the decision and that no card was lost or duplicated.

Seat order of the deal (F5): with dealer D the deal goes D+1, D+2, ... (mod N). Most scenarios use
4 players with dealer 0, so the deal is seats 1, 2, 3, 0 and the first turn is seat 1's.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import numpy as np
import pytest
from scenario import check_conservation, decision, play, rewards

from cardarena import envs
from cardarena.envs.core import (
    CardGameEnv,
    ConfigError,
    GameOverError,
    IllegalActionError,
    OutOfTurnError,
)
from cardarena.envs.flip6.rules import FLIP3, HIT, STAY, TARGET0, Flip6Game, parse_card, round_score

NUMBERS = ["ZERO", "1", "2", "3", "4", "5", "6"]
SPECIALS = ["EXTRA_LIFE", "FREEZE", "FLIP3", "DOUBLE"]


# ---- helpers --------------------------------------------------------------------------------------
def make(
    deck: list[str],
    n: int = 4,
    dealer: int | None = 0,
    scores: list[int] | None = None,
    seed: int = 0,
    **options: Any,
) -> CardGameEnv:
    """A flip6 env reset with ``deck`` on top of the draw pile (top first)."""
    env = envs.make("flip6", num_players=n, **options)
    reset_options: dict[str, Any] = {"deck": list(deck)}
    if dealer is not None:
        reset_options["dealer"] = dealer
    if scores is not None:
        reset_options["scores"] = list(scores)
    env.reset(seed=seed, options=reset_options)
    check_conservation(env)
    return env


def target(seat: int) -> int:
    return TARGET0 + seat


# ---- F1 / F2: the cards ----------------------------------------------------------------------------
def test_F1_number_card_counts() -> None:
    """F1: one 1, two 2, ..., six 6 (21 number cards); F2: ZERO and 4 specials once each."""
    counts = Counter(Flip6Game(num_players=4).deck_codes())
    assert {v: counts[v] for v in "123456"} == {str(v): v for v in range(1, 7)}
    assert sum(counts[str(v)] for v in range(1, 7)) == 21
    assert sum(counts.values()) == 26


def test_F1_fresh_game_holds_the_whole_deck() -> None:
    env = envs.make("flip6", num_players=4)
    env.reset(seed=3)
    d = env.to_dict()
    cards = d["draw_pile"] + d["discard_pile"] + sum(d["table"], []) + d["set_aside"]
    assert Counter(cards) == Counter(env.game.deck_codes())


@pytest.mark.parametrize("value", ["1", "2", "3", "4", "5", "6"])
def test_F1_number_value_is_its_score(value: str) -> None:
    """F1: a number card scores its value (seat 1 is dealt it and stays at once)."""
    env = make([value, "5", "5", "6"])
    d = play(env, ["1 stay"])
    assert d["scores"] == [0, int(value), 0, 0]
    assert d["status"][1] == "stayed"


@pytest.mark.parametrize(
    "deck",
    [["1", "1"], ["ZERO", "ZERO"], ["6"] * 7, ["FREEZE", "FREEZE"], ["2", "2", "2"], ["NINE"]],
)
def test_F1_F2_deck_option_cannot_exceed_the_deck(deck: list[str]) -> None:
    env = envs.make("flip6", num_players=4)
    with pytest.raises(ConfigError):
        env.reset(seed=0, options={"deck": deck})


def test_F2_special_card_counts() -> None:
    counts = Counter(Flip6Game(num_players=3).deck_codes())
    assert {c: counts[c] for c in ["ZERO", *SPECIALS]} == dict.fromkeys(["ZERO", *SPECIALS], 1)


def test_F2_zero_scores_nothing() -> None:
    """F2: ZERO has value 0 (seat 1 holds ZERO and 4 and banks 4)."""
    env = make(["ZERO", "5", "5", "6", "4"])
    d = play(env, ["1 hit", "2 stay", "3 stay", "0 stay"])
    assert d["table"][1] == ["ZERO", "4"]
    d = play(env, ["1 stay"])
    assert d["scores"] == [6, 4, 5, 5]


@pytest.mark.parametrize("card", ["EXTRA_LIFE", "DOUBLE"])
def test_F2_kept_cards_stay_in_front_of_the_drawer(card: str) -> None:
    """F2: EXTRA_LIFE and DOUBLE are kept by the player who draws them; no decision needed."""
    env = make([card, "5", "6", "4"])
    d = env.to_dict()
    assert d["table"] == [["4"], [card], ["5"], ["6"]]
    assert d["status"] == ["in_round"] * 4
    assert decision(env) == ("turn", 1)


# ---- F3: hidden deck order ---------------------------------------------------------------------------
def test_F3_observations_do_not_depend_on_the_deck_order() -> None:
    deal = ["3", "5", "6", "4"]
    a, b = make(deal, seed=1), make(deal, seed=2)
    pile_a, pile_b = a.to_dict()["draw_pile"], b.to_dict()["draw_pile"]
    assert pile_a != pile_b and Counter(pile_a) == Counter(pile_b)
    for agent in a.possible_agents:
        obs_a, obs_b = a.observe(agent), b.observe(agent)
        np.testing.assert_array_equal(obs_a["observation"], obs_b["observation"])
        np.testing.assert_array_equal(obs_a["action_mask"], obs_b["action_mask"])
    for seat in range(4):
        assert a.view(seat) == b.view(seat)
        assert "draw_pile" not in a.view(seat)


def test_F3_dealt_cards_are_face_up_for_every_seat() -> None:
    env = make(["3", "5", "6", "4", "2"])
    play(env, ["1 hit"])
    tables = env.to_dict()["table"]
    assert tables == [["4"], ["3", "2"], ["5"], ["6"]]
    for seat in range(4):
        assert env.view(seat)["table"] == tables


# ---- F4: dealer ------------------------------------------------------------------------------------
def test_F4_first_dealer_defaults_to_seat_0() -> None:
    env = make(["3", "5", "6", "4"], dealer=None)
    d = env.to_dict()
    assert d["dealer"] == 0
    assert d["table"][1] == ["3"]
    assert decision(env) == ("turn", 1)


@pytest.mark.parametrize("n,first_dealer", [(3, 0), (3, 2), (4, 1), (5, 4), (6, 3)])
def test_F4_dealer_passes_left_each_round(n: int, first_dealer: int) -> None:
    """F4: first dealer configurable; each round the dealer moves to seat + 1 modulo N."""
    deck = (["6"] * 6 + ["5"] * 5 + ["4"] * 4 + ["3"] * 3)[: 3 * n]
    env = make(deck, n=n, dealer=None, first_dealer=first_dealer)
    for r in range(3):
        dealer = (first_dealer + r) % n
        d = env.to_dict()
        assert d["round_index"] == r
        assert d["dealer"] == dealer
        for k in range(n):  # F5: deal left of the dealer, clockwise
            assert d["table"][(dealer + 1 + k) % n] == [deck[r * n + k]]
        play(env, [f"{(dealer + 1 + k) % n} stay" for k in range(n)])
    assert env.to_dict()["dealer"] == (first_dealer + 3) % n  # wraps around modulo N


# ---- F5: the initial deal ----------------------------------------------------------------------------
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_F5_deal_starts_left_of_dealer_clockwise(dealer: int) -> None:
    deck = ["1", "2", "3", "4"]
    env = make(deck, dealer=dealer)
    d = env.to_dict()
    for k in range(4):
        assert d["table"][(dealer + 1 + k) % 4] == [deck[k]]
    assert decision(env) == ("turn", (dealer + 1) % 4)  # F6


def test_F5_special_in_deal_is_resolved_before_the_deal_goes_on() -> None:
    env = make(["FREEZE", "5", "6", "4"])
    d = env.to_dict()
    assert decision(env) == ("target_freeze", 1)
    assert d["table"] == [[], [], [], []]
    assert d["draw_pile"][:3] == ["5", "6", "4"]
    # any player still in the round, including those not dealt yet
    assert env.legal_actions() == [target(s) for s in range(4)]


def test_F5_player_frozen_before_its_deal_gets_no_card_and_scores_0() -> None:
    env = make(["FREEZE", "5", "6", "4", "3"])
    d = play(env, ["1 target 3"])
    assert d["table"] == [["6"], [], ["5"], ["FREEZE"]]
    assert d["status"] == ["in_round", "in_round", "in_round", "frozen"]
    assert d["scores"] == [0, 0, 0, 0]
    assert d["draw_pile"][0] == "4"
    assert decision(env) == ("turn", 1)


def test_F5_freeze_self_in_deal_scores_0() -> None:
    env = make(["FREEZE", "5", "6", "4"])
    d = play(env, ["1 target 1"])
    assert d["table"] == [["4"], ["FREEZE"], ["5"], ["6"]]
    assert d["status"][1] == "frozen" and d["scores"] == [0, 0, 0, 0]
    assert decision(env) == ("turn", 2)  # F6: frozen seat 1 is skipped


def test_F5_flip3_on_undealt_player_who_still_gets_its_dealt_card() -> None:
    env = make(["FLIP3", "1", "2", "3", "5", "6", "4"])
    assert decision(env) == ("target_flip3", 1)
    d = play(env, ["1 target 3"])
    assert d["table"] == [["4"], [], ["5"], ["FLIP3", "1", "2", "3", "6"]]
    assert d["status"] == ["in_round"] * 4
    assert decision(env) == ("turn", 1)


def test_F5_player_busted_before_its_deal_gets_no_card() -> None:
    env = make(["FLIP3", "5", "5", "6", "4", "2"])
    d = play(env, ["1 target 3"])
    # F12: seat 3 busts on its 2nd FLIP3 card; the 3rd card is not drawn; then the deal skips it
    assert d["table"] == [["4"], [], ["6"], ["FLIP3", "5", "5"]]
    assert d["status"] == ["in_round", "in_round", "in_round", "busted"]
    assert d["scores"] == [0, 0, 0, 0]
    assert d["draw_pile"][0] == "2"


def test_F5_freeze_inside_flip3_during_deal_skips_that_players_deal() -> None:
    env = make(["FLIP3", "2", "FREEZE", "5", "6", "4"])
    d = play(env, ["1 target 3"])
    assert d["table"] == [["6"], [], ["5"], ["FLIP3", "2", "FREEZE"]]
    assert d["status"][3] == "frozen"
    assert d["scores"] == [0, 0, 0, 2]
    assert d["draw_pile"][0] == "4"


# ---- F6: turns -----------------------------------------------------------------------------------
def test_F6_turns_go_clockwise_from_left_of_dealer_skipping_players_out() -> None:
    env = make(["1", "2", "3", "4", "5", "6", "6", "4"], dealer=1)  # deal: seats 2, 3, 0, 1
    assert env.to_dict()["table"] == [["3"], ["4"], ["1"], ["2"]]
    assert decision(env) == ("turn", 2)
    assert env.legal_actions() == [STAY, HIT]
    mask = env.observe("player_2")["action_mask"]
    assert mask.tolist() == [1, 1, 0, 0, 0, 0, 0, 0]
    assert env.observe("player_3")["action_mask"].sum() == 0
    # act() asserts the seat of every move: 2, 3, 0, 1, then 3 (2 and 1 out), 0, then 3 alone
    d = play(env, ["2 stay", "3 hit", "0 hit", "1 stay", "3 hit", "0 stay", "3 hit"])
    assert d["table"][3] == ["2", "5", "6", "4"]
    assert decision(env) == ("turn", 3)
    d = play(env, ["3 stay"])
    assert d["scores"] == [9, 4, 1, 17]


def test_F6_engine_refuses_out_of_turn_and_illegal_actions() -> None:
    g = Flip6Game(num_players=4)
    s = g.new_game(np.random.default_rng(0), {"deck": ["3", "5", "6", "4"]})
    assert g.current_player(s) == 1
    with pytest.raises(OutOfTurnError):
        g.apply(s, HIT, seat=2)
    with pytest.raises(IllegalActionError):
        g.apply(s, target(2))
    g.apply(s, HIT, seat=1)
    assert g.current_player(s) == 2


# ---- F7: STAY ----------------------------------------------------------------------------------
def test_F7_stay_banks_at_once_and_leaves_the_round() -> None:
    env = make(["4", "5", "6", "3", "5", "1", "2", "4"])
    d = play(env, ["1 hit", "2 hit", "3 hit"])
    assert d["scores"] == [0, 0, 0, 0]
    d = play(env, ["0 stay"])
    assert d["scores"] == [3, 0, 0, 0]  # totals change at the moment of banking
    assert d["status"] == ["stayed", "in_round", "in_round", "in_round"]
    d = play(env, ["1 stay"])
    assert d["scores"] == [3, 9, 0, 0]
    assert d["table"][1] == ["4", "5"]  # F16: the cards stay in front of the player
    d = play(env, ["2 stay"])
    assert d["scores"] == [3, 9, 6, 0]
    assert decision(env) == ("turn", 3)
    d = play(env, ["3 hit"])
    assert d["table"][3] == ["6", "2", "4"]
    assert decision(env) == ("turn", 3)  # 0, 1, 2 out: seat 3 again


# ---- F8: HIT -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "card,table1,status1,next_decision",
    [
        ("5", ["4", "5"], "in_round", ("turn", 2)),  # (A) new value
        ("ZERO", ["4", "ZERO"], "in_round", ("turn", 2)),  # (A) ZERO is a value too
        ("4", ["4", "4"], "busted", ("turn", 2)),  # (C) duplicate: bust, card stays on table
        ("DOUBLE", ["4", "DOUBLE"], "in_round", ("turn", 2)),  # (D) kept
        ("EXTRA_LIFE", ["4", "EXTRA_LIFE"], "in_round", ("turn", 2)),  # (D) kept
        ("FREEZE", ["4"], "in_round", ("target_freeze", 1)),  # (D) drawer chooses
        ("FLIP3", ["4"], "in_round", ("target_flip3", 1)),  # (D) drawer chooses
    ],
)
def test_F8_hit_outcomes(
    card: str, table1: list[str], status1: str, next_decision: tuple[str, int]
) -> None:
    env = make(["4", "5", "6", "3", card])
    d = play(env, ["1 hit"])
    assert d["table"][1] == table1
    assert d["status"][1] == status1
    assert d["scores"] == [0, 0, 0, 0]
    assert decision(env) == next_decision


def test_F8_busted_player_leaves_with_0_and_is_skipped() -> None:
    env = make(["4", "5", "6", "3", "2", "4", "1"])
    d = play(env, ["1 hit", "2 stay", "3 stay", "0 stay"])
    assert d["scores"] == [3, 0, 5, 6]
    assert decision(env) == ("turn", 1)
    d = play(env, ["1 hit"])  # 4 again: bust, round over (nobody left)
    assert d["scores"] == [3, 0, 5, 6]
    assert d["round_index"] == 1
    assert Counter(d["discard_pile"]) == Counter(["4", "5", "6", "3", "2", "4"])


def test_F8_sixth_distinct_value_is_flip6() -> None:
    """F8 (B): seat 1 has five values, a sixth makes Flip 6 (details in F9)."""
    env = make(["FLIP3", "ZERO", "1", "2", "5", "6", "3", "4", "5"], n=3)  # deal: 1, 2, 0
    d = play(env, ["1 target 1", "1 hit", "2 stay", "0 stay", "1 hit"])
    assert d["table"][1] == ["FLIP3", "ZERO", "1", "2", "3", "4"] and d["status"][1] == "in_round"
    d = play(env, ["1 hit"])
    assert d["flip6_seat"] == 1
    assert d["scores"] == [6, 15 + 6, 5]
    assert d["round_index"] == 1


# ---- F9: Flip 6 ----------------------------------------------------------------------------------
FLIP6_DECK = ["ZERO", "5", "6", "4", "FLIP3", "1", "2", "3", "5", "3", "4", "4", "6", "6"]
FLIP6_MOVES = [
    "1 hit",  # FLIP3
    "1 target 1",  # 1, 2, 3
    "2 stay",  # banks 5
    "3 hit",  # 5
    "0 hit",  # 3
    "1 hit",  # 4
    "3 hit",  # 4
    "0 hit",  # 6
]


def test_F9_flip6_ends_the_round_for_everybody() -> None:
    env = make([*FLIP6_DECK, "5", "5", "6", "6"])
    d = play(env, FLIP6_MOVES)
    assert d["table"][1] == ["ZERO", "FLIP3", "1", "2", "3", "4"]
    assert d["scores"] == [0, 0, 5, 0]
    d = play(env, ["1 hit"])  # 6: ZERO,1,2,3,4,6 is Flip 6
    # every player still in the round banks; only the Flip 6 player gets the 6 bonus
    assert d["scores"] == [4 + 3 + 6, 0 + 1 + 2 + 3 + 4 + 6 + 6, 5, 6 + 5 + 4]
    assert d["flip6_seat"] == 1
    assert d["round_index"] == 1 and d["dealer"] == 1
    round1 = ["ZERO", "5", "6", "4", "FLIP3", "1", "2", "3", "5", "3", "4", "4", "6", "6"]
    assert Counter(d["discard_pile"]) == Counter(round1)
    # F5/F16: the next round is dealt from the same pile, starting left of the new dealer
    assert d["table"] == [["6"], ["6"], ["5"], ["5"]]
    assert d["status"] == ["in_round"] * 4
    assert decision(env) == ("turn", 2)


@pytest.mark.parametrize(
    "values,expected",
    [
        (["ZERO", "1", "2", "3", "4", "5"], 15 + 6),
        (["1", "2", "3", "4", "5", "6"], 21 + 6),
        (["ZERO", "6", "5", "4", "3", "2"], 20 + 6),
    ],
)
def test_F9_six_distinct_values_with_or_without_zero(values: list[str], expected: int) -> None:
    a, b, c, dd, e, f = values
    # 3 players, deal 1, 2, 0: seat 1 takes FLIP3 on itself (a, b, c), the others stay at once
    env = make(["FLIP3", a, b, c, "5", "6", dd, e, f], n=3)
    play(env, ["1 target 1", "1 hit", "2 stay", "0 stay", "1 hit"])
    d = env.to_dict()
    assert d["status"][1] == "in_round" and len(d["table"][1]) == 6  # five values: no Flip 6
    d = play(env, ["1 hit"])
    assert d["scores"] == [6, expected, 5]
    assert d["flip6_seat"] == 1 and d["round_index"] == 1


# ---- F10: EXTRA_LIFE ---------------------------------------------------------------------------------
def test_F10_extra_life_discards_both_cards_and_holder_stays() -> None:
    env = make(["EXTRA_LIFE", "5", "6", "4", "3", "2", "3", "1", "3"])
    d = play(env, ["1 hit", "2 stay", "3 stay", "0 hit"])
    assert d["table"][1] == ["EXTRA_LIFE", "3"]
    d = play(env, ["1 hit"])  # 3 again: saved
    assert d["table"][1] == ["3"]
    assert d["discard_pile"] == ["EXTRA_LIFE", "3"]
    assert d["status"][1] == "in_round"
    assert d["scores"] == [0, 0, 5, 6]
    assert decision(env) == ("turn", 0)
    d = play(env, ["0 hit", "1 hit"])  # 3 a third time: no life left, bust
    assert d["table"][1] == ["3", "3"]
    assert d["status"][1] == "busted"
    assert d["discard_pile"] == ["EXTRA_LIFE", "3"]
    assert decision(env) == ("turn", 0)


def test_F10_saved_holder_banks_its_remaining_cards() -> None:
    env = make(["4", "5", "6", "3", "EXTRA_LIFE", "4", "2"])
    d = play(env, ["1 hit", "2 stay", "3 stay", "0 stay", "1 hit"])
    assert d["table"][1] == ["4"] and d["discard_pile"] == ["EXTRA_LIFE", "4"]
    d = play(env, ["1 hit", "1 stay"])
    assert d["scores"] == [3, 6, 5, 6]


def test_F10_extra_life_saves_inside_flip3_and_the_sequence_goes_on() -> None:
    env = make(["4", "5", "6", "3", "EXTRA_LIFE", "FLIP3", "4", "5", "6"])
    d = play(env, ["1 hit", "2 stay", "3 stay", "0 stay", "1 hit", "1 target 1"])
    assert d["table"][1] == ["4", "FLIP3", "5", "6"]
    assert d["discard_pile"] == ["EXTRA_LIFE", "4"]
    assert d["status"][1] == "in_round"
    assert decision(env) == ("turn", 1)


# ---- F11: FREEZE --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "victim,next_seat", [(1, 2), (2, 3), (3, 2), (0, 2)], ids=["self", "next", "other", "dealer"]
)
def test_F11_freeze_target_leaves_and_banks(victim: int, next_seat: int) -> None:
    env = make(["4", "5", "6", "3", "FREEZE"])
    play(env, ["1 hit"])
    assert decision(env) == ("target_freeze", 1)
    assert env.legal_actions() == [target(s) for s in range(4)]  # themselves included
    d = play(env, [f"1 target {victim}"])
    dealt = {1: 4, 2: 5, 3: 6, 0: 3}
    assert d["status"][victim] == "frozen"
    assert d["scores"] == [dealt[s] if s == victim else 0 for s in range(4)]
    assert d["table"][victim] == [str(dealt[victim]), "FREEZE"]
    assert d["set_aside"] == []
    assert decision(env) == ("turn", next_seat)


def test_F11_freeze_only_targets_players_still_in_round() -> None:
    env = make(["4", "5", "6", "3", "2", "FREEZE"])
    play(env, ["1 hit", "2 stay", "3 hit"])
    assert decision(env) == ("target_freeze", 3)
    assert env.legal_actions() == [target(0), target(1), target(3)]
    with pytest.raises(IllegalActionError):
        env.step(env.unwrapped.parse_action("target 2"))
    assert decision(env) == ("target_freeze", 3)
    d = play(env, ["3 target 1"])
    assert d["scores"] == [0, 6, 5, 0]
    assert d["status"] == ["in_round", "frozen", "stayed", "in_round"]


# ---- F12: FLIP3 ----------------------------------------------------------------------------------
def test_F12_flip3_deals_three_cards_to_the_target() -> None:
    env = make(["4", "5", "6", "3", "FLIP3", "1", "2", "4", "ZERO"])
    play(env, ["1 hit"])
    assert decision(env) == ("target_flip3", 1)
    d = play(env, ["1 target 2"])
    assert d["table"] == [["3"], ["4"], ["5", "FLIP3", "1", "2", "4"], ["6"]]
    assert d["draw_pile"][0] == "ZERO"
    assert d["status"] == ["in_round"] * 4
    assert decision(env) == ("turn", 2)  # play goes on after the drawer (seat 1)


def test_F12_flip3_on_self() -> None:
    env = make(["4", "5", "6", "3", "FLIP3", "1", "2", "ZERO"])
    d = play(env, ["1 hit", "1 target 1"])
    assert d["table"][1] == ["4", "FLIP3", "1", "2", "ZERO"]
    assert decision(env) == ("turn", 2)


def test_F12_flip3_stops_early_on_bust() -> None:
    env = make(["4", "5", "6", "3", "FLIP3", "1", "5", "2"])
    d = play(env, ["1 hit", "1 target 2"])
    assert d["table"][2] == ["5", "FLIP3", "1", "5"]
    assert d["status"][2] == "busted"
    assert d["draw_pile"][0] == "2"  # the third card is not drawn
    assert d["scores"] == [0, 0, 0, 0]
    assert decision(env) == ("turn", 3)


def test_F12_freeze_inside_flip3_freezes_the_drawer_without_a_choice() -> None:
    env = make(["4", "5", "6", "3", "FLIP3", "1", "FREEZE", "2"])
    d = play(env, ["1 hit", "1 target 2"])
    assert d["table"][2] == ["5", "FLIP3", "1", "FREEZE"]
    assert d["status"][2] == "frozen"
    assert d["scores"] == [0, 0, 6, 0]  # banks 5 + 1
    assert d["draw_pile"][0] == "2"
    assert d["set_aside"] == []
    assert decision(env) == ("turn", 3)  # no target_freeze decision


def test_F12_flip3_stops_early_on_flip6() -> None:
    # 3 players, deal 1, 2, 0; seat 1 collects ZERO..4 then FLIP3 on itself: the 5 makes Flip 6
    deck = ["ZERO", "5", "6", "1", "2", "3", "4", "FLIP3", "5", "6", "6", "5"]
    env = make(deck, n=3)
    d = play(env, ["1 hit", "2 stay", "0 stay", "1 hit", "1 hit", "1 hit", "1 hit"])
    assert d["table"][1] == ["ZERO", "1", "2", "3", "4"]
    d = play(env, ["1 target 1"])
    assert d["scores"] == [6, 10 + 5 + 6, 5]
    assert d["round_index"] == 1 and d["flip6_seat"] == 1
    # the two FLIP3 cards never drawn are the next round's deal (dealer 1: seats 2, 0, 1)
    assert d["table"] == [["6"], ["5"], ["6"]]
    assert d["pending"] == [] and d["set_aside"] == []


def test_F12_flip3_only_targets_players_still_in_round() -> None:
    env = make(["4", "5", "6", "3", "2", "FLIP3"])
    play(env, ["1 hit", "2 stay", "3 hit"])
    assert decision(env) == ("target_flip3", 3)
    assert env.legal_actions() == [target(0), target(1), target(3)]
    with pytest.raises(IllegalActionError):
        env.step(env.unwrapped.parse_action("target 2"))


def test_F12_nested_flip3_is_resolved_before_the_outer_sequence_goes_on() -> None:
    """The deck has one FLIP3, so the nested case needs a doctored state (a 2nd FLIP3 on the pile).

    from_dict refuses such a state (the cards no longer add up to the deck), so the doctoring is
    done on the state object itself."""
    g = Flip6Game(num_players=4)
    s = g.new_game(
        np.random.default_rng(0),
        {"deck": ["4", "5", "ZERO", "3", "FLIP3", "1", "EXTRA_LIFE", "2", "3", "4", "6", "2"]},
    )
    data = g.to_dict(s)
    assert data["draw_pile"][:3] == ["FLIP3", "1", "EXTRA_LIFE"]
    data["draw_pile"][2] = "FLIP3"
    with pytest.raises(ConfigError, match="do not add up to the deck"):
        g.from_dict(data)
    s.draw_pile[-3] = FLIP3  # the top of the pile is the end of the list
    g.apply(s, HIT, seat=1)  # outer FLIP3
    g.apply(s, target(2), seat=1)  # seat 2 draws 1, then the inner FLIP3
    assert g.to_dict(s)["table"][2] == ["5", "FLIP3", "1"]
    assert (g.decision_name(s), g.current_player(s)) == ("target_flip3", 2)  # seat 2 drew it
    g.apply(s, target(3), seat=2)
    d = g.to_dict(s)
    assert d["table"][3] == ["ZERO", "FLIP3", "2", "3", "4"]  # inner: three cards first
    assert d["table"][2] == ["5", "FLIP3", "1", "6"]  # then the outer's last card
    assert d["draw_pile"][0] == "2"
    assert (d["decision"], d["current_player"]) == ("turn", 2)


# ---- F13: DOUBLE --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "deck,moves,scores,round_over",
    [
        pytest.param(
            ["4", "5", "6", "DOUBLE", "3"],
            ["1 hit", "2 stay", "0 stay", "1 hit", "1 stay"],
            [6, 2 * 7, 5],
            True,
            id="stay",
        ),
        pytest.param(
            ["4", "5", "6", "DOUBLE", "FREEZE"],
            ["1 hit", "2 hit", "2 target 1"],
            [0, 2 * 4, 0],
            False,
            id="frozen",
        ),
        pytest.param(
            # seat 2 takes FLIP3 on itself in the deal and makes Flip 6; seat 1 banks doubled
            ["4", "FLIP3", "ZERO", "1", "2", "6", "DOUBLE", "3", "3", "5", "5", "4"],
            ["2 target 2", "1 hit", "2 hit", "0 stay", "1 hit", "2 hit", "1 hit", "2 hit"],
            [6, 2 * (4 + 3 + 5), 15 + 6],
            True,
            id="end_of_round",
        ),
        pytest.param(
            # own Flip 6 with DOUBLE: numbers doubled, bonus not
            ["FLIP3", "ZERO", "1", "2", "5", "6", "DOUBLE", "3", "4", "5"],
            ["1 target 1", "1 hit", "2 stay", "0 stay", "1 hit", "1 hit", "1 hit"],
            [6, 2 * 15 + 6, 5],
            True,
            id="own_flip6",
        ),
        pytest.param(
            ["4", "5", "6", "DOUBLE", "4"],
            ["1 hit", "2 stay", "0 stay", "1 hit"],
            [6, 0, 5],
            True,
            id="bust",
        ),
    ],
)
def test_F13_double(deck: list[str], moves: list[str], scores: list[int], round_over: bool) -> None:
    """F13: numbers doubled on STAY, FREEZE and round end; Flip 6 bonus not doubled; bust 0."""
    env = make(deck, n=3)  # deal: 1, 2, 0
    d = play(env, moves)
    assert d["scores"] == scores
    assert d["round_index"] == (1 if round_over else 0)


# ---- F14: round score ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards,flip6,expected",
    [
        ([], False, 0),
        (["ZERO", "3", "EXTRA_LIFE"], False, 3),
        (["6", "FREEZE"], False, 6),
        (["FLIP3", "5", "4"], False, 9),
        (["1", "2", "DOUBLE"], False, 6),
        (["DOUBLE"], False, 0),
        (["ZERO", "1", "2", "3", "4", "5"], True, 21),
        (["ZERO", "1", "2", "DOUBLE", "3", "4", "5"], True, 36),
        (["1", "2", "3", "4", "5", "6"], True, 27),
    ],
)
def test_F14_round_score(cards: list[str], flip6: bool, expected: int) -> None:
    # the row is set on the state object: from_dict refuses cards the deck does not hold
    g = Flip6Game(num_players=3)
    s = g.new_game(np.random.default_rng(0), {"deck": ["4", "5", "6"]})
    s.table[1] = [parse_card(c) for c in cards]
    s.has_double[1] = "DOUBLE" in cards
    assert round_score(s, 1, flip6=flip6) == expected


def test_F14_round_score_is_what_a_stay_banks() -> None:
    env = make(["ZERO", "5", "6", "4", "EXTRA_LIFE", "3", "DOUBLE", "2"])
    d = play(env, ["1 hit", "2 stay", "3 stay", "0 stay", "1 hit", "1 hit", "1 hit", "1 stay"])
    assert d["scores"] == [4, 2 * (0 + 3 + 2), 5, 6]


# ---- F15: round end ------------------------------------------------------------------------------
def test_F15_round_ends_only_when_nobody_is_left() -> None:
    env = make(["4", "5", "6", "5", "3", "2", "1", "ZERO", "4"], n=3)  # deal: 1, 2, 0
    d = play(env, ["1 stay", "2 hit", "0 hit", "0 hit"])  # seat 2 busts on 5
    assert d["round_index"] == 0
    assert d["status"] == ["in_round", "stayed", "busted"]
    assert decision(env) == ("turn", 0)  # the last player keeps playing
    before = env.to_dict()["draw_pile"]
    assert before[:3] == ["1", "ZERO", "4"]
    d = play(env, ["0 stay"])
    assert d["scores"] == [6 + 3 + 2, 4, 0]
    assert d["round_index"] == 1 and d["dealer"] == 1
    # F16: the table goes to the discard pile; the next deal continues the same draw pile
    assert Counter(d["discard_pile"]) == Counter(["4", "5", "6", "5", "3", "2"])
    assert d["table"] == [[before[1]], [before[2]], [before[0]]]  # dealt 2, 0, 1
    assert d["draw_pile"] == before[3:]
    assert d["status"] == ["in_round"] * 3
    assert decision(env) == ("turn", 2)


# ---- F16: where the cards go -----------------------------------------------------------------------
def test_F16_cards_stay_in_front_of_their_holder_during_the_round() -> None:
    deck = ["4", "5", "6", "3", "FREEZE", "FLIP3", "1", "2", "ZERO", "3"]
    env = make(deck)
    d = play(env, ["1 hit", "1 target 3"])
    assert d["table"] == [["3"], ["4"], ["5"], ["6", "FREEZE"]]  # FREEZE in front of its target
    d = play(env, ["2 hit", "2 target 0"])
    assert d["table"] == [["3", "FLIP3", "1", "2", "ZERO"], ["4"], ["5"], ["6", "FREEZE"]]
    assert decision(env) == ("turn", 0)  # seat 3 is frozen
    d = play(env, ["0 hit"])  # 3 again: the busting duplicate stays in front of seat 0
    assert d["table"][0] == ["3", "FLIP3", "1", "2", "ZERO", "3"]
    assert d["status"] == ["busted", "in_round", "in_round", "frozen"]
    assert d["discard_pile"] == []
    assert d["scores"] == [0, 0, 0, 6]


def test_F16_discard_pile_is_reshuffled_when_the_draw_pile_runs_out_not_the_table() -> None:
    """6 players use all 26 cards; EXTRA_LIFE puts 2 cards in the discard pile; next hit reshuffles."""
    deck = [
        *["EXTRA_LIFE", "6", "6", "6", "6", "6"],  # deal, seats 0..5
        *["6", "5", "5", "5", "FREEZE"],
        *["5", "4", "FLIP3", "4", "3", "1", "4"],
        *["5", "3", "ZERO"],
        *["4", "2"],
        *["3", "DOUBLE"],
        "2",
    ]
    assert len(deck) == 26
    env = make(deck, n=6, dealer=5)
    moves = [
        *["0 hit", "1 hit", "2 hit", "3 hit", "4 stay", "5 hit", "5 target 5"],
        *["0 hit", "1 hit", "2 hit", "2 target 2", "3 hit"],
        *["0 hit", "1 hit", "2 stay", "3 hit"],  # seat 0: 5 again, saved by EXTRA_LIFE
        *["0 hit", "1 hit", "3 stay"],
        *["0 hit", "1 hit"],
        "0 hit",
    ]
    d = play(env, moves)
    tables = [
        ["6", "5", "4", "3", "2"],
        ["6", "5", "4", "3", "2", "DOUBLE"],
        ["6", "5", "FLIP3", "4", "3", "1"],
        ["6", "5", "4", "ZERO"],
        ["6"],
        ["6", "FREEZE"],
    ]
    assert d["table"] == tables
    assert d["draw_pile"] == [] and d["discard_pile"] == ["EXTRA_LIFE", "5"]
    assert d["scores"] == [0, 0, 19, 15, 6, 6]
    assert decision(env) == ("turn", 1)
    assert env.legal_actions() == [STAY, HIT]  # the discard pile can still be drawn
    d = play(env, ["1 hit"])
    drawn = d["table"][1][-1]
    assert d["table"][:1] + d["table"][2:] == tables[:1] + tables[2:]  # the table is untouched
    assert d["table"][1][:-1] == tables[1]
    assert sorted([drawn, *d["draw_pile"]]) == ["5", "EXTRA_LIFE"]
    assert d["discard_pile"] == []
    assert d["status"][1] == ("busted" if drawn == "5" else "in_round")


def all_cards_out() -> CardGameEnv:
    """6 players, all 26 cards dealt but DOUBLE; seat 1 aims its FLIP3 next (F16 tests)."""
    deck = [
        *["6"] * 6,  # deal, seats 0..5
        *["5", "5", "5", "5", "5", "FREEZE"],
        *["4", "4", "4", "4"],
        *["3", "3", "3", "ZERO"],
        *["2", "2", "1"],
        *["EXTRA_LIFE", "FLIP3", "DOUBLE"],
    ]
    assert len(deck) == 26
    env = make(deck, n=6, dealer=5)
    moves = [
        *["0 hit", "1 hit", "2 hit", "3 hit", "4 hit", "5 hit", "5 target 5"],
        *["0 hit", "1 hit", "2 hit", "3 hit", "4 stay"],
        *["0 hit", "1 hit", "2 hit", "3 hit"],
        *["0 hit", "1 hit", "2 hit", "3 stay"],
        *["0 hit", "1 hit"],
    ]
    d = play(env, moves)
    assert decision(env) == ("target_flip3", 1)
    assert d["draw_pile"] == ["DOUBLE"] and d["discard_pile"] == []
    return env


def test_F16_forced_stay_when_draw_and_discard_piles_are_empty() -> None:
    """6 players put all 26 cards on the table; FLIP3 then a turn find nothing to draw."""
    env = all_cards_out()
    d = play(env, ["1 target 1"])  # draws DOUBLE, then nothing is left: seat 1 must stay
    assert d["table"][1] == ["6", "5", "4", "3", "2", "FLIP3", "DOUBLE"]
    assert d["status"][1] == "stayed"
    assert d["scores"] == [0, 2 * 20, 0, 15, 11, 6]
    assert d["draw_pile"] == [] and d["discard_pile"] == []
    # a turn with both piles empty offers STAY only
    assert decision(env) == ("turn", 2)
    assert env.legal_actions() == [STAY]
    assert env.observe("player_2")["action_mask"].tolist() == [1, 0, 0, 0, 0, 0, 0, 0]
    with pytest.raises(IllegalActionError):
        env.step(HIT)
    d = play(env, ["2 stay"])
    assert d["scores"] == [0, 40, 19, 15, 11, 6]
    assert decision(env) == ("turn", 0)
    assert env.legal_actions() == [STAY]
    d = play(env, ["0 stay"])
    assert d["scores"] == [20, 40, 19, 15, 11, 6]
    # round over: the whole table went to the discard pile, which the next deal reshuffled
    assert d["round_index"] == 1 and d["dealer"] == 0
    assert d["discard_pile"] == []
    assert len(d["draw_pile"]) + sum(len(t) for t in d["table"]) + len(d["set_aside"]) == 26


def test_F16_forced_stay_on_a_restored_state() -> None:
    """Same rule via from_dict: the state above with both piles empty, saved and restored into a
    fresh env; a doctored state with every other card on a busted seat is refused (F8: a busted
    row holds its one duplicate last)."""
    env = all_cards_out()
    play(env, ["1 target 1"])
    data = json.loads(json.dumps(env.to_dict()))
    twin = envs.make("flip6", num_players=6)
    twin.reset(seed=5)
    twin.from_dict(data)
    check_conservation(twin)
    assert decision(twin) == ("turn", 2)
    assert twin.legal_actions() == [STAY]
    with pytest.raises(IllegalActionError):
        twin.step(HIT)
    d = play(twin, ["2 stay"])
    assert d["scores"] == [0, 40, 19, 15, 11, 6]
    assert decision(twin) == ("turn", 0)
    doctored = make(["4", "5", "6", "3"]).to_dict()
    doctored["table"][2] = doctored["table"][2] + doctored["draw_pile"]
    doctored["draw_pile"] = []
    doctored["status"][2] = "busted"
    with pytest.raises(ConfigError, match=r"table\[2\]"):
        make(["4", "5", "6", "3"]).from_dict(doctored)


# ---- F17: end of game -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "card,scores,moves,final,winners",
    [
        pytest.param("2", [0, 0, 55, 0], ["1 hit", "2 stay"], [0, 0, 60, 0], [2], id="stay_60"),
        pytest.param("2", [0, 0, 58, 0], ["1 hit", "2 stay"], [0, 0, 63, 0], [2], id="stay_63"),
        pytest.param(
            "FREEZE", [0, 57, 0, 0], ["1 hit", "1 target 1"], [0, 61, 0, 0], [1], id="freeze_self"
        ),
        pytest.param(
            "FREEZE", [0, 0, 0, 54], ["1 hit", "1 target 3"], [0, 0, 0, 60], [3], id="freeze_other"
        ),
    ],
)
def test_F17_game_ends_mid_round_when_a_bank_reaches_60(
    card: str, scores: list[int], moves: list[str], final: list[int], winners: list[int]
) -> None:
    env = make(["4", "5", "6", "3", card], scores=scores)
    d = play(env, moves)
    assert d["over"] and d["scores"] == final and d["winners"] == winners
    assert d["current_player"] is None
    assert "in_round" in d["status"]  # others were still playing: mid-round
    assert d["round_index"] == 0
    n_lose = 3
    assert rewards(env) == [1.0 if s in winners else -1.0 / n_lose for s in range(4)]
    assert sum(rewards(env)) == pytest.approx(0.0)
    assert all(env.terminations.values())
    with pytest.raises(GameOverError):
        env.step(HIT)
    with pytest.raises(GameOverError):
        env.game.apply(env.state_obj, STAY)


def test_F17_59_is_not_enough() -> None:
    env = make(["4", "5", "6", "3", "2"], scores=[0, 0, 54, 0])
    d = play(env, ["1 hit", "2 stay"])
    assert d["scores"] == [0, 0, 59, 0] and not d["over"] and d["winners"] == []
    assert rewards(env) == [0.0] * 4
    assert decision(env) == ("turn", 3)


def test_F17_game_can_end_during_the_deal() -> None:
    env = make(["FLIP3", "3", "FREEZE", "5", "6", "4"], scores=[0, 58, 0, 0])
    assert decision(env) == ("target_flip3", 1)
    d = play(env, ["1 target 1"])
    assert d["over"] and d["winners"] == [1] and d["scores"] == [0, 61, 0, 0]
    assert d["table"] == [[], ["FLIP3", "3", "FREEZE"], [], []]
    assert d["draw_pile"][:3] == ["5", "6", "4"]  # nobody else was dealt
    assert rewards(env) == [-1 / 3, 1.0, -1 / 3, -1 / 3]


def test_F17_target_score_option() -> None:
    env = make(["4", "5", "6", "3"], n=4, target_score=5)
    d = play(env, ["1 stay"])
    assert not d["over"]
    d = play(env, ["2 stay"])
    assert d["over"] and d["winners"] == [2]


def test_F17_flip6_player_alone_reaching_60_wins() -> None:
    env = make([*FLIP6_DECK], scores=[0, 38, 0, 0])
    play(env, FLIP6_MOVES)
    d = play(env, ["1 hit"])
    assert d["over"] and d["winners"] == [1]
    assert d["scores"] == [13, 38 + 22, 5, 15]


# ---- F18: several reach 60 at once (Flip 6) ------------------------------------------------------------
# seat 1 takes FLIP3 on itself in the deal and makes Flip 6 with ZERO..5 (15 + 6 = 21);
# seats 2, 3 and 0 each end the round with 15.
F18_DECK = ["FLIP3", "ZERO", "1", "2", "5", "6", "4", "3", "6", "5", "6", "4", "4", "4", "5", "5"]
F18_MOVES = ["1 target 1", "1 hit", "2 hit", "3 hit", "0 hit", "1 hit", "2 hit", "3 hit", "0 hit"]


@pytest.mark.parametrize(
    "scores,winners",
    [
        pytest.param([50, 45, 48, 0], [1], id="flip6_player_highest"),
        pytest.param([50, 30, 52, 0], [2], id="other_player_highest"),
        pytest.param([45, 0, 44, 0], [0], id="only_one_reaches"),
        pytest.param([50, 0, 50, 0], [0, 2], id="two_way_tie"),
        pytest.param([50, 44, 50, 0], [0, 1, 2], id="three_way_tie"),
        pytest.param([45, 39, 45, 45], [0, 1, 2, 3], id="everybody_ties"),
    ],
)
def test_F18_simultaneous_reach_highest_wins_ties_share(
    scores: list[int], winners: list[int]
) -> None:
    env = make(F18_DECK, scores=scores)
    d = play(env, F18_MOVES)
    assert not d["over"] and d["scores"] == scores
    d = play(env, ["1 hit"])
    final = [scores[0] + 15, scores[1] + 21, scores[2] + 15, scores[3] + 15]
    assert d["scores"] == final
    assert d["over"] and d["winners"] == winners
    r = rewards(env)
    if len(winners) == 4:
        assert r == [0.0] * 4  # every seat wins: all 0
    else:
        win, lose = 1 / len(winners), -1 / (4 - len(winners))
        assert r == pytest.approx([win if s in winners else lose for s in range(4)])
    assert sum(r) == pytest.approx(0.0)
    assert env.game.returns(env.state_obj) == pytest.approx(r)
