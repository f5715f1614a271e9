"""SEVN observation layout sizes and the precomputed float32 byte tables the encoder joins.

The layout itself is documented in ``envs/sevn/encoding.py``; everything here is a constant
computed once at import (the tables of flags, one-hots and seat heads as float32 bytes) or a
small memo of byte chunks (the set-aside cards, the pending-draw queue).
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from cardarena.envs.sevn.rules import (
    DECK_COUNTS,
    FEATHERWEIGHT,
    LAST_VALUE_CARD,
    MAX_PLAYERS,
    NUM_CARD_KINDS,
    NUM_DECISIONS,
    SECOND_CHANCE,
    STRAIGHT,
    X2,
)

SEAT_BLOCK = 44
QUEUE_SHOWN = 4
OBS_SIZE = (
    SEAT_BLOCK * MAX_PLAYERS
    + NUM_DECISIONS
    + 2 * NUM_CARD_KINDS
    + QUEUE_SHOWN * MAX_PLAYERS
    + 1
    + 1
    + 1
    + 2 * NUM_CARD_KINDS
    + MAX_PLAYERS
    + 7
    + 1
    + NUM_CARD_KINDS
    + 1
    + MAX_PLAYERS
    + 2
)
DECK_COUNTS_F32 = np.asarray(DECK_COUNTS, dtype=np.float32)
#: offsets of the per-seat flags of the kept non-value cards (x2 .. +10, bonuses)
KEPT_OFFSET = {c: 25 + (c - X2) for c in range(X2, X2 + 6)}
KEPT_OFFSET.update({c: 31 + (c - FEATHERWEIGHT) for c in range(FEATHERWEIGHT, STRAIGHT + 1)})
KEPT_OFFSET[SECOND_CHANCE] = 34

NUMBERS = (1 << 14) - 1  #: value bits that bust_chance looks at (numbers 0..13)
LOW_BITS = 9
LOW_MASK = (1 << LOW_BITS) - 1
LOW_FLAGS = [tuple(float(m >> v & 1) for v in range(LOW_BITS)) for m in range(1 << LOW_BITS)]
_HIGH_BITS = LAST_VALUE_CARD + 1 - LOW_BITS
HIGH_FLAGS = [tuple(float(m >> v & 1) for v in range(_HIGH_BITS)) for m in range(1 << _HIGH_BITS)]
#: the kept non-value cards as bits of a mask (bit k: seat-block offset 25 + k), and their flags
KEPT_BIT = [1 << (KEPT_OFFSET[c] - 25) if c in KEPT_OFFSET else 0 for c in range(NUM_CARD_KINDS)]
KEPT_FLAGS = [tuple(float(m >> k & 1) for k in range(10)) for m in range(1 << 10)]


def _onehot(size: int, k: int) -> tuple[float, ...]:
    return tuple(1.0 if i == k else 0.0 for i in range(size))


def floats(values: Any) -> bytes:
    """``values`` as float32 bytes (the rounding of packing the whole vector at once)."""
    values = tuple(values)
    return struct.pack(f"{len(values)}f", *values)


#: seat head (present .. status one-hot) as float32 bytes:
#: HEAD_BYTES[is_me][is_dealer][is_deciding][status]
HEAD_BYTES = [
    [
        [
            [
                floats((1.0, float(me), float(dealer), float(deciding)) + _onehot(4, st))
                for st in range(4)
            ]
            for deciding in (0, 1)
        ]
        for dealer in (0, 1)
    ]
    for me in (0, 1)
]
#: the blocks of the absent seats (zeros) after ``n`` present ones
ABSENT_BYTES = [bytes(4 * SEAT_BLOCK * (MAX_PLAYERS - n)) for n in range(MAX_PLAYERS + 1)]
DECISION_BYTES = [floats(_onehot(NUM_DECISIONS, d)) for d in range(NUM_DECISIONS)]
#: (seat, num_players) -> "me one-hot" + "num players one-hot"
SEAT_COUNT_BYTES = {
    (s, n): floats(_onehot(MAX_PLAYERS, s) + _onehot(7, n - 2))
    for n in range(2, MAX_PLAYERS + 1)
    for s in range(n)
}
FLAG_BYTES = (floats((0.0,)), floats((1.0,)))
NO_DELTA_BYTES = bytes(4 * NUM_CARD_KINDS)
OVER_TAIL = bytes(4 * (1 + MAX_PLAYERS + 2))
PACK_BLOCK_TAIL = struct.Struct("9f").pack
PACK_3 = struct.Struct("3f").pack
PACK_TAIL = struct.Struct(f"{1 + MAX_PLAYERS + 2}f").pack
PACK_INTO_F = struct.Struct("f").pack_into
PACK_KINDS = struct.Struct(f"{NUM_CARD_KINDS}f").pack
PACK_FLAGS = struct.Struct(f"{LAST_VALUE_CARD + 1 + 10}f").pack
#: tuple(set_aside[:2]) -> "decision cards" bytes; tuple(queue[:4]) -> "pending-draw queue"
SET_ASIDE_BYTES: dict[tuple[int, ...], bytes] = {}
QUEUE_BYTES: dict[tuple[int, ...], bytes] = {}


def set_aside_bytes(key: tuple[int, ...]) -> bytes:
    cards = [0.0] * (2 * NUM_CARD_KINDS)
    for i, c in enumerate(key):
        cards[i * NUM_CARD_KINDS + c] = 1.0
    out = SET_ASIDE_BYTES[key] = floats(cards)
    return out


def queue_bytes(key: tuple[int, ...]) -> bytes:
    queue = [0.0] * (QUEUE_SHOWN * MAX_PLAYERS)
    for i, s in enumerate(key):
        queue[i * MAX_PLAYERS + s] = 1.0
    out = QUEUE_BYTES[key] = floats(queue)
    return out
