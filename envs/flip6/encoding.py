"""Flip 6 observation encoder (one seat's view) and text renderer.

Everything a seat sees in Flip 6 is public (F3: dealt cards are face up; the discard pile was seen
card by card), so every seat's vector differs only in the "me" flags. The deck order and the
generator are never read here.

Observation (float32, size ``OBS_SIZE``), seats in absolute order, always ``MAX_PLAYERS`` blocks:

=====================  ====  ==============================================================
part                   size  content
=====================  ====  ==============================================================
per seat block x6      31    present, is_me, is_dealer, is_deciding, status one-hot (4),
                             number values held (ZERO,1..6; 7), EXTRA_LIFE, DOUBLE,
                             round score if banked now /30, game total /target,
                             points needed to win /target, distinct values /6,
                             P(a hit duplicates a value), cards on table /10,
                             (game total + round score)/target, received FLIP3 / FREEZE,
                             is_leader, expected round-score change of a hit /20 (clipped),
                             banking now wins, P(hit brings a new number), (total - leader)/target
decision one-hot       4     none, turn, target_freeze, target_flip3
flip3 remaining        1     cards still to come in the innermost FLIP3 /3
draw pile size         1     /26
unseen composition     11    count of each card kind in the draw pile /its deck count
                             (public: deck minus discard minus table minus set-aside)
discard composition    11    count of each card kind in the discard pile /its deck count
me one-hot             6     the observer's seat
num players one-hot    4     3, 4, 5, 6
reshuffle flag         1     the draw pile is empty (next draw reshuffles the discard)
=====================  ====  ==============================================================

Action mask (int8, size 8): ``stay``, ``hit``, ``target 0`` .. ``target 5``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.flip6.rules import (
    BUSTED,
    CARD_CODES,
    DECISION_NAMES,
    DECK_COUNTS,
    DOUBLE,
    EXTRA_LIFE,
    FLIP3,
    FREEZE,
    IN_ROUND,
    MAX_PLAYERS,
    NUM_CARD_KINDS,
    STATUS_NAMES,
    TASK_FLIP3,
    Flip6State,
    round_score,
)

SEAT_BLOCK = 31
OBS_SIZE = SEAT_BLOCK * MAX_PLAYERS + 4 + 1 + 1 + NUM_CARD_KINDS * 2 + MAX_PLAYERS + 4 + 1
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


def encode(state: Flip6State, seat: int) -> np.ndarray:
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    n = state.num_players
    target = float(state.target_score)
    unseen = unseen_counts(state)
    odds = next_card_odds(state, unseen)
    leader = max(state.scores)
    for s in range(n):
        o = s * SEAT_BLOCK
        status = state.status[s]
        obs[o] = 1.0
        obs[o + 1] = s == seat
        obs[o + 2] = s == state.dealer
        obs[o + 3] = s == state.decider and not state.over
        obs[o + 4 + status] = 1.0
        values = state.values[s] if status != BUSTED else 0
        for v in range(7):
            if values >> v & 1:
                obs[o + 8 + v] = 1.0
        obs[o + 15] = state.has_life[s]
        obs[o + 16] = state.has_double[s]
        rs = round_score(state, s) if status == IN_ROUND else 0
        obs[o + 17] = rs / 30.0
        obs[o + 18] = min(state.scores[s] / target, 2.0)
        obs[o + 19] = max(target - state.scores[s], 0) / target
        obs[o + 20] = values.bit_count() / 6.0
        if status == IN_ROUND:
            ev, p_dup, p_new = hit_value(state, s, odds)
            obs[o + 21] = p_dup  # probability a hit duplicates a value
            obs[o + 27] = max(min(ev / 20.0, 1.0), -1.0)
            obs[o + 28] = state.scores[s] + rs >= target  # banking now wins
            obs[o + 29] = p_new
        obs[o + 22] = len(state.table[s]) / 10.0
        obs[o + 23] = min((state.scores[s] + rs) / target, 2.0)
        obs[o + 24] = FLIP3 in state.table[s]
        obs[o + 25] = FREEZE in state.table[s]
        obs[o + 26] = state.scores[s] == leader
        obs[o + 30] = max((state.scores[s] - leader) / target, -1.0)
    o = SEAT_BLOCK * MAX_PLAYERS
    obs[o + (0 if state.over else state.decision)] = 1.0
    o += 4
    for kind, _seat, left in reversed(state.stack):
        if kind == TASK_FLIP3:
            obs[o] = left / 3.0
            break
    o += 1
    obs[o] = len(state.draw_pile) / 26.0
    o += 1
    obs[o : o + NUM_CARD_KINDS] = unseen / _DECK_COUNTS
    o += NUM_CARD_KINDS
    for c in state.discard_pile:
        obs[o + c] += 1.0
    obs[o : o + NUM_CARD_KINDS] /= _DECK_COUNTS
    o += NUM_CARD_KINDS
    obs[o + seat] = 1.0
    o += MAX_PLAYERS
    obs[o + n - 3] = 1.0
    o += 4
    obs[o] = len(state.draw_pile) == 0
    return obs


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


def view(state: Flip6State, seat: int) -> dict[str, Any]:
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
