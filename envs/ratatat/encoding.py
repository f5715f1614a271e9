"""Ratatat observation encoder (one seat's view), text renderer and plain-data view.

What a seat sees of the slots depends on the ``memory`` option (see ``rules.visible_slots``):
``perfect_recall`` (default) every slot whose card it knows (R17), ``none`` only the slots it saw
since its previous decision (a recurrent policy must remember the rest), ``seer`` every slot and
the card in any hand (an oracle to measure the value of information; it never sees the draw pile).
Everything else is public (R18). The draw-pile order, unseen cards and the generator are never
read here.

Observation (float32, size ``OBS_SIZE`` = 547), seats in absolute order, always ``MAX_PLAYERS``:

=====================  ====  ==============================================================
part                   size  content
=====================  ====  ==============================================================
slot block x24         16    per slot (seat-major, slots 0..3): card one-hot (13; ``0``..``9``,
                             SWAP, PEEK, DRAW_TWO) if visible, unknown flag, the row's owner
                             knows it (public, R18; 0 with ``memory="none"``), the card moved
                             since this seat's previous decision
seat block x6          12    present, is_me, is_deciding, starts this round, knocked, played
                             this round, still owes its last turn (R10), game total / max,
                             visible sum /36, visible slots /4, estimated round score /36,
                             game total minus the lowest / max
card in hand           15    one-hot (13) if visible, it is mine, it is someone else's
top discard            13    one-hot
discard pile           13    count per card kind / its deck count
unseen cards           13    count per card kind not visible to this seat / its deck count
in use / set aside     6     specials resolving (3), specials set aside at scoring (3), /count
scalars                9     draw pile /66, mean unseen number /9, unseen special share,
                             round /6, rounds left /6, someone knocked, every seat has
                             played (knock allowed, R10), turns / max_turns (clipped at 2),
                             top discard can be taken
decision one-hot       8     none, turn, take_slot, drawn_card, draw_two_extra, swap, peek,
                             knock
me one-hot             6     the observer's seat
num players one-hot    5     2..6
memory one-hot         3     perfect_recall, none, seer
=====================  ====  ==============================================================

Action mask (int8, size 111): ``take_discard``, ``draw``, ``slot 0``..``slot 3``, ``discard``,
``use``, ``redraw``, ``peek 0``..``peek 3``, ``knock``, ``no_knock``, then ``swap K N J`` at
``15 + 24 K + 4 N + J``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.ratatat.rules import (
    CARD_CODES,
    DECISION_NAMES,
    DECK_COUNTS,
    MAX_PLAYERS,
    MEMORY_MODES,
    NO_MEMORY,
    NUM_CARD_KINDS,
    SLOTS_PER_SEAT,
    RatatatState,
    visible_held,
    visible_slots,
)

SLOT_BLOCK = 16
SEAT_BLOCK = 12
MAX_SLOTS = MAX_PLAYERS * SLOTS_PER_SEAT
OBS_SIZE = (
    SLOT_BLOCK * MAX_SLOTS
    + SEAT_BLOCK * MAX_PLAYERS
    + 15
    + NUM_CARD_KINDS * 3
    + 6
    + 9
    + len(DECISION_NAMES)
    + MAX_PLAYERS
    + 5
    + len(MEMORY_MODES)
)
assert OBS_SIZE == 547
_DECK = np.asarray(DECK_COUNTS, dtype=np.float32)


def unseen_counts(state: RatatatState, seat: int, visible: list[int] | None = None) -> list[int]:
    """Count per card kind of the cards ``seat`` does not see anywhere (hidden slots, hands of
    others, draw pile): the deck minus every public zone and every card visible to it."""
    counts = list(DECK_COUNTS)
    for c in state.discard_pile:
        counts[c] -= 1
    for c in state.in_use:
        counts[c] -= 1
    for c in state.set_aside:
        counts[c] -= 1
    for c in visible if visible is not None else visible_slots(state, seat):
        if c >= 0:
            counts[c] -= 1
    held = visible_held(state, seat)
    if held >= 0:
        counts[held] -= 1
    return counts


def mean_unseen_number(counts: list[int]) -> float:
    """Expected value of an unseen number card (a special is replaced by one at scoring, R14)."""
    numbers = sum(counts[:10])
    if numbers <= 0:
        return 4.5
    return sum(v * counts[v] for v in range(10)) / numbers


def estimate_row(visible: list[int], seat: int, mean: float) -> tuple[int, int, float]:
    """(sum of visible number values, visible slots, estimated round score) of a row."""
    known_sum, known, est = 0, 0, 0.0
    for c in visible[seat * SLOTS_PER_SEAT : (seat + 1) * SLOTS_PER_SEAT]:
        if c >= 0:
            known += 1
            if c < 10:
                known_sum += c
                est += c
            else:
                est += mean
        else:
            est += mean
    return known_sum, known, est


def owes_last_turn(state: RatatatState, s: int) -> bool:
    """R10: after a knock, the seats from the deciding one up to the knocker still play."""
    if state.knocker < 0 or state.over or s == state.knocker:
        return False
    n = state.num_players
    return (s - state.decider) % n < (state.knocker - state.decider) % n


def encode(state: RatatatState, seat: int) -> np.ndarray:
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    n = state.num_players
    visible = visible_slots(state, seat)
    show_knowers = state.memory != NO_MEMORY
    since = state.last_decided[seat]
    for i, c in enumerate(visible):
        o = i * SLOT_BLOCK
        if c >= 0:
            obs[o + c] = 1.0
        else:
            obs[o + 13] = 1.0
        if show_knowers and state.knowers[i] >> (i // SLOTS_PER_SEAT) & 1:
            obs[o + 14] = 1.0
        if state.changed_at[i] > since:
            obs[o + 15] = 1.0
    counts = unseen_counts(state, seat, visible)
    mean = mean_unseen_number(counts)
    max_total = 36.0 * state.num_rounds
    low = min(state.scores)
    starter = (state.dealer + 1) % n
    running = not state.over
    o = SLOT_BLOCK * MAX_SLOTS
    for s in range(n):
        b = o + s * SEAT_BLOCK
        known_sum, known, est = estimate_row(visible, s, mean)
        obs[b] = 1.0
        obs[b + 1] = s == seat
        obs[b + 2] = running and s == state.decider
        obs[b + 3] = s == starter
        obs[b + 4] = s == state.knocker
        obs[b + 5] = state.played >> s & 1
        obs[b + 6] = owes_last_turn(state, s)
        obs[b + 7] = min(state.scores[s] / max_total, 2.0)
        obs[b + 8] = known_sum / 36.0
        obs[b + 9] = known / 4.0
        obs[b + 10] = est / 36.0
        obs[b + 11] = min((state.scores[s] - low) / max_total, 2.0)
    o += SEAT_BLOCK * MAX_PLAYERS
    held = visible_held(state, seat)
    if held >= 0:
        obs[o + held] = 1.0
        if state.decider == seat:
            obs[o + 13] = 1.0
        else:
            obs[o + 14] = 1.0
    o += 15
    if state.discard_pile:
        obs[o + state.discard_pile[-1]] = 1.0
    o += NUM_CARD_KINDS
    for c in state.discard_pile:
        obs[o + c] += 1.0
    obs[o : o + NUM_CARD_KINDS] /= _DECK
    o += NUM_CARD_KINDS
    obs[o : o + NUM_CARD_KINDS] = np.asarray(counts, dtype=np.float32) / _DECK
    o += NUM_CARD_KINDS
    for c in state.in_use:
        obs[o + c - 10] += 1.0 / DECK_COUNTS[c]
    for c in state.set_aside:
        obs[o + 3 + c - 10] += 1.0 / DECK_COUNTS[c]
    o += 6
    unseen_total = sum(counts)
    obs[o] = len(state.draw_pile) / 66.0
    obs[o + 1] = mean / 9.0
    obs[o + 2] = sum(counts[10:]) / unseen_total if unseen_total else 0.0
    obs[o + 3] = state.round_index / 6.0
    obs[o + 4] = (state.num_rounds - state.round_index) / max(6.0, state.num_rounds)
    obs[o + 5] = state.knocker >= 0
    obs[o + 6] = state.played == (1 << n) - 1
    obs[o + 7] = min(state.turns / state.max_turns, 2.0)
    obs[o + 8] = bool(state.discard_pile) and state.discard_pile[-1] < 10
    o += 9
    obs[o + (0 if state.over else state.decision)] = 1.0
    o += len(DECISION_NAMES)
    obs[o + seat] = 1.0
    o += MAX_PLAYERS
    obs[o + n - 2] = 1.0
    o += 5
    obs[o + state.memory] = 1.0
    return obs


def _code(card: int) -> str | None:
    return CARD_CODES[card] if card >= 0 else None


def render(state: RatatatState, seat: int | None = None) -> str:
    """A text table of the public state; with ``seat``, the slots and hand card it sees."""
    n = state.num_players
    top = CARD_CODES[state.discard_pile[-1]] if state.discard_pile else "-"
    lines = [
        f"ratatat  round {min(state.round_index + 1, state.num_rounds)}/{state.num_rounds}  "
        f"dealer {state.dealer}  draw pile {len(state.draw_pile)}  discard {len(state.discard_pile)} "
        f"(top {top})  turns {state.turns}/{state.max_turns}"
    ]
    visible = visible_slots(state, seat) if seat is not None else None
    for s in range(n):
        marks = ("*" if not state.over and s == state.decider else " ") + (
            "K" if s == state.knocker else " "
        )
        if state.over:
            row = state.last_rows[s * SLOTS_PER_SEAT : (s + 1) * SLOTS_PER_SEAT]
            cells = " ".join(f"{CARD_CODES[c]:>2}" for c in row)
        elif visible is not None:
            row = visible[s * SLOTS_PER_SEAT : (s + 1) * SLOTS_PER_SEAT]
            cells = " ".join(f"{CARD_CODES[c]:>2}" if c >= 0 else " ?" for c in row)
        else:
            cells = " ".join(" #" for _ in range(SLOTS_PER_SEAT))
        me = " (you)" if s == seat else ""
        last = f"  last round {state.round_scores[-1][s]:>2}" if state.round_scores else ""
        lines.append(f"{marks} seat {s}{me}: total {state.scores[s]:>3}  [{cells}]{last}")
    if state.in_use:
        lines.append("in use: " + " ".join(CARD_CODES[c] for c in state.in_use))
    if state.over:
        lines.append(f"game over: winners {state.winners}")
    else:
        extra = ""
        if state.held >= 0:
            shown = visible_held(state, seat) if seat is not None else -1
            if shown < 0 and state.held_public:
                shown = state.held
            extra = f" (holding {CARD_CODES[shown] if shown >= 0 else 'a drawn card'})"
        knock = f"  knocked by seat {state.knocker}" if state.knocker >= 0 else ""
        lines.append(
            f"decision: seat {state.decider} {DECISION_NAMES[state.decision]}{extra}{knock}"
        )
    return "\n".join(lines)


def view(state: RatatatState, seat: int) -> dict[str, Any]:
    """What ``seat`` may see, as plain data for scripted agents.

    ``rows``: per seat the 4 card codes this seat sees (None: unknown); ``owner_knows``: whether
    each row's owner knows the slot (public, R18); ``unseen``: count per code of the cards not
    visible to this seat (hidden slots, draw pile, another player's drawn card).
    """
    n = state.num_players
    visible = visible_slots(state, seat)
    counts = unseen_counts(state, seat, visible)
    show_knowers = state.memory != NO_MEMORY
    since = state.last_decided[seat]
    return {
        "seat": seat,
        "num_players": n,
        "memory": MEMORY_MODES[state.memory],
        "decision": "game_over" if state.over else DECISION_NAMES[state.decision],
        "decider": None if state.over else state.decider,
        "dealer": state.dealer,
        "starter": (state.dealer + 1) % n,
        "round_index": state.round_index,
        "num_rounds": state.num_rounds,
        "scores": list(state.scores),
        "round_scores": [list(r) for r in state.round_scores],
        "rows": [
            [_code(c) for c in visible[s * SLOTS_PER_SEAT : (s + 1) * SLOTS_PER_SEAT]]
            for s in range(n)
        ],
        "owner_knows": [
            [
                show_knowers and bool(state.knowers[s * SLOTS_PER_SEAT + k] >> s & 1)
                for k in range(SLOTS_PER_SEAT)
            ]
            for s in range(n)
        ],
        "changed": [
            [state.changed_at[s * SLOTS_PER_SEAT + k] > since for k in range(SLOTS_PER_SEAT)]
            for s in range(n)
        ],
        "held": _code(visible_held(state, seat)),
        "held_public": state.held >= 0 and state.held_public,
        "top_discard": _code(state.discard_pile[-1]) if state.discard_pile else None,
        "discard_pile": [CARD_CODES[c] for c in state.discard_pile],
        "draw_pile_size": len(state.draw_pile),
        "in_use": [CARD_CODES[c] for c in state.in_use],
        "set_aside": [CARD_CODES[c] for c in state.set_aside],
        "unseen": {CARD_CODES[c]: counts[c] for c in range(NUM_CARD_KINDS)},
        "knocker": state.knocker if state.knocker >= 0 else None,
        "played": [bool(state.played >> s & 1) for s in range(n)],
        "owes_last_turn": [owes_last_turn(state, s) for s in range(n)],
        "turns": state.turns,
        "max_turns": state.max_turns,
        "last_moves": [list(m) for m in state.log[-2 * n :]],
    }
