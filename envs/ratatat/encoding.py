"""Ratatat observation encoder (one seat's view), text renderer and plain-data view.

What a seat sees of the slots depends on the ``memory`` option (see ``rules.visible_slots``):
``perfect_recall`` (default) every slot whose card it knows (R17), ``none`` only the slots it saw
since its previous decision (a recurrent policy must remember the rest), ``seer`` every slot and
the card in any hand (an oracle to measure the value of information; it never sees the draw pile).
Everything else is public (R18). The draw-pile order, unseen cards and the generator are never
read here.

Observation (float32, size ``OBS_SIZE`` = 547), seats in absolute order, always ``MAX_PLAYERS``:

=====================  ====  ==============================================================
part                   size  content
=====================  ====  ==============================================================
slot block x24         16    per slot (seat-major, slots 0..3): card one-hot (13; ``0``..``9``,
                             SWAP, PEEK, DRAW_TWO) if visible, unknown flag, the row's owner
                             knows it (public, R18; 0 with ``memory="none"``), the card moved
                             since this seat's previous decision
seat block x6          12    present, is_me, is_deciding, starts this round, knocked, played
                             this round, still owes its last turn (R10), game total / max,
                             visible sum /36, visible slots /4, estimated round score /36,
                             game total minus the lowest / max
card in hand           15    one-hot (13) if visible, it is mine, it is someone else's
top discard            13    one-hot
discard pile           13    count per card kind / its deck count
unseen cards           13    count per card kind not visible to this seat / its deck count
in use / set aside     6     specials resolving (3), specials set aside at scoring (3), /count
scalars                9     draw pile /66, mean unseen number /9, unseen special share,
                             round /6, rounds left /6, someone knocked, every seat has
                             played (knock allowed, R10), turns / max_turns (clipped at 2),
                             top discard can be taken
decision one-hot       8     none, turn, take_slot, drawn_card, draw_two_extra, swap, peek,
                             knock
me one-hot             6     the observer's seat
num players one-hot    5     2..6
memory one-hot         3     perfect_recall, none, seer
=====================  ====  ==============================================================

Action mask (int8, size 111): ``take_discard``, ``draw``, ``slot 0``..``slot 3``, ``discard``,
``use``, ``redraw``, ``peek 0``..``peek 3``, ``knock``, ``no_knock``, then ``swap K N J`` at
``15 + 24 K + 4 N + J``.
"""

from __future__ import annotations

import struct
from operator import mul, truediv
from typing import Any

import numpy as np

from cardarena.envs.ratatat.encoding_text import (
    estimate_row,
    mean_unseen_number,
    owes_last_turn,
    render,
    unseen_counts,
    view,
)
from cardarena.envs.ratatat.native import native_encoder
from cardarena.envs.ratatat.rules import (
    DECISION_NAMES,
    DECK_COUNTS,
    MAX_PLAYERS,
    MEMORY_MODES,
    NO_MEMORY,
    NUM_CARD_KINDS,
    SLOTS_PER_SEAT,
    RatatatState,
    visible_held,
    visible_slots,
)

__all__ = [
    "OBS_SIZE",
    "SEAT_BLOCK",
    "SLOT_BLOCK",
    "encode",
    "encode_python",
    "estimate_row",
    "mean_unseen_number",
    "owes_last_turn",
    "render",
    "unseen_counts",
    "view",
]

SLOT_BLOCK = 16
SEAT_BLOCK = 12
MAX_SLOTS = MAX_PLAYERS * SLOTS_PER_SEAT
OBS_SIZE = (
    SLOT_BLOCK * MAX_SLOTS
    + SEAT_BLOCK * MAX_PLAYERS
    + 15
    + NUM_CARD_KINDS * 3
    + 6
    + 9
    + len(DECISION_NAMES)
    + MAX_PLAYERS
    + 5
    + len(MEMORY_MODES)
)
assert OBS_SIZE == 547
_DECK = np.asarray(DECK_COUNTS, dtype=np.float32)

# ---- tables of the fast encoder ------------------------------------------------------------------
NUM_SPECIAL = 10  #: cards 10.. are the specials (SWAP, PEEK, DRAW_TWO)


def _onehot(size: int, k: int) -> tuple[float, ...]:
    return tuple(1.0 if i == k else 0.0 for i in range(size))


#: _SLOT_BLOCKS[card][owner knows][changed] (card -1: unknown, the last entry)
_SLOT_BLOCKS = [
    [
        [
            _onehot(13, c if c >= 0 else 13)[:13] + (float(c < 0), float(k), float(ch))
            for ch in (0, 1)
        ]
        for k in (0, 1)
    ]
    for c in [*range(NUM_CARD_KINDS), -1]
]
#: the same as float32 bytes
_SLOT_BYTES = [[[struct.pack(f"{SLOT_BLOCK}f", *b) for b in k] for k in c] for c in _SLOT_BLOCKS]
_OWNER = [i // SLOTS_PER_SEAT for i in range(MAX_SLOTS)]  #: the seat of each slot
#: _SEAT_HEAD[is_me][is_deciding][starts][knocked]: present .. knocked
_SEAT_HEAD = [
    [
        [[(1.0, float(me), float(d), float(st), float(k)) for k in (0, 1)] for st in (0, 1)]
        for d in (0, 1)
    ]
    for me in (0, 1)
]
#: _HELD[card][it is mine]: the card-in-hand part
_HELD = [
    [_onehot(NUM_CARD_KINDS, c) + ((1.0, 0.0) if mine else (0.0, 1.0)) for mine in (0, 1)]
    for c in range(NUM_CARD_KINDS)
]
_CARD_ONEHOT = [_onehot(NUM_CARD_KINDS, c) for c in range(NUM_CARD_KINDS)]


def _accumulated(card: int) -> list[float]:
    """Entry k: k times ``obs[i] += 1.0 / DECK_COUNTS[card]`` on a float32 vector (what the
    in-use and set-aside parts did), as a Python float; k up to the copies in the deck."""
    acc = np.zeros(1, dtype=np.float32)
    out = [0.0]
    for _ in range(DECK_COUNTS[card]):
        acc[0] += 1.0 / DECK_COUNTS[card]
        out.append(float(acc[0]))
    return out


#: _SPECIAL_SHARE[card][copies]: the in-use / set-aside value of ``copies`` of a special
_SPECIAL_SHARE = {c: _accumulated(c) for c in range(NUM_SPECIAL, NUM_CARD_KINDS)}


def _special_shares(cards: list[int]) -> list[float]:
    """The in-use or set-aside part: per special, its copies in ``cards`` as the old
    ``+= 1.0 / DECK_COUNTS[c]`` float32 sums gave them."""
    return [_SPECIAL_SHARE[c][cards.count(c)] for c in range(NUM_SPECIAL, NUM_CARD_KINDS)]


_NUMBER_VALUES = range(10)  #: the value of each number card (the specials count 0 here)
_DECISION_ONEHOT = [_onehot(len(DECISION_NAMES), d) for d in range(len(DECISION_NAMES))]
_SEAT_ONEHOT = [_onehot(MAX_PLAYERS, s) for s in range(MAX_PLAYERS)]
_COUNT_ONEHOT = [_onehot(5, k) for k in range(5)]
_MEMORY_ONEHOT = [_onehot(len(MEMORY_MODES), m) for m in range(len(MEMORY_MODES))]


def _floats(values: Any) -> bytes:
    """``values`` as float32 bytes (the rounding of packing the whole vector at once)."""
    values = tuple(values)
    return struct.pack(f"{len(values)}f", *values)


# the tables as float32 bytes: the vector is joined from byte chunks (cheaper than packing every
# float of it each time)
_HEAD_BYTES = [[[[_floats(h) for h in st] for st in d] for d in me] for me in _SEAT_HEAD]
_ABSENT_BYTES = [bytes(4 * SEAT_BLOCK * (MAX_PLAYERS - n)) for n in range(MAX_PLAYERS + 1)]
_HELD_BYTES = [[_floats(h) for h in c] for c in _HELD]
_NO_HELD_BYTES = bytes(4 * 15)
_TOP_BYTES = [_floats(c) for c in _CARD_ONEHOT]
_NO_TOP_BYTES = bytes(4 * NUM_CARD_KINDS)
_DECISION_BYTES = [_floats(d) for d in _DECISION_ONEHOT]
_SEAT_BYTES = [_floats(d) for d in _SEAT_ONEHOT]
_COUNT_BYTES = [_floats(d) for d in _COUNT_ONEHOT]
_MEMORY_BYTES = [_floats(d) for d in _MEMORY_ONEHOT]
_ZERO_SLOT_BYTES = [bytes(4 * SLOT_BLOCK * (MAX_SLOTS - k)) for k in range(MAX_SLOTS + 1)]
_NO_SHARES = (0.0, 0.0, 0.0)
_PACK_SEAT = struct.Struct("7f").pack
_PACK_MID = struct.Struct(f"{2 * NUM_CARD_KINDS + 6 + 9}f").pack
#: a join into a new bytearray: np.frombuffer of it is a writable array of its own without a copy
_JOIN = bytearray().join
_FROMBUFFER = np.frombuffer
_FLOAT32 = np.float32


def encode(state: RatatatState, seat: int) -> np.ndarray:
    """The observation of ``seat`` (see the module docstring for the layout).

    Joined from float32 byte chunks: the slot blocks, seat heads and one-hots are precomputed
    bytes, and only the numbers that change are packed. Every value is computed as
    :func:`unseen_counts`, :func:`mean_unseen_number`, :func:`estimate_row` and
    :func:`owes_last_turn` do (float sums in the same order), so the vector is bit-identical to
    theirs (``tests/test_observation_digests.py``).
    """
    n = state.num_players
    visible = visible_slots(state, seat)
    since = state.last_decided[seat]
    changed_at = state.changed_at
    if state.memory != NO_MEMORY:  # the row's owner knows the slot: bit (slot // 4) of knowers
        out = [
            _SLOT_BYTES[c][k >> owner & 1][t > since]
            for c, k, owner, t in zip(visible, state.knowers, _OWNER, changed_at, strict=False)
        ]
    else:
        out = [_SLOT_BYTES[c][0][t > since] for c, t in zip(visible, changed_at, strict=True)]
    out.append(_ZERO_SLOT_BYTES[len(visible)])
    # unseen_counts
    discard_pile = state.discard_pile
    discard = [0] * NUM_CARD_KINDS
    counts = list(DECK_COUNTS)
    for c in discard_pile:
        discard[c] += 1
        counts[c] -= 1
    in_use = state.in_use
    set_aside = state.set_aside
    for c in in_use:
        counts[c] -= 1
    for c in set_aside:
        counts[c] -= 1
    for c in visible:
        if c >= 0:
            counts[c] -= 1
    held = visible_held(state, seat)
    if held >= 0:
        counts[held] -= 1
    numbers = sum(counts[:10])  # mean_unseen_number
    mean = sum(map(mul, _NUMBER_VALUES, counts)) / numbers if numbers > 0 else 4.5
    max_total = 36.0 * state.num_rounds
    scores = state.scores
    low = min(scores)
    starter = (state.dealer + 1) % n
    over = state.over
    decider = state.decider if not over else -1
    knocker = state.knocker
    played = state.played
    owing = knocker >= 0 and not over
    add = out.append
    for s in range(n):
        # estimate_row
        known_sum, known, est = 0, 0, 0.0
        for c in visible[s * SLOTS_PER_SEAT : (s + 1) * SLOTS_PER_SEAT]:
            if c >= 0:
                known += 1
                if c < 10:
                    known_sum += c
                    est += c
                else:
                    est += mean
            else:
                est += mean
        score = scores[s]
        x = score / max_total
        y = (score - low) / max_total
        add(_HEAD_BYTES[s == seat][s == decider][s == starter][s == knocker])
        add(
            _PACK_SEAT(
                played >> s & 1,
                owing and s != knocker and (s - decider) % n < (knocker - decider) % n,
                2.0 if x > 2.0 else x,  # min(x, 2.0)
                known_sum / 36.0,
                known / 4.0,
                est / 36.0,
                2.0 if y > 2.0 else y,
            )
        )
    add(_ABSENT_BYTES[n])
    add(_HELD_BYTES[held][state.decider == seat] if held >= 0 else _NO_HELD_BYTES)
    add(_TOP_BYTES[discard_pile[-1]] if discard_pile else _NO_TOP_BYTES)
    unseen_total = sum(counts)
    add(
        _PACK_MID(
            *map(truediv, discard, DECK_COUNTS),
            *map(truediv, counts, DECK_COUNTS),
            *(_special_shares(in_use) if in_use else _NO_SHARES),
            *(_special_shares(set_aside) if set_aside else _NO_SHARES),
            len(state.draw_pile) / 66.0,
            mean / 9.0,
            sum(counts[10:]) / unseen_total if unseen_total else 0.0,
            state.round_index / 6.0,
            (state.num_rounds - state.round_index) / max(6.0, state.num_rounds),
            knocker >= 0,
            played == (1 << n) - 1,
            min(state.turns / state.max_turns, 2.0),
            bool(discard_pile) and discard_pile[-1] < 10,
        )
    )
    add(_DECISION_BYTES[0 if over else state.decision])
    add(_SEAT_BYTES[seat])
    add(_COUNT_BYTES[n - 2])
    add(_MEMORY_BYTES[state.memory])
    return _FROMBUFFER(_JOIN(out), _FLOAT32)


#: the reference encoder above; ``encode`` is the compiled one (byte-identical, envs/ratatat/native.py)
encode_python = encode
encode = native_encoder() or encode_python
