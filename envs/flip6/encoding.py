"""Flip 6 observation encoder (one seat's view) and text renderer.

Everything a seat sees in Flip 6 is public (F3: dealt cards are face up; the discard pile was seen
card by card), so every seat's vector differs only in the "me" flags. The deck order and the
generator are never read here.

Observation (float32, size ``OBS_SIZE``), seats in absolute order, always ``MAX_PLAYERS`` blocks:

=====================  ====  ==============================================================
part                   size  content
=====================  ====  ==============================================================
per seat block x6      31    present, is_me, is_dealer, is_deciding, status one-hot (4),
                             number values held (ZERO,1..6; 7), EXTRA_LIFE, DOUBLE,
                             round score if banked now /30, game total /target,
                             points needed to win /target, distinct values /6,
                             P(a hit duplicates a value), cards on table /10,
                             (game total + round score)/target, received FLIP3 / FREEZE,
                             is_leader, expected round-score change of a hit /20 (clipped),
                             banking now wins, P(hit brings a new number), (total - leader)/target
decision one-hot       4     none, turn, target_freeze, target_flip3
flip3 remaining        1     cards still to come in the innermost FLIP3 /3
draw pile size         1     /26
unseen composition     11    count of each card kind in the draw pile /its deck count
                             (public: deck minus discard minus table minus set-aside)
discard composition    11    count of each card kind in the discard pile /its deck count
me one-hot             6     the observer's seat
num players one-hot    4     3, 4, 5, 6
reshuffle flag         1     the draw pile is empty (next draw reshuffles the discard)
=====================  ====  ==============================================================

Action mask (int8, size 8): ``stay``, ``hit``, ``target 0`` .. ``target 5``.
"""

from __future__ import annotations

from operator import mul, sub, truediv
from typing import Any

import numpy as np

from cardarena.envs.flip6.encoding_tables import (
    ABSENT_BYTES,
    DECISION_BYTES,
    DISCARDS,
    END_FLAG,
    FLAG_BYTES,
    FLOAT32,
    FROMBUFFER,
    HEADS,
    JOIN,
    OBS_SIZE,
    ODDS,
    PACK_MID,
    PACK_SEAT,
    ROW_PARTS,
    SEAT_BLOCK,
    SEAT_COUNT_BYTES,
    TAIL,
    discard_entry,
    f32,
    row_part,
)
from cardarena.envs.flip6.encoding_text import (
    hit_value,
    next_card_odds,
    render,
    unseen_counts,
    view,
)
from cardarena.envs.flip6.native import native_encoder
from cardarena.envs.flip6.rules import (
    BUSTED,
    DECK_COUNTS,
    DOUBLE,
    EXTRA_LIFE,
    FLIP3,
    FREEZE,
    IN_ROUND,
    TASK_FLIP3,
    Flip6State,
)

__all__ = [
    "OBS_SIZE",
    "SEAT_BLOCK",
    "encode",
    "hit_value",
    "next_card_odds",
    "render",
    "unseen_counts",
    "view",
]

_SEVEN = range(7)


def encode(state: Flip6State, seat: int) -> np.ndarray:
    """The observation of ``seat`` (see the module docstring for the layout).

    Joined from float32 byte chunks (``encoding_tables.py``): the constant parts are precomputed
    bytes, what depends on a seat's row alone is memoised (``row_part``), and the numbers of a
    seat block are packed at once. Every value is computed as :func:`unseen_counts`,
    :func:`next_card_odds`, :func:`hit_value` and ``round_score`` do (the float32 odds from a
    table of their exact values), so the vector is bit-identical to theirs
    (``tests/test_observation_digests.py``). The hit value's sums over values are exact in
    float64 (float32 odds of at most 26 cards times small integers stay on a grid far finer than
    float64's precision over their range), so they are taken over the values held and the rest
    in any order.
    """
    n = state.num_players
    target = float(state.target_score)
    scores = state.scores
    tables = state.table
    pile = state.discard_pile
    entry = DISCARDS.get(id(pile))
    if entry is None or entry[0] is not pile or entry[1] != len(pile):
        entry = discard_entry(pile)
    discard = entry[2]
    unseen = list(map(sub, DECK_COUNTS, discard))
    for cards in tables:
        for c in cards:
            unseen[c] -= 1
    for c in state.set_aside:
        unseen[c] -= 1
    # next_card_odds: float32 counts / float32 total, read back as Python floats by hit_value
    draw = state.draw_pile
    source = unseen if draw else discard
    total = sum(source)
    e, f, f3 = source[EXTRA_LIFE], source[FREEZE], source[FLIP3]
    if total > 0:
        row_odds = ODDS[total]
        odds = list(map(row_odds.__getitem__, source[:7]))
        odds_double = row_odds[source[DOUBLE]]
        if 0 <= e <= 1 and 0 <= f <= 1 and 0 <= f3 <= 1:
            hit_tail = TAIL[total][e][f][f3]
        else:  # float(odds[EXTRA_LIFE]) + 0.5 * float(odds[FREEZE] + odds[FLIP3]) (float32 sum)
            hit_tail = row_odds[e] + 0.5 * f32(row_odds[f] + row_odds[f3])
    else:
        odds = list(map(float, source[:7]))
        odds_double = float(source[DOUBLE])
        hit_tail = float(e) + 0.5 * f32(float(f) + float(f3))
    weighted = list(map(mul, odds, _SEVEN))
    all_odds = sum(odds)
    all_weighted = sum(weighted)
    p_get = odds.__getitem__
    w_get = weighted.__getitem__
    leader = max(scores)
    over = state.over
    heads = HEADS[seat][state.dealer][0 if over else state.decider + 1]
    get = ROW_PARTS.get
    out: list[Any] = []
    add = out.append
    statuses = state.status
    values_of = state.values
    life_of = state.has_life
    double_of = state.has_double
    for s in range(n):
        status = statuses[s]
        values = values_of[s]
        life = life_of[s]
        double = double_of[s]
        score = scores[s]
        row = tables[s]
        part = get((values, double, *row)) or row_part(values, double, row)
        flags, bits6, rs, rs30, bonus, cards10, flip3, freeze, held = part
        add(heads[s][status])
        if status == IN_ROUND:
            # hit_value: sums over the values held and over the others (exact, see above)
            p_dup = sum(map(p_get, held))
            p_new = all_odds - p_dup
            ev = (
                (2 if double else 1) * (all_weighted - sum(map(w_get, held)))
                + bonus * p_new
                - (1.0 if life else rs) * p_dup
                + odds_double * (0 if double else rs)
                + hit_tail
            ) / 20.0
            ev = 1.0 if ev > 1.0 else -1.0 if ev < -1.0 else ev  # max(min(ev, 1.0), -1.0)
            bank = score + rs >= target
        else:
            if status == BUSTED:  # a busted row shows no values
                flags = 0
                bits6 = 0.0
            rs = 0
            rs30 = p_dup = ev = p_new = 0.0
            bank = False
        x = score / target
        y = (score + rs) / target
        z = (score - leader) / target
        add(FLAG_BYTES[flags])
        add(
            PACK_SEAT(
                life,
                double,
                rs30,
                2.0 if x > 2.0 else x,  # min(x, 2.0)
                (target - score if target - score > 0 else 0) / target,
                bits6,
                p_dup,
                cards10,
                2.0 if y > 2.0 else y,
                flip3,
                freeze,
                score == leader,
                ev,
                bank,
                p_new,
                -1.0 if z < -1.0 else z,  # max(z, -1.0)
            )
        )
    add(ABSENT_BYTES[n])
    add(DECISION_BYTES[0 if over else state.decision])
    flip3_left = 0.0
    for kind, _seat, left in reversed(state.stack):
        if kind == TASK_FLIP3:
            flip3_left = left / 3.0
            break
    add(PACK_MID(flip3_left, len(draw) / 26.0, *map(truediv, unseen, DECK_COUNTS)))
    add(entry[3])
    add(SEAT_COUNT_BYTES[seat, n])
    add(END_FLAG[not draw])
    return FROMBUFFER(JOIN(out), FLOAT32)


#: the reference encoder above; ``encode`` is the compiled one (byte-identical, envs/flip6/native.py)
#: where it is built, unless CARDARENA_CORE=python
encode_python = encode
encode = native_encoder() or encode_python
