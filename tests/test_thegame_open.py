"""thegame's open-hand solver (agents/exact/thegame_open.py): stacked deals it must call winnable
or prove lost, lines the engine replays to the result claimed, and no claim past its budget.

The stacked deals place most cards on the piles already (reset option ``piles``, each pile a
legal G5 build) and deal the rest in seat order (option ``deck``, top first, G2), seat 0 first
(G3). With 2 players the hands hold 7 cards (G2) and the last 2 of the 16 open cards are the
draw pile.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cardarena.agents import make_agent
from cardarena.agents.exact.thegame_open import (
    NOT_WINNABLE,
    UNKNOWN,
    WINNABLE,
    OpenHandAgent,
    OpenHandSolver,
    dead_cards,
    deal,
    fits_any,
    play_open_hand,
)
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.thegame.rules import TheGame, can_play


def _piles(open_cards: set[int]) -> list[list[str]]:
    """Every card not in ``open_cards`` on the piles, tops 60 and 70 (ascending, piles 0-1) and
    30 and 20 (descending, piles 2-3): pile 0 every card up to 60 but 20 and 30, pile 1 65-70,
    pile 2 99 down to 71 then 30, pile 3 the 20."""
    pile0 = [c for c in range(2, 61) if c not in (20, 30)]
    pile1 = list(range(65, 71))
    pile2 = [*range(99, 70, -1), 30]
    piles = [pile0, pile1, pile2, [20]]
    return [[str(c) for c in pile if c not in open_cards] for pile in piles]


def _stacked(order: list[int]) -> tuple[TheGame, object]:
    engine = TheGame(num_players=2)
    options = {"piles": _piles(set(order)), "deck": [str(c) for c in order]}
    return engine, engine.new_game(np.random.default_rng(0), options)


#: winnable, but only through back-by-ten moves (G5): 40, 41, 42, 50, 51 and 52 fit no pile
#: by going up or down (tops 60, 70 / 30, 20); 40 goes on pile 2 as 30 + 10 (or 50 on pile 0
#: as 60 - 10), 51 on 61, 41 on 51 and so on
WINNABLE_ORDER = [40, 63, 61, 72, 71, 64, 75, 50, 62, 73, 74, 51, 41, 21, 52, 42]
#: lost whatever is played (G4, G9): seat 0 starts (G3) owing 2 cards while the draw pile lasts,
#: and only 61 fits (pile 0, over 60); after it none of 31, 32, 41-44 fits (they need 51-54 on
#: pile 0 first, which seat 1 holds), so seat 0 is stuck with 15 cards not played
LOST_ORDER = [41, 42, 43, 44, 31, 32, 61, 51, 52, 53, 54, 33, 34, 62, 63, 64]


def test_stacked_deals_are_legal_and_open():
    for order in (WINNABLE_ORDER, LOST_ORDER):
        engine, state = _stacked(order)
        assert state.on_piles == 98 - 16 and not state.over
        assert state.hands[0] == sorted(order[:7]) and state.hands[1] == sorted(order[7:14])
        assert state.draw_pile[::-1] == order[14:]  # top first


def test_winnable_deal_is_found_and_replays_to_a_win():
    """G5's back-by-ten moves are the only way to place 40 and 50; G8: won with all 98 placed."""
    engine, state = _stacked(WINNABLE_ORDER)
    assert dead_cards(sum(1 << c for c in WINNABLE_ORDER), list(state.tops)) == 0
    result = OpenHandSolver(max_nodes=100_000).solve(state)
    assert result.status == WINNABLE and result.cards_left == 0
    end = engine.clone(state)
    for action in result.line:
        assert action in engine.legal_actions(end)
        engine.apply(end, action)
    assert end.over and end.won and engine.scores(end)[0] == 0
    backs = [a for a in result.line if a < 392 and (a >> 2) + 2 in (40, 50)]
    assert len(backs) == 2  # both placed, necessarily by back-by-ten moves


def test_lost_deal_is_proved_lost_with_its_fewest_cards_left():
    """G4/G9: seat 0 owes two cards, one fits; the search finishes and says so (15 left)."""
    engine, state = _stacked(LOST_ORDER)
    open_cards = sum(1 << c for c in LOST_ORDER)
    assert dead_cards(open_cards, list(state.tops)) == 0  # not proved by the bound alone
    result = OpenHandSolver().solve(state)
    assert result.status == NOT_WINNABLE and result.cards_left == 15
    end = engine.clone(state)
    for action in result.line:
        engine.apply(end, action)
    assert end.over and not end.won and engine.scores(end)[0] == 15
    # the engine agrees that every line is lost: seat 0's every first and second card
    assert engine.legal_actions(state) == [(61 - 2) * 4 + 0]
    engine.apply(state, (61 - 2) * 4)
    assert state.over and not state.won


def test_a_dead_card_proves_a_deal_lost():
    """G5: 47 fits no pile ever again (below 60 and 70, above 30 and 20, 57 is on pile 0 and
    37 is not a descending top): the best line leaves it alone, and that is proved optimal."""
    order = [47, 61, 62, 63, 64, 66, 67, 71, 72, 73, 74, 75, 76, 77, 78, 79]
    engine, state = _stacked(order)
    assert dead_cards(sum(1 << c for c in order), list(state.tops)) == 1 << 47
    result = OpenHandSolver().solve(state)
    assert result.status == NOT_WINNABLE and result.cards_left == 1
    end = engine.clone(state)
    for action in result.line:
        engine.apply(end, action)
    assert end.over and engine.scores(end)[0] == 1 and end.hands[0] == [47]


def test_out_of_budget_is_unknown_never_a_false_claim():
    """A budget too small claims nothing: ``unknown``, with no line or the best one found,
    which replays to the cards it says; a real deal, winnable at a larger budget."""
    engine, state = _stacked(LOST_ORDER)
    tiny = OpenHandSolver(max_nodes=1).solve(state)
    assert tiny.status == UNKNOWN and tiny.cards_left is None and tiny.line == []
    engine, state = deal(9_400_001, 2)
    full = OpenHandSolver(max_nodes=200_000).solve(state)
    for budget in (10, 300, 3_000, 30_000):
        result = OpenHandSolver(max_nodes=budget).solve(state)
        assert result.status in (UNKNOWN, WINNABLE)
        assert result.nodes <= budget + 1
        if result.status == UNKNOWN and full.status == WINNABLE:
            assert result.cards_left is None or result.cards_left > 0
        if result.cards_left is not None:
            end = engine.clone(state)
            for action in result.line:
                engine.apply(end, action)
            assert end.over and engine.scores(end)[0] == result.cards_left


@pytest.mark.parametrize("num_players", [2, 4])
def test_real_deals_replay_to_the_cards_claimed(num_players):
    """Deals dealt as every evaluation deals them; the agent in every seat plays the line."""
    for seed in (9_400_000, 9_400_002):
        result, left = play_open_hand(seed, num_players, max_nodes=20_000)
        assert left == result.cards_left
        assert result.status in (WINNABLE, UNKNOWN, NOT_WINNABLE)
        if result.status == WINNABLE:
            assert left == 0


def test_fits_any_is_the_engines_rule():
    """G5 on bitmask hands: the same answer as the engine's can_play on random hands and tops."""
    rng = np.random.default_rng(1)
    for _ in range(2_000):
        tops = [int(rng.integers(1, 99)), int(rng.integers(1, 99))]
        tops += [int(rng.integers(2, 101)), int(rng.integers(2, 101))]
        hand = sorted({int(c) for c in rng.integers(2, 100, size=int(rng.integers(1, 8)))})
        assert fits_any(sum(1 << c for c in hand), tops) == can_play(hand, tops)


def test_dead_cards_brute_force():
    """A card is dead exactly when no chain of open cards played onto one pile reaches it (a
    search over the tops each pile can reach, on random positions)."""
    rng = np.random.default_rng(2)
    for _ in range(300):
        tops = [int(rng.integers(1, 99)), int(rng.integers(1, 99))]
        tops += [int(rng.integers(2, 101)), int(rng.integers(2, 101))]
        pool = [c for c in range(2, 100) if c not in tops]
        open_cards = {
            int(c) for c in rng.choice(pool, size=int(rng.integers(1, 30)), replace=False)
        }
        want = 0
        for c in open_cards:
            if not any(_reaches(c, p, tops[p], open_cards) for p in range(4)):
                want |= 1 << c
        assert dead_cards(sum(1 << c for c in open_cards), tops) == want


def _reaches(card: int, pile: int, top: int, open_cards: set[int]) -> bool:
    """Whether some chain of open cards played onto ``pile`` from ``top`` ends with ``card``."""
    frontier, seen = {top}, set()
    while frontier:
        t = frontier.pop()
        seen.add(t)
        for c in open_cards:
            ok = c > t or c == t - 10 if pile < 2 else c < t or c == t + 10
            if ok and c == card:
                return True
            if ok and c not in seen:
                frontier.add(c)
    return False


def test_agent_spec_is_no_legal_player():
    agent = make_agent("thegame", "open_hand", seed=3)
    assert isinstance(agent, OpenHandAgent) and agent.legal_player is False
    engine, state = deal(9_400_000, 2)
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    mask[engine.legal_actions(state)] = 1
    with pytest.raises(ConfigError, match="not a legal player"):
        agent.act(mask, mask, None)  # without the true state it refuses to play


def test_agent_follows_a_partner_who_leaves_the_line():
    """One agent per seat; a partner that plays something else makes the next seat solve again
    from the true state, and the game still ends in a legal line."""
    engine, state = _stacked(WINNABLE_ORDER)
    agents = [OpenHandAgent(max_nodes=50_000) for _ in range(2)]
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    for step in itertools.count():
        if engine.is_over(state):
            break
        mask[:] = 0
        legal = engine.legal_actions(state)
        mask[legal] = 1
        seat = state.current
        if step == 0:
            action = legal[-1]  # a move of its own, off the solver's line
        else:
            agents[seat].see(state)
            action = agents[seat].act(mask, mask, None)
        engine.apply(state, action)
    assert state.over


def test_bad_settings_name_the_value():
    with pytest.raises(ConfigError, match="max_nodes"):
        OpenHandSolver(max_nodes=0)
    with pytest.raises(ConfigError, match="bonus"):
        OpenHandSolver(bonus=-1)
    with pytest.raises(ConfigError, match="thegame state"):
        OpenHandSolver().solve({"hands": []})  # type: ignore[arg-type]


def test_the_evaluator_seats_open_hand_as_a_seer_on_either_core(tmp_path):
    """evaluate.py plays `open_hand` only with --allow-seers; the game loop hands it the true
    state (a native core's state read into the Python engine's), and it wins a deal it solves."""
    from cardarena import evaluate

    args = ["--game", "thegame", "--num-players", "2", "--agents", "open_hand", "--deals", "1"]
    args += ["--first-seed", "9600000", "--workers", "1", "--no-progress"]
    assert evaluate.main([*args, "--allow-seers", "--out", str(tmp_path / "r.json")]) == 0
    games = [r for r in (tmp_path / "r.jsonl").read_text().splitlines() if '"winners"' in r]
    assert len(games) == 1 and '"winners":[0,1]' in games[0]  # the deal is won by the team
