"""Ratatat: the pure rules engine (rule ids R1-R18 of ``docs/rules/ratatat.md``).

Cards are small ints: ``0``..``9`` are the number cards (their value), then SWAP, PEEK, DRAW_TWO.
Each seat has a row of 4 face-down slots; slot ``k`` of seat ``s`` is ``slots[4 * s + k]``. The
engine advances on its own through everything the rules decide (deal, reshuffles, the end of a
round, the R14 replacements, the next deal) and stops at the next decision a player must make:

====================  ====================================  =======================================
decision              when                                  legal actions
====================  ====================================  =======================================
``turn``              start of a turn (R6)                  ``draw``; ``take_discard`` unless the
                                                            top discard is a special (R6 A)
``take_slot``         after ``take_discard`` (R6 A)         ``slot K``
``drawn_card``        after ``draw`` (R6 B), or the card    ``slot K``, ``discard``, ``use`` (only
                      of a DRAW_TWO ``redraw`` (R9)         for a special)
``draw_two_extra``    the card drawn by DRAW_TWO (R9)       as ``drawn_card`` plus ``redraw``
``swap``              after ``use`` of SWAP (R7)            ``swap K N J`` (N another seat)
``peek``              after ``use`` of PEEK (R8)            ``peek K``
``knock``             after a completed turn, once every    ``knock``, ``no_knock``
                      seat has played this round (R10)
====================  ====================================  =======================================

A used special waits in ``in_use`` while its power resolves and is discarded afterwards ("use its
power, then discard it", R6 B), innermost first, so after a used DRAW_TWO the DRAW_TWO is the top
discard.

Knowledge (R17, R18) is a bitmask per slot: bit ``s`` of ``knowers[i]`` is set when seat ``s``
knows the card in slot ``i``. The value itself is read from ``slots``, so knowledge can never
disagree with the cards. It follows a card through SWAP, is set for every seat when a face-up
discard is taken into a slot (R18: the card and the slot are public), is set for the owner only
when a drawn card is put into a slot or a slot is peeked, and is cleared for everyone else when a
card they did not see replaces the one they knew.

Hidden cards carry a generation (``gens``): the draw pile they were drawn from (each deal and each
R11 reshuffle starts a new one). A seat knows the multiset of every generation's unseen cards, so
``resample_hidden`` permutes hidden cards within a generation, which is exactly the set of deals
consistent with what the seat saw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardarena.envs.core import engine_parts as parts
from cardarena.envs.core import state_fields as sf
from cardarena.envs.core.engine import GameEngine
from cardarena.envs.core.errors import ConfigError, IllegalActionError, check_int
from cardarena.envs.core.state_io import StateReader

# ---- cards (R1, R2) ---------------------------------------------------------------------------
SWAP_CARD, PEEK_CARD, DRAW_TWO_CARD = 10, 11, 12
NUM_CARD_KINDS = 13
CARD_CODES: list[str] = [str(v) for v in range(10)] + ["SWAP", "PEEK", "DRAW_TWO"]
CODE_TO_CARD: dict[str, int] = {code: i for i, code in enumerate(CARD_CODES)}
parse_card = parts.card_parser("ratatat", CARD_CODES)
#: R1: four each of 0..8, nine 9s; R2: SWAP x9, PEEK x7, DRAW_TWO x5
DECK_COUNTS: list[int] = [4] * 9 + [9] + [9, 7, 5]
FULL_DECK: list[int] = [card for card, n in enumerate(DECK_COUNTS) for _ in range(n)]
assert len(FULL_DECK) == 66
SLOTS_PER_SEAT = 4

# ---- decisions ----------------------------------------------------------------------------------
NO_DECISION, TURN, TAKE_SLOT, DRAWN, DRAW_TWO_EXTRA, SWAP_TARGET, PEEK_SLOT, KNOCK_CHOICE = range(8)
DECISION_NAMES = [
    "none",
    "turn",
    "take_slot",
    "drawn_card",
    "draw_two_extra",
    "swap",
    "peek",
    "knock",
]

# ---- actions ------------------------------------------------------------------------------------
MAX_PLAYERS = 6
TAKE_DISCARD, DRAW = 0, 1
SLOT0 = 2  #: SLOT0 + K: put the card in hand into own slot K
DISCARD, USE, REDRAW = 6, 7, 8
PEEK0 = 9  #: PEEK0 + K: peek own slot K
KNOCK, NO_KNOCK = 13, 14
SWAP0 = 15  #: SWAP0 + 24 K + 4 N + J: own slot K with seat N's slot J
NUM_ACTIONS = SWAP0 + SLOTS_PER_SEAT * MAX_PLAYERS * SLOTS_PER_SEAT
assert NUM_ACTIONS == 111

# ---- observation modes (environment contract) ----------------------------------------------------
PERFECT_RECALL, NO_MEMORY, SEER = 0, 1, 2
MEMORY_MODES = ["perfect_recall", "none", "seer"]

_SLOT_ACTIONS = [SLOT0 + k for k in range(SLOTS_PER_SEAT)]
_LEGAL_TURN_BOTH = [TAKE_DISCARD, DRAW]
_LEGAL_TURN_DRAW = [DRAW]
_LEGAL_TAKE = list(_SLOT_ACTIONS)
_LEGAL_DRAWN_NUMBER = [*_SLOT_ACTIONS, DISCARD]
_LEGAL_DRAWN_SPECIAL = [*_SLOT_ACTIONS, DISCARD, USE]
_LEGAL_EXTRA_NUMBER = [*_SLOT_ACTIONS, DISCARD, REDRAW]
_LEGAL_EXTRA_SPECIAL = [*_SLOT_ACTIONS, DISCARD, USE, REDRAW]
_LEGAL_PEEK = [PEEK0 + k for k in range(SLOTS_PER_SEAT)]
_LEGAL_KNOCK = [KNOCK, NO_KNOCK]


def swap_action(own_slot: int, seat: int, slot: int) -> int:
    """The action ``swap K N J``."""
    return SWAP0 + own_slot * MAX_PLAYERS * SLOTS_PER_SEAT + seat * SLOTS_PER_SEAT + slot


def _swap_legal(n: int, me: int) -> list[int]:
    return [
        swap_action(k, other, j)
        for k in range(SLOTS_PER_SEAT)
        for other in range(n)
        if other != me
        for j in range(SLOTS_PER_SEAT)
    ]


_LEGAL_SWAP = {(n, me): _swap_legal(n, me) for n in range(2, MAX_PLAYERS + 1) for me in range(n)}


def default_num_rounds(num_players: int) -> int:
    """R16: as many rounds as players, 4 with 2 players."""
    return 4 if num_players == 2 else num_players


def _cards(zone: str = "", most: Any = None, **bounds: Any) -> sf.Cards:
    most = len(FULL_DECK) if most is None else most
    return sf.Cards(CARD_CODES, CODE_TO_CARD, parse_card, max_len=most, zone=zone, **bounds)


def _slots(s: Any) -> int:
    return int(s.num_players) * SLOTS_PER_SEAT


BIG = 10**12  #: from_dict's bound of the decision counters


@sf.state_fields
@dataclass(slots=True)
class RatatatState:
    """Everything about one game, hidden parts included."""

    num_players: int
    max_turns: int
    num_rounds: int
    memory: int
    rng: np.random.Generator
    scores: list[int]  # game totals (R15), lower is better
    dealer: int
    round_index: int = 0  # 0-based index of the round being played
    round_scores: list[list[int]] = field(default_factory=list)  # per finished round
    draw_pile: list[int] = field(default_factory=list)  # top of the pile is the END of the list
    discard_pile: list[int] = field(default_factory=list)  # top is the END of the list
    slots: list[int] = field(default_factory=list)  # 4 per seat, seat-major
    knowers: list[int] = field(default_factory=list)  # per slot, bitmask of seats that know it
    gens: list[int] = field(default_factory=list)  # per slot, draw-pile generation (-1: public)
    seen_at: list[int] = field(default_factory=list)  # [seat * 4n + slot]: decision it was seen
    changed_at: list[int] = field(default_factory=list)  # per slot: decision its card last moved
    last_decided: list[int] = field(default_factory=list)  # per seat: its latest decision number
    held: int = -1  # card in the deciding player's hand (-1: none)
    held_public: bool = False  # taken from the discard pile (seen by all)
    held_gen: int = -1
    in_use: list[int] = field(default_factory=list)  # specials whose power is resolving
    set_aside: list[int] = field(default_factory=list)  # specials replaced at scoring (R14)
    pile_gen: int = 0  # generation of the current draw pile
    decision: int = NO_DECISION
    decider: int = -1
    turns: int = 0  # completed turns in this round (R12)
    played: int = 0  # bitmask of seats that completed a turn in this round (R10)
    knocker: int = -1  # seat that knocked this round (-1: none yet)
    last_rows: list[int] = field(default_factory=list)  # last finished round, face up (R13)
    last_knocker: int = -1
    log: list[tuple[int, int]] = field(default_factory=list)  # recent (seat, action), all public
    winners: list[int] = field(default_factory=list)
    over: bool = False
    decisions: int = 0

    #: the saved form: to_dict writes these fields in this order (after game, num_players)
    FIELDS = sf.declare(
        max_turns=sf.Int(1, 100_000),
        num_rounds=sf.Int(1, 1000),
        memory=sf.Choice(MEMORY_MODES),
        # R15: the `scores` reset option (at most 36 a round) plus the rounds since (check_state)
        scores=sf.Ints(0, lambda s: 72 * s.num_rounds, length=sf.N),
        winners=sf.Seats(),
        current_player=sf.Derived(lambda game, s: game.current_player(s)),
        decision=sf.Choice(DECISION_NAMES),
        decider=sf.Seat(none=-1),
        dealer=sf.Seat(),
        round_index=sf.Int(0, lambda s: s.num_rounds),
        round_scores=sf.List(sf.Ints(0, 36, length=sf.N), max_len=lambda s: s.round_index),
        draw_pile=_cards("draw_pile", reverse=True),
        discard_pile=_cards("discard_pile"),
        rows=sf.Chunks(_cards(length=SLOTS_PER_SEAT), SLOTS_PER_SEAT, zone="row_{}").of("slots"),
        knowers=sf.Chunks(sf.List(sf.SeatMask(), length=SLOTS_PER_SEAT), SLOTS_PER_SEAT),
        gens=sf.Ints(-1, lambda s: s.pile_gen, length=_slots),
        seen_at=sf.Ints(0, lambda s: s.decisions, length=lambda s: s.num_players * _slots(s)),
        changed_at=sf.Ints(0, lambda s: s.decisions, length=_slots),
        last_decided=sf.Ints(0, lambda s: s.decisions, length=sf.N),
        held=sf.Card(CARD_CODES, CODE_TO_CARD, parse_card, none=None, zone="hand"),
        held_public=sf.Bool(),
        held_gen=sf.Int(-1, lambda s: s.pile_gen),
        in_use=_cards("in_use", most=3),
        set_aside=_cards("set_aside"),
        pile_gen=sf.Int(0, BIG),
        # after a knock the others' last turns go on past max_turns (R10 before R12)
        turns=sf.Int(0, lambda s: s.max_turns + s.num_players - 2),
        played=sf.SeatMask(),
        knocker=sf.Seat(none=None),
        last_rows=_cards(most=_slots),
        last_knocker=sf.Seat(none=-1),
        log=sf.List(sf.Tuple(sf.Seat(), sf.Int(0, NUM_ACTIONS - 1)), max_len=24),
        over=sf.Bool(),
        decisions=sf.Int(0, BIG),
        rng=sf.Rng(),
    )


def card_value(card: int) -> int:
    return card if card < 10 else 0


def round_score(slots: list[int], seat: int) -> int:
    """R15: the sum of the 4 values of a row (specials already replaced by R14)."""
    base = seat * SLOTS_PER_SEAT
    return sum(slots[base : base + SLOTS_PER_SEAT])


def visible_slots(state: RatatatState, seat: int) -> list[int]:
    """What ``seat``'s observation shows in every slot: the card, or -1 (unknown).

    ``perfect_recall``: every slot the seat knows (R17). ``none``: only what it saw since its
    previous decision (its own moves of that decision included). ``seer``: every slot. Once the
    game is over the last rows are face up (R13) and every mode shows them.
    """
    slots = state.slots
    if state.over or state.memory == SEER:
        return list(slots)
    bit = 1 << seat
    knowers = state.knowers
    if state.memory == PERFECT_RECALL:
        return [c if knowers[i] & bit else -1 for i, c in enumerate(slots)]
    total = len(slots)
    since = state.last_decided[seat]
    seen_at = state.seen_at
    base = seat * total
    return [
        c if knowers[i] & bit and seen_at[base + i] >= since else -1 for i, c in enumerate(slots)
    ]


def visible_held(state: RatatatState, seat: int) -> int:
    """The card in hand as ``seat`` sees it (-1: none or hidden)."""
    if state.held < 0:
        return -1
    if state.decider == seat or state.held_public or state.memory == SEER:
        return state.held
    return -1


_ACTION_TEXTS: list[str] = (
    ["take_discard", "draw"]
    + [f"slot {k}" for k in range(SLOTS_PER_SEAT)]
    + ["discard", "use", "redraw"]
    + [f"peek {k}" for k in range(SLOTS_PER_SEAT)]
    + ["knock", "no_knock"]
    + [
        f"swap {k} {n} {j}"
        for k in range(SLOTS_PER_SEAT)
        for n in range(MAX_PLAYERS)
        for j in range(SLOTS_PER_SEAT)
    ]
)
_TEXT_TO_ACTION: dict[str, int] = {t: a for a, t in enumerate(_ACTION_TEXTS)}
assert len(_ACTION_TEXTS) == NUM_ACTIONS


describe_action = parts.text_table("ratatat", _ACTION_TEXTS)


def parse_action(text: str) -> int:
    key = " ".join(str(text).strip().lower().split())
    action = _TEXT_TO_ACTION.get(key)
    if action is None:
        raise IllegalActionError(
            f"cannot parse ratatat action {text!r}; expected 'take_discard', 'draw', 'slot K', "
            f"'discard', 'use', 'redraw', 'swap K N J', 'peek K', 'knock' or 'no_knock' with K, J "
            f"slots in 0..3 and N a seat in 0..{MAX_PLAYERS - 1}"
        )
    return action


_ENDED = (
    "an ended game after the last round with decision 'none', decider -1, no card in hand or "
    "in use, and winners the seats at the lowest total"
)


_START, _MID, _END, _KNOCK = range(4)
#: the kind of each action in a turn (R6-R10): a turn's first move, a move within it, its last
#: move, the knock choice after it
_KIND = [_START, _START, *[_END] * 5, _MID, _MID, *[_END] * 4, _KNOCK, _KNOCK]
_KIND += [_END] * (NUM_ACTIONS - len(_KIND))
#: the most decisions one turn can take (R6-R10): its first move, five DRAW_TWO used and
#: redrawn (a used special stays in use until the action ends), a SWAP or PEEK used and aimed,
#: the card placed or discarded, the knock choice
_TURN_MOST = 1 + 5 * 2 + 2 + 1 + 1
#: the seats of each bitmask of seats (knowers)
_SEATS_OF = [[s for s in range(MAX_PLAYERS) if mask >> s & 1] for mask in range(1 << MAX_PLAYERS)]
_NUMBERS = sorted(card for card in FULL_DECK if card < SWAP_CARD)
#: the most and the least k rows of four number cards of one deck can add up to
_MOST = [sum(_NUMBERS[len(_NUMBERS) - 4 * k :]) if k else 0 for k in range(MAX_PLAYERS + 1)]
_LEAST = [sum(_NUMBERS[: 4 * k]) for k in range(MAX_PLAYERS + 1)]


def _round_possible(scores: list[int]) -> bool:
    """Whether one round's row sums fit one deck (R1, R15): the k highest rows at most the 4k
    highest number cards, the k lowest at least the 4k lowest."""
    ordered = sorted(scores)
    low = high = 0
    for k in range(1, len(ordered) + 1):
        low += ordered[k - 1]
        high += ordered[-k]
        if low < _LEAST[k] or high > _MOST[k]:
            return False
    return True


class RatatatGame(GameEngine[RatatatState], describe=describe_action, parse=parse_action):
    """Ratatat for 2-6 players.

    Options: ``num_players`` (4), ``first_dealer`` (0, R5), ``max_turns`` (R12; turns per round,
    default 30 per player), ``num_rounds`` (R16; default as many as players, 4 with 2 players),
    ``memory`` ("perfect_recall", "none" or "seer": what observations show, see encoding.py).
    """

    name = "ratatat"
    num_actions = NUM_ACTIONS
    min_players = 2
    max_players = MAX_PLAYERS
    reward_kind = "zero_sum"

    def __init__(
        self,
        num_players: int = 4,
        first_dealer: int = 0,
        max_turns: int | None = None,
        num_rounds: int | None = None,
        memory: str = "perfect_recall",
    ) -> None:
        self.num_players = check_int("num_players", num_players, self.min_players, self.max_players)
        self.first_dealer = check_int("first_dealer", first_dealer, 0, self.num_players - 1)
        if max_turns is None:
            max_turns = 30 * self.num_players
        self.max_turns = check_int("max_turns", max_turns, 1, 100_000)
        if num_rounds is None:
            num_rounds = default_num_rounds(self.num_players)
        self.num_rounds = check_int("num_rounds", num_rounds, 1, 1000)
        if memory not in MEMORY_MODES:
            raise ConfigError(f"memory must be one of {MEMORY_MODES}, got {memory!r}")
        self.memory = memory
        self._memory = MEMORY_MODES.index(memory)

    # ---- set-up ----------------------------------------------------------------------------
    def new_game(
        self, rng: np.random.Generator, options: dict[str, Any] | None = None
    ) -> RatatatState:
        """Start a game.

        Options: ``deck`` (codes, top first: 4 cards to each seat from left of the dealer, slot 0
        to 3, then the first discard, then the draw pile; only the first round is stacked, later
        rounds are reshuffled, R16), ``scores`` (game totals), ``dealer`` (R5), ``round_index``
        (0-based round to start in, so scenarios can begin in the last round).
        """
        for code in (options or {}).get("deck") or []:
            try:
                parse_card(code)
            except ConfigError as err:
                raise ConfigError(f"ratatat: reset option 'deck': {err}") from None
        options, pile_top_first, scores, dealer = parts.dealer_options(
            self, options, rng, parse_card, FULL_DECK, CARD_CODES
        )
        n = self.num_players
        round_index = check_int(
            "round_index", options.pop("round_index", 0), 0, self.num_rounds - 1
        )
        if options:
            raise ConfigError(
                f"unknown ratatat reset options {sorted(options)}; known: deck, scores, dealer, "
                f"round_index"
            )
        total = n * SLOTS_PER_SEAT
        state = RatatatState(
            num_players=n,
            max_turns=self.max_turns,
            num_rounds=self.num_rounds,
            rng=rng,
            memory=self._memory,
            scores=[int(s) for s in scores],
            dealer=dealer,
            round_index=round_index,
            slots=[0] * total,
            knowers=[0] * total,
            gens=[0] * total,
            seen_at=[0] * (n * total),
            changed_at=[0] * total,
            last_decided=[0] * n,
        )
        self._deal(state, pile_top_first)
        return state

    # ---- queries ------------------------------------------------------------------------------
    def legal_actions(self, state: RatatatState) -> list[int]:
        d = state.decision
        if state.over or d == NO_DECISION:
            return []
        if d == TURN:  # R6 A: a special on top of the discard pile cannot be taken
            return list(_LEGAL_TURN_BOTH if state.discard_pile[-1] < 10 else _LEGAL_TURN_DRAW)
        if d == TAKE_SLOT:
            return list(_LEGAL_TAKE)
        if d == DRAWN:
            return list(_LEGAL_DRAWN_SPECIAL if state.held >= 10 else _LEGAL_DRAWN_NUMBER)
        if d == DRAW_TWO_EXTRA:
            return list(_LEGAL_EXTRA_SPECIAL if state.held >= 10 else _LEGAL_EXTRA_NUMBER)
        if d == SWAP_TARGET:
            return list(_LEGAL_SWAP[state.num_players, state.decider])
        if d == PEEK_SLOT:
            return list(_LEGAL_PEEK)
        return list(_LEGAL_KNOCK)

    def potential(self, state: RatatatState, seat: int) -> float:
        """Lead over the best other seat in game totals (lower is better, R16), as a fraction
        of the most points a game can give (36 per round); public information only."""
        return parts.lead(state.scores, seat, 36.0 * state.num_rounds, lower_wins=True)

    # ---- hooks of the rollout improvement (agents/improve.py) -----------------------------------
    def round_index(self, state: RatatatState) -> int:
        return state.round_index

    def round_features(self, state: RatatatState, seat: int) -> np.ndarray:
        """``standing_features`` of the negated totals (lower wins, R16) over the most points a
        game can give, and the share of rounds still to play."""
        scale = 36.0 * state.num_rounds
        left = (state.num_rounds - state.round_index) / state.num_rounds
        negated = [-s for s in state.scores]
        return np.append(parts.standing_features(negated, seat, state.dealer, scale), left)

    def decision_name(self, state: RatatatState) -> str:
        return "game_over" if state.over else DECISION_NAMES[state.decision]

    # ---- play ---------------------------------------------------------------------------------
    def apply(self, state: RatatatState, action: int, seat: int | None = None) -> None:
        seat, action = self.checked_action(state, action, seat)
        state.decisions += 1
        t = state.decisions
        state.last_decided[seat] = t
        log = state.log
        log.append((seat, action))
        if len(log) > 24:
            del log[:12]
        d = state.decision
        if d == TURN:
            if action == TAKE_DISCARD:  # R6 A
                state.held = state.discard_pile.pop()
                state.held_public = True
                state.held_gen = -1
                state.decision = TAKE_SLOT
            else:  # R6 B
                self._draw_to_hand(state)
                state.decision = DRAWN
            return
        if d == KNOCK_CHOICE:  # R10
            if action == KNOCK:
                state.knocker = seat
            self._next_turn(state, seat)
            return
        if d == SWAP_TARGET:  # R7
            self._swap(state, seat, action - SWAP0, t)
            self._end_action(state, seat)
            return
        if d == PEEK_SLOT:  # R8
            i = seat * SLOTS_PER_SEAT + action - PEEK0
            state.knowers[i] |= 1 << seat
            state.seen_at[seat * len(state.slots) + i] = t
            self._end_action(state, seat)
            return
        # a card in hand: TAKE_SLOT, DRAWN or DRAW_TWO_EXTRA
        if action < DISCARD:  # slot K (R6 A / B)
            self._place(state, seat, action - SLOT0, t)
            self._end_action(state, seat)
        elif action == DISCARD:
            state.discard_pile.append(state.held)
            state.held = -1
            self._end_action(state, seat)
        elif action == REDRAW:  # R9: discard the extra card, the next one must be handled
            state.discard_pile.append(state.held)
            self._draw_to_hand(state)
            state.decision = DRAWN
        else:  # USE: R7-R9
            card = state.held
            state.held = -1
            state.in_use.append(card)
            if card == SWAP_CARD:
                state.decision = SWAP_TARGET
            elif card == PEEK_CARD:
                state.decision = PEEK_SLOT
            else:
                self._draw_to_hand(state)
                state.decision = DRAW_TWO_EXTRA

    # ---- internals -------------------------------------------------------------------------------
    def _deal(self, state: RatatatState, pile_top_first: list[int]) -> None:
        """R3-R5: deal 4 face-down cards to each seat from left of the dealer, turn up one card."""
        n = state.num_players
        total = n * SLOTS_PER_SEAT
        pile = pile_top_first[::-1]
        state.draw_pile = pile
        state.discard_pile = []
        state.set_aside = []
        state.in_use = []
        state.held = -1
        state.held_public = False
        state.held_gen = -1
        state.pile_gen += 1
        gen = state.pile_gen
        t = state.decisions
        slots = state.slots
        for a in range(n):
            base = ((state.dealer + 1 + a) % n) * SLOTS_PER_SEAT
            for k in range(SLOTS_PER_SEAT):
                slots[base + k] = pile.pop()
        state.knowers = [0] * total
        state.gens = [gen] * total
        state.changed_at = [t] * total
        seen_at = state.seen_at
        for s in range(n):  # R4: each seat looks at its outer slots 0 and 3
            base = s * SLOTS_PER_SEAT
            state.knowers[base] = state.knowers[base + 3] = 1 << s
            seen_at[s * total + base] = seen_at[s * total + base + 3] = t
        state.discard_pile.append(pile.pop())
        state.turns = 0
        state.played = 0
        state.knocker = -1
        state.log = []
        state.decision = TURN
        state.decider = (state.dealer + 1) % n

    def _draw(self, state: RatatatState) -> int:
        """R11: an empty draw pile is rebuilt from every discard but the top one."""
        if not state.draw_pile:
            discard = state.discard_pile
            if len(discard) < 2:  # unreachable with 66 cards and at most 24 slots
                raise RuntimeError("ratatat: no card left to draw (draw and discard piles empty)")
            rest = discard[:-1]
            order = state.rng.permutation(len(rest))
            state.draw_pile = [rest[i] for i in order]
            state.discard_pile = [discard[-1]]
            state.pile_gen += 1
        return state.draw_pile.pop()

    def _draw_to_hand(self, state: RatatatState) -> None:
        state.held = self._draw(state)
        state.held_public = False
        state.held_gen = state.pile_gen

    def _place(self, state: RatatatState, seat: int, k: int, t: int) -> None:
        """Put the card in hand into own slot ``k``; the replaced card goes face up (R6)."""
        i = seat * SLOTS_PER_SEAT + k
        state.discard_pile.append(state.slots[i])
        state.slots[i] = state.held
        state.changed_at[i] = t
        total = len(state.slots)
        if state.held_public:  # R18: a taken discard and its slot are public
            state.knowers[i] = (1 << state.num_players) - 1
            state.gens[i] = -1
            seen_at = state.seen_at
            for s in range(state.num_players):
                seen_at[s * total + i] = t
        else:  # R18: a drawn card swapped in is private; everyone else forgets the slot (R17)
            state.knowers[i] = 1 << seat
            state.gens[i] = state.held_gen
            state.seen_at[seat * total + i] = t
        state.held = -1
        state.held_public = False

    def _swap(self, state: RatatatState, seat: int, code: int, t: int) -> None:
        """R7/R17: swap two slots unseen; every seat's knowledge follows the cards."""
        k, rest = divmod(code, MAX_PLAYERS * SLOTS_PER_SEAT)
        other, j = divmod(rest, SLOTS_PER_SEAT)
        a = seat * SLOTS_PER_SEAT + k
        b = other * SLOTS_PER_SEAT + j
        slots, knowers, gens = state.slots, state.knowers, state.gens
        slots[a], slots[b] = slots[b], slots[a]
        knowers[a], knowers[b] = knowers[b], knowers[a]
        gens[a], gens[b] = gens[b], gens[a]
        state.changed_at[a] = state.changed_at[b] = t
        seen_at = state.seen_at
        total = len(slots)
        for s in range(state.num_players):
            sa, sb = s * total + a, s * total + b
            seen_at[sa], seen_at[sb] = seen_at[sb], seen_at[sa]

    def _end_action(self, state: RatatatState, seat: int) -> None:
        """A turn's action is complete: used specials go face up, then R10 / R12 decide."""
        in_use = state.in_use
        while in_use:  # innermost power first; the outermost special ends on top
            state.discard_pile.append(in_use.pop())
        state.turns += 1
        state.played |= 1 << seat
        n = state.num_players
        if state.knocker >= 0:  # R10: a last turn; the round ends before the knocker again
            if (seat + 1) % n == state.knocker:
                self._end_round(state)
                return
        elif state.turns >= state.max_turns:  # R12: as if this player had knocked and
            state.knocker = seat  # everyone had had its last turn
            self._end_round(state)
            return
        elif state.played == (1 << n) - 1:  # R10: everyone has played once
            state.decision = KNOCK_CHOICE
            state.decider = seat
            return
        self._next_turn(state, seat)

    def _next_turn(self, state: RatatatState, seat: int) -> None:
        state.decision = TURN
        state.decider = (seat + 1) % state.num_players  # R5: clockwise

    def _end_round(self, state: RatatatState) -> None:
        """R13-R16: reveal, replace specials knocker first, score, then deal again or finish."""
        n = state.num_players
        slots = state.slots
        for off in range(n):  # R14: the knocker first, then clockwise
            base = ((state.knocker + off) % n) * SLOTS_PER_SEAT
            for i in range(base, base + SLOTS_PER_SEAT):
                while slots[i] >= 10:
                    state.set_aside.append(slots[i])
                    slots[i] = self._draw(state)
        scores = [round_score(slots, s) for s in range(n)]  # R15
        for s in range(n):
            state.scores[s] += scores[s]
        state.round_scores.append(scores)
        state.last_rows = list(slots)
        state.last_knocker = state.knocker
        state.round_index += 1
        if state.round_index >= state.num_rounds:  # R16
            best = min(state.scores)
            state.winners = [s for s in range(n) if state.scores[s] == best]
            state.over = True
            state.decision = NO_DECISION
            state.decider = -1
            state.knowers = [(1 << n) - 1] * len(slots)  # R13: every card face up
            return
        state.dealer = (state.dealer + 1) % n  # R5: the next round starts one seat further
        order = state.rng.permutation(len(FULL_DECK))  # R16: all cards reshuffled
        self._deal(state, [FULL_DECK[i] for i in order])

    # ---- serialisation (the fields are declared on RatatatState) ---------------------------------
    def check_state(self, state: RatatatState, r: StateReader) -> None:
        """What ``from_dict`` refuses between fields."""
        data = r.data
        if any(c < SWAP_CARD for c in state.in_use + state.set_aside):
            raise r.error("in_use", data["in_use"], "specials only (and so for set_aside)")
        if state.over:
            self._check_over(state, r)
        else:
            self._check_running(state, r)
        if state.held < 0 and state.held_public:
            raise r.error("held_public", True, "false when no card is held")
        self._check_rounds(state, r)
        self._check_history(state, r, self._check_turn_order(state, r))

    def _check_over(self, state: RatatatState, r: StateReader) -> None:
        best = min(state.scores)
        if (
            state.decision != NO_DECISION
            or state.decider != -1
            or state.held != -1
            or state.in_use
            or state.round_index != state.num_rounds
            or state.winners != [s for s, v in enumerate(state.scores) if v == best]
        ):
            raise r.error("over", True, _ENDED)

    def _check_running(self, state: RatatatState, r: StateReader) -> None:
        data, decision, held = r.data, state.decision, state.held
        # R12 ends the round at max_turns unless someone knocked: then R10's last turns run on
        turn_cap = state.max_turns + (state.num_players - 1 if state.knocker >= 0 else 0)
        if (
            state.winners
            or state.set_aside
            or state.round_index >= state.num_rounds
            or state.turns >= turn_cap
        ):
            raise r.error(
                "over",
                False,
                "a running game has no winners, nothing set aside, round_index under "
                "num_rounds and turns under max_turns (under max_turns + num_players - 1 after "
                "a knock)",
            )
        if decision == NO_DECISION or state.decider < 0:
            raise r.error("decider", data["decider"], "a seat holding a decision")
        in_hand = decision in (TAKE_SLOT, DRAWN, DRAW_TWO_EXTRA)
        if in_hand != (held >= 0) or (held >= 0 and state.held_public != (decision == TAKE_SLOT)):
            raise r.error(
                "held",
                data["held"],
                "a card exactly in decisions take_slot (a number taken from the discard "
                "pile, held_public) and drawn_card / draw_two_extra (drawn, not public)",
            )
        if decision == TAKE_SLOT and held >= SWAP_CARD:
            raise r.error("held", data["held"], "a number card (a special cannot be taken)")
        need = {SWAP_TARGET: SWAP_CARD, PEEK_SLOT: PEEK_CARD, DRAW_TWO_EXTRA: DRAW_TWO_CARD}.get(
            decision
        )
        if (need is not None and state.in_use[-1:] != [need]) or (
            decision in (TURN, KNOCK_CHOICE, TAKE_SLOT) and state.in_use
        ):
            raise r.error("in_use", data["in_use"], f"what decision {data['decision']!r} uses")
        if decision == TURN and not state.discard_pile:
            raise r.error("discard_pile", [], "a face-up card to start a turn (R6)")
        everyone = (1 << state.num_players) - 1
        if decision == KNOCK_CHOICE and (state.knocker >= 0 or state.played != everyone):
            raise r.error(
                "knocker", data["knocker"], "null while knock is offered (everyone played)"
            )

    def _check_rounds(self, state: RatatatState, r: StateReader) -> None:
        """R13-R16 between the totals, the finished rounds and the last rows."""
        data, n, done, rows = r.data, state.num_players, state.round_scores, state.last_rows
        total = len(state.slots)
        if len(rows) != (total if done else 0) or (state.last_knocker >= 0) != bool(done):
            raise r.error(
                "last_rows",
                data["last_rows"],
                f"the {total} cards of the rows as the last finished round ended (R13) with its "
                f"knocker in last_knocker, or [] and null before any round of round_scores",
            )
        if any(c >= SWAP_CARD for c in rows):
            raise r.error("last_rows", data["last_rows"], "number cards only (R14)")
        if done and done[-1] != [round_score(rows, s) for s in range(n)]:
            raise r.error(
                "round_scores", data["round_scores"], "the last round's the sums of last_rows (R15)"
            )
        for scores in done:
            if not _round_possible(scores):
                raise r.error(
                    "round_scores",
                    data["round_scores"],
                    f"rounds whose {n} rows of four number cards one deck can deal (R1, R15)",
                )
        top = 36 * state.num_rounds
        for s in range(n):
            start = state.scores[s] - sum(row[s] for row in done)
            if not 0 <= start <= top:
                raise r.error(
                    "scores",
                    data["scores"],
                    f"the sums of round_scores plus a starting total (reset option scores) "
                    f"in 0..{top} (R15)",
                )
        if state.over and (rows != state.slots or state.last_knocker != state.knocker):
            raise r.error("last_rows", data["last_rows"], "the final rows and knocker (R13)")
        # one new draw pile a deal (R3, R16), an R11 reshuffle at most every 30 draws in play
        # (rows, hand and specials in use hold at most 31 cards) and a few at each R14
        deals = len(done) + (not state.over)
        most = 2 * deals + 4 * len(done) + state.decisions // 30
        if not deals <= state.pile_gen <= most:
            raise r.error(
                "pile_gen", state.pile_gen, f"{deals}..{most}: one pile a deal, then reshuffles"
            )
        if any(0 <= g < deals for g in state.gens):
            raise r.error("gens", data["gens"], f"-1 (public) or a pile of this round (>= {deals})")

    def _check_turn_order(self, state: RatatatState, r: StateReader) -> int | None:
        """R5, R10, R12: the seats that played, the decider and the knocker follow from the dealer
        and the turns; returns the turn after which the knock came (None: no knock)."""
        data, n, t, dealer = r.data, state.num_players, state.turns, state.dealer
        played = 0
        for j in range(min(t, n)):
            played |= 1 << (dealer + 1 + j) % n
        if state.played != played:
            raise r.error(
                "played",
                data["played"],
                f"the first {min(t, n)} seats clockwise from left of dealer {dealer} after "
                f"{t} turns (R5)",
            )
        if not state.over:
            want = (dealer + t + (state.decision != KNOCK_CHOICE)) % n
            if state.decider != want:
                raise r.error(
                    "decider",
                    data["decider"],
                    f"seat {want}, clockwise from left of dealer {dealer} after {t} turns (R5)",
                )
        knocker = state.knocker
        if knocker < 0:
            if state.over:
                raise r.error("knocker", data["knocker"], "a seat once the game is over (R10)")
            return None
        j = (dealer + t - knocker) % n  # the last turns played since the knock
        if state.over and t == state.max_turns and j == 0:
            return None  # R12: the round ended as though the last player had knocked
        k = t - j
        if not (j == n - 1 if state.over else j <= n - 2) or not n <= k < state.max_turns:
            raise r.error(
                "knocker",
                data["knocker"],
                f"null, or the seat that knocked after a turn from {n} to max_turns - 1 with "
                f"at most one more turn of every other seat since (R10, R12; dealer {dealer}, "
                f"{t} turns)",
            )
        return k

    def _check_history(self, state: RatatatState, r: StateReader, knock: int | None) -> None:
        """The log of this round's moves (cut to its last 12 past 24) against the turns and the
        decision (R6-R10), and what its moves did: when each seat last decided, when each slot's
        card last moved, who knows it and from which pile it came (R17, R18)."""
        data, n, log, now = r.data, state.num_players, state.log, state.decisions
        size, t_done, dealer = len(log), state.turns, state.dealer
        ends = sum(1 for _, a in log if _KIND[a] == _END)
        c = t_done - ends  # the turns completed before the log's first move

        def bad(why: str) -> ConfigError:
            return r.error("log", data["log"], why)

        def offered(c: int) -> bool:  # R10: knock offered after the c-th turn of the round
            return n <= c < state.max_turns and (knock is None or c <= knock)

        # the log is cut to its last 12 moves only once it passes 24; holding every decision
        # of the game, it is the whole round too
        full = size <= 12 or size == now
        if (
            size > now
            or c < 0
            or (full and c > 0)
            or (size == 0) != (t_done == 0 and state.decision == TURN)
        ):
            raise bad(
                f"the moves of this round (all of them while at most 24; {t_done} turns "
                f"completed, {now} decisions in all)"
            )
        prev = -1  # the previous move's action (-1: none, or the log is cut there)
        for p, (seat, a) in enumerate(log):
            kind = _KIND[a]
            if kind == _KNOCK:
                ok = (prev < 0 and not full or prev >= 0 and _KIND[prev] == _END) and offered(c)
                ok = ok and (a == KNOCK) == (c == knock)
                want = (dealer + c) % n
            else:
                ok = prev < 0 or _KIND[prev] != _END or not offered(c)
                if kind == _START:
                    ok = ok and (prev < 0 or _KIND[prev] in (_END, _KNOCK))
                elif prev < 0:
                    ok = ok and not full
                elif prev == TAKE_DISCARD:
                    ok = SLOT0 <= a < DISCARD
                elif prev != USE:
                    ok = ok and _KIND[prev] not in (_END, _KNOCK) and a <= USE
                want = (dealer + c + 1) % n
                if kind == _END:
                    c += 1
            if a >= SWAP0:
                other = (a - SWAP0) % (MAX_PLAYERS * SLOTS_PER_SEAT) // SLOTS_PER_SEAT
                ok = ok and other != seat and other < n
            if not ok or seat != want:
                raise bad(
                    f"moves in the order of R6-R10 (seat {want} at move {p}, a knock choice "
                    f"exactly after each turn from turn {n} on while no knock came, R10)"
                )
            prev = a
        d = state.decision
        if size:
            last = _KIND[prev]
            if d in (TURN, NO_DECISION):
                ok = last == _KNOCK or last == _END and not offered(t_done)
            elif d == KNOCK_CHOICE:
                ok = last == _END
            elif d == TAKE_SLOT:
                ok = prev == TAKE_DISCARD
            elif d == DRAWN:
                ok = prev in (DRAW, REDRAW)
            else:
                ok = prev == USE
            if not ok:
                raise bad(f"a last move that leads to decision {DECISION_NAMES[d]!r}")
        # when each seat last decided
        first = now - size + 1  # the decision number of the log's first move
        latest: dict[int, int] = {}
        for p, (seat, _) in enumerate(log):
            latest[seat] = first + p
        decided = state.last_decided
        early = now - size - _TURN_MOST * t_done  # the deal at the earliest
        # every seat played in the last n turns of a round that went round (R10, R12 at or
        # past n turns): so within this round's turns and the last n of the round before
        rotated = state.max_turns >= n and (t_done >= n or bool(state.round_scores))
        taken = [v for v in decided if v]
        if (
            any(decided[s] != latest[s] if s in latest else decided[s] >= first for s in range(n))
            or len(set(taken)) != len(taken)
            or (now and max(decided) != now)
            or any(d <= early for s, d in enumerate(decided) if state.played >> s & 1)
            or (rotated and min(decided) <= now - _TURN_MOST * (2 * n + 1))
        ):
            raise r.error(
                "last_decided", data["last_decided"], "each seat's latest decision, as in log"
            )
        self._check_moves(state, r, first, full)

    def _check_moves(self, state: RatatatState, r: StateReader, first: int, full: bool) -> None:
        """What the logged moves did to the slots (R6-R8, R17, R18) and to the card in hand."""
        data, n, log, over = r.data, state.num_players, state.log, state.over
        total = len(state.slots)
        moved: dict[int, tuple[int, int]] = {}  # slot -> (decision, 1 taken / 0 drawn / -1 other)
        peeked: dict[int, int] = {}  # slot -> decision of its owner's peek since it last moved
        hand = -2  # gen of the card in hand after the last draw / take (-2: none logged)
        newest = (-1, -1)  # (slot, decision) where the last logged draw's card went
        for p, (seat, a) in enumerate(log):
            t = first + p
            if SLOT0 <= a < DISCARD:
                i = seat * SLOTS_PER_SEAT + a - SLOT0
                before = log[p - 1][1] if p else -1
                moved[i] = (t, -1 if before < 0 else int(before == TAKE_DISCARD))
                peeked.pop(i, None)
                if before >= 0 and before != TAKE_DISCARD:
                    newest = (i, t)  # the card of the last draw so far, from pile pile_gen
            elif a >= SWAP0:
                k, rest = divmod(a - SWAP0, MAX_PLAYERS * SLOTS_PER_SEAT)
                for i in (seat * SLOTS_PER_SEAT + k, rest):
                    moved[i] = (t, -1)
                    peeked.pop(i, None)
            elif PEEK0 <= a < KNOCK:
                peeked[seat * SLOTS_PER_SEAT + a - PEEK0] = t
            if a == TAKE_DISCARD:
                hand = -1
            elif (
                a in (DRAW, REDRAW)
                or a == USE
                and (
                    log[p + 1][1] <= REDRAW
                    if p + 1 < len(log)
                    else state.decision == DRAW_TWO_EXTRA
                )
            ):
                hand = state.pile_gen
                newest = (-1, -1)
        start = first - 1  # the deal, when the log holds the whole round (full)
        low = start - _TURN_MOST * state.turns  # the deal at the earliest (any case)
        everyone = (1 << n) - 1
        changed, knowers, gens, seen = state.changed_at, state.knowers, state.gens, state.seen_at
        deal_gens = set()
        for i in range(total):
            owner = i // SLOTS_PER_SEAT
            mine = owner * total + i
            if i in moved:
                t, how = moved[i]
                ok = changed[i] == t
                if how == 1:  # R18: a taken discard and its slot are public
                    ok = ok and gens[i] == -1 and (over or knowers[i] == everyone)
                    ok = ok and all(seen[s * total + i] == t for s in range(n) if s != owner)
                elif how == 0:  # a drawn card swapped in: only its owner knows it (R17)
                    ok = ok and gens[i] >= 0 and (over or knowers[i] == 1 << owner)
                if how >= 0:
                    ok = ok and seen[mine] == peeked.get(i, t)
            else:
                ok = changed[i] == start if full else low <= changed[i] < first
                if full:
                    deal_gens.add(gens[i])
                    outer = i % SLOTS_PER_SEAT in (0, SLOTS_PER_SEAT - 1)  # R4
                    if outer or i in peeked:
                        ok = ok and seen[mine] == peeked.get(i, start)
                    ok = ok and (over or knowers[i] == (1 << owner if outer or i in peeked else 0))
            if i in peeked:
                ok = ok and seen[mine] == peeked[i] and (over or knowers[i] >> owner & 1)
            ok = ok and changed[i] >= low
            if not over:
                if gens[i] < 0:
                    ok = ok and knowers[i] == everyone
                if knowers[i]:  # when the seats that know the card saw it
                    times = [seen[s * total + i] for s in _SEATS_OF[knowers[i]]]
                    # this round (R4 starts knowledge afresh), from its deal when the log holds it
                    ok = ok and min(times) >= (start if full else low)
                    if i not in moved and i not in peeked:  # seen before the logged moves
                        ok = ok and max(times) < first
            if not ok:
                raise r.error(
                    "changed_at",
                    data["changed_at"],
                    f"slot {i} as the logged moves left it (its last move, the seats that know "
                    f"it and when they saw it in knowers / seen_at, its pile in gens; R6-R8, "
                    f"R17, R18)",
                )
        i, t = newest
        if i >= 0 and moved[i] == (t, 0) and gens[i] != state.pile_gen:
            raise r.error(
                "gens", data["gens"], f"pile {state.pile_gen} in slot {i} (the last draw)"
            )
        if len(deal_gens) > 1:
            raise r.error("gens", data["gens"], "one pile for the cards not moved since the deal")
        if over:
            return
        self._check_piles(state, r, full)
        held_gen = state.held_gen
        if state.held >= 0:
            ok = held_gen == (-1 if state.held_public else state.pile_gen)
        else:
            ok = hand == -2 and not full or held_gen == (-1 if hand == -2 else hand)
        if not ok:
            raise r.error(
                "held_gen",
                held_gen,
                "the pile of the last card drawn (pile_gen), -1 after a take or the deal",
            )

    def _check_piles(self, state: RatatatState, r: StateReader, full: bool) -> None:
        """The piles as the logged moves left them: used specials go face up on top when the
        action ends (R6 B), and while the log holds the whole round (no R11 reshuffle yet) the
        pile sizes follow from the deal (R3) and the moves."""
        data, log, d = r.data, state.log, state.decision
        if log and d in (TURN, KNOCK_CHOICE):
            p = len(log) - 1 - (_KIND[log[-1][1]] == _KNOCK)  # the last action's end
            first_use = -1
            while p > 0 and _KIND[log[p - 1][1]] != _START:
                p -= 1
                if log[p][1] == USE:
                    first_use = p
            if p > 0 and first_use >= 0:  # the whole action is logged: its first special tops
                after = log[first_use + 1][1]
                top = (
                    SWAP_CARD if after >= SWAP0 else PEEK_CARD if after >= PEEK0 else DRAW_TWO_CARD
                )
                if state.discard_pile[-1] != top:
                    raise r.error(
                        "discard_pile",
                        data["discard_pile"],
                        f"{CARD_CODES[top]} on top: the special the last action used first (R6 B)",
                    )
        if not full:
            return
        count = [0] * NUM_ACTIONS
        for _, a in log:
            count[a] += 1
        uses = count[USE]
        placed = sum(count[SLOT0 : SLOT0 + SLOTS_PER_SEAT])
        discards = 1 + placed + count[DISCARD] + count[REDRAW] + uses - len(state.in_use)
        discards -= count[TAKE_DISCARD]
        if len(state.discard_pile) != discards:  # then the draw pile holds the rest (R3)
            raise r.error(
                "discard_pile",
                data["discard_pile"],
                f"{discards} cards after the deal (R3) and the logged moves",
            )

    card_codes, full_deck = CARD_CODES, FULL_DECK  # deck_codes()

    def hidden_positions(self, state: RatatatState, seat: int) -> dict[int, list[int]]:
        """Where ``seat`` cannot see the card, grouped by draw-pile generation.

        Positions: ``i >= 0`` is slot ``i``; ``-1`` the card in another player's hand; ``-2 - j``
        the draw pile's ``j``-th card from the bottom. Within a generation the seat knows the
        multiset of the hidden cards but nothing about their order (R17, R18).
        """
        groups: dict[int, list[int]] = {}
        sees_all = state.over or state.memory == SEER
        if not sees_all:
            bit = 1 << seat
            for i, g in enumerate(state.gens):
                if not state.knowers[i] & bit:
                    groups.setdefault(g, []).append(i)
        if visible_held(state, seat) < 0 and state.held >= 0:
            groups.setdefault(state.held_gen, []).append(-1)
        if state.draw_pile:
            groups.setdefault(state.pile_gen, []).extend(
                -2 - j for j in range(len(state.draw_pile))
            )
        return groups

    def resample_hidden(
        self, state: RatatatState, seat: int, rng: np.random.Generator
    ) -> RatatatState:
        """Redraw every card ``seat`` does not know (other seats' and its own unknown slots,
        another player's drawn card, the draw pile) within its generation, and the generator."""
        clone = self.clone(state, rng=np.random.default_rng(int(rng.integers(2**63))))
        for positions in self.hidden_positions(clone, seat).values():
            cards = sorted(_get(clone, p) for p in positions)  # canonical order, then shuffled
            order = rng.permutation(len(cards))
            for p, idx in zip(positions, order, strict=True):
                _put(clone, p, cards[idx])
        return clone


def _get(state: RatatatState, position: int) -> int:
    if position >= 0:
        return state.slots[position]
    if position == -1:
        return state.held
    return state.draw_pile[-2 - position]


def _put(state: RatatatState, position: int, card: int) -> None:
    if position >= 0:
        state.slots[position] = card
    elif position == -1:
        state.held = card
    else:
        state.draw_pile[-2 - position] = card
