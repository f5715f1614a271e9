"""SEVN observation encoder (one seat's view), text renderer and scripted-agent view.

Every card in SEVN is public once drawn (dealt face up, FORK cards revealed to all, every discard
seen: S7, S16, S26), so only the draw-pile order and the generator are hidden; the composition of
the draw pile is public (the deck minus every card seen). Nothing here reads the draw-pile order.

Observation (float32, size ``OBS_SIZE`` = 576), seats in absolute order, always ``MAX_PLAYERS``
(8) blocks:

=====================  ====  ==============================================================
part                   size  content
=====================  ====  ==============================================================
per seat block x8      44    present, is_me, is_dealer, is_deciding, status one-hot (4:
                             in_hand, passed, frozen, busted), values held (17: 0..13, -2,
                             -4, -6), x2, +2, +4, +6, +8, +10, FEATHERWEIGHT, HEAVYWEIGHT,
                             STRAIGHT, SECOND_CHANCE, hand score if banked now /60,
                             game total /target, (total + hand score) /target,
                             distinct values /7, chance the next card busts it,
                             pending draws for it /4, cards on table /20, is_leader,
                             banked this hand /60
decision one-hot       7     none, turn, target_freeze, target_flip_three,
                             target_second_chance, fork, ballast
decision cards         62    card kind one-hot (31) of the set-aside card(s): the card to
                             target/keep, or the two FORK cards (first, second)
pending-draw queue     33    seat one-hot of the next 4 pending draws (4 x 8), queue length /10
deal in progress       1     the initial deal (S7) is not finished
draw pile size         1     /120
next-card composition  31    count of each card kind in the draw pile /its deck count
                             (the discard pile when the draw pile is empty: S26)
discard composition    31    count of each card kind in the discard pile /its deck count
me one-hot             8     the observer's seat
num players one-hot    7     2..8
reshuffle flag         1     the draw pile is empty (next draw reshuffles the discard)
my next card           32    for each card kind, how much the observer's banked score would
                             change if it were the observer's next card (S9-S11, S21-S25:
                             a held number loses the hand, or nothing with a SECOND_CHANCE;
                             a held ballast value is discarded; a new ballast is kept only if
                             that scores more; SEVN's +17 included; action cards 0) /30, then
                             their expectation over the next-card composition /30, all
                             clipped to [-1, 2]; zeros when the observer is not in the hand
each seat's next card  8     the same expectation for every seat in the hand (absolute seat
                             order, 0 for seats out of the hand or absent)
decision cards' worth  2     the observer's change (as above, /30) for the first and second
                             set-aside card (a FORK pair, a ballast to keep), else 0
=====================  ====  ==============================================================

Action mask (int8, size 14): ``pass``, ``draw``, ``target 0`` .. ``target 7``, ``fork 0``,
``fork 1``, ``keep``, ``discard``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardarena.envs.sevn.encoding_piles import pile_entry, row_record
from cardarena.envs.sevn.encoding_rows import SEAT_PARTS, card_deltas, seat_part
from cardarena.envs.sevn.encoding_tables import (
    ABSENT_BYTES,
    DECISION_BYTES,
    FLAG_BYTES,
    HEAD_BYTES,
    NO_DELTA_BYTES,
    NUMBERS,
    OBS_SIZE,
    OVER_TAIL,
    PACK_3,
    PACK_BLOCK_TAIL,
    PACK_TAIL,
    QUEUE_BYTES,
    QUEUE_SHOWN,
    SEAT_BLOCK,
    SEAT_COUNT_BYTES,
    SET_ASIDE_BYTES,
    queue_bytes,
    set_aside_bytes,
)
from cardarena.envs.sevn.encoding_view import bust_chance, next_card_counts, render, view
from cardarena.envs.sevn.native import native_encoder
from cardarena.envs.sevn.rules import IN_HAND, MAX_PLAYERS, NUM_CARD_KINDS, SevnState

__all__ = [
    "OBS_SIZE",
    "QUEUE_SHOWN",
    "SEAT_BLOCK",
    "bust_chance",
    "card_deltas",
    "encode",
    "encode_python",
    "next_card_counts",
    "render",
    "view",
]

#: a join into a new bytearray: np.frombuffer of it is a writable array of its own without a copy
_JOIN = bytearray().join
_FROMBUFFER = np.frombuffer
_FLOAT32 = np.float32
_NO_SET_ASIDE = bytes(4 * 2 * NUM_CARD_KINDS)
_NO_QUEUE = bytes(4 * QUEUE_SHOWN * MAX_PLAYERS)


def encode(state: SevnState, seat: int) -> np.ndarray:
    """The observation of ``seat`` (see the module docstring for the layout).

    Joined from float32 byte chunks: the flag parts of a seat block come from precomputed tables
    (``encoding_tables``), what depends on a seat's row alone is memoised (``encoding_rows``),
    the pile compositions and each row's sums over the next-card pile are kept up to date from
    the cards that moved (``encoding_piles``), and only the few numbers that change every step
    are packed. Every value is computed as :func:`next_card_counts`, :func:`bust_chance` and
    ``hand_score`` do (the golden digests, ``tests/test_observation_digests.py``).
    """
    n = state.num_players
    target = float(state.target_score)
    draw_pile = state.draw_pile
    discard_entry = pile_entry(state.discard_pile)
    draw_entry = pile_entry(draw_pile) if draw_pile else discard_entry
    total = draw_entry[1]
    records = draw_entry[5]
    snap = draw_entry[2]
    scores = state.scores
    leader = max(scores)
    queue = state.queue
    pending = [0] * n
    for s in queue:
        pending[s] += 1
    over = state.over
    deciding = -1 if over else state.decider
    dealer = state.dealer
    banked = state.banked
    status_of = state.status
    values_of = state.values
    table = state.table
    second = state.has_second_chance
    parts_get = SEAT_PARTS.get
    records_get = records.get
    out: list[Any] = []
    add = out.append
    # "each seat's next card" (filled for the seats in the hand) and the observer's part
    each = [0.0] * MAX_PLAYERS
    mine = None
    for s in range(n):
        status = status_of[s]
        values = values_of[s]
        sc = second[s]
        row = table[s]
        key = (values, sc, *row)
        part = parts_get(key)
        if part is None:
            part = seat_part(key, values, sc, row)
        score = scores[s]
        if status == IN_HAND:
            hs = part[1]
            hs60 = part[2]
            rec = records_get(key)
            if rec is None:
                rec = row_record(draw_entry, key, part[5], values & NUMBERS)
            elif rec[2] != total:
                if rec[2] == total + 1:  # one card drawn since (row_record, inlined)
                    c = snap[total]
                    rec[0] -= part[5][c]
                    rec[1] -= (values & NUMBERS) >> c & 1
                    rec[2] = total
                else:
                    rec = row_record(draw_entry, key, part[5], values & NUMBERS)
            if not over:  # the expectation over the next-card composition
                x = (rec[0] / total if total else 0.0) / 30.0
                each[s] = -1.0 if x < -1.0 else (2.0 if x > 2.0 else x)  # clip
                if s == seat:
                    mine = part
            bust = 0.0 if total == 0 or sc else rec[1] / total  # bust_chance
        else:
            hs = 0
            hs60 = 0.0
            bust = 0.0
        add(HEAD_BYTES[s == seat][s == dealer][s == deciding][status])
        add(part[0])
        x = score / target
        y = (score + hs) / target
        p = pending[s] / 4.0
        b = (banked[s] if banked[s] > 0 else 0) / 60.0 if banked else 0.0
        add(
            PACK_BLOCK_TAIL(
                hs60,
                2.0 if x > 2.0 else x,  # min(x, 2.0)
                2.0 if y > 2.0 else y,
                part[3],
                bust,
                2.0 if p > 2.0 else p,
                part[4],
                score == leader,
                2.0 if b > 2.0 else b,
            )
        )
    add(ABSENT_BYTES[n])
    add(DECISION_BYTES[0 if over else state.decision])
    set_aside = state.set_aside
    if set_aside:
        key = tuple(set_aside[:2])
        add(SET_ASIDE_BYTES.get(key) or set_aside_bytes(key))
    else:
        add(_NO_SET_ASIDE)
    if queue:
        key = tuple(queue[:QUEUE_SHOWN])
        add(QUEUE_BYTES.get(key) or queue_bytes(key))
    else:
        add(_NO_QUEUE)
    q = len(queue) / 10.0
    add(PACK_3(2.0 if q > 2.0 else q, state.deal_pos < n and not over, len(draw_pile) / 120.0))
    add(draw_entry[4])
    add(discard_entry[4])
    add(SEAT_COUNT_BYTES[seat, n])
    add(FLAG_BYTES[not draw_pile])
    # "my next card", "each seat's next card", "decision cards' worth"
    if over:
        add(NO_DELTA_BYTES)
        add(OVER_TAIL)
    else:
        if mine is None:  # the observer is out of the hand
            add(NO_DELTA_BYTES)
            held = [0.0, 0.0]
            me = 0.0
        else:
            add(mine[7])
            me = each[seat]
            if set_aside:  # 0.0 for a card not set aside
                scaled = mine[6]
                held = [scaled[set_aside[0]], scaled[set_aside[1]] if len(set_aside) > 1 else 0.0]
            else:
                held = [0.0, 0.0]
        add(PACK_TAIL(me, *each, held[0], held[1]))
    return _FROMBUFFER(_JOIN(out), _FLOAT32)


#: the reference encoder above; ``encode`` is the compiled one (byte-identical, envs/sevn/native.py)
#: where it is built, unless CARDARENA_CORE=python
encode_python = encode
encode = native_encoder() or encode_python
