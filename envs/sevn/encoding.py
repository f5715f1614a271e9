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

from envs.sevn.rules import (
    BALLAST_M2,
    CARD_CODES,
    CARD_VALUE,
    DECISION_NAMES,
    DECK_COUNTS,
    FEATHERWEIGHT,
    IN_HAND,
    LAST_MODIFIER,
    LAST_VALUE_CARD,
    MAX_PLAYERS,
    NUM_CARD_KINDS,
    NUM_DECISIONS,
    SECOND_CHANCE,
    SEVN_VALUES,
    STATUS_NAMES,
    STRAIGHT,
    X2,
    SevnState,
    hand_score,
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
    """(value and kept-card flags, hand_score, its block entry, distinct values /7, cards /20)
    of a table row; memoised in ``_ROW_PARTS`` (rows stay put for many steps)."""
    kept = 0
    for c in row:
        kept |= _KEPT_BIT[c]
    flags = _LOW_FLAGS[values & _LOW_MASK] + _HIGH_FLAGS[values >> _LOW_BITS] + _KEPT_FLAGS[kept]
    hs = hand_score(row)
    part = (flags, hs, min(hs / 60.0, 2.0), values.bit_count() / 7.0, min(len(row) / 20.0, 2.0))
    if len(_ROW_PARTS) >= _ROW_PARTS_MAX:
        _ROW_PARTS.clear()
    _ROW_PARTS[(values, *row)] = part
    return part


#: (values, has_second_chance, *row) -> (card_deltas(...), the same /30 and clipped, as the
#: observation holds them)
_DELTAS: dict[tuple[int, ...], tuple[list[float], list[float]]] = {}
_NO_DELTAS = [0.0] * (NUM_CARD_KINDS + 1)


def _clip(x: float) -> float:
    """Into the observation space's [-1, 2]."""
    return -1.0 if x < -1.0 else (2.0 if x > 2.0 else x)


def card_deltas(values: int, row: list[int], has_second_chance: bool) -> list[float]:
    """Banked-score change of a seat in the hand for each card kind as its next card, in points
    (see the "my next card" rows of the module docstring); memoised in ``_DELTAS``."""
    return _delta_pair(values, row, has_second_chance)[0]


def _delta_pair(
    values: int, row: list[int], has_second_chance: bool
) -> tuple[list[float], list[float]]:
    """(:func:`card_deltas`, the same scaled for the observation), memoised in ``_DELTAS``."""
    key = (values, has_second_chance, *row)
    pair = _DELTAS.get(key)
    if pair is not None:
        return pair
    now = hand_score(row)
    distinct = values.bit_count()
    out = [0.0] * NUM_CARD_KINDS
    for card in range(NUM_CARD_KINDS):
        if card <= LAST_VALUE_CARD:
            if values >> card & 1:
                # a duplicate: S9 bust (S12 saved by a SECOND_CHANCE); a ballast is discarded
                out[card] = 0.0 if has_second_chance or card >= BALLAST_M2 else -float(now)
            else:
                after = hand_score([*row, card], distinct + 1 == SEVN_VALUES) - now
                out[card] = max(0.0, after) if card >= BALLAST_M2 else float(after)  # S11
        elif card <= LAST_MODIFIER or card >= FEATHERWEIGHT:
            out[card] = float(hand_score([*row, card]) - now)
    if len(_DELTAS) >= _ROW_PARTS_MAX:
        _DELTAS.clear()
    pair = (out, [_clip(d / 30.0) for d in out])
    _DELTAS[key] = pair
    return pair


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
            deltas, scaled = _delta_pair(
                state.values[s], state.table[s], state.has_second_chance[s]
            )
            each[s] = _clip(_expected(deltas, counts, total) / 30.0)
            if s == seat:
                mine = [*scaled, each[s]]
    held = [mine[c] for c in state.set_aside[:2]]  # 0.0 when the observer is out of the hand
    return mine + each + held + [0.0] * (2 - len(held))


def encode(state: SevnState, seat: int) -> np.ndarray:
    """The observation of ``seat`` (see the module docstring for the layout).

    Built as one list of Python floats packed to float32 at once (writing numpy scalars one by one
    was most of an env step), with the flag parts of a seat block taken from precomputed tables
    and what depends on a seat's row alone memoised (:func:`_row_part`). Every value is computed
    as :func:`next_card_counts`, :func:`bust_chance` and ``hand_score`` do, so the vector is
    bit-identical to theirs (``tests/test_encoder_equivalence.py``).
    """
    n = state.num_players
    target = float(state.target_score)
    draw_pile = state.draw_pile
    discard = _composition(state.discard_pile)
    counts = _composition(draw_pile) if draw_pile else discard  # next_card_counts
    total = sum(counts)
    scores = state.scores
    leader = max(scores)
    pending = [0] * n
    for s in state.queue:
        pending[s] += 1
    deciding = -1 if state.over else state.decider
    dealer = state.dealer
    banked = state.banked
    out: list[Any] = []
    add = out.extend
    for s in range(n):
        status = state.status[s]
        row = state.table[s]
        values = state.values[s]
        score = scores[s]
        key = (values, *row)
        part = _ROW_PARTS.get(key)
        if part is None:
            part = _row_part(values, row)
        flags, hs, hs60, bits7, len20 = part
        if status == IN_HAND:
            if total == 0 or state.has_second_chance[s]:
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
        add(_SEAT_HEAD[s == seat][s == dealer][s == deciding][status])
        add(flags)
        x = score / target
        y = (score + hs) / target
        p = pending[s] / 4.0
        b = (banked[s] if banked[s] > 0 else 0) / 60.0 if banked else 0.0
        add(
            (
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
    out += _ZEROS[: SEAT_BLOCK * (MAX_PLAYERS - n)]
    add(_DECISION_ONEHOT[0 if state.over else state.decision])
    cards = _ZEROS[: 2 * NUM_CARD_KINDS]
    for i, c in enumerate(state.set_aside[:2]):
        cards[i * NUM_CARD_KINDS + c] = 1.0
    out += cards
    queue = _ZEROS[: QUEUE_SHOWN * MAX_PLAYERS]
    for i, s in enumerate(state.queue[:QUEUE_SHOWN]):
        queue[i * MAX_PLAYERS + s] = 1.0
    out += queue
    q = len(state.queue) / 10.0
    out.append(2.0 if q > 2.0 else q)
    out.append(state.deal_pos < n and not state.over)
    out.append(len(draw_pile) / 120.0)
    add(map(truediv, counts, DECK_COUNTS))
    add(map(truediv, discard, DECK_COUNTS))
    add(_SEAT_ONEHOT[seat])
    add(_COUNT_ONEHOT[n - 2])
    out.append(not draw_pile)
    out += _next_card_part(state, seat, counts, total)
    return np.frombuffer(_PACK(*out), dtype=np.float32).copy()


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
