"""The picture of a The Game table (``render_mode="rgb_array"``): the four piles' tops, and the
hand of the seat the picture is for (the other hands as backs, unless drawn for the observer)."""

from __future__ import annotations

from typing import Any

from cardarena.envs.core.pictures import BACK, OBSERVER, Card, Table, seat_row
from cardarena.envs.thegame.encoding import view


def layout(state: Any, seat: Any) -> Table:
    n = state.num_players
    v = view(state, seat if isinstance(seat, int) else 0)
    seats = []
    for s in range(n):
        if s == seat:
            hand = [Card(str(c)) for c in v["hand"]]
        elif seat == OBSERVER:
            hand = [Card(str(c)) for c in view(state, s)["hand"]]
        else:
            hand = [BACK] * v["hand_sizes"][s]
        info = f"{v['hand_sizes'][s]} cards"
        if v["signals_on"]:
            info += "  signals " + " ".join(x[0] for x in v["signals"][s])
        seats.append(seat_row(s, seat, info, hand, v["current_player"] == s))
    tops = [Card(f"{'↑' if p < 2 else '↓'} {t}", tone="special") for p, t in enumerate(v["tops"])]
    if v["over"]:
        status = "game over: " + ("won" if v["won"] else f"lost with {v['cards_left']} cards left")
    else:
        status = (
            f"seat {v['current_player']} to play: {v['played_this_turn']} played"
            f" (minimum {v['minimum']})"
        )
    return Table(
        title=f"thegame  {n} player(s)  cards left {v['cards_left']}",
        seats=seats,
        piles=[
            ("piles", tops),
            (f"draw {v['draw_pile_size']}", [BACK] if v["draw_pile_size"] else []),
        ],
        status=status,
    )
