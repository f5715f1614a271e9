"""SEVN's text renderer and scripted-agent view, and the plain per-seat helpers they share.

Every card in SEVN is public once drawn, so both show the whole table; nothing here reads the
draw-pile order.
"""

from __future__ import annotations

from cardarena.envs.sevn.rules import (
    CARD_CODES,
    CARD_VALUE,
    DECISION_NAMES,
    IN_HAND,
    LAST_VALUE_CARD,
    NUM_CARD_KINDS,
    STATUS_NAMES,
    SevnState,
    hand_score,
    second_chance_takers,
)
from cardarena.envs.sevn.views import SevnView


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


def view(state: SevnState, seat: int) -> SevnView:
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
