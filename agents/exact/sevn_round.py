"""sevn's round as a one-seat Markov decision process: how many positions it has.

The model is the one of ``flip6_round`` carried over to sevn: one seat plays the hand alone and
its position is what it holds (its row of distinct values, S2 and S9; its modifiers, S3 and
S12; its bonus cards, S5; a SECOND_CHANCE, S14) and the composition of the unseen cards (every
dealt card is face up, so it is known exactly). A solver of this model needs every reachable
position; this module counts a family of them exactly, a lower bound on the whole:

    the positions at a DRAW/PASS turn (S8) reached by drawing, one card a turn, number cards
    of distinct values (S1, S9), ballast cards kept as distinct values or discarded (S2, S11),
    modifiers (S3) and bonus cards (S5), and no action card and no duplicate.

Each such position is reachable (no card of the family ends the hand before the seventh
distinct value, S10, so at most 6 values are held), and two of them differ in the holdings or in
the unseen composition, so they are distinct positions. The count is a sum over how many number
values and kept ballast values the row holds (``j + k <= 6``): ``C(14, j)`` number values, for
each ballast value held 2 choices of its other copy (still unseen or discarded) and for each
not held 3 (0, 1 or 2 copies discarded), times every subset of the 6 modifiers and of the 3
bonus cards. :func:`lower_bound` computes it from the deck table of ``envs/sevn/rules.py``.
"""

from __future__ import annotations

from math import comb

from cardarena.envs.sevn.rules import BALLAST, BONUS, CARD_TABLE, MODIFIER, NUMBER

#: S10: the seventh distinct value ends the hand, so a turn sees at most six
SEVN = 7


def lower_bound(
    numbers: int | None = None,
    ballast: int | None = None,
    modifiers: int | None = None,
    bonuses: int | None = None,
    most_values: int = SEVN - 1,
) -> int:
    """Positions of the family of the module docstring (the deck's own counts by default:
    14 number values, 3 ballast values of 2 copies, 6 modifiers, 3 bonus cards)."""
    kinds = [row[1] for row in CARD_TABLE]
    numbers = kinds.count(NUMBER) if numbers is None else numbers
    ballast = kinds.count(BALLAST) if ballast is None else ballast
    modifiers = kinds.count(MODIFIER) if modifiers is None else modifiers
    bonuses = kinds.count(BONUS) if bonuses is None else bonuses
    rows = 0
    for k in range(min(ballast, most_values) + 1):
        ballast_ways = comb(ballast, k) * 2**k * 3 ** (ballast - k)
        for j in range(min(numbers, most_values - k) + 1):
            rows += comb(numbers, j) * ballast_ways
    return rows * 2**modifiers * 2**bonuses


def compositions() -> int:
    """How many unseen compositions the 120-card deck has at most (every sub-multiset of it:
    the product of copies + 1 over the 31 card kinds): the size of the composition part of a
    position alone."""
    out = 1
    for row in CARD_TABLE:
        out *= row[3] + 1
    return out
