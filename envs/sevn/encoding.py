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

import struct
from operator import mul, truediv
from typing import Any

import numpy as np

from cardarena.envs.sevn.rules import (
    BALLAST_M2,
    CARD_CODES,
    CARD_VALUE,
    DECISION_NAMES,
    DECK_COUNTS,
    FEATHERWEIGHT,
    FEATHERWEIGHT_POINTS,
    HEAVYWEIGHT,
    HEAVYWEIGHT_POINTS,
    IN_HAND,
    LAST_MODIFIER,
    LAST_VALUE_CARD,
    MAX_PLAYERS,
    NUM_CARD_KINDS,
    NUM_DECISIONS,
    NUMBER_MASK,
    SECOND_CHANCE,
    SEVN_BONUS,
    SEVN_VALUES,
    STATUS_NAMES,
    STRAIGHT,
    STRAIGHT_POINTS_PER_CARD,
    X2,
    SevnState,
    hand_score,
    longest_run,
    second_chance_takers,
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
_DECK_COUNTS = np.asarray(DECK_COUNTS, dtype=np.float32)
#: offsets of the per-seat flags of the kept non-value cards (x2 .. +10, bonuses)
_KEPT_OFFSET = {c: 25 + (c - X2) for c in range(X2, X2 + 6)}
_KEPT_OFFSET.update({c: 31 + (c - FEATHERWEIGHT) for c in range(FEATHERWEIGHT, STRAIGHT + 1)})
_KEPT_OFFSET[SECOND_CHANCE] = 34

# ---- tables of the fast encoder ------------------------------------------------------------------
_PACK = struct.Struct(f"{OBS_SIZE}f").pack
_NUMBERS = (1 << 14) - 1  #: value bits that bust_chance looks at (numbers 0..13)
_LOW_BITS = 9
_LOW_MASK = (1 << _LOW_BITS) - 1
_LOW_FLAGS = [tuple(float(m >> v & 1) for v in range(_LOW_BITS)) for m in range(1 << _LOW_BITS)]
_HIGH_BITS = LAST_VALUE_CARD + 1 - _LOW_BITS
_HIGH_FLAGS = [tuple(float(m >> v & 1) for v in range(_HIGH_BITS)) for m in range(1 << _HIGH_BITS)]
#: the kept non-value cards as bits of a mask (bit k: seat-block offset 25 + k), and their flags
_KEPT_BIT = [1 << (_KEPT_OFFSET[c] - 25) if c in _KEPT_OFFSET else 0 for c in range(NUM_CARD_KINDS)]
_KEPT_FLAGS = [tuple(float(m >> k & 1) for k in range(10)) for m in range(1 << 10)]


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
_ZEROS = [0.0] * (SEAT_BLOCK * MAX_PLAYERS)
_DECISION_ONEHOT = [_onehot(NUM_DECISIONS, d) for d in range(NUM_DECISIONS)]
_SEAT_ONEHOT = [_onehot(MAX_PLAYERS, s) for s in range(MAX_PLAYERS)]
_COUNT_ONEHOT = [_onehot(7, k) for k in range(7)]


#: a join into a new bytearray: np.frombuffer of it is a writable array of its own without a copy
_JOIN = bytearray().join
_FROMBUFFER = np.frombuffer
_FLOAT32 = np.float32


def _floats(values: Any) -> bytes:
    """``values`` as float32 bytes (the rounding of packing the whole vector at once)."""
    values = tuple(values)
    return struct.pack(f"{len(values)}f", *values)


# the same tables as float32 bytes: the vector is joined from byte chunks (packing all 576 floats
# at once took 3.7 us an observation, a join of ~40 chunks well under one)
_HEAD_BYTES = [[[[_floats(h) for h in dc] for dc in dl] for dl in me] for me in _SEAT_HEAD]
_ABSENT_BYTES = [bytes(4 * SEAT_BLOCK * (MAX_PLAYERS - n)) for n in range(MAX_PLAYERS + 1)]
_DECISION_BYTES = [_floats(d) for d in _DECISION_ONEHOT]
#: (seat, num_players) -> "me one-hot" + "num players one-hot"
_SEAT_COUNT_BYTES = {
    (s, n): _floats(_SEAT_ONEHOT[s] + _COUNT_ONEHOT[n - 2])
    for n in range(2, MAX_PLAYERS + 1)
    for s in range(n)
}
_FLAG_BYTES = (_floats((0.0,)), _floats((1.0,)))
_NO_DELTA_BYTES = bytes(4 * NUM_CARD_KINDS)
_OVER_TAIL = bytes(4 * (1 + MAX_PLAYERS + 2))
_PACK_BLOCK_TAIL = struct.Struct("9f").pack
_PACK_3 = struct.Struct("3f").pack
_PACK_TAIL = struct.Struct(f"{1 + MAX_PLAYERS + 2}f").pack
_PACK_INTO_F = struct.Struct("f").pack_into
_PACK_KINDS = struct.Struct(f"{NUM_CARD_KINDS}f").pack
#: tuple(set_aside[:2]) -> "decision cards" bytes; tuple(queue[:4]) -> "pending-draw queue"
_SET_ASIDE_BYTES: dict[tuple[int, ...], bytes] = {}
_QUEUE_BYTES: dict[tuple[int, ...], bytes] = {}


def _set_aside_bytes(key: tuple[int, ...]) -> bytes:
    cards = [0.0] * (2 * NUM_CARD_KINDS)
    for i, c in enumerate(key):
        cards[i * NUM_CARD_KINDS + c] = 1.0
    out = _SET_ASIDE_BYTES[key] = _floats(cards)
    return out


def _queue_bytes(key: tuple[int, ...]) -> bytes:
    queue = [0.0] * (QUEUE_SHOWN * MAX_PLAYERS)
    for i, s in enumerate(key):
        queue[i * MAX_PLAYERS + s] = 1.0
    out = _QUEUE_BYTES[key] = _floats(queue)
    return out


#: id(pile) -> [pile, its length, its cards as first seen plus those added since, count per card
#: kind, the counts / their deck counts as float32 bytes, dots, direction]: a running composition
#: of the draw pile (only popped from its end) and the discard pile (only appended to), updated
#: from the cards that left or came since the last observation. A pile changed any other way (a
#: new list at a reshuffle or a new game, or one that shrinks after growing) starts over.
#: ``dots``: (values, has_second_chance, *row) -> [sum of the row's card deltas x counts, the
#: pile length it is for], brought up to date from the cards that moved (the deltas are whole
#: numbers, so the float sums are exact whatever the order)
_PILES: dict[int, list[Any]] = {}
_PILES_MAX = 64
_DOTS_MAX = 512


def _pile(pile: list[int]) -> list[Any]:
    """The running composition entry of ``pile`` (see :data:`_PILES`)."""
    entry = _PILES.get(id(pile))
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
                    _PACK_INTO_F(buf, 4 * c, k / DECK_COUNTS[c])
                entry[1] = n
                entry[6] = -1
                return entry
        elif entry[6] >= 0 and (cur == 0 or pile[cur - 1] == snap[cur - 1]):
            counts, buf = entry[3], entry[4]
            new = pile[cur:]
            for c in new:
                k = counts[c] + 1
                counts[c] = k
                _PACK_INTO_F(buf, 4 * c, k / DECK_COUNTS[c])
            snap += new
            entry[1] = n
            entry[6] = 1
            return entry
    counts = _composition(pile)
    buf = bytearray(_PACK_KINDS(*map(truediv, counts, DECK_COUNTS)))
    entry = [pile, n, pile[:], counts, buf, {}, 0]
    if len(_PILES) >= _PILES_MAX:
        _PILES.clear()
    _PILES[id(pile)] = entry
    return entry


def _dot(entry: list[Any], key: tuple[int, ...], deltas: list[float]) -> float:
    """``sum(map(mul, deltas, counts))`` for the pile of ``entry``, kept up to date per row."""
    dots = entry[5]
    rec = dots.get(key)
    n = entry[1]
    if rec is None:
        num = sum(map(mul, deltas, entry[3]))
        if len(dots) >= _DOTS_MAX:
            dots.clear()
        dots[key] = [num, n]
        return num
    num, pos = rec
    if pos != n:
        if pos > n:  # cards drawn since
            for c in entry[2][n:pos]:
                num -= deltas[c]
        else:  # cards discarded since
            for c in entry[2][pos:n]:
                num += deltas[c]
        rec[0] = num
        rec[1] = n
    return num


def next_card_counts(state: SevnState) -> list[int]:
    """Count per card kind of the pile the next card comes from (public: see the docstring)."""
    counts = [0] * NUM_CARD_KINDS
    for c in state.draw_pile if state.draw_pile else state.discard_pile:
        counts[c] += 1
    return counts


def bust_chance(state: SevnState, seat: int, counts: list[int], total: int) -> float:
    """Chance that the next card duplicates a value of ``seat`` with no SECOND_CHANCE to save it."""
    if total == 0 or state.status[seat] != IN_HAND or state.has_second_chance[seat]:
        return 0.0
    values = state.values[seat]
    dup = 0
    for v in range(14):
        if values >> v & 1:
            dup += counts[v]
    return dup / total


def _composition(cards: list[int]) -> list[int]:
    """Count per card kind of ``cards`` (numpy counts long piles faster than a Python loop)."""
    if len(cards) > 40:
        return np.bincount(np.frombuffer(bytes(cards), np.uint8), minlength=NUM_CARD_KINDS).tolist()
    counts = [0] * NUM_CARD_KINDS
    for c in cards:
        counts[c] += 1
    return counts


#: (values, *row) -> _row_part(values, row): what a seat block takes from the seat's table row
_ROW_PARTS: dict[tuple[int, ...], tuple[Any, ...]] = {}
_ROW_PARTS_MAX = 4096  #: entries; the cache is emptied when full (a few MiB at most)


def _row_part(values: int, row: list[int]) -> tuple[Any, ...]:
    """(value and kept-card flags as float32 bytes, hand_score, its block entry, distinct values
    /7, cards /20) of a table row; memoised in ``_ROW_PARTS`` (rows stay put for many steps)."""
    kept = 0
    for c in row:
        kept |= _KEPT_BIT[c]
    flags = _LOW_FLAGS[values & _LOW_MASK] + _HIGH_FLAGS[values >> _LOW_BITS] + _KEPT_FLAGS[kept]
    flags = _floats(flags)
    hs = hand_score(row)
    part = (flags, hs, min(hs / 60.0, 2.0), values.bit_count() / 7.0, min(len(row) / 20.0, 2.0))
    if len(_ROW_PARTS) >= _ROW_PARTS_MAX:
        _ROW_PARTS.clear()
    _ROW_PARTS[(values, *row)] = part
    return part


#: (values, has_second_chance, *row) -> (card_deltas(...), the same /30 and clipped, as the
#: observation holds them, and those as float32 bytes)
_DELTAS: dict[tuple[int, ...], tuple[list[float], list[float], bytes]] = {}
_NO_DELTAS = [0.0] * (NUM_CARD_KINDS + 1)


def _clip(x: float) -> float:
    """Into the observation space's [-1, 2]."""
    return -1.0 if x < -1.0 else (2.0 if x > 2.0 else x)


def card_deltas(values: int, row: list[int], has_second_chance: bool) -> list[float]:
    """Banked-score change of a seat in the hand for each card kind as its next card, in points
    (see the "my next card" rows of the module docstring); memoised in ``_DELTAS``."""
    return _delta_pair(values, row, has_second_chance)[0]


def _bonus_points(bonus: int, count: int, low: int, high: int, bits: int) -> int:
    """S22-S24 of ``hand_score`` from a row's sums (see :func:`_delta_pair`)."""
    points = 0
    if bonus & 1 and count >= 4 and low == count:  # S22
        points += FEATHERWEIGHT_POINTS
    if bonus & 2 and high >= 3:  # S23
        points += HEAVYWEIGHT_POINTS
    if bonus & 4:  # S24
        run = longest_run(bits & NUMBER_MASK)
        if run >= 3:
            points += STRAIGHT_POINTS_PER_CARD * run
    return points


_BONUS_BIT = {FEATHERWEIGHT: 1, HEAVYWEIGHT: 2, STRAIGHT: 4}


def _delta_pair(
    values: int, row: list[int], has_second_chance: bool
) -> tuple[list[float], list[float], bytes]:
    """(:func:`card_deltas`, the same scaled for the observation, those as float32 bytes),
    memoised in ``_DELTAS``.

    ``hand_score([*row, card])`` for every card kind, from the row's sums taken once (what
    ``hand_score`` adds up card by card) plus the card: the same whole numbers, without scoring
    the row 31 times (a new row appears at most draws: this was most of sevn's encoding time)."""
    key = (values, has_second_chance, *row)
    pair = _DELTAS.get(key)
    if pair is not None:
        return pair
    # hand_score's sums over the row
    total = modifiers = 0
    doubled = False
    bonus = 0
    bits = 0
    count = low = high = 0
    for c in row:
        if c <= LAST_VALUE_CARD:
            v = CARD_VALUE[c]
            total += v
            bits |= 1 << c
            count += 1
            low += v <= 6
            high += v >= 10
        elif c == X2:
            doubled = True
        elif c <= LAST_MODIFIER:
            modifiers += CARD_VALUE[c]
        elif c in _BONUS_BIT:
            bonus |= _BONUS_BIT[c]
    raw = (2 * total if doubled else total) + modifiers
    points = _bonus_points(bonus, count, low, high, bits) if bonus else 0
    now = raw + points if raw + points > 0 else 0  # hand_score(row)
    sevn = values.bit_count() + 1 == SEVN_VALUES
    out = [0.0] * NUM_CARD_KINDS
    for card in range(LAST_VALUE_CARD + 1):
        if values >> card & 1:
            # a duplicate: S9 bust (S12 saved by a SECOND_CHANCE); a ballast is discarded
            out[card] = 0.0 if has_second_chance or card >= BALLAST_M2 else -float(now)
        else:  # hand_score([*row, card], sevn)
            v = CARD_VALUE[card]
            t = total + v
            after = (2 * t if doubled else t) + modifiers
            if bonus:
                after += _bonus_points(
                    bonus, count + 1, low + (v <= 6), high + (v >= 10), bits | 1 << card
                )
            if sevn:
                after += SEVN_BONUS
            after = (after if after > 0 else 0) - now
            out[card] = max(0.0, after) if card >= BALLAST_M2 else float(after)  # S11
    for card in range(LAST_VALUE_CARD + 1, NUM_CARD_KINDS):
        if card == X2:
            after = 2 * total + modifiers + points
        elif card <= LAST_MODIFIER:
            after = raw + CARD_VALUE[card] + points
        elif card in _BONUS_BIT:
            after = raw + _bonus_points(bonus | _BONUS_BIT[card], count, low, high, bits)
        else:
            continue  # action cards: 0
        out[card] = float((after if after > 0 else 0) - now)
    if len(_DELTAS) >= _ROW_PARTS_MAX:
        _DELTAS.clear()
    scaled = [d / 30.0 for d in out]
    scaled = [-1.0 if x < -1.0 else (2.0 if x > 2.0 else x) for x in scaled]  # _clip
    pair = (out, scaled, _floats(scaled))
    _DELTAS[key] = pair
    return pair


#: (values, has_second_chance, *row) -> (value and kept-card flags as float32 bytes, hand_score,
#: its block entry, distinct values /7, cards /20, card deltas, scaled deltas, those as bytes)
_SEAT_PARTS: dict[tuple[int, ...], tuple[Any, ...]] = {}


def _seat_part(key: tuple[int, ...], values: int, second: bool, row: list[int]) -> tuple[Any, ...]:
    """:func:`_row_part` and :func:`_delta_pair` of a seat in one tuple, memoised in
    ``_SEAT_PARTS`` under ``key``."""
    part = _row_part(values, row) + _delta_pair(values, row, second)
    if len(_SEAT_PARTS) >= _ROW_PARTS_MAX:
        _SEAT_PARTS.clear()
    _SEAT_PARTS[key] = part
    return part


def _expected(deltas: list[float], counts: list[int], total: int) -> float:
    # sum(map(mul, ...)) adds the same products in the same order as a generator would
    return sum(map(mul, deltas, counts)) / total if total else 0.0


def _next_card_part(state: SevnState, seat: int, counts: list[int], total: int) -> list[float]:
    """ "my next card", "each seat's next card" and "decision cards' worth" (see the layout)."""
    if state.over:
        return _NO_DELTAS + [0.0] * (MAX_PLAYERS + 2)
    mine = _NO_DELTAS
    each = [0.0] * MAX_PLAYERS
    for s in range(state.num_players):
        if state.status[s] == IN_HAND:
            deltas, scaled, _ = _delta_pair(
                state.values[s], state.table[s], state.has_second_chance[s]
            )
            each[s] = _clip(_expected(deltas, counts, total) / 30.0)
            if s == seat:
                mine = [*scaled, each[s]]
    held = [mine[c] for c in state.set_aside[:2]]  # 0.0 when the observer is out of the hand
    return mine + each + held + [0.0] * (2 - len(held))


def encode(state: SevnState, seat: int) -> np.ndarray:
    """The observation of ``seat`` (see the module docstring for the layout).

    Joined from float32 byte chunks: the flag parts of a seat block come from precomputed tables,
    what depends on a seat's row alone is memoised (:func:`_seat_part`), the pile compositions
    and each row's expected next-card change are kept up to date from the cards that moved
    (:func:`_pile`, :func:`_dot`), and only the few numbers that change every step are packed. Every value is computed as
    :func:`next_card_counts`, :func:`bust_chance` and ``hand_score`` do, so the vector is
    bit-identical to theirs (``tests/test_encoder_equivalence.py``).
    """
    n = state.num_players
    target = float(state.target_score)
    draw_pile = state.draw_pile
    discard_entry = _pile(state.discard_pile)
    draw_entry = _pile(draw_pile) if draw_pile else discard_entry
    counts = draw_entry[3]  # next_card_counts
    total = draw_entry[1]
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
    out: list[Any] = []
    add = out.append
    # "each seat's next card" (filled for the seats in the hand) and the observer's part
    each = [0.0] * MAX_PLAYERS
    mine = None
    for s in range(n):
        status = status_of[s]
        row = table[s]
        values = values_of[s]
        score = scores[s]
        key = (values, second[s], *row)
        part = _SEAT_PARTS.get(key)
        if part is None:
            part = _seat_part(key, values, second[s], row)
        flags, hs, hs60, bits7, len20 = part[:5]
        if status == IN_HAND:
            if not over:  # _next_card_part: the expectation over the next-card composition
                x = (_dot(draw_entry, key, part[5]) / total if total else 0.0) / 30.0
                each[s] = -1.0 if x < -1.0 else (2.0 if x > 2.0 else x)  # _clip
                if s == seat:
                    mine = part
            if total == 0 or second[s]:
                bust = 0.0
            else:  # bust_chance
                dup = 0
                numbers = values & _NUMBERS
                while numbers:
                    low = numbers & -numbers
                    dup += counts[low.bit_length() - 1]
                    numbers ^= low
                bust = dup / total
        else:
            hs = 0
            hs60 = 0.0
            bust = 0.0
        add(_HEAD_BYTES[s == seat][s == dealer][s == deciding][status])
        add(flags)
        x = score / target
        y = (score + hs) / target
        p = pending[s] / 4.0
        b = (banked[s] if banked[s] > 0 else 0) / 60.0 if banked else 0.0
        add(
            _PACK_BLOCK_TAIL(
                hs60,
                2.0 if x > 2.0 else x,  # min(x, 2.0)
                2.0 if y > 2.0 else y,
                bits7,
                bust,
                2.0 if p > 2.0 else p,
                len20,
                score == leader,
                2.0 if b > 2.0 else b,
            )
        )
    add(_ABSENT_BYTES[n])
    add(_DECISION_BYTES[0 if over else state.decision])
    set_aside = state.set_aside
    key = tuple(set_aside[:2])
    add(_SET_ASIDE_BYTES.get(key) or _set_aside_bytes(key))
    key = tuple(queue[:QUEUE_SHOWN])
    add(_QUEUE_BYTES.get(key) or _queue_bytes(key))
    q = len(queue) / 10.0
    add(_PACK_3(2.0 if q > 2.0 else q, state.deal_pos < n and not over, len(draw_pile) / 120.0))
    add(draw_entry[4])
    add(discard_entry[4])
    add(_SEAT_COUNT_BYTES[seat, n])
    add(_FLAG_BYTES[not draw_pile])
    # "my next card", "each seat's next card", "decision cards' worth" (_next_card_part)
    if over:
        add(_NO_DELTA_BYTES)
        add(_OVER_TAIL)
    else:
        if mine is None:  # the observer is out of the hand
            add(_NO_DELTA_BYTES)
            held = [0.0, 0.0]
            me = 0.0
        else:
            add(mine[7])
            scaled = mine[6]
            held = [scaled[c] for c in set_aside[:2]] + [0.0, 0.0]
            me = each[seat]
        add(_PACK_TAIL(me, *each, held[0], held[1]))
    return _FROMBUFFER(_JOIN(out), _FLOAT32)


def _current_hand_score(state: SevnState, s: int) -> int:
    return hand_score(state.table[s]) if state.status[s] == IN_HAND else 0


def render(state: SevnState, seat: int | None = None) -> str:
    """A text table of the public state (SEVN has no private cards)."""
    lines = [
        f"sevn  hand {state.hand_index + 1}  dealer {state.dealer}  "
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
            f"{marks} seat {s}{me}: total {state.scores[s]:>3}  "
            f"{STATUS_NAMES[state.status[s]]:<7}  hand {_current_hand_score(state, s):>3}  [{cards}]"
        )
    if state.queue:
        lines.append("pending draws: " + " ".join(f"seat {s}" for s in state.queue))
    if state.over:
        lines.append(f"game over: winners {state.winners}")
    else:
        extra = ""
        if state.set_aside:
            extra = " (" + " / ".join(CARD_CODES[c] for c in state.set_aside) + ")"
        lines.append(f"decision: seat {state.decider} {DECISION_NAMES[state.decision]}{extra}")
    return "\n".join(lines)


def view(state: SevnState, seat: int) -> dict[str, Any]:
    """What ``seat`` may see, as plain data for scripted agents (all of it public)."""
    n = state.num_players
    counts = next_card_counts(state)
    unseen = [0] * NUM_CARD_KINDS
    for c in state.draw_pile:
        unseen[c] += 1
    return {
        "seat": seat,
        "num_players": n,
        "target_score": state.target_score,
        "dealer": state.dealer,
        "decision": "game_over" if state.over else DECISION_NAMES[state.decision],
        "decider": -1 if state.over else state.decider,
        "scores": list(state.scores),
        "status": [STATUS_NAMES[s] for s in state.status],
        "table": [[CARD_CODES[c] for c in cards] for cards in state.table],
        "values": [  # values held (numbers and kept ballast), a busted row's included
            [CARD_VALUE[c] for c in range(LAST_VALUE_CARD + 1) if state.values[s] >> c & 1]
            for s in range(n)
        ],
        "has_second_chance": list(state.has_second_chance),
        "has_x2": list(state.has_x2),
        "hand_scores": [_current_hand_score(state, s) for s in range(n)],
        "banked": list(state.banked),
        "holding": [CARD_CODES[c] for c in state.set_aside],
        "second_chance_takers": (
            second_chance_takers(state, state.decider) if not state.over else []
        ),
        "pending": list(state.queue),
        "dealing": state.deal_pos < n and not state.over,
        "draw_pile_size": len(state.draw_pile),
        "discard_pile": [CARD_CODES[c] for c in state.discard_pile],
        "unseen": {CARD_CODES[c]: unseen[c] for c in range(NUM_CARD_KINDS)},
        "next_card_counts": list(counts),
        "hand_index": state.hand_index,
    }
