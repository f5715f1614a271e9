"""The picture of a Ratatat table (``render_mode="rgb_array"``).

A seat sees the slots its observation shows (``view``: what it knows under the game's memory
mode), the others as backs; the public table shows every slot as a back until the game is over.
"""

from __future__ import annotations

from typing import Any

from cardarena.envs.core.pictures import BACK, OBSERVER, Card, Table, seat_row
from cardarena.envs.ratatat.encoding import view
from cardarena.envs.ratatat.rules import CARD_CODES, SLOTS_PER_SEAT

_SPECIAL = {"SWAP", "PEEK", "DRAW_TWO"}


#: what a power card does, in a few words at its foot
NOTES = {"SWAP": "swap 2 slots", "PEEK": "see own slot", "DRAW_TWO": "draw again"}


def card(code: str | None) -> Card:
    if code is None:
        return BACK
    return Card(code, tone="special" if code in _SPECIAL else "plain", note=NOTES.get(code, ""))


def layout(state: Any, seat: Any) -> Table:
    n = state.num_players
    v = view(state, seat if isinstance(seat, int) else 0)
    over = v["decision"] == "game_over"
    if isinstance(seat, int) or over:  # once over, every row is face up for everyone (R13)
        rows = v["rows"]
        held = v["held"]
    elif seat == OBSERVER:
        rows = [
            [CARD_CODES[c] for c in state.slots[s * SLOTS_PER_SEAT : (s + 1) * SLOTS_PER_SEAT]]
            for s in range(n)
        ]
        held = CARD_CODES[state.held] if state.held >= 0 else None
    else:  # the public table
        rows = [[None] * SLOTS_PER_SEAT for _ in range(n)]
        held = v["held"] if v["held_public"] else None
    seats = []
    for s in range(n):
        info = f"total {v['scores'][s]}"
        if v["round_scores"]:
            info += f"  last round {v['round_scores'][-1][s]}"
        if s == v["knocker"]:
            info += "  knocked"
        if s == v["dealer"]:
            info += "  dealer"
        seats.append(seat_row(s, seat, info, [card(c) for c in rows[s]], v["decider"] == s))
    in_hand: list[Card] = []
    if not over and state.held >= 0:  # that the decider holds a card is public
        in_hand = [card(held)]
    top = v["top_discard"]
    if over:
        status = f"game over: winners {', '.join(map(str, state.winners))}"
    else:
        status = f"seat {v['decider']} to act: {v['decision'].replace('_', ' ')}"
    return Table(
        title=f"ratatat  round {min(v['round_index'] + 1, v['num_rounds'])}/{v['num_rounds']}"
        f"  turns {v['turns']}/{v['max_turns']}",
        seats=seats,
        piles=[
            (f"draw {v['draw_pile_size']}", [BACK] if v["draw_pile_size"] else []),
            (f"discard {len(v['discard_pile'])}", [card(top)] if top else []),
            ("in hand", in_hand),
        ],
        status=status,
    )
