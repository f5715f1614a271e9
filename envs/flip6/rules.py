"""Flip 6: the pure rules engine (rule ids F1-F18 of ``docs/rules/flip6.md``).

Cards are small ints: ``0`` is ZERO, ``1``..``6`` the number cards, then EXTRA_LIFE, FREEZE, FLIP3
and DOUBLE. The engine advances on its own through everything the rules decide (the deal, card
effects, FLIP3 draws, round ends, reshuffles) and stops at the next decision a player must make:

======================  =========================================  =========================
decision                who decides                                legal actions
======================  =========================================  =========================
``turn``                the next player still in the round (F6)    ``stay``; ``hit`` (F7/F8)
``target_freeze``       the player who drew FREEZE outside FLIP3   ``target N`` (F11)
``target_flip3``        the player who drew FLIP3                  ``target N`` (F12)
======================  =========================================  =========================

``hit`` is illegal only when the draw pile and the discard pile are both empty (F16).

Pending work is a stack (last in, first out): a FLIP3 drawn inside FLIP3 is resolved completely
before the outer sequence continues, because F12 resolves each card before the next. The rest of
the initial deal (F5) waits under it in the same stack.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardarena.envs.core import engine_parts as parts
from cardarena.envs.core import state_fields as sf
from cardarena.envs.core.errors import IllegalActionError
from cardarena.envs.core.race import RaceGame, RaceState, race_fields
from cardarena.envs.core.state_io import StateReader

# ---- cards (F1, F2) ---------------------------------------------------------------------------
ZERO, EXTRA_LIFE, FREEZE, FLIP3, DOUBLE = 0, 7, 8, 9, 10
NUM_CARD_KINDS = 11
CARD_CODES: list[str] = [
    "ZERO",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "EXTRA_LIFE",
    "FREEZE",
    "FLIP3",
    "DOUBLE",
]
CODE_TO_CARD: dict[str, int] = {code: i for i, code in enumerate(CARD_CODES)}
parse_card = parts.card_parser("flip6", CARD_CODES)
#: copies of each card kind in the 26-card deck (F1: n copies of n; F2: one of each special)
DECK_COUNTS: list[int] = [1, 1, 2, 3, 4, 5, 6, 1, 1, 1, 1]
FULL_DECK: list[int] = [card for card, n in enumerate(DECK_COUNTS) for _ in range(n)]
assert len(FULL_DECK) == 26

# ---- player status in the round ---------------------------------------------------------------
IN_ROUND, STAYED, FROZEN, BUSTED = 0, 1, 2, 3
STATUS_NAMES = ["in_round", "stayed", "frozen", "busted"]

# ---- decisions ----------------------------------------------------------------------------------
NO_DECISION, TURN, TARGET_FREEZE, TARGET_FLIP3 = 0, 1, 2, 3
DECISION_NAMES = ["none", "turn", "target_freeze", "target_flip3"]

# ---- actions ------------------------------------------------------------------------------------
MAX_PLAYERS = 6
STAY, HIT = 0, 1
TARGET0 = 2  #: action TARGET0 + seat targets that absolute seat
NUM_ACTIONS = TARGET0 + MAX_PLAYERS

# ---- pending work (stack entries) ----------------------------------------------------------------
TASK_DEAL, TASK_FLIP3 = 0, 1

FLIP6_BONUS = 6


def _cards(zone: str = "", **bounds: Any) -> sf.Cards:
    return sf.Cards(
        CARD_CODES, CODE_TO_CARD, parse_card, max_len=len(FULL_DECK), zone=zone, **bounds
    )


@sf.state_fields
@dataclass(slots=True)
class Flip6State(RaceState):
    """Everything about one game. Derived per-seat caches (values, life, double) mirror ``table``."""

    has_life: list[bool]
    has_double: list[bool]
    set_aside: list[int] = field(default_factory=list)  # FREEZE/FLIP3 waiting for a target
    stack: list[tuple[int, int, int]] = field(default_factory=list)
    decision: int = NO_DECISION
    decider: int = -1
    next_turn: int = 0  # first seat considered for the next turn (F6)
    winners: list[int] = field(default_factory=list)
    over: bool = False
    round_index: int = 0
    flip6_seat: int = -1  # seat that made Flip 6 in the last finished round (for renders)
    decisions: int = 0

    #: the saved form: to_dict writes these fields in this order (after game, num_players)
    FIELDS = sf.declare(
        **race_fields(
            _cards, 10_000, lambda s: s.target_score + 100, (DECISION_NAMES, STATUS_NAMES)
        ),
        set_aside=sf.Cards(CARD_CODES, CODE_TO_CARD, parse_card, max_len=1, zone="set_aside"),
        pending=sf.List(sf.Tuple(*[sf.Int(0, MAX_PLAYERS)] * 3), max_len=4).of("stack"),
        next_turn=sf.Seat(),
        over=sf.Bool(),
        round_index=sf.Int(0, 10**9),
        flip6_seat=sf.Seat(none=-1),
        decisions=sf.Int(0, 10**12),
        rng=sf.Rng(),
        values=sf.Cache(),
        has_life=sf.Cache(),
        has_double=sf.Cache(),
    )


def round_score(state: Flip6State, seat: int, flip6: bool = False) -> int:
    """F14: number values held (x2 with DOUBLE, F13) + 6 for Flip 6 (never doubled)."""
    total = sum(c for c in state.table[seat] if 1 <= c <= 6)
    if state.has_double[seat]:
        total *= 2
    return total + (FLIP6_BONUS if flip6 else 0)


def parse_action(text: str) -> int:
    words = str(text).strip().lower().split()
    if words == ["stay"]:
        return STAY
    if words == ["hit"]:
        return HIT
    if len(words) == 2 and words[0] == "target" and words[1].isdigit():
        seat = int(words[1])
        if seat < MAX_PLAYERS:
            return TARGET0 + seat
    raise IllegalActionError(
        f"cannot parse flip6 action {text!r}; expected 'stay', 'hit' or 'target N' "
        f"with N a seat in 0..{MAX_PLAYERS - 1}"
    )


def describe_action(action: int) -> str:
    """Action texts of the rules file: ``stay``, ``hit``, ``target N`` (absolute seat)."""
    action = int(action)
    if action == STAY:
        return "stay"
    if action == HIT:
        return "hit"
    if TARGET0 <= action < NUM_ACTIONS:
        return f"target {action - TARGET0}"
    raise IllegalActionError(f"flip6 has actions 0..{NUM_ACTIONS - 1}; got {action}")


_ENDED = (
    "an ended game with decision 'none', decider -1, nothing set aside or pending, and winners "
    "the seats at the top score (at least target_score)"
)


class Flip6Game(RaceGame[Flip6State], describe=describe_action, parse=parse_action):
    """Flip 6 for 3-6 players (options: ``num_players``, ``first_dealer`` (F4), ``target_score``)."""

    name = "flip6"
    num_actions = NUM_ACTIONS
    min_players = 3
    max_players = MAX_PLAYERS
    reward_kind = "zero_sum"
    card_codes, full_deck = CARD_CODES, FULL_DECK  # deck_codes(), the deck option

    def __init__(self, num_players: int = 4, first_dealer: int = 0, target_score: int = 60):
        self.seat_options(num_players, first_dealer, target_score, 10_000)

    # ---- set-up ----------------------------------------------------------------------------
    def new_game(
        self, rng: np.random.Generator, options: dict[str, Any] | None = None
    ) -> Flip6State:
        """Start a game (F4, F5). Options: ``deck`` (codes, top first), ``scores`` (per seat),
        ``dealer``; other options are ignored."""
        state, _ = self.deal(rng, options, ("has_life", "has_double"))
        self._start_round(state)
        self._advance(state)
        return state

    # ---- queries ------------------------------------------------------------------------------
    decision_names = DECISION_NAMES

    def legal_actions(self, state: Flip6State) -> list[int]:
        decision = state.decision
        if state.over:
            return []
        if decision == TURN:
            if state.draw_pile or state.discard_pile:
                return [STAY, HIT]
            return [STAY]  # F16: nothing left to draw
        return [TARGET0 + s for s in range(state.num_players) if state.status[s] == IN_ROUND]

    def round_index(self, state: Flip6State) -> int:
        return state.round_index

    def potential(self, state: Flip6State, seat: int) -> float:
        """Lead over the best other seat in banked points, as a fraction of the target score."""
        return parts.lead(state.scores, seat, state.target_score)

    # ---- play ---------------------------------------------------------------------------------
    def apply(self, state: Flip6State, action: int, seat: int | None = None) -> None:
        seat, action, decision = self.take_decision(state, action, seat)  # F6: next turn
        if decision == TURN:
            if action == STAY:  # F7
                state.status[seat] = STAYED
                self._bank(state, [seat])
            else:  # F8
                self._draw_for(state, seat, in_flip3=False)
        else:
            target = action - TARGET0
            card = state.set_aside.pop()
            state.table[target].append(card)
            if decision == TARGET_FREEZE:  # F11
                self._freeze(state, target)
            else:  # F12
                state.stack.append((TASK_FLIP3, target, 3))
        self._advance(state)

    # ---- internals -------------------------------------------------------------------------------
    def _start_round(self, state: Flip6State) -> None:
        """F5: everyone back in the round; the deal starts left of the dealer."""
        self.clear_rows(state, "has_life", "has_double")
        state.stack = [(TASK_DEAL, 0, 0)]

    def _end_round(self, state: Flip6State) -> None:
        """F15/F16: table to the discard pile, dealer passes left (F4), next round dealt."""
        for cards in state.table:
            state.discard_pile.extend(cards)
            cards.clear()
        state.stack.clear()
        state.dealer = (state.dealer + 1) % state.num_players
        state.round_index += 1
        self._start_round(state)

    def _advance(self, state: Flip6State) -> None:
        """Run everything the rules decide until a player must choose or the game ends."""
        n = state.num_players
        while not state.over and state.decision == NO_DECISION:
            if state.stack:
                kind, a, b = state.stack.pop()
                if kind == TASK_DEAL:
                    if a < n:
                        state.stack.append((TASK_DEAL, a + 1, 0))
                        seat = (state.dealer + 1 + a) % n
                        if state.status[seat] == IN_ROUND:  # F5: skip players out of the round
                            self._draw_for(state, seat, in_flip3=False)
                else:  # FLIP3 sequence of seat a with b cards left (F12)
                    if state.status[a] == IN_ROUND:
                        if b > 1:
                            state.stack.append((TASK_FLIP3, a, b - 1))
                        self._draw_for(state, a, in_flip3=True)
                continue
            if IN_ROUND in state.status:  # F6: next player still in the round
                seat = state.next_turn
                while state.status[seat] != IN_ROUND:
                    seat = (seat + 1) % n
                state.decision, state.decider = TURN, seat
            else:
                self._end_round(state)  # F15

    def _draw(self, state: Flip6State) -> int | None:
        """F16: reshuffle the discard pile (not the table) when the draw pile is empty."""
        if not state.draw_pile:
            if not state.discard_pile:
                return None
            pile = state.discard_pile
            order = state.rng.permutation(len(pile))
            state.draw_pile = [pile[i] for i in order]
            state.discard_pile = []
        return state.draw_pile.pop()

    def _draw_for(self, state: Flip6State, seat: int, in_flip3: bool) -> None:
        """Deal one card face up to ``seat`` and resolve it (F8, F10-F13)."""
        card = self._draw(state)
        if card is None:  # F16: both piles empty, the player who would draw must stay
            state.status[seat] = STAYED
            self._bank(state, [seat])
            return
        if card <= 6:
            bit = 1 << card
            if state.values[seat] & bit:  # F8 (C): duplicate value
                if state.has_life[seat]:  # F10: discard both, stay in the round
                    state.table[seat].remove(EXTRA_LIFE)
                    state.has_life[seat] = False
                    state.discard_pile.append(EXTRA_LIFE)
                    state.discard_pile.append(card)
                else:
                    state.table[seat].append(card)
                    state.status[seat] = BUSTED  # leaves the round with 0
                return
            state.table[seat].append(card)
            state.values[seat] |= bit
            if state.values[seat].bit_count() == 6:  # F8 (B) -> F9
                self._flip6(state, seat)
            return
        if card == EXTRA_LIFE:  # F10: kept in front of the holder
            state.table[seat].append(card)
            state.has_life[seat] = True
        elif card == DOUBLE:  # F13: kept by the player who draws it
            state.table[seat].append(card)
            state.has_double[seat] = True
        elif card == FREEZE and in_flip3:  # F12: FREEZE inside FLIP3 freezes the drawer
            state.table[seat].append(card)
            self._freeze(state, seat)
        else:  # F11/F12: the drawer chooses a target
            state.set_aside.append(card)
            state.decision = TARGET_FREEZE if card == FREEZE else TARGET_FLIP3
            state.decider = seat

    def _freeze(self, state: Flip6State, seat: int) -> None:
        state.status[seat] = FROZEN
        self._bank(state, [seat])

    def _flip6(self, state: Flip6State, seat: int) -> None:
        """F9: everyone still in the round banks at once; the round ends, pending draws vanish."""
        banking = [s for s in range(state.num_players) if state.status[s] == IN_ROUND]
        state.flip6_seat = seat
        self._bank(state, banking, flip6_seat=seat)
        if not state.over:
            self._end_round(state)

    def _bank(self, state: Flip6State, seats: list[int], flip6_seat: int = -1) -> None:
        """Add round scores to the game totals; F17/F18 end the game at the target score."""
        reached = []
        for s in seats:
            state.scores[s] += round_score(state, s, flip6=s == flip6_seat)
            if state.status[s] == IN_ROUND:
                state.status[s] = STAYED
            if state.scores[s] >= state.target_score:
                reached.append(s)
        if reached:
            best = max(state.scores[s] for s in reached)
            state.winners = [s for s in reached if state.scores[s] == best]
            state.over = True
            state.decision = NO_DECISION
            state.decider = -1
            state.stack.clear()

    # ---- serialisation (the fields are declared on Flip6State) ------------------------------------
    def check_state(self, state: Flip6State, r: StateReader) -> None:
        """What ``from_dict`` refuses between fields; rebuilds the caches of ``table``."""
        data, n, table = r.data, state.num_players, state.table
        state.has_life = [EXTRA_LIFE in cards for cards in table]
        state.has_double = [DOUBLE in cards for cards in table]
        for i, (kind, a, b) in enumerate(state.stack):
            task = data["pending"][i]
            if kind == TASK_DEAL and (i != 0 or b != 0):
                raise r.error(f"pending[{i}]", task, "the deal [0, seats dealt, 0] at the bottom")
            if kind == TASK_FLIP3 and (a >= n or not 1 <= b <= 3):
                raise r.error(f"pending[{i}]", task, "FLIP3 draws [1, seat, 1..3]")
            if kind > TASK_FLIP3:
                raise r.error(f"pending[{i}]", task, "[0, seats dealt, 0] or [1, seat, 1..3]")
        self.check_rows(state, r, 6, BUSTED)  # number values 1..6 (and ZERO)

    def _check_over(self, state: Flip6State, r: StateReader) -> None:
        best = max(state.scores)
        if best < state.target_score or not parts.settled_end(state, state.stack, best):
            raise r.error("over", True, _ENDED)

    def _check_running(self, state: Flip6State, r: StateReader) -> None:
        data, decision, decider = r.data, state.decision, state.decider
        if state.winners or max(state.scores) >= state.target_score:
            raise r.error("winners", data["winners"], "[] and every score under target_score")
        need = {TURN: None, TARGET_FREEZE: FREEZE, TARGET_FLIP3: FLIP3}.get(decision, -1)
        if need == -1 or decider < 0 or state.status[decider] != IN_ROUND:
            raise r.error(
                "decider",
                data["decider"],
                "a seat still in the round holding a decision other than 'none'",
            )
        if state.set_aside != ([] if need is None else [need]):
            raise r.error(
                "set_aside", data["set_aside"], f"the card decision {data['decision']!r} aims"
            )
        if decision == TURN and state.stack:
            raise r.error("pending", data["pending"], "[] when a turn is offered (F6)")
