"""Flip 6 text renderer, plain-data view and the plain forms of the encoder's derived figures.

``unseen_counts``, ``next_card_odds`` and ``hit_value`` say in a few readable lines what the fast
encoder (``encoding.py``) computes from its tables; ``view`` (what scripted agents read) uses
``unseen_counts``. Everything shown is public in Flip 6 (F3).
"""

from __future__ import annotations

import numpy as np

from cardarena.envs.flip6.rules import (
    BUSTED,
    CARD_CODES,
    DECISION_NAMES,
    DECK_COUNTS,
    DOUBLE,
    EXTRA_LIFE,
    FLIP3,
    FREEZE,
    IN_ROUND,
    NUM_CARD_KINDS,
    STATUS_NAMES,
    TASK_FLIP3,
    Flip6State,
    round_score,
)
from cardarena.envs.flip6.views import Flip6View

_DECK_COUNTS = np.asarray(DECK_COUNTS, dtype=np.float32)


def unseen_counts(state: Flip6State) -> np.ndarray:
    """Count per card kind of the cards a seat has not seen (the draw pile), from public info."""
    counts = _DECK_COUNTS.copy()
    for c in state.discard_pile:
        counts[c] -= 1
    for cards in state.table:
        for c in cards:
            counts[c] -= 1
    for c in state.set_aside:
        counts[c] -= 1
    return counts


def next_card_odds(state: Flip6State, unseen: np.ndarray) -> np.ndarray:
    """Probability of each card kind on the next draw (from the discard pile after a reshuffle)."""
    counts = unseen
    if not state.draw_pile:
        counts = np.bincount(state.discard_pile, minlength=NUM_CARD_KINDS).astype(np.float32)
    total = counts.sum()
    return counts / total if total > 0 else counts


def hit_value(state: Flip6State, seat: int, odds: np.ndarray) -> tuple[float, float, float]:
    """(expected change of the round score from one more card, P(duplicate), P(new number)).

    A duplicate costs the round score, or about a point when EXTRA_LIFE absorbs it (F10); a new
    number adds its value (x2 with DOUBLE) plus the Flip 6 bonus on the sixth value (F9).
    """
    values = state.values[seat]
    score = round_score(state, seat)
    mult = 2 if state.has_double[seat] else 1
    sixth = values.bit_count() == 5
    ev = p_dup = p_new = 0.0
    for v in range(7):
        p = float(odds[v])
        if p == 0.0:
            continue
        if values >> v & 1:
            p_dup += p
            ev -= p * (1.0 if state.has_life[seat] else score)
        else:
            p_new += p
            ev += p * (v * mult + (6 if sixth else 0))
    ev += float(odds[DOUBLE]) * (0 if state.has_double[seat] else score)
    ev += float(odds[EXTRA_LIFE]) + 0.5 * float(odds[FREEZE] + odds[FLIP3])
    return ev, p_dup, p_new


def render(state: Flip6State, seat: int | None = None) -> str:
    """A text table of the public state (Flip 6 has no private cards)."""
    lines = [
        f"flip6  round {state.round_index + 1}  dealer {state.dealer}  "
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
            f"{marks} seat {s}{me}: total {state.scores[s]:>3}  {STATUS_NAMES[state.status[s]]:<8}  "
            f"round {round_score(state, s) if state.status[s] == IN_ROUND else 0:>2}  [{cards}]"
        )
    if state.over:
        lines.append(f"game over: winners {state.winners}")
    else:
        extra = ""
        if state.set_aside:
            extra = f" (holding {CARD_CODES[state.set_aside[-1]]})"
        lines.append(f"decision: seat {state.decider} {DECISION_NAMES[state.decision]}{extra}")
    return "\n".join(lines)


def view(state: Flip6State, seat: int) -> Flip6View:
    """What ``seat`` may see, as plain data for scripted agents (all of it is public, F3)."""
    flip3_left = 0
    for kind, _s, left in reversed(state.stack):
        if kind == TASK_FLIP3:
            flip3_left = left
            break
    return {
        "seat": seat,
        "num_players": state.num_players,
        "target_score": state.target_score,
        "dealer": state.dealer,
        "decision": "game_over" if state.over else DECISION_NAMES[state.decision],
        "decider": state.decider,
        "scores": list(state.scores),
        "status": [STATUS_NAMES[s] for s in state.status],
        "table": [[CARD_CODES[c] for c in cards] for cards in state.table],
        "values": [
            sorted(v for v in range(7) if state.values[s] >> v & 1)
            if state.status[s] != BUSTED
            else []
            for s in range(state.num_players)
        ],
        "has_extra_life": list(state.has_life),
        "has_double": list(state.has_double),
        "round_scores": [
            round_score(state, s) if state.status[s] == IN_ROUND else 0
            for s in range(state.num_players)
        ],
        "draw_pile_size": len(state.draw_pile),
        "discard_pile": [CARD_CODES[c] for c in state.discard_pile],
        "unseen": {CARD_CODES[c]: int(n) for c, n in enumerate(unseen_counts(state))},
        "holding": CARD_CODES[state.set_aside[-1]] if state.set_aside else None,
        "flip3_left": flip3_left,
    }
