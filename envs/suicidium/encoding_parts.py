"""Memoised pieces of a Suicidium observation: the objects' parts, card planes as bytes.

A seat's objects, a seat's hand and the discard pile stay put for many steps; their parts of the
vector are computed once and reused (the discard pile's plane is updated from the cards added).
"""

from __future__ import annotations

import struct
from typing import Any

from cardarena.envs.suicidium.encoding_layout import (
    _FIFTHS,
    _OBJECT_COUNTS,
    _ONE,
    _PACK_6,
    _PLANE_BYTES,
)
from cardarena.envs.suicidium.rules import (
    BOOTH,
    NUM_OBJECT_TYPES,
)

_OBJECT_PARTS: dict[tuple[int, ...], tuple[Any, ...]] = {}


def _object_part(objs: list[int]) -> tuple[Any, ...]:
    """(objects per type /2, distinct types /4, types held other than BOOTH) of a seat's objects
    (the ``+= 0.5`` per object of the old encoder is exact); memoised in ``_OBJECT_PARTS``."""
    halves = [0.0] * NUM_OBJECT_TYPES
    for o in objs:
        halves[o] += 0.5
    held = set(objs)
    part = (tuple(halves), len(held) / 4.0, tuple(o for o in held if o != BOOTH))
    if len(_OBJECT_PARTS) >= 4096:
        _OBJECT_PARTS.clear()
    _OBJECT_PARTS[tuple(objs)] = part
    return part


def _plane(cards: list[int]) -> bytearray:
    """A card plane (1.0 at every card of ``cards``) as float32 bytes."""
    plane = bytearray(_PLANE_BYTES)
    for c in cards:
        plane[4 * c : 4 * c + 4] = _ONE
    return plane


#: tuple(hand) -> its card plane (a seat's hand stays put while the others play)
_HAND_PLANES: dict[tuple[int, ...], bytes] = {}
#: id(discard pile) -> [the pile, a copy of it, its card plane]: the discard pile mostly grows, so
#: its plane is updated from the new cards; any other change (a card taken, U28; a reshuffle)
#: builds it again
_DISCARD_PLANES: dict[int, list[Any]] = {}


def _discard_plane(pile: list[int]) -> bytearray:
    entry = _DISCARD_PLANES.get(id(pile))
    if entry is not None and entry[0] is pile:
        snap = entry[1]
        old = len(snap)
        if len(pile) == old:
            if pile == snap:
                return entry[2]
        elif len(pile) > old and pile[:old] == snap:
            if len(pile) > old:
                plane = entry[2]
                for c in pile[old:]:
                    plane[4 * c : 4 * c + 4] = _ONE
                    snap.append(c)
            return entry[2]
    plane = _plane(pile)
    if len(_DISCARD_PLANES) >= 64:
        _DISCARD_PLANES.clear()
    _DISCARD_PLANES[id(pile)] = [pile, pile[:], plane]
    return plane


_PACK_5 = struct.Struct(f"{NUM_OBJECT_TYPES}f").pack
#: tuple of every seat's objects -> (object pile counts /5, per seat (objects per type /2,
#: distinct types /4, match chance if in the game)): objects change only when a WP reaches 0
_OBJECTS: dict[tuple[tuple[int, ...], ...], tuple[Any, ...]] = {}


def _objects_part(okey: tuple[tuple[int, ...], ...], n: int) -> tuple[Any, ...]:
    """object_pile_counts /5 and each seat's :func:`_object_part` and match_chance (U5, U36),
    memoised in ``_OBJECTS``."""
    counts = list(_OBJECT_COUNTS[n == 5])
    for objs in okey:
        for o in objs:
            counts[o] -= 1
    pile_total = sum(counts)
    seats = []
    for objs in okey:
        halves, distinct4, others = _OBJECT_PARTS.get(objs) or _object_part(list(objs))
        if pile_total == 0:  # match_chance
            match = 1.0
        else:
            bad = counts[BOOTH]
            for o in others:
                bad += counts[o]
            match = bad / pile_total
        seats.append((_PACK_6(*halves, distinct4), match))
    part = (_PACK_5(*map(_FIFTHS.__getitem__, counts)), seats)
    if len(_OBJECTS) >= 4096:
        _OBJECTS.clear()
    _OBJECTS[okey] = part
    return part
