"""suicidium's reset options (issue 36 item 3): every bad value is a ConfigError naming the option.

The options (``spec.reset_options``): ``deck``, ``objects``, ``hands``, ``wp``, ``held``,
``first_player`` (``envs/suicidium/rules.py``'s ``new_game``). Each is tried with values of the
wrong type, out of range, unknown and non-ASCII codes, more copies than the deck holds and what
the rules rule out (a hand above the 7 dealt, U4; a held pair or the BOOTH, U5/U36; expansion
cards or objects the game does not use, U32/U35); valid options still set the game up. Both env
paths (``envs.make`` and ``gymnasium.make``) reach the same checks.
"""

from __future__ import annotations

import re
from typing import Any

import gymnasium
import numpy as np
import pytest

from cardarena import envs
from cardarena.envs.core import ConfigError
from cardarena.envs.suicidium import rules

N = 3
ENGINE = rules.SuicidiumGame(num_players=N)
ACTIONS = [rules.CARD_IDS[c] for c in rules.BASE_DECK]
PARTY = rules.CARD_IDS[rules.PARTY_DECK[0]]
#: values of the wrong type for any option (None means "not given" and is allowed, but for
#: first_player)
WRONG_TYPES: list[Any] = [1, 2.5, "RAZOR", {"a": 1}, True, [1], [None], [[1]]]
CODES_BAD = ["BOGUS", "²", "٣", "", "1000"]


def refused(options: dict[str, Any], key: str, engine: rules.SuicidiumGame = ENGINE) -> str:
    with pytest.raises(ConfigError) as err:
        engine.new_game(np.random.default_rng(0), options)
    message = str(err.value)
    assert re.search(rf"\b{key}\b", message), (options, message)
    return message


def per_seat(first: Any) -> list[Any]:
    return [first] + [[] for _ in range(N - 1)]


BAD: dict[str, list[Any]] = {
    "deck": WRONG_TYPES[:6]
    + [[c] for c in CODES_BAD]
    + [
        [ACTIONS[0], ACTIONS[0]],  # a unique card twice
        ["RAZOR"] * 5,  # four RAZORs in the object deck
        ["BOOTH", "BOOTH"],
        ["HARAKIRI"],  # U35: only in a 5-player game
        [PARTY],  # U32: only with expansion=True
    ],
    "objects": WRONG_TYPES[:6]
    + [[c] for c in CODES_BAD]
    + [["RAZOR"] * 5, ["BOOTH", "BOOTH"], ["HARAKIRI"], [ACTIONS[0]]],
    "hands": WRONG_TYPES
    + [
        [[], []],  # one seat short
        [[] for _ in range(N + 1)],
        per_seat(None),
        per_seat("abc"),
        per_seat({"x": 1}),
        per_seat([1]),
        *[per_seat([c]) for c in CODES_BAD],
        per_seat(["RAZOR"]),  # an object is not an action card
        per_seat([PARTY]),
        [[ACTIONS[0]], [ACTIONS[0]], []],  # dealt twice
        per_seat(ACTIONS[:8]),  # U4: 7 cards are dealt
        per_seat(ACTIONS[:30]),
    ],
    "wp": WRONG_TYPES
    + [
        [0] * N,
        [11] * N,
        [-1] * N,
        [10**30] * N,
        [5] * (N - 1),
        [5] * (N + 1),
        [True] * N,
        [2.5] * N,
        ["3"] * N,
        [None] * N,
    ],
    "held": WRONG_TYPES
    + [
        [[], []],
        per_seat(None),
        per_seat("RAZOR"),
        *[per_seat([c]) for c in CODES_BAD],
        per_seat([ACTIONS[0]]),
        per_seat(["RAZOR", "RAZOR"]),  # U5: a pair would have ended the seat's game
        per_seat(["BOOTH"]),  # U36: the BOOTH matches every type
        per_seat(["HARAKIRI"]),  # U35
    ],
    "first_player": [None, 1.5, "1", True, [], {}, -1, N, 10**30],
}


@pytest.mark.parametrize("key", list(BAD))
def test_bad_values_are_refused_naming_the_option(key: str) -> None:
    for value in BAD[key]:
        refused({key: value}, key)


def test_more_objects_than_the_deck_holds_are_refused() -> None:
    held = [["RAZOR"], ["RAZOR"], ["RAZOR"]]
    refused({"held": held, "objects": ["RAZOR", "RAZOR"]}, "objects")
    refused({"held": held, "deck": ["RAZOR", "RAZOR"]}, "objects")


def test_a_card_in_a_hand_and_stacked_on_the_deck_is_refused() -> None:
    refused({"hands": per_seat([ACTIONS[0]]), "deck": [ACTIONS[0]]}, "deck")


def test_the_five_player_game_takes_the_expansion_objects_and_the_expansion_its_cards() -> None:
    five = rules.SuicidiumGame(num_players=5)
    state = five.new_game(np.random.default_rng(0), {"objects": ["HARAKIRI"] * 5})
    assert state.object_pile[-5:] == [rules.HARAKIRI] * 5
    refused({"objects": ["HARAKIRI"] * 6}, "objects", five)
    party = rules.SuicidiumGame(num_players=N, expansion=True)
    state = party.new_game(np.random.default_rng(0), {"deck": [PARTY]})
    assert state.hands[0][0] == rules.ID_TO_CARD[PARTY]


def test_valid_options_set_the_game_up() -> None:
    options = {
        "deck": [ACTIONS[20], "noose"],
        "objects": ["POISON"],
        "hands": [ACTIONS[:7], ACTIONS[7:9], []],
        "wp": [3, 10, 1],
        "held": [["RAZOR"], [], ["NOOSE", "POISON"]],
        "first_player": np.int64(1),
    }
    state = ENGINE.new_game(np.random.default_rng(0), options)
    data = ENGINE.to_dict(state)
    assert data["hands"] == [ACTIONS[:7], ACTIONS[7:9], []]
    assert data["wp"] == [3, 10, 1] and data["active"] == 1
    assert state.draw_pile[-1] == rules.ID_TO_CARD[ACTIONS[20]]
    assert state.object_pile[-2:] == [rules.NOOSE, rules.POISON]  # POISON on top, then NOOSE
    assert state.objects == [[rules.RAZOR], [], [rules.NOOSE, rules.POISON]]
    assert ENGINE.to_dict(ENGINE.from_dict(data)) == data
    for key in BAD:  # None: the option is not given (but for first_player)
        if key != "first_player":
            ENGINE.new_game(np.random.default_rng(0), {key: None})
    stacked = ENGINE.new_game(np.random.default_rng(0), {"deck": ACTIONS[:21]})
    assert ENGINE.to_dict(stacked)["hands"] == [ACTIONS[:7], ACTIONS[7:14], ACTIONS[14:21]]


PATHS = {
    "aec": lambda: envs.make("suicidium", num_players=N),
    "gymnasium": lambda: gymnasium.make(
        "cardarena/suicidium-v0", num_players=N, opponents="random"
    ),
}


@pytest.mark.parametrize("path", list(PATHS))
def test_both_env_paths_refuse_and_accept_the_same(path: str) -> None:
    env = PATHS[path]()
    for key, value in [
        ("hands", per_seat(ACTIONS[:30])),
        ("deck", ["²"]),
        ("held", per_seat(["RAZOR", "RAZOR"])),
        ("wp", [0] * N),
        ("first_player", N),
        ("objects", 1),
    ]:
        with pytest.raises(ConfigError, match=rf"\b{key}\b"):
            env.reset(seed=0, options={key: value})
    env.reset(seed=0, options={"hands": [ACTIONS[:2], ACTIONS[2:3], []], "wp": [5, 5, 5]})
    env.reset(seed=0)
