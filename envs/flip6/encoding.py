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

import struct
from operator import truediv
from typing import Any

import numpy as np

from cardarena.envs.flip6.rules import (
    BUSTED,
    CARD_CODES,
    DECISION_NAMES,
    DECK_COUNTS,
    DOUBLE,
    EXTRA_LIFE,
    FLIP3,
    FREEZE,
    IN_ROUND,
    MAX_PLAYERS,
    NUM_CARD_KINDS,
    STATUS_NAMES,
    TASK_FLIP3,
    Flip6State,
    round_score,
)

SEAT_BLOCK = 31
OBS_SIZE = SEAT_BLOCK * MAX_PLAYERS + 4 + 1 + 1 + NUM_CARD_KINDS * 2 + MAX_PLAYERS + 4 + 1
_DECK_COUNTS = np.asarray(DECK_COUNTS, dtype=np.float32)

# ---- tables of the fast encoder (exact float32 arithmetic of the original, precomputed) ---------


def _f32(x: float) -> float:
    """``x`` rounded to float32 (as numpy rounds a float64), as a Python float."""
    return struct.unpack("f", struct.pack("f", x))[0]


#: _ODDS[total][count]: float32(count) / float32(total) as a Python float (next_card_odds)
_ODDS = [[0.0]] + [
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


def unseen_counts(state: Flip6State) -> np.ndarray:
    """Count per card kind of the cards a seat has not seen (the draw pile), from public info."""
    counts = _DECK_COUNTS.copy()
    for c in state.discard_pile:
        counts[c] -= 1
    for cards in state.table:
        for c in cards:
            counts[c] -= 1
    for c in state.set_aside:
        counts[c] -= 1
    return counts


def next_card_odds(state: Flip6State, unseen: np.ndarray) -> np.ndarray:
    """Probability of each card kind on the next draw (from the discard pile after a reshuffle)."""
    counts = unseen
    if not state.draw_pile:
        counts = np.bincount(state.discard_pile, minlength=NUM_CARD_KINDS).astype(np.float32)
    total = counts.sum()
    return counts / total if total > 0 else counts


def hit_value(state: Flip6State, seat: int, odds: np.ndarray) -> tuple[float, float, float]:
    """(expected change of the round score from one more card, P(duplicate), P(new number)).

    A duplicate costs the round score, or about a point when EXTRA_LIFE absorbs it (F10); a new
    number adds its value (x2 with DOUBLE) plus the Flip 6 bonus on the sixth value (F9).
    """
    values = state.values[seat]
    score = round_score(state, seat)
    mult = 2 if state.has_double[seat] else 1
    sixth = values.bit_count() == 5
    ev = p_dup = p_new = 0.0
    for v in range(7):
        p = float(odds[v])
        if p == 0.0:
            continue
        if values >> v & 1:
            p_dup += p
            ev -= p * (1.0 if state.has_life[seat] else score)
        else:
            p_new += p
            ev += p * (v * mult + (6 if sixth else 0))
    ev += float(odds[DOUBLE]) * (0 if state.has_double[seat] else score)
    ev += float(odds[EXTRA_LIFE]) + 0.5 * float(odds[FREEZE] + odds[FLIP3])
    return ev, p_dup, p_new


#: (values, has_double, *row) -> _row_part(...): what a seat block takes from the seat's row
_ROW_PARTS: dict[tuple[int, ...], tuple[Any, ...]] = {}
_ROW_PARTS_MAX = 4096  #: entries; the cache is emptied when full (a few MiB at most)


def _row_part(values: int, double: bool, row: list[int]) -> tuple[Any, ...]:
    """(values (index of the value flags), distinct values /6, round_score, round_score /30, a sixth value would make
    Flip 6, cards on the table /10) of a seat still in the round; memoised in ``_ROW_PARTS``
    (a row stays put for several steps while the others play)."""
    rs = sum(c for c in row if 1 <= c <= 6)  # round_score
    if double:
        rs *= 2
    part = (
        values,
        values.bit_count() / 6.0,
        rs,
        rs / 30.0,
        values.bit_count() == 5,
        len(row) / 10.0,
    )
    if len(_ROW_PARTS) >= _ROW_PARTS_MAX:
        _ROW_PARTS.clear()
    _ROW_PARTS[(values, double, *row)] = part
    return part


#: a join into a new bytearray: np.frombuffer of it is a writable array of its own without a copy
_JOIN = bytearray().join
_FROMBUFFER = np.frombuffer
_FLOAT32 = np.float32


def _floats(values: Any) -> bytes:
    """``values`` as float32 bytes (the rounding of packing the whole vector at once)."""
    values = tuple(values)
    return struct.pack(f"{len(values)}f", *values)


# the tables as float32 bytes: the vector is joined from byte chunks (cheaper than packing every
# float of it each time)
_HEAD_BYTES = [[[[_floats(h) for h in dc] for dc in dl] for dl in me] for me in _SEAT_HEAD]
_FLAG_BYTES = [_floats(f) for f in _VALUE_FLAGS]
_ABSENT_BYTES = [bytes(4 * SEAT_BLOCK * (MAX_PLAYERS - n)) for n in range(MAX_PLAYERS + 1)]
_DECISION_BYTES = [_floats(d) for d in _DECISION_ONEHOT]
_PACK_SEAT = struct.Struct("16f").pack
_PACK_MID = struct.Struct(f"{2 + 2 * NUM_CARD_KINDS}f").pack
#: (seat, num_players) -> "me one-hot" + "num players one-hot"
_SEAT_COUNT_BYTES = {
    (s, n): _floats(_SEAT_ONEHOT[s] + _COUNT_ONEHOT[n - 3])
    for n in range(3, MAX_PLAYERS + 1)
    for s in range(n)
}
_END_FLAG = (_floats((0.0,)), _floats((1.0,)))
#: id(discard pile) -> [the pile, its length, count per card kind]: the discard pile only grows
#: until a reshuffle replaces it with a new list, so its counts are updated from the new cards
_DISCARDS: dict[int, list[Any]] = {}


def _discard_counts(pile: list[int]) -> list[int]:
    entry = _DISCARDS.get(id(pile))
    n = len(pile)
    if entry is not None and entry[0] is pile and entry[1] <= n:
        if entry[1] < n:
            counts = entry[2]
            for c in pile[entry[1] :]:
                counts[c] += 1
            entry[1] = n
        return entry[2]
    counts = [0] * NUM_CARD_KINDS
    for c in pile:
        counts[c] += 1
    if len(_DISCARDS) >= 64:
        _DISCARDS.clear()
    _DISCARDS[id(pile)] = [pile, n, counts]
    return counts


def encode(state: Flip6State, seat: int) -> np.ndarray:
    """The observation of ``seat`` (see the module docstring for the layout).

    Built as one list of Python floats packed to float32 at once (writing numpy scalars one by one
    was most of an env step), with the flag parts from precomputed tables and what depends on a
    seat's row alone memoised (:func:`_row_part`). Every value is computed as
    :func:`unseen_counts`, :func:`next_card_odds`, :func:`hit_value` and ``round_score`` do (the
    float32 odds from a table of their exact values, float sums in the same order), so the vector
    is bit-identical to theirs (``tests/test_encoder_equivalence.py``).
    """
    n = state.num_players
    target = float(state.target_score)
    scores = state.scores
    tables = state.table
    discard = _discard_counts(state.discard_pile)
    unseen = [d - k for d, k in zip(DECK_COUNTS, discard, strict=True)]
    for cards in tables:
        for c in cards:
            unseen[c] -= 1
    for c in state.set_aside:
        unseen[c] -= 1
    # next_card_odds: float32 counts / float32 total, read back as Python floats by hit_value
    source = unseen if state.draw_pile else discard
    total = sum(source)
    odds = [_ODDS[total][k] for k in source] if total > 0 else [float(k) for k in source]
    hits = [(v, odds[v]) for v in range(7) if odds[v] != 0.0]
    odds_double = odds[DOUBLE]
    # float(odds[EXTRA_LIFE]) + 0.5 * float(odds[FREEZE] + odds[FLIP3]) (a float32 sum)
    hit_tail = odds[EXTRA_LIFE] + 0.5 * _f32(odds[FREEZE] + odds[FLIP3])
    leader = max(scores)
    decider = -1 if state.over else state.decider
    dealer = state.dealer
    out: list[Any] = []
    add = out.append
    status_of = state.status
    values_of = state.values
    life_of = state.has_life
    double_of = state.has_double
    for s in range(n):
        status = status_of[s]
        row = tables[s]
        score = scores[s]
        values = values_of[s]
        life = life_of[s]
        double = double_of[s]
        part = _ROW_PARTS.get((values, double, *row))
        if part is None:
            part = _row_part(values, double, row)
        flags, bits6, rs, rs30, sixth, cards10 = part
        if status == IN_ROUND:
            # hit_value
            mult = 2 if double else 1
            ev = p_dup = p_new = 0.0
            for v, p in hits:
                if values >> v & 1:
                    p_dup += p
                    ev -= p * (1.0 if life else rs)
                else:
                    p_new += p
                    ev += p * (v * mult + (6 if sixth else 0))
            ev += odds_double * (0 if double else rs)
            ev += hit_tail
            ev /= 20.0
            ev = 1.0 if ev > 1.0 else ev  # max(min(ev, 1.0), -1.0)
            ev = -1.0 if ev < -1.0 else ev
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
        add(_HEAD_BYTES[s == seat][s == dealer][s == decider][status])
        add(_FLAG_BYTES[flags])
        add(
            _PACK_SEAT(
                life,
                double,
                rs30,
                2.0 if x > 2.0 else x,  # min(x, 2.0)
                (target - score if target - score > 0 else 0) / target,
                bits6,
                p_dup,
                cards10,
                2.0 if y > 2.0 else y,
                FLIP3 in row,
                FREEZE in row,
                score == leader,
                ev,
                bank,
                p_new,
                -1.0 if z < -1.0 else z,  # max(z, -1.0)
            )
        )
    add(_ABSENT_BYTES[n])
    add(_DECISION_BYTES[0 if state.over else state.decision])
    flip3_left = 0.0
    for kind, _seat, left in reversed(state.stack):
        if kind == TASK_FLIP3:
            flip3_left = left / 3.0
            break
    add(
        _PACK_MID(
            flip3_left,
            len(state.draw_pile) / 26.0,
            *map(truediv, unseen, DECK_COUNTS),
            *map(truediv, discard, DECK_COUNTS),
        )
    )
    add(_SEAT_COUNT_BYTES[seat, n])
    add(_END_FLAG[not state.draw_pile])
    return _FROMBUFFER(_JOIN(out), _FLOAT32)


def render(state: Flip6State, seat: int | None = None) -> str:
    """A text table of the public state (Flip 6 has no private cards)."""
    lines = [
        f"flip6  round {state.round_index + 1}  dealer {state.dealer}  "
        f"draw pile {len(state.draw_pile)}  discard {len(state.discard_pile)}  "
        f"target {state.target_score}"
    ]
    for s in range(state.num_players):
        marks = ("*" if s == state.decider and not state.over else " ") + (
            "D" if s == state.dealer else " "
        )
        cards = " ".join(CARD_CODES[c] for c in state.table[s]) or "-"
        me = " (you)" if s == seat else ""
        lines.append(
            f"{marks} seat {s}{me}: total {state.scores[s]:>3}  {STATUS_NAMES[state.status[s]]:<8}  "
            f"round {round_score(state, s) if state.status[s] == IN_ROUND else 0:>2}  [{cards}]"
        )
    if state.over:
        lines.append(f"game over: winners {state.winners}")
    else:
        extra = ""
        if state.set_aside:
            extra = f" (holding {CARD_CODES[state.set_aside[-1]]})"
        lines.append(f"decision: seat {state.decider} {DECISION_NAMES[state.decision]}{extra}")
    return "\n".join(lines)


def view(state: Flip6State, seat: int) -> dict[str, Any]:
    """What ``seat`` may see, as plain data for scripted agents (all of it is public, F3)."""
    flip3_left = 0
    for kind, _s, left in reversed(state.stack):
        if kind == TASK_FLIP3:
            flip3_left = left
            break
    return {
        "seat": seat,
        "num_players": state.num_players,
        "target_score": state.target_score,
        "dealer": state.dealer,
        "decision": "game_over" if state.over else DECISION_NAMES[state.decision],
        "decider": state.decider,
        "scores": list(state.scores),
        "status": [STATUS_NAMES[s] for s in state.status],
        "table": [[CARD_CODES[c] for c in cards] for cards in state.table],
        "values": [
            sorted(v for v in range(7) if state.values[s] >> v & 1)
            if state.status[s] != BUSTED
            else []
            for s in range(state.num_players)
        ],
        "has_extra_life": list(state.has_life),
        "has_double": list(state.has_double),
        "round_scores": [
            round_score(state, s) if state.status[s] == IN_ROUND else 0
            for s in range(state.num_players)
        ],
        "draw_pile_size": len(state.draw_pile),
        "discard_pile": [CARD_CODES[c] for c in state.discard_pile],
        "unseen": {CARD_CODES[c]: int(n) for c, n in enumerate(unseen_counts(state))},
        "holding": CARD_CODES[state.set_aside[-1]] if state.set_aside else None,
        "flip3_left": flip3_left,
    }
