"""Stacked-deck scenario tests for every rule id R1-R18 of ``docs/rules/ratatat.md``.

Each test is named after the rule id it checks (``test_R7_...``). Scenarios stack the deck with
``reset(options={"deck": [...]})``: 4 cards to each seat from left of the dealer (slots 0..3), then
the first discard, then the draw pile. Moves are written ``"SEAT ACTION"`` (``"1 draw"``,
``"1 swap 0 2 3"``); every move checks that SEAT holds the decision and that no card was lost.

With dealer 0 and N players the deal goes to seats 1, 2, ..., N-1, 0 and seat 1 plays first.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import numpy as np
import pytest
from scenario import check_conservation, decision, legal_texts, play

from cardarena import envs
from cardarena.envs.core import CardGameEnv, ConfigError, IllegalActionError
from cardarena.envs.ratatat import encoding
from cardarena.envs.ratatat.rules import (
    CARD_CODES,
    DECK_COUNTS,
    NUM_ACTIONS,
    RatatatGame,
    parse_action,
)


# ---- helpers --------------------------------------------------------------------------------------
def deck_for(
    rows: dict[int, list[str]], discard: str, pile: list[str], n: int, dealer: int = 0
) -> list[str]:
    """The deck option for these rows (seat -> 4 codes), first discard and top of the pile."""
    deck: list[str] = []
    for a in range(n):
        deck += rows[(dealer + 1 + a) % n]
    return [*deck, discard, *pile]


def make(
    rows: dict[int, list[str]],
    discard: str,
    pile: list[str],
    n: int,
    dealer: int = 0,
    seed: int = 0,
    reset: dict[str, Any] | None = None,
    **options: Any,
) -> CardGameEnv:
    env = envs.ratatat.env(num_players=n, **options)
    env.reset(
        seed=seed,
        options={
            "deck": deck_for(rows, discard, pile, n, dealer),
            "dealer": dealer,
            **(reset or {}),
        },
    )
    check_conservation(env)
    return env


def rows_seen(env: CardGameEnv, seat: int) -> list[list[str | None]]:
    return env.unwrapped.view(seat)["rows"]


def obs_slot(env: CardGameEnv, seat: int, row: int, k: int) -> str | None:
    """The card code seat's observation vector shows in ``row``'s slot ``k`` (None: unknown)."""
    obs = env.observe(f"player_{seat}")["observation"]
    o = (row * 4 + k) * encoding.SLOT_BLOCK
    hot = np.flatnonzero(obs[o : o + 13])
    if obs[o + 13]:
        assert hot.size == 0
        return None
    assert hot.size == 1
    return CARD_CODES[int(hot[0])]


ROWS3 = {1: ["1", "2", "3", "4"], 2: ["5", "6", "7", "8"], 0: ["0", "1", "2", "3"]}


# ---- R1 / R2: the deck ------------------------------------------------------------------------------
def test_R1_number_cards_four_each_zero_to_eight_nine_nines() -> None:
    codes = Counter(RatatatGame().deck_codes())
    for v in range(9):
        assert codes[str(v)] == 4
    assert codes["9"] == 9
    assert sum(codes[str(v)] for v in range(10)) == 45
    assert len(RatatatGame().deck_codes()) == 66
    env = envs.ratatat.env(num_players=2)
    with pytest.raises(ConfigError):
        env.reset(seed=0, options={"deck": ["8"] * 5})  # only four 8s
    env.reset(seed=0, options={"deck": ["9"] * 9})  # nine 9s are fine
    with pytest.raises(ConfigError):
        env.reset(seed=0, options={"deck": ["10"]})


def test_R2_special_cards_and_a_special_has_no_value() -> None:
    codes = Counter(RatatatGame().deck_codes())
    assert (codes["SWAP"], codes["PEEK"], codes["DRAW_TWO"]) == (9, 7, 5)
    assert sum(DECK_COUNTS) == 66
    # a special kept in a row scores nothing itself: it is replaced by a number card (R14)
    rows = {1: ["SWAP", "0", "0", "0"], 0: ["1", "1", "1", "1"]}
    env = make(rows, "5", ["9", "9", "9", "2"], n=2, reset={"round_index": 3})
    play(env, ["1 draw", "1 discard", "0 draw", "0 discard", "0 knock", "1 draw", "1 discard"])
    d = env.to_dict()
    assert d["over"] and d["round_scores"][-1] == [4, 2]
    assert d["set_aside"] == ["SWAP"]


# ---- R3 / R4 / R5: deal, first look, turn order ---------------------------------------------------------
def test_R3_deal_four_face_down_cards_each_then_one_face_up_discard() -> None:
    rows = {2: ["0", "1", "2", "3"], 0: ["4", "5", "6", "7"], 1: ["8", "9", "9", "8"]}
    env = make(rows, "7", ["SWAP", "6", "PEEK"], n=3, dealer=1)
    d = env.to_dict()
    assert d["rows"] == [rows[0], rows[1], rows[2]]
    assert d["discard_pile"] == ["7"]
    assert d["draw_pile"][:3] == ["SWAP", "6", "PEEK"]
    assert len(d["draw_pile"]) == 66 - 12 - 1
    assert d["held"] is None and d["in_use"] == [] and d["set_aside"] == []


def test_R4_each_player_knows_only_its_outer_cards() -> None:
    env = make(ROWS3, "9", [], n=3)
    assert rows_seen(env, 1) == [[None] * 4, ["1", None, None, "4"], [None] * 4]
    assert rows_seen(env, 2) == [[None] * 4, [None] * 4, ["5", None, None, "8"]]
    assert rows_seen(env, 0) == [["0", None, None, "3"], [None] * 4, [None] * 4]
    assert obs_slot(env, 1, 1, 0) == "1" and obs_slot(env, 1, 1, 1) is None
    assert obs_slot(env, 0, 1, 0) is None
    # everyone knows that every owner knows its outer cards (public, R18)
    assert env.unwrapped.view(0)["owner_knows"][1] == [True, False, False, True]


def test_R5_left_of_dealer_starts_clockwise_and_the_start_moves_left() -> None:
    n = 4
    rows = {s: [str(s)] * 4 for s in range(n)}
    env = make(rows, "5", ["9"] * 9, n=n, dealer=2)
    assert decision(env) == ("turn", 3)
    moves = []
    for s in (3, 0, 1, 2):
        moves += [f"{s} draw", f"{s} discard"]
    play(env, moves)
    assert decision(env) == ("knock", 2)
    play(env, ["2 knock"])
    for s in (3, 0, 1):
        assert decision(env) == ("turn", s)
        play(env, [f"{s} draw", f"{s} discard"])
    d = env.to_dict()
    assert d["round_index"] == 1 and d["dealer"] == 3
    assert decision(env) == ("turn", 0)  # round 2 starts one seat left of round 1's start
    # the first dealer is an option
    other = envs.ratatat.env(num_players=3, first_dealer=1)
    other.reset(seed=0)
    assert decision(other) == ("turn", 2)
    with pytest.raises(ConfigError, match="first_dealer"):
        envs.ratatat.env(num_players=3, first_dealer=3)


# ---- R6: a turn ------------------------------------------------------------------------------------------
def test_R6_take_discard_swaps_into_a_slot_and_the_old_card_goes_face_up() -> None:
    env = make(ROWS3, "2", ["PEEK", "7"], n=3)
    assert legal_texts(env) == ["take_discard", "draw"]
    play(env, ["1 take_discard"])
    assert decision(env) == ("take_slot", 1)
    assert legal_texts(env) == ["slot 0", "slot 1", "slot 2", "slot 3"]
    d = play(env, ["1 slot 3"])
    assert d["rows"][1] == ["1", "2", "3", "2"]
    assert d["discard_pile"] == ["4"]
    # B: draw a special, discard it face up; the next player cannot take a special (R6 A)
    play(env, ["2 draw"])
    assert decision(env) == ("drawn_card", 2)
    assert legal_texts(env) == ["slot 0", "slot 1", "slot 2", "slot 3", "discard", "use"]
    d = play(env, ["2 discard"])
    assert d["discard_pile"][-1] == "PEEK" and d["rows"][2] == ROWS3[2]
    assert legal_texts(env) == ["draw"]
    with pytest.raises(IllegalActionError, match="take_discard"):
        env.step(parse_action("take_discard"))
    # B: a drawn number can go into a slot (never "use")
    play(env, ["0 draw"])
    assert "use" not in legal_texts(env)
    d = play(env, ["0 slot 1"])
    assert d["rows"][0] == ["0", "7", "2", "3"] and d["discard_pile"][-1] == "1"


# ---- R7 / R8 / R9: the specials ------------------------------------------------------------------------------
def test_R7_swap_moves_two_slots_unseen_and_both_players_knowledge_follows() -> None:
    env = make(ROWS3, "9", ["SWAP"], n=3)
    play(env, ["1 draw", "1 use"])
    assert decision(env) == ("swap", 1)
    legal = legal_texts(env)
    assert len(legal) == 4 * 2 * 4 and "swap 0 1 0" not in legal and "swap 3 0 3" in legal
    # seat 1 knew its slot 0 (a 1), seat 2 knew its slot 3 (an 8)
    d = play(env, ["1 swap 0 2 3"])
    assert d["rows"][1] == ["8", "2", "3", "4"] and d["rows"][2] == ["5", "6", "7", "1"]
    assert d["discard_pile"][-1] == "SWAP"
    # the swapper knows where its card went, not what it received
    assert rows_seen(env, 1) == [[None] * 4, [None, None, None, "4"], [None, None, None, "1"]]
    # the victim knows where its card went, not what it received
    assert rows_seen(env, 2) == [[None] * 4, ["8", None, None, None], ["5", None, None, None]]
    # a third player learns nothing
    assert rows_seen(env, 0) == [["0", None, None, "3"], [None] * 4, [None] * 4]
    assert obs_slot(env, 1, 2, 3) == "1" and obs_slot(env, 2, 1, 0) == "8"
    assert obs_slot(env, 1, 1, 0) is None
    # every player sees which two slots moved
    for seat in range(3):
        changed = env.unwrapped.view(seat)["changed"]
        if seat != 1:
            assert changed[1][0] and changed[2][3]
    assert env.unwrapped.view(0)["owner_knows"][1] == [False, False, False, True]


def test_R8_peek_shows_one_own_slot_to_its_owner_only() -> None:
    env = make(ROWS3, "9", ["PEEK"], n=3)
    play(env, ["1 draw", "1 use"])
    assert decision(env) == ("peek", 1)
    assert legal_texts(env) == ["peek 0", "peek 1", "peek 2", "peek 3"]
    d = play(env, ["1 peek 2"])
    assert d["rows"][1] == ROWS3[1] and d["discard_pile"][-1] == "PEEK"
    assert rows_seen(env, 1)[1] == ["1", None, "3", "4"]
    assert rows_seen(env, 2)[1] == [None] * 4 and rows_seen(env, 0)[1] == [None] * 4
    assert env.unwrapped.view(2)["owner_knows"][1] == [True, False, True, True]


def test_R9_draw_two_keep_redraw_and_the_extra_card_is_handled_as_in_B() -> None:
    env = make(ROWS3, "9", ["DRAW_TWO", "8", "2", "DRAW_TWO", "PEEK", "6"], n=3)
    play(env, ["1 draw", "1 use"])
    assert decision(env) == ("draw_two_extra", 1)
    assert env.unwrapped.view(1)["held"] == "8"
    assert legal_texts(env) == ["slot 0", "slot 1", "slot 2", "slot 3", "discard", "redraw"]
    play(env, ["1 redraw"])  # the 8 goes face up, the next card must be handled
    assert decision(env) == ("drawn_card", 1)
    assert legal_texts(env) == ["slot 0", "slot 1", "slot 2", "slot 3", "discard"]
    d = play(env, ["1 slot 1"])
    assert d["rows"][1] == ["1", "2", "3", "4"]  # the 2 replaced the 2 in slot 1
    assert d["discard_pile"] == ["9", "8", "2", "DRAW_TWO"]  # used special discarded last
    # seat 2: DRAW_TWO -> PEEK drawn as the extra card, used at once (ends the action)
    play(env, ["2 draw", "2 use"])
    assert "use" in legal_texts(env) and "redraw" in legal_texts(env)
    play(env, ["2 use"])
    assert decision(env) == ("peek", 2)
    d = play(env, ["2 peek 1"])
    assert d["discard_pile"][-2:] == ["PEEK", "DRAW_TWO"]
    assert rows_seen(env, 2)[2] == ["5", "6", None, "8"]
    # seat 0: the extra card kept in a slot ends the action too
    env2 = make(ROWS3, "9", ["DRAW_TWO", "0"], n=3)
    d = play(env2, ["1 draw", "1 use", "1 slot 2"])
    assert d["rows"][1] == ["1", "2", "0", "4"] and decision(env2) == ("turn", 2)
    assert rows_seen(env2, 1)[1] == ["1", None, "0", "4"]


# ---- R10: knock --------------------------------------------------------------------------------------------
def test_R10_knock_after_everyone_played_then_one_last_turn_each() -> None:
    env = make(ROWS3, "9", ["9"] * 8, n=3)
    play(env, ["1 draw", "1 discard"])
    assert decision(env) == ("turn", 2)  # seat 0 has not played yet: no knock
    play(env, ["2 draw", "2 discard"])
    assert decision(env) == ("turn", 0)
    play(env, ["0 draw", "0 discard"])
    assert decision(env) == ("knock", 0)
    assert legal_texts(env) == ["knock", "no_knock"]
    play(env, ["0 no_knock", "1 draw", "1 discard"])
    assert decision(env) == ("knock", 1)
    play(env, ["1 knock"])
    for s in (2, 0):  # one more turn each, no more knock decisions
        assert decision(env) == ("turn", s)
        play(env, [f"{s} draw", f"{s} discard"])
    d = env.to_dict()
    assert d["round_index"] == 1 and len(d["round_scores"]) == 1  # the knocker never played again
    assert d["last_knocker"] == 1
    assert d["round_scores"][0] == [6, 10, 26]


# ---- R11: reshuffle ----------------------------------------------------------------------------------------
def test_R11_empty_draw_pile_is_rebuilt_from_all_discards_but_the_top() -> None:
    env = make(ROWS3, "9", ["5"], n=3)
    seat = 1
    while env.to_dict()["draw_pile"]:  # every card drawn and discarded (a saved state reached)
        play(env, [f"{seat} draw", f"{seat} discard"])
        if decision(env)[0] == "knock":
            play(env, [f"{seat} no_knock"])
        seat = (seat + 1) % 3
    d = env.to_dict()
    env.from_dict(d)
    check_conservation(env)
    top = d["discard_pile"][-1]
    before = Counter(d["discard_pile"][:-1])
    play(env, [f"{seat} draw"])
    after = env.to_dict()
    assert after["discard_pile"] == [top]
    assert Counter(after["draw_pile"]) + Counter([after["held"]]) == before
    assert after["draw_pile"] != sorted(after["draw_pile"])  # shuffled


# ---- R12: safety cap -----------------------------------------------------------------------------------------
def test_R12_round_ends_at_max_turns_as_if_the_last_player_had_knocked() -> None:
    rows = {1: ["SWAP", "1", "1", "1"], 0: ["PEEK", "2", "2", "2"]}
    env = make(rows, "5", ["9"] * 5 + ["0", "8"], n=2, max_turns=5)
    play(env, ["1 draw", "1 discard", "0 draw", "0 discard", "0 no_knock"])
    play(env, ["1 draw", "1 discard", "1 no_knock", "0 draw", "0 discard", "0 no_knock"])
    assert decision(env) == ("turn", 1) and env.to_dict()["turns"] == 4
    play(env, ["1 draw", "1 discard"])  # the 5th turn: no knock decision, the round ends
    d = env.to_dict()
    assert d["round_index"] == 1 and d["last_knocker"] == 1
    # R14 replacements start with seat 1, the player of the last turn
    assert d["round_scores"][0] == [8 + 6, 0 + 3]
    assert envs.ratatat.env(num_players=3).game.max_turns == 90  # default: 30 per player
    with pytest.raises(ConfigError, match="max_turns"):
        envs.ratatat.env(max_turns=0)


# ---- R13-R16: scoring ------------------------------------------------------------------------------------------
def test_R13_all_cards_are_turned_face_up_at_the_end() -> None:
    rows = {1: ["1", "2", "3", "4"], 0: ["5", "6", "7", "8"]}
    env = make(rows, "0", ["9"] * 3, n=2, reset={"round_index": 3})
    play(env, ["1 draw", "1 discard", "0 draw", "0 discard", "0 knock", "1 draw", "1 discard"])
    d = env.to_dict()
    assert d["over"] and d["last_rows"] == rows[0] + rows[1]
    for seat in (0, 1):
        assert rows_seen(env, seat) == [rows[0], rows[1]]
    text = env.render_text(None)
    assert " 5  6  7  8" in text and " 1  2  3  4" in text
    assert all(obs_slot(env, 0, 1, k) == rows[1][k] for k in range(4))


def test_R14_specials_replaced_knocker_first_then_clockwise() -> None:
    rows = {1: ["1", "SWAP", "2", "3"], 2: ["5", "5", "PEEK", "6"], 0: ["SWAP", "7", "8", "8"]}
    pile = ["9"] * 6 + ["DRAW_TWO", "4", "0", "7"]
    env = make(rows, "3", pile, n=3, reset={"scores": [5, 0, 2]})
    moves = []
    for s in (1, 2, 0):
        moves += [f"{s} draw", f"{s} discard"]
    moves += ["0 no_knock", "1 draw", "1 discard", "1 knock"]
    moves += ["2 draw", "2 discard", "0 draw", "0 discard"]
    play(env, moves)
    d = env.to_dict()
    # knocker seat 1: SWAP -> DRAW_TWO (set aside too) -> 4; then seat 2: PEEK -> 0; seat 0: 7
    assert d["round_scores"][0] == [7 + 7 + 8 + 8, 1 + 4 + 2 + 3, 5 + 5 + 0 + 6]
    assert d["scores"] == [35, 10, 18]
    assert d["round_index"] == 1  # the next round has been dealt (all cards reshuffled)


def test_R15_round_score_is_the_sum_of_the_four_values_added_to_the_total() -> None:
    rows = {1: ["0", "9", "0", "9"], 0: ["4", "4", "4", "3"]}
    env = make(rows, "1", ["2", "6"] + ["5"] * 4, n=2, reset={"scores": [7, 11]})
    play(env, ["1 draw", "1 slot 1", "0 draw", "0 slot 3", "0 knock", "1 draw", "1 discard"])
    d = env.to_dict()
    assert d["round_scores"] == [[4 + 4 + 4 + 6, 0 + 2 + 0 + 9]]
    assert d["scores"] == [7 + 18, 11 + 11]


def test_R16_rounds_per_player_count_lowest_total_wins_ties_share() -> None:
    for n, rounds in ((2, 4), (3, 3), (4, 4), (5, 5), (6, 6)):
        engine = RatatatGame(num_players=n)
        state = engine.new_game(np.random.default_rng(n))
        rng = np.random.default_rng(0)
        while not engine.is_over(state):
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(rng.integers(len(legal)))])
        data = engine.to_dict(state)
        assert len(data["round_scores"]) == rounds == data["round_index"]
        totals = [sum(r[s] for r in data["round_scores"]) for s in range(n)]
        assert data["scores"] == totals
        assert data["winners"] == [s for s in range(n) if totals[s] == min(totals)]
    # two equal lowest totals share the win
    rows = {1: ["2", "2", "2", "2"], 2: ["1", "1", "1", "1"], 0: ["3", "3", "3", "3"]}
    env = make(rows, "0", ["9"] * 5, n=3, reset={"round_index": 2, "scores": [10, 4, 8]})
    moves = ["1 draw", "1 discard", "2 draw", "2 discard", "0 draw", "0 discard", "0 knock"]
    play(env, [*moves, "1 draw", "1 discard", "2 draw", "2 discard"])
    d = env.to_dict()
    assert d["over"] and d["scores"] == [22, 12, 12] and d["winners"] == [1, 2]
    assert env.game.returns(env.state_obj) == [-1.0, 0.5, 0.5]
    # all cards are reshuffled between rounds: round 2 is not the stacked deal again
    env = make(ROWS3, "9", ["9"] * 4, n=3)
    play(env, ["1 draw", "1 discard", "2 draw", "2 discard", "0 draw", "0 discard", "0 knock"])
    play(env, ["1 draw", "1 discard", "2 draw", "2 discard"])
    d = env.to_dict()
    assert d["round_index"] == 1 and d["rows"] != [ROWS3[0], ROWS3[1], ROWS3[2]]
    assert len(d["draw_pile"]) == 66 - 12 - 1 and d["set_aside"] == []


# ---- R17 / R18: knowledge ---------------------------------------------------------------------------------
def test_R17_knowledge_follows_cards_and_is_lost_when_an_unseen_card_replaces_it() -> None:
    env = make(ROWS3, "9", ["SWAP", "0", "SWAP"], n=3)
    play(env, ["1 draw", "1 use", "1 swap 0 2 3"])  # seat 1's 1 <-> seat 2's 8
    assert rows_seen(env, 1)[2] == [None, None, None, "1"]
    play(env, ["2 draw", "2 slot 3"])  # seat 2 replaces the 1 with a drawn 0 (private)
    assert rows_seen(env, 1)[2] == [None] * 4  # seat 1 lost it, it saw the 1 go face up
    assert rows_seen(env, 2)[2] == ["5", None, None, "0"]
    assert env.to_dict()["discard_pile"][-1] == "1"
    play(env, ["0 take_discard", "0 slot 2"])  # a taken discard is public: everyone knows it
    for seat in range(3):
        assert rows_seen(env, seat)[0][2] == "1"
    play(env, ["0 no_knock", "1 draw", "1 use", "1 swap 0 0 3"])
    # a blind swap between two other players: seat 2 knew the 8 in seat 1's slot 0
    d = env.to_dict()
    assert d["rows"][1] == ["3", "2", "3", "4"] and d["rows"][0] == ["0", "1", "1", "8"]
    assert rows_seen(env, 2) == [[None, None, "1", "8"], [None] * 4, ["5", None, None, "0"]]
    # seat 0 knew the 3 it gave away, not the 8 it received
    assert rows_seen(env, 0) == [["0", None, "1", None], ["3", None, None, None], [None] * 4]
    # seat 1 knew neither card
    assert rows_seen(env, 1) == [[None, None, "1", None], [None, None, None, "4"], [None] * 4]


def test_R17_swap_of_two_cards_both_known_by_both_players() -> None:
    env = make(ROWS3, "9", ["PEEK", "SWAP"], n=3, dealer=0)
    # seat 1 peeks its slot 1 (a 2); then seat 2 swaps its slot 0 (5) with seat 1's slot 1
    play(env, ["1 draw", "1 use", "1 peek 1", "2 draw", "2 use", "2 swap 0 1 1"])
    d = env.to_dict()
    assert d["rows"][1] == ["1", "5", "3", "4"] and d["rows"][2] == ["2", "6", "7", "8"]
    assert rows_seen(env, 1)[1] == ["1", None, None, "4"]
    assert rows_seen(env, 1)[2] == ["2", None, None, None]
    assert rows_seen(env, 2)[1] == [None, "5", None, None]
    assert rows_seen(env, 2)[2] == [None, None, None, "8"]


def test_R18_private_drawn_and_peeked_cards_public_discards_and_moves() -> None:
    env = make(ROWS3, "9", ["4", "PEEK", "7", "3"], n=3)
    play(env, ["1 draw"])
    assert env.unwrapped.view(1)["held"] == "4"
    assert env.unwrapped.view(2)["held"] is None and env.unwrapped.view(0)["held"] is None
    play(env, ["1 slot 2"])
    assert rows_seen(env, 1)[1] == ["1", None, "4", "4"]
    assert rows_seen(env, 2)[1] == [None] * 4  # which slot is public, the card is not
    assert env.unwrapped.view(2)["changed"][1] == [False, False, True, False]
    assert env.unwrapped.view(2)["discard_pile"] == ["9", "3"]  # discards are public
    assert env.unwrapped.view(2)["last_moves"] == [[1, parse_action("draw")], [1, 4]]
    play(env, ["2 draw", "2 use", "2 peek 1"])
    assert rows_seen(env, 2)[2][1] == "6" and rows_seen(env, 1)[2][1] is None
    # a taken discard is public while in hand
    play(env, ["0 draw", "0 discard", "0 no_knock", "1 draw", "1 discard", "1 no_knock"])
    assert env.to_dict()["discard_pile"][-1] == "3"
    play(env, ["2 take_discard"])
    assert env.unwrapped.view(0)["held"] == "3" and env.unwrapped.view(2)["held_public"]


def test_R18_resample_hidden_redraws_exactly_what_the_seat_does_not_know() -> None:
    engine = RatatatGame(num_players=4)
    rng = np.random.default_rng(1)
    checked = 0
    for g in range(6):
        state = engine.new_game(np.random.default_rng(g))
        for step in range(400):
            if engine.is_over(state):
                break
            if step % 9 == 4:
                for seat in range(4):
                    known = encoding.view(state, seat)["rows"]
                    hidden = engine.hidden_positions(state, seat)
                    n_hidden_slots = sum(p >= 0 for ps in hidden.values() for p in ps)
                    assert n_hidden_slots == sum(c is None for row in known for c in row)
                    changed_slots = set()
                    for _ in range(8):
                        other = engine.resample_hidden(state, seat, rng)
                        assert engine.conservation_error(other) is None
                        assert np.array_equal(
                            encoding.encode(state, seat), encoding.encode(other, seat)
                        )
                        assert encoding.view(other, seat) == encoding.view(state, seat)
                        for i, (a, b) in enumerate(zip(state.slots, other.slots, strict=True)):
                            if known[i // 4][i % 4] is not None:
                                assert a == b  # known cards stay
                            elif a != b:
                                changed_slots.add(i)
                        # every generation keeps its multiset of hidden cards
                        for gen, positions in hidden.items():
                            before = Counter(_card_at(state, p) for p in positions)
                            assert Counter(_card_at(other, p) for p in positions) == before, gen
                        assert other.draw_pile != state.draw_pile or len(state.draw_pile) < 2
                    if n_hidden_slots >= 8:
                        # unknown slots of every row (own ones too) really are redrawn
                        assert len(changed_slots) >= n_hidden_slots // 2
                    checked += 1
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(rng.integers(len(legal)))])
    assert checked > 50


def _card_at(state: Any, position: int) -> int:
    if position >= 0:
        return state.slots[position]
    if position == -1:
        return state.held
    return state.draw_pile[-2 - position]


def test_R18_memory_modes_none_and_seer() -> None:
    none = make(ROWS3, "9", ["PEEK", "5"], n=3, memory="none")
    assert rows_seen(none, 1)[1] == ["1", None, None, "4"]  # seen at the deal, first decision
    play(none, ["1 draw"])
    assert rows_seen(none, 1)[1] == [None] * 4  # must be remembered by the agent itself
    play(none, ["1 use", "1 peek 2"])
    assert rows_seen(none, 1)[1] == [None, None, "3", None]  # seen since its last decision
    assert none.unwrapped.view(1)["owner_knows"][1] == [False] * 4
    seer = make(ROWS3, "9", ["PEEK", "5"], n=3, memory="seer")
    assert rows_seen(seer, 2) == [ROWS3[0], ROWS3[1], ROWS3[2]]
    play(seer, ["1 draw"])
    assert seer.unwrapped.view(2)["held"] == "PEEK"
    recall = make(ROWS3, "9", ["PEEK", "5"], n=3)
    obs = [e.observe("player_1")["observation"] for e in (recall, none, seer)]
    assert not np.array_equal(obs[0], obs[2])
    with pytest.raises(ConfigError, match="memory"):
        envs.ratatat.env(memory="photographic")


def test_action_texts_are_those_of_the_rules_file() -> None:
    engine = RatatatGame()
    texts = [engine.describe_action(a) for a in range(NUM_ACTIONS)]
    assert texts[:15] == [
        "take_discard",
        "draw",
        "slot 0",
        "slot 1",
        "slot 2",
        "slot 3",
        "discard",
        "use",
        "redraw",
        "peek 0",
        "peek 1",
        "peek 2",
        "peek 3",
        "knock",
        "no_knock",
    ]
    assert "swap 2 5 1" in texts and len(set(texts)) == NUM_ACTIONS
    assert engine.parse_action("  Swap 1  3 2 ") == texts.index("swap 1 3 2")
    with pytest.raises(IllegalActionError, match="swap K N J"):
        engine.parse_action("swap 1 9 2")


# ---- saved states (issue 36): refused where no play reaches them -------------------------------------
def test_from_dict_refuses_a_knock_taken_back_and_restores_last_turns_past_the_cap() -> None:
    """R10 before R12: after a knock at the last turn under max_turns the others' last turns
    run past the cap, and every such state restores; a knock taken back (knocker null), a knock
    moved to another seat, or the seats that played / the decider changed is refused."""
    game = RatatatGame(num_players=3, max_turns=4)
    state = game.new_game(np.random.default_rng(0))
    after_knock = 0
    while not game.is_over(state):
        legal = game.legal_actions(state)
        action = 13 if 13 in legal else 1 if 1 in legal else 6  # knock / draw / discard
        game.apply(state, action)
        data = game.to_dict(state)
        assert game.to_dict(game.from_dict(copy.deepcopy(data))) == data
        if data["knocker"] is not None and not data["over"]:
            after_knock += 1
            for field, value in [("knocker", None), ("knocker", (data["knocker"] + 1) % 3)]:
                with pytest.raises(ConfigError):  # named by the check that sees it first
                    game.from_dict({**copy.deepcopy(data), field: value})
        bad = {**copy.deepcopy(data), "played": []} if data["turns"] else None
        if bad is not None and not data["over"]:
            with pytest.raises(ConfigError, match="played"):
                game.from_dict(bad)
    assert after_knock and state.turns == 3 + 2  # knock after turn 3, then two last turns
