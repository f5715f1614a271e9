"""thegame's reset options (``deck``, ``first_player``, ``piles``; ``docs/rules/thegame.md``): every
bad value is a ConfigError naming the option, on both cores and both env paths; valid scenarios
still deal what they say.

The options are read by ``TheGame.new_game``; the state they deal is then checked by
``from_dict`` (``envs/core/engine.py``'s guard), so a scenario is refused exactly where a saved
state with that content would be.
"""

from __future__ import annotations

import json
from typing import Any

import gymnasium
import numpy as np
import pytest

from cardarena import envs
from cardarena.envs.core import ConfigError
from cardarena.envs.thegame import rules
from cardarena.envs.thegame.native import NATIVE_BUILT, NativeThegameGame

CORES = [
    "python",
    pytest.param("native", marks=pytest.mark.skipif(not NATIVE_BUILT, reason="no build")),
]
ALL = [str(c) for c in rules.FULL_DECK]


def engine(core: str, n: int = 2, **options: Any) -> rules.TheGame:
    cls = rules.TheGame if core == "python" else NativeThegameGame
    return cls(n, **options)


def refusal(core: str, options: dict[str, Any], n: int = 2) -> str:
    with pytest.raises(ConfigError) as info:
        engine(core, n).new_game(np.random.default_rng(0), options)
    return str(info.value)


def saved(core: str, options: dict[str, Any], n: int = 2, **engine_options: Any) -> dict:
    game = engine(core, n, **engine_options)
    return game.to_dict(game.new_game(np.random.default_rng(0), options))


BAD_TYPES: list[Any] = [5, 2.5, "50", {"a": 1}, True, False]
BAD_CODES = ["²", "٣", "1", "100", "0", "-5", " 5", "05", "5 ", "BOGUS", "", "2.0"]


# ---- deck ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("value", BAD_TYPES + [[50], [2.5], [None], [True], [["50"]]])
def test_deck_of_a_wrong_type_is_refused(core: str, value: Any) -> None:
    assert "'deck'" in refusal(core, {"deck": value})


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("code", BAD_CODES)
def test_deck_with_an_unknown_or_non_ascii_code_is_refused(core: str, code: str) -> None:
    message = refusal(core, {"deck": ["50", code]})
    assert "'deck'" in message and "card 1" in message and repr(code) in message, message


@pytest.mark.parametrize("core", CORES)
def test_deck_with_a_card_more_often_than_the_deck_holds_it_is_refused(core: str) -> None:
    assert "'50'" in refusal(core, {"deck": ["50", "51", "50"]})
    assert "'2'" in refusal(core, {"deck": [*ALL, "2"]})  # 99 cards
    message = refusal(core, {"deck": ["60", "50"], "piles": [["50"], [], [], []]})
    assert "'deck'" in message and "'50'" in message and "pile 0" in message, message


# ---- first_player -------------------------------------------------------------------------------
@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("value", [-1, 2, 10**30, 1.0, "1", None, True, False, [0], {}])
def test_first_player_out_of_range_or_not_an_integer_is_refused(core: str, value: Any) -> None:
    assert "first_player" in refusal(core, {"first_player": value})


@pytest.mark.parametrize("core", CORES)
def test_first_player_is_a_seat_of_this_table(core: str) -> None:
    for n in range(1, 6):
        assert "first_player" in refusal(core, {"first_player": n}, n=n)
        assert saved(core, {"first_player": np.int64(n - 1)}, n=n)["current"] == n - 1


# ---- piles --------------------------------------------------------------------------------------
PILE_SHAPES: list[Any] = [
    *BAD_TYPES,
    "abcd",  # a string is no list of piles
    [[], [], []],  # three piles
    [[], [], [], [], []],  # five piles
    ["59", [], [], []],  # a pile given as a string (not the cards 5 and 9)
    [None, [], [], []],
    [5, [], [], []],
    [{"50": 1}, [], [], []],
    [[50], [], [], []],  # a card as an int: codes are strings, as in the deck
    [[2.5], [], [], []],
    [[None], [], [], []],
    [[True], [], [], []],
    [[["50"]], [], [], []],
]


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("value", PILE_SHAPES, ids=repr)
def test_piles_of_a_wrong_shape_or_type_are_refused(core: str, value: Any) -> None:
    assert "'piles'" in refusal(core, {"piles": value})


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("code", BAD_CODES)
def test_piles_with_an_unknown_or_non_ascii_code_are_refused(core: str, code: str) -> None:
    message = refusal(core, {"piles": [[], [], ["80", code], []]})
    assert "'piles'" in message and repr(code) in message, message


@pytest.mark.parametrize("core", CORES)
def test_a_card_twice_on_the_piles_is_refused(core: str) -> None:
    for piles in (
        [["50"], ["50"], [], []],
        [["50"], [], ["50"], []],
        [["2", "12", "2"], [], [], []],
    ):
        message = refusal(core, {"piles": piles})
        assert "'piles'" in message and "twice" in message, message


G5_BREAKS = [  # (piles, the pile that cannot take its card)
    ([["50", "45"], [], [], []], 0),  # a descending card on an ascending pile
    ([["50", "39"], [], [], []], 0),  # 11 below: only exactly 10 below goes back
    ([[], ["60", "70", "59"], [], []], 1),
    ([["20", "10", "12", "3"], [], [], []], 0),  # 9 below
    ([[], [], ["50", "55"], []], 2),  # an ascending card on a descending pile
    ([[], [], [], ["50", "61"]], 3),  # 11 above
    ([[], [], ["90", "80", "85", "95", "96"], []], 2),
]


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(("piles", "pile"), G5_BREAKS)
def test_a_card_on_a_pile_it_cannot_go_on_is_refused(core: str, piles: list, pile: int) -> None:
    message = refusal(core, {"piles": piles})
    assert "'piles'" in message and f"pile {pile}" in message and "G5" in message, message


# ---- unknown keys, the dict itself -----------------------------------------------------------------
@pytest.mark.parametrize("core", CORES)
def test_unknown_options_are_refused_with_the_known_ones(core: str) -> None:
    for options in ({"bogus": 1}, {"Deck": ["50"]}, {"piles ": None}, {"scores": [0, 0]}):
        message = refusal(core, options)
        assert all(known in message for known in ("deck", "first_player", "piles")), message
    with pytest.raises(ConfigError, match="dict"):
        engine(core).new_game(np.random.default_rng(0), ["deck"])  # type: ignore[arg-type]


# ---- valid options still deal what they say --------------------------------------------------------
@pytest.mark.parametrize("core", CORES)
def test_valid_scenarios_deal_what_they_say(core: str) -> None:
    deck = [str(c) for c in range(99, 1, -1)]  # the whole deck stacked, top first
    data = saved(core, {"deck": deck, "first_player": 1})
    assert data["hands"] == [sorted(deck[:7], key=int), sorted(deck[7:14], key=int)]
    assert data["draw_pile"] == deck[14:] and data["current"] == 1
    hand = saved(core, {"deck": tuple(deck[:3]), "piles": None})["hands"][0]
    assert hand[-3:] == ["97", "98", "99"]  # a tuple is a list of codes too
    # the backwards trick both ways (G5), several times on one pile
    piles = [["50", "40", "45", "35"], ["20", "10", "12", "2"], ["60", "70", "65", "75"], []]
    data = saved(core, {"piles": piles, "deck": ["3", "99"]})
    assert data["piles"] == piles and data["tops"] == [35, 2, 75, 100]
    assert "3" in data["hands"][0] and "99" in data["hands"][0]
    assert sum(map(len, data["hands"])) + len(data["draw_pile"]) == 98 - 12
    # nearly every card placed: short hands in seat order, no draw pile, the first seat plays
    rest = [c for c in ALL if c not in ("50", "51", "52", "53")]
    piles = [rest, [], [], []]
    data = saved(core, {"piles": piles, "first_player": 2}, n=3)
    assert [len(h) for h in data["hands"]] == [4, 0, 0] and data["draw_pile"] == []
    assert data["current"] == 0 and data["minimum"] == 1  # seat 2 holds nothing (G7)
    data = saved(core, {"piles": [ALL, [], [], []]}, n=4)  # every card placed: won at the deal
    assert data["winners"] == [0, 1, 2, 3] and data["over"] and data["decisions"] == 0


@pytest.mark.parametrize("core", CORES)
def test_a_scenario_saved_and_restored_plays_on(core: str) -> None:
    game = engine(core, 3, signals=True, min_cards_when_empty=2)
    piles = [["10", "20", "30"], [], ["90", "80"], ["95"]]
    state = game.new_game(np.random.default_rng(5), {"piles": piles, "first_player": 1})
    rng = np.random.default_rng(5)
    while not game.is_over(state):
        legal = game.legal_actions(state)
        game.apply(state, int(legal[rng.integers(len(legal))]))
        data = json.loads(json.dumps(game.to_dict(state)))
        assert game.to_dict(game.from_dict(data)) == data


# ---- the saved state's card codes: the same parser ----------------------------------------------------
@pytest.mark.parametrize("code", ["٣", "²", " 5", "05", 5])
def test_a_saved_state_with_a_code_that_is_not_one_is_refused(code: Any) -> None:
    game = rules.TheGame(2)
    data = game.to_dict(game.new_game(np.random.default_rng(0)))
    for field in ("hands", "draw_pile"):
        bad = json.loads(json.dumps(data))
        (bad[field][0] if field == "hands" else bad[field])[0] = code
        with pytest.raises(ConfigError, match=field):
            game.from_dict(bad)
    state = game.new_game(np.random.default_rng(0), {"piles": [["50"], [], [], []]})
    bad = game.to_dict(state)
    bad["piles"][0][0] = code
    with pytest.raises(ConfigError, match="piles"):
        game.from_dict(bad)


# ---- both env paths reach the same checks -------------------------------------------------------------
def reset_aec(options: dict[str, Any]) -> Any:
    env = envs.make("thegame", num_players=2)
    env.reset(seed=0, options=options)
    return env.unwrapped.to_dict()


def reset_gym(options: dict[str, Any]) -> Any:
    env = gymnasium.make("cardarena/thegame-v0", num_players=2)
    env.reset(seed=0, options=options)
    inner = env.unwrapped
    return inner.engine.to_dict(inner.state)


@pytest.mark.parametrize("reset", [reset_aec, reset_gym], ids=["aec", "gymnasium"])
def test_both_env_paths_refuse_and_accept_alike(reset: Any) -> None:
    for options, name in [
        ({"deck": ["٣"]}, "'deck'"),
        ({"deck": ["50", "50"]}, "'50'"),
        ({"first_player": 2}, "first_player"),
        ({"piles": [["50", "45"], [], [], []]}, "'piles'"),
        ({"piles": [[50], [], [], []]}, "'piles'"),
        ({"no_such_option": 1}, "no_such_option"),
    ]:
        with pytest.raises(ConfigError, match=name):
            reset(options)
    piles = [["50", "40"], [], ["60", "70"], []]
    data = reset({"piles": piles, "deck": ["41", "42"], "first_player": 1})
    assert data["piles"] == piles and data["current"] == 1
    assert {"41", "42"} <= set(data["hands"][0])
