"""The picture of a SEVN table (``render_mode="rgb_array"``); every card is public."""

from __future__ import annotations

from typing import Any

from cardarena.envs.core.pictures import BACK, Card, Table, seat_row
from cardarena.envs.sevn.encoding import view

#: what an action or bonus card does, in a few words at its foot (S14-S24)
NOTES = {
    "FREEZE": "banks, out",
    "SECOND_CHANCE": "saves a bust",
    "FLIP_THREE": "draw 3",
    "FORK": "pick 1 of 2",
    "STORM": "all draw 1",
    "FEATHERWEIGHT": "15: 4+ all ≤6",
    "HEAVYWEIGHT": "12: 3+ of 10+",
    "STRAIGHT": "4 per run card",
}


def card(code: str) -> Card:
    if code.lstrip("-").isdigit():
        return Card(code, tone="bad" if code.startswith("-") else "plain")
    if code.startswith(("+", "x")):
        return Card(code, tone="good")
    return Card(code, tone="special", note=NOTES.get(code, ""))  # action and bonus cards


def layout(state: Any, seat: Any) -> Table:
    v = view(state, seat if isinstance(seat, int) else 0)  # the same for every seat
    over = v["decision"] == "game_over"
    rows = []
    for s in range(v["num_players"]):
        status = v["status"][s]
        info = f"total {v['scores'][s]}  {status.replace('_', ' ')}  hand {v['hand_scores'][s]}"
        if v["banked"][s] >= 0:
            info += f"  banked {v['banked'][s]}"
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
            status += f" with {' / '.join(v['holding'])}"
        if v["pending"]:
            status += f"  (draws pending: {' '.join(map(str, v['pending']))})"
    return Table(
        title=f"sevn  hand {v['hand_index'] + 1}  target {v['target_score']}",
        seats=rows,
        piles=[
            (f"draw {v['draw_pile_size']}", [BACK] if v["draw_pile_size"] else []),
            (f"discard {len(discard)}", [card(discard[-1])] if discard else []),
        ],
        status=status,
    )
