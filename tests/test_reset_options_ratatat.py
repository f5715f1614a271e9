"""ratatat's reset options (``deck``, ``scores``, ``dealer``, ``round_index``; issue 36, item 3):
every bad value is a ConfigError naming the option, on both env paths, with the refusals of
``from_dict`` (one checker); valid scenarios still deal as asked."""

from __future__ import annotations

from collections import Counter
from typing import Any

import gymnasium
import numpy as np
import pytest

from cardarena import envs
from cardarena.envs.core import ConfigError
from cardarena.envs.ratatat.rules import DECK_COUNTS, RatatatGame

N = 3  # players: 3 rounds, totals up to 36 x 3 from the scores option
NOT_INT: list[Any] = [2.5, "9", {"a": 1}, True, False]  # an int, float, str, dict, bool
BAD_TYPES: list[Any] = [1, *NOT_INT]


def deal(options: dict[str, Any], n: int = N, **engine: Any) -> dict[str, Any]:
    game = RatatatGame(num_players=n, **engine)
    return game.to_dict(game.new_game(np.random.default_rng(0), options))


def refused(option: str, value: Any, match: str | None = None, n: int = N) -> str:
    with pytest.raises(ConfigError) as err:
        deal({option: value}, n)
    message = str(err.value)
    assert option in message, message
    if match:
        assert match in message, message
    return message


# ---- deck ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", [*BAD_TYPES, [1], [None], [True], [2.5], [["9"]], [{"9": 1}]])
def test_deck_of_another_type_is_refused(value: Any) -> None:
    refused("deck", value)


@pytest.mark.parametrize("code", ["²", "٣", "BOGUS", "10", "", "9 9", "SWAPS", "-1", "DRAW2"])
def test_deck_with_an_unknown_or_non_ascii_code_is_refused(code: str) -> None:
    refused("deck", ["9", code], match=repr(code))


@pytest.mark.parametrize(
    "code, count", [("0", 5), ("8", 5), ("9", 10), ("SWAP", 10), ("PEEK", 8), ("DRAW_TWO", 6)]
)
def test_deck_with_a_card_more_often_than_the_deck_holds_it_is_refused(
    code: str, count: int
) -> None:
    refused("deck", [code] * count, match="more copies")


def test_a_deck_longer_than_the_deck_is_refused() -> None:
    full = [
        code
        for code, n in zip(RatatatGame().card_codes, DECK_COUNTS, strict=True)
        for _ in range(n)
    ]
    deal({"deck": full})  # all 66 cards, in any order, is a deal (R1, R2)
    refused("deck", [*full, "0"], match="more copies")


def test_valid_decks_deal_as_stacked() -> None:
    rows = ["1", "2", "3", "4", "5", "6", "7", "8", "0", "SWAP", "9", "PEEK"]
    d = deal({"deck": [*rows, "DRAW_TWO", "5"], "dealer": 0})
    assert d["rows"] == [rows[8:12], rows[0:4], rows[4:8]]  # from left of the dealer (R3)
    assert d["discard_pile"] == ["DRAW_TWO"] and d["draw_pile"][0] == "5"
    assert deal({"deck": ["9"] * 9})["rows"][1] == ["9"] * 4
    assert deal({"deck": []}) == deal({})  # nothing stacked: the seeded shuffle
    assert deal({"deck": None}) == deal({})  # None is "not given"
    assert deal({"deck": ["swap", " 9 "]})["rows"][1][:2] == ["SWAP", "9"]  # codes as parse_action


# ---- scores ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "value",
    [*BAD_TYPES, [1, 2], [1, 2, 3, 4], [1.5, 0, 0], ["1", 0, 0], [None, 0, 0], [True, 0, 0], {}],
)
def test_scores_of_another_type_or_length_are_refused(value: Any) -> None:
    refused("scores", value)


@pytest.mark.parametrize("total", [-1, -(10**6), 36 * N + 1, 4_000_000_000, 10**30])
def test_scores_out_of_range_are_refused(total: int) -> None:
    refused("scores", [0, total, 0])


def test_valid_scores_start_the_game() -> None:
    assert deal({"scores": [5, 0, 2]})["scores"] == [5, 0, 2]
    assert deal({"scores": [36 * N, 0, 36 * N]})["scores"] == [36 * N, 0, 36 * N]
    top = 36 * 2  # with 2 rounds a total can start at 72, whatever round the game starts in
    assert deal({"scores": [top, 1, 2], "round_index": 1}, num_rounds=2)["scores"] == [top, 1, 2]
    with pytest.raises(ConfigError, match="scores"):
        deal({"scores": [top + 1, 1, 2]}, num_rounds=2)


def test_a_game_started_from_high_scores_plays_to_the_end_and_restores() -> None:
    """A total from the option plus the rounds played can pass 36 a round (R15): every state of
    such a game still restores."""
    game = RatatatGame(num_players=2, num_rounds=2)
    state = game.new_game(np.random.default_rng(3), {"scores": [72, 70]})
    rng = np.random.default_rng(0)
    while not game.is_over(state):
        legal = game.legal_actions(state)
        game.apply(state, int(legal[rng.integers(len(legal))]))
        assert game.to_dict(game.from_dict(game.to_dict(state))) == game.to_dict(state)
    assert min(state.scores) >= 70


# ---- dealer ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", [*NOT_INT, None, [0], 1.0])
def test_dealer_of_another_type_is_refused(value: Any) -> None:
    refused("dealer", value)


@pytest.mark.parametrize("seat", [-1, N, 6, 10**30])
def test_dealer_out_of_range_is_refused(seat: int) -> None:
    refused("dealer", seat)


def test_valid_dealers_start_left_of_them() -> None:
    for dealer in range(N):
        d = deal({"dealer": dealer})
        assert d["dealer"] == dealer and d["decider"] == (dealer + 1) % N  # R5


# ---- round_index -----------------------------------------------------------------------------------
@pytest.mark.parametrize("value", [*NOT_INT, None, [0], 1.0])
def test_round_index_of_another_type_is_refused(value: Any) -> None:
    refused("round_index", value)


@pytest.mark.parametrize("index", [-1, N, 10**30])
def test_round_index_out_of_range_is_refused(index: int) -> None:
    refused("round_index", index)  # 0-based, under num_rounds


def test_valid_round_index_starts_that_round() -> None:
    d = deal({"round_index": N - 1, "scores": [3, 2, 1]})
    assert d["round_index"] == N - 1 and d["round_scores"] == [] and d["scores"] == [3, 2, 1]


# ---- both env paths --------------------------------------------------------------------------------
PATHS = {
    "aec": lambda: envs.make("ratatat", num_players=N),
    "gymnasium": lambda: gymnasium.make("cardarena/ratatat-v0", num_players=N, opponents="random"),
}
BAD = [
    ({"deck": ["²"]}, "deck"),
    ({"deck": ["8"] * 5}, "deck"),
    ({"deck": 7}, "deck"),
    ({"scores": [10**30, 0, 0]}, "scores"),
    ({"scores": [1, 2]}, "scores"),
    ({"dealer": N}, "dealer"),
    ({"dealer": True}, "dealer"),
    ({"round_index": N}, "round_index"),
    ({"Deck": ["9"]}, "Deck"),
]


@pytest.mark.parametrize("path", sorted(PATHS))
def test_both_env_paths_refuse_the_same_options(path: str) -> None:
    for options, name in BAD:
        with pytest.raises(ConfigError, match=name) as err:
            PATHS[path]().reset(seed=0, options=options)
        with pytest.raises(ConfigError) as again:
            PATHS["aec"]().reset(seed=0, options=options)
        assert str(err.value) == str(again.value)


@pytest.mark.parametrize("path", sorted(PATHS))
def test_both_env_paths_take_valid_options(path: str) -> None:
    env = PATHS[path]()
    deck = ["1", "2", "3", "4", "5", "6", "7", "8", "0", "0", "9", "9", "5"]
    env.reset(seed=0, options={"deck": deck, "scores": [1, 2, 3], "dealer": 2, "round_index": 1})
    raw = env.unwrapped
    d = raw.to_dict() if hasattr(raw, "to_dict") else raw.table.engine.to_dict(raw.table.state)
    assert d["scores"] == [1, 2, 3] and d["dealer"] == 2 and d["round_index"] == 1
    assert Counter(c for row in d["rows"] for c in row) == Counter(deck[:12])
