"""sevn's reset options (``deck``, ``scores``, ``dealer``; docs/rules/sevn.md): every bad value is a
ConfigError naming the option, on the engine (both cores) and on both env paths, and the good
ones still set up the game they ask for.

The state the options deal is checked by ``from_dict``'s own checker (``envs/core/engine.py``'s
guard), so an option is refused exactly where a saved state with that content would be.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import gymnasium
import numpy as np
import pytest

import cardarena.agents.gym_env  # noqa: F401  (registers the gymnasium ids)
from cardarena import envs
from cardarena.envs.core import ConfigError
from cardarena.envs.sevn.native import NATIVE_BUILT
from cardarena.envs.sevn.rules import CARD_CODES, DECK_COUNTS

CORES = [
    "python",
    pytest.param("native", marks=pytest.mark.skipif(not NATIVE_BUILT, reason="no native core")),
]
N = 3  #: players of the engine tests


def engine(core: str, **options: Any) -> Any:
    return envs.get_spec("sevn").make_engine(core=core, num_players=N, **options)


def refused(core: str, options: dict[str, Any], match: str, **engine_options: Any) -> str:
    with pytest.raises(ConfigError, match=match) as err:
        engine(core, **engine_options).new_game(np.random.default_rng(0), options)
    return str(err.value)


# ---- bad types --------------------------------------------------------------------------------
NOT_A_LIST = [1, 2.5, "5", {"5": 1}, True, False, float("nan")]


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("bad", NOT_A_LIST, ids=repr)
def test_a_deck_that_is_not_a_list_of_codes_is_refused(core: str, bad: Any) -> None:
    refused(core, {"deck": bad}, "deck")


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("bad", [[5], [2.5], [None], [True], [{}], [["5"]], ["5", 7]], ids=repr)
def test_a_deck_item_that_is_not_a_code_string_is_refused(core: str, bad: Any) -> None:
    refused(core, {"deck": bad}, "deck")


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("bad", NOT_A_LIST + [None], ids=repr)
def test_scores_that_are_not_a_list_are_refused(core: str, bad: Any) -> None:
    if bad is None:  # None is the default: everybody at 0
        game = engine(core)
        state = game.new_game(np.random.default_rng(0), {"scores": None})
        assert game.to_dict(state)["scores"] == [0] * N
        return
    refused(core, {"scores": bad}, "scores")


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    "bad",
    [[2.5, 0, 0], ["1", 0, 0], [None, 0, 0], [True, 0, 0], [float("nan"), 0, 0], [[1], 0, 0]],
    ids=repr,
)
def test_scores_of_the_wrong_type_are_refused(core: str, bad: Any) -> None:
    refused(core, {"scores": bad}, "scores")


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("bad", [1.0, 2.5, "1", {}, [1], None, True, False], ids=repr)
def test_a_dealer_of_the_wrong_type_is_refused(core: str, bad: Any) -> None:
    refused(core, {"dealer": bad}, "dealer")


# ---- out of range -----------------------------------------------------------------------------
@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("bad", [-1, N, 10**30, -(10**30)])
def test_a_dealer_out_of_range_is_refused(core: str, bad: int) -> None:
    refused(core, {"dealer": bad}, "dealer")


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    "bad",
    [[0, 0], [0, 0, 0, 0], [], [-1, 0, 0], [0, -(10**6), 0], [10**30, 10**30, 0], [10**8] * 3],
    ids=repr,
)
def test_scores_out_of_range_or_of_the_wrong_length_are_refused(core: str, bad: Any) -> None:
    refused(core, {"scores": bad}, "scores")


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("scores", [[250, 0, 0], [0, 0, 300], [10**6, 0, 5], [251, 250, 0]])
def test_a_game_already_won_is_refused(core: str, scores: list[int]) -> None:
    """S27: one seat alone at the top at or past the target would have won before this hand."""
    message = refused(core, {"scores": scores}, "scores")
    assert "250" in message


# ---- card codes -------------------------------------------------------------------------------
@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    "code", ["²", "٣", "١", "\u017fTORM", "x\u00b2", "BOGUS", "14", "-1", "", "+0"]
)
def test_unknown_and_non_ascii_card_codes_are_refused(core: str, code: str) -> None:
    message = refused(core, {"deck": ["5", code]}, "deck")
    assert repr(code) in message and "'deck'[1]" in message


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("code", sorted(set(CARD_CODES)))
def test_a_card_more_often_than_the_deck_holds_it_is_refused(core: str, code: str) -> None:
    copies = DECK_COUNTS[CARD_CODES.index(code)]
    refused(core, {"deck": [code] * (copies + 1)}, "deck")
    state = engine(core).new_game(np.random.default_rng(0), {"deck": [code] * copies})
    assert state is not None  # every copy the deck holds is fine


# ---- valid options still work -----------------------------------------------------------------
@pytest.mark.parametrize("core", CORES)
def test_valid_options_set_up_the_game(core: str) -> None:
    game = engine(core)
    state = game.new_game(
        np.random.default_rng(0),
        {"deck": ["5", "6", "7"], "scores": [10, 20, 30], "dealer": np.int64(2)},
    )
    data = game.to_dict(state)
    assert data["dealer"] == 2 and data["scores"] == [10, 20, 30]
    assert data["table"] == [["5"], ["6"], ["7"]]  # dealt from the left of the dealer (S7)
    assert Counter(c for zone in game.card_zones(state).values() for c in zone) == Counter(
        game.deck_codes()
    )


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(
    "scores", [[249, 0, 0], [300, 300, 0], [10**7, 10**7, 5], [0, 0, 0], (1, 2, 3)], ids=repr
)
def test_totals_below_the_target_or_tied_at_the_top_are_kept(core: str, scores: Any) -> None:
    game = engine(core)
    state = game.new_game(np.random.default_rng(1), {"scores": scores})
    before = list(scores)
    after = game.to_dict(state)["scores"]  # the deal may bank nothing yet: at least the totals
    assert all(a >= b for a, b in zip(after, before, strict=True))


@pytest.mark.parametrize("core", CORES)
def test_a_stacked_deck_of_action_cards_deals_its_decisions(core: str) -> None:
    game = engine(core)
    state = game.new_game(np.random.default_rng(0), {"deck": ["FORK", "2", "3"], "dealer": 0})
    data = game.to_dict(state)
    assert data["decision"] == "fork" and data["decider"] == 1 and data["set_aside"] == ["2", "3"]


@pytest.mark.parametrize("core", CORES)
def test_lenient_codes_of_the_parser_still_work(core: str) -> None:
    game = engine(core)
    state = game.new_game(np.random.default_rng(0), {"deck": ["x2", " 5 ", "-2"], "dealer": 2})
    assert game.to_dict(state)["table"][0] == ["x2"]


# ---- both env paths ---------------------------------------------------------------------------
def _aec() -> Any:
    return envs.make("sevn", num_players=N)


def _gym() -> Any:
    return gymnasium.make("cardarena/sevn-v0", num_players=N)


@pytest.mark.parametrize("make", [_aec, _gym], ids=["aec", "gymnasium"])
@pytest.mark.parametrize(
    "options, match",
    [
        ({"bogus": 1}, "bogus.*deck"),
        ({"é": 1}, "deck"),
        ({"deck": ["²"]}, "deck"),
        ({"deck": "5"}, "deck"),
        ({"deck": ["0", "0"]}, "deck"),
        ({"scores": [10**30, 0, 0]}, "scores"),
        ({"scores": [300, 0, 0]}, "scores"),
        ({"scores": [1, 2]}, "scores"),
        ({"dealer": 5}, "dealer"),
        ({"dealer": "0"}, "dealer"),
    ],
    ids=repr,
)
def test_both_env_paths_refuse_bad_options(make: Any, options: dict[str, Any], match: str) -> None:
    env = make()
    with pytest.raises(ConfigError, match=match):
        env.reset(seed=0, options=options)
    env.reset(seed=0, options={"deck": ["5", "6", "7"], "scores": [1, 2, 3], "dealer": 1})


def test_the_aec_env_deals_what_the_options_ask() -> None:
    env = _aec()
    env.reset(seed=0, options={"deck": ["5", "6", "7"], "scores": [1, 2, 3], "dealer": 1})
    data = env.to_dict()
    assert data["dealer"] == 1 and data["scores"] == [1, 2, 3]
    assert data["table"] == [["6"], ["7"], ["5"]]  # seat 2 first, left of dealer 1 (S7)
