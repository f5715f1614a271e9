"""SEVN: the pure rules engine (rule ids S1-S27 of ``docs/rules/sevn.md``).

Cards are small ints (index into :data:`CARD_TABLE`): ``0``..``13`` are the number cards of that
value, ``14``..``16`` the ballast -2/-4/-6, then the modifiers, the action cards and the bonus cards.
A number or ballast card's index is also its bit in a seat's ``values`` mask (17 distinct values,
S6). The engine advances on its own through everything the rules decide (the deal, card effects,
pending draws, hand ends, reshuffles) and stops at the next decision a player must make:

==========================  ====================================  ===============================
decision                    who decides                           legal actions
==========================  ====================================  ===============================
``turn``                    next player still in the hand (S8)    ``pass``, ``draw``
``target_freeze``           the player who drew FREEZE (S13)      ``target N``, N in the hand
``target_flip_three``       the player who drew FLIP_THREE (S15)  ``target N``, N in the hand
``target_second_chance``    the drawer of a 2nd SECOND_CHANCE     ``target N``, N in the hand,
                            (S14)                                 not the drawer, holding none
``fork``                    the player who drew FORK (S16)        ``fork 0``, ``fork 1``
``ballast``                 the player who drew a ballast (S11)   ``keep`` (value not held), ``discard``
==========================  ====================================  ===============================

``draw`` is always legal: at most 78 cards can lie on the table (6 values + 1 busting duplicate per
seat, all 22 non-value cards) and 2 set aside for a FORK, so the draw and discard piles together
always hold at least 40 cards (S26).

Pending draws (FLIP_THREE, STORM) wait in one first-in first-out queue of seats (S18). The deal
(S7) waits behind that queue: a dealt card that causes draws has them resolved before the next seat
is dealt. The turn order (S8) waits behind both; the player whose turn caused the draws gets no
extra turn. SEVN (S10) empties the queue and ends the hand at once.

Rule points this engine settles (the rules file leaves them open):

* A card drawn from the queue is "drawn" by the seat the draw is for: that seat makes the choice
  it asks for (a FREEZE inside FLIP_THREE is aimed by the FLIP_THREE target, S13/S15).
* FORK (S16): the card not chosen is discarded before the chosen one resolves (it matters only if
  resolving the chosen card reshuffles the discard pile).
* S21: x2 doubles the value sum even when it is negative (the floor at 0 comes last).
* A ballast whose value is already held offers only ``discard`` (still one decision step, S11).
* A second SECOND_CHANCE offered to exactly one player is still a decision (the drawer's step).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from typing import Any

import numpy as np

from cardarena.envs.core import engine_parts as parts
from cardarena.envs.core import state_fields as sf
from cardarena.envs.core.errors import ConfigError, IllegalActionError
from cardarena.envs.core.race import RaceGame, RaceState, race_fields
from cardarena.envs.core.state_io import StateReader

# ---- cards (S1-S6): the one data table of the deck composition --------------------------------
NUMBER, BALLAST, MODIFIER, ACTION, BONUS = "number", "ballast", "modifier", "action", "bonus"
#: (code, kind, value, copies); the row index is the card's int. 120 cards, 31 kinds.
CARD_TABLE: list[tuple[str, str, int, int]] = [
    # S1: one 0, and n copies of value n for n = 1..13 (92 cards)
    *[(str(v), NUMBER, v, max(v, 1)) for v in range(14)],
    # S2: ballast, two each of -2, -4, -6
    ("-2", BALLAST, -2, 2),
    ("-4", BALLAST, -4, 2),
    ("-6", BALLAST, -6, 2),
    # S3: modifiers, one each (x2 has no additive value)
    ("x2", MODIFIER, 0, 1),
    ("+2", MODIFIER, 2, 1),
    ("+4", MODIFIER, 4, 1),
    ("+6", MODIFIER, 6, 1),
    ("+8", MODIFIER, 8, 1),
    ("+10", MODIFIER, 10, 1),
    # S4: actions
    ("FREEZE", ACTION, 0, 3),
    ("SECOND_CHANCE", ACTION, 0, 3),
    ("FLIP_THREE", ACTION, 0, 3),
    ("FORK", ACTION, 0, 2),
    ("STORM", ACTION, 0, 2),
    # S5: bonus cards (their points are in BONUS_POINTS)
    ("FEATHERWEIGHT", BONUS, 0, 1),
    ("HEAVYWEIGHT", BONUS, 0, 1),
    ("STRAIGHT", BONUS, 0, 1),
]
CARD_CODES: list[str] = [row[0] for row in CARD_TABLE]
CARD_KIND: list[str] = [row[1] for row in CARD_TABLE]
CARD_VALUE: list[int] = [row[2] for row in CARD_TABLE]
DECK_COUNTS: list[int] = [row[3] for row in CARD_TABLE]
NUM_CARD_KINDS = len(CARD_TABLE)
CODE_TO_CARD: dict[str, int] = {code: i for i, code in enumerate(CARD_CODES)}
_parse_code = parts.card_parser("sevn", CARD_CODES)


def parse_card(code: Any) -> int:
    """A card code of the rules file as the card's int; ConfigError naming the code otherwise
    (a non-ASCII text is refused before case folding, which would turn ``"\u017fTORM"`` into
    ``STORM``)."""
    if isinstance(code, str) and not code.isascii():
        raise ConfigError(f"unknown sevn card code {code!r} (not ASCII); known codes: {CARD_CODES}")
    return _parse_code(code)


FULL_DECK: list[int] = [card for card, n in enumerate(DECK_COUNTS) for _ in range(n)]
assert len(FULL_DECK) == 120 and NUM_CARD_KINDS == 31

BALLAST_M2, BALLAST_M4, BALLAST_M6 = 14, 15, 16
LAST_VALUE_CARD = 16  #: cards 0..16 are values (numbers and ballast, S6)
X2 = CODE_TO_CARD["x2"]
LAST_MODIFIER = CODE_TO_CARD["+10"]
FREEZE = CODE_TO_CARD["FREEZE"]
SECOND_CHANCE = CODE_TO_CARD["SECOND_CHANCE"]
FLIP_THREE = CODE_TO_CARD["FLIP_THREE"]
FORK = CODE_TO_CARD["FORK"]
STORM = CODE_TO_CARD["STORM"]
FEATHERWEIGHT = CODE_TO_CARD["FEATHERWEIGHT"]
HEAVYWEIGHT = CODE_TO_CARD["HEAVYWEIGHT"]
STRAIGHT = CODE_TO_CARD["STRAIGHT"]
NUMBER_MASK = (1 << 14) - 1  #: bits of the number values 0..13 (S24: ballast never in a run)
SEVN_VALUES = 7  #: S10
SEVN_BONUS = 17  #: S10
FEATHERWEIGHT_POINTS, HEAVYWEIGHT_POINTS, STRAIGHT_POINTS_PER_CARD = 15, 12, 4  # S22-S24

# ---- player status in the hand -------------------------------------------------------------------
IN_HAND, PASSED, FROZEN, BUSTED = 0, 1, 2, 3
STATUS_NAMES = ["in_hand", "passed", "frozen", "busted"]

# ---- decisions -------------------------------------------------------------------------------------
NO_DECISION, TURN, TARGET_FREEZE, TARGET_FLIP_THREE = range(4)
TARGET_SECOND_CHANCE, FORK_CHOICE, KEEP_BALLAST = range(4, 7)
DECISION_NAMES = [
    "none",
    "turn",
    "target_freeze",
    "target_flip_three",
    "target_second_chance",
    "fork",
    "ballast",
]
NUM_DECISIONS = len(DECISION_NAMES)

# ---- actions (order of the rules file's Environment contract) ------------------------------------
MAX_PLAYERS = 8
PASS, DRAW = 0, 1
TARGET0 = 2  #: action TARGET0 + seat targets that absolute seat
FORK0 = TARGET0 + MAX_PLAYERS  #: FORK0 + i chooses the i-th revealed card
KEEP = FORK0 + 2
DISCARD = KEEP + 1
NUM_ACTIONS = DISCARD + 1


POINTS_BOUND = 10**7  #: far above any total a game reaches (from_dict's bound)


def _cards(zone: str = "", most: Any = None, **bounds: Any) -> sf.Cards:
    most = len(FULL_DECK) if most is None else most
    return sf.Cards(CARD_CODES, CODE_TO_CARD, parse_card, max_len=most, zone=zone, **bounds)


@sf.state_fields
@dataclass(slots=True)
class SevnState(RaceState):
    """Everything about one game. ``values``/``has_second_chance``/``has_x2`` mirror ``table``."""

    has_second_chance: list[bool]
    has_x2: list[bool]
    set_aside: list[int] = field(default_factory=list)  # card(s) waiting for the decision
    queue: list[int] = field(default_factory=list)  # pending draws, seats, first in first out
    deal_pos: int = 0  # seats of the deal (S7) done so far; num_players when the deal is over
    decision: int = NO_DECISION
    decider: int = -1
    next_turn: int = 0  # first seat considered for the next turn (S8)
    banked: list[int] = field(default_factory=list)  # hand score banked this hand, -1 if not
    last_banked: list[int] = field(default_factory=list)  # banked of the last finished hand
    last_sevn: int = -1  # seat that made SEVN in the last finished hand, -1 if none
    winners: list[int] = field(default_factory=list)
    over: bool = False
    hand_index: int = 0
    decisions: int = 0

    #: the saved form: to_dict writes these fields in this order (after game, num_players)
    FIELDS = sf.declare(
        **race_fields(_cards, 100_000, POINTS_BOUND, (DECISION_NAMES, STATUS_NAMES)),
        set_aside=_cards("set_aside", most=2),
        pending=sf.Seats(max_len=64, unique=False).of("queue"),
        deal_pos=sf.Int(0, sf.N),
        next_turn=sf.Seat(),
        banked=sf.Ints(-1, POINTS_BOUND, length=sf.N),
        last_banked=sf.Ints(-1, POINTS_BOUND, length=sf.N),
        last_sevn=sf.Seat(none=-1),
        over=sf.Bool(),
        hand_index=sf.Int(0, 10**9),
        decisions=sf.Int(0, 10**12),
        rng=sf.Rng(),
        values=sf.Cache(),
        has_second_chance=sf.Cache(),
        has_x2=sf.Cache(),
    )


def longest_run(number_mask: int) -> int:
    """Length of the longest run of consecutive set bits (S24)."""
    run = 0
    while number_mask:
        number_mask &= number_mask << 1
        run += 1
    return run


def hand_score(cards: list[int], sevn: bool = False) -> int:
    """S21-S25 for a player not busted: values (x2), + modifiers, + bonuses, + 17, floor 0.

    ``cards`` is the seat's table row (a non-busted row holds each value at most once).
    """
    total = modifiers = 0
    doubled = False
    bonus = 0
    values = 0
    count = low = high = 0
    for c in cards:
        if c <= LAST_VALUE_CARD:
            v = CARD_VALUE[c]
            total += v
            values |= 1 << c
            count += 1
            low += v <= 6
            high += v >= 10
        elif c == X2:
            doubled = True
        elif c <= LAST_MODIFIER:
            modifiers += CARD_VALUE[c]
        elif c == FEATHERWEIGHT:
            bonus |= 1
        elif c == HEAVYWEIGHT:
            bonus |= 2
        elif c == STRAIGHT:
            bonus |= 4
    score = (2 * total if doubled else total) + modifiers  # S21: x2 first, then modifiers
    if bonus & 1 and count >= 4 and low == count:  # S22 (ballast counts)
        score += FEATHERWEIGHT_POINTS
    if bonus & 2 and high >= 3:  # S23
        score += HEAVYWEIGHT_POINTS
    if bonus & 4:  # S24
        run = longest_run(values & NUMBER_MASK)
        if run >= 3:
            score += STRAIGHT_POINTS_PER_CARD * run
    if sevn:  # S10; S25: never doubled
        score += SEVN_BONUS
    return score if score > 0 else 0  # S21: floored at 0


def seat_hand_score(state: SevnState, seat: int, sevn: bool = False) -> int:
    """What ``seat`` would bank now (S20: 0 when busted)."""
    if state.status[seat] == BUSTED:
        return 0
    return hand_score(state.table[seat], sevn)


#: the rules file's action texts, by action id
_ACTION_TEXTS: list[str] = [
    "pass",
    "draw",
    *[f"target {s}" for s in range(MAX_PLAYERS)],
    "fork 0",
    "fork 1",
    "keep",
    "discard",
]
assert len(_ACTION_TEXTS) == NUM_ACTIONS
describe_action = parts.text_table("sevn", _ACTION_TEXTS)


def parse_action(text: str) -> int:
    words = str(text).strip().lower().split()
    single = {"pass": PASS, "draw": DRAW, "keep": KEEP, "discard": DISCARD}
    if len(words) == 1 and words[0] in single:
        return single[words[0]]
    if len(words) == 2 and words[1].isdigit():
        k = int(words[1])
        if words[0] == "target" and k < MAX_PLAYERS:
            return TARGET0 + k
        if words[0] == "fork" and k < 2:
            return FORK0 + k
    raise IllegalActionError(
        f"cannot parse sevn action {text!r}; expected 'pass', 'draw', 'target N' with N a seat "
        f"in 0..{MAX_PLAYERS - 1}, 'fork 0', 'fork 1', 'keep' or 'discard'"
    )


_ENDED = (
    "an ended game with decision 'none', decider -1, nothing set aside or pending, and the one "
    "seat at the top score (at least target_score) the winner"
)


class SevnGame(RaceGame[SevnState], describe=describe_action, parse=parse_action):
    """SEVN for 2-8 players (options: ``num_players``, ``first_dealer`` (S7), ``target_score``
    (S27, 250))."""

    name = "sevn"
    num_actions = NUM_ACTIONS
    min_players = 2
    max_players = MAX_PLAYERS
    reward_kind = "zero_sum"

    def __init__(self, num_players: int = 4, first_dealer: int = 0, target_score: int = 250):
        self.seat_options(num_players, first_dealer, target_score, 100_000)

    # ---- set-up ----------------------------------------------------------------------------
    def new_game(
        self, rng: np.random.Generator, options: dict[str, Any] | None = None
    ) -> SevnState:
        """Start a game. Options: ``deck`` (codes, top first), ``scores`` (per seat), ``dealer``."""
        deck = (options or {}).get("deck")
        for i, code in enumerate(deck or []):  # the guard checked it is a list of strings
            try:
                parse_card(code)
            except ConfigError as err:
                raise ConfigError(f"sevn: reset option 'deck'[{i}]: {err}") from None
        last_banked = [-1] * self.num_players
        state, options = self.deal(
            rng, options, ("has_second_chance", "has_x2"), last_banked=last_banked
        )
        if options:
            raise ConfigError(
                f"unknown sevn game options {sorted(options)}; known: deck, scores, dealer"
            )
        self._start_hand(state)
        self._advance(state)
        return state

    # ---- queries ------------------------------------------------------------------------------
    decision_names = DECISION_NAMES

    def legal_actions(self, state: SevnState) -> list[int]:
        if state.over:
            return []
        decision = state.decision
        if decision == TURN:
            return [PASS, DRAW]  # S8 (a card can always be drawn, see the module docstring)
        if decision == TARGET_FREEZE or decision == TARGET_FLIP_THREE:  # S13, S15
            status = state.status
            return [TARGET0 + s for s in range(state.num_players) if status[s] == IN_HAND]
        if decision == TARGET_SECOND_CHANCE:  # S14
            return [TARGET0 + s for s in second_chance_takers(state, state.decider)]
        if decision == FORK_CHOICE:  # S16
            return [FORK0, FORK0 + 1]
        # S11: keeping a value already held is not allowed
        if state.values[state.decider] >> state.set_aside[0] & 1:
            return [DISCARD]
        return [KEEP, DISCARD]

    def standing(self, state: SevnState, seat: int) -> float:
        """For search rollouts cut at a hand's end: the lead over the best other seat in game
        totals, as a fraction of the target score (``potential`` stays 0: no reward shaping)."""
        return parts.lead(state.scores, seat, state.target_score)

    def round_index(self, state: SevnState) -> int:
        return state.hand_index

    # ---- play ---------------------------------------------------------------------------------
    def apply(self, state: SevnState, action: int, seat: int | None = None) -> None:
        seat, action, decision = self.take_decision(state, action, seat)  # S18: next turn
        if decision == TURN:
            if action == PASS:  # S8
                state.status[seat] = PASSED
                self._bank(state, seat)
            else:
                self._resolve(state, seat, self._draw(state))
        elif decision == FORK_CHOICE:  # S16: the other card is discarded, the chosen one resolves
            chosen = state.set_aside[action - FORK0]
            other = state.set_aside[1 - (action - FORK0)]
            state.set_aside.clear()
            state.discard_pile.append(other)
            self._resolve(state, seat, chosen)
        elif decision == KEEP_BALLAST:  # S11
            card = state.set_aside.pop()
            if action == DISCARD:
                state.discard_pile.append(card)
            else:
                self._add_value(state, seat, card)
        else:
            target = action - TARGET0
            card = state.set_aside.pop()
            state.table[target].append(card)  # S26: in front of the target
            if decision == TARGET_FREEZE:  # S13
                state.status[target] = FROZEN
                self._bank(state, target)
            elif decision == TARGET_FLIP_THREE:  # S15
                state.queue += (target, target, target)
            else:  # S14: the hand-off
                state.has_second_chance[target] = True
        self._advance(state)

    # ---- internals -------------------------------------------------------------------------------
    def _start_hand(self, state: SevnState) -> None:
        """S7: everyone back in the hand; the deal starts left of the dealer."""
        self.clear_rows(state, "has_second_chance", "has_x2")
        state.banked = [-1] * state.num_players
        state.queue = []
        state.deal_pos = 0

    def _end_hand(self, state: SevnState, sevn_seat: int = -1) -> None:
        """S19/S26/S27: table to the discard pile, the end of the game is checked, next hand."""
        for cards in state.table:
            state.discard_pile.extend(cards)
            cards.clear()
        state.queue.clear()  # S10: pending draws are cancelled
        n = state.num_players
        state.values = [0] * n  # the row caches follow the (now empty) table
        state.has_second_chance = [False] * n
        state.has_x2 = [False] * n
        state.last_banked = state.banked
        state.last_sevn = sevn_seat
        state.hand_index += 1
        scores = state.scores
        best = max(scores)
        if best >= state.target_score and scores.count(best) == 1:  # S27 (ties play on)
            state.winners = [scores.index(best)]
            state.over = True
            state.decision = NO_DECISION
            state.decider = -1
            state.banked = [-1] * n
            return
        state.dealer = (state.dealer + 1) % n  # S7: clockwise
        self._start_hand(state)

    def _advance(self, state: SevnState) -> None:
        """Run everything the rules decide until a player must choose or the game ends."""
        n = state.num_players
        status = state.status
        while not state.over and state.decision == NO_DECISION:
            if state.queue:  # S18: first in, first out; skipped for players who left
                seat = state.queue.pop(0)
                if state.status[seat] == IN_HAND:
                    self._resolve(state, seat, self._draw(state))
                status = state.status  # a SEVN may have started a new hand
                continue
            if state.deal_pos < n:  # S7: waits behind the pending draws
                seat = (state.dealer + 1 + state.deal_pos) % n
                state.deal_pos += 1
                if status[seat] == IN_HAND:
                    self._resolve(state, seat, self._draw(state))
                status = state.status
                continue
            seat = state.next_turn  # S8
            for _ in range(n):
                if status[seat] == IN_HAND:
                    state.decision, state.decider = TURN, seat
                    break
                seat = (seat + 1) % n
            else:
                self._end_hand(state)  # S19: nobody left
                status = state.status

    def _draw(self, state: SevnState) -> int:
        """S26: the discard pile (never the table) is reshuffled only when the draw pile is empty."""
        if not state.draw_pile:
            pile = state.discard_pile
            if not pile:  # impossible by the card count (module docstring)
                raise RuntimeError("sevn: draw and discard piles are both empty")
            order = state.rng.permutation(len(pile))
            state.draw_pile = [pile[i] for i in order]
            state.discard_pile = []
        return state.draw_pile.pop()

    def _resolve(self, state: SevnState, seat: int, card: int) -> None:
        """Resolve ``card`` drawn by ``seat`` (S9-S17); may leave a decision pending."""
        if card <= LAST_VALUE_CARD:
            if card >= BALLAST_M2:  # S11: keep or discard
                state.set_aside.append(card)
                state.decision, state.decider = KEEP_BALLAST, seat
                return
            if state.values[seat] >> card & 1:  # S9: duplicate value
                if state.has_second_chance[seat]:  # spent with the duplicate (S26: discard)
                    state.table[seat].remove(SECOND_CHANCE)
                    state.has_second_chance[seat] = False
                    state.discard_pile.append(SECOND_CHANCE)
                    state.discard_pile.append(card)
                else:  # S20: bust, the duplicate stays in front of the player
                    state.table[seat].append(card)
                    state.status[seat] = BUSTED
                return
            self._add_value(state, seat, card)
            return
        if card <= LAST_MODIFIER or card >= FEATHERWEIGHT:  # S12: kept, never values
            state.table[seat].append(card)
            if card == X2:
                state.has_x2[seat] = True
            return
        if card == FREEZE or card == FLIP_THREE:  # S13, S15: the drawer chooses a target
            state.set_aside.append(card)
            state.decision = TARGET_FREEZE if card == FREEZE else TARGET_FLIP_THREE
            state.decider = seat
        elif card == SECOND_CHANCE:  # S14
            if not state.has_second_chance[seat]:
                state.table[seat].append(card)
                state.has_second_chance[seat] = True
            elif second_chance_takers(state, seat):
                state.set_aside.append(card)
                state.decision, state.decider = TARGET_SECOND_CHANCE, seat
            else:
                state.discard_pile.append(card)  # nobody can take it
        elif card == FORK:  # S16: two cards revealed to all
            state.table[seat].append(card)
            first = self._draw(state)
            state.set_aside.append(first)  # set aside before the 2nd draw may reshuffle
            state.set_aside.append(self._draw(state))
            state.decision, state.decider = FORK_CHOICE, seat
        else:  # S17: STORM, one draw per player in the hand, clockwise from the drawer
            state.table[seat].append(card)
            n = state.num_players
            status = state.status
            for k in range(n):
                s = (seat + k) % n
                if status[s] == IN_HAND:
                    state.queue.append(s)

    def _add_value(self, state: SevnState, seat: int, card: int) -> None:
        """A new value joins the row (S9, S11); the 7th distinct value is SEVN (S10)."""
        state.table[seat].append(card)
        state.values[seat] |= 1 << card
        if state.values[seat].bit_count() == SEVN_VALUES:
            self._sevn(state, seat)

    def _sevn(self, state: SevnState, seat: int) -> None:
        """S10: everybody still in the hand banks (the SEVN player +17); the hand ends at once."""
        for s in range(state.num_players):
            if state.status[s] == IN_HAND:
                self._bank(state, s, sevn=s == seat)
        self._end_hand(state, sevn_seat=seat)

    def _bank(self, state: SevnState, seat: int, sevn: bool = False) -> None:
        """Add the hand score to the game total now (contract: scores change when banking)."""
        points = hand_score(state.table[seat], sevn)
        state.scores[seat] += points
        state.banked[seat] = points

    # ---- serialisation (the fields are declared on SevnState) -------------------------------------
    # What from_dict refuses between fields: every rule below names the rule ids it follows from,
    # and each is a necessary condition of play (a state the rules reach always passes it).
    def check_state(self, state: SevnState, r: StateReader) -> None:
        """What ``from_dict`` refuses between fields; rebuilds the caches of ``table``."""
        state.has_second_chance = [SECOND_CHANCE in cards for cards in state.table]
        state.has_x2 = [X2 in cards for cards in state.table]
        self.check_rows(state, r, LAST_VALUE_CARD, BUSTED)
        self._check_records(state, r)

    def _check_over(self, state: SevnState, r: StateReader) -> None:
        best = max(state.scores)
        if (
            best < state.target_score
            or len(state.winners) != 1
            or not parts.settled_end(state, state.queue, best)
        ):
            raise r.error("over", True, _ENDED)
        data, n = r.data, state.num_players
        for s, cards in enumerate(state.table):  # S26: the table is cleared when a hand ends
            if cards:
                raise r.error(f"table[{s}]", data["table"][s], "[] once the game is over (S26)")
        if state.banked != [-1] * n:
            raise r.error("banked", data["banked"], "all -1 once the game is over")
        # the statuses are those the last hand ended with (S19): nobody left, or a SEVN (S10)
        sevn, status, last = state.last_sevn, state.status, state.last_banked
        for s in range(n):
            left = status[s] != IN_HAND
            if (last[s] < 0) != (status[s] == BUSTED) or (not left and sevn < 0):
                raise r.error(
                    "last_banked",
                    data["last_banked"],
                    "the last hand's banks: -1 exactly for a busted seat, and a seat still in the "
                    "hand only when someone made SEVN (S10, S19, S20)",
                )
        if sevn >= 0 and status[sevn] != IN_HAND:
            raise r.error("last_sevn", data["last_sevn"], "a seat still in the hand (S10)")
        if not 1 <= state.deal_pos <= n or (
            state.deal_pos < n
            and (sevn < 0 or PASSED in status or state.next_turn != (state.dealer + 1) % n)
        ):
            raise r.error(
                "deal_pos",
                state.deal_pos,
                f"{n}, or less at a SEVN during the deal (no turn taken yet, S7, S8, S10)",
            )

    def _check_running(self, state: SevnState, r: StateReader) -> None:
        data, decision, decider, set_aside = r.data, state.decision, state.decider, state.set_aside
        if state.winners:
            raise r.error("winners", data["winners"], "[] while the game runs")
        if decision == NO_DECISION or decider < 0 or state.status[decider] != IN_HAND:
            raise r.error("decider", data["decider"], "a seat still in the hand holding a decision")
        if decision == TURN and (state.queue or state.deal_pos != state.num_players):
            raise r.error(
                "pending", data["pending"], "[] and the deal over when a turn is offered (S8)"
            )
        table = state.table
        if decision == FORK_CHOICE:  # S16: the FORK was just put in front of its drawer
            ok = len(set_aside) == 2 and table[decider][-1:] == [FORK]
        elif decision == KEEP_BALLAST:
            ok = len(set_aside) == 1 and BALLAST_M2 <= set_aside[0] <= BALLAST_M6
        else:
            want = {
                TURN: [],
                TARGET_FREEZE: [FREEZE],
                TARGET_FLIP_THREE: [FLIP_THREE],
                TARGET_SECOND_CHANCE: [SECOND_CHANCE],
            }[decision]
            ok = set_aside == want
            if decision == TARGET_SECOND_CHANCE and not (
                state.has_second_chance[decider] and second_chance_takers(state, decider)
            ):
                ok = False  # S14: offered only to the holder of one, with someone to take it
        if not ok:
            raise r.error(
                "set_aside",
                data["set_aside"],
                f"the card(s) decision {data['decision']!r} is about (FORK: the two revealed "
                f"cards, the FORK last in front of the drawer; SECOND_CHANCE: the drawer holds "
                f"one already and another seat in the hand holds none)",
            )
        self._check_hand(state, r)

    def _check_hand(self, state: SevnState, r: StateReader) -> None:
        """A running hand: the rows, the banks, the deal, the turn order and the pending draws."""
        data, n, table, status = r.data, state.num_players, state.table, state.status
        flat = list(chain.from_iterable(table))
        storms, flips = flat.count(STORM), flat.count(FLIP_THREE)
        held_values, banked = state.values, state.banked
        for s, cards in enumerate(table):
            st = status[s]
            held = held_values[s].bit_count()
            bad = (
                held >= SEVN_VALUES  # S10: the 7th value ends the hand
                or cards.count(SECOND_CHANCE) > (st != BUSTED)  # S14 (S9: it saves a bust)
                or cards.count(FREEZE) != (st == FROZEN)  # S13, S26: in front of its target
            )
            if not bad and st == FROZEN:  # ... who then leaves the hand: the FREEZE is last
                bad = cards[-1] != FREEZE
            elif not bad and st == BUSTED:  # S9, S20: the one duplicate, last, makes the bust
                bad = (
                    sum(c <= LAST_VALUE_CARD for c in cards) != held + 1
                    or cards[-1] >= BALLAST_M2
                    or cards.count(cards[-1]) != 2
                )
            if bad:
                raise r.error(
                    f"table[{s}]",
                    data["table"][s],
                    f"a row of a seat {STATUS_NAMES[st]!r}: at most 6 values (S10), each once "
                    f"unless busted, a busted row ending with its one duplicate number (S9), one "
                    f"SECOND_CHANCE at most and none when busted (S14), a FREEZE exactly when "
                    f"frozen, last (S13)",
                )
            want = hand_score(cards) if st == PASSED or st == FROZEN else -1
            if banked[s] != want:  # S8, S13: banked when leaving the hand safely
                raise r.error(
                    f"banked[{s}]",
                    data["banked"][s],
                    f"{want} (the row's hand score for a seat that passed or was frozen, else -1)",
                )
        deal_pos, dealer = state.deal_pos, state.dealer
        if deal_pos < 1:  # S7: every hand starts with a dealt card, before any decision
            raise r.error("deal_pos", deal_pos, f"an integer in [1, {n}]")
        if deal_pos < n:  # S7: the deal is on; no turn was offered yet (S8)
            self._check_deal(state, r, storms)
        if len(state.queue) > 3 * flips + n * storms:  # S15, S17: who queued them is on the table
            raise r.error(
                "pending",
                data["pending"],
                f"at most {3 * flips + n * storms} draws: 3 per FLIP_THREE and one per seat per "
                f"STORM on the table (S15, S17)",
            )
        if state.hand_index == 0:
            self._check_first_hand_turns(state, r, storms)
        # S18: the deal and the turns wait behind the queue, so a decision while draws are
        # pending is about the card the decider drew from it, just before them
        if state.queue and not _queue_explained(state, [state.decider, *state.queue]):
            raise r.error(
                "pending",
                data["pending"],
                "the rest of the draws queued by the FLIP_THREEs and STORMs on the table, in order, "
                "after the decider's own (S18): three for a FLIP_THREE's target (S15), one per "
                "seat still in the hand clockwise from a STORM's drawer (S17)",
            )
        decider, seat = state.decider, state.next_turn
        if state.decision == TURN:  # S8: the first seat still in the hand from next_turn on
            while seat != decider:
                if status[seat] == IN_HAND:
                    raise r.error(
                        "next_turn",
                        seat,
                        f"a seat from which seat {decider} is the next in the hand",
                    )
                seat = (seat + 1) % n
        else:  # the card decided on came from the last deal, the last turn, or the queue (S18)
            last = (dealer + deal_pos) % n if deal_pos < n else (seat - 1) % n
            if decider != last and not (storms or FLIP_THREE in table[decider]):
                raise r.error(
                    "decider",
                    decider,
                    f"{last}, the seat dealt last or the last to take a turn, unless a FLIP_THREE "
                    f"aimed at it or a STORM gave it a queued draw (S7, S8, S18)",
                )

    def _check_records(self, state: SevnState, r: StateReader) -> None:
        """The totals, the last hand's record and the counters, against the rest (S27)."""
        data, n, over = r.data, state.num_players, state.over
        banked = state.last_banked if over else state.banked
        start = [t - b if b > 0 else t for t, b in zip(state.scores, banked, strict=True)]
        best = max(start)
        if min(start) < 0 or (best >= state.target_score and start.count(best) == 1):
            raise r.error(
                "scores",
                data["scores"],
                "totals that include what each seat banked this hand, and were not won before "
                f"it: before it, no single seat at the top with {state.target_score} or more (S27)",
            )
        index, last, sevn = state.hand_index, state.last_banked, state.last_sevn
        if over:
            index -= 1  # the record is that of the last hand, the hand being checked
            if index < 0:
                raise r.error("hand_index", state.hand_index, "at least 1 once the game is over")
        if index == 0 and not over:  # the first hand: no hand before it, no reshuffle yet
            if sevn != -1 or any(b != -1 for b in last):
                raise r.error(
                    "last_banked", data["last_banked"], "all -1 and last_sevn -1 in the first hand"
                )
            self._check_first_hand_discards(state, r)
        # S21: what the last hand banked is in the totals (before this hand, while it runs)
        totals = state.scores if over else start
        plain, sevns = (hand_scores(False), hand_scores(True)) if max(last) >= 0 else ((), ())
        for s in range(n):
            b = last[s]
            if b >= 0 and (b > totals[s] or b not in (sevns if s == sevn else plain)):
                raise r.error(
                    f"last_banked[{s}]",
                    b,
                    f"-1 (busted), or a hand score a row can give (S20-S25, SEVN's for the "
                    f"last_sevn seat) of at most the seat's total {totals[s]}",
                )
            if s == sevn and b < 0:
                raise r.error("last_sevn", sevn, "a seat that banked the last hand (S10)")
        low, high = self._decisions_bounds(state)
        if not low <= state.decisions <= high:
            raise r.error(
                "decisions",
                state.decisions,
                f"an integer in [{low}, {high}] (the decisions the cards of this hand imply, S8, "
                f"S11, S13-S16)",
            )

    def _check_deal(self, state: SevnState, r: StateReader, storms: int) -> None:
        """The deal is on (S7): nobody passed, the first turn is left of the dealer (S8), and the
        seats not dealt yet hold only what queued draws, a FREEZE and a SECOND_CHANCE gave them."""
        data, n, table, status = r.data, state.num_players, state.table, state.status
        deal_pos, dealer = state.deal_pos, state.dealer
        if PASSED in status:
            raise r.error(
                "status", data["status"], "nobody passed: no turn is offered before the deal"
            )
        if state.next_turn != (dealer + 1) % n:
            raise r.error(
                "next_turn", state.next_turn, f"{(dealer + 1) % n}, left of the dealer (S8)"
            )
        for k in range(deal_pos, n):  # not dealt yet: only queued draws can give cards
            s = (dealer + 1 + k) % n
            if not (storms or FLIP_THREE in table[s]) and any(
                c != FREEZE and c != SECOND_CHANCE for c in table[s]
            ):
                raise r.error(
                    f"table[{s}]",
                    data["table"][s],
                    "a seat not dealt yet (S7) holds cards only from a FLIP_THREE aimed at it or "
                    "a STORM (S15, S17), a FREEZE aimed at it (S13), a SECOND_CHANCE handed to "
                    "it (S14)",
                )

    def _check_first_hand_turns(self, state: SevnState, r: StateReader, storms: int) -> None:
        """S8: the turns go round the seats still in the hand, so in the first hand, where
        ``decisions`` counts this hand's decisions only, they bound how many cards each seat
        still in the hand can have drawn: its deal card (S7), one per turn, 3 per FLIP_THREE
        aimed at it and the card itself (S15), one per STORM (S17), the card picked per FORK
        (S16), a SECOND_CHANCE handed to it (S14)."""
        n, status, table = state.num_players, state.status, state.table
        order = [(state.dealer + 1 + k) % n for k in range(n)]
        seats = [s for s in order if status[s] == IN_HAND]  # in the hand since it began
        turns = [0] * len(seats)
        if state.deal_pos == n:
            nxt = state.next_turn
            while status[nxt] != IN_HAND:
                nxt = (nxt + 1) % n
            at = seats.index(nxt)  # the seats before it had one turn more
            rounds = (state.decisions - self._decisions_bounds(state)[0] - at) // len(seats)
            turns = [rounds + (k < at) for k in range(len(seats))]
        for s, most in zip(seats, turns, strict=True):
            cards = table[s]
            flips = cards.count(FLIP_THREE)
            most += 1 + 4 * flips + storms + cards.count(FORK) + cards.count(SECOND_CHANCE)
            if len(cards) > most:
                raise r.error(
                    f"table[{s}]",
                    r.data["table"][s],
                    f"at most {most} cards after {state.decisions} decisions of the first hand "
                    f"(a deal card, one per turn, per FLIP_THREE four, per STORM and FORK one, "
                    f"S7, S8, S15-S17)",
                )

    def _check_first_hand_discards(self, state: SevnState, r: StateReader) -> None:
        """S26: in the first hand nothing was reshuffled (the draw pile never runs out: at most
        78 cards on the table, 2 set aside, 14 discarded: 2 FORK cards not picked, 3 used
        SECOND_CHANCEs with their duplicates, 6 ballast), so the discard pile holds exactly what
        the hand discarded: one card per FORK resolved, a used SECOND_CHANCE with a number, a
        discarded ballast, a SECOND_CHANCE nobody could take."""
        forks = sum(cards.count(FORK) for cards in state.table) - (state.decision == FORK_CHOICE)
        numbers = chances = ballast = 0
        for c in state.discard_pile:
            if c < BALLAST_M2:
                numbers += 1
            elif c <= BALLAST_M6:
                ballast += 1
            elif c == SECOND_CHANCE:
                chances += 1
        others = len(state.discard_pile) - numbers - ballast - chances
        free = forks - others  # FORK picks left over for numbers (then ballast, then chances)
        unmatched = numbers - min(numbers, max(free, 0))
        spare = max(free - numbers, 0)
        chances -= max(spare - ballast, 0)
        if free < 0 or len(state.discard_pile) < forks or unmatched > chances:
            raise r.error(
                "discard_pile",
                r.data["discard_pile"],
                f"in the first hand, what it discarded (S26): one card per FORK resolved "
                f"({forks}), SECOND_CHANCEs, each with at most one number it saved, and ballast",
            )

    def _decisions_bounds(self, state: SevnState) -> tuple[int, int]:
        """The least and most ``decisions`` the state's cards imply: a pass or a FREEZE per seat
        that left the hand safely (S8, S13), a target per FLIP_THREE on the table (S15), a pick
        per FORK resolved (S16), a choice per ballast kept (S11); at most a pass per seat and two
        per card drawn (a turn's draw and the choice the card asks for) in the first hand,
        unbounded later (earlier hands)."""
        status = state.status
        if state.over:
            return status.count(PASSED) + status.count(FROZEN), 10**12
        table = state.table
        low = status.count(PASSED) - (state.decision == FORK_CHOICE)
        low += sum(map(_CHOICE_CARD.__getitem__, chain.from_iterable(table)))
        if state.hand_index:
            return low + (max(state.last_banked) >= 0), 10**12
        drawn = len(state.set_aside) + len(state.discard_pile) + sum(map(len, table))
        return low, status.count(PASSED) + 2 * drawn

    card_codes, full_deck = CARD_CODES, FULL_DECK  # deck_codes()
    _parse_card = parse_card  # the deal's parser of the deck option (RaceGame.deal)


def second_chance_takers(state: SevnState, drawer: int) -> list[int]:
    """S14: players still in the hand, other than the drawer, who hold no SECOND_CHANCE."""
    return [
        s
        for s in range(state.num_players)
        if s != drawer and state.status[s] == IN_HAND and not state.has_second_chance[s]
    ]


_HAND_SCORES: dict[bool, frozenset[int]] = {}
#: 1 for the cards on the table that took a decision to get there: a FREEZE or FLIP_THREE aimed
#: (S13, S15), a FORK picked from (S16), a ballast kept (S11)
_CHOICE_CARD = [
    int(c in (FREEZE, FLIP_THREE, FORK) or BALLAST_M2 <= c <= BALLAST_M6)
    for c in range(NUM_CARD_KINDS)
]


def hand_scores(sevn: bool) -> frozenset[int]:
    """Every hand score some row of the deck gives a seat not busted (S21-S25): 0 to 6 distinct
    values (exactly 7 and the 17 with ``sevn``), any modifiers, x2 or not, any bonus cards.
    Computed once, by the distinct (value sum, count, bonus conditions) of the value sets."""
    out = _HAND_SCORES.get(sevn)
    if out is not None:
        return out
    # (sum, count, all <= 6, count >= 10 capped at 3, run ending at the last number, best run)
    sets = {(0, 0, True, 0, 0, 0)}
    for c in range(LAST_VALUE_CARD + 1):  # numbers in increasing order, then ballast
        v = CARD_VALUE[c]
        grown = set()
        for total, count, low, high, run, best in sets:
            grown.add((total, count, low, high, 0, best))
            if count < SEVN_VALUES:
                now = run + 1 if c < BALLAST_M2 else 0
                grown.add(
                    (
                        total + v,
                        count + 1,
                        low and v <= 6,
                        min(high + (v >= 10), 3),
                        now,
                        max(best, now),
                    )
                )
        sets = grown
    found = set()
    for total, count, low, high, _, best in sets:
        if (count == SEVN_VALUES) != sevn:
            continue
        feather = FEATHERWEIGHT_POINTS if count >= 4 and low else 0
        heavy = HEAVYWEIGHT_POINTS if high >= 3 else 0
        straight = STRAIGHT_POINTS_PER_CARD * best if best >= 3 else 0
        bonuses = {a + b + c for a in {0, feather} for b in {0, heavy} for c in {0, straight}}
        for doubled in (total, 2 * total):
            for extra in bonuses:
                for modifiers in range(0, 31, 2):  # any subset of +2 .. +10 (S3)
                    score = doubled + modifiers + extra + (SEVN_BONUS if sevn else 0)
                    found.add(score if score > 0 else 0)
    out = _HAND_SCORES[sevn] = frozenset(found)
    return out


def _clockwise(queue: list[int], i: int, d: int, n: int) -> int:
    """The end of the longest run of ``queue`` from ``i`` going clockwise from seat ``d``."""
    j, last = i, -1
    while j < len(queue) and (queue[j] - d) % n > last:
        last = (queue[j] - d) % n
        j += 1
    return j


def _queue_explained(state: SevnState, queue: list[int]) -> bool:
    """Whether the draws ``queue`` are what the rules queue (S15, S17, S18): the rest of one block
    and then whole blocks, each queued by a card on the table, a FLIP_THREE's three draws for the
    seat it is in front of, or a STORM's draw for each seat in the hand, clockwise from the seat
    it is in front of (every seat still in the hand was in it then)."""
    n, table = state.num_players, state.table
    inside = [s for s in range(n) if state.status[s] == IN_HAND]
    first = queue[0]
    ends = set()  # where the first block (what is left of it) can end
    if FLIP_THREE in table[first]:
        ends.update(k for k in (1, 2, 3) if queue[:k] == [first] * k)
    for d in range(n):
        if STORM in table[d]:
            start = (first - d) % n  # the seats still in it after the draws served
            for j in range(1, _clockwise(queue, 0, d, n) + 1):
                if all(s in queue[:j] for s in inside if (s - d) % n >= start):
                    ends.add(j)
    reached, todo = set(ends), sorted(ends)
    while todo:  # then whole blocks
        i = todo.pop()
        seat = queue[i] if i < len(queue) else -1
        nxt = []
        if seat >= 0 and FLIP_THREE in table[seat] and queue[i : i + 3] == [seat] * 3:
            nxt.append(i + 3)
        if seat >= 0 and STORM in table[seat]:
            for j in range(i + 1, _clockwise(queue, i, seat, n) + 1):
                if all(s in queue[i:j] for s in inside):
                    nxt.append(j)
        for j in nxt:
            if j not in reached:
                reached.add(j)
                todo.append(j)
    return len(queue) in reached
