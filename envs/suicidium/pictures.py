"""The picture of a Suicidium table (``render_mode="rgb_array"``).

Per seat: its objects and lasting cards (public), then its hand: face up for the seat the picture
is for, the cards of other hands that seat has seen (``view["known"]``) face up, the rest backs;
the observer sees every hand. The middle shows the cards on the table and the piles.
"""

from __future__ import annotations

from typing import Any

from cardarena.envs.core.pictures import BACK, OBSERVER, Card, Table, seat_row
from cardarena.envs.suicidium.encoding import view


def layout(state: Any, seat: Any) -> Table:
    n = state.num_players
    v = view(state, seat if isinstance(seat, int) else 0)
    over = v["decision"] == "game_over"
    seats = []
    for s in range(n):
        public = [Card(o, tone="bad") for o in v["objects"][s]]
        public += [Card(x["card"], tone="special") for x in v["lasting"][s]]
        if s == seat:
            hand = [Card(c) for c in v["hand"]]
        elif seat == OBSERVER:
            hand = [Card(c) for c in view(state, s)["hand"]]
        else:
            known = v["known"][s] if isinstance(seat, int) else []
            hand = [Card(c) for c in known] + [BACK] * (v["hand_sizes"][s] - len(known))
        info = f"WP {v['wp'][s]}  {'in' if v['in_game'][s] else 'OUT'}  hand {v['hand_sizes'][s]}"
        seats.append(
            seat_row(
                s, seat, info, public + hand, not over and v["decider"] == s, not v["in_game"][s]
            )
        )
    played = [Card(e["card"], tone="special" if e["works"] else "dim") for e in v["table"]]
    discard = v["discard_pile"]
    if over:
        status = f"game over: winners {', '.join(map(str, v['winners']))}"
    else:
        status = f"seat {v['decider']} to act: {v['decision'].replace('_', ' ')}"
    return Table(
        title=f"suicidium {v['mode'].lower()}  turn {v['turn']}  active seat {v['active']}"
        f"  {v['phase']}",
        seats=seats,
        piles=[
            ("on the table", played),
            (f"draw {v['draw_pile_size']}", [BACK] if v["draw_pile_size"] else []),
            (f"discard {len(discard)}", [Card(discard[-1])] if discard else []),
        ],
        status=status,
    )
