"""flip6 for two seats solved for the game (agents/exact/flip6_game.py): hand-checked tiny
targets, an independent brute force of small games (values and state counts), the symmetry of
the two seats, ties, and the solved policy against "stay at k"."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from cardarena.agents.exact.flip6_game import (
    FULL,
    NUMBERS,
    GameSolver,
    count_states,
    disagreement,
    round_graph,
    round_positions,
    threshold_rule,
)
from cardarena.envs.core.engine import ConfigError

# decks as counts per kind: ZERO, 1..6, EXTRA_LIFE, FREEZE, FLIP3, DOUBLE
TINY = (0, 1, 2, 1, 0, 0, 0, 0, 0, 0, 0)  # one 1, two 2, one 3
SMALL = (1, 1, 2, 1, 0, 0, 0, 0, 0, 0, 0)  # with ZERO


# -- an independent brute force: number cards only, two seats, written from the rules ---------


def brute(deck: tuple[int, ...], target: int, rounds: int = 60):
    """Seat 0's value (win + half a shared win) at every round start, by playing ``rounds``
    rounds deep (0.5 past them), and the decision states met: (totals, dealer, rows, pile,
    mover). Numbers only: values 0..6 with ``deck[v]`` copies (F1, F2 ZERO)."""
    values = {}  # (a, b, dealer) -> value, from the previous depth

    def points(row):
        return sum(row)

    def start_value(a, b, dealer):
        return values.get((a, b, dealer), 0.5)

    @cache
    def turn(a, b, dealer, rows, out, pile, mover):
        """``rows``: values held per seat; ``out``: per seat None (in), 'bust' or points."""
        in_round = [s for s in (mover, 1 - mover) if out[s] is None]
        if not in_round:
            banked = [o if isinstance(o, int) else 0 for o in out]
            return start_value(a + banked[0], b + banked[1], 1 - dealer)
        s = in_round[0]
        states.add((a, b, dealer, rows, out, pile, s))
        total = (a, b)[s]
        r = points(rows[s])
        stay_out = out[:s] + (r,) + out[s + 1 :]
        stay = 1.0 - s if total + r >= target else turn(a, b, dealer, rows, stay_out, pile, 1 - s)
        options = [stay]
        if sum(pile):
            options.append(draw(a, b, dealer, rows, out, pile, s, 1 - s))
        return max(options) if s == 0 else min(options)

    def draw(a, b, dealer, rows, out, pile, s, mover, deal_next=None):
        n = sum(pile)
        if not n:  # F16: both piles empty, the seat stays with what it holds (0 in the deal)
            r = points(rows[s])
            if (a, b)[s] + r >= target:
                return 1.0 - s
            out = out[:s] + (r,) + out[s + 1 :]
            return follow(a, b, dealer, rows, out, pile, mover, deal_next)
        acc = 0.0
        for v, c in enumerate(pile):
            if not c:
                continue
            rest = pile[:v] + (c - 1,) + pile[v + 1 :]
            if v in rows[s]:  # F8 (C): bust
                got = follow(
                    a, b, dealer, rows, out[:s] + ("bust",) + out[s + 1 :], rest, mover, deal_next
                )
            else:
                row = tuple(sorted((*rows[s], v)))
                new_rows = rows[:s] + (row,) + rows[s + 1 :]
                if len(row) == 6:  # F9: Flip 6, everyone in banks, +6 to the maker
                    got = flip6(a, b, dealer, new_rows, out, s)
                else:
                    got = follow(a, b, dealer, new_rows, out, rest, mover, deal_next)
            acc += c * got
        return acc / n

    def follow(a, b, dealer, rows, out, pile, mover, deal_next):
        if deal_next is not None:  # F5: the dealer's card after the first seat's
            return draw(a, b, dealer, rows, out, pile, deal_next, mover)
        return turn(a, b, dealer, rows, out, pile, mover)

    def flip6(a, b, dealer, rows, out, maker):
        tot = [a, b]
        banking = [s for s in (0, 1) if out[s] is None]
        for s in (0, 1):
            o = out[s]
            if o is None:
                tot[s] += points(rows[s]) + (6 if s == maker else 0)
            elif isinstance(o, int):
                tot[s] += o
        reached = [s for s in banking if tot[s] >= target]
        if not reached:
            return start_value(tot[0], tot[1], 1 - dealer)
        best = max(tot[s] for s in reached)
        winners = [s for s in reached if tot[s] == best]  # F18
        return 0.5 if len(winners) == 2 else 1.0 - winners[0]

    states: set = set()
    for _ in range(rounds):
        turn.cache_clear()
        new = {}
        for a in range(target):
            for b in range(target):
                for dealer in (0, 1):
                    first = 1 - dealer
                    empty = ((), ())
                    new[(a, b, dealer)] = draw(
                        a, b, dealer, empty, (None, None), deck[:7], first, first, dealer
                    )
        values = new
    return values, states


@pytest.mark.parametrize("deck, target", [(TINY, 1), (TINY, 3), (TINY, 5), (SMALL, 4)])
def test_values_match_a_brute_force_written_apart(deck, target):
    """Rounds of F5-F9 and the game end F17, F18: the solver's round-start values equal those of
    a direct recursion over the cards (a different program), at every pair of totals."""
    solver = GameSolver(target, deck).solve()
    values, _ = brute(deck, target)
    for (a, b, dealer), v in values.items():
        assert solver.start[dealer][a, b] == pytest.approx(v, abs=1e-9), (a, b, dealer)


@pytest.mark.parametrize("deck, target", [(TINY, 2), (TINY, 4), (SMALL, 3), (NUMBERS, 2)])
def test_state_count_matches_a_search_of_the_game(deck, target):
    """count_states' formula (every round-start pair of totals reachable) equals the decision
    states a search of the whole game meets (the brute force's, started from 0-0, seat 0
    dealing, F4)."""
    _, states = brute(deck, target, rounds=2 * target + 2)
    solver_states = count_states(target, deck)
    # the brute force visits every start pair; the formula counts exactly those reachable
    assert solver_states == len(states)


def test_target_one_the_first_player_always_wins():
    """To 1 point: seat 1, left of the first dealer (F4), is dealt first and plays first (F5,
    F6); its card is worth at least 1 with the number cards, and it stays (F7, F17)."""
    solver = GameSolver(1).solve()
    assert solver.first_player() == pytest.approx(1.0)


def test_target_two_by_hand():
    """To 2 points with the 21 number cards: the first player loses only when dealt the one 1
    (1/21): staying banks 1, and the dealer, holding 2 or more, stays and wins at its turn
    before a hit of the first player can be banked (F5-F8, F17). So 20/21."""
    assert GameSolver(2).solve().first_player() == pytest.approx(20 / 21)


def test_values_are_probabilities_and_the_seats_mirror():
    """Values lie in [0, 1]; the game dealt by seat 1 at totals (b, a) is the game dealt by
    seat 0 at (a, b) with the seats' names swapped: the two seats' values sum to 1 (F18: a
    shared win counts half to each)."""
    solver = GameSolver(12).solve()
    assert (solver.start >= 0).all() and (solver.start <= 1).all()
    np.testing.assert_allclose(solver.start[1].T, 1.0 - solver.start[0], atol=1e-12)


def test_ties_are_possible_and_counted_apart():
    """Both seats can reach the target at one Flip 6 with equal totals (F9, F18); with a shared
    win worth 1 the value exceeds the one with it worth 0 by exactly the chance of a shared win,
    a probability."""
    # a Flip 6 of the numbers banks 21 + 6 = 27 (F9): a tie needs the other seat ahead and still
    # in the round, its last hit taking it past the target (e.g. totals 0 and 14, 13 in hand)
    rules = (threshold_rule(16), threshold_rule(16))  # 1-5 held (15): it hits on to a Flip 6
    graphs = [round_graph(NUMBERS, d) for d in (0, 1)]
    win = GameSolver(25, rules=rules, tie=0.0, graphs=graphs).solve().start
    share = GameSolver(25, rules=rules, tie=1.0, graphs=graphs).solve().start
    tie = share - win
    assert (tie >= -1e-12).all() and (tie <= 1).all() and tie.max() > 0


def test_the_solved_policy_beats_every_stay_at_k():
    """The policy solved for the game wins more than half against each "stay at k" (both seat
    orders averaged), and "stay at k" disagrees with it in some turn states."""
    target = 15
    graphs = [round_graph(NUMBERS, d) for d in (0, 1)]
    for k in (4, 8, 12):
        at0 = GameSolver(target, rules=(None, threshold_rule(k)), graphs=graphs).solve()
        at1 = GameSolver(target, rules=(threshold_rule(k), None), graphs=graphs).solve()
        assert (at0.start[0][0, 0] + 1.0 - at1.start[0][0, 0]) / 2 > 0.5
    solver = GameSolver(target, graphs=graphs).solve()
    worse, turns = disagreement(solver, 8)
    assert 0 < worse < turns


def test_round_positions_and_bad_inputs():
    counts = round_positions(TINY)
    assert counts["decisions"] > 0 and counts["ends"] > 0
    # the full deck's round is far larger than the numbers': the cap stops the search
    with pytest.raises(RuntimeError, match="more than 1000 positions"):
        round_graph(FULL, cap=1000)
    with pytest.raises(ConfigError, match="deck"):
        round_graph((9,) * 11)
    with pytest.raises(ConfigError, match="dealer 2"):
        round_graph(NUMBERS, dealer=2)
    with pytest.raises(ConfigError, match="target 0"):
        GameSolver(0)
    with pytest.raises(ConfigError, match="target 0"):
        count_states(0)
