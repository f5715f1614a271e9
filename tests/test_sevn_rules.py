"""Stacked-deck scenario tests for every rule id S1-S27 of ``docs/rules/sevn.md``.

Each test is named after the rule id it checks (``test_S9_...``). Scenarios stack the top of the
draw pile with ``reset(options={"deck": [...]})`` so that every card is known, then play a script of
moves written as ``"SEAT ACTION"`` (``"1 draw"``, ``"2 pass"``, ``"1 target 3"``, ``"0 fork 1"``,
``"2 keep"``); every move checks that SEAT really holds the decision and that no card was lost or
duplicated.

Deal order (S7): with dealer D the deal goes D+1, D+2, ... (mod N), and the first turn is D+1's.
With 2 players and dealer 0 the deal is seats 1, 0; with 3 players 1, 2, 0; with 4 players 1, 2, 3, 0.
"""

from __future__ import annotations

import copy
import functools
from collections import Counter
from typing import Any

import numpy as np
import pytest
from scenario import check_conservation, decision, legal_texts, play, rewards

from cardarena import envs
from cardarena.envs.core import CardGameEnv, ConfigError, GameOverError, IllegalActionError
from cardarena.envs.sevn.rules import (
    CARD_CODES,
    CARD_TABLE,
    CARD_VALUE,
    DISCARD,
    DRAW,
    FLIP_THREE,
    FORK,
    FORK0,
    FREEZE,
    KEEP,
    NUM_ACTIONS,
    PASS,
    STORM,
    TARGET0,
    SevnGame,
    hand_score,
    hand_scores,
    parse_card,
)


# ---- helpers --------------------------------------------------------------------------------------
def make(
    deck: list[str],
    n: int = 4,
    dealer: int | None = 0,
    scores: list[int] | None = None,
    seed: int = 0,
    **options: Any,
) -> CardGameEnv:
    """A sevn env reset with ``deck`` on top of the draw pile (top first)."""
    env = envs.make("sevn", num_players=n, **options)
    reset_options: dict[str, Any] = {"deck": list(deck)}
    if dealer is not None:
        reset_options["dealer"] = dealer
    if scores is not None:
        reset_options["scores"] = list(scores)
    env.reset(seed=seed, options=reset_options)
    check_conservation(env)
    return env


def score(cards: list[str], sevn: bool = False) -> int:
    return hand_score([parse_card(c) for c in cards], sevn)


def deck_counts() -> Counter[str]:
    return Counter(SevnGame(num_players=4).deck_codes())


# ---- S1-S6: the cards ---------------------------------------------------------------------------
def test_S1_number_cards() -> None:
    counts = deck_counts()
    assert counts["0"] == 1
    assert {v: counts[str(v)] for v in range(1, 14)} == {v: v for v in range(1, 14)}
    assert sum(counts[str(v)] for v in range(14)) == 92


@pytest.mark.parametrize("deck", [["0", "0"], ["1", "1"], ["13"] * 14, ["-2"] * 3, ["14"]])
def test_S1_S2_deck_option_cannot_exceed_the_deck(deck: list[str]) -> None:
    env = envs.make("sevn", num_players=3)
    with pytest.raises(ConfigError):
        env.reset(seed=0, options={"deck": deck})


def test_S2_ballast_cards_and_kept_ballast_is_a_value() -> None:
    counts = deck_counts()
    assert [counts[c] for c in ("-2", "-4", "-6")] == [2, 2, 2]
    env = make(["-4", "5"], n=2)  # seat 1 is dealt -4 and keeps it
    play(env, ["1 keep"])
    assert env.view(0)["values"][1] == [-4]
    assert env.to_dict()["table"][1] == ["-4"]


def test_S3_modifier_cards() -> None:
    counts = deck_counts()
    assert [counts[c] for c in ("x2", "+2", "+4", "+6", "+8", "+10")] == [1] * 6


def test_S4_action_cards() -> None:
    counts = deck_counts()
    actions = ("FREEZE", "SECOND_CHANCE", "FLIP_THREE", "FORK", "STORM")
    assert [counts[c] for c in actions] == [3, 3, 3, 2, 2]


def test_S5_bonus_cards_and_the_deck_size() -> None:
    counts = deck_counts()
    assert [counts[c] for c in ("FEATHERWEIGHT", "HEAVYWEIGHT", "STRAIGHT")] == [1, 1, 1]
    assert sum(counts.values()) == 120
    env = envs.make("sevn", num_players=8)
    env.reset(seed=3)
    d = env.to_dict()
    cards = d["draw_pile"] + d["discard_pile"] + sum(d["table"], []) + d["set_aside"]
    assert Counter(cards) == counts


def test_S6_seventeen_values_in_one_data_table() -> None:
    values = {row[2] for row in CARD_TABLE if row[1] in ("number", "ballast")}
    assert values == set(range(14)) | {-2, -4, -6}
    assert len(values) == 17
    assert CARD_CODES == [row[0] for row in CARD_TABLE]
    assert [CARD_VALUE[parse_card(c)] for c in ("13", "-6", "+10")] == [13, -6, 10]


def test_S6_ballast_minus_2_and_number_2_are_distinct_values() -> None:
    env = make(["2", "5", "-2"], n=2)
    play(env, ["1 draw"])
    assert decision(env) == ("ballast", 1)
    assert legal_texts(env) == ["keep", "discard"]
    d = play(env, ["1 keep"])
    assert d["table"][1] == ["2", "-2"] and d["status"][1] == "in_hand"
    assert sorted(env.view(1)["values"][1]) == [-2, 2]


# ---- S7: the deal --------------------------------------------------------------------------------
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_S7_deal_starts_left_of_dealer_clockwise(dealer: int) -> None:
    deck = ["3", "4", "5", "6"]
    env = make(deck, dealer=dealer)
    d = env.to_dict()
    for k in range(4):
        assert d["table"][(dealer + 1 + k) % 4] == [deck[k]]
    assert decision(env) == ("turn", (dealer + 1) % 4)


@pytest.mark.parametrize("n,first_dealer", [(2, 1), (3, 0), (5, 4), (8, 6)])
def test_S7_dealer_rotates_clockwise_each_hand(n: int, first_dealer: int) -> None:
    deck = [str(v) for v in range(13, 13 - n, -1)] * 3  # 3 hands, everybody passes at once
    env = make(deck, n=n, dealer=None, first_dealer=first_dealer)
    for h in range(3):
        dealer = (first_dealer + h) % n
        d = env.to_dict()
        assert (d["hand_index"], d["dealer"]) == (h, dealer)
        for k in range(n):
            assert d["table"][(dealer + 1 + k) % n] == [deck[h * n + k]]
        play(env, [f"{(dealer + 1 + k) % n} pass" for k in range(n)])


def test_S7_freeze_in_the_deal_is_resolved_before_the_deal_goes_on() -> None:
    env = make(["FREEZE", "5", "6", "7"])
    assert decision(env) == ("target_freeze", 1)
    assert env.to_dict()["table"] == [[], [], [], []]
    assert legal_texts(env) == ["target 0", "target 1", "target 2", "target 3"]
    d = play(env, ["1 target 3"])  # seat 3 leaves before its deal: skipped, banks 0
    assert d["table"] == [["6"], [], ["5"], ["FREEZE"]]
    assert d["status"] == ["in_hand", "in_hand", "in_hand", "frozen"]
    assert d["draw_pile"][0] == "7"
    assert decision(env) == ("turn", 1)


def test_S7_flip_three_in_the_deal_then_the_target_still_gets_its_card() -> None:
    env = make(["FLIP_THREE", "3", "4", "5", "6", "7", "8"])
    d = play(env, ["1 target 2"])  # seat 2 draws 3 cards first, then the deal goes on
    assert d["table"] == [["8"], [], ["FLIP_THREE", "3", "4", "5", "6"], ["7"]]
    assert decision(env) == ("turn", 1)


def test_S7_storm_in_the_deal() -> None:
    env = make(["STORM", "3", "4", "5", "6", "7", "8", "9"])
    d = env.to_dict()  # STORM: 1, 2, 3, 0 draw; then the deal goes on with 2, 3, 0
    assert d["table"] == [["6", "9"], ["STORM", "3"], ["4", "7"], ["5", "8"]]
    assert decision(env) == ("turn", 1)


def test_S7_sevn_in_the_deal_ends_the_hand() -> None:
    # seat 2 is dealt FLIP_THREE for seat 1, whose 3rd cards are FLIP_THREEs on itself: seat 1
    # reaches SEVN before seats 3 and 0 are dealt (its last pending draw is cancelled)
    deck = ["1", "FLIP_THREE", "2", "3", "FLIP_THREE", "4", "5", "FLIP_THREE", "6", "7", "8"]
    env = make(deck)
    assert decision(env) == ("target_flip_three", 2)
    play(env, ["2 target 1", "1 target 1"])
    assert decision(env) == ("target_flip_three", 1)
    assert env.to_dict()["table"] == [
        [],
        ["1", "FLIP_THREE", "2", "3", "FLIP_THREE", "4", "5"],
        [],
        [],
    ]
    d = play(env, ["1 target 1"])
    assert d["hand_index"] == 1 and d["last_sevn"] == 1
    assert d["last_banked"] == [0, 28 + 17, 0, 0]
    assert d["scores"] == [0, 45, 0, 0]
    assert d["dealer"] == 1 and d["table"][2] == ["8"]  # the next hand is dealt 2, 3, 0, 1


# ---- S8: turns -----------------------------------------------------------------------------------
def test_S8_turns_go_clockwise_among_players_still_in_the_hand() -> None:
    env = make(["5", "6", "7", "8", "9", "10", "11"])
    d = play(env, ["1 pass"])
    assert d["scores"] == [0, 5, 0, 0]  # banked at once
    d = play(env, ["2 draw", "3 pass", "0 draw"])
    assert d["table"] == [["8", "10"], ["5"], ["6", "9"], ["7"]]
    assert decision(env) == ("turn", 2)  # 1 and 3 are out
    d = play(env, ["2 draw", "0 pass"])
    assert decision(env) == ("turn", 2)
    assert d["scores"] == [18, 5, 0, 7]


def test_S8_a_turn_is_one_choice_draw_or_pass() -> None:
    env = make(["5", "6", "7", "8"])
    assert env.legal_actions() == [PASS, DRAW]
    assert legal_texts(env) == ["pass", "draw"]
    with pytest.raises(IllegalActionError, match="turn"):
        env.step(KEEP)


# ---- S9: numbers and duplicates -----------------------------------------------------------------
def test_S9_new_value_joins_the_row_duplicate_busts() -> None:
    env = make(["5", "6", "8", "5"], n=2)
    d = play(env, ["1 draw"])
    assert d["table"][1] == ["5", "8"] and d["status"][1] == "in_hand"
    d = play(env, ["0 draw"])
    assert d["table"][0] == ["6", "5"]  # another player's value is no duplicate
    env2 = make(["5", "6", "5"], n=2)
    d = play(env2, ["1 draw"])
    assert d["status"] == ["in_hand", "busted"]
    assert d["table"][1] == ["5", "5"]  # the busting duplicate stays in front (S26)
    assert decision(env2) == ("turn", 0)
    d = play(env2, ["0 pass"])
    assert d["scores"] == [6, 0]


def test_S9_second_chance_cancels_the_duplicate() -> None:
    env = make(["5", "6", "SECOND_CHANCE", "5", "7"], n=2)
    d = play(env, ["1 draw", "0 pass"])
    assert d["table"][1] == ["5", "SECOND_CHANCE"]
    d = play(env, ["1 draw"])
    assert d["status"][1] == "in_hand"
    assert d["table"][1] == ["5"]
    assert d["discard_pile"] == ["SECOND_CHANCE", "5"]  # spent, with the duplicate
    assert decision(env) == ("turn", 1)
    d = play(env, ["1 draw", "1 pass"])
    assert d["scores"] == [6, 12]


# ---- S10: SEVN -----------------------------------------------------------------------------------
SEVN_DECK = ["1", "9", "10", "FLIP_THREE", "2", "3", "4", "11", "12", "5", "13", "8", "6", "7"]
SEVN_MOVES = ["1 draw", "1 target 1", "2 draw", "0 draw", "1 draw", "2 draw", "0 draw", "1 draw"]


def test_S10_seven_distinct_values_end_the_hand_for_everybody() -> None:
    env = make([*SEVN_DECK, "7", "8", "4", "3"], n=3)  # deal 1, 2, 0
    d = play(env, SEVN_MOVES)
    assert d["table"] == [
        ["10", "12", "8"],
        ["1", "FLIP_THREE", "2", "3", "4", "5", "6"],
        ["9", "11", "13"],
    ]
    d = play(env, ["2 draw"])  # 7: seat 2 has four values
    assert d["hand_index"] == 0
    d = play(env, ["0 pass", "1 draw"])  # 7: seat 1's seventh value
    assert d["hand_index"] == 1 and d["last_sevn"] == 1
    assert d["last_banked"] == [30, 28 + 17, 9 + 11 + 13 + 7]
    assert d["scores"] == [30, 45, 40]
    # the next hand (dealer 1) is dealt 2, 0, 1 from the rest of the same pile
    assert d["table"] == [["4"], ["3"], ["8"]]


def test_S10_sevn_cancels_pending_flip_three_draws() -> None:
    deck = [*SEVN_DECK[:12], "FLIP_THREE", "6", "7", "8", "13", "12"]
    env = make(deck, n=3)
    play(env, SEVN_MOVES[:-1])  # seat 1 holds 1..5
    d = play(env, ["1 draw", "1 target 1"])  # FLIP_THREE on itself: 6, 7 (SEVN), 3rd cancelled
    assert d["hand_index"] == 1 and d["last_sevn"] == 1
    assert d["pending"] == []
    assert d["scores"] == [10 + 12 + 8, 28 + 17, 9 + 11 + 13]
    # the card the cancelled draw would have taken is dealt in the next hand (2, 0, 1)
    assert d["table"] == [["13"], ["12"], ["8"]]


# ---- S11: ballast ----------------------------------------------------------------------------------
def test_S11_ballast_keep_or_discard() -> None:
    env = make(["-6", "5", "-2", "9"], n=2)
    assert decision(env) == ("ballast", 1)  # in the deal too
    d = play(env, ["1 keep"])
    assert d["table"] == [["5"], ["-6"]]
    d = play(env, ["1 draw"])
    assert decision(env) == ("ballast", 1) and d["set_aside"] == ["-2"]
    d = play(env, ["1 discard"])
    assert d["table"][1] == ["-6"] and d["discard_pile"] == ["-2"]
    assert decision(env) == ("turn", 0)
    d = play(env, ["0 draw", "1 pass", "0 pass"])
    assert d["scores"] == [14, 0]


def test_S11_keeping_a_value_already_held_is_not_allowed() -> None:
    env = make(["-4", "5", "-4"], n=2)
    play(env, ["1 keep", "1 draw"])
    assert decision(env) == ("ballast", 1)
    assert env.legal_actions() == [DISCARD]  # still a decision step
    with pytest.raises(IllegalActionError, match="ballast"):
        env.step(KEEP)
    d = play(env, ["1 discard"])
    assert d["status"][1] == "in_hand" and d["discard_pile"] == ["-4"]


def test_S11_a_kept_ballast_can_make_sevn() -> None:
    deck = ["1", "9", "FLIP_THREE", "2", "3", "4", "FLIP_THREE", "5", "6", "-2", "7"]
    env = make(deck, n=2)  # deal 1, 0
    d = play(env, ["1 draw", "1 target 1", "0 draw"])
    assert decision(env) == ("target_flip_three", 0)
    d = play(env, ["0 target 1"])  # seat 1: 5, 6 (six values), then -2
    assert decision(env) == ("ballast", 1)
    d = play(env, ["1 keep"])
    assert d["hand_index"] == 1 and d["last_sevn"] == 1
    assert d["last_banked"] == [9, 1 + 2 + 3 + 4 + 5 + 6 - 2 + 17]


# ---- S12: modifiers and bonus cards ---------------------------------------------------------------
def test_S12_modifiers_and_bonuses_are_kept_and_never_values() -> None:
    deck = ["1", "9", "FLIP_THREE", "2", "3", "4", "+4", "x2", "STRAIGHT", "5", "6", "+10"]
    env = make(deck, n=2)
    d = play(env, ["1 draw", "1 target 1", "0 pass", "1 draw", "1 draw", "1 draw"])
    assert d["table"][1] == ["1", "FLIP_THREE", "2", "3", "4", "+4", "x2", "STRAIGHT"]
    assert env.view(0)["values"][1] == [1, 2, 3, 4]
    d = play(env, ["1 draw", "1 draw", "1 draw"])  # 5, 6, +10: six values and 5 other cards
    assert d["hand_index"] == 0 and d["status"][1] == "in_hand"
    d = play(env, ["1 pass"])
    assert d["scores"] == [9, 2 * 21 + 4 + 10 + 4 * 6]


# ---- S13: FREEZE -------------------------------------------------------------------------------------
def test_S13_freeze_targets_anyone_in_the_hand_who_banks() -> None:
    env = make(["5", "6", "7", "8", "FREEZE", "9"])
    d = play(env, ["1 pass", "2 draw"])
    assert decision(env) == ("target_freeze", 2)
    assert legal_texts(env) == ["target 0", "target 2", "target 3"]  # seat 1 has passed
    with pytest.raises(IllegalActionError):
        env.step(TARGET0 + 1)
    d = play(env, ["2 target 3"])
    assert d["status"] == ["in_hand", "passed", "in_hand", "frozen"]
    assert d["table"][3] == ["7", "FREEZE"]  # in front of the target (S26)
    assert d["scores"] == [0, 5, 0, 7]  # banked at once
    assert decision(env) == ("turn", 0)


def test_S13_freeze_self() -> None:
    env = make(["5", "6", "FREEZE"], n=2)
    d = play(env, ["1 draw", "1 target 1"])
    assert d["status"] == ["in_hand", "frozen"] and d["scores"] == [0, 5]
    assert d["table"][1] == ["5", "FREEZE"]


# ---- S14: SECOND_CHANCE ----------------------------------------------------------------------------
def test_S14_second_chance_is_kept_a_second_one_is_handed_off() -> None:
    env = make(["SECOND_CHANCE", "5", "SECOND_CHANCE", "6", "SECOND_CHANCE"])  # deal 1, 2, 3, 0
    d = env.to_dict()
    assert d["table"] == [["6"], ["SECOND_CHANCE"], ["5"], ["SECOND_CHANCE"]]
    d = play(env, ["1 draw"])
    assert decision(env) == ("target_second_chance", 1)
    assert legal_texts(env) == ["target 0", "target 2"]  # not itself, not seat 3 (holds one)
    d = play(env, ["1 target 2"])
    assert d["table"][2] == ["5", "SECOND_CHANCE"]
    assert decision(env) == ("turn", 2)


def test_S14_second_chance_with_nobody_able_to_take_it_is_discarded() -> None:
    env = make(["5", "SECOND_CHANCE", "SECOND_CHANCE", "SECOND_CHANCE"], n=3)  # deal 1, 2, 0
    # seat 1 has left, seat 0 holds one: seat 2's second SECOND_CHANCE has no taker
    d = play(env, ["1 pass", "2 draw"])
    assert d["discard_pile"] == ["SECOND_CHANCE"]
    assert d["table"] == [["SECOND_CHANCE"], ["5"], ["SECOND_CHANCE"]]
    assert decision(env) == ("turn", 0)  # no decision was asked


def test_S14_a_spent_second_chance_can_be_replaced() -> None:
    env = make(["SECOND_CHANCE", "9", "5", "5", "SECOND_CHANCE", "5"], n=2)
    d = play(env, ["1 draw", "0 pass", "1 draw", "1 draw"])
    assert d["table"][1] == ["5", "SECOND_CHANCE"] and d["discard_pile"] == ["SECOND_CHANCE", "5"]
    d = play(env, ["1 draw"])
    assert d["table"][1] == ["5"] and d["status"][1] == "in_hand"


# ---- S15: FLIP_THREE ---------------------------------------------------------------------------------
def test_S15_flip_three_gives_three_draws_to_the_target() -> None:
    env = make(["5", "6", "7", "FLIP_THREE", "2", "3", "4", "8"], n=3)
    play(env, ["1 draw"])
    assert decision(env) == ("target_flip_three", 1)
    assert legal_texts(env) == ["target 0", "target 1", "target 2"]
    d = play(env, ["1 target 0"])
    assert d["table"] == [["7", "FLIP_THREE", "2", "3", "4"], ["5"], ["6"]]
    assert decision(env) == ("turn", 2)


def test_S15_flip_three_inside_flip_three_queues_after_the_outer_draws() -> None:
    env = make(["5", "6", "7", "FLIP_THREE", "8", "FLIP_THREE", "9", "-2", "10", "11", "12"], n=3)
    play(env, ["1 draw", "1 target 2"])  # seat 2: 8, then FLIP_THREE (seat 2 chooses)
    assert decision(env) == ("target_flip_three", 2)
    d = play(env, ["2 target 0"])  # queue: [2 (outer's 3rd), 0, 0, 0]: seat 2's 9 comes first
    assert decision(env) == ("ballast", 0)
    assert d["pending"] == [0, 0]
    assert d["table"] == [["7", "FLIP_THREE"], ["5"], ["6", "FLIP_THREE", "8", "9"]]
    d = play(env, ["0 keep"])
    assert d["table"][0] == ["7", "FLIP_THREE", "-2", "10", "11"]
    assert d["pending"] == []
    assert decision(env) == ("turn", 2)


# ---- S16: FORK -----------------------------------------------------------------------------------------
def test_S16_fork_reveals_two_the_drawer_chooses_one() -> None:
    env = make(["5", "6", "FORK", "9", "FREEZE"], n=2)
    d = play(env, ["1 draw"])
    assert decision(env) == ("fork", 1)
    assert d["set_aside"] == ["9", "FREEZE"] and env.view(0)["holding"] == ["9", "FREEZE"]
    assert legal_texts(env) == ["fork 0", "fork 1"]
    d = play(env, ["1 fork 1"])  # FREEZE resolves as if drawn: seat 1 picks a target
    assert d["discard_pile"] == ["9"] and d["table"][1] == ["5", "FORK"]
    assert decision(env) == ("target_freeze", 1)
    d = play(env, ["1 target 0"])
    assert d["scores"] == [6, 0] and d["table"][0] == ["6", "FREEZE"]


def test_S16_fork_whose_both_cards_bust() -> None:
    env = make(["5", "6", "8", "7", "FORK", "8", "5"], n=2)
    play(env, ["1 draw", "0 draw"])
    d = play(env, ["1 draw"])
    assert d["set_aside"] == ["8", "5"] and decision(env) == ("fork", 1)
    assert env.legal_actions() == [FORK0, FORK0 + 1]  # the drawer still chooses
    d = play(env, ["1 fork 0"])
    assert d["status"][1] == "busted"
    assert d["table"][1] == ["5", "8", "FORK", "8"] and d["discard_pile"] == ["5"]
    assert decision(env) == ("turn", 0)


def test_S16_second_chance_saves_a_fork_bust() -> None:
    env = make(["5", "6", "SECOND_CHANCE", "FORK", "5", "5", "9"], n=2)
    d = play(env, ["1 draw", "0 pass", "1 draw", "1 fork 1"])
    assert d["status"][1] == "in_hand" and d["table"][1] == ["5", "FORK"]
    assert d["discard_pile"] == ["5", "SECOND_CHANCE", "5"]


# ---- S17: STORM ----------------------------------------------------------------------------------------
def test_S17_storm_one_draw_each_clockwise_from_the_drawer() -> None:
    env = make(["5", "6", "7", "8", "9", "STORM", "10", "11", "12", "13"])  # deal 1, 2, 3, 0
    d = play(env, ["1 pass", "2 draw", "3 draw"])  # seat 3 draws STORM: 3, 0, 2 (1 is out)
    assert d["table"] == [["8", "11"], ["5"], ["6", "9", "12"], ["7", "STORM", "10"]]
    assert decision(env) == ("turn", 0)


def test_S17_storm_interrupted_by_sevn() -> None:
    deck = [*SEVN_DECK[:13], "7", "STORM", "11", "7", "13"]
    env = make(deck, n=3)
    d = play(env, [*SEVN_MOVES, "2 draw", "0 draw"])  # seat 0's STORM: 0 draws 11, 1 draws 7
    assert d["hand_index"] == 1 and d["last_sevn"] == 1
    assert d["last_banked"] == [10 + 12 + 8 + 11, 28 + 17, 9 + 11 + 13 + 7]
    assert d["table"][2] == ["13"]  # seat 2's storm draw never happened: 13 is its next deal


# ---- S18: the pending-draw queue -------------------------------------------------------------------------
def test_S18_pending_draws_of_a_player_who_left_are_skipped() -> None:
    env = make(["5", "6", "7", "FLIP_THREE", "6", "8", "9"], n=3)
    d = play(env, ["1 draw", "1 target 2"])  # seat 2 busts on its first card
    assert d["status"] == ["in_hand", "in_hand", "busted"]
    assert d["table"][2] == ["6", "FLIP_THREE", "6"]
    assert d["draw_pile"][:2] == ["8", "9"]
    assert decision(env) == ("turn", 0)


def test_S18_freeze_inside_flip_three_is_chosen_and_later_draws_skipped() -> None:
    env = make(["5", "6", "7", "FLIP_THREE", "FREEZE", "8"], n=3)
    play(env, ["1 draw", "1 target 2"])
    assert decision(env) == ("target_freeze", 2)  # the FLIP_THREE target drew it
    d = play(env, ["2 target 2"])
    assert d["status"][2] == "frozen" and d["pending"] == []
    assert d["draw_pile"][0] == "8"


def test_S18_no_extra_turn_after_pending_draws() -> None:
    env = make(["5", "6", "7", "FLIP_THREE", "2", "3", "4"], n=3)
    play(env, ["1 draw", "1 target 1"])
    assert decision(env) == ("turn", 2)


def test_S18_each_pending_draw_fully_resolved_before_the_next() -> None:
    env = make(["5", "6", "7", "8", "STORM", "FORK", "9", "10", "11", "12", "13"])
    play(env, ["1 draw"])  # STORM: queue 1, 2, 3, 0; seat 1 draws FORK and must choose first
    d = env.to_dict()
    assert decision(env) == ("fork", 1) and d["pending"] == [2, 3, 0]
    assert d["table"] == [["8"], ["5", "STORM", "FORK"], ["6"], ["7"]]
    d = play(env, ["1 fork 1"])
    assert d["table"] == [["8", "13"], ["5", "STORM", "FORK", "10"], ["6", "11"], ["7", "12"]]
    assert d["discard_pile"] == ["9"]
    assert decision(env) == ("turn", 2)


# ---- S19: end of the hand --------------------------------------------------------------------------------
def test_S19_hand_ends_when_nobody_is_left() -> None:
    env = make(["5", "6", "7", "6", "8", "9"], n=3)
    d = play(env, ["1 pass", "2 draw", "0 draw"])
    assert d["status"] == ["in_hand", "passed", "busted"] and d["hand_index"] == 0
    assert decision(env) == ("turn", 0)
    d = play(env, ["0 draw"])  # the last player in the hand plays on alone
    assert d["hand_index"] == 0 and decision(env) == ("turn", 0)
    d = play(env, ["0 pass"])
    assert d["hand_index"] == 1 and d["dealer"] == 1
    assert d["scores"] == [7 + 8 + 9, 5, 0] and d["last_banked"] == [24, 5, -1]


# ---- S20-S25: scoring ----------------------------------------------------------------------------------
def test_S20_bust_scores_zero_always() -> None:
    env = make(["5", "6", "+10", "x2", "HEAVYWEIGHT", "5"], n=2)
    play(env, ["1 draw", "0 pass", "1 draw", "1 draw"])
    assert env.view(0)["hand_scores"][1] == 2 * 5 + 10
    d = play(env, ["1 draw"])
    assert d["hand_index"] == 1 and d["last_banked"] == [6, -1] and d["scores"] == [6, 0]


@pytest.mark.parametrize(
    "cards,sevn,expected",
    [
        ([], False, 0),
        (["5", "7"], False, 12),
        (["5", "7", "x2"], False, 24),
        (["5", "+4", "7", "x2", "+2"], False, 2 * 12 + 6),
        (["x2", "+10"], False, 10),
        (["1", "2", "3", "4", "5", "6", "7"], True, 28 + 17),
        (["-6", "-4", "1"], False, 0),  # -9 floored
        (["-6", "-4", "x2", "+10", "+8"], False, 0),  # -20 + 18 floored
        (["-6", "x2", "+10", "+8"], False, 6),
        (["-6", "-4", "-2", "0", "1", "2", "3"], True, 0 - 6 + 17),
    ],
)
def test_S21_scoring_order(cards: list[str], sevn: bool, expected: int) -> None:
    assert score(cards, sevn) == expected


def test_S21_negative_total_banks_zero() -> None:
    env = make(["-6", "8", "-4", "+2"], n=2)
    d = play(env, ["1 keep", "1 draw", "1 keep", "0 pass", "1 draw"])
    assert d["table"][1] == ["-6", "-4", "+2"]
    assert env.view(1)["hand_scores"][1] == 0
    d = play(env, ["1 pass"])
    assert d["scores"] == [8, 0] and d["last_banked"] == [8, 0]


@pytest.mark.parametrize(
    "cards,expected",
    [
        (["FEATHERWEIGHT", "1", "2", "3", "6"], 12 + 15),
        (["FEATHERWEIGHT", "0", "2", "-2", "3"], 3 + 15),  # ballast counts as a value card
        (["FEATHERWEIGHT", "1", "2", "3"], 6),  # only 3 value cards
        (["FEATHERWEIGHT", "1", "2", "3", "7"], 13),  # a value above 6
        (["1", "2", "3", "6"], 12),  # without the card no bonus
        (["FEATHERWEIGHT", "x2", "1", "2", "3", "6"], 24 + 15),
    ],
)
def test_S22_featherweight(cards: list[str], expected: int) -> None:
    assert score(cards) == expected


@pytest.mark.parametrize(
    "cards,expected",
    [
        (["HEAVYWEIGHT", "10", "11", "12"], 33 + 12),
        (["HEAVYWEIGHT", "10", "11", "9"], 30),
        (["HEAVYWEIGHT", "13", "10", "11", "12", "1"], 47 + 12),
        (["10", "11", "12"], 33),
    ],
)
def test_S23_heavyweight(cards: list[str], expected: int) -> None:
    assert score(cards) == expected


@pytest.mark.parametrize(
    "cards,expected",
    [
        (["STRAIGHT", "0", "1", "2"], 3 + 12),  # 0 may start the run
        (["STRAIGHT", "3", "4", "6", "7", "8", "9"], 37 + 4 * 4),  # the longest run counts
        (["STRAIGHT", "3", "5"], 8),
        (["STRAIGHT", "-2", "0", "1", "5"], 4),  # ballast never in a run
        (["STRAIGHT", "4", "2", "3"], 9 + 12),  # order of arrival does not matter
        (["0", "1", "2"], 3),
    ],
)
def test_S24_straight(cards: list[str], expected: int) -> None:
    assert score(cards) == expected


@pytest.mark.parametrize(
    "cards,sevn,expected",
    [
        (["x2", "HEAVYWEIGHT", "10", "11", "12", "STRAIGHT"], False, 66 + 12 + 12),
        (["x2", "FEATHERWEIGHT", "1", "2", "4", "6"], False, 26 + 15),
        (["x2", "1", "2", "3", "4", "5", "6", "8"], True, 58 + 17),
    ],
)
def test_S25_x2_never_doubles_bonuses(cards: list[str], sevn: bool, expected: int) -> None:
    assert score(cards, sevn) == expected


def test_S25_x2_with_bonus_banked_through_play() -> None:
    env = make(["x2", "5", "HEAVYWEIGHT", "10", "11", "12"], n=2)
    d = play(env, ["1 draw", "0 pass", "1 draw", "1 draw", "1 draw", "1 pass"])
    assert d["scores"] == [5, 2 * 33 + 12]


# ---- S26: where the cards go ---------------------------------------------------------------------------
def test_S26_table_cards_stay_until_the_hand_ends_then_go_to_the_discard_pile() -> None:
    deck = ["5", "6", "7", "FORK", "3", "4", "STORM", "8", "9", "10", "5", "11", "12", "13"]
    env = make(deck, n=3)  # deal 1, 2, 0
    d = play(env, ["1 draw", "1 fork 0"])  # FORK in front of seat 1; 4 discarded
    assert d["table"][1] == ["5", "FORK", "3"] and d["discard_pile"] == ["4"]
    d = play(env, ["2 draw"])  # STORM in front of seat 2: 2, 0, 1 draw 8, 9, 10
    assert d["table"] == [["7", "9"], ["5", "FORK", "3", "10"], ["6", "STORM", "8"]]
    d = play(env, ["0 draw", "1 draw", "2 pass", "0 pass"])  # 5, 11
    assert d["table"][0] == ["7", "9", "5"] and d["hand_index"] == 0
    d = play(env, ["1 pass"])
    assert d["hand_index"] == 1
    assert d["discard_pile"] == [
        *["4", "7", "9", "5", "5", "FORK", "3", "10", "11", "6", "STORM", "8"]
    ]
    assert d["table"][0] == ["13"] and d["table"][2] == ["12"]  # next hand: same pile, 2, 0


def doctored(top: list[str]) -> CardGameEnv:
    """4 players dealt 5, 6, 7, 8 in their second hand (the first one all busted); the draw pile
    is ``top`` and every other card is in the discard pile (a state the rules reach: after the
    first hand the discard pile may hold any cards, S26)."""
    env = make(["5", "6", "7", "8"])
    data = env.to_dict()
    rest = list(data["draw_pile"])
    for card in top:
        rest.remove(card)
    data["draw_pile"] = list(top)
    data["discard_pile"] = rest
    data["hand_index"] = 1
    env.from_dict(data)
    check_conservation(env)
    return env


def test_S26_reshuffle_only_when_the_draw_pile_is_empty_table_stays() -> None:
    env = doctored(["9"])
    tables = env.to_dict()["table"]
    discards = env.to_dict()["discard_pile"]
    d = play(env, ["1 draw"])  # the last card of the draw pile: no reshuffle yet
    assert d["table"][1] == ["5", "9"] and d["draw_pile"] == []
    assert d["discard_pile"] == discards
    d = play(env, ["2 draw"])  # a card is needed: the discard pile becomes the draw pile
    assert d["discard_pile"] == [] and len(d["draw_pile"]) == len(discards) - 1
    assert d["table"][2][0] == "6" and len(d["table"][2] + d["set_aside"]) == 2
    drawn = d["table"][2][1:] + d["set_aside"]
    assert Counter(d["draw_pile"]) + Counter(drawn) == Counter(discards)
    assert d["table"][0] == tables[0] and d["table"][3] == tables[3]  # the table stays


def test_S26_fork_reveal_across_a_reshuffle_keeps_the_first_card_aside() -> None:
    env = doctored(["FORK", "2"])
    discards = env.to_dict()["discard_pile"]
    d = play(env, ["1 draw"])  # reveals 2, then the pile is empty: reshuffle, reveals one more
    assert decision(env) == ("fork", 1)
    assert d["set_aside"][0] == "2" and d["discard_pile"] == []
    second = d["set_aside"][1]
    assert Counter(d["draw_pile"]) + Counter([second]) == Counter(discards)
    d = play(env, ["1 fork 0"])
    assert d["table"][1] == ["5", "FORK", "2"] and d["discard_pile"] == [second]


# ---- S27: end of game ----------------------------------------------------------------------------------
def test_S27_game_ends_only_after_the_hand() -> None:
    env = make(["10", "5", "6"], n=2, scores=[0, 245])
    d = play(env, ["1 pass"])
    assert d["scores"] == [0, 255] and not d["over"]
    assert rewards(env) == [0.0, 0.0]
    d = play(env, ["0 draw", "0 pass"])
    assert d["over"] and d["winners"] == [1] and d["scores"] == [11, 255]
    assert rewards(env) == [-1.0, 1.0]
    assert d["current_player"] is None
    with pytest.raises(GameOverError):
        env.game.apply(env.state_obj, PASS)


def test_S27_highest_total_wins_not_the_first_to_reach() -> None:
    env = make(["10", "5", "13"], n=2, scores=[240, 245])
    d = play(env, ["1 pass", "0 draw", "0 pass"])
    assert d["over"] and d["winners"] == [0] and d["scores"] == [258, 255]


def test_S27_tied_highest_total_plays_another_hand() -> None:
    env = make(["10", "5", "10", "3", "4"], n=2, scores=[240, 245])
    d = play(env, ["1 pass", "0 draw", "0 pass"])
    assert d["scores"] == [255, 255] and not d["over"] and d["winners"] == []
    assert d["hand_index"] == 1 and d["dealer"] == 1
    assert d["table"] == [["3"], ["4"]]  # dealt 0, 1
    d = play(env, ["0 pass", "1 pass"])
    assert d["over"] and d["winners"] == [1] and d["scores"] == [258, 259]


def test_S27_below_target_plays_on_and_target_option() -> None:
    env = make(["10", "5", "6", "7"], n=2, scores=[0, 239])
    d = play(env, ["1 pass", "0 pass"])
    assert not d["over"] and d["scores"] == [5, 249]
    env = make(["10", "5"], n=2, target_score=10)
    d = play(env, ["1 pass", "0 pass"])
    assert d["over"] and d["winners"] == [1]


def test_S27_sevn_can_end_the_game() -> None:
    env = make(SEVN_DECK, n=3, scores=[0, 220, 0])
    d = play(env, [*SEVN_MOVES, "2 pass", "0 pass", "1 draw"])
    assert d["over"] and d["winners"] == [1] and d["scores"] == [30, 265, 33]


# ---- environment contract --------------------------------------------------------------------------------
def test_action_texts_of_the_rules_file() -> None:
    game = SevnGame(num_players=8)
    texts = [game.describe_action(a) for a in range(NUM_ACTIONS)]
    assert texts == [
        "pass",
        "draw",
        *[f"target {s}" for s in range(8)],
        "fork 0",
        "fork 1",
        "keep",
        "discard",
    ]
    for a, t in enumerate(texts):
        assert game.parse_action(t.upper()) == a
    for bad in ("target 8", "fork 2", "hit", "keep 1"):
        with pytest.raises(IllegalActionError, match="expected"):
            game.parse_action(bad)


def test_options_are_validated() -> None:
    with pytest.raises(ConfigError, match="num_players"):
        envs.make("sevn", num_players=9)
    with pytest.raises(ConfigError, match="first_dealer"):
        envs.make("sevn", num_players=3, first_dealer=3)
    with pytest.raises(ConfigError, match="scores"):
        make([], n=2, scores=[1, 2, 3])
    with pytest.raises(ConfigError, match="dealer"):
        make([], n=2, dealer=2)


def test_observation_is_the_same_whatever_the_deck_order() -> None:
    a, b = make(["5", "6", "7", "8"], seed=1), make(["5", "6", "7", "8"], seed=2)
    assert a.to_dict()["draw_pile"] != b.to_dict()["draw_pile"]
    for agent in a.possible_agents:
        np.testing.assert_array_equal(
            a.observe(agent)["observation"], b.observe(agent)["observation"]
        )
    assert a.view(0) == b.view(0)


# ---- from_dict: states no play reaches are refused --------------------------------------------
@functools.cache
def _saved_states(n: int = 4, games: int = 12) -> list[dict[str, Any]]:
    """Every saved state of a few random games (the last of each, game over, included)."""
    game = SevnGame(num_players=n)
    out = []
    for g in range(games):
        rng = np.random.default_rng(g)
        state = game.new_game(np.random.default_rng(100 + g))
        out.append(game.to_dict(state))
        while not game.is_over(state):
            legal = game.legal_actions(state)
            game.apply(state, int(legal[rng.integers(len(legal))]))
            out.append(game.to_dict(state))
    return out


def _first(pred: Any) -> dict[str, Any]:
    return copy.deepcopy(next(d for d in _saved_states() if pred(d)))


def _refused(data: dict[str, Any], field: str) -> None:
    with pytest.raises(ConfigError, match=field):
        SevnGame(num_players=data["num_players"]).from_dict(data)


def test_from_dict_banks_follow_the_rows() -> None:
    """S8, S13: a seat that passed or was frozen banked its row's hand score, the others -1."""
    d = _first(lambda d: "passed" in d["status"] and not d["over"])
    seat = d["status"].index("passed")
    d["banked"][seat] += 1
    _refused(d, r"banked\[")
    d = _first(lambda d: "in_hand" in d["status"] and not d["over"] and d["hand_index"])
    d["banked"][d["status"].index("in_hand")] = 0
    _refused(d, r"banked\[")


def test_from_dict_rows_keep_the_rules() -> None:
    """S13: a FREEZE lies in front of a frozen seat only; S9: a busted row ends with its one
    duplicate; S14: one SECOND_CHANCE at most; S10: at most 6 values."""
    d = _first(lambda d: "frozen" in d["status"] and not d["over"])
    d["status"][d["status"].index("frozen")] = "passed"
    _refused(d, "table")
    d = _first(lambda d: "busted" in d["status"] and not d["over"])
    row = d["table"][d["status"].index("busted")]
    row.insert(0, row.pop())  # the duplicate is no longer last
    _refused(d, "table")
    d = _first(lambda d: not d["over"] and d["decision"] == "turn" and d["hand_index"])
    seat = d["decider"]
    d["table"][seat] = ["1", "2", "3", "4", "5", "6", "7"]
    _refused(d, "table")


def test_from_dict_totals_not_won_before_the_hand() -> None:
    """S27: no single seat at the top with target_score or more when a hand starts."""
    d = _first(lambda d: not d["over"] and d["decision"] == "turn" and max(d["banked"]) < 0)
    d["scores"][0] = max(d["scores"]) + d["target_score"]
    _refused(d, "scores")


def test_from_dict_the_last_hand_banked_a_hand_score() -> None:
    """S21-S25: 191 is no hand score (x2 makes it even, without x2 a row gives at most 129)."""
    assert 191 not in hand_scores(False) and 192 in hand_scores(False)
    assert min(hand_scores(True)) == 5 and max(hand_scores(True)) == 227
    d = _first(lambda d: not d["over"] and d["hand_index"] and d["last_sevn"] < 0)
    d["scores"] = [max(d["scores"]) + 300] * len(d["scores"])  # tied at the top: plays on
    game = SevnGame(num_players=d["num_players"])
    game.from_dict(dict(d))
    d["last_banked"][0] = 191
    _refused(d, "last_banked")


def test_hand_scores_holds_every_row_score() -> None:
    """The set of hand scores agrees with hand_score on random rows of the deck."""
    rng = np.random.default_rng(0)
    others = [c for c in range(17, 31) if c not in (FREEZE, FLIP_THREE, FORK, STORM)]
    for _ in range(3000):
        count = int(rng.integers(0, 8))
        values = [int(v) for v in rng.choice(17, size=count, replace=False)]
        extra = [int(c) for c in rng.choice(others, size=int(rng.integers(0, 6)), replace=False)]
        assert hand_score(values + extra, count == 7) in hand_scores(count == 7)


def test_from_dict_pending_draws_are_queued_in_order() -> None:
    """S15, S17, S18: what is pending is the rest of what the FLIP_THREEs and STORMs queued."""
    game = SevnGame(num_players=4)
    state = game.new_game(np.random.default_rng(0), {"deck": ["STORM", "5", "FREEZE"], "dealer": 0})
    d = game.to_dict(state)
    # seat 1 was dealt the STORM: draws for 1, 2, 3, 0; seat 1 drew the 5, seat 2 the FREEZE
    assert d["pending"] == [3, 0] and d["decision"] == "target_freeze" and d["decider"] == 2
    game.from_dict(dict(d))
    for bad in ([0, 3], [3], [0], [3, 0, 1], [1, 1, 1], [3, 0, 3]):
        d["pending"] = bad
        _refused(dict(d), "pending")


def test_from_dict_the_first_hand_discards_what_it_discarded() -> None:
    """S26: no reshuffle in the first hand, so its discard pile is only what it discarded."""
    d = _first(lambda d: not d["over"] and d["hand_index"] == 0 and not d["discard_pile"])
    d["discard_pile"].append(d["draw_pile"].pop())
    card = d["discard_pile"][-1]
    if card not in ("-2", "-4", "-6", "SECOND_CHANCE"):
        _refused(d, "discard_pile")


@pytest.mark.parametrize("code", ["\u017fTORM", "\u017fECOND_CHANCE", "²", "٣", "FREEZE\u200b"])
def test_from_dict_refuses_non_ascii_card_codes(code: str) -> None:
    """A code that only case folding turns into a card (``"\u017f".upper() == "S"``) is refused."""
    d = _first(lambda d: not d["over"] and d["draw_pile"])
    d["draw_pile"][0] = code
    _refused(d, r"draw_pile\[0\].*not ASCII")
