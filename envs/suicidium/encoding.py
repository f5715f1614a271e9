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

from cardarena.envs.suicidium.rules import (
    AMOUNT,
    BASE_OBJECTS,
    BOOTH,
    CARD_IDS,
    D_TARGET_CARD,
    D_TARGET_PLAYER,
    DECISION_NAMES,
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
    EFFECT_NAMES,
    KIND,
    KIND_NAMES,
    MAX_PLAYERS,
    MODE_NAMES,
    NUM_CARDS,
    NUM_OBJECT_TYPES,
    OBJECT_CODES,
    PARTY_OBJECTS,
    PHASE_NAMES,
    POINTS,
    SuicidiumState,
    card_modifiers,
    point_changes,
    table_activity,
)

SEAT_BLOCK = 20
GLOBAL_SIZE = 2 + 1 + 4 + 8 + 4 + 8 + 8
CARD_PLANES = 11
OBS_SIZE = SEAT_BLOCK * MAX_PLAYERS + GLOBAL_SIZE + CARD_PLANES * NUM_CARDS
_G = SEAT_BLOCK * MAX_PLAYERS
_C = _G + GLOBAL_SIZE
(
    P_HAND,
    P_TABLE,
    P_WORKS,
    P_MINE,
    P_AIMS_AT_ME,
    P_PENDING,
    P_PENDING_TARGET,
    P_DISCARD,
    P_KNOWN,
    P_RECIPIENT,
    P_RESPONSES_ON,
) = (_C + k * NUM_CARDS for k in range(CARD_PLANES))

# ---- tables of the fast encoder ------------------------------------------------------------------
_PACK_HEAD = struct.Struct(f"{_C}f").pack
_ZEROS = [0.0] * (SEAT_BLOCK * MAX_PLAYERS)
#: objects per type in the object deck, without / with the party objects (5 players)
_OBJECT_COUNTS = [
    [BASE_OBJECTS.count(t) for t in range(NUM_OBJECT_TYPES)],
    [(BASE_OBJECTS + PARTY_OBJECTS).count(t) for t in range(NUM_OBJECT_TYPES)],
]
_MAX_COUNT = len(BASE_OBJECTS + PARTY_OBJECTS) + 1
_FIFTHS = {k: k / 5.0 for k in range(-_MAX_COUNT, _MAX_COUNT)}  #: object pile count /5
_KNOWN_HOLDER = [(h + 1) / 5.0 for h in range(MAX_PLAYERS)]


def _onehot(size: int, k: int) -> tuple[float, ...]:
    return tuple(1.0 if i == k else 0.0 for i in range(size))


#: _GLOBAL_HEAD[mode][expansion][players - 2][decision][phase]: mode one-hot .. phase one-hot
_GLOBAL_HEAD = [
    [
        [
            [
                [
                    _onehot(2, m) + (float(x),) + _onehot(4, k) + _onehot(8, d) + _onehot(4, ph)
                    for ph in range(4)
                ]
                for d in range(8)
            ]
            for k in range(4)
        ]
        for x in (0, 1)
    ]
    for m in range(2)
]


def _responses_on() -> list[float]:
    """Entry k: k times ``obs[i] = min(obs[i] + 1.0 / 3.0, 2.0)`` on a float32 vector (what the
    old encoder did per response resting on a card), as a Python float."""
    acc = np.zeros(1, dtype=np.float32)
    out = [0.0]
    for _ in range(NUM_CARDS):
        acc[0] = min(acc[0] + 1.0 / 3.0, 2.0)
        out.append(float(acc[0]))
    return out


_RESPONSES_ON = _responses_on()


def object_pile_counts(state: SuicidiumState) -> list[int]:
    """Objects left to draw per type, from public information (every drawn object is face up)."""
    counts = [0] * NUM_OBJECT_TYPES
    for o in _full_object_deck(state):
        counts[o] += 1
    for objs in state.objects:
        for o in objs:
            counts[o] -= 1
    return counts


def _full_object_deck(state: SuicidiumState) -> list[int]:
    return BASE_OBJECTS + (PARTY_OBJECTS if state.num_players == 5 else [])


def match_chance(state: SuicidiumState, seat: int, counts: list[int]) -> float:
    """Chance that ``seat``'s next object draw is a match (U5, U36); 1 with an empty pile."""
    total = sum(counts)
    if total == 0:
        return 1.0
    held = set(state.objects[seat])
    bad = sum(counts[o] for o in range(NUM_OBJECT_TYPES) if o in held or o == BOOTH)
    return bad / total


def projected_changes(state: SuicidiumState, activity: list[bool] | None = None) -> list[int]:
    """WP change per seat if the table resolved now (POINTS only, shields counted, U11/U22/U27)."""
    n = state.num_players
    out = [0] * n
    table = state.table
    if not table:
        return out
    if activity is None:
        activity = table_activity(table)
    for i, entry in enumerate(table):
        card = entry[E_CARD]
        if entry[E_TARGET] >= 0 or KIND[card] != POINTS or not activity[i]:
            continue
        mult, seats, _ = card_modifiers(table, activity, i)
        for s, delta in point_changes(card, seats, mult):
            if delta < 0 and any(EFFECT[c] == E_SHIELD for c, _ in state.lasting[s]):
                continue
            out[s] += delta
    return out


def _known_cards(state: SuicidiumState, seat: int) -> list[tuple[int, int]]:
    """(holder, card) for cards ``seat`` has seen in other hands, still there."""
    bit = 1 << seat
    return [
        (h, c)
        for h in range(state.num_players)
        if h != seat
        for c in state.hands[h]
        if state.known_by[c] & bit
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


#: tuple(objects of a seat) -> _object_part(objects)
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


_ONE = struct.pack("f", 1.0)
_PLANE_BYTES = 4 * NUM_CARDS
#: the six planes from P_TABLE to P_PENDING_TARGET, and the three after P_DISCARD, all zeros (the
#: few cards on them are written afterwards)
_ZERO_TABLE_PLANES = bytes(6 * _PLANE_BYTES)
_ZERO_LAST_PLANES = bytes(3 * _PLANE_BYTES)
assert P_TABLE == P_HAND + NUM_CARDS and P_DISCARD == P_HAND + 7 * NUM_CARDS
assert P_RESPONSES_ON == P_DISCARD + 3 * NUM_CARDS and OBS_SIZE == P_RESPONSES_ON + NUM_CARDS
#: a join into a new bytearray: np.frombuffer of it is a writable array of its own without a copy
_JOIN = bytearray().join
_FROMBUFFER = np.frombuffer
_FLOAT32 = np.float32


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
        if len(pile) >= old and pile[:old] == snap:
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


def encode(state: SuicidiumState, seat: int) -> np.ndarray:
    """The observation of ``seat`` (see the module docstring for the layout).

    The seat blocks and the global part are one list of Python floats packed to float32 at once
    (what depends on a seat's objects alone is memoised, :func:`_object_part`), joined with the
    hand's and the discard pile's card planes (memoised bytes, the discard plane updated from the
    new cards); the sparse table planes are written with one ``put`` per plane group. Every value is computed as
    :func:`object_pile_counts`, :func:`match_chance`, :func:`projected_changes` and the per-card
    loops did, so the vector is bit-identical to theirs (``tests/test_encoder_equivalence.py``).
    """
    n = state.num_players
    over = state.over
    table = state.table
    activity = table_activity(table) if table else []
    # projected_changes, keeping the (multiplier, recipients) of every untargeted card for the
    # card planes below
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
    # object_pile_counts
    counts = list(_OBJECT_COUNTS[n == 5])
    for objs in state.objects:
        for o in objs:
            counts[o] -= 1
    pile_total = sum(counts)
    on_table = [0] * n
    for entry in table:
        if not entry[E_PLACED]:
            on_table[entry[E_PLAYER]] += 1
    active = -1 if over else state.active
    decider = -1 if over else state.decider
    winners = state.winners
    head: list[Any] = []
    add = head.extend
    for s in range(n):
        alive = state.alive[s]
        objs = state.objects[s]
        part = _OBJECT_PARTS.get(tuple(objs))
        if part is None:
            part = _object_part(objs)
        halves, distinct4, others = part
        if not alive:
            match = 0.0
        elif pile_total == 0:  # match_chance
            match = 1.0
        else:
            bad = counts[BOOTH]
            for o in others:
                bad += counts[o]
            match = bad / pile_total
        skip_draw = skip_main = shield = 0.0
        for card, _ in state.lasting[s]:
            eff = EFFECT[card]
            if eff == E_SKIP_DRAW:
                skip_draw = 1.0
            elif eff == E_SKIP_MAIN:
                skip_main = 1.0
            elif eff == E_SHIELD:
                shield = 1.0
        x = projected[s] / 10.0
        x = x if x < 1.0 else 1.0  # max(-1.0, min(1.0, x))
        h = len(state.hands[s]) / 10.0
        t = on_table[s] / 6.0
        add(
            [
                1.0,
                s == seat,
                alive,
                s == active,
                s == decider,
                state.wp[s] / 10.0,
                x if x > -1.0 else -1.0,
                *halves,
                distinct4,
                match,
                2.0 if h > 2.0 else h,  # min(h, 2.0)
                skip_draw,
                skip_main,
                shield,
                s in winners,
                1.0 if t > 1.0 else t,  # min(t, 1.0)
            ]
        )
    head += _ZEROS[: SEAT_BLOCK * (MAX_PLAYERS - n)]
    add(
        _GLOBAL_HEAD[state.mode][state.expansion][n - 2][0 if over else state.decision][state.phase]
    )
    if over:
        add(_ZEROS[:7])
    else:
        add(
            (
                state.played / 3.0,
                bool(state.drew or state.played),
                state.skip_draw_now,
                state.skip_main_now,
                state.need / 5.0 if state.decision == D_TARGET_PLAYER else 0.0,
                min(state.discard_left / 3.0, 1.0),
                _redirect_slot_delta(state) / 10.0,
            )
        )
    head.append(min(state.turn / 100.0, 2.0))
    head.append(len(state.draw_pile) / NUM_CARDS)
    head.append(len(state.discard_pile) / NUM_CARDS)
    add(map(_FIFTHS.__getitem__, counts))
    head.append(len(state.object_pile) / 21.0)
    # the card planes: the hand's and the discard pile's as bytes, the sparse others written below
    hand = state.hands[seat]
    key = tuple(hand)
    hand_plane = _HAND_PLANES.get(key)
    if hand_plane is None:
        if len(_HAND_PLANES) >= 4096:
            _HAND_PLANES.clear()
        hand_plane = _HAND_PLANES[key] = bytes(_plane(hand))
    obs = _FROMBUFFER(
        _JOIN(
            (
                _PACK_HEAD(*head),
                hand_plane,
                _ZERO_TABLE_PLANES,
                _discard_plane(state.discard_pile),
                _ZERO_LAST_PLANES,
            )
        ),
        _FLOAT32,
    )
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
    if not over and state.decision in (D_TARGET_PLAYER, D_TARGET_CARD) and table:
        pending = table[-1]
        ones.append(P_PENDING + pending[E_CARD])
        if pending[E_TARGET] >= 0:
            ones.append(P_PENDING_TARGET + table[pending[E_TARGET]][E_CARD])
    bit = 1 << seat
    known_by = state.known_by
    for h in range(n):
        if h != seat:
            for c in state.hands[h]:
                if known_by[c] & bit:
                    where.append(P_KNOWN + c)
                    values.append(_KNOWN_HOLDER[h])
    if ones:
        obs.put(ones, 1.0)
    if where:
        obs.put(where, values)
    return obs


def _entry_view(state: SuicidiumState, i: int, activity: list[bool]) -> dict[str, Any]:
    entry = state.table[i]
    card = entry[E_CARD]
    target = entry[E_TARGET]
    info: dict[str, Any] = {
        "index": i,
        "card": CARD_IDS[card],
        "player": entry[E_PLAYER],
        "kind": KIND_NAMES[KIND[card]],
        "effect": EFFECT_NAMES[EFFECT[card]],
        "amount": AMOUNT[card],
        "target": CARD_IDS[state.table[target][E_CARD]] if target >= 0 else None,
        "target_index": target,
        "seats": list(entry[E_SEATS]),
        "works": bool(activity[i]) if i < len(activity) else True,
    }
    if target < 0 and i < len(activity):
        mult, seats, thief = card_modifiers(state.table, activity, i)
        info["multiplier"] = mult
        info["recipients"] = list(seats)
        info["stolen_by"] = thief
    return info


def view(state: SuicidiumState, seat: int) -> dict[str, Any]:
    """What ``seat`` may see, as plain data for scripted agents (absolute seats, card ids)."""
    n = state.num_players
    activity = table_activity(state.table) if state.table else []
    known: list[list[str]] = [[] for _ in range(n)]
    for holder, c in _known_cards(state, seat):
        known[holder].append(CARD_IDS[c])
    counts = object_pile_counts(state)
    over = state.over
    return {
        "seat": seat,
        "num_players": n,
        "mode": MODE_NAMES[state.mode],
        "expansion": state.expansion,
        "decision": "game_over" if over else DECISION_NAMES[state.decision],
        "decider": None if over else state.decider,
        "phase": PHASE_NAMES[state.phase],
        "active": state.active,
        "turn": state.turn,
        "wp": list(state.wp),
        "in_game": list(state.alive),
        "objects": [[OBJECT_CODES[o] for o in objs] for objs in state.objects],
        "match_chance": [match_chance(state, s, counts) for s in range(n)],
        "hand_sizes": [len(h) for h in state.hands],
        "lasting": [
            [{"card": CARD_IDS[c], "effect": EFFECT_NAMES[EFFECT[c]], "arrived": t} for c, t in x]
            for x in state.lasting
        ],
        "hand": [CARD_IDS[c] for c in sorted(state.hands[seat])],
        "table": [
            _entry_view(state, i, activity)
            for i in range(len(state.table))
            if not state.table[i][E_PLACED]
        ],
        "projected": projected_changes(state, activity),
        "played_count": state.played,
        "drew": state.drew,
        "obligation_met": bool(state.drew or state.played),
        "skip_draw_now": state.skip_draw_now,
        "skip_main_now": state.skip_main_now,
        "need": state.need,
        "discard_left": state.discard_left,
        "responders_left": list(state.responders),
        "responded": state.responded,
        "discard_pile": [CARD_IDS[c] for c in state.discard_pile],
        "takeable": [CARD_IDS[c] for c in state.discard_pile[: state.discard_mark]],
        "draw_pile_size": len(state.draw_pile),
        "object_pile_size": len(state.object_pile),
        "object_pile_counts": {OBJECT_CODES[t]: counts[t] for t in range(NUM_OBJECT_TYPES)},
        "known": known,
        "winners": list(state.winners),
    }


def render(state: SuicidiumState, seat: int | None = None) -> str:
    """A text table of the public state, plus ``seat``'s hand and the cards it has seen."""
    n = state.num_players
    lines = [
        f"suicidium {MODE_NAMES[state.mode]}  turn {state.turn}  active seat {state.active}  "
        f"phase {PHASE_NAMES[state.phase]}  draw pile {len(state.draw_pile)}  "
        f"discard {len(state.discard_pile)}  objects left {len(state.object_pile)}"
    ]
    for s in range(n):
        mark = "*" if s == state.decider and not state.over else " "
        me = " (you)" if s == seat else ""
        status = "in" if state.alive[s] else "OUT"
        objs = " ".join(OBJECT_CODES[o] for o in state.objects[s]) or "-"
        lasting = " ".join(CARD_IDS[c] for c, _ in state.lasting[s]) or "-"
        lines.append(
            f"{mark} seat {s}{me}: WP {state.wp[s]:>2}  {status:<3}  hand {len(state.hands[s])}  "
            f"objects [{objs}]  lasting [{lasting}]"
        )
    if state.table:
        activity = table_activity(state.table)
        lines.append("table:")
        for i, entry in enumerate(state.table):
            if entry[E_PLACED]:
                continue
            card = entry[E_CARD]
            on = (
                f" on {CARD_IDS[state.table[entry[E_TARGET]][E_CARD]]}"
                if entry[E_TARGET] >= 0
                else ""
            )
            seats = f" -> seats {entry[E_SEATS]}" if entry[E_SEATS] else ""
            works = "" if activity[i] else "  (cancelled)"
            lines.append(
                f"  {i}. seat {entry[E_PLAYER]}: {CARD_IDS[card]} [{KIND_NAMES[KIND[card]]} "
                f"{EFFECT_NAMES[EFFECT[card]]}{f' {AMOUNT[card]:+d}' if AMOUNT[card] else ''}]"
                f"{on}{seats}{works}"
            )
    if seat is not None:
        lines.append(
            f"your hand: {' '.join(CARD_IDS[c] for c in sorted(state.hands[seat])) or '-'}"
        )
        seen = _known_cards(state, seat)
        if seen:
            lines.append(
                "seen in other hands: "
                + ", ".join(f"seat {h}: {CARD_IDS[c]}" for h, c in sorted(seen))
            )
    if state.over:
        lines.append(f"game over: winners {state.winners}")
    else:
        lines.append(f"decision: seat {state.decider} {DECISION_NAMES[state.decision]}")
    return "\n".join(lines)
