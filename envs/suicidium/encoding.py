"""Suicidium observation encoder (one seat's view), text renderer and scripted-agent view.

Only public information and the seat's own hand are read: other hands appear only through the
cards the seat has seen in them (PEEK, steals, exchanges, cards taken from the table or the
discard pile, U26/U28) until they move. The draw-pile order, the object-pile order and the
generator are never read. Seats are absolute (action ``target N`` names absolute seats too); the
observer is marked by the ``is_me`` flag and the ``me`` one-hot.

Observation (float32, size ``OBS_SIZE`` = 1290), always ``MAX_PLAYERS`` = 5 seat blocks:

=======================  =====  ====================================================================
part                     size   content
=======================  =====  ====================================================================
per seat block x5        20     present, is_me, in game, is active player, is deciding, WP /10,
                                WP change if the table resolved now /10 (clipped to [-1, 1]),
                                objects held per type /2 (RAZOR, NOOSE, POISON, BOOTH, HARAKIRI),
                                distinct types /4, chance that its next zero is a match (U5, from
                                the public object-pile composition), hand size /10 (max 2),
                                lasting SKIP_DRAW, SKIP_MAIN, SHIELD (U27), is winner,
                                cards it has on the table this turn /6
mode one-hot             2      SURVIVE, DEPRESSION
expansion                1      the 8 party cards are in the deck (U32)
player count one-hot     4      2, 3, 4, 5
decision one-hot         8      none/over, draw, main, target_player, target_card, respond,
                                discard, take
phase one-hot            4      draw, main, response, resolution
turn state               8      cards the decider played in this phase /3, obligation met (U9),
                                active player skips draw / main now, recipients still to choose /5,
                                discards still owed /3, WP change of the redirect slot being
                                chosen /10, turn number /100 (max 2)
piles                    8      draw pile /105, discard pile /105, object pile per type /5,
                                object pile size /21
per card x11             11x105 by catalogue index: in my hand; on the table; works if resolved
                                now (U20-U24); on the table and mine; a main card whose recipients
                                include me; the card being played (targets pending); the card the
                                pending response rests on; in the discard pile; seen in another
                                hand ((holder seat + 1) / 5); a main card's (last) recipient
                                ((seat + 1) / 5, after REDIRECT); responses resting on it /3
=======================  =====  ====================================================================

Action mask (int8, size 434): 0 ``pass``; 1+K ``draw K`` (K 0..7); 9+N ``target N``; 14+c
``play ID``; 119+c ``on ID``; 224+c ``discard ID``; 329+c ``take ID`` (c = catalogue index of ID).
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from cardarena.envs.suicidium.encoding_layout import (
    _ABSENT_SEATS,
    _FLOAT32,
    _FROMBUFFER,
    _GLOBAL_HEAD_BYTES,
    _JOIN,
    _KNOWN_HOLDER,
    _NO_TURN_STATE,
    _PACK_1,
    _PACK_2,
    _PACK_3,
    _PACK_7,
    _RESPONSES_ON,
    _SEAT_HEAD,
    _ZERO_LAST_PLANES,
    _ZERO_TABLE_PLANES,
    CARD_PLANES,
    GLOBAL_SIZE,
    OBS_SIZE,
    P_AIMS_AT_ME,
    P_DISCARD,
    P_HAND,
    P_KNOWN,
    P_MINE,
    P_PENDING,
    P_PENDING_TARGET,
    P_RECIPIENT,
    P_RESPONSES_ON,
    P_TABLE,
    P_WORKS,
    SEAT_BLOCK,
)
from cardarena.envs.suicidium.encoding_parts import (
    _HAND_PLANES,
    _OBJECTS,
    _discard_plane,
    _objects_part,
    _plane,
)
from cardarena.envs.suicidium.encoding_view import (
    match_chance,
    object_pile_counts,
    projected_changes,
    render,
    view,
)
from cardarena.envs.suicidium.native import native_encoder
from cardarena.envs.suicidium.rules import (
    AMOUNT,
    D_TARGET_CARD,
    D_TARGET_PLAYER,
    E_CARD,
    E_PLACED,
    E_PLAYER,
    E_POINTS_GAIN_LOSS,
    E_REDIRECT,
    E_SEATS,
    E_SHIELD,
    E_SKIP_DRAW,
    E_SKIP_MAIN,
    E_TARGET,
    EFFECT,
    KIND,
    NUM_CARDS,
    POINTS,
    SuicidiumState,
    card_modifiers,
    point_changes,
    table_activity,
)

_PACK_INTO_F = struct.Struct("f").pack_into

__all__ = [
    "CARD_PLANES",
    "GLOBAL_SIZE",
    "OBS_SIZE",
    "P_AIMS_AT_ME",
    "P_DISCARD",
    "P_HAND",
    "P_KNOWN",
    "P_MINE",
    "P_PENDING",
    "P_PENDING_TARGET",
    "P_RECIPIENT",
    "P_RESPONSES_ON",
    "P_TABLE",
    "P_WORKS",
    "SEAT_BLOCK",
    "encode",
    "encode_python",
    "match_chance",
    "object_pile_counts",
    "projected_changes",
    "render",
    "view",
]


def _redirect_slot_delta(state: SuicidiumState) -> int:
    """The WP change of the recipient slot being chosen for a REDIRECT (U23), else 0."""
    if state.decision != D_TARGET_PLAYER or not state.table:
        return 0
    entry = state.table[-1]
    if EFFECT[entry[E_CARD]] != E_REDIRECT:
        return 0
    target = state.table[entry[E_TARGET]][E_CARD]
    if KIND[target] != POINTS:
        return 0
    slot = len(entry[E_SEATS])
    amount = AMOUNT[target]
    return -amount if EFFECT[target] == E_POINTS_GAIN_LOSS and slot == 1 else amount


def encode_python(state: SuicidiumState, seat: int) -> np.ndarray:
    """The observation of ``seat`` (see the module docstring for the layout): the reference
    encoder. ``encode`` is the compiled one (``_native.pyx``, byte-identical) where it is built,
    unless ``CARDARENA_CORE=python``.

    Joined from float32 byte chunks: each seat block from its head flags (a table), its objects'
    part (memoised per objects held, with the object pile counts and match chances:
    :func:`_objects_part`) and two small packs; the global part from its one-hots (a table) and
    three packs; then the hand's and the discard pile's card planes (memoised bytes, the discard
    plane updated from the new cards) and zero planes, into which the few table and known-card
    entries are packed. Every value is computed as :func:`object_pile_counts`,
    :func:`match_chance`, :func:`projected_changes` and the per-card loops do, so the vector keeps
    its recorded bits (``tests/test_observation_digests.py``).
    """
    n = state.num_players
    table = state.table
    activity = table_activity(table) if table else []
    projected, modifiers = _projected(state, activity, n)
    # object_pile_counts, each seat's object part and match chance (memoised per objects held)
    okey = tuple(map(tuple, state.objects))
    opart = _OBJECTS.get(okey)
    if opart is None:
        opart = _objects_part(okey, n)
    fifths, seat_objects = opart
    chunks: list[Any] = []
    add = chunks.append
    _seat_blocks(state, seat, n, projected, seat_objects, add)
    _global_part(state, n, fifths, add)
    # the card planes: the hand's and the discard pile's as bytes, the sparse others written below
    hand = state.hands[seat]
    key = tuple(hand)
    hand_plane = _HAND_PLANES.get(key)
    if hand_plane is None:
        if len(_HAND_PLANES) >= 4096:
            _HAND_PLANES.clear()
        hand_plane = _HAND_PLANES[key] = bytes(_plane(hand))
    add(hand_plane)
    add(_ZERO_TABLE_PLANES)
    add(_discard_plane(state.discard_pile))
    add(_ZERO_LAST_PLANES)
    buf = _JOIN(chunks)
    ones, where, values = _table_entries(state, seat, activity, modifiers)
    bit = 1 << seat
    known_by = state.known_by
    hands = state.hands
    for h in range(n):
        if h != seat and any(map(known_by.__getitem__, hands[h])):  # any card of it known
            known = [c for c in hands[h] if known_by[c] & bit]
            if known:
                where += [P_KNOWN + c for c in known]
                values += [_KNOWN_HOLDER[h]] * len(known)
    # the sparse planes, written into the bytes (a float32 each, as numpy's put would store it)
    for i in ones:
        _PACK_INTO_F(buf, 4 * i, 1.0)
    for i, v in zip(where, values, strict=True):
        _PACK_INTO_F(buf, 4 * i, v)
    return _FROMBUFFER(buf, _FLOAT32)


def _projected(
    state: SuicidiumState, activity: list[bool], n: int
) -> tuple[list[int], dict[int, list[int]]]:
    """:func:`projected_changes`, and the recipients of each untargeted table card (planes)."""
    table = state.table
    projected = [0] * n
    modifiers: dict[int, list[int]] = {}
    for i, entry in enumerate(table):
        if entry[E_TARGET] >= 0:
            continue
        card = entry[E_CARD]
        mult, seats, _ = card_modifiers(table, activity, i)
        modifiers[i] = seats
        if KIND[card] != POINTS or not activity[i]:
            continue
        for s, delta in point_changes(card, seats, mult):
            if delta < 0 and any(EFFECT[c] == E_SHIELD for c, _ in state.lasting[s]):
                continue
            projected[s] += delta
    return projected, modifiers


def _seat_blocks(
    state: SuicidiumState, seat: int, n: int, projected: list[int], seat_objects: Any, add: Any
) -> None:
    """The seat blocks' bytes, seat 0 first, handed to ``add``."""
    over = state.over
    on_table = [0] * n
    for entry in state.table:
        if not entry[E_PLACED]:
            on_table[entry[E_PLAYER]] += 1
    active = -1 if over else state.active
    decider = -1 if over else state.decider
    winners = state.winners
    alive_of = state.alive
    lasting_of = state.lasting
    hands = state.hands
    wp = state.wp
    for s in range(n):
        alive = alive_of[s]
        objects_bytes, match = seat_objects[s]
        skip_draw = skip_main = shield = 0.0
        lasting = lasting_of[s]
        if lasting:
            for card, _ in lasting:
                eff = EFFECT[card]
                if eff == E_SKIP_DRAW:
                    skip_draw = 1.0
                elif eff == E_SKIP_MAIN:
                    skip_main = 1.0
                elif eff == E_SHIELD:
                    shield = 1.0
        x = projected[s] / 10.0
        x = x if x < 1.0 else 1.0  # max(-1.0, min(1.0, x))
        h = len(hands[s]) / 10.0
        t = on_table[s] / 6.0
        add(_SEAT_HEAD[s == seat][alive][s == active][s == decider])
        add(_PACK_2(wp[s] / 10.0, x if x > -1.0 else -1.0))
        add(objects_bytes)
        add(
            _PACK_7(
                match if alive else 0.0,
                2.0 if h > 2.0 else h,  # min(h, 2.0)
                skip_draw,
                skip_main,
                shield,
                s in winners,
                1.0 if t > 1.0 else t,  # min(t, 1.0)
            )
        )


def _global_part(state: SuicidiumState, n: int, fifths: bytes, add: Any) -> None:
    """The absent seats' zeros and the global part's bytes, handed to ``add``."""
    over = state.over
    add(_ABSENT_SEATS[n])
    heads = _GLOBAL_HEAD_BYTES[state.mode][state.expansion][n - 2]
    add(heads[0 if over else state.decision][state.phase])
    if over:
        add(_NO_TURN_STATE)
    else:
        add(
            _PACK_7(
                state.played / 3.0,
                bool(state.drew or state.played),
                state.skip_draw_now,
                state.skip_main_now,
                state.need / 5.0 if state.decision == D_TARGET_PLAYER else 0.0,
                min(state.discard_left / 3.0, 1.0),
                _redirect_slot_delta(state) / 10.0 if state.decision == D_TARGET_PLAYER else 0.0,
            )
        )
    add(
        _PACK_3(
            min(state.turn / 100.0, 2.0),
            len(state.draw_pile) / NUM_CARDS,
            len(state.discard_pile) / NUM_CARDS,
        )
    )
    add(fifths)
    add(_PACK_1(len(state.object_pile) / 21.0))


def _table_entries(
    state: SuicidiumState, seat: int, activity: list[bool], modifiers: dict[int, list[int]]
) -> tuple[list[int], list[int], list[float]]:
    """The table's sparse plane entries: (indices set to 1, indices set to a value, values)."""
    table = state.table
    ones: list[int] = []
    where: list[int] = []
    values: list[float] = []
    responses: dict[int, int] = {}
    for i, entry in enumerate(table):
        if entry[E_PLACED]:
            continue
        c = entry[E_CARD]
        ones.append(P_TABLE + c)
        if activity[i]:
            ones.append(P_WORKS + c)
        if entry[E_PLAYER] == seat:
            ones.append(P_MINE + c)
        target = entry[E_TARGET]
        if target < 0:
            seats = modifiers[i]
            if seat in seats:
                ones.append(P_AIMS_AT_ME + c)
            if seats:
                where.append(P_RECIPIENT + c)
                values.append((seats[-1] + 1) / 5.0)
        else:
            resting = P_RESPONSES_ON + table[target][E_CARD]
            responses[resting] = responses.get(resting, 0) + 1
    for resting, k in responses.items():
        where.append(resting)
        values.append(_RESPONSES_ON[k])
    if not state.over and state.decision in (D_TARGET_PLAYER, D_TARGET_CARD) and table:
        pending = table[-1]
        ones.append(P_PENDING + pending[E_CARD])
        if pending[E_TARGET] >= 0:
            ones.append(P_PENDING_TARGET + table[pending[E_TARGET]][E_CARD])
    return ones, where, values


#: the compiled encoder (envs/suicidium/native.py) where it is built, else the reference above
encode = native_encoder() or encode_python
