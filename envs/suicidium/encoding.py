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

from typing import Any

import numpy as np

from envs.suicidium.rules import (
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


def encode(state: SuicidiumState, seat: int) -> np.ndarray:
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    n = state.num_players
    over = state.over
    activity = table_activity(state.table) if state.table else []
    projected = projected_changes(state, activity)
    counts = object_pile_counts(state)
    on_table = [0] * n
    for entry in state.table:
        if not entry[E_PLACED]:
            on_table[entry[E_PLAYER]] += 1
    for s in range(n):
        o = s * SEAT_BLOCK
        obs[o] = 1.0
        obs[o + 1] = s == seat
        obs[o + 2] = state.alive[s]
        obs[o + 3] = s == state.active and not over
        obs[o + 4] = s == state.decider and not over
        obs[o + 5] = state.wp[s] / 10.0
        obs[o + 6] = max(-1.0, min(1.0, projected[s] / 10.0))
        for obj in state.objects[s]:
            obs[o + 7 + obj] += 0.5
        obs[o + 12] = len(set(state.objects[s])) / 4.0
        obs[o + 13] = match_chance(state, s, counts) if state.alive[s] else 0.0
        obs[o + 14] = min(len(state.hands[s]) / 10.0, 2.0)
        for card, _ in state.lasting[s]:
            eff = EFFECT[card]
            if eff == E_SKIP_DRAW:
                obs[o + 15] = 1.0
            elif eff == E_SKIP_MAIN:
                obs[o + 16] = 1.0
            elif eff == E_SHIELD:
                obs[o + 17] = 1.0
        obs[o + 18] = s in state.winners
        obs[o + 19] = min(on_table[s] / 6.0, 1.0)
    g = _G
    obs[g + state.mode] = 1.0
    obs[g + 2] = state.expansion
    obs[g + 3 + n - 2] = 1.0
    obs[g + 7 + (0 if over else state.decision)] = 1.0
    obs[g + 15 + state.phase] = 1.0
    g += 19
    if not over:
        obs[g] = state.played / 3.0
        obs[g + 1] = bool(state.drew or state.played)
        obs[g + 2] = state.skip_draw_now
        obs[g + 3] = state.skip_main_now
        obs[g + 4] = state.need / 5.0 if state.decision == D_TARGET_PLAYER else 0.0
        obs[g + 5] = min(state.discard_left / 3.0, 1.0)
        obs[g + 6] = _redirect_slot_delta(state) / 10.0
    obs[g + 7] = min(state.turn / 100.0, 2.0)
    g += 8
    obs[g] = len(state.draw_pile) / NUM_CARDS
    obs[g + 1] = len(state.discard_pile) / NUM_CARDS
    for t in range(NUM_OBJECT_TYPES):
        obs[g + 2 + t] = counts[t] / 5.0
    obs[g + 7] = len(state.object_pile) / 21.0
    for c in state.hands[seat]:
        obs[P_HAND + c] = 1.0
    table = state.table
    for i, entry in enumerate(table):
        if entry[E_PLACED]:
            continue
        c = entry[E_CARD]
        obs[P_TABLE + c] = 1.0
        obs[P_WORKS + c] = activity[i]
        if entry[E_PLAYER] == seat:
            obs[P_MINE + c] = 1.0
        target = entry[E_TARGET]
        if target < 0:
            _, seats, _ = card_modifiers(table, activity, i)
            if seat in seats:
                obs[P_AIMS_AT_ME + c] = 1.0
            if seats:
                obs[P_RECIPIENT + c] = (seats[-1] + 1) / 5.0
        else:
            resting = P_RESPONSES_ON + table[target][E_CARD]
            obs[resting] = min(obs[resting] + 1.0 / 3.0, 2.0)
    if not over and state.decision in (D_TARGET_PLAYER, D_TARGET_CARD) and table:
        pending = table[-1]
        obs[P_PENDING + pending[E_CARD]] = 1.0
        if pending[E_TARGET] >= 0:
            obs[P_PENDING_TARGET + table[pending[E_TARGET]][E_CARD]] = 1.0
    for c in state.discard_pile:
        obs[P_DISCARD + c] = 1.0
    for holder, c in _known_cards(state, seat):
        obs[P_KNOWN + c] = (holder + 1) / 5.0
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
