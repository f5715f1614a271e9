"""What a Suicidium seat is told an action did (``envs/core/narration.py``), from two of its
views: the cards put on the table (with their effect and whom they are aimed at), responses,
what a resolution did (willpower, objects turned up, lasting events, players out), the cards
drawn (named only in the seat's own hand), the discards, the next turn and the end of the game.
Only public cards and the seat's own hand are named."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardarena.envs.core.narration import gained, listed, plural, signed
from cardarena.envs.suicidium.rules import CATALOGUE, ID_TO_CARD


def card_name(code: str) -> str:
    """A card id as its name on the card (``REGALO_DI_COMPLEANNO`` -> ``Regalo di compleanno``);
    an object (``RAZOR``) as itself."""
    index = ID_TO_CARD.get(code)
    return CATALOGUE[index].name if index is not None else code


def effect_text(entry: dict[str, Any]) -> str:
    """What a card on the table does, in the rules' words (``catalogue.card_text``)."""
    index = ID_TO_CARD.get(entry["card"])
    if index is None:
        return str(entry["effect"]).replace("_", " ")
    return CATALOGUE[index].text


def aimed(entry: dict[str, Any], name: Callable[[int], str]) -> str:
    if entry["target"] is not None:
        return f"on {card_name(entry['target'])}"
    if entry["seats"]:
        return "at " + listed(name(s) for s in entry["seats"])
    return ""


def table_lines(
    before: dict[str, Any], after: dict[str, Any], name: Callable[[int], str]
) -> list[str]:
    """The cards put on the table, where they are aimed, and steals announced."""
    lines: list[str] = []
    old_table = {e["index"]: e for e in before["table"]}
    for entry in after["table"]:
        was = old_table.get(entry["index"])
        if was is None or was["card"] != entry["card"]:
            where = aimed(entry, name)
            lines.append(
                f"{name(entry['player'])} puts {card_name(entry['card'])} [{entry['card']}] "
                "on the table "
                f"({entry['kind'].lower()}: {effect_text(entry)})" + (f", {where}" if where else "")
            )
        elif (was["seats"], was["target"]) != (entry["seats"], entry["target"]) and aimed(
            entry, name
        ):
            lines.append(f"{card_name(entry['card'])} goes {aimed(entry, name)}")
        elif (
            was.get("stolen_by", -1) != entry.get("stolen_by", -1)
            and entry.get("stolen_by", -1) >= 0
        ):
            lines.append(f"{name(entry['stolen_by'])} will steal {card_name(entry['card'])}")
    return lines


def seat_lines(
    before: dict[str, Any], after: dict[str, Any], name: Callable[[int], str]
) -> list[str]:
    """What happened to each seat: willpower, objects, lasting events, leaving the game."""
    lines: list[str] = []
    for s in range(len(after["wp"])):
        old, new = int(before["wp"][s]), int(after["wp"][s])
        if new != old:
            lines.append(f"{name(s)}: willpower {old} -> {new} ({signed(new - old)})")
        for obj in gained(before["objects"][s], after["objects"][s]):
            lines.append(f"{name(s)} turns up an object: {obj}")
        old_lasting = [x["card"] for x in before["lasting"][s]]
        new_lasting = [x["card"] for x in after["lasting"][s]]
        for x in after["lasting"][s]:
            if x["card"] in gained(old_lasting, new_lasting):
                lines.append(
                    f"{card_name(x['card'])} stays in front of {name(s)} "
                    f"({str(x['effect']).replace('_', ' ')})"
                )
        for card in gained(new_lasting, old_lasting):
            lines.append(f"{card_name(card)} in front of {name(s)} ends")
        if before["in_game"][s] and not after["in_game"][s]:
            lines.append(f"{name(s)} is out of the game")
    return lines


def narrate(
    before: dict[str, Any], after: dict[str, Any], actor: int, seat: int, name: Callable[[int], str]
) -> list[str]:
    lines = table_lines(before, after, name)
    hand_in = gained(before["hand"], after["hand"])
    if hand_in:
        lines.append(f"you get {listed(card_name(c) for c in hand_in)}")
    for s, (old, new) in enumerate(zip(before["hand_sizes"], after["hand_sizes"], strict=True)):
        if s != seat and new > old:
            lines.append(f"{name(s)} draws {plural(new - old, 'card')}")
    thrown = gained(before["discard_pile"], after["discard_pile"])
    if thrown and len(after["discard_pile"]) >= len(before["discard_pile"]):
        lines.append(f"to the discard pile: {listed(card_name(c) for c in thrown)}")
    taken = gained(after["discard_pile"], before["discard_pile"])
    if taken and len(after["discard_pile"]) < len(before["discard_pile"]):
        lines.append(f"{name(actor)} takes back {listed(card_name(c) for c in taken)}")
    lines += seat_lines(before, after, name)
    if after["decision"] == "game_over" and before["decision"] != "game_over":
        won = listed(name(s) for s in after["winners"]) or "nobody"
        lines.append(f"game over: {won} won")
    elif after["active"] != before["active"]:
        lines.append(f"turn over: {name(int(after['active']))} is next (turn {after['turn']})")
    elif after["phase"] != before["phase"] and after["phase"] == "response":
        lines.append(f"responses: {listed(name(s) for s in after['responders_left'])} may answer")
    return lines
