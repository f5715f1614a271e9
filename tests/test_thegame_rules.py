"""Stacked-deck scenario tests for every rule id G1-G11 of ``docs/rules/thegame.md``.

Each test is named after the rule id it checks (``test_G5_...``). Scenarios stack the deck with
``reset(options={"deck": [...]})`` (hands in seat order from seat 0, a full hand each, then the
draw pile, top first) and, for end-game positions, place cards beforehand with the ``piles``
reset option. Moves are written ``"SEAT ACTION"`` (``"0 play 37 2"``, ``"1 end"``,
``"0 signal 1 wait"``); every move checks that SEAT holds the decision and that no card was lost.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from scenario import act, play, rewards

import cardarena.envs.thegame as thegame
from cardarena import envs
from cardarena.envs.core import CardGameEnv, ConfigError, IllegalActionError
from cardarena.envs.thegame.rules import END, NUM_ACTIONS, SIGNAL0, TheGame, play_action

ALL = list(range(2, 100))


# ---- helpers --------------------------------------------------------------------------------------
def codes(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def legal_texts(env: CardGameEnv) -> set[str]:
    return {env.describe_action(a) for a in env.legal_actions()}


def make(
    deck: list[Any] | None = None,
    n: int = 1,
    piles: list[list[int]] | None = None,
    seed: int = 0,
    first_player: int | None = None,
    **options: Any,
) -> CardGameEnv:
    env = thegame.env(num_players=n, **options)
    reset_options: dict[str, Any] = {"deck": codes(deck or [])}
    if piles is not None:
        reset_options["piles"] = [codes(p) for p in piles]
    if first_player is not None:
        reset_options["first_player"] = first_player
    env.reset(seed=seed, options=reset_options)
    assert env.game.conservation_error(env.state_obj) is None
    return env


def hand(env: CardGameEnv, seat: int) -> list[int]:
    return [int(c) for c in env.to_dict()["hands"][seat]]


# End-game board of G9: pile 0 high, piles 2/3 low, so 40..46 fit nowhere but on pile 1.
#   pile 0 up: 47..91 (top 91)   pile 2 down: 99, 39..20 (top 20)   pile 3 down: 19..2 (top 2)
# It leaves 40..46 and 92..98.
BLOCKED = [list(range(47, 92)), [], [99, *range(39, 19, -1)], list(range(19, 1, -1))]
# The same with pile 1 at 97 and 2..4 left in the draw pile: it leaves 40..46, 98 and 2, 3, 4.
STUCK = [BLOCKED[0], list(range(92, 98)), BLOCKED[2], list(range(19, 4, -1))]


# ---- G1 ----------------------------------------------------------------------------------------
def test_G1_deck_is_98_numbers_and_four_foundations() -> None:
    game = TheGame(num_players=3)
    assert game.deck_codes() == codes(ALL)
    env = make([], n=3)
    d = env.to_dict()
    assert d["tops"] == [1, 1, 100, 100]
    assert d["piles"] == [[], [], [], []]
    zones = env.game.card_zones(env.state_obj)
    assert sorted(int(c) for cards in zones.values() for c in cards) == ALL
    for bad in (["1"], ["100"], ["0"], ["x"], ["2", "2"]):
        with pytest.raises(ConfigError):
            env.reset(seed=0, options={"deck": bad})


def test_G1_piles_0_and_1_ascend_piles_2_and_3_descend() -> None:
    env = make([50, 60, 45, 55, 70, 65, 30, 20])
    play(env, ["0 play 50 0", "0 play 60 2"])
    legal = legal_texts(env)
    assert "play 55 0" in legal and "play 45 0" not in legal  # up from 50
    assert "play 55 2" in legal and "play 65 2" not in legal  # down from 60
    assert {"play 45 1", "play 70 1", "play 45 3", "play 70 3"} <= legal  # fresh piles take all
    with pytest.raises(ConfigError, match="pile 2"):
        env.reset(seed=0, options={"piles": [[], [], ["50", "70"], []]})


# ---- G2 ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "size"), [(1, 8), (2, 7), (3, 6), (4, 6), (5, 6)])
def test_G2_hand_sizes_and_stacked_deal(n: int, size: int) -> None:
    env = make(ALL, n=n, seed=n)
    d = env.to_dict()
    for seat in range(n):
        assert d["hands"][seat] == codes(ALL[seat * size : (seat + 1) * size])
    assert d["draw_pile"] == codes(ALL[n * size :])
    assert len(d["draw_pile"]) == 98 - n * size
    assert env.unwrapped.view(0)["hand_sizes"] == [size] * n


# ---- G3 ----------------------------------------------------------------------------------------
def test_G3_seat_0_first_then_clockwise() -> None:
    env = make(ALL, n=3)  # hands 2..7, 8..13, 14..19
    assert env.agent_selection == "player_0"
    play(env, ["0 play 2 0", "0 play 3 0", "0 end"])
    play(env, ["1 play 8 0", "1 play 9 0", "1 end"])
    play(env, ["2 play 14 0", "2 play 15 0", "2 end"])
    assert env.agent_selection == "player_0"


def test_G3_first_player_is_configurable() -> None:
    env = make(ALL, n=4, first_player=2)
    assert env.agent_selection == "player_2"
    play(env, ["2 play 14 0", "2 play 15 0", "2 end"])
    play(env, ["3 play 20 0", "3 play 21 0", "3 end"])
    assert env.agent_selection == "player_0"  # wraps around clockwise
    assert thegame.env(num_players=3, first_player=1).game.first_player == 1
    with pytest.raises(ConfigError, match="first_player"):
        thegame.env(num_players=3, first_player=3)


# ---- G4 ----------------------------------------------------------------------------------------
def test_G4_two_cards_minimum_while_draw_pile_has_cards_then_more_allowed() -> None:
    env = make(ALL, n=2)  # seat 0 holds 2..8
    assert env.to_dict()["minimum"] == 2
    assert "end" not in legal_texts(env)
    with pytest.raises(IllegalActionError, match="end"):
        env.step(END)
    act(env, "0 play 2 0")
    assert "end" not in legal_texts(env)
    assert env.to_dict()["decision"] == "play"
    act(env, "0 play 3 0")
    assert "end" in legal_texts(env) and env.to_dict()["decision"] == "play_or_end"
    play(env, ["0 play 4 0", "0 play 8 2", "0 play 5 0"])  # past the minimum, any piles
    assert env.to_dict()["played_this_turn"] == 5
    act(env, "0 end")
    assert env.agent_selection == "player_1"


def _empty_draw_board() -> tuple[list[list[int]], list[int]]:
    """Piles leaving exactly 60..67: one player's hand, empty draw pile."""
    piles = [list(range(2, 60)), [], list(range(99, 67, -1)), []]
    return piles, list(range(60, 68))


def test_G4_one_card_minimum_once_the_draw_pile_is_empty() -> None:
    piles, rest = _empty_draw_board()
    env = make(rest, piles=piles)
    d = env.to_dict()
    assert d["draw_pile"] == [] and d["minimum"] == 1
    act(env, "0 play 60 0")
    assert "end" in legal_texts(env)
    act(env, "0 end")
    assert env.agent_selection == "player_0" and env.to_dict()["played_this_turn"] == 0


def test_G4_strict_reading_keeps_two_cards_when_empty() -> None:
    piles, rest = _empty_draw_board()
    env = make(rest, piles=piles, min_cards_when_empty=2)
    assert env.to_dict()["minimum"] == 2
    act(env, "0 play 60 0")
    assert "end" not in legal_texts(env)
    act(env, "0 play 61 0")
    assert "end" in legal_texts(env)
    for bad in (0, 3, "2", True):
        with pytest.raises(ConfigError, match="min_cards_when_empty"):
            thegame.env(min_cards_when_empty=bad)


# ---- G5 ----------------------------------------------------------------------------------------
def test_G5_higher_or_exactly_ten_lower_up_lower_or_exactly_ten_higher_down() -> None:
    # pile 0 up at 50, pile 2 down at 51; piles 1 and 3 blocked by their tops (99 / 2)
    piles = [[50], [99], [51], [2]]
    env = make([40, 41, 39, 60, 61, 49, 52, 62], piles=piles)
    legal = legal_texts(env)
    up = {t.split()[1] for t in legal if t.endswith(" 0")}
    down = {t.split()[1] for t in legal if t.endswith(" 2")}
    assert up == {"40", "52", "60", "61", "62"}  # 40 = 50 - 10; 41, 39, 49 refused
    assert down == {"39", "40", "41", "49", "61"}  # 61 = 51 + 10; 52, 60, 62 refused
    assert not any(t.endswith(" 1") or t.endswith(" 3") for t in legal if t != "end")
    before = env.to_dict()
    with pytest.raises(IllegalActionError, match="play 41 0"):
        env.step(play_action(41, 0))
    with pytest.raises(IllegalActionError, match="play 60 2"):
        env.step(play_action(60, 2))
    with pytest.raises(IllegalActionError):
        env.step(play_action(77, 0))  # not in hand
    assert env.to_dict() == before
    act(env, "0 play 40 0")  # backwards trick on the ascending pile
    assert env.to_dict()["tops"][0] == 40 and rewards(env) == [pytest.approx(1 / 98)]
    assert "play 41 0" in legal_texts(env)  # the trick reopened the pile
    act(env, "0 play 61 2")  # backwards trick on the descending pile
    assert env.to_dict()["tops"][2] == 61
    assert "play 60 2" in legal_texts(env)


# ---- G6 ----------------------------------------------------------------------------------------
def test_G6_draw_back_up_to_hand_size() -> None:
    env = make(ALL, n=2)  # seat 0: 2..8, seat 1: 9..15, draw pile 16, 17, ...
    play(env, ["0 play 2 0", "0 play 3 0", "0 play 4 0"])
    assert hand(env, 0) == [5, 6, 7, 8]
    act(env, "0 end")
    assert hand(env, 0) == [5, 6, 7, 8, 16, 17, 18]
    assert env.to_dict()["draw_pile"][0] == "19" and len(env.to_dict()["draw_pile"]) == 81


def test_G6_draws_what_is_left_of_the_draw_pile() -> None:
    piles, _ = _empty_draw_board()
    piles[0] = list(range(2, 59))  # 59 joins the game: 8 in hand, 1 in the draw pile
    env = make([59, *range(60, 67), 67], piles=piles)
    assert env.to_dict()["draw_pile"] == ["67"]
    play(env, ["0 play 59 0", "0 play 60 0", "0 play 61 0", "0 end"])
    d = env.to_dict()
    assert d["draw_pile"] == [] and hand(env, 0) == [62, 63, 64, 65, 66, 67]
    assert d["minimum"] == 1  # G4: the next turn owes one card


# ---- G7 ----------------------------------------------------------------------------------------
def test_G7_players_without_cards_are_skipped() -> None:
    # 8 cards left for 3 players: seat 0 gets 6, seat 1 gets 2, seat 2 gets none
    piles, rest = _empty_draw_board()
    env = make(rest, n=3, piles=piles)
    assert [len(h) for h in env.to_dict()["hands"]] == [6, 2, 0]
    play(env, ["0 play 60 0", "0 end", "1 play 67 3", "1 end"])
    assert env.agent_selection == "player_0"  # seat 2 skipped
    play(env, ["0 play 61 0", "0 play 62 0", "0 play 63 0", "0 play 64 0", "0 play 65 0"])
    act(env, "0 end")
    assert env.agent_selection == "player_1"
    act(env, "1 play 66 0")
    assert env.to_dict()["winners"] == [0, 1, 2]  # the last card wins at once (G8)


def test_G7_a_hand_played_out_is_skipped_until_the_end() -> None:
    piles, rest = _empty_draw_board()
    env = make(rest, n=2, piles=piles)  # seat 0: 60..66, seat 1: 67
    play(env, [f"0 play {c} 0" for c in range(60, 67)])
    assert "end" in legal_texts(env) and hand(env, 0) == []
    play(env, ["0 end"])
    assert env.agent_selection == "player_1"
    act(env, "1 play 67 0")
    assert env.to_dict()["over"]


# ---- G8 ----------------------------------------------------------------------------------------
def test_G8_won_when_the_98th_card_is_placed() -> None:
    piles, rest = _empty_draw_board()
    env = make(rest, piles=piles)
    for c in range(60, 67):
        act(env, f"0 play {c} 0")
    assert not env.to_dict()["over"]
    env.step(play_action(67, 3))
    d = env.to_dict()
    assert d["over"] and d["won"] and d["winners"] == [0] and d["scores"] == [0]
    assert d["current_player"] is None and env.terminations == {"player_0": True}
    assert env.game.returns(env.state_obj) == [1.0]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_G8_scripted_full_game_is_won_with_shared_reward_one(n: int) -> None:
    """A whole game through the AEC env: with the deck in order (2..99 up for odd n, 99..2 down
    for even n) each seat in turn plays its whole hand onto pile 0 (up) or pile 3 (down) and
    ends; all 98 cards are placed and every agent collects exactly 1.0."""
    up = n % 2 == 1
    env = make(ALL if up else ALL[::-1], n=n, seed=5)
    collected = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter(2000):
        obs, reward, terminated, truncated, _ = env.last()
        collected[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        cards = hand(env, int(agent.split("_")[1]))
        if not cards:
            action = END
        elif up:
            action = play_action(cards[0], 0)
        else:
            action = play_action(cards[-1], 3)
        assert obs["action_mask"][action] == 1, env.describe_action(action)
        env.step(action)
        steps += 1
    final = env.game.to_dict(env.state_obj)
    assert final["won"] and final["scores"] == [0] * n and final["winners"] == list(range(n))
    assert final["piles"][0 if up else 3] == codes(ALL if up else ALL[::-1])
    assert steps > 98  # 98 plays and the ends between them
    for agent in env.possible_agents:
        assert collected[agent] == pytest.approx(1.0, abs=1e-9), collected


# ---- G9 ----------------------------------------------------------------------------------------
def test_G9_lost_when_the_next_player_cannot_play_at_all() -> None:
    # left: 92..98 (seat 0) and 40..46 (seat 1); draw pile empty
    env = make([*range(92, 99), *range(40, 47)], n=2, piles=BLOCKED)
    assert env.to_dict()["minimum"] == 1
    act(env, "0 play 92 1")  # pile 1 jumps to 92: 40..46 now fit nowhere
    act(env, "0 end")
    d = env.to_dict()
    assert d["over"] and not d["won"] and d["winners"] == [] and d["current_player"] is None
    assert d["scores"] == [13, 13]
    assert all(env.terminations.values())


def test_G9_no_look_ahead_one_card_played_then_stuck() -> None:
    # one player: only 98 fits (pile 0 or 1); it owes two cards and 40..46 fit nowhere
    env = make([98, *range(40, 47), 2, 3, 4], piles=STUCK, signals=True)
    assert env.to_dict()["minimum"] == 2 and env.to_dict()["draw_pile"] == ["2", "3", "4"]
    assert {t for t in legal_texts(env) if t.startswith("play")} == {"play 98 0", "play 98 1"}
    act(env, "0 play 98 1")  # signal actions remain, but the player owes a card: lost
    d = env.to_dict()
    assert d["over"] and not d["won"] and d["winners"] == []
    assert d["piles"][1][-1] == "98"  # the card played stays on its pile
    assert d["scores"] == [7 + 3] and env.game.legal_actions(env.state_obj) == []


def test_G9_strict_minimum_loses_with_a_single_card_left() -> None:
    piles, rest = _empty_draw_board()
    env = make(rest, n=2, piles=piles, min_cards_when_empty=2)  # seat 0: 60..66, seat 1: 67
    play(env, ["0 play 60 0", "0 play 61 0", "0 end"])
    act(env, "1 play 67 3")  # its only card: it cannot reach the strict minimum of two
    d = env.to_dict()
    assert d["over"] and not d["won"] and d["scores"] == [5, 5]
    env = make(rest, n=2, piles=piles)  # the published rule (1 card) plays on
    play(env, ["0 play 60 0", "0 end", "1 play 67 3", "1 end"])
    assert env.agent_selection == "player_0" and not env.to_dict()["over"]


# ---- G10 ---------------------------------------------------------------------------------------
def test_G10_score_is_cards_not_played() -> None:
    env = make(ALL, n=2)
    assert env.to_dict()["scores"] == [98, 98]
    play(env, ["0 play 2 0", "0 play 3 0", "0 play 4 0", "0 end"])
    assert env.to_dict()["scores"] == [95, 95]
    assert env.game.scores(env.state_obj) == [95.0, 95.0]
    env = make([98, *range(40, 47), 2, 3, 4], piles=STUCK)
    act(env, "0 play 98 1")
    assert env.to_dict()["scores"] == [7 + 3]  # hand + draw pile
    assert env.unwrapped.view(0)["cards_left"] == 10


# ---- G11 ---------------------------------------------------------------------------------------
def test_G11_signals_off_by_default() -> None:
    env = make(ALL, n=2)
    assert all(a < SIGNAL0 for a in env.legal_actions())
    with pytest.raises(IllegalActionError, match="signal 1 wait"):
        env.step(env.unwrapped.parse_action("signal 1 wait"))
    with pytest.raises(ConfigError, match="signals"):
        thegame.env(signals="yes")


def test_G11_public_signals_once_per_pile_per_turn() -> None:
    env = make(ALL, n=2, signals=True)
    other_before = env.observe("player_1")["observation"].copy()
    signals = {t for t in legal_texts(env) if t.startswith("signal")}
    assert signals == {f"signal {p} {v}" for p in range(4) for v in ("wait", "help")}
    act(env, "0 signal 1 wait")
    assert env.unwrapped.view(1)["signals"][0] == ["none", "wait", "none", "none"]
    assert not np.array_equal(env.observe("player_1")["observation"], other_before)
    assert not {"signal 1 help", "signal 1 none"} & legal_texts(env)  # once per turn
    assert "signal 2 none" not in legal_texts(env)  # only to a different value
    with pytest.raises(IllegalActionError):
        env.step(env.unwrapped.parse_action("signal 1 help"))
    act(env, "0 play 2 0")
    assert "end" not in legal_texts(env)  # signals do not count toward the minimum
    act(env, "0 signal 2 help")
    assert "end" not in legal_texts(env)
    play(env, ["0 play 3 0", "0 end", "1 play 9 0", "1 signal 0 help", "1 play 10 0", "1 end"])
    view = env.unwrapped.view(0)
    assert view["signals"] == [["none", "wait", "help", "none"], ["help", "none", "none", "none"]]
    assert "signal 1 help" in legal_texts(env)  # a new turn: it may change it again
    act(env, "0 signal 1 none")
    assert env.to_dict()["signals"][0][1] == "none"
    assert "seat 1" in env.render_text(0) and "0:help" in env.render_text(None)


# ---- contract details ------------------------------------------------------------------------------
def test_action_texts_index_by_card_and_pile() -> None:
    game = TheGame()
    assert game.num_actions == NUM_ACTIONS == 405
    assert game.describe_action(play_action(37, 2)) == "play 37 2"
    assert game.parse_action("play 37 2") == play_action(37, 2) == (37 - 2) * 4 + 2
    assert game.parse_action("  END ") == END == 392
    assert game.parse_action("signal 3 help") == 404
    for bad in ("play 1 0", "play 100 0", "play 5 4", "signal 4 wait", "signal 0 maybe", "x"):
        with pytest.raises(IllegalActionError, match="play C P"):
            game.parse_action(bad)


def test_state_round_trip_and_registry_spec() -> None:
    env = make(ALL[::-1], n=3, seed=3, signals=True)
    play(env, ["0 play 99 0", "0 signal 2 wait", "0 play 98 2"])
    saved = json.loads(json.dumps(env.to_dict()))
    twin = thegame.env(num_players=3, signals=True)
    twin.from_dict(saved)
    assert twin.to_dict() == saved
    assert thegame.SPEC.cooperative and TheGame.reward_kind == "shared"
    assert envs.get_spec("thegame") is thegame.SPEC


def test_observation_layout_is_relative_to_the_observer() -> None:
    from cardarena.envs.thegame.encoding import OBS_SIZE, PILE_BLOCK, SEAT_BLOCK

    env = make(ALL, n=3, signals=True)  # hands 2..7, 8..13, 14..19
    play(env, ["0 signal 3 help", "0 play 2 0"])
    obs = env.observe("player_1")["observation"]
    assert obs.shape == (OBS_SIZE,) and obs.min() >= -1 and obs.max() <= 2
    assert (np.flatnonzero(obs[:98]) + 2).tolist() == list(range(8, 14))  # own hand
    assert (np.flatnonzero(obs[98:196]) + 2).tolist() == [2]  # on the piles
    assert obs[196:294].sum() == 98 - 6 - 1  # unseen
    assert obs[294] == pytest.approx(0.02)  # pile 0 top 2 / 100
    seats = 294 + 4 * PILE_BLOCK
    me, nxt, prev = (obs[seats + k * SEAT_BLOCK : seats + (k + 1) * SEAT_BLOCK] for k in range(3))
    assert me[:5].tolist() == [1, 0.75, 0, 0, 0]  # itself: 6 cards, not current, not seat 0
    assert nxt[:5].tolist() == [1, 0.75, 0, 0, 0] and not nxt[5:].any()
    assert prev[:5].tolist() == [1, 0.625, 1, 1, 0]  # seat 0: 5 cards, current, first seat
    assert np.flatnonzero(prev[5:]).tolist() == [2 * 3 + 1]  # HELP on pile 3
    assert not obs[seats + 3 * SEAT_BLOCK : seats + 5 * SEAT_BLOCK].any()  # no seats 4, 5
    assert not np.array_equal(obs, env.observe("player_2")["observation"])


# ---- from_dict refuses only what no game reaches ----------------------------------------------------
def _careful_game(engine: TheGame, state: Any, rng: np.random.Generator) -> list[dict[str, Any]]:
    """A game played well enough to empty the draw pile (cheapest play first, ending the turn
    now and then, signals now and then), saved after every decision."""
    saved = [engine.to_dict(state)]
    while not engine.is_over(state):
        legal = engine.legal_actions(state)
        plays = [a for a in legal if a < END]
        signals = [a for a in legal if a >= SIGNAL0]

        def cost(a: int) -> int:
            card, pile = (a >> 2) + 2, a & 3
            return card - state.tops[pile] if pile < 2 else state.tops[pile] - card

        if signals and rng.random() < 0.1:
            action = signals[rng.integers(len(signals))]
        elif END in legal and (not plays or rng.random() < 0.3 or min(map(cost, plays)) > 3):
            action = END
        else:
            action = min(plays, key=cost) if rng.random() < 0.9 else plays[rng.integers(len(plays))]
        engine.apply(state, int(action))
        saved.append(engine.to_dict(state))
    return saved


@pytest.mark.parametrize("signals", [False, True])
@pytest.mark.parametrize("min_cards_when_empty", [1, 2])
def test_every_state_of_careful_games_and_scenarios_restores(
    signals: bool, min_cards_when_empty: int
) -> None:
    """The checks of from_dict (the G4 minimum, the G9 loss, the counters and signal changes)
    never refuse a state the game reaches, the empty draw pile, scenario deals and wins
    included."""
    empty = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        n = 1 + seed % 5
        engine = TheGame(n, signals=signals, min_cards_when_empty=min_cards_when_empty)
        options = None
        if seed % 2:  # a scenario: some cards already on the piles, a stacked deck
            placed = sorted(rng.choice(ALL, size=int(rng.integers(0, 90)), replace=False).tolist())
            up = [c for c in placed if c < 60]
            down = [c for c in placed if c >= 60][::-1]
            options = {
                "piles": [codes(up[::2]), codes(up[1::2]), codes(down[::2]), codes(down[1::2])],
                "first_player": int(rng.integers(n)),
            }
        state = engine.new_game(np.random.default_rng(seed), options)
        for data in _careful_game(engine, state, rng):
            data = json.loads(json.dumps(data))
            assert engine.to_dict(engine.from_dict(data)) == data
            empty += not data["draw_pile"]
    assert empty > 50  # the late game was reached
