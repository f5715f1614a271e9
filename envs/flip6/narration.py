"""What a Flip 6 seat is told an action did (``envs/core/narration.py``), from two of its views:
the cards each player got, busts, freezes, Flip 6, what was banked, the end of the round and the
new deal. Every card of Flip 6 is public (F3), so the whole table is told."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardarena.envs.core.narration import race_lines


def narrate(
    before: dict[str, Any], after: dict[str, Any], actor: int, seat: int, name: Callable[[int], str]
) -> list[str]:
    del actor, seat  # every card is public: the same story for every seat
    new_round = after["dealer"] != before["dealer"] or (
        after["decision"] == "game_over" and before["decision"] != "game_over"
    )
    lines = race_lines(before, after, name, new_round)
    for s, (old, new) in enumerate(zip(before["table"], after["table"], strict=True)):
        if "EXTRA_LIFE" in old and "EXTRA_LIFE" not in new and not new_round:
            drawn = [line for line in lines if line.startswith("drawn: ")]
            lines = [line for line in lines if line not in drawn]
            lines.remove(f"{name(s)} discards EXTRA_LIFE")
            twice = drawn[0].split(": ", 1)[1].split(" (")[0] if drawn else "a card"
            lines.insert(
                0, f"EXTRA_LIFE saves {name(s)} from a duplicate {twice} (both discarded, F10)"
            )
    held = after.get("holding")
    if held and (new_round or held != before.get("holding")) and after["decider"] >= 0:
        lines.append(f"{name(int(after['decider']))} drew {held}: picks who gets it")
    if after["flip3_left"] and after["flip3_left"] != before["flip3_left"]:
        lines.append(f"FLIP3: {after['flip3_left']} cards still to come")
    return lines
