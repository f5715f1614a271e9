"""What a seat of The Game is told an action did (``envs/core/narration.py``), from two of its
views: the card played and the pile it went on (a jump back by ten named), the turn's end with
the cards drawn (their values only for the seat's own hand), signals, and the end of the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardarena.envs.core.narration import gained, listed, plural

#: piles 0 and 1 go up from 1, piles 2 and 3 down from 100
PILE_WORDS = ["up", "up", "down", "down"]


def narrate(
    before: dict[str, Any], after: dict[str, Any], actor: int, seat: int, name: Callable[[int], str]
) -> list[str]:
    lines: list[str] = []
    for p, (old, new) in enumerate(zip(before["tops"], after["tops"], strict=True)):
        if len(after["piles"][p]) > len(before["piles"][p]):
            back = (new < old) if p < 2 else (new > old)
            jump = " (a jump back by ten)" if back else ""
            lines.append(f"pile {p} ({PILE_WORDS[p]}): {old} -> {new}{jump}")
    for s, (old, new) in enumerate(zip(before["hand_sizes"], after["hand_sizes"], strict=True)):
        if new > old:
            if s == seat:
                lines.append(f"you draw {listed(gained(before['hand'], after['hand']))}")
            else:
                lines.append(f"{name(s)} draws {plural(new - old, 'card')}")
    if after["current_player"] != before["current_player"] and after["current_player"] is not None:
        if not after["over"]:
            left = f"{after['cards_left']} cards left, {after['draw_pile_size']} to draw"
            lines.append(f"turn over: {name(int(after['current_player']))} plays next ({left})")
    for p, (old, new) in enumerate(
        zip(before["signals"][actor], after["signals"][actor], strict=True)
    ):
        if new != old:
            lines.append(f"{name(actor)} signals {new} on pile {p}")
    if after["over"] and not before["over"]:
        outcome = "won: every card played" if after["won"] else "lost"
        lines.append(f"game over: the team {outcome} ({after['cards_left']} cards left)")
    return lines
