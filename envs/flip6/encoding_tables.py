"""Tables and memos of the Flip 6 encoder (``encoding.py``): what it looks up instead of computing
per observation (float32 bytes of the constant parts, the exact float32 odds, what a seat's row
gives, the discard pile's counts). Every value is computed as the plain forms in
``encoding_text.py`` compute it, so the vector stays bit-identical
(``tests/test_observation_digests.py``).
"""

from __future__ import annotations

import struct
from operator import truediv
from typing import Any

import numpy as np

from cardarena.envs.flip6.rules import DECK_COUNTS, FLIP3, FREEZE, MAX_PLAYERS, NUM_CARD_KINDS

SEAT_BLOCK = 31
OBS_SIZE = SEAT_BLOCK * MAX_PLAYERS + 4 + 1 + 1 + NUM_CARD_KINDS * 2 + MAX_PLAYERS + 4 + 1

# ---- tables of the fast encoder (exact float32 arithmetic of the original, precomputed) ---------


def f32(x: float) -> float:
    """``x`` rounded to float32 (as numpy rounds a float64), as a Python float."""
    return struct.unpack("f", struct.pack("f", x))[0]


#: ODDS[total][count]: float32(count) / float32(total) as a Python float (next_card_odds)
ODDS = [[0.0]] + [
    (np.arange(total + 1, dtype=np.float32) / np.float32(total)).tolist()
    for total in range(1, sum(DECK_COUNTS) + 1)
]
_VALUE_FLAGS = [tuple(float(m >> v & 1) for v in range(7)) for m in range(1 << 7)]


def _onehot(size: int, k: int) -> tuple[float, ...]:
    return tuple(1.0 if i == k else 0.0 for i in range(size))


#: _SEAT_HEAD[is_me][is_dealer][is_deciding][status]: present .. status one-hot
_SEAT_HEAD = [
    [
        [
            [(1.0, float(me), float(dealer), float(deciding)) + _onehot(4, st) for st in range(4)]
            for deciding in (0, 1)
        ]
        for dealer in (0, 1)
    ]
    for me in (0, 1)
]
_DECISION_ONEHOT = [_onehot(4, d) for d in range(4)]
_SEAT_ONEHOT = [_onehot(MAX_PLAYERS, s) for s in range(MAX_PLAYERS)]
_COUNT_ONEHOT = [_onehot(4, k) for k in range(4)]


#: the value a card adds to a round score (numbers 1..6; ZERO and the specials 0)
_NUMBER_VALUE = [c if 1 <= c <= 6 else 0 for c in range(NUM_CARD_KINDS)]
#: the values held (bits of ``values``), lowest first
_VALUE_BITS = [tuple(v for v in range(7) if m >> v & 1) for m in range(1 << 7)]
#: (values, has_double, *row) -> row_part(...): what a seat block takes from the seat's row
ROW_PARTS: dict[tuple[int, ...], tuple[Any, ...]] = {}
_ROW_PARTS_MAX = 4096  #: entries; the cache is emptied when full (a few MiB at most)


def row_part(values: int, double: bool, row: list[int]) -> tuple[Any, ...]:
    """(values (index of the value flags), distinct values /6, round_score, round_score /30, the
    Flip 6 bonus a new value would add, cards on the table /10, FLIP3 held, FREEZE held, the
    values held) of a seat; memoised in ``ROW_PARTS`` (a row stays put for several steps while
    the others play)."""
    rs = sum(map(_NUMBER_VALUE.__getitem__, row))  # round_score
    if double:
        rs *= 2
    part = (
        values,
        values.bit_count() / 6.0,
        rs,
        rs / 30.0,
        6 if values.bit_count() == 5 else 0,
        len(row) / 10.0,
        FLIP3 in row,
        FREEZE in row,
        _VALUE_BITS[values],
    )
    if len(ROW_PARTS) >= _ROW_PARTS_MAX:
        ROW_PARTS.clear()
    ROW_PARTS[(values, double, *row)] = part
    return part


#: _TAIL[total][EXTRA_LIFE][FREEZE][FLIP3 count]: odds[EXTRA_LIFE] + 0.5 * f32(odds[FREEZE] +
#: odds[FLIP3]), the seat-free end of hit_value, for the counts of one-copy cards (0 or 1)
TAIL = [None] + [
    [
        [[ODDS[t][e] + 0.5 * f32(ODDS[t][f] + ODDS[t][f3]) for f3 in (0, 1)] for f in (0, 1)]
        for e in (0, 1)
    ]
    for t in range(1, sum(DECK_COUNTS) + 1)
]


#: a join into a new bytearray: np.frombuffer of it is a writable array of its own without a copy
JOIN = bytearray().join
FROMBUFFER = np.frombuffer
FLOAT32 = np.float32


def _floats(values: Any) -> bytes:
    """``values`` as float32 bytes (the rounding of packing the whole vector at once)."""
    values = tuple(values)
    return struct.pack(f"{len(values)}f", *values)


# the tables as float32 bytes: the vector is joined from byte chunks (cheaper than packing every
# float of it each time)
_HEAD_BYTES = [[[[_floats(h) for h in dc] for dc in dl] for dl in me] for me in _SEAT_HEAD]
#: HEADS[seat][dealer][decider + 1][s][status]: the head of seat s's block seen from seat
HEADS = [
    [
        [
            [_HEAD_BYTES[s == me][s == dealer][s == dec] for s in range(MAX_PLAYERS)]
            for dec in range(-1, MAX_PLAYERS)
        ]
        for dealer in range(MAX_PLAYERS)
    ]
    for me in range(MAX_PLAYERS)
]
FLAG_BYTES = [_floats(f) for f in _VALUE_FLAGS]
ABSENT_BYTES = [bytes(4 * SEAT_BLOCK * (MAX_PLAYERS - n)) for n in range(MAX_PLAYERS + 1)]
DECISION_BYTES = [_floats(d) for d in _DECISION_ONEHOT]
PACK_SEAT = struct.Struct("16f").pack
PACK_MID = struct.Struct(f"{2 + NUM_CARD_KINDS}f").pack
_PACK_KINDS = struct.Struct(f"{NUM_CARD_KINDS}f").pack
#: (seat, num_players) -> "me one-hot" + "num players one-hot"
SEAT_COUNT_BYTES = {
    (s, n): _floats(_SEAT_ONEHOT[s] + _COUNT_ONEHOT[n - 3])
    for n in range(3, MAX_PLAYERS + 1)
    for s in range(n)
}
END_FLAG = (_floats((0.0,)), _floats((1.0,)))
#: id(discard pile) -> [the pile, its length, count per card kind, their float32 bytes part of
#: the vector]: the discard pile only grows until a reshuffle replaces it with a new list, so its
#: counts are updated from the new cards
DISCARDS: dict[int, list[Any]] = {}


def discard_entry(pile: list[int]) -> list[Any]:
    """The up-to-date ``DISCARDS`` entry of ``pile``."""
    entry = DISCARDS.get(id(pile))
    n = len(pile)
    if entry is not None and entry[0] is pile and entry[1] <= n:
        counts = entry[2]
        for c in pile[entry[1] :]:
            counts[c] += 1
    else:
        counts = [0] * NUM_CARD_KINDS
        for c in pile:
            counts[c] += 1
        if len(DISCARDS) >= 64:
            DISCARDS.clear()
        entry = DISCARDS[id(pile)] = [pile, n, counts, b""]
    entry[1] = n
    entry[3] = _PACK_KINDS(*map(truediv, counts, DECK_COUNTS))
    return entry
