"""SEVN observation encoder (one seat's view), text renderer and scripted-agent view.

Every card in SEVN is public once drawn (dealt face up, FORK cards revealed to all, every discard
seen: S7, S16, S26), so only the draw-pile order and the generator are hidden; the composition of
the draw pile is public (the deck minus every card seen). Nothing here reads the draw-pile order.

Observation (float32, size ``OBS_SIZE`` = 534), seats in absolute order, always ``MAX_PLAYERS``
(8) blocks:

=====================  ====  ==============================================================
part                   size  content
=====================  ====  ==============================================================
per seat block x8      44    present, is_me, is_dealer, is_deciding, status one-hot (4:
                             in_hand, passed, frozen, busted), values held (17: 0..13, -2,
                             -4, -6), x2, +2, +4, +6, +8, +10, FEATHERWEIGHT, HEAVYWEIGHT,
                             STRAIGHT, SECOND_CHANCE, hand score if banked now /60,
                             game total /target, (total + hand score) /target,
                             distinct values /7, chance the next card busts it,
                             pending draws for it /4, cards on table /20, is_leader,
                             banked this hand /60
decision one-hot       7     none, turn, target_freeze, target_flip_three,
                             target_second_chance, fork, ballast
decision cards         62    card kind one-hot (31) of the set-aside card(s): the card to
                             target/keep, or the two FORK cards (first, second)
pending-draw queue     33    seat one-hot of the next 4 pending draws (4 x 8), queue length /10
deal in progress       1     the initial deal (S7) is not finished
draw pile size         1     /120
next-card composition  31    count of each card kind in the draw pile /its deck count
                             (the discard pile when the draw pile is empty: S26)
discard composition    31    count of each card kind in the discard pile /its deck count
me one-hot             8     the observer's seat
num players one-hot    7     2..8
reshuffle flag         1     the draw pile is empty (next draw reshuffles the discard)
=====================  ====  ==============================================================

Action mask (int8, size 14): ``pass``, ``draw``, ``target 0`` .. ``target 7``, ``fork 0``,
``fork 1``, ``keep``, ``discard``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.sevn.rules import (
    CARD_CODES,
    CARD_VALUE,
    DECISION_NAMES,
    DECK_COUNTS,
    FEATHERWEIGHT,
    IN_HAND,
    LAST_VALUE_CARD,
    MAX_PLAYERS,
    NUM_CARD_KINDS,
    NUM_DECISIONS,
    SECOND_CHANCE,
    STATUS_NAMES,
    STRAIGHT,
    X2,
    SevnState,
    hand_score,
    second_chance_takers,
)

SEAT_BLOCK = 44
QUEUE_SHOWN = 4
OBS_SIZE = (
    SEAT_BLOCK * MAX_PLAYERS
    + NUM_DECISIONS
    + 2 * NUM_CARD_KINDS
    + QUEUE_SHOWN * MAX_PLAYERS
    + 1
    + 1
    + 1
    + 2 * NUM_CARD_KINDS
    + MAX_PLAYERS
    + 7
    + 1
)
_DECK_COUNTS = np.asarray(DECK_COUNTS, dtype=np.float32)
#: offsets of the per-seat flags of the kept non-value cards (x2 .. +10, bonuses)
_KEPT_OFFSET = {c: 25 + (c - X2) for c in range(X2, X2 + 6)}
_KEPT_OFFSET.update({c: 31 + (c - FEATHERWEIGHT) for c in range(FEATHERWEIGHT, STRAIGHT + 1)})
_KEPT_OFFSET[SECOND_CHANCE] = 34


def next_card_counts(state: SevnState) -> list[int]:
    """Count per card kind of the pile the next card comes from (public: see the docstring)."""
    counts = [0] * NUM_CARD_KINDS
    for c in state.draw_pile if state.draw_pile else state.discard_pile:
        counts[c] += 1
    return counts


def bust_chance(state: SevnState, seat: int, counts: list[int], total: int) -> float:
    """Chance that the next card duplicates a value of ``seat`` with no SECOND_CHANCE to save it."""
    if total == 0 or state.status[seat] != IN_HAND or state.has_second_chance[seat]:
        return 0.0
    values = state.values[seat]
    dup = 0
    for v in range(14):
        if values >> v & 1:
            dup += counts[v]
    return dup / total


def encode(state: SevnState, seat: int) -> np.ndarray:
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    n = state.num_players
    target = float(state.target_score)
    counts = next_card_counts(state)
    total = sum(counts)
    leader = max(state.scores)
    pending = [0] * n
    for s in state.queue:
        pending[s] += 1
    deciding = -1 if state.over else state.decider
    for s in range(n):
        o = s * SEAT_BLOCK
        status = state.status[s]
        obs[o] = 1.0
        obs[o + 1] = s == seat
        obs[o + 2] = s == state.dealer
        obs[o + 3] = s == deciding
        obs[o + 4 + status] = 1.0
        values = state.values[s]
        for v in range(LAST_VALUE_CARD + 1):
            if values >> v & 1:
                obs[o + 8 + v] = 1.0
        for c in state.table[s]:
            k = _KEPT_OFFSET.get(c)
            if k is not None:
                obs[o + k] = 1.0
        hs = hand_score(state.table[s]) if status == IN_HAND else 0
        obs[o + 35] = min(hs / 60.0, 2.0)
        obs[o + 36] = min(state.scores[s] / target, 2.0)
        obs[o + 37] = min((state.scores[s] + hs) / target, 2.0)
        obs[o + 38] = values.bit_count() / 7.0
        obs[o + 39] = bust_chance(state, s, counts, total)
        obs[o + 40] = min(pending[s] / 4.0, 2.0)
        obs[o + 41] = min(len(state.table[s]) / 20.0, 2.0)
        obs[o + 42] = state.scores[s] == leader
        obs[o + 43] = min(max(state.banked[s], 0) / 60.0, 2.0) if state.banked else 0.0
    o = SEAT_BLOCK * MAX_PLAYERS
    obs[o + (0 if state.over else state.decision)] = 1.0
    o += NUM_DECISIONS
    for i, c in enumerate(state.set_aside[:2]):
        obs[o + i * NUM_CARD_KINDS + c] = 1.0
    o += 2 * NUM_CARD_KINDS
    for i, s in enumerate(state.queue[:QUEUE_SHOWN]):
        obs[o + i * MAX_PLAYERS + s] = 1.0
    o += QUEUE_SHOWN * MAX_PLAYERS
    obs[o] = min(len(state.queue) / 10.0, 2.0)
    o += 1
    obs[o] = state.deal_pos < n and not state.over
    o += 1
    obs[o] = len(state.draw_pile) / 120.0
    o += 1
    obs[o : o + NUM_CARD_KINDS] = np.asarray(counts, dtype=np.float32) / _DECK_COUNTS
    o += NUM_CARD_KINDS
    for c in state.discard_pile:
        obs[o + c] += 1.0
    obs[o : o + NUM_CARD_KINDS] /= _DECK_COUNTS
    o += NUM_CARD_KINDS
    obs[o + seat] = 1.0
    o += MAX_PLAYERS
    obs[o + n - 2] = 1.0
    o += 7
    obs[o] = len(state.draw_pile) == 0
    return obs


def _current_hand_score(state: SevnState, s: int) -> int:
    return hand_score(state.table[s]) if state.status[s] == IN_HAND else 0


def render(state: SevnState, seat: int | None = None) -> str:
    """A text table of the public state (SEVN has no private cards)."""
    lines = [
        f"sevn  hand {state.hand_index + 1}  dealer {state.dealer}  "
        f"draw pile {len(state.draw_pile)}  discard {len(state.discard_pile)}  "
        f"target {state.target_score}"
    ]
    for s in range(state.num_players):
        marks = ("*" if s == state.decider and not state.over else " ") + (
            "D" if s == state.dealer else " "
        )
        cards = " ".join(CARD_CODES[c] for c in state.table[s]) or "-"
        me = " (you)" if s == seat else ""
        lines.append(
            f"{marks} seat {s}{me}: total {state.scores[s]:>3}  "
            f"{STATUS_NAMES[state.status[s]]:<7}  hand {_current_hand_score(state, s):>3}  [{cards}]"
        )
    if state.queue:
        lines.append("pending draws: " + " ".join(f"seat {s}" for s in state.queue))
    if state.over:
        lines.append(f"game over: winners {state.winners}")
    else:
        extra = ""
        if state.set_aside:
            extra = " (" + " / ".join(CARD_CODES[c] for c in state.set_aside) + ")"
        lines.append(f"decision: seat {state.decider} {DECISION_NAMES[state.decision]}{extra}")
    return "\n".join(lines)


def view(state: SevnState, seat: int) -> dict[str, Any]:
    """What ``seat`` may see, as plain data for scripted agents (all of it public)."""
    n = state.num_players
    counts = next_card_counts(state)
    unseen = [0] * NUM_CARD_KINDS
    for c in state.draw_pile:
        unseen[c] += 1
    return {
        "seat": seat,
        "num_players": n,
        "target_score": state.target_score,
        "dealer": state.dealer,
        "decision": "game_over" if state.over else DECISION_NAMES[state.decision],
        "decider": -1 if state.over else state.decider,
        "scores": list(state.scores),
        "status": [STATUS_NAMES[s] for s in state.status],
        "table": [[CARD_CODES[c] for c in cards] for cards in state.table],
        "values": [  # values held (numbers and kept ballast), a busted row's included
            [CARD_VALUE[c] for c in range(LAST_VALUE_CARD + 1) if state.values[s] >> c & 1]
            for s in range(n)
        ],
        "has_second_chance": list(state.has_second_chance),
        "has_x2": list(state.has_x2),
        "hand_scores": [_current_hand_score(state, s) for s in range(n)],
        "banked": list(state.banked),
        "holding": [CARD_CODES[c] for c in state.set_aside],
        "second_chance_takers": (
            second_chance_takers(state, state.decider) if not state.over else []
        ),
        "pending": list(state.queue),
        "dealing": state.deal_pos < n and not state.over,
        "draw_pile_size": len(state.draw_pile),
        "discard_pile": [CARD_CODES[c] for c in state.discard_pile],
        "unseen": {CARD_CODES[c]: unseen[c] for c in range(NUM_CARD_KINDS)},
        "next_card_counts": list(counts),
        "hand_index": state.hand_index,
    }
