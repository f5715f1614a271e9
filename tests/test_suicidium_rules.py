"""Stacked-deck scenario tests for every rule id of ``docs/rules/suicidium.md`` (U1-U36).

Each test is named after the rule id it checks (``test_U10_...``). Scenarios fix the hands with
``reset(options={"hands": ...})``, stack the draw pile (``deck``) and the object deck (``objects``),
then play a script of moves written as ``"SEAT ACTION"`` (``"0 play SPOILER"``, ``"1 on SPOILER"``,
``"2 pass"``); every move checks that SEAT really holds the decision and that no card was lost.

The rules file has no ids U13-U19, U29 or U34; ``test_every_rule_id_has_a_test`` checks that the
ids it does have are all covered here.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardarena.envs.suicidium  # noqa: F401  (registers the game)
from cardarena import envs
from cardarena.envs.core import CardGameEnv, ConfigError, IllegalActionError
from cardarena.envs.suicidium.catalogue import EFFECTS, load_catalogue
from cardarena.envs.suicidium.rules import (
    BOOTH,
    CATALOGUE,
    EFFECT_NAMES,
    HARAKIRI,
    NOOSE,
    RAZOR,
    SuicidiumGame,
    object_matches,
)

RULES_FILE = Path(__file__).resolve().parents[1] / "docs" / "rules" / "suicidium.md"


# ---- helpers --------------------------------------------------------------------------------------
def make(
    hands: list[list[str]] | None = None,
    n: int = 3,
    mode: str = "SURVIVE",
    deck: list[str] | None = None,
    objects: list[str] | None = None,
    wp: list[int] | None = None,
    held: list[list[str]] | None = None,
    first: int = 0,
    expansion: bool = False,
    seed: int = 0,
) -> CardGameEnv:
    """A suicidium env with the given hands (missing seats get empty hands) and stacked piles."""
    env = envs.make("suicidium", num_players=n, mode=mode, expansion=expansion)
    options: dict[str, Any] = {"first_player": first}
    if hands is not None:
        options["hands"] = [list(h) for h in hands] + [[] for _ in range(n - len(hands))]
    if deck is not None:
        options["deck"] = list(deck)
    if objects is not None:
        options["objects"] = list(objects)
    if wp is not None:
        options["wp"] = list(wp)
    if held is not None:
        options["held"] = [list(h) for h in held]
    env.reset(seed=seed, options=options)
    check_conservation(env)
    return env


def check_conservation(env: CardGameEnv) -> None:
    assert env.game.conservation_error(env.state_obj) is None


def act(env: CardGameEnv, *moves: str) -> None:
    """Play ``"SEAT ACTION"`` moves in order: SEAT must hold each decision."""
    for move in moves:
        seat_text, action_text = move.split(" ", 1)
        seat = int(seat_text)
        d = env.to_dict()
        assert not d["over"], f"game over before {move!r}"
        assert d["current_player"] == seat, (
            f"{move!r}: seat {d['current_player']} holds decision {d['decision']!r}"
        )
        assert env.agent_selection == f"player_{seat}"
        action = env.parse_action(action_text)
        env.step(action)
        check_conservation(env)


def legal(env: CardGameEnv) -> set[str]:
    return {env.describe_action(a) for a in env.legal_actions()}


def decider(env: CardGameEnv) -> tuple[int | None, str]:
    d = env.to_dict()
    return d["current_player"], d["decision"]


def wp(env: CardGameEnv) -> list[int]:
    return env.to_dict()["wp"]


def hand(env: CardGameEnv, seat: int) -> list[str]:
    return env.to_dict()["hands"][seat]


def end_turn_no_responses(env: CardGameEnv, active: int, n: int = 3) -> None:
    """The active player ends MAIN and every opponent passes its response decision."""
    act(env, f"{active} pass", *[f"{(active + k) % n} pass" for k in range(1, n)])


# ---- components (U1-U4) ------------------------------------------------------------------------------
def test_U1_object_deck_has_13_cards_4_razor_4_noose_4_poison_1_booth() -> None:
    for n in (2, 3, 4):
        env = envs.make("suicidium", num_players=n)
        env.reset(seed=n)
        zones = env.game.card_zones(env.state_obj)
        assert Counter(zones["object_pile"]) == {"RAZOR": 4, "NOOSE": 4, "POISON": 4, "BOOTH": 1}
        assert all(not zones[f"table_{s}"] for s in range(n))
    env = make(objects=["BOOTH", "POISON"])
    assert env.to_dict()["object_pile"][:2] == ["BOOTH", "POISON"]


def test_U2_action_deck_97_different_cards_of_three_kinds() -> None:
    env = envs.make("suicidium", num_players=4)
    env.reset(seed=0)
    codes = [c for c in env.game.deck_codes() if c not in ("RAZOR", "NOOSE", "POISON", "BOOTH")]
    assert len(codes) == 97 == len(set(codes))
    base = [c for c in CATALOGUE if c.set == "base"]
    assert {c.id for c in base} == set(codes)
    assert len({c.name for c in base}) == 97
    assert {c.kind for c in base} == {"POINTS", "EVENT", "RESPONSE"}
    zones = env.game.card_zones(env.state_obj)
    in_play = zones["draw_pile"] + [c for s in range(4) for c in zones[f"hand_{s}"]]
    assert sorted(in_play) == sorted(codes)


def test_U3_willpower_starts_at_10_never_above_10_never_below_0() -> None:
    env = envs.make("suicidium", num_players=4)
    env.reset(seed=3)
    assert wp(env) == [10, 10, 10, 10]
    # +5 on a player at 8 stops at 10
    env = make([["GRATTA_E_VINCI"]], wp=[8, 10, 10])
    act(env, "0 draw 0", "0 play GRATTA_E_VINCI", "0 target 0")
    end_turn_no_responses(env, 0)
    assert wp(env)[0] == 10
    # -5 on a player at 2 stops at 0 (then U5 draws an object and resets it)
    env = make([["SFRATTO"]], wp=[10, 2, 10], objects=["NOOSE"])
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1")
    end_turn_no_responses(env, 0)
    assert wp(env)[1] == 10 and env.to_dict()["objects"][1] == ["NOOSE"]
    # and in random games WP stays within [0, 10] after every decision
    engine = SuicidiumGame(num_players=4)
    for g in range(8):
        state = engine.new_game(np.random.default_rng(g))
        rng = np.random.default_rng(100 + g)
        while not engine.is_over(state):
            acts = engine.legal_actions(state)
            engine.apply(state, acts[int(rng.integers(len(acts)))])
            assert all(0 <= w <= 10 for w in state.wp)
            assert all(w >= 1 for w, a in zip(state.wp, state.alive, strict=True) if a)


def test_U4_seven_cards_dealt_in_seat_order_and_hand_limit_7() -> None:
    ids = [c.id for c in CATALOGUE if c.set == "base"]
    env = make(deck=ids[:21], n=3)
    hands = env.to_dict()["hands"]
    assert hands == [ids[0:7], ids[7:14], ids[14:21]]
    # the hand limit bounds draws: 5 cards in hand -> at most 2 more
    env = make([ids[21:26]], deck=["ORSETTI_GOMMOSI", "PISOLINO"])
    assert {"draw 1", "draw 2"} <= legal(env) and "draw 3" not in legal(env)
    act(env, "0 draw 2")
    assert len(hand(env, 0)) == 7
    # a full hand may only draw 0 or discard one and draw one
    env = make([ids[21:28]])
    assert legal(env) == {"draw 0"} | {f"discard {c}" for c in ids[21:28]}


# ---- reaching zero (U5, U6) ------------------------------------------------------------------------------
def test_U4_effects_may_take_a_hand_above_7_then_only_swaps_or_draw_0() -> None:
    six = ["BABBO_NATALE", "PISOLINO", "STIPENDIO", "VETO", "SFRATTO", "TRASLOCO"]
    env = make([six], deck=["CRISI", "SPOILER", "LATTE_PIU", "BLACKOUT", "ORSETTI_GOMMOSI"])
    act(env, "0 draw 0", "0 play BABBO_NATALE")
    end_turn_no_responses(env, 0)
    assert len(hand(env, 0)) == 8
    act(env, "1 draw 1", "1 pass", "2 draw 1", "2 pass")
    assert legal(env) == {"draw 0"} | {f"discard {c}" for c in hand(env, 0)}


def test_U5_zero_draws_an_object_new_type_resets_same_type_eliminates_or_wins() -> None:
    # a new type: kept face up, WP back to 10
    env = make([["SFRATTO"]], wp=[10, 3, 10], held=[[], ["RAZOR"], []], objects=["POISON"])
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1")
    end_turn_no_responses(env, 0)
    d = env.to_dict()
    assert d["wp"][1] == 10 and d["objects"][1] == ["RAZOR", "POISON"] and d["in_game"][1]
    assert d["table"][1] == ["RAZOR", "POISON"]
    # a type it holds (SURVIVE): out of the game, hand discarded
    env = make(
        [["SFRATTO"], ["PISOLINO", "VETO"]],
        n=3,
        wp=[10, 3, 10],
        held=[[], ["RAZOR"], []],
        objects=["RAZOR"],
    )
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1", "0 pass", "1 pass", "2 pass")
    d = env.to_dict()
    assert d["in_game"] == [True, False, True] and d["hands"][1] == []
    assert {"PISOLINO", "VETO", "SFRATTO"} <= set(d["discard_pile"])
    assert d["objects"][1] == ["RAZOR", "RAZOR"] and not d["over"]
    assert decider(env) == (2, "draw")  # the eliminated seat is skipped
    # DEPRESSION: the same match wins at once
    env = make(
        [["SFRATTO"]],
        mode="DEPRESSION",
        wp=[3, 10, 10],
        held=[["NOOSE"], [], []],
        objects=["NOOSE"],
    )
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 0")
    end_turn_no_responses(env, 0)
    d = env.to_dict()
    assert d["over"] and d["winners"] == [0]
    assert env.game.returns(env.state_obj) == [1.0, -0.5, -0.5]


def test_U5_empty_object_deck_counts_as_a_match() -> None:
    # the 13 objects leave the deck only to the seats: distinct types to those still playing,
    # three types and the match to those out (U5), so four seats can empty it: seats 2 and 3
    # are out, and seat 1 (3 WP) holds the last types
    env = make(
        [["SFRATTO"]],
        n=4,
        wp=[10, 3, 10, 10],
        held=[["NOOSE", "POISON"], ["RAZOR", "NOOSE", "POISON"], [], []],
    )
    d = env.to_dict()
    d["object_pile"] = []
    d["objects"][2:] = [
        ["RAZOR", "NOOSE", "POISON", "BOOTH"],
        ["RAZOR", "NOOSE", "POISON", "RAZOR"],
    ]
    d["table"][2:] = d["objects"][2:]  # what lies face up before each seat
    d["in_game"][2:], d["wp"][2:], d["scores"][2:] = [False, False], [0, 0], [0.0, 0.0]
    d["turn"], d["decisions"] = 9, 60  # the turns in which seats 2 and 3 left
    env.from_dict(d)
    check_conservation(env)
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1", "0 pass", "1 pass")
    d = env.to_dict()
    assert d["in_game"] == [True, False, False, False] and d["winners"] == [0]
    assert d["objects"][1] == ["RAZOR", "NOOSE", "POISON"]  # no object drawn: a match all the same


def test_U6_survive_ends_with_one_player_left_depression_with_first_win() -> None:
    env = make([["SFRATTO"]], n=2, wp=[10, 4], held=[[], ["POISON"]], objects=["POISON"])
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1", "0 pass", "1 pass")
    d = env.to_dict()
    assert d["over"] and d["winners"] == [0] and d["current_player"] is None
    assert env.game.returns(env.state_obj) == [1.0, -1.0]
    # with three players one elimination does not end SURVIVE
    env = make([["SFRATTO"]], n=3, wp=[10, 4, 10], held=[[], ["POISON"], []], objects=["POISON"])
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1")
    end_turn_no_responses(env, 0)
    assert not env.to_dict()["over"] and env.game.returns(env.state_obj) == [0.0, 0.0, 0.0]
    # DEPRESSION ends when the first player holds two identical objects (others still in game)
    env = make(
        [["SFRATTO"]],
        mode="DEPRESSION",
        wp=[10, 5, 10],
        held=[[], ["RAZOR"], []],
        objects=["RAZOR"],
    )
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1")
    end_turn_no_responses(env, 0)
    d = env.to_dict()
    assert d["over"] and d["winners"] == [1] and all(d["in_game"])


# ---- the turn (U7-U12) ----------------------------------------------------------------------------------
def test_U7_survive_each_card_drawn_costs_the_drawer_1_wp() -> None:
    env = make([["ORSETTI_GOMMOSI"]], deck=["PISOLINO", "STIPENDIO", "VETO"])
    act(env, "0 draw 3")
    assert wp(env) == [7, 10, 10]
    assert sorted(hand(env, 0)) == sorted(["ORSETTI_GOMMOSI", "PISOLINO", "STIPENDIO", "VETO"])
    assert decider(env) == (0, "main")


def test_U7_survive_may_not_declare_more_than_its_wp_and_zero_ends_the_drawing() -> None:
    env = make([[]], wp=[2, 10, 10], objects=["NOOSE"], deck=["PISOLINO", "STIPENDIO"])
    assert legal(env) == {"draw 1", "draw 2"}  # FAQ: at 2 WP you may declare 2, not 3
    act(env, "0 draw 2")
    d = env.to_dict()
    assert d["objects"][0] == ["NOOSE"] and d["wp"][0] == 10 and len(d["hands"][0]) == 2
    assert decider(env) == (0, "main")


def test_U7_full_hand_discards_one_and_draws_one() -> None:
    full = ["PISOLINO", "STIPENDIO", "VETO", "SFRATTO", "BLACKOUT", "SPOILER", "TRASLOCO"]
    env = make([full], deck=["LATTE_PIU"])
    act(env, "0 discard VETO")
    d = env.to_dict()
    assert "VETO" in d["discard_pile"] and "LATTE_PIU" in d["hands"][0]
    assert len(d["hands"][0]) == 7 and d["wp"][0] == 9


def test_U7_depression_each_card_drawn_costs_every_opponent_1_wp_in_seat_order() -> None:
    env = make([[]], mode="DEPRESSION", wp=[10, 5, 1], objects=["RAZOR"])
    assert "draw 7" in legal(env)  # no WP limit in DEPRESSION
    act(env, "0 draw 2")
    d = env.to_dict()
    # card 1: seat 1 -> 4, seat 2 -> 0 (RAZOR, back to 10); card 2: seat 1 -> 3, seat 2 -> 9
    assert d["wp"] == [10, 3, 9] and d["objects"][2] == ["RAZOR"]
    # two opponents reaching 0 on one card draw in seat order from the active player (seat 1)
    env = make([[], []], mode="DEPRESSION", wp=[1, 10, 1], objects=["RAZOR", "NOOSE"], first=1)
    act(env, "1 draw 1")
    d = env.to_dict()
    assert d["objects"][2] == ["RAZOR"] and d["objects"][0] == ["NOOSE"]


def test_U8_up_to_three_cards_nothing_takes_effect_until_resolution() -> None:
    env = make([["SFRATTO", "PISOLINO", "LICENZIATO", "CALZINO_SPAIATO"]], wp=[10, 10, 10])
    act(env, "0 draw 0", "0 play PISOLINO")
    assert legal(env) == {"target 0", "target 1", "target 2"}  # the active player included
    act(env, "0 target 0", "0 play SFRATTO", "0 target 1", "0 play LICENZIATO", "0 target 2")
    # the third card ends MAIN: the response window opens, nothing has happened yet
    assert decider(env) == (1, "respond")
    assert wp(env) == [10, 10, 10] and hand(env, 0) == ["CALZINO_SPAIATO"]
    act(env, "1 pass", "2 pass")
    assert wp(env) == [10, 5, 6]


def test_U8_response_in_main_only_on_its_own_cards_on_the_table() -> None:
    env = make([["LATTE_PIU", "STIPENDIO"]], wp=[2, 10, 10])
    act(env, "0 draw 0")
    assert legal(env) == {"play STIPENDIO"}  # nothing on the table yet for LATTE_PIU
    act(env, "0 play STIPENDIO", "0 target 0")
    assert "play LATTE_PIU" in legal(env)
    act(env, "0 play LATTE_PIU")
    assert legal(env) == {"on STIPENDIO"}
    act(env, "0 on STIPENDIO", "0 pass", "1 pass", "2 pass")
    assert wp(env)[0] == 8  # its own +3 doubled


def test_U9_draw_zero_obliges_a_play_and_needs_a_playable_card() -> None:
    env = make([["ORSETTI_GOMMOSI"]])
    act(env, "0 draw 0")
    assert legal(env) == {"play ORSETTI_GOMMOSI"}  # pass only after one card
    act(env, "0 play ORSETTI_GOMMOSI", "0 target 1")
    assert "pass" in legal(env)
    env = make([["SUSPENSE"]])
    assert "draw 0" not in legal(env) and "draw 1" in legal(env)  # a lone RESPONSE cannot open


def test_U9_skip_draw_must_play_skip_main_must_draw_both_pass() -> None:
    # skip-draw: no draw decision, MAIN where a card must be played
    env = make([["SCIOPERO_DEI_MEZZI"], ["PISOLINO", "VETO"]])
    act(env, "0 draw 0", "0 play SCIOPERO_DEI_MEZZI", "0 target 1")
    end_turn_no_responses(env, 0)
    assert decider(env) == (1, "main") and legal(env) == {"play PISOLINO"}
    # skip-main: draw 0 is illegal, and the turn ends after the draw
    env = make([["TALENT_SHOW"], ["PISOLINO", "VETO"]])
    act(env, "0 draw 0", "0 play TALENT_SHOW", "0 target 1")
    end_turn_no_responses(env, 0)
    assert decider(env) == (1, "draw") and "draw 0" not in legal(env)
    act(env, "1 draw 1")
    assert decider(env) == (2, "draw") and wp(env)[1] == 9
    # both: the player passes without a decision
    env = make([["TALENT_SHOW", "DIETA_FERREA"], ["PISOLINO"]])
    act(env, "0 draw 0", "0 play TALENT_SHOW", "0 target 1", "0 play DIETA_FERREA", "0 target 1")
    end_turn_no_responses(env, 0)
    assert decider(env) == (2, "draw") and hand(env, 1) == ["PISOLINO"]
    # skip-draw and nothing playable: no way to meet the obligation, it passes
    env = make([["BANCOMAT_GUASTO"], ["VETO"]])
    act(env, "0 draw 0", "0 play BANCOMAT_GUASTO", "0 target 1")
    end_turn_no_responses(env, 0)
    assert decider(env) == (2, "draw")


def test_U9_faq_skip_main_full_hand_one_wp_must_discard_and_draw() -> None:
    full = ["PISOLINO", "STIPENDIO", "VETO", "SFRATTO", "BLACKOUT", "SPOILER", "TRASLOCO"]
    env = make([["CENA_DAI_PARENTI"], full], wp=[10, 1, 10], objects=["POISON"], deck=["CRISI"])
    act(env, "0 draw 0", "0 play CENA_DAI_PARENTI", "0 target 1")
    end_turn_no_responses(env, 0)
    assert legal(env) == {f"discard {c}" for c in full}
    act(env, "1 discard SPOILER")
    d = env.to_dict()
    assert d["objects"][1] == ["POISON"] and d["wp"][1] == 10 and "CRISI" in d["hands"][1]
    assert decider(env) == (2, "draw")


def test_U10_every_opponent_clockwise_gets_a_decision_even_with_only_pass() -> None:
    env = make([[], [], ["SUSPENSE"], []], n=4, first=1, deck=["SFRATTO"])
    act(env, "1 draw 1", "1 play SFRATTO", "1 target 0", "1 pass")
    order = []
    while decider(env)[1] == "respond":
        seat = decider(env)[0]
        order.append((seat, legal(env)))
        act(env, f"{seat} pass")
    # clockwise from the active player (seat 1); seat 2 holds a response, the others nothing
    assert order == [
        (2, {"pass", "play SUSPENSE"}),
        (3, {"pass"}),
        (0, {"pass"}),
    ]
    assert decider(env) == (2, "draw")  # nobody responded: the active player is not asked


def test_U10_active_player_answers_only_if_an_opponent_responded_up_to_3_each() -> None:
    env = make(
        [
            ["SFRATTO", "DUE_DI_PICCHE"],
            ["SUSPENSE", "NON_CI_CREDO", "FALSO_ALLARME", "ERA_UNO_SCHERZO"],
            [],
        ]
    )
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1", "0 pass")
    act(env, "1 play SUSPENSE", "1 on SFRATTO", "1 play NON_CI_CREDO", "1 on SFRATTO")
    act(env, "1 play FALSO_ALLARME", "1 on SFRATTO")
    assert decider(env) == (2, "respond")  # three responses: seat 1 is done
    act(env, "2 pass")
    assert decider(env) == (0, "respond")  # someone responded: the active player answers
    act(env, "0 play DUE_DI_PICCHE")
    assert legal(env) >= {"on SUSPENSE", "on NON_CI_CREDO", "on SFRATTO"}  # any card
    act(env, "0 on SUSPENSE", "0 pass")
    assert wp(env)[1] == 10  # two cancels still stand
    # no card on the table: no response window at all
    env = make([["PISOLINO"]], deck=["VETO"])
    act(env, "0 draw 1", "0 pass")
    assert decider(env) == (1, "draw")


def test_U11_cards_resolve_in_play_order_with_seat_order_and_u5_after_each_change() -> None:
    env = make([["SFRATTO", "ORSETTI_GOMMOSI"]], wp=[10, 5, 10], objects=["NOOSE"])
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1", "0 play ORSETTI_GOMMOSI", "0 target 1")
    end_turn_no_responses(env, 0)
    assert wp(env)[1] == 10 and env.to_dict()["objects"][1] == ["NOOSE"]  # 0 -> NOOSE, +1 capped
    env = make([["ORSETTI_GOMMOSI", "SFRATTO"]], wp=[10, 5, 10], objects=["NOOSE"])
    act(env, "0 draw 0", "0 play ORSETTI_GOMMOSI", "0 target 1", "0 play SFRATTO", "0 target 1")
    end_turn_no_responses(env, 0)
    assert wp(env)[1] == 1 and env.to_dict()["objects"][1] == []
    # all players -3 from the active seat 1: seat 1, then seat 2 (0 -> RAZOR), then seat 0 (NOOSE)
    env = make([[], ["FINE_DEL_MONDO"]], wp=[3, 5, 3], objects=["RAZOR", "NOOSE"], first=1)
    act(env, "1 draw 0", "1 play FINE_DEL_MONDO", "1 pass", "2 pass", "0 pass")
    d = env.to_dict()
    assert d["objects"] == [["NOOSE"], [], ["RAZOR"]] and d["wp"] == [10, 2, 10]
    # every card is discarded except lasting events, which lie in front of their target
    env = make([["SFRATTO", "BLACKOUT"]])
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 2", "0 play BLACKOUT", "0 target 1")
    end_turn_no_responses(env, 0)
    d = env.to_dict()
    assert d["discard_pile"] == ["SFRATTO"] and d["table"][1] == ["BLACKOUT"] and not d["played"]


def test_U12_empty_draw_pile_reshuffles_the_discard_pile() -> None:
    env = make([[]])
    d = env.to_dict()
    old = d["draw_pile"]
    d["discard_pile"], d["draw_pile"] = old, []
    # discarded before this turn, in earlier turns (from_dict refuses a pile no past can give)
    d["discard_mark"], d["turn"], d["decisions"] = len(old), 9, 3 * len(old)
    env.from_dict(d)
    check_conservation(env)
    act(env, "0 draw 2")
    d = env.to_dict()
    assert d["discard_pile"] == [] and len(d["draw_pile"]) == len(old) - 2
    assert set(d["hands"][0]) <= set(old) and len(d["hands"][0]) == 2


# ---- responses (U20-U24) ---------------------------------------------------------------------------
def test_U20_cancel_targets_by_kind_and_cancelled_cards_carry_nothing() -> None:
    env = make(
        [
            ["SFRATTO", "BLACKOUT", "LATTE_PIU"],
            ["SUSPENSE", "CONTRATTEMPO"],
            ["UFFICIO_RECLAMI", "VETO"],
        ],
        wp=[10, 8, 10],
    )
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1", "0 play LATTE_PIU", "0 on SFRATTO")
    act(env, "0 play BLACKOUT", "0 target 2")
    act(env, "1 play SUSPENSE")
    assert legal(env) == {"on SFRATTO"}  # CANCEL_POINTS: POINTS only
    act(env, "1 on SFRATTO", "1 play CONTRATTEMPO")
    assert legal(env) == {"on BLACKOUT"}  # CANCEL_EVENT: EVENT only
    act(env, "1 on BLACKOUT", "1 pass", "2 play UFFICIO_RECLAMI")
    # FAQ: a cancel-event cannot cancel a response, only a cancel-any can
    assert legal(env) == {"on BLACKOUT"}
    act(env, "2 on BLACKOUT", "2 play VETO")
    assert legal(env) == {
        "on SFRATTO",
        "on LATTE_PIU",
        "on BLACKOUT",
        "on SUSPENSE",
        "on CONTRATTEMPO",
        "on UFFICIO_RECLAMI",
    }
    act(env, "2 on UFFICIO_RECLAMI", "2 pass", "0 pass")
    # SFRATTO is cancelled with the DOUBLE it carried; BLACKOUT is cancelled (VETO only restores
    # it from UFFICIO_RECLAMI, CONTRATTEMPO still cancels it)
    d = env.to_dict()
    assert d["wp"] == [10, 8, 10] and d["table"][2] == [] and "BLACKOUT" in d["discard_pile"]


def test_U21_faq_marco_luisa_gino_cancel_of_a_cancel() -> None:
    """FAQ: Marco, Luisa and Gino (in this order) play DEPRESSION; it is Marco's turn. After drawing
    he plays "Spoiler" on himself and Gino. Marco is at 2 WP and already drew a razor; Gino is at
    5. Luisa (2 WP) answers with "Suspense!" on "Spoiler"; Gino plays "Due di picche" on
    "Suspense!". Marco plays nothing more; "Spoiler" applies: Marco reaches 0, Gino loses 3."""
    marco, luisa, gino = 0, 1, 2
    for top_object, marco_wins in (("RAZOR", True), ("NOOSE", False)):
        env = make(
            [["SPOILER"], ["SUSPENSE"], ["DUE_DI_PICCHE"]],
            mode="DEPRESSION",
            wp=[2, 3, 6],
            held=[["RAZOR"], [], []],
            objects=[top_object],
            deck=["CAFFE_AL_BAR"],
        )
        act(env, f"{marco} draw 1")
        assert wp(env) == [2, 2, 5]  # drawing cost Luisa and Gino 1 WP each
        act(env, f"{marco} play SPOILER", f"{marco} target {gino}", f"{marco} pass")
        act(env, f"{luisa} play SUSPENSE", f"{luisa} on SPOILER", f"{luisa} pass")
        act(env, f"{gino} play DUE_DI_PICCHE", f"{gino} on SUSPENSE", f"{gino} pass")
        act(env, f"{marco} pass")
        d = env.to_dict()
        if marco_wins:  # the second razor: Marco wins at once
            assert d["over"] and d["winners"] == [marco] and d["wp"][marco] == 0
        else:  # "Spoiler" applies in full: Marco to 0 (new object), Gino 5 -> 2
            assert not d["over"] and d["objects"][marco] == ["RAZOR", "NOOSE"]
            assert d["wp"] == [10, 2, 2]


def test_U22_faq_lisa_federico_andrea_plus_one_doubled_twice_is_plus_three() -> None:
    """FAQ: Lisa, Federico and Andrea play SURVIVE. Lisa does not draw and plays "Scorpacciata di
    orsetti gommosi" (+1) on Andrea. Federico answers "Supposta di Wasabi"; Andrea has no response;
    back to Lisa, who closes with "Latte +" on the same card: +1 +1 +1 = +3 for Andrea. Lisa could
    answer only because Federico had."""
    lisa, federico, andrea = 0, 1, 2
    hands = [["ORSETTI_GOMMOSI", "LATTE_PIU"], ["SUPPOSTA_DI_WASABI"], []]
    env = make(hands, wp=[10, 10, 5])
    act(env, f"{lisa} draw 0", f"{lisa} play ORSETTI_GOMMOSI", f"{lisa} target {andrea}")
    act(env, f"{lisa} pass")
    act(env, f"{federico} play SUPPOSTA_DI_WASABI", f"{federico} on ORSETTI_GOMMOSI")
    act(env, f"{federico} pass", f"{andrea} pass", f"{lisa} play LATTE_PIU")
    assert legal(env) == {"on ORSETTI_GOMMOSI"}  # a DOUBLE cannot target a response
    act(env, f"{lisa} on ORSETTI_GOMMOSI", f"{lisa} pass")
    assert wp(env) == [10, 10, 8]
    # without Federico's response Lisa gets no response decision: +1 only
    env = make(hands, wp=[10, 10, 5])
    act(env, f"{lisa} draw 0", f"{lisa} play ORSETTI_GOMMOSI", f"{lisa} target {andrea}")
    act(env, f"{lisa} pass", f"{federico} pass", f"{andrea} pass")
    assert decider(env) == (federico, "draw") and wp(env) == [10, 10, 6]


def test_U23_redirect_chooses_new_recipients_one_per_recipient() -> None:
    env = make(
        [["SPOILER", "MERITO_ALTRUI", "TALENT_SHOW"], ["SCARICABARILE"], ["STRABISMO_DI_VENERE"]],
        wp=[10, 10, 10],
        expansion=True,
    )
    act(env, "0 draw 0", "0 play SPOILER", "0 target 1", "0 play MERITO_ALTRUI", "0 target 1")
    act(env, "0 play TALENT_SHOW", "0 target 1")
    act(env, "1 play SCARICABARILE")
    assert legal(env) == {"on SPOILER", "on MERITO_ALTRUI", "on TALENT_SHOW"}
    act(env, "1 on TALENT_SHOW", "1 target 0", "1 pass")  # one recipient: one choice
    act(env, "2 play STRABISMO_DI_VENERE", "2 on SPOILER")
    assert legal(env) == {"target 0", "target 1", "target 2"}
    act(env, "2 target 1", "2 target 1", "2 pass")  # two recipients: two choices
    act(env, "0 pass")
    d = env.to_dict()
    # SPOILER hits seat 1 twice (-6), MERITO_ALTRUI: seat 0 +3 (capped), seat 1 -3
    assert d["wp"] == [10, 1, 10]
    assert d["table"][0] == ["TALENT_SHOW"] and d["table"][1] == []


def test_U24_steal_played_takes_the_card_at_the_end_of_the_turn_unless_cancelled() -> None:
    env = make([["SFRATTO"], ["ALL_ARREMBAGGIO"]], expansion=True)
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1", "0 pass")
    act(env, "1 play ALL_ARREMBAGGIO", "1 on SFRATTO", "1 pass", "2 pass", "0 pass")
    d = env.to_dict()
    assert d["wp"][1] == 5  # the card still resolved
    assert d["hands"][1] == ["SFRATTO"] and d["discard_pile"] == ["ALL_ARREMBAGGIO"]
    assert env.view(2)["known"][1] == ["SFRATTO"]  # everyone saw it taken
    env = make([["SFRATTO"], ["COLPO_GROSSO"], ["VETO"]], expansion=True)
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1", "0 pass")
    act(env, "1 play COLPO_GROSSO", "1 on SFRATTO", "1 pass")
    act(env, "2 play VETO", "2 on COLPO_GROSSO", "2 pass", "0 pass")
    d = env.to_dict()
    assert d["hands"][1] == [] and "SFRATTO" in d["discard_pile"]


def test_U24_a_stolen_lasting_event_never_lies_in_front_of_its_target() -> None:
    env = make([["TALENT_SHOW"], ["ALL_ARREMBAGGIO", "PISOLINO"]], expansion=True)
    act(env, "0 draw 0", "0 play TALENT_SHOW", "0 target 1", "0 pass")
    act(env, "1 play ALL_ARREMBAGGIO", "1 on TALENT_SHOW", "1 pass", "2 pass", "0 pass")
    d = env.to_dict()
    assert d["table"][1] == [] and "TALENT_SHOW" in d["hands"][1]
    act(env, "1 draw 0")  # no skip-main: draw 0 is open, MAIN follows
    assert decider(env) == (1, "main")


# ---- events (U25-U28) -------------------------------------------------------------------------------------
def test_U25_skip_draw_and_skip_main_hit_only_the_targets_next_turn() -> None:
    env = make(
        [["CHIUSO_PER_FERIE"], ["PISOLINO", "STIPENDIO"]], deck=["CRISI", "VETO", "LATTE_PIU"]
    )
    act(env, "0 draw 0", "0 play CHIUSO_PER_FERIE", "0 target 1")
    end_turn_no_responses(env, 0)
    assert decider(env) == (1, "main")  # no draw phase this turn
    act(env, "1 play PISOLINO", "1 target 1", "1 pass", "2 pass", "0 pass")
    assert env.to_dict()["table"][1] == []  # gone at the end of seat 1's turn
    act(env, "2 draw 1", "2 pass", "0 draw 1", "0 pass")
    assert decider(env) == (1, "draw")  # the turn after is normal again
    env = make([["FEBBRE_A_39"], ["PISOLINO"]])
    act(env, "0 draw 0", "0 play FEBBRE_A_39", "0 target 1")
    end_turn_no_responses(env, 0)
    act(env, "1 draw 1")
    assert decider(env) == (2, "draw")  # no MAIN phase for seat 1


def test_U26_discard_random_and_draw_then_discard_cost_no_wp() -> None:
    env = make(
        [["TRASLOCO", "KRAMPUS_ALLA_GAMBA"], ["PISOLINO", "STIPENDIO", "VETO"], ["BLACKOUT"]],
        deck=["SFRATTO", "SPOILER", "LATTE_PIU"],
    )
    act(env, "0 draw 0", "0 play TRASLOCO", "0 target 1", "0 play KRAMPUS_ALLA_GAMBA", "0 target 2")
    end_turn_no_responses(env, 0)
    d = env.to_dict()
    assert (
        len(d["hands"][1]) == 1
        and len(set(d["discard_pile"]) & {"PISOLINO", "STIPENDIO", "VETO"}) == 2
    )
    # KRAMPUS: seat 2 drew three cards and now discards three of its choice, one decision each
    assert decider(env) == (2, "discard")
    assert sorted(hand(env, 2)) == sorted(["BLACKOUT", "SFRATTO", "SPOILER", "LATTE_PIU"])
    act(env, "2 discard BLACKOUT", "2 discard SPOILER", "2 discard LATTE_PIU")
    d = env.to_dict()
    assert d["hands"][2] == ["SFRATTO"] and d["wp"] == [10, 10, 10]  # FAQ: no WP lost
    assert decider(env) == (1, "draw")


def test_U26_steal_peek_and_exchange() -> None:
    env = make(
        [
            ["BORSEGGIATORE", "OCCHIATA_INDISCRETA", "SCAMBIO_DI_CULLE", "PISOLINO"],
            ["VETO"],
            ["SFRATTO", "BLACKOUT"],
        ]
    )
    act(env, "0 draw 0", "0 play BORSEGGIATORE", "0 target 1", "0 play OCCHIATA_INDISCRETA")
    act(env, "0 target 2")
    end_turn_no_responses(env, 0)
    d = env.to_dict()
    assert sorted(d["hands"][0]) == ["PISOLINO", "SCAMBIO_DI_CULLE", "VETO"] and d["hands"][1] == []
    assert env.view(1)["known"][0] == ["VETO"]  # the victim knows what was taken
    assert env.view(0)["known"][2] == ["SFRATTO", "BLACKOUT"]  # the peek
    assert env.view(1)["known"][2] == []
    obs_before = env.observe("player_0")["observation"].copy()
    act(env, "1 draw 1", "1 pass", "2 draw 0", "2 play SFRATTO", "2 target 1")
    end_turn_no_responses(env, 2)
    assert env.view(0)["known"][2] == ["BLACKOUT"]  # SFRATTO moved: no longer known
    assert not np.array_equal(obs_before, env.observe("player_0")["observation"])
    act(env, "0 draw 0", "0 play SCAMBIO_DI_CULLE", "0 target 2")
    end_turn_no_responses(env, 0)
    d = env.to_dict()
    assert d["hands"][0] == ["BLACKOUT"] and sorted(d["hands"][2]) == sorted(["PISOLINO", "VETO"])
    assert d["wp"][0] == 10


def test_U27_shield_lasts_until_the_end_of_the_targets_next_turn() -> None:
    env = make(
        [["CORAZZA_EMOTIVA", "SFRATTO", "ORSETTI_GOMMOSI"], [], ["LICENZIATO"]], wp=[10, 8, 10]
    )
    act(env, "0 draw 0", "0 play CORAZZA_EMOTIVA", "0 target 1", "0 play SFRATTO", "0 target 1")
    act(env, "0 play ORSETTI_GOMMOSI", "0 target 1", "1 pass", "2 pass")
    assert wp(env)[1] == 9  # the -5 is blocked, the +1 applies
    assert env.to_dict()["table"][1] == ["CORAZZA_EMOTIVA"]
    act(env, "1 draw 1", "1 pass")  # seat 1's next turn ends: the shield leaves
    d = env.to_dict()
    assert d["table"][1] == [] and "CORAZZA_EMOTIVA" in d["discard_pile"]
    act(env, "2 draw 0", "2 play LICENZIATO", "2 target 1")
    end_turn_no_responses(env, 2)
    assert wp(env)[1] == 4
    # a shield arriving during its target's own turn lasts through that player's next turn
    env = make([["ABBRACCIO_DELLA_NONNA"], ["LICENZIATO"], []], deck=["CRISI", "VETO"])
    act(env, "0 draw 0", "0 play ABBRACCIO_DELLA_NONNA", "0 target 0")
    end_turn_no_responses(env, 0)
    act(env, "1 draw 0", "1 play LICENZIATO", "1 target 0", "1 pass", "2 pass", "0 pass")
    assert wp(env)[0] == 10 and env.to_dict()["table"][0] == ["ABBRACCIO_DELLA_NONNA"]
    act(env, "2 draw 1", "2 pass", "0 draw 1", "0 pass")
    assert env.to_dict()["table"][0] == []


def test_U28_free_draws_cost_no_wp_and_time_machine_takes_earlier_discards() -> None:
    env = make([["BABBO_NATALE"]], deck=["PISOLINO", "VETO", "SPOILER"])
    act(env, "0 draw 0", "0 play BABBO_NATALE")
    end_turn_no_responses(env, 0)
    d = env.to_dict()
    assert sorted(d["hands"][0]) == ["PISOLINO", "SPOILER", "VETO"] and d["wp"][0] == 10
    full = ["MACCHINA_DEL_TEMPO", "PISOLINO", "VETO", "BLACKOUT", "SPOILER", "TRASLOCO", "CRISI"]
    env = make([["SFRATTO"], full], expansion=True, deck=["LATTE_PIU"])
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 2")
    end_turn_no_responses(env, 0)
    act(env, "1 discard TRASLOCO", "1 play MACCHINA_DEL_TEMPO")  # TRASLOCO: discarded this turn
    end_turn_no_responses(env, 1)
    assert decider(env) == (1, "take") and legal(env) == {"take SFRATTO"}
    act(env, "1 take SFRATTO")
    d = env.to_dict()
    assert "SFRATTO" in d["hands"][1] and "TRASLOCO" in d["discard_pile"]
    assert decider(env) == (2, "draw")


# ---- catalogue (U30-U33) -------------------------------------------------------------------------------------
def test_U30_catalogue_composition_unique_ids_and_implemented_effects() -> None:
    cards = load_catalogue()
    base = [c for c in cards if c.set == "base"]
    assert Counter(c.kind for c in base) == {"POINTS": 49, "EVENT": 26, "RESPONSE": 22}
    assert len({c.id for c in cards}) == len({c.name for c in cards}) == len(cards) == 105
    assert {c.effect for c in cards} <= set(EFFECTS) and EFFECT_NAMES == list(EFFECTS)
    effects = Counter(c.effect for c in base)
    assert effects["skip_draw"] == 4 and effects["skip_main"] == 4 and effects["shield"] == 3
    hand_effects = ("discard_random", "draw_discard", "steal_random", "peek", "exchange_hands")
    assert sum(effects[e] for e in hand_effects) == 10 and effects["draw"] == 5
    assert effects["cancel_points"] == 6 and effects["cancel_event"] == 5
    assert effects["cancel_any"] == 4 and effects["double"] == 7
    one = sorted(c.amount for c in base if c.effect == "points_one")
    assert set(one) == {-5, -4, -3, -2, -1, 1, 2, 3, 4, 5}
    for effect in (
        "points_self_and_opponent",
        "points_opponents",
        "points_all",
        "points_gain_loss",
    ):
        assert effects[effect] >= 3
    assert any(c.effect == "points_all" and c.amount > 0 for c in base)
    assert any(c.effect == "points_all" and c.amount < 0 for c in base)
    by_name = {c.name: c for c in cards}
    named = {
        "Spoiler": ("points_self_and_opponent", -3),
        "Scorpacciata di orsetti gommosi": ("points_one", 1),
        "L'ammmore cosmico": ("points_self_and_opponent", 3),
        "Ti muore il pesce rosso": ("points_one", -1),
        "Talent Show": ("skip_main", 0),
        "Krampus alla gamba": ("draw_discard", 3),
        "C'è la crisi": ("draw_discard", 2),
        "Suspense!": ("cancel_points", 0),
        "Due di picche": ("cancel_any", 0),
        "Supposta di Wasabi": ("double", 0),
        "Latte +": ("double", 0),
    }
    for name, (effect, amount) in named.items():
        assert (by_name[name].effect, by_name[name].amount, by_name[name].set) == (
            effect,
            amount,
            "base",
        ), name


def test_U30_every_catalogue_card_is_played_and_resolved_by_the_engine() -> None:
    """Each of the 105 cards goes through play, targets and resolution (expansion on)."""
    for card in CATALOGUE:
        if card.kind == "RESPONSE":  # seat 1 answers seat 0's POINTS and EVENT cards with it
            hands = [["SFRATTO", "BLACKOUT"], [card.id], ["PISOLINO"]]
        else:
            fillers = [c for c in ("PISOLINO", "STIPENDIO", "CAFFE_AL_BAR") if c != card.id]
            hands = [[card.id], fillers[:1], fillers[1:2]]
        env = make(hands, expansion=True, seed=card.index)
        moves = 0
        while env.to_dict()["turn"] == 1:
            d = env.to_dict()
            seat, options = d["current_player"], sorted(legal(env))
            pick = next((o for o in options if o.startswith("play ")), options[0])
            if d["decision"] == "respond" and seat != 1:
                pick = "pass"
            if d["decision"] == "main" and d["played_count"] >= (
                2 if card.kind == "RESPONSE" else 1
            ):
                pick = "pass"
            act(env, f"{seat} {pick}")
            moves += 1
            assert moves < 40, card.id
        d = env.to_dict()
        assert card.id not in d["hands"][0 if card.kind != "RESPONSE" else 1] or (
            card.effect == "steal_played"
        ), card.id
        assert card.id in d["discard_pile"] + [c for t in d["table"] for c in t] + [
            c for h in d["hands"] for c in h
        ]


def test_U30_loader_refuses_unknown_effects_and_duplicates(tmp_path: Path) -> None:
    good = "{id: A, name: A, kind: POINTS, effect: points_one, amount: 1, set: base}"
    cases = {
        "{id: B, name: B, kind: POINTS, effect: explode, amount: 1, set: base}": "not implemented",
        "{id: A, name: C, kind: POINTS, effect: points_one, amount: 1, set: base}": "duplicate id",
        "{id: B, name: A, kind: POINTS, effect: points_one, amount: 1, set: base}": "duplicate name",
        "{id: B, name: B, kind: EVENT, effect: points_one, amount: 1, set: base}": "belongs to",
    }
    for line, message in cases.items():
        path = tmp_path / "cat.yaml"
        path.write_text(f"cards:\n  - {good}\n  - {line}\n")
        with pytest.raises(ConfigError, match=message):
            load_catalogue(path)


def test_U31_random_survive_game_with_4_players_lasts_tens_of_turns() -> None:
    engine = SuicidiumGame(num_players=4, mode="SURVIVE")
    turns = []
    for g in range(30):
        state = engine.new_game(np.random.default_rng(g))
        rng = np.random.default_rng(7000 + g)
        while not engine.is_over(state):
            acts = engine.legal_actions(state)
            engine.apply(state, acts[int(rng.integers(len(acts)))])
        turns.append(state.turn)
    assert 10 <= float(np.mean(turns)) < 100, turns
    assert max(turns) < 200


def test_U32_expansion_option_adds_the_8_party_cards() -> None:
    plain = SuicidiumGame(num_players=4)
    party = SuicidiumGame(num_players=4, expansion=True)
    extra = Counter(party.deck_codes()) - Counter(plain.deck_codes())
    assert sum(extra.values()) == 8
    cards = {c.id: c for c in CATALOGUE}
    assert Counter(cards[c].effect for c in extra) == {
        "recover": 1,
        "redirect": 4,
        "steal_played": 3,
    }
    names = {cards[c].name for c in extra}
    assert {"Macchina del tempo", "Strabismo di Venere", "All'arrembaggio"} <= names
    with pytest.raises(ConfigError, match="expansion"):
        envs.make("suicidium").reset(seed=0, options={"deck": ["ALL_ARREMBAGGIO"]})
    with pytest.raises(ConfigError, match="expansion"):
        SuicidiumGame(expansion="yes")


def test_U33_no_character_cards() -> None:
    assert {c.kind for c in load_catalogue()} == {"POINTS", "EVENT", "RESPONSE"}
    env = envs.make("suicidium", num_players=5, expansion=True)
    env.reset(seed=0)
    known = {c.id for c in CATALOGUE} | {"RAZOR", "NOOSE", "POISON", "BOOTH", "HARAKIRI"}
    assert set(env.game.deck_codes()) <= known
    assert not any("character" in c.name.lower() for c in CATALOGUE)


# ---- expansion objects and BOOTH (U35, U36) -------------------------------------------------------------
def test_U35_five_players_add_the_8_expansion_objects_fewer_never() -> None:
    env = envs.make("suicidium", num_players=5)
    env.reset(seed=0)
    objects = Counter(env.game.card_zones(env.state_obj)["object_pile"])
    assert objects == {"RAZOR": 5, "NOOSE": 5, "POISON": 5, "BOOTH": 1, "HARAKIRI": 5}
    for n in (2, 3, 4):
        engine = SuicidiumGame(num_players=n, expansion=True)
        assert "HARAKIRI" not in engine.deck_codes()
    env = make(
        [["SFRATTO"]],
        n=5,
        wp=[10, 4, 10, 10, 10],
        held=[[], ["HARAKIRI"], [], [], []],
        objects=["HARAKIRI"],
    )
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1")
    end_turn_no_responses(env, 0, n=5)
    assert env.to_dict()["in_game"][1] is False  # HARAKIRI is a type like the others
    assert object_matches([HARAKIRI], HARAKIRI) and not object_matches([RAZOR], HARAKIRI)


def test_U36_booth_matches_any_type() -> None:
    assert object_matches([], BOOTH) and object_matches([RAZOR, NOOSE], BOOTH)
    assert not object_matches([RAZOR], NOOSE)
    env = make([["SFRATTO"]], wp=[10, 5, 10], objects=["BOOTH"])
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1")
    end_turn_no_responses(env, 0)
    d = env.to_dict()
    assert d["in_game"] == [True, False, True] and d["objects"][1] == ["BOOTH"]
    env = make([["SFRATTO"]], mode="DEPRESSION", wp=[5, 10, 10], objects=["BOOTH"])
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 0")
    end_turn_no_responses(env, 0)
    assert env.to_dict()["winners"] == [0]


# ---- the contract pieces that belong to the rules file ---------------------------------------------------
def test_action_texts_and_errors() -> None:
    env = make([["SPOILER"]])
    assert env.parse_action("play SPOILER") == env.parse_action("PLAY spoiler")
    with pytest.raises(IllegalActionError, match="play SPOILER"):
        env.parse_action("play NO_SUCH_CARD")
    with pytest.raises(IllegalActionError) as err:
        env.step(env.parse_action("draw 7"))
    assert "draw" in str(err.value)
    with pytest.raises(ConfigError, match="mode"):
        envs.make("suicidium", mode="HAPPY")
    assert envs.make("suicidium", mode="depression").game.mode == 1


def test_every_rule_id_has_a_test() -> None:
    ids = set(re.findall(r"^\s*-?\s*(U\d+)\.", RULES_FILE.read_text(), flags=re.M))
    assert ids, "no rule ids found"
    names = {name.split("_")[1] for name in globals() if name.startswith("test_U")}
    assert ids <= names, f"rule ids without a test: {sorted(ids - names, key=lambda s: int(s[1:]))}"


def test_observation_shows_the_table_with_targets_and_hides_other_hands() -> None:
    from cardarena.envs.suicidium.encoding import (
        P_AIMS_AT_ME,
        P_HAND,
        P_RECIPIENT,
        P_RESPONSES_ON,
        P_WORKS,
        SEAT_BLOCK,
    )
    from cardarena.envs.suicidium.rules import ID_TO_CARD

    sfratto, suspense = ID_TO_CARD["SFRATTO"], ID_TO_CARD["SUSPENSE"]
    env = make([["SFRATTO"], ["SUSPENSE"], []])
    act(env, "0 draw 0", "0 play SFRATTO", "0 target 1", "0 pass")
    obs1 = env.observe("player_1")["observation"]
    obs2 = env.observe("player_2")["observation"]
    assert obs1[P_AIMS_AT_ME + sfratto] == 1 and obs2[P_AIMS_AT_ME + sfratto] == 0
    assert obs2[P_RECIPIENT + sfratto] == pytest.approx(2 / 5)
    assert obs2[SEAT_BLOCK * 1 + 6] == pytest.approx(-0.5)  # seat 1 would lose 5 WP
    assert obs1[P_HAND + suspense] == 1 and obs2[P_HAND + suspense] == 0  # only its own hand
    act(env, "1 play SUSPENSE", "1 on SFRATTO", "1 pass")
    obs2 = env.observe("player_2")["observation"]
    assert obs2[P_RESPONSES_ON + sfratto] == pytest.approx(1 / 3)
    assert obs2[P_WORKS + sfratto] == 0 and obs2[P_WORKS + suspense] == 1
    assert obs2[SEAT_BLOCK * 1 + 6] == 0


def test_a_discard_owed_after_the_active_player_went_out_in_its_own_resolution_round_trips():
    """U11 (settled): the cards of an active player eliminated during its own resolution still
    resolve; a discard they ask of another seat is a state ``from_dict`` reads back."""
    game = SuicidiumGame(3)
    options = {
        "hands": [["SPOILER", "CRISI"], ["PESCE_ROSSO"], ["CALZINO_SPAIATO"]],
        "wp": [3, 10, 10],
        "held": [["RAZOR", "NOOSE", "POISON"], [], []],
        "objects": ["BOOTH"],
    }
    state = game.new_game(np.random.default_rng(0), options)
    for text in ("draw 0", "play SPOILER", "target 1", "play CRISI", "target 2"):
        game.apply(state, game.parse_action(text))
    for _ in range(3):  # seat 0 ends its main phase; seats 1 and 2 do not respond
        game.apply(state, game.parse_action("pass"))
    assert state.alive == [False, True, True] and state.active == 0
    assert game.decision_name(state) == "discard" and state.decider == 2
    data = game.to_dict(state)
    assert game.to_dict(game.from_dict(data)) == data
    data["decision"] = "main"
    with pytest.raises(ConfigError, match="decider"):
        game.from_dict(data)
