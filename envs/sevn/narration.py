"""What a SEVN seat is told an action did (``envs/core/narration.py``), from two of its views:
the cards each player got, the action and modifier cards drawn and waiting on a decision, busts,
freezes, passes, what was banked, the end of the hand and the new deal. Every drawn card of SEVN
is public, so the whole table is told."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardarena.envs.core.narration import gained, listed, race_lines


def narrate(
    before: dict[str, Any], after: dict[str, Any], actor: int, seat: int, name: Callable[[int], str]
) -> list[str]:
    del actor, seat  # every drawn card is public: the same story for every seat
    new_round = after["hand_index"] != before["hand_index"] or (
        after["decision"] == "game_over" and before["decision"] != "game_over"
    )
    lines = race_lines(before, after, name, new_round, round_word="hand")
    held = after["holding"] if new_round else gained(before["holding"], after["holding"])
    if held and after["decider"] >= 0:
        lines.append(
            f"{name(int(after['decider']))} drew {listed(held)}: "
            f"decides on it ({after['decision'].replace('_', ' ')})"
        )
    owed = gained(before["pending"], after["pending"])
    if owed and not after["dealing"]:
        lines.append(f"{listed(name(s) for s in sorted(set(owed)))} still owed cards")
    return lines
