"""What a seat saw happen: one action of a game told in words, for the people watching a table.

:func:`narrate` is the one entry point of the terminal table, the replay viewer and the browser
table. It is given the views of the watching seat before and after the action (``spec.view``), so
it can tell nothing that seat may not see: whatever it says is read from two views of that seat.

Today every game is told by its action text alone ("seat 2 (ev): hit"); a game whose views show
more (cards drawn, busts, effects, round results) tells it here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def seat_name(seat: int) -> str:
    return f"seat {seat}"


def narrate(
    spec: Any,
    before: dict[str, Any],
    after: dict[str, Any],
    actor: int,
    action_text: str,
    seat: int,
    name: Callable[[int], str] = seat_name,
) -> list[str]:
    """Lines telling ``seat`` what the action of ``actor`` (``action_text``) did, the first line
    the action itself (``"<name(actor)>: <action_text>"``). ``before`` and ``after`` are
    ``spec.view(state, seat)`` just before and just after the action."""
    del spec, before, after, seat  # told by the action text alone (see the module docstring)
    return [f"{name(actor)}: {action_text}"]
