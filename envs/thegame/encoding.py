"""The Game observation encoder (one seat's view), text renderer and scripted-agent view.

A seat sees its own hand, the piles (every card placed is public), how many cards each other seat
holds, the draw-pile size, the turn's progress and the public signals (G11); never another hand or
the draw-pile order. Seats are encoded RELATIVE to the observer (block 0 = itself, block k = the
k-th seat after it clockwise), so one shared policy plays every seat of a cooperative table.

"Open" cards are the cards not on a pile (in some hand or the draw pile). The *cost* of a play is
the number of open cards it jumps over on that pile (they can no longer go there); the backwards
trick (G5) has a negative cost (the open cards it makes playable again).

Observation (float32, size ``OBS_SIZE`` = 410):

====================  ====  =================================================================
part                  size  content
====================  ====  =================================================================
own hand              98    1 if card 2+i is in the observer's hand
on the piles          98    1 if card 2+i has been placed (public)
unseen                98    1 if card 2+i is in another hand or the draw pile
pile block x4         9     top /100, ascending flag, cards on the pile /50, open cards that
                            still fit it /98, own cheapest play cost /98 (1 if none),
                            own card with cost 0, own backwards-trick card, own cards that fit
                            /8, own signal on it already changed this turn
seat block x5         13    present, hand size /8, is the current player, is the first seat
                            (absolute seat 0), has no cards, signal per pile: WAIT, HELP (8)
turn                  4     cards played this turn /8, minimum this turn /2, minimum met,
                            draw pile empty
draw pile size        1     /98
cards left            1     (hands + draw pile) /98 (G10)
options               2     signals on, min_cards_when_empty == 2
num players one-hot   5     1..5
game over             2     over, won
====================  ====  =================================================================

Action mask (int8, size 405): ``play C P`` at ``(C-2)*4+P``, ``end`` at 392, ``signal P V`` at
``393+3P+V`` (see ``rules.py``).
"""

from __future__ import annotations

import itertools
import struct
from typing import Any

import numpy as np

from cardarena.envs.thegame.rules import (
    FOUNDATIONS,
    LOWEST,
    MAX_PLAYERS,
    NUM_CARDS,
    NUM_PILES,
    SIGNAL_NAMES,
    TheGameState,
)

PILE_BLOCK = 9
SEAT_BLOCK = 13
OBS_SIZE = NUM_CARDS * 3 + PILE_BLOCK * NUM_PILES + SEAT_BLOCK * MAX_PLAYERS + 4 + 1 + 1 + 2 + 5 + 2

_ALL_CARDS = (1 << (LOWEST + NUM_CARDS)) - (1 << LOWEST)  # bits 2..99

# ---- tables of the fast encoder ------------------------------------------------------------------
_PACK_TAIL = struct.Struct(f"{OBS_SIZE - 3 * NUM_CARDS}f").pack
#: _BYTE_FLOATS[b]: the 8 bits of byte b (lowest first) as 8 float32 0.0/1.0, as bytes
_BYTE_FLOATS = [struct.pack("8f", *(float(b >> i & 1) for i in range(8))) for b in range(256)]
_CARD_VECTOR_BYTES = 4 * NUM_CARDS
#: _BITS12[b]: the 12 bits of b (lowest first) as float32 0.0/1.0 bytes (4,096 x 48 bytes); a card
#: vector is 8 of them and the last two bits from _BITS2
_BITS12 = [struct.pack("12f", *(float(b >> i & 1) for i in range(12))) for b in range(1 << 12)]
_BITS2 = [b[:8] for b in _BITS12[:4]]
assert NUM_CARDS == 8 * 12 + 2
#: a join into a new bytearray: np.frombuffer of it is a writable array of its own without a copy
_JOIN = bytearray().join
_FROMBUFFER = np.frombuffer
_FLOAT32 = np.float32


def _add_card_vector(out: list[bytes], bits: int) -> None:
    """Append the card vector of the card bitmask ``bits`` (bit v = card v) to ``out``, as the
    float32 bytes of :func:`_card_bytes`."""
    b = bits >> LOWEST
    out += (
        _BITS12[b & 4095],
        _BITS12[b >> 12 & 4095],
        _BITS12[b >> 24 & 4095],
        _BITS12[b >> 36 & 4095],
        _BITS12[b >> 48 & 4095],
        _BITS12[b >> 60 & 4095],
        _BITS12[b >> 72 & 4095],
        _BITS12[b >> 84 & 4095],
        _BITS2[b >> 96 & 3],
    )


def _card_bytes(bits: int) -> bytes:
    """A card vector (card 2+i at i) of the card bitmask ``bits`` (bit v = card v), as float32
    bytes."""
    raw = (bits >> LOWEST).to_bytes((NUM_CARDS + 7) // 8, "little")
    return b"".join(map(_BYTE_FLOATS.__getitem__, raw))[:_CARD_VECTOR_BYTES]


_ZEROS = [0.0] * (SEAT_BLOCK * MAX_PLAYERS)
_COUNT_ONEHOT = [
    tuple(1.0 if i == k else 0.0 for i in range(MAX_PLAYERS)) for k in range(MAX_PLAYERS)
]


def _signal_flags(row: tuple[int, ...]) -> tuple[float, ...]:
    flags = [0.0] * (2 * NUM_PILES)
    for p, v in enumerate(row):
        if v:
            flags[2 * p + v - 1] = 1.0
    return tuple(flags)


#: the per-pile WAIT/HELP flags of a seat's signal row (0 none, 1 wait, 2 help per pile)
_SIGNAL_FLAGS = {
    row: _signal_flags(row) for row in itertools.product(range(len(SIGNAL_NAMES)), repeat=NUM_PILES)
}


def open_mask(state: TheGameState) -> int:
    """Bitmask (bit v = card v) of the cards not yet on a pile: public knowledge."""
    placed = 0
    for pile in state.piles:
        for c in pile:
            placed |= 1 << c
    return _ALL_CARDS & ~placed


def play_cost(card: int, pile: int, top: int, open_cards: int) -> int:
    """Open cards jumped over by ``card`` on ``pile`` (negative for the backwards trick)."""
    if pile < 2:
        if card > top:
            return (open_cards >> (top + 1) & ((1 << (card - top - 1)) - 1)).bit_count()
        return -((open_cards >> (card + 1) & ((1 << (top - card - 1)) - 1)).bit_count())
    if card < top:
        return (open_cards >> (card + 1) & ((1 << (top - card - 1)) - 1)).bit_count()
    return -((open_cards >> (top + 1) & ((1 << (card - top - 1)) - 1)).bit_count())


def fits_top(card: int, pile: int, top: int) -> bool:
    if pile < 2:
        return card > top or card == top - 10
    return card < top or card == top + 10


def encode(state: TheGameState, seat: int) -> np.ndarray:
    """The observation of ``seat`` (see the module docstring for the layout).

    The three card vectors come from card bitmasks (the placed one is what :func:`open_mask`
    builds) turned into float32 bytes 12 bits at a time, the play costs are :func:`play_cost` /
    :func:`fits_top` on bitmasks (the cheapest forward play is the hand card nearest the top),
    and the part after the card vectors is one list of Python floats packed to float32 at once;
    everything is joined into one new bytearray that the returned array owns. The vector is
    bit-identical to what the per-element version gave (``tests/test_encoder_equivalence.py``).
    """
    n = state.num_players
    hand = state.hands[seat]
    placed = 0
    for pile in state.piles:
        for c in pile:
            placed |= 1 << c
    opened = _ALL_CARDS & ~placed
    mine = 0
    for c in hand:
        mine |= 1 << c
    tail: list[Any] = []  # everything after the three card vectors, in table order
    add = tail.extend
    acting = state.current == seat and not state.over
    signal_changed = state.signal_changed
    tops = state.tops
    for p in range(NUM_PILES):
        top = tops[p]
        # play_cost of every hand card that fits_top: its minimum, whether one is 0, their number.
        # A forward play's cost only grows with the distance from the top, so the cheapest forward
        # play is the hand card nearest the top (a bit scan of the hand's mask); the backwards
        # trick (card top -/+ 10) is the only other candidate.
        cheapest = None
        zero = False
        if p < 2:
            room = (opened >> (top + 1)).bit_count()
            above = mine >> (top + 1)
            fits = above.bit_count()
            if fits:
                gap = (above & -above).bit_length() - 1  # nearest card: top + 1 + gap
                cheapest = (opened >> (top + 1) & ((1 << gap) - 1)).bit_count()
                zero = cheapest == 0
            back = top - 10
            if back >= 0 and mine >> back & 1:
                cost = -((opened >> (back + 1) & ((1 << (top - back - 1)) - 1)).bit_count())
                fits += 1
                if cheapest is None or cost < cheapest:
                    cheapest = cost
                if cost == 0:
                    zero = True
        else:
            below = (1 << top) - 1
            room = (opened & below).bit_count()
            below &= mine
            fits = below.bit_count()
            if fits:
                card = below.bit_length() - 1  # the nearest card under the top
                cheapest = (opened >> (card + 1) & ((1 << (top - card - 1)) - 1)).bit_count()
                zero = cheapest == 0
            back = top + 10
            if mine >> back & 1:
                cost = -((opened >> (top + 1) & ((1 << (back - top - 1)) - 1)).bit_count())
                fits += 1
                if cheapest is None or cost < cheapest:
                    cheapest = cost
                if cost == 0:
                    zero = True
        add(
            (
                top / 100.0,
                p < 2,
                len(state.piles[p]) / 50.0,
                room / NUM_CARDS,
                min(max(cheapest, 0) / NUM_CARDS, 1.0) if fits else 1.0,
                zero,
                fits and cheapest < 0,
                fits / 8.0,
                acting and signal_changed[p],
            )
        )
    current = -1 if state.over else state.current
    for k in range(n):
        s = (seat + k) % n
        held = len(state.hands[s])
        add((1.0, held / 8.0, s == current, s == 0, not held))
        add(_SIGNAL_FLAGS[tuple(state.signals[s])])
    tail += _ZEROS[: SEAT_BLOCK * (MAX_PLAYERS - n)]
    add(
        (
            state.played_this_turn / 8.0 if acting else 0.0,
            0.0 if state.over else state.minimum / 2.0,
            acting and state.played_this_turn >= state.minimum,
            not state.draw_pile,
            len(state.draw_pile) / NUM_CARDS,
            (NUM_CARDS - state.on_piles) / NUM_CARDS,
            state.signals_on,
            state.min_cards_when_empty == 2,
        )
    )
    add(_COUNT_ONEHOT[n - 1])
    add((state.over, state.won))
    if mine & placed or (mine | placed) & ~_ALL_CARDS:
        # never in a game (a card both in hand and on a pile, or not a card): as it always was
        obs = np.zeros(OBS_SIZE, dtype=np.float32)
        obs[[c - LOWEST for c in hand]] = 1.0
        obs[[NUM_CARDS + c - LOWEST for pile in state.piles for c in pile]] = 1.0
        obs[2 * NUM_CARDS : 3 * NUM_CARDS] = 1.0 - obs[:NUM_CARDS] - obs[NUM_CARDS : 2 * NUM_CARDS]
        obs[3 * NUM_CARDS :] = np.frombuffer(_PACK_TAIL(*tail), dtype=np.float32)
        return obs
    # own hand, on the piles, unseen (1.0 - hand - placed: the cards in neither)
    out: list[bytes] = []
    _add_card_vector(out, mine)
    _add_card_vector(out, placed)
    _add_card_vector(out, _ALL_CARDS & ~placed & ~mine)
    out.append(_PACK_TAIL(*tail))
    return _FROMBUFFER(_JOIN(out), _FLOAT32)


def render(state: TheGameState, seat: int | None = None) -> str:
    """A text table of the public state; with ``seat``, also that seat's hand."""
    left = NUM_CARDS - state.on_piles
    lines = [
        f"thegame  {state.num_players} player(s)  draw pile {len(state.draw_pile)}  "
        f"cards left {left}  signals {'on' if state.signals_on else 'off'}"
    ]
    for p in range(NUM_PILES):
        arrow = "up  " if p < 2 else "down"
        recent = " ".join(str(c) for c in state.piles[p][-6:])
        more = "... " if len(state.piles[p]) > 6 else ""
        lines.append(
            f"  pile {p} {arrow} from {FOUNDATIONS[p]:>3}: top {state.tops[p]:>3}  "
            f"({len(state.piles[p])} cards: {more}{recent})"
        )
    for s in range(state.num_players):
        mark = "*" if s == state.current and not state.over else " "
        me = " (you)" if s == seat else ""
        cards = ""
        if s == seat:
            cards = "  [" + " ".join(str(c) for c in state.hands[s]) + "]"
        sig = ""
        if state.signals_on:
            sig = "  signals " + " ".join(
                f"{p}:{SIGNAL_NAMES[v]}" for p, v in enumerate(state.signals[s])
            )
        lines.append(f"{mark} seat {s}{me}: {len(state.hands[s])} cards{cards}{sig}")
    if state.over:
        outcome = "won" if state.won else f"lost with {left} cards left"
        lines.append(f"game over: {outcome}")
    else:
        lines.append(
            f"turn: seat {state.current} has played {state.played_this_turn} "
            f"(minimum {state.minimum})"
        )
    return "\n".join(lines)


def view(state: TheGameState, seat: int) -> dict[str, Any]:
    """What ``seat`` may see, as plain data for scripted agents (card values as ints)."""
    return {
        "seat": seat,
        "num_players": state.num_players,
        "hand": list(state.hands[seat]),
        "hand_sizes": [len(h) for h in state.hands],
        "tops": list(state.tops),
        "piles": [list(p) for p in state.piles],
        "draw_pile_size": len(state.draw_pile),
        "cards_left": NUM_CARDS - state.on_piles,
        "current_player": None if state.over else state.current,
        "played_this_turn": state.played_this_turn,
        "minimum": 0 if state.over else state.minimum,
        "signals_on": state.signals_on,
        "signals": [[SIGNAL_NAMES[v] for v in row] for row in state.signals],
        "signal_changed": list(state.signal_changed),
        "min_cards_when_empty": state.min_cards_when_empty,
        "over": state.over,
        "won": state.won,
    }
