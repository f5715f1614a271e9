"""flip6's reset options (``deck``, ``scores``, ``dealer``; docs/rules/flip6.md): every bad value
is a ConfigError naming the option, on both env paths and both cores, and valid ones still deal
the game they describe.

The options are read by ``Flip6Game.new_game``; the state they deal must pass ``from_dict`` (the
one checker of saved states and scenarios, ``envs/core/engine.py``), so a scenario no game
reaches is refused like the saved state with that content would be.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

from cardarena import envs
from cardarena.envs.core import ConfigError
from cardarena.envs.flip6.native import NATIVE_BUILT

NOT_BUILT = pytest.mark.skipif(not NATIVE_BUILT, reason="the flip6 native core is not built")
#: both engines read the options through the Python engine's new_game and from_dict
CORES = ["python", pytest.param("native", marks=NOT_BUILT)]

#: values of the wrong type for every option (the first, an int, is a fine dealer)
WRONG_TYPES: list[Any] = [1, 2.5, "5", {}, True, float("nan")]


def reset(options: Any, core: str = "python", n: int = 4, **engine: Any) -> Any:
    env = envs.make("flip6", num_players=n, core=core, **engine)
    env.reset(seed=0, options=options)
    return env


def refused(options: Any, match: str, core: str = "python", n: int = 4, **engine: Any) -> str:
    with pytest.raises(ConfigError, match=match) as err:
        reset(options, core, n, **engine)
    return str(err.value)


# ---- deck -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    "deck",
    [
        *WRONG_TYPES,
        "ZERO",  # a code, not a list of codes
        [5],
        [None],
        ["5", 5],
        [["5"]],
        [True],
    ],
    ids=repr,
)
def test_deck_of_the_wrong_type_is_refused(deck: Any, core: str) -> None:
    refused({"deck": deck}, "'deck'", core)


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("code", ["²", "٣", "５", "ZERO\u00a0", "BOGUS", "0", "7", "", "FLIP 3"])
def test_deck_with_an_unknown_or_non_ascii_code_is_refused(code: str, core: str) -> None:
    """F1, F2: the codes of the rules; a digit of another script is no card."""
    message = refused({"deck": ["5", code]}, "'deck'", core)
    assert repr(code) in message and "known codes" in message


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    "deck",
    [
        ["ZERO", "ZERO"],
        ["1", "1"],
        ["2", "2", "2"],
        ["6"] * 7,
        ["FREEZE", "FREEZE"],
        ["EXTRA_LIFE", "5", "EXTRA_LIFE"],
        ["freeze", "FREEZE"],  # the same card twice, whatever its case
        ["5"] * 6,
        ["1", "2", "3", "4", "5", "6"] * 5,  # more cards than the deck
    ],
    ids=lambda d: "+".join(d)[:40],
)
def test_deck_asking_for_more_copies_than_the_deck_holds_is_refused(
    deck: list[str], core: str
) -> None:
    """F1: n copies of n; F2: one of each special card."""
    refused({"deck": deck}, "deck", core)


# ---- scores -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    "scores",
    [
        *WRONG_TYPES,
        [0, 0, 0],  # a seat short
        [0, 0, 0, 0, 0],  # a seat too many
        [-1, 0, 0, 0],
        [1.0, 0, 0, 0],
        [2.5, 0, 0, 0],
        ["1", 0, 0, 0],
        [None, 0, 0, 0],
        [True, 0, 0, 0],
        [float("nan"), 0, 0, 0],
        [[1], 0, 0, 0],
    ],
    ids=repr,
)
def test_scores_of_the_wrong_type_or_length_are_refused(scores: Any, core: str) -> None:
    refused({"scores": scores}, "scores", core)


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    "scores,target",
    [([60, 0, 0, 0], 60), ([0, 0, 0, 61], 60), ([0, 10**30, 0, 0], 60), ([0, 0, 30, 0], 30)],
    ids=repr,
)
def test_scores_at_the_target_are_refused(scores: list[int], target: int, core: str) -> None:
    """F17: a total at the target has ended the game, so no running game holds one."""
    message = refused({"scores": scores}, "'scores'", core, target_score=target)
    assert f"[0, {target - 1}]" in message


# ---- dealer -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    "dealer", [*WRONG_TYPES[1:], None, [], 3.0, -1, 4, 6, 10**30, -(10**30)], ids=repr
)
def test_dealer_of_the_wrong_type_or_out_of_range_is_refused(dealer: Any, core: str) -> None:
    """F4: the dealer is a seat of the table."""
    refused({"dealer": dealer}, "dealer", core)


def test_dealer_is_a_seat_of_this_table() -> None:
    refused({"dealer": 3}, "dealer", n=3)
    assert reset({"dealer": 5}, n=6).state_obj.dealer == 5


# ---- keys and the options themselves ----------------------------------------------------------------
@pytest.mark.parametrize("key", ["bogus", "Deck", "num_players", "target_score", "hands", "seed"])
def test_an_unknown_key_is_refused_with_the_known_ones(key: str) -> None:
    message = refused({key: 1}, "unknown reset option")
    assert repr(key) in message and "['deck', 'scores', 'dealer']" in message


@pytest.mark.parametrize("options", [[("deck", ["5"])], "deck", 3])
def test_options_that_are_not_a_dict_are_refused(options: Any) -> None:
    refused(options, "dict")


# ---- valid options still work -----------------------------------------------------------------------
@pytest.mark.parametrize("core", CORES)
def test_valid_options_deal_the_game_they_describe(core: str) -> None:
    """F4/F5: the deal starts left of the dealer, from the top of the stacked deck."""
    env = reset({"deck": ["6", "6", "5", "ZERO"], "scores": [59, 0, 12, 3], "dealer": 2}, core)
    d = env.unwrapped.to_dict()
    assert d["dealer"] == 2 and d["scores"] == [59, 0, 12, 3]
    assert d["table"] == [["6"], ["5"], ["ZERO"], ["6"]]  # seats 3, 0, 1, 2
    assert d["decision"] == "turn" and d["decider"] == 3


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    "options",
    [
        {"deck": ["6"] * 6},
        {"deck": ("FLIP3", "5")},
        {"deck": ["freeze"]},  # the parser's case-insensitive form
        {"deck": [" 5 ", "DOUBLE"]},
        {"deck": []},
        {"deck": None},
        {"scores": None},
        {"scores": (0, 0, 0, 0)},
        {"scores": [np.int64(59), 0, 0, 0]},
        {"dealer": np.int64(3)},
        {"dealer": 0, "scores": [0, 0, 0, 0], "deck": []},
        {},
    ],
    ids=repr,
)
def test_valid_options_are_accepted(options: dict[str, Any], core: str) -> None:
    env = reset(options, core)
    game = env.unwrapped.game
    state = env.state_obj
    assert game.to_dict(game.from_dict(game.to_dict(state))) == game.to_dict(state)


def test_every_card_of_the_deck_stacked_in_any_order_is_accepted() -> None:
    """F3: any order of the 26 cards is a shuffle; the deal draws from its top (F5)."""
    deck = envs.get_spec("flip6").make_engine().deck_codes()
    for seed in range(20):
        order = [deck[i] for i in np.random.default_rng(seed).permutation(len(deck))]
        d = reset({"deck": order, "dealer": seed % 4}).unwrapped.to_dict()
        assert d["draw_pile"] == order[len(order) - len(d["draw_pile"]) :]


# ---- the other env path --------------------------------------------------------------------------
def test_the_gymnasium_path_refuses_and_accepts_the_same_options() -> None:
    env = gymnasium.make("cardarena/flip6-v0")
    for options, match in [
        ({"deck": ["²"]}, "'deck'"),
        ({"deck": ["6"] * 7}, "deck"),
        ({"scores": [60, 0, 0, 0]}, "'scores'"),
        ({"scores": [0, 0, 0]}, "scores"),
        ({"dealer": 4}, "dealer"),
        ({"dealer": "1"}, "dealer"),
        ({"bogus": 1}, "unknown reset option"),
    ]:
        with pytest.raises(ConfigError, match=match):
            env.reset(seed=0, options=options)
    _, info = env.reset(seed=0, options={"deck": ["6", "6", "5", "ZERO"], "dealer": 2})
    assert "action_mask" in info
