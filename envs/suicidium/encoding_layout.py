"""Suicidium observation layout: sizes, plane offsets and the constant tables the encoder joins.

The layout itself is documented in ``envs/suicidium/encoding.py``.
"""

from __future__ import annotations

import struct

import numpy as np

from cardarena.envs.suicidium.rules import (
    BASE_OBJECTS,
    MAX_PLAYERS,
    NUM_CARDS,
    NUM_OBJECT_TYPES,
    PARTY_OBJECTS,
)

SEAT_BLOCK = 20
GLOBAL_SIZE = 2 + 1 + 4 + 8 + 4 + 8 + 8
CARD_PLANES = 11
OBS_SIZE = SEAT_BLOCK * MAX_PLAYERS + GLOBAL_SIZE + CARD_PLANES * NUM_CARDS
_G = SEAT_BLOCK * MAX_PLAYERS
_C = _G + GLOBAL_SIZE
(
    P_HAND,
    P_TABLE,
    P_WORKS,
    P_MINE,
    P_AIMS_AT_ME,
    P_PENDING,
    P_PENDING_TARGET,
    P_DISCARD,
    P_KNOWN,
    P_RECIPIENT,
    P_RESPONSES_ON,
) = (_C + k * NUM_CARDS for k in range(CARD_PLANES))

# ---- tables of the fast encoder ------------------------------------------------------------------
_PACK_HEAD = struct.Struct(f"{_C}f").pack
_ZEROS = [0.0] * (SEAT_BLOCK * MAX_PLAYERS)
#: objects per type in the object deck, without / with the party objects (5 players)
_OBJECT_COUNTS = [
    [BASE_OBJECTS.count(t) for t in range(NUM_OBJECT_TYPES)],
    [(BASE_OBJECTS + PARTY_OBJECTS).count(t) for t in range(NUM_OBJECT_TYPES)],
]
_MAX_COUNT = len(BASE_OBJECTS + PARTY_OBJECTS) + 1
_FIFTHS = {k: k / 5.0 for k in range(-_MAX_COUNT, _MAX_COUNT)}  #: object pile count /5
_KNOWN_HOLDER = [(h + 1) / 5.0 for h in range(MAX_PLAYERS)]


def _onehot(size: int, k: int) -> tuple[float, ...]:
    return tuple(1.0 if i == k else 0.0 for i in range(size))


#: _GLOBAL_HEAD[mode][expansion][players - 2][decision][phase]: mode one-hot .. phase one-hot
_GLOBAL_HEAD = [
    [
        [
            [
                [
                    _onehot(2, m) + (float(x),) + _onehot(4, k) + _onehot(8, d) + _onehot(4, ph)
                    for ph in range(4)
                ]
                for d in range(8)
            ]
            for k in range(4)
        ]
        for x in (0, 1)
    ]
    for m in range(2)
]


def _responses_on() -> list[float]:
    """Entry k: k times ``obs[i] = min(obs[i] + 1.0 / 3.0, 2.0)`` on a float32 vector (what the
    old encoder did per response resting on a card), as a Python float."""
    acc = np.zeros(1, dtype=np.float32)
    out = [0.0]
    for _ in range(NUM_CARDS):
        acc[0] = min(acc[0] + 1.0 / 3.0, 2.0)
        out.append(float(acc[0]))
    return out


_RESPONSES_ON = _responses_on()


_ONE = struct.pack("f", 1.0)
_PLANE_BYTES = 4 * NUM_CARDS
#: the six planes from P_TABLE to P_PENDING_TARGET, and the three after P_DISCARD, all zeros (the
#: few cards on them are written afterwards)
_ZERO_TABLE_PLANES = bytes(6 * _PLANE_BYTES)
_ZERO_LAST_PLANES = bytes(3 * _PLANE_BYTES)
assert P_TABLE == P_HAND + NUM_CARDS and P_DISCARD == P_HAND + 7 * NUM_CARDS
assert P_RESPONSES_ON == P_DISCARD + 3 * NUM_CARDS and OBS_SIZE == P_RESPONSES_ON + NUM_CARDS
#: a join into a new bytearray: np.frombuffer of it is a writable array of its own without a copy
_JOIN = bytearray().join
_FROMBUFFER = np.frombuffer
_FLOAT32 = np.float32


def _floats(values: tuple[float, ...]) -> bytes:
    return struct.pack(f"{len(values)}f", *values)


#: the byte chunks the seat blocks and the global part are joined from
#: _SEAT_HEAD[is_me][in_game][is_active][is_deciding]: present .. is deciding
_SEAT_HEAD = [
    [
        [[_floats((1.0, me, alive, act, dec)) for dec in (0.0, 1.0)] for act in (0.0, 1.0)]
        for alive in (0.0, 1.0)
    ]
    for me in (0.0, 1.0)
]
_ABSENT_SEATS = [bytes(4 * SEAT_BLOCK * (MAX_PLAYERS - n)) for n in range(MAX_PLAYERS + 1)]
_GLOBAL_HEAD_BYTES = [
    [[[[_floats(ph) for ph in d] for d in k] for k in x] for x in m] for m in _GLOBAL_HEAD
]
_NO_TURN_STATE = bytes(4 * 7)
_PACK_1 = struct.Struct("f").pack
_PACK_2 = struct.Struct("2f").pack
_PACK_3 = struct.Struct("3f").pack
_PACK_6 = struct.Struct("6f").pack
_PACK_7 = struct.Struct("7f").pack
