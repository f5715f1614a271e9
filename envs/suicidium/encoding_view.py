"""Suicidium's text renderer and scripted-agent view, and the plain helpers they share with the
encoder's definition (object pile counts, match chance, projected WP changes).

Only public information and the seat's own hand are read (see ``envs/suicidium/encoding.py``).
"""

from __future__ import annotations

from cardarena.envs.suicidium.rules import (
    AMOUNT,
    BASE_OBJECTS,
    BOOTH,
    CARD_IDS,
    DECISION_NAMES,
    E_CARD,
    E_PLACED,
    E_PLAYER,
    E_SEATS,
    E_SHIELD,
    E_TARGET,
    EFFECT,
    EFFECT_NAMES,
    KIND,
    KIND_NAMES,
    MODE_NAMES,
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
from cardarena.envs.suicidium.views import SuicidiumView, TableEntryView


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


def _entry_view(state: SuicidiumState, i: int, activity: list[bool]) -> TableEntryView:
    entry = state.table[i]
    card = entry[E_CARD]
    target = entry[E_TARGET]
    info: TableEntryView = {
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


def view(state: SuicidiumState, seat: int) -> SuicidiumView:
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
