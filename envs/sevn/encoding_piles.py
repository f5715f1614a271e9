"""Running compositions of SEVN's draw and discard piles, and per-row sums over them.

Every observation needs the count of each card kind in the pile the next card comes from (the
bust chance and the expected next-card change of every seat, the composition parts of the
vector). The piles change by a card or two a step, so their counts are kept up to date from the
cards that moved since the last observation instead of being counted anew.
"""

from __future__ import annotations

from operator import mul, truediv
from typing import Any

import numpy as np

from cardarena.envs.sevn.encoding_tables import PACK_INTO_F, PACK_KINDS
from cardarena.envs.sevn.rules import DECK_COUNTS, NUM_CARD_KINDS

#: id(pile) -> [pile, its length, its cards as first seen plus those added since, count per card
#: kind, the counts / their deck counts as float32 bytes, records, direction]: a running
#: composition of the draw pile (only popped from its end) and the discard pile (only appended
#: to), updated from the cards that left or came since the last observation. A pile changed any
#: other way (a new list at a reshuffle or a new game, or one that shrinks after growing) starts
#: over. ``records``: (values, has_second_chance, *row) -> [sum of the row's card deltas x
#: counts, count of the row's number values in the pile, the pile length they are for], brought
#: up to date from the cards that moved (whole numbers, so the sums are exact whatever the order)
PILES: dict[int, list[Any]] = {}
_PILES_MAX = 64
_RECORDS_MAX = 512


def composition(cards: list[int]) -> list[int]:
    """Count per card kind of ``cards`` (numpy counts long piles faster than a Python loop)."""
    if len(cards) > 40:
        return np.bincount(np.frombuffer(bytes(cards), np.uint8), minlength=NUM_CARD_KINDS).tolist()
    counts = [0] * NUM_CARD_KINDS
    for c in cards:
        counts[c] += 1
    return counts


def pile_entry(pile: list[int]) -> list[Any]:
    """The running composition entry of ``pile`` (see :data:`PILES`)."""
    entry = PILES.get(id(pile))
    n = len(pile)
    if entry is not None and entry[0] is pile:
        cur, snap = entry[1], entry[2]
        if n == cur:
            if n == 0 or pile[-1] == snap[n - 1]:
                return entry
        elif n < cur:
            if entry[6] <= 0 and (n == 0 or pile[-1] == snap[n - 1]):
                counts, buf = entry[3], entry[4]
                for c in snap[n:cur]:
                    k = counts[c] - 1
                    counts[c] = k
                    PACK_INTO_F(buf, 4 * c, k / DECK_COUNTS[c])
                entry[1] = n
                entry[6] = -1
                return entry
        elif entry[6] >= 0 and (cur == 0 or pile[cur - 1] == snap[cur - 1]):
            counts, buf = entry[3], entry[4]
            new = pile[cur:]
            for c in new:
                k = counts[c] + 1
                counts[c] = k
                PACK_INTO_F(buf, 4 * c, k / DECK_COUNTS[c])
            snap += new
            entry[1] = n
            entry[6] = 1
            return entry
    counts = composition(pile)
    buf = bytearray(PACK_KINDS(*map(truediv, counts, DECK_COUNTS)))
    entry = [pile, n, pile[:], counts, buf, {}, 0]
    if len(PILES) >= _PILES_MAX:
        PILES.clear()
    PILES[id(pile)] = entry
    return entry


def row_record(
    entry: list[Any], key: tuple[int, ...], deltas: list[float], numbers: int
) -> list[Any]:
    """``[sum(map(mul, deltas, counts)), sum of the counts of the number values in ``numbers``,
    pile length]`` for the pile of ``entry``, kept up to date per row (``key``)."""
    records = entry[5]
    rec = records.get(key)
    n = entry[1]
    if rec is None:
        counts = entry[3]
        dup = 0
        held = numbers
        while held:
            low = held & -held
            dup += counts[low.bit_length() - 1]
            held ^= low
        if len(records) >= _RECORDS_MAX:
            records.clear()
        rec = records[key] = [sum(map(mul, deltas, counts)), dup, n]
        return rec
    num, dup, pos = rec
    if pos > n:  # cards drawn since
        for c in entry[2][n:pos]:
            num -= deltas[c]
            dup -= numbers >> c & 1
    else:  # cards discarded since
        for c in entry[2][pos:n]:
            num += deltas[c]
            dup += numbers >> c & 1
    rec[0] = num
    rec[1] = dup
    rec[2] = n
    return rec
