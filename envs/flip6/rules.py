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
from cardarena.envs.core.errors import ConfigError, IllegalActionError
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
        if options:
            self._check_options(options)
        state, _ = self.deal(rng, options, ("has_life", "has_double"))
        self._start_round(state)
        self._advance(state)
        return state

    def _check_options(self, options: dict[str, Any]) -> None:
        """What the reset options' own parsers do not say: a ``deck`` code that is no card code
        (named with the option), and a ``scores`` total at the target (F17: that game is over)."""
        deck = options.get("deck")
        for code in deck if isinstance(deck, list | tuple) else ():
            known = isinstance(code, str) and code.isascii()  # F1, F2: the codes of the rules
            try:
                parse_card(code if known else None)
            except ConfigError:
                known = False
            if not known:
                raise ConfigError(
                    f"flip6: reset option 'deck' holds {code!r}, not a card code; known codes: "
                    f"{CARD_CODES}"
                )
        scores, target = options.get("scores"), self.target_score
        for s, total in enumerate(scores if isinstance(scores, list | tuple) else ()):
            if isinstance(total, int | np.integer) and not isinstance(total, bool):
                if total >= target:
                    raise ConfigError(
                        f"flip6: reset option 'scores' gives seat {s} a total of {total}; "
                        f"allowed: totals in [0, {target - 1}], under target_score {target} (a "
                        f"total at the target has ended the game, F17)"
                    )

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
    # ``from_dict`` refuses what no play reaches. The facts of play it relies on (rule ids):
    # - pending work at a decision is [] or the deal alone, [0, k, 0] (k seats reached, 1..n):
    #   a FLIP3 sequence never stops for a decision (F12: one FLIP3 card, a FREEZE inside it
    #   freezes the receiver), so its entry is gone before anyone decides;
    # - a decision during the deal is the dealt seat's (dealer + k), before any turn (F5, F6);
    #   a target decision after the deal comes from a HIT, so the turn has passed to the left;
    # - a row holds each value once, a busted row ends with its one duplicate and holds no
    #   EXTRA_LIFE (F8, F10), a FREEZE is the last card of the frozen seat (F11), six values
    #   on a row end the round at once (F9, F15);
    # - a seat that banked this round holds at least its round score (F7, F11, F14), nobody
    #   is at the target while the game runs and every winner banked it last (F17, F18);
    # - every decision is counted: the cards on the table imply a least number of them this
    #   round, every finished round took one or more, and a first round whose draw pile was
    #   never reshuffled (F16) took at most one per card drawn, stay and target.
    def check_state(self, state: Flip6State, r: StateReader) -> None:
        """What ``from_dict`` refuses between fields; rebuilds the caches of ``table``."""
        data, n, table = r.data, state.num_players, state.table
        state.has_life = [EXTRA_LIFE in cards for cards in table]
        state.has_double = [DOUBLE in cards for cards in table]
        stack = state.stack
        if stack and (
            len(stack) > 1 or stack[0][0] != TASK_DEAL or not 1 <= stack[0][1] <= n or stack[0][2]
        ):
            raise r.error(
                "pending",
                data["pending"],
                f"[] or the deal alone, [[0, k, 0]] with k the seats it reached (1..{n}): no "
                "other work waits at a decision (F5, F12)",
            )
        for s, cards in enumerate(table):
            self._check_row(state, r, s, cards)
        discard = state.discard_pile
        if (
            state.round_index == 0
            and discard
            and not (len(discard) == 2 and discard[0] == EXTRA_LIFE and discard[1] <= 6)
        ):  # F10, F16: in the first round only a used EXTRA_LIFE and its duplicate are thrown
            raise r.error(
                "discard_pile",
                data["discard_pile"],
                "[] or [EXTRA_LIFE, the duplicate it cancelled] in the first round (F10, F16)",
            )
        if (
            discard
            and len(discard) < n - 1
            and not (len(discard) == 2 and discard[0] == EXTRA_LIFE and discard[1] <= 6)
        ):  # F16: unless reshuffled this round, it ends with the last round's table: every
            # seat's deal card lies on a row, but one FREEZE may be a deal card and freeze a seat
            # before its own (F5, F11)
            raise r.error(
                "discard_pile",
                data["discard_pile"],
                f"[], [EXTRA_LIFE, the duplicate it cancelled] (reshuffled this round) or "
                f"{n - 1} cards or more (the last round's table) after the first round (F5, F16)",
            )
        self.check_rows(state, r, 6, BUSTED)  # number values 1..6 (and ZERO)
        self._check_turns(state, r)
        self._check_decisions(state, r)

    def _check_row(self, state: Flip6State, r: StateReader, s: int, cards: list[int]) -> None:
        status = state.status[s]
        frozen = FREEZE in cards
        if frozen != (status == FROZEN) or (frozen and cards[-1] != FREEZE):
            raise r.error(
                f"table[{s}]",
                r.data["table"][s],
                "a FREEZE exactly in front of a frozen seat, as its last card (F11)",
            )
        if status == BUSTED:
            held = [c for c in cards if c <= 6]
            if (
                not cards
                or cards[-1] > 6
                or held.count(cards[-1]) != 2
                or len(set(held)) != len(held) - 1
                or EXTRA_LIFE in cards
            ):
                raise r.error(
                    f"table[{s}]",
                    r.data["table"][s],
                    "a busted row: no EXTRA_LIFE, each value once but the last card, a "
                    "duplicate (F8, F10)",
                )
        if (
            len(cards) >= 6
            and sum(1 for c in set(cards) if c <= 6) == 6
            and not (state.over and status == STAYED and state.flip6_seat == s)
        ):
            raise r.error(
                f"table[{s}]",
                r.data["table"][s],
                "at most five values while the game runs: six end the round (F9); after a "
                "game-ending Flip 6 only on the row of flip6_seat",
            )

    def _check_turns(self, state: Flip6State, r: StateReader) -> None:
        """The cards of the round against the turns taken (F5, F6, F8, F10-F12).

        Turns run clockwise from left of the dealer (F6): a seat still in the round has taken
        ``laps`` turns, one more if ``next_turn`` has passed it since. Each turn of such a seat
        was a HIT, and every card it drew (its deal card, the three of a FLIP3 aimed at it,
        one per HIT) lies in its row, except a FREEZE or FLIP3 it aimed elsewhere (these lie on
        the table or wait set aside) and an EXTRA_LIFE used with its duplicate (F10, two cards
        to the discard pile). A seat that stayed took a turn for it."""
        n, dealer, table, status = state.num_players, state.dealer, state.table, state.status
        aimed = len(state.set_aside) + sum((FREEZE in cards) + (FLIP3 in cards) for cards in table)
        if state.stack:  # during the deal: no turn yet, seats left of the dealer reached
            reached, passed = state.stack[0][1], 0
        elif not state.over:
            reached, passed = n, (state.next_turn - dealer - 1) % n
        else:
            winners = state.winners
            w = winners[0] if len(winners) == 1 else -1
            piles = state.draw_pile or state.discard_pile
            if w < 0 or status[w] != STAYED or self._flip6_end(state) or not piles:
                return  # the game did not end at a turn: the round is left as it stopped
            if state.next_turn != (w + 1) % n:
                raise r.error(
                    "next_turn",
                    state.next_turn,
                    f"{(w + 1) % n}, left of seat {w}, who stayed to win (F6, F17)",
                )
            reached, passed = n, (state.next_turn - dealer - 1) % n
        piles = bool(state.draw_pile or state.discard_pile)  # then nobody stayed for want
        least = 0  # laps: the least the rows allow
        extra: list[int] = []  # per seat in the round: cards drawn beyond those in sight
        empty: list[int] = []  # reached seats with no card: each drew a card it aimed elsewhere
        for s, cards in enumerate(table):
            pos = (s - dealer - 1) % n
            ahead = 1 if pos < passed else 0  # next_turn passed it once more
            base = len(cards) - (pos < reached) - 4 * (FLIP3 in cards)
            if pos < reached and not cards and (piles or status[s] != STAYED):
                if not (state.stack and s == state.decider):  # its deal card is set aside
                    empty.append(pos)
            if status[s] == IN_ROUND:
                least = max(least, base - ahead)
                extra.append(base - ahead)
            elif status[s] == STAYED:  # its hits, and the stay if it chose it
                least = max(least, base + piles - ahead)
            else:  # frozen or busted: its hits at most, the deal card perhaps not dealt
                late = FLIP3 in cards or FREEZE in cards
                least = max(least, base - (FREEZE in cards) - late - ahead)
        if state.stack and least > 0:
            least = -1  # no turn is taken during the deal
        discard = state.discard_pile
        unshuffled = (discard and not (len(discard) == 2 and discard[0] == EXTRA_LIFE)) or (
            state.round_index == 0 and any(c in (FREEZE, FLIP3, DOUBLE) for c in state.draw_pile)
        )
        # EXTRA_LIFE used this round (F10): at most once if the discard pile
        # was not reshuffled this round (a used pair is its last two cards), else as often as
        # it was reshuffled
        used = len(discard) >= 2 and discard[-2] == EXTRA_LIFE and discard[-1] <= 6
        lives = int(used) if unshuffled else None
        ok = least >= 0 and self._deal_cards_aimed(state, empty)
        # the cards aimed as deal cards of seats out of the round now absorb no HIT (those of
        # seats still in count among their cards drawn beyond those in sight)
        aimed -= sum(1 for pos in empty if status[(pos + dealer + 1) % n] != IN_ROUND)
        if ok:
            ok = False
            for laps in [least] if state.stack else [least, least + 1, least + 2]:
                more = [laps - b for b in extra]
                if lives is None:  # two by two any number of times
                    cost = sum(e % 2 for e in more)
                else:
                    cost = sum(more) - (2 if lives and max(more, default=0) >= 2 else 0)
                ok = ok or cost <= aimed
        if not ok:
            raise r.error(
                "table",
                r.data["table"],
                f"rows that the turns from left of dealer {state.dealer} to next_turn "
                f"{state.next_turn} can deal: a seat in the round holds its deal card, the "
                f"FLIP3 cards aimed at it and one card per HIT, but for a FREEZE or FLIP3 it "
                f"aimed elsewhere or an EXTRA_LIFE used (F5, F6, F8, F10-F12)",
            )

    @staticmethod
    def _deal_cards_aimed(state: Flip6State, empty: list[int]) -> bool:
        """Whether each reached seat with no card (places ``empty`` left of the dealer) can
        have drawn as its deal card a different FREEZE or FLIP3 of the table, aimed at a seat
        dealt before it, or at one not dealt yet whose row held at most the cards of a FLIP3
        then (F5, F11, F12)."""
        if not empty:
            return True
        n, dealer = state.num_players, state.dealer
        specials = [
            (t, j)
            for t, cards in enumerate(state.table)
            for j, c in enumerate(cards)
            if c in (FREEZE, FLIP3)
        ]

        def fits(i: int, t: int, j: int) -> bool:
            later = (t - dealer - 1) % n > i
            return (t - dealer - 1) % n != i and (not later or j == 0 or state.table[t][0] == FLIP3)

        if len(empty) > len(specials):
            return False
        if len(empty) == 1:
            return any(fits(empty[0], t, j) for t, j in specials)
        a, b = specials[0], specials[1]
        i, k = empty[0], empty[1]
        return (fits(i, *a) and fits(k, *b)) or (fits(i, *b) and fits(k, *a))

    def _check_decisions(self, state: Flip6State, r: StateReader) -> None:
        """``decisions`` against the table and ``round_index`` (F5-F16): at least the hits,
        stays and aims the rows show, and one per finished round; in a first round whose draw
        pile was never reshuffled, at most one per card drawn (less the deal and FLIP3 draws
        in sight), stay and aim."""
        hits = aims = dealt = flip3_drawn = 0
        for cards in state.table:
            flip3, freeze = FLIP3 in cards, FREEZE in cards
            if flip3:  # aimed at this seat (F12): 3 draws, then maybe its deal card
                aims += 1
                at = cards.index(FLIP3)
                flip3_drawn += min(3, len(cards) - 1 - at)
                hits += max(0, len(cards) - 5 - freeze)
                # a FREEZE after it may have come inside the FLIP3, frozen with no choice
                aims += freeze and cards.index(FREEZE) < at
            else:
                aims += freeze
                dealt += 1 if cards and not freeze else 0
                hits += max(0, len(cards) - 1 - freeze)
        stayed = state.status.count(STAYED)
        # nobody stayed for want of cards while a pile holds some (F16), nor at a Flip 6 unless
        # the game ended there
        stays = stayed if (state.draw_pile or state.discard_pile) and not state.over else 0
        # a finished round took a decision per seat or more: each seat left it by its own STAY
        # or HIT (F7, F8), or by an aim at it (a FREEZE, or a FLIP3 it busted or froze in: one
        # seat per aim, F11, F12), or all at once at a Flip 6 (F9), which takes the maker two
        # HITs after its deal card and a FLIP3 and every other seat still in a turn between
        n, rounds, discard = state.num_players, state.round_index, state.discard_pile
        done = n * rounds
        if rounds and discard and not (len(discard) == 2 and discard[0] == EXTRA_LIFE):
            # not reshuffled this round: the discard pile holds the tables of the k <= rounds
            # last rounds and an EXTRA_LIFE pair a round at most; a table's cards beyond the deal
            # (n) and a FLIP3 (3) came by HITs (F5, F8, F10, F12, F16)
            done = max(done, len(discard) - 2 - rounds * (n + 5))
        least = hits + aims + stays + done
        most = None
        if state.round_index == 0 and any(
            c in (FREEZE, FLIP3, DOUBLE) for c in (*state.draw_pile, *state.discard_pile)
        ):  # a card that stays on the table all round is in a pile: never reshuffled (F16)
            drawn = len(FULL_DECK) - len(state.draw_pile)
            flip3 = any(FLIP3 in cards for cards in state.table)
            reached = state.stack[0][1] if state.stack else state.num_players
            least = max(least, drawn - reached - 3 * flip3 + aims + stays)
            most = drawn - dealt - flip3_drawn + stayed + aims
        if state.decisions < least or (most is not None and state.decisions > most):
            allowed = f"at least {least}" if most is None else f"{least}..{most}"
            raise r.error(
                "decisions",
                r.data["decisions"],
                f"{allowed}: the hits, stays and aims the table implies (F6-F12), and one per "
                f"seat or more in each finished round ({state.round_index})",
            )

    def _check_banked(self, state: Flip6State, r: StateReader) -> None:
        """A seat that banked this round (F7, F11) holds at least the round score it banked."""
        for s, status in enumerate(state.status):
            if status in (STAYED, FROZEN) and state.scores[s] < round_score(state, s):
                raise r.error(
                    f"scores[{s}]",
                    state.scores[s],
                    f"at least {round_score(state, s)}, the round score seat {s} banked (F14)",
                )
        if state.round_index == 0 and state.flip6_seat != -1 and not self._flip6_end(state):
            raise r.error("flip6_seat", state.flip6_seat, "-1: no round has ended yet (F9)")

    @staticmethod
    def _flip6_end(state: Flip6State) -> bool:
        return state.over and any(
            sum(1 for c in set(cards) if c <= 6) == 6 for cards in state.table
        )

    def _check_over(self, state: Flip6State, r: StateReader) -> None:
        best, target = max(state.scores), state.target_score
        if best < target or not parts.settled_end(state, state.stack, best):
            raise r.error("over", True, _ENDED)
        self._check_banked(state, r)
        flip6 = self._flip6_end(state)
        reached = [s for s, v in enumerate(state.scores) if v >= target]
        for s in reached:  # F17: the game stops at the bank that reaches the target
            banked = round_score(state, s, flip6=flip6 and s == state.flip6_seat)
            status = state.status[s]
            if status not in ((STAYED,) if flip6 else (STAYED, FROZEN)) or (
                state.scores[s] - banked >= target
            ):
                raise r.error(
                    f"scores[{s}]",
                    state.scores[s],
                    f"under the target {target} before the bank that ended the game: seat {s} "
                    f"banked {banked} last (F14, F17)",
                )
        if not flip6 and len(reached) > 1:
            raise r.error(
                "scores",
                state.scores,
                f"one seat at the target {target} or more: only a Flip 6 banks several seats at "
                f"once (F9, F18)",
            )

    def _check_running(self, state: Flip6State, r: StateReader) -> None:
        data, decision, decider, n = r.data, state.decision, state.decider, state.num_players
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
        self._check_banked(state, r)
        if state.stack:  # a card of the deal to aim (F5): the dealt seat's, before any turn
            dealt = state.stack[0][1]
            if decider != (state.dealer + dealt) % n:
                raise r.error(
                    "decider",
                    decider,
                    f"seat {(state.dealer + dealt) % n}, the deal's seat {dealt} left of dealer "
                    f"{state.dealer} (F5)",
                )
            if state.next_turn != (state.dealer + 1) % n or STAYED in state.status:
                raise r.error(
                    "next_turn",
                    state.next_turn,
                    f"{(state.dealer + 1) % n}, left of the dealer, and nobody stayed: no turn "
                    f"is taken during the deal (F5, F6)",
                )
        elif decision == TURN:  # F6: the first seat still in the round from next_turn
            seat = state.next_turn
            while state.status[seat] != IN_ROUND:
                seat = (seat + 1) % n
            if seat != decider:
                raise r.error(
                    "decider",
                    decider,
                    f"seat {seat}, the first still in the round from next_turn "
                    f"{state.next_turn} (F6)",
                )
        elif state.next_turn != (decider + 1) % n:  # the card came with a HIT (F8)
            raise r.error(
                "next_turn",
                state.next_turn,
                f"{(decider + 1) % n}, left of seat {decider}, whose HIT drew the card to aim "
                f"(F6, F8)",
            )
