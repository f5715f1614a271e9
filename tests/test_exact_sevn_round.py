"""sevn's one-seat round (agents/exact/sevn_round.py): the lower bound on its positions is
checked against a search of the draws it counts, on small decks, and read for the real deck."""

from __future__ import annotations

import pytest

from cardarena.agents.exact.sevn_round import compositions, lower_bound


def search(numbers: int, ballast: int, modifiers: int, bonuses: int, most: int) -> int:
    """Distinct (holdings, unseen composition) met by drawing, one card a turn, number cards of
    values not held (S9), ballast kept as a new value or discarded (S2, S11; two copies of each
    ballast value), modifiers (S3) and bonus cards (S5), at most ``most`` values held (S10)."""
    start = (frozenset(), (0,) * ballast, frozenset())  # values held, ballast copies used, extras
    seen = {start}
    todo = [start]
    while todo:
        held, used, extras = todo.pop()
        nexts = []
        if len(held) < most:
            nexts += [(held | {v}, used, extras) for v in range(numbers) if v not in held]
        for b in range(ballast):
            if used[b] < 2:
                more = used[:b] + (used[b] + 1,) + used[b + 1 :]
                nexts.append((held, more, extras))  # DISCARD (S11)
                if ("b", b) not in held and len(held) < most:
                    nexts.append((held | {("b", b)}, more, extras))  # KEEP as a value (S2)
        for x in range(modifiers + bonuses):
            if x not in extras:
                nexts.append((held, used, extras | {x}))
        for state in nexts:
            if state not in seen:
                seen.add(state)
                todo.append(state)
    return len(seen)


@pytest.mark.parametrize(
    "numbers, ballast, modifiers, bonuses, most",
    [(3, 1, 1, 0, 2), (4, 2, 1, 1, 3), (5, 3, 2, 1, 6), (6, 2, 0, 2, 4)],
)
def test_the_lower_bound_counts_what_a_search_finds(numbers, ballast, modifiers, bonuses, most):
    got = lower_bound(numbers, ballast, modifiers, bonuses, most_values=most)
    assert got == search(numbers, ballast, modifiers, bonuses, most)


def test_the_real_deck():
    """14 number values, 3 ballast values, 6 modifiers, 3 bonus cards (S1-S5), six values at
    most at a turn (S10): over 200 million positions, against flip6's 8,398 for its round."""
    assert lower_bound() == 214_584_320
    assert compositions() > 10**18
