"""What a Rat-a-Tat Cat seat is told an action did (``envs/core/narration.py``), from two of its
views, so only what that seat may know (R18): the card drawn or taken when it is shown, the
discards, which slots were replaced or swapped (with their cards where this seat sees them),
peeks, the knock, the round's scores and the end of the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def slot_name(name: Callable[[int], str], seat: int, owner: int, slot: int) -> str:
    """``owner``'s slot as the table names it: "your slot 2" where it names the seat "you"."""
    del seat
    who = name(owner)
    return f"your slot {slot}" if who == "you" else f"{who}'s slot {slot}"


def own(name: Callable[[int], str], owner: int, slot: int) -> str:
    """A seat's own slot, as it is told looking at it (a PEEK: only its own, R8)."""
    return f"your slot {slot}" if name(owner) == "you" else f"its slot {slot}"


def slot_lines(
    before: dict[str, Any],
    after: dict[str, Any],
    seat: int,
    name: Callable[[int], str],
    placed: bool,
) -> list[str]:
    """The slots that changed: replaced (with the cards this seat sees) or looked at."""
    lines: list[str] = []
    for owner, (old, new) in enumerate(zip(before["rows"], after["rows"], strict=True)):
        for slot in range(len(new)):
            where = slot_name(name, seat, owner, slot)
            flipped = after["changed"][owner][slot] and not before["changed"][owner][slot]
            looked = after["owner_knows"][owner][slot] and not before["owner_knows"][owner][slot]
            if new[slot] != old[slot] and new[slot] is not None:
                if looked and not placed and not flipped:  # a PEEK: nothing put in the slot
                    lines.append(f"{name(owner)} looks at {own(name, owner, slot)}: {new[slot]}")
                elif old[slot] is not None:
                    lines.append(f"{where}: {old[slot]} replaced by {new[slot]}")
                else:
                    lines.append(f"{where} is now {new[slot]}")
            elif flipped:
                lines.append(f"{where} was replaced (a card you cannot see)")
            elif looked:
                lines.append(f"{name(owner)} looks at {own(name, owner, slot)}")
    return lines


def narrate(
    before: dict[str, Any], after: dict[str, Any], actor: int, seat: int, name: Callable[[int], str]
) -> list[str]:
    lines: list[str] = []
    new_round = after["round_index"] != before["round_index"] or len(after["round_scores"]) != len(
        before["round_scores"]
    )
    if after["held"] is not None and after["held"] != before["held"]:
        lines.append(f"{name(actor)} holds {after['held']}")
    elif after["held"] is None and after["draw_pile_size"] < before["draw_pile_size"]:
        if not new_round and after["decision"] != "game_over":
            lines.append(f"{name(actor)} draws a card you cannot see")
    placed = len(after["discard_pile"]) > len(before["discard_pile"])
    if not new_round:
        # a card put in a slot (the one held, or a swap), or only looked at (a PEEK)
        swapped = (
            sum(
                a != b
                for old, new in zip(before["changed"], after["changed"], strict=True)
                for a, b in zip(old, new, strict=True)
            )
            >= 2
        )
        putting = before["held"] is not None and after["held"] is None
        lines += slot_lines(before, after, seat, name, putting or swapped)
        if placed and after["top_discard"] is not None:
            lines.append(f"discarded: {after['top_discard']}")
    if after["knocker"] is not None and before["knocker"] is None:
        lines.append(f"{name(int(after['knocker']))} knocks: everyone else has one last turn")
    if new_round and after["round_scores"]:
        last = after["round_scores"][-1]
        lines.append(
            f"round over: round scores {' / '.join(str(x) for x in last)} "
            f"(totals {' / '.join(str(x) for x in after['scores'])})"
        )
    if after["decision"] == "game_over" and before["decision"] != "game_over":
        lines.append("game over")
    return lines
