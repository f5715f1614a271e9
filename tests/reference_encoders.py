"""Verbatim copies of every game's ``encoding.py`` as it was before the issue-9 speed work.

Test-only reference: ``tests/test_encoder_equivalence.py`` checks that today's ``encode``, ``view``
and ``render`` give exactly what these did (trained checkpoints depend on the exact observation
vectors). Each game's module body is copied unchanged (docstring dropped) into a builder function,
so the five copies keep their own names; do not edit them, and do not use them outside the tests.
"""

from __future__ import annotations

from types import SimpleNamespace


def _build_flip6() -> SimpleNamespace:
    """envs/flip6/encoding.py, verbatim."""
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

    return SimpleNamespace(
        OBS_SIZE=OBS_SIZE,
        unseen_counts=unseen_counts,
        next_card_odds=next_card_odds,
        hit_value=hit_value,
        encode=encode,
        render=render,
        view=view,
    )


def _build_ratatat() -> SimpleNamespace:
    """envs/ratatat/encoding.py, verbatim."""
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

    def unseen_counts(
        state: RatatatState, seat: int, visible: list[int] | None = None
    ) -> list[int]:
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

    return SimpleNamespace(
        OBS_SIZE=OBS_SIZE,
        unseen_counts=unseen_counts,
        mean_unseen_number=mean_unseen_number,
        estimate_row=estimate_row,
        owes_last_turn=owes_last_turn,
        encode=encode,
        _code=_code,
        render=render,
        view=view,
    )


def _build_sevn() -> SimpleNamespace:
    """envs/sevn/encoding.py, verbatim."""
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

    return SimpleNamespace(
        OBS_SIZE=OBS_SIZE,
        next_card_counts=next_card_counts,
        bust_chance=bust_chance,
        encode=encode,
        _current_hand_score=_current_hand_score,
        render=render,
        view=view,
    )


def _build_suicidium() -> SimpleNamespace:
    """envs/suicidium/encoding.py, verbatim."""
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
                [
                    {"card": CARD_IDS[c], "effect": EFFECT_NAMES[EFFECT[c]], "arrived": t}
                    for c, t in x
                ]
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

    return SimpleNamespace(
        OBS_SIZE=OBS_SIZE,
        object_pile_counts=object_pile_counts,
        _full_object_deck=_full_object_deck,
        match_chance=match_chance,
        projected_changes=projected_changes,
        _known_cards=_known_cards,
        _redirect_slot_delta=_redirect_slot_delta,
        encode=encode,
        _entry_view=_entry_view,
        view=view,
        render=render,
    )


def _build_thegame() -> SimpleNamespace:
    """envs/thegame/encoding.py, verbatim."""
    from typing import Any

    import numpy as np

    from envs.thegame.rules import (
        FOUNDATIONS,
        LOWEST,
        MAX_PLAYERS,
        NUM_CARDS,
        NUM_PILES,
        SIGNAL_NAMES,
        TheGameState,
    )

    PILE_BLOCK = 9
    SEAT_BLOCK = 13
    OBS_SIZE = (
        NUM_CARDS * 3 + PILE_BLOCK * NUM_PILES + SEAT_BLOCK * MAX_PLAYERS + 4 + 1 + 1 + 2 + 5 + 2
    )

    _ALL_CARDS = (1 << (LOWEST + NUM_CARDS)) - (1 << LOWEST)  # bits 2..99

    def open_mask(state: TheGameState) -> int:
        """Bitmask (bit v = card v) of the cards not yet on a pile: public knowledge."""
        placed = 0
        for pile in state.piles:
            for c in pile:
                placed |= 1 << c
        return _ALL_CARDS & ~placed

    def play_cost(card: int, pile: int, top: int, open_cards: int) -> int:
        """Open cards jumped over by ``card`` on ``pile`` (negative for the backwards trick)."""
        if pile < 2:
            if card > top:
                return (open_cards >> (top + 1) & ((1 << (card - top - 1)) - 1)).bit_count()
            return -((open_cards >> (card + 1) & ((1 << (top - card - 1)) - 1)).bit_count())
        if card < top:
            return (open_cards >> (card + 1) & ((1 << (top - card - 1)) - 1)).bit_count()
        return -((open_cards >> (top + 1) & ((1 << (card - top - 1)) - 1)).bit_count())

    def fits_top(card: int, pile: int, top: int) -> bool:
        if pile < 2:
            return card > top or card == top - 10
        return card < top or card == top + 10

    def encode(state: TheGameState, seat: int) -> np.ndarray:
        obs = np.zeros(OBS_SIZE, dtype=np.float32)
        n = state.num_players
        hand = state.hands[seat]
        opened = open_mask(state)
        obs[[c - LOWEST for c in hand]] = 1.0
        placed = [NUM_CARDS + c - LOWEST for pile in state.piles for c in pile]
        obs[placed] = 1.0
        # unseen: neither in the observer's hand nor on a pile
        obs[2 * NUM_CARDS : 3 * NUM_CARDS] = 1.0 - obs[:NUM_CARDS] - obs[NUM_CARDS : 2 * NUM_CARDS]
        tail: list[float] = []  # everything after the three card vectors, in table order
        acting = state.current == seat and not state.over
        for p in range(NUM_PILES):
            top = state.tops[p]
            if p < 2:
                room = (opened >> (top + 1)).bit_count()
            else:
                room = (opened & ((1 << top) - 1)).bit_count()
            costs = [play_cost(c, p, top, opened) for c in hand if fits_top(c, p, top)]
            tail += (
                top / 100.0,
                float(p < 2),
                len(state.piles[p]) / 50.0,
                room / NUM_CARDS,
                min(max(min(costs), 0) / NUM_CARDS, 1.0) if costs else 1.0,
                float(0 in costs),
                float(bool(costs) and min(costs) < 0),
                len(costs) / 8.0,
                float(acting and state.signal_changed[p]),
            )
        for k in range(MAX_PLAYERS):
            if k >= n:
                tail += (0.0,) * SEAT_BLOCK
                continue
            s = (seat + k) % n
            flags = [0.0] * (2 * NUM_PILES)
            for p, v in enumerate(state.signals[s]):
                if v:
                    flags[2 * p + v - 1] = 1.0
            tail += (
                1.0,
                len(state.hands[s]) / 8.0,
                float(s == state.current and not state.over),
                float(s == 0),
                float(not state.hands[s]),
            )
            tail += flags
        players = [0.0] * MAX_PLAYERS
        players[n - 1] = 1.0
        tail += (
            state.played_this_turn / 8.0 if acting else 0.0,
            0.0 if state.over else state.minimum / 2.0,
            float(acting and state.played_this_turn >= state.minimum),
            float(not state.draw_pile),
            len(state.draw_pile) / NUM_CARDS,
            (NUM_CARDS - state.on_piles) / NUM_CARDS,
            float(state.signals_on),
            float(state.min_cards_when_empty == 2),
            *players,
            float(state.over),
            float(state.won),
        )
        obs[3 * NUM_CARDS :] = tail
        return obs

    def render(state: TheGameState, seat: int | None = None) -> str:
        """A text table of the public state; with ``seat``, also that seat's hand."""
        left = NUM_CARDS - state.on_piles
        lines = [
            f"thegame  {state.num_players} player(s)  draw pile {len(state.draw_pile)}  "
            f"cards left {left}  signals {'on' if state.signals_on else 'off'}"
        ]
        for p in range(NUM_PILES):
            arrow = "up  " if p < 2 else "down"
            recent = " ".join(str(c) for c in state.piles[p][-6:])
            more = "... " if len(state.piles[p]) > 6 else ""
            lines.append(
                f"  pile {p} {arrow} from {FOUNDATIONS[p]:>3}: top {state.tops[p]:>3}  "
                f"({len(state.piles[p])} cards: {more}{recent})"
            )
        for s in range(state.num_players):
            mark = "*" if s == state.current and not state.over else " "
            me = " (you)" if s == seat else ""
            cards = ""
            if s == seat:
                cards = "  [" + " ".join(str(c) for c in state.hands[s]) + "]"
            sig = ""
            if state.signals_on:
                sig = "  signals " + " ".join(
                    f"{p}:{SIGNAL_NAMES[v]}" for p, v in enumerate(state.signals[s])
                )
            lines.append(f"{mark} seat {s}{me}: {len(state.hands[s])} cards{cards}{sig}")
        if state.over:
            outcome = "won" if state.won else f"lost with {left} cards left"
            lines.append(f"game over: {outcome}")
        else:
            lines.append(
                f"turn: seat {state.current} has played {state.played_this_turn} "
                f"(minimum {state.minimum})"
            )
        return "\n".join(lines)

    def view(state: TheGameState, seat: int) -> dict[str, Any]:
        """What ``seat`` may see, as plain data for scripted agents (card values as ints)."""
        return {
            "seat": seat,
            "num_players": state.num_players,
            "hand": list(state.hands[seat]),
            "hand_sizes": [len(h) for h in state.hands],
            "tops": list(state.tops),
            "piles": [list(p) for p in state.piles],
            "draw_pile_size": len(state.draw_pile),
            "cards_left": NUM_CARDS - state.on_piles,
            "current_player": None if state.over else state.current,
            "played_this_turn": state.played_this_turn,
            "minimum": 0 if state.over else state.minimum,
            "signals_on": state.signals_on,
            "signals": [[SIGNAL_NAMES[v] for v in row] for row in state.signals],
            "signal_changed": list(state.signal_changed),
            "min_cards_when_empty": state.min_cards_when_empty,
            "over": state.over,
            "won": state.won,
        }

    return SimpleNamespace(
        OBS_SIZE=OBS_SIZE,
        open_mask=open_mask,
        play_cost=play_cost,
        fits_top=fits_top,
        encode=encode,
        render=render,
        view=view,
    )


flip6 = _build_flip6()
ratatat = _build_ratatat()
sevn = _build_sevn()
suicidium = _build_suicidium()
thegame = _build_thegame()
REFERENCE = {
    "flip6": flip6,
    "ratatat": ratatat,
    "sevn": sevn,
    "suicidium": suicidium,
    "thegame": thegame,
}
