"""Ratatat text renderer, plain-data view and the plain forms of the encoder's derived figures.

``unseen_counts``, ``mean_unseen_number``, ``estimate_row`` and ``owes_last_turn`` say in a few
readable lines what the fast encoder (``encoding.py``) computes inline; ``view`` (what scripted
agents read) and ``render`` show only what the seat may see (``rules.visible_slots``).
"""

from __future__ import annotations

from cardarena.envs.ratatat.rules import (
    CARD_CODES,
    DECISION_NAMES,
    DECK_COUNTS,
    MEMORY_MODES,
    NO_MEMORY,
    NUM_CARD_KINDS,
    SLOTS_PER_SEAT,
    RatatatState,
    visible_held,
    visible_slots,
)
from cardarena.envs.ratatat.views import RatatatView


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


def view(state: RatatatState, seat: int) -> RatatatView:
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
