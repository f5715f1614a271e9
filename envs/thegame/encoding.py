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

from cardarena.envs.thegame.native import native_encoder
from cardarena.envs.thegame.rules import (
    FOUNDATIONS,
    LOWEST,
    MAX_PLAYERS,
    NUM_CARDS,
    NUM_PILES,
    SIGNAL_NAMES,
    TheGameState,
)
from cardarena.envs.thegame.views import TheGameView

PILE_BLOCK = 9
SEAT_BLOCK = 13
OBS_SIZE = NUM_CARDS * 3 + PILE_BLOCK * NUM_PILES + SEAT_BLOCK * MAX_PLAYERS + 4 + 1 + 1 + 2 + 5 + 2

_ALL_CARDS = (1 << (LOWEST + NUM_CARDS)) - (1 << LOWEST)  # bits 2..99

# ---- tables of the fast encoder ------------------------------------------------------------------
#: _BITS14[b]: the 14 bits of b (lowest first) as float32 0.0/1.0 bytes (16,384 x 56 bytes); a
#: card vector is 7 of them
_BITS7 = [struct.pack("7f", *(float(b >> i & 1) for i in range(7))) for b in range(1 << 7)]
_BITS14 = [low + high for high in _BITS7 for low in _BITS7]
assert NUM_CARDS == 7 * 14
_PACK_TAIL = struct.Struct(f"{OBS_SIZE - 3 * NUM_CARDS}f").pack
_PACK_PILES = struct.Struct(f"{PILE_BLOCK * NUM_PILES}f").pack
_PACK_TURN = struct.Struct("8f").pack
#: top / 100.0 by top card
_TOP = [t / 100.0 for t in range(LOWEST + NUM_CARDS + 1)]
#: 1 << card by card (a card outside the table raises KeyError: the per-element path takes it)
_BIT = {c: 1 << c for c in range(128)}
#: a join into a new bytearray: np.frombuffer of it is a writable array of its own without a copy
_JOIN = bytearray().join
_FROMBUFFER = np.frombuffer
_FLOAT32 = np.float32


def _floats(values: Any) -> bytes:
    values = tuple(values)
    return struct.pack(f"{len(values)}f", *values)


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
#: (cards held, is current, is seat 0, *signal row) -> the seat block as float32 bytes
_SEAT_BYTES = {
    (held, cur, first, *row): _floats((1.0, held / 8.0, cur, first, not held) + flags)
    for held in range(9)
    for cur in (False, True)
    for first in (False, True)
    for row, flags in _SIGNAL_FLAGS.items()
}
_ABSENT_BYTES = [bytes(4 * SEAT_BLOCK * (MAX_PLAYERS - n)) for n in range(MAX_PLAYERS + 1)]
#: "num players one-hot" + "game over" (over, won)
_END_BYTES = {
    (n, over, won): _floats(
        tuple(1.0 if i == n - 1 else 0.0 for i in range(MAX_PLAYERS)) + (over, won)
    )
    for n in range(1, MAX_PLAYERS + 1)
    for over in (False, True)
    for won in (False, True)
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


def _pile_blocks(state: TheGameState, mine: int, opened: int, acting: bool) -> list[Any]:
    """The four pile blocks as Python numbers, in table order.

    ``play_cost`` of every hand card that ``fits_top``: its minimum, whether one is 0, their
    number. A forward play's cost only grows with the distance from the top, so the cheapest
    forward play is the hand card nearest the top (a bit scan of the hand's mask); the backwards
    trick (card top -/+ 10, which jumps the 9 cards between) is the only other candidate."""
    out: list[Any] = []
    signal_changed = state.signal_changed
    piles = state.piles
    tops = state.tops
    for p in (0, 1):  # up from 1
        top = tops[p]
        room = opened >> (top + 1)
        above = mine >> (top + 1)
        fits = above.bit_count()
        cheapest = (room & ((above & -above) - 1)).bit_count()  # the nearest card: lowest bit
        zero = fits and not cheapest
        if top >= 10 and mine >> (top - 10) & 1:
            cost = -((opened >> (top - 9) & 511).bit_count())
            if not fits or cost < cheapest:
                cheapest = cost
            fits += 1
            zero = zero or not cost
        out += (
            _TOP[top],
            True,
            len(piles[p]) / 50.0,
            room.bit_count() / NUM_CARDS,
            (cheapest / NUM_CARDS if cheapest > 0 else 0.0) if fits else 1.0,
            zero,
            fits and cheapest < 0,
            fits / 8.0,
            acting and signal_changed[p],
        )
    for p in (2, 3):  # down from 100
        top = tops[p]
        below = (1 << top) - 1
        room = (opened & below).bit_count()
        below &= mine
        fits = below.bit_count()
        cheapest = 0
        if fits:  # the nearest card under the top: its highest bit
            card = below.bit_length()
            cheapest = (opened >> card & ((1 << (top - card)) - 1)).bit_count()
        zero = fits and not cheapest
        if mine >> (top + 10) & 1:
            cost = -((opened >> (top + 1) & 511).bit_count())
            if not fits or cost < cheapest:
                cheapest = cost
            fits += 1
            zero = zero or not cost
        out += (
            _TOP[top],
            False,
            len(piles[p]) / 50.0,
            room / NUM_CARDS,
            (cheapest / NUM_CARDS if cheapest > 0 else 0.0) if fits else 1.0,
            zero,
            fits and cheapest < 0,
            fits / 8.0,
            acting and signal_changed[p],
        )
    return out


def encode(state: TheGameState, seat: int) -> np.ndarray:
    """The observation of ``seat`` (see the module docstring for the layout).

    The three card vectors come from card bitmasks (the placed one is what :func:`open_mask`
    builds) turned into float32 bytes 14 cards at a time, the play costs are :func:`play_cost` /
    :func:`fits_top` on bitmasks (:func:`_pile_blocks`), a seat block is one precomputed chunk
    of bytes, and everything is joined into one new bytearray that the returned array owns. The
    vector is bit-identical to what the per-element version gave
    (``tests/test_observation_digests.py``).
    """
    n = state.num_players
    hands = state.hands
    hand = hands[seat]
    piles = state.piles
    try:  # every card on the piles once: their bits add up to the mask
        placed = sum(map(_BIT.__getitem__, itertools.chain(*piles)))
        mine = sum(map(_BIT.__getitem__, hand))
    except KeyError:
        placed = mine = -1
    if (
        placed.bit_count() != sum(map(len, piles))
        or mine.bit_count() != len(hand)
        or mine & placed
        or (mine | placed) & ~_ALL_CARDS
    ):
        return _encode_odd(state, seat)  # never in a game: as it always was
    opened = _ALL_CARDS & ~placed
    over = state.over
    current = -1 if over else state.current
    acting = current == seat
    b = mine >> LOWEST
    c = placed >> LOWEST
    d = (opened & ~mine) >> LOWEST
    bits = _BITS14
    out = [
        bits[b & 16383],
        bits[b >> 14 & 16383],
        bits[b >> 28 & 16383],
        bits[b >> 42 & 16383],
        bits[b >> 56 & 16383],
        bits[b >> 70 & 16383],
        bits[b >> 84 & 16383],
        bits[c & 16383],
        bits[c >> 14 & 16383],
        bits[c >> 28 & 16383],
        bits[c >> 42 & 16383],
        bits[c >> 56 & 16383],
        bits[c >> 70 & 16383],
        bits[c >> 84 & 16383],
        bits[d & 16383],
        bits[d >> 14 & 16383],
        bits[d >> 28 & 16383],
        bits[d >> 42 & 16383],
        bits[d >> 56 & 16383],
        bits[d >> 70 & 16383],
        bits[d >> 84 & 16383],
        _PACK_PILES(*_pile_blocks(state, mine, opened, acting)),
    ]
    add = out.append
    signals = state.signals
    for s in range(seat, seat + n):
        s %= n
        add(_SEAT_BYTES[len(hands[s]), s == current, s == 0, *signals[s]])
    add(_ABSENT_BYTES[n])
    draw = state.draw_pile
    add(
        _PACK_TURN(
            state.played_this_turn / 8.0 if acting else 0.0,
            0.0 if over else state.minimum / 2.0,
            acting and state.played_this_turn >= state.minimum,
            not draw,
            len(draw) / NUM_CARDS,
            (NUM_CARDS - state.on_piles) / NUM_CARDS,
            state.signals_on,
            state.min_cards_when_empty == 2,
        )
    )
    add(_END_BYTES[n, over, state.won])
    return _FROMBUFFER(_JOIN(out), _FLOAT32)


encode_python = encode
#: the compiled encoder (``_native.pyx``, byte-identical) where it is built, else the reference
encode = native_encoder() or encode_python


def _encode_odd(state: TheGameState, seat: int) -> np.ndarray:
    """The observation of a state no game reaches (a card twice, or both in a hand and on a
    pile, or not a card), element by element, as the encoder always gave it."""
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
    current = -1 if state.over else state.current
    acting = current == seat
    tail = _pile_blocks(state, mine, opened, acting)
    for k in range(n):
        s = (seat + k) % n
        held = len(state.hands[s])
        tail += (1.0, held / 8.0, s == current, s == 0, not held)
        tail += _SIGNAL_FLAGS[tuple(state.signals[s])]
    tail += [0.0] * (SEAT_BLOCK * (MAX_PLAYERS - n))
    tail += (
        state.played_this_turn / 8.0 if acting else 0.0,
        0.0 if state.over else state.minimum / 2.0,
        acting and state.played_this_turn >= state.minimum,
        not state.draw_pile,
        len(state.draw_pile) / NUM_CARDS,
        (NUM_CARDS - state.on_piles) / NUM_CARDS,
        state.signals_on,
        state.min_cards_when_empty == 2,
    )
    tail += tuple(1.0 if i == n - 1 else 0.0 for i in range(MAX_PLAYERS))
    tail += (state.over, state.won)
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    obs[[c - LOWEST for c in hand]] = 1.0
    obs[[NUM_CARDS + c - LOWEST for pile in state.piles for c in pile]] = 1.0
    obs[2 * NUM_CARDS : 3 * NUM_CARDS] = 1.0 - obs[:NUM_CARDS] - obs[NUM_CARDS : 2 * NUM_CARDS]
    obs[3 * NUM_CARDS :] = np.frombuffer(_PACK_TAIL(*tail), dtype=np.float32)
    return obs


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


def view(state: TheGameState, seat: int) -> TheGameView:
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
