"""The picture of a Flip 6 table (``render_mode="rgb_array"``); every card is public (F3)."""

from __future__ import annotations

from typing import Any

from cardarena.envs.core.pictures import BACK, Card, Table, seat_row
from cardarena.envs.flip6.encoding import view

_TONES = {"EXTRA_LIFE": "good", "FREEZE": "bad", "FLIP3": "special", "DOUBLE": "special"}


#: what an action card does, in a few words at its foot (F10-F13)
NOTES = {
    "EXTRA_LIFE": "saves a bust",
    "FREEZE": "banks, out",
    "FLIP3": "draw 3",
    "DOUBLE": "x2 round",
}


def card(code: str) -> Card:
    return Card(
        "0" if code == "ZERO" else code, tone=_TONES.get(code, "plain"), note=NOTES.get(code, "")
    )


def layout(state: Any, seat: Any) -> Table:
    v = view(state, seat if isinstance(seat, int) else 0)  # the same for every seat
    over = v["decision"] == "game_over"
    rows = []
    for s in range(v["num_players"]):
        status = v["status"][s]
        info = f"total {v['scores'][s]}  {status.replace('_', ' ')}"
        if status == "in_round":
            info += f"  round {v['round_scores'][s]}"
        if s == v["dealer"]:
            info += "  dealer"
        turn = not over and s == v["decider"]
        rows.append(
            seat_row(s, seat, info, [card(c) for c in v["table"][s]], turn, status == "busted")
        )
    discard = v["discard_pile"]
    if over:
        status = f"game over: winners {', '.join(map(str, state.winners))}"
    else:
        status = f"seat {v['decider']} to act: {v['decision'].replace('_', ' ')}"
        if v["holding"]:
            status += f" with {v['holding']}"
        if v["flip3_left"]:
            status += f"  (flip 3: {v['flip3_left']} left)"
    return Table(
        title=f"flip6  round {state.round_index + 1}  target {v['target_score']}",
        seats=rows,
        piles=[
            (f"draw {v['draw_pile_size']}", [BACK] if v["draw_pile_size"] else []),
            (f"discard {len(discard)}", [card(discard[-1])] if discard else []),
        ],
        status=status,
    )
