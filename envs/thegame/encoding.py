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

from typing import Any

import numpy as np

from envs.thegame.rules import (
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
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    n = state.num_players
    hand = state.hands[seat]
    opened = open_mask(state)
    obs[[c - LOWEST for c in hand]] = 1.0
    placed = [NUM_CARDS + c - LOWEST for pile in state.piles for c in pile]
    obs[placed] = 1.0
    # unseen: neither in the observer's hand nor on a pile
    obs[2 * NUM_CARDS : 3 * NUM_CARDS] = 1.0 - obs[:NUM_CARDS] - obs[NUM_CARDS : 2 * NUM_CARDS]
    tail: list[float] = []  # everything after the three card vectors, in table order
    acting = state.current == seat and not state.over
    for p in range(NUM_PILES):
        top = state.tops[p]
        if p < 2:
            room = (opened >> (top + 1)).bit_count()
        else:
            room = (opened & ((1 << top) - 1)).bit_count()
        costs = [play_cost(c, p, top, opened) for c in hand if fits_top(c, p, top)]
        tail += (
            top / 100.0,
            float(p < 2),
            len(state.piles[p]) / 50.0,
            room / NUM_CARDS,
            min(max(min(costs), 0) / NUM_CARDS, 1.0) if costs else 1.0,
            float(0 in costs),
            float(bool(costs) and min(costs) < 0),
            len(costs) / 8.0,
            float(acting and state.signal_changed[p]),
        )
    for k in range(MAX_PLAYERS):
        if k >= n:
            tail += (0.0,) * SEAT_BLOCK
            continue
        s = (seat + k) % n
        flags = [0.0] * (2 * NUM_PILES)
        for p, v in enumerate(state.signals[s]):
            if v:
                flags[2 * p + v - 1] = 1.0
        tail += (
            1.0,
            len(state.hands[s]) / 8.0,
            float(s == state.current and not state.over),
            float(s == 0),
            float(not state.hands[s]),
        )
        tail += flags
    players = [0.0] * MAX_PLAYERS
    players[n - 1] = 1.0
    tail += (
        state.played_this_turn / 8.0 if acting else 0.0,
        0.0 if state.over else state.minimum / 2.0,
        float(acting and state.played_this_turn >= state.minimum),
        float(not state.draw_pile),
        len(state.draw_pile) / NUM_CARDS,
        (NUM_CARDS - state.on_piles) / NUM_CARDS,
        float(state.signals_on),
        float(state.min_cards_when_empty == 2),
        *players,
        float(state.over),
        float(state.won),
    )
    obs[3 * NUM_CARDS :] = tail
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
