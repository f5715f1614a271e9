"""The Game: the pure rules engine (rule ids G1-G11 of ``docs/rules/thegame.md``).

Cards are their own values (ints 2..99, G1); a card's code is its value as text. Piles 0 and 1
build upwards from 1, piles 2 and 3 downwards from 100 (G1). One decision kind only, the turn of
the current player (G4), named after what it still owes:

=================  ===========================================================================
decision           legal actions
=================  ===========================================================================
``play``           ``play C P`` for every card C in hand that pile P takes (G5); the player has
                   played fewer cards than its minimum this turn (G4)
``play_or_end``    the same plays, and ``end`` (minimum met, G4)
(both)             with ``signals`` on: ``signal P none|wait|help`` for each pile P whose own
                   signal the player has not changed yet this turn, to a different value (G11)
=================  ===========================================================================

The engine advances on its own through everything the rules decide: drawing back up after ``end``
(G6), skipping players without cards (G7), the win the moment the 98th card is placed (G8) and the
loss the moment the current player owes cards and no card in its hand fits any pile (G9; at the
start of a turn or after a play, no look-ahead).

Actions (``NUM_ACTIONS`` = 405, the same for every option so one policy serves all tables):

=================  ================  =====================================================
action             index             text
=================  ================  =====================================================
play card C, P     ``(C-2)*4 + P``   ``play C P`` (C in 2..99, P in 0..3)
end the turn       ``392``           ``end``
signal             ``393 + 3P + V``  ``signal P none|wait|help`` (V = 0, 1, 2)
=================  ================  =====================================================

Return (shared, G8/G10): every seat's return is ``cards on the piles / 98``, so each card placed
adds 1/98 for every agent and a won game returns 1.0.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardarena.envs.core import engine_parts as parts
from cardarena.envs.core import state_fields as sf
from cardarena.envs.core.engine import GameEngine
from cardarena.envs.core.errors import ConfigError, IllegalActionError, check_int
from cardarena.envs.core.state_io import StateReader

# ---- cards and piles (G1) -------------------------------------------------------------------
LOWEST, HIGHEST = 2, 99
NUM_CARDS = HIGHEST - LOWEST + 1  # 98
FULL_DECK: list[int] = list(range(LOWEST, HIGHEST + 1))
#: index = card value; codes "2".."99" (0, 1, 100 are foundation values, never cards)
CARD_CODES: list[str] = [str(v) for v in range(HIGHEST + 2)]
CODE_TO_CARD: dict[str, int] = {CARD_CODES[v]: v for v in FULL_DECK}
NUM_PILES = 4
ASCENDING = (True, True, False, False)
FOUNDATIONS = (1, 1, 100, 100)
BACKWARDS_STEP = 10  # G5: the backwards trick

# ---- hand sizes (G2), minimum plays (G4) --------------------------------------------------------
MAX_PLAYERS = 5
HAND_SIZES = {1: 8, 2: 7, 3: 6, 4: 6, 5: 6}
MIN_CARDS = 2

# ---- signals (G11) --------------------------------------------------------------------------------
NONE, WAIT, HELP = 0, 1, 2
SIGNAL_NAMES = ["none", "wait", "help"]

# ---- actions ----------------------------------------------------------------------------------------
END = NUM_CARDS * NUM_PILES  # 392
SIGNAL0 = END + 1  # 393
NUM_ACTIONS = SIGNAL0 + NUM_PILES * len(SIGNAL_NAMES)  # 405


def play_action(card: int, pile: int) -> int:
    """The action placing ``card`` on ``pile``."""
    return (card - LOWEST) * NUM_PILES + pile


def signal_action(pile: int, value: int) -> int:
    return SIGNAL0 + pile * 3 + value


def fits(card: int, pile: int, top: int) -> bool:
    """G5: higher on an ascending pile, lower on a descending one, or exactly 10 the other way."""
    if pile < 2:
        return card > top or card == top - BACKWARDS_STEP
    return card < top or card == top + BACKWARDS_STEP


def can_play(hand: list[int], tops: list[int]) -> bool:
    """Whether some card of the (sorted) ``hand`` fits some pile (G5)."""
    if not hand:
        return False
    t0, t1, t2, t3 = tops
    if hand[-1] > (t0 if t0 < t1 else t1) or hand[0] < (t2 if t2 > t3 else t3):
        return True
    for c in hand:
        if c == t0 - 10 or c == t1 - 10 or c == t2 + 10 or c == t3 + 10:
            return True
    return False


def _closest_fit(card: int, tops: list[int]) -> int:
    """How far ``card`` lands from the top of the pile it fits best (G5): 0 for the backwards
    trick, else the values skipped plus one; above NUM_CARDS when it fits no pile."""
    best = NUM_CARDS + 1
    for p, top in enumerate(tops):
        if card == top + (BACKWARDS_STEP if p >= 2 else -BACKWARDS_STEP):
            return 0
        gap = card - top if p < 2 else top - card
        if 0 < gap < best:
            best = gap
    return best


class _Piles(sf.List):
    """The four piles, each a legal G5 build from its foundation (``_parse_piles``)."""

    def load(self, c: sf.Loading, key: str, value: Any) -> list[list[int]]:
        try:
            return _parse_piles(c.r.rows(key, NUM_PILES, value))
        except ConfigError as err:
            raise ConfigError(f"thegame state: field {key!r}: {err}") from None


def _cards(**bounds: Any) -> sf.Cards:
    return sf.Cards(CARD_CODES, CODE_TO_CARD, lambda code: parse_card(code), **bounds)


@sf.state_fields
@dataclass(slots=True)
class TheGameState:
    """Everything about one game. ``tops`` mirrors the last card of each pile (or its foundation)."""

    num_players: int
    hand_size: int
    min_cards_when_empty: int
    signals_on: bool
    rng: np.random.Generator
    hands: list[list[int]]  # per seat, sorted ascending (order carries no information)
    draw_pile: list[int]  # top of the pile is the END of the list (pop())
    piles: list[list[int]]  # per pile, cards placed in order (the foundation card excluded)
    tops: list[int]
    current: int
    minimum: int  # cards the current player owes this turn (G4), fixed at the start of the turn
    played_this_turn: int = 0
    signals: list[list[int]] = field(default_factory=list)  # per seat, per pile (G11)
    signal_changed: list[bool] = field(default_factory=lambda: [False] * NUM_PILES)
    on_piles: int = 0
    over: bool = False
    won: bool = False
    turn_index: int = 0
    decisions: int = 0

    #: the saved form: to_dict writes these fields in this order (after game, num_players)
    FIELDS = sf.declare(
        hand_size=sf.Int(lambda s: HAND_SIZES[s.num_players], lambda s: HAND_SIZES[s.num_players]),
        min_cards_when_empty=sf.Int(1, 2),
        signals_on=sf.Bool(),
        scores=sf.Derived(lambda game, s: [NUM_CARDS - s.on_piles] * s.num_players),
        winners=sf.Derived(lambda game, s: game.winners(s)),
        current_player=sf.Derived(lambda game, s: game.current_player(s)),
        decision=sf.Derived(lambda game, s: game.decision_name(s)),
        draw_pile=_cards(max_len=NUM_CARDS, reverse=True, zone="draw_pile", zone_as_saved=True),
        discard_pile=sf.Derived(
            lambda game, s: []
        ),  # thegame discards nothing: cards stay on the piles
        piles=_Piles(_cards(), zone="pile_{}"),
        tops=sf.Derived(lambda game, s: list(s.tops)).of("tops"),
        hands=sf.List(_cards(max_len=lambda s: s.hand_size), length=sf.N, zone="hand_{}"),
        current=sf.Seat(none=-1),
        minimum=sf.Int(0, MIN_CARDS),
        played_this_turn=sf.Int(0, NUM_CARDS),
        signals=sf.List(sf.List(sf.Choice(SIGNAL_NAMES), length=NUM_PILES), length=sf.N),
        signal_changed=sf.Bools(NUM_PILES),
        over=sf.Bool(),
        won=sf.Bool(),
        turn_index=sf.Int(0, 10**9),
        decisions=sf.Int(0, 10**12),
        rng=sf.Rng(),
        on_piles=sf.Cache(),
    )


def describe_action(action: int) -> str:
    """``play C P``, ``end``, ``signal P none|wait|help`` (the rules file's texts)."""
    action = int(action)
    if 0 <= action < END:
        return f"play {(action >> 2) + LOWEST} {action & 3}"
    if action == END:
        return "end"
    if SIGNAL0 <= action < NUM_ACTIONS:
        pile, value = divmod(action - SIGNAL0, 3)
        return f"signal {pile} {SIGNAL_NAMES[value]}"
    raise IllegalActionError(f"thegame has actions 0..{NUM_ACTIONS - 1}; got {action}")


def parse_action(text: str) -> int:
    words = str(text).strip().lower().split()
    if words == ["end"]:
        return END
    if len(words) == 3 and words[0] == "play" and words[1].isdigit() and words[2].isdigit():
        card, pile = int(words[1]), int(words[2])
        if LOWEST <= card <= HIGHEST and pile < NUM_PILES:
            return play_action(card, pile)
    if len(words) == 3 and words[0] == "signal" and words[1].isdigit():
        pile = int(words[1])
        if pile < NUM_PILES and words[2] in SIGNAL_NAMES:
            return signal_action(pile, SIGNAL_NAMES.index(words[2]))
    raise IllegalActionError(
        f"cannot parse thegame action {text!r}; expected 'play C P' (card C in "
        f"{LOWEST}..{HIGHEST}, pile P in 0..3), 'end', or 'signal P none|wait|help'"
    )


class TheGame(GameEngine[TheGameState], describe=describe_action, parse=parse_action):
    """The Game for 1-5 players (options ``num_players``, ``first_player`` (G3),
    ``min_cards_when_empty`` (G4), ``signals`` (G11))."""

    name = "thegame"
    num_actions = NUM_ACTIONS
    min_players = 1
    max_players = MAX_PLAYERS
    reward_kind = "shared"

    def __init__(
        self,
        num_players: int = 2,
        first_player: int = 0,
        min_cards_when_empty: int = 1,
        signals: bool = False,
    ) -> None:
        self.num_players = check_int("num_players", num_players, self.min_players, self.max_players)
        self.first_player = check_int("first_player", first_player, 0, self.num_players - 1)
        self.min_cards_when_empty = check_int("min_cards_when_empty", min_cards_when_empty, 1, 2)
        if not isinstance(signals, bool | np.bool_):
            raise ConfigError(f"signals must be True or False, got {signals!r}")
        self.signals = bool(signals)
        self.hand_size = HAND_SIZES[self.num_players]

    # ---- set-up ----------------------------------------------------------------------------
    def new_game(
        self, rng: np.random.Generator, options: dict[str, Any] | None = None
    ) -> TheGameState:
        """Deal a game (G2). Options: ``deck`` (codes, top first: hands in seat order from seat 0,
        a full hand each, then the draw pile), ``first_player`` (G3) and, for scenarios, ``piles``
        (four lists of codes already placed, each a legal G5 build; those cards leave the deck)."""
        options = dict(options or {})
        n = self.num_players
        top = []
        for i, code in enumerate(options.pop("deck", None) or []):
            try:
                top.append(parse_card(code))
            except ConfigError as err:
                raise ConfigError(f"thegame reset option 'deck': card {i}: {err}") from None
        first = check_int("first_player", options.pop("first_player", self.first_player), 0, n - 1)
        try:
            piles = _parse_piles(options.pop("piles", None))
        except ConfigError as err:
            raise ConfigError(f"thegame reset option 'piles': {err}") from None
        if options:
            raise ConfigError(
                f"unknown thegame reset options {sorted(options)}; known: deck, first_player, piles"
            )
        placed = {c: p for p, pile in enumerate(piles) for c in pile}
        for card in top:
            if card in placed:
                raise ConfigError(
                    f"thegame reset option 'deck': card {CARD_CODES[card]!r} is on pile "
                    f"{placed[card]} (option 'piles'); the deck holds the cards not on the piles"
                )
        deck = [c for c in FULL_DECK if c not in placed] if placed else FULL_DECK
        return self._deal(rng, deck, piles, first, top)

    def _deal(
        self,
        rng: np.random.Generator,
        deck: list[int],
        piles: list[list[int]],
        first: int,
        top: list[int],
    ) -> TheGameState:
        n = self.num_players
        order = parts.stack_deck(deck, top, rng, CARD_CODES)  # top first
        hands: list[list[int]] = []
        at = 0
        for _ in range(n):
            hand = order[at : at + self.hand_size]
            at += len(hand)
            hands.append(sorted(hand))
        state = TheGameState(
            num_players=n,
            hand_size=self.hand_size,
            min_cards_when_empty=self.min_cards_when_empty,
            signals_on=self.signals,
            rng=rng,
            hands=hands,
            draw_pile=order[at:][::-1],
            piles=piles,
            tops=[pile[-1] if pile else FOUNDATIONS[p] for p, pile in enumerate(piles)],
            current=first,
            minimum=0,
            signals=[[NONE] * NUM_PILES for _ in range(n)],
            on_piles=sum(len(p) for p in piles),
        )
        if state.on_piles == NUM_CARDS:  # a scenario with every card placed: already won
            state.over = state.won = True
            state.current = -1
            return state
        self._start_turn(state, first)
        return state

    # ---- queries ------------------------------------------------------------------------------
    def current_player(self, state: TheGameState) -> int | None:
        return None if state.over else state.current

    def legal_actions(self, state: TheGameState) -> list[int]:
        if state.over:
            return []
        seat = state.current
        t0, t1, t2, t3 = state.tops
        out: list[int] = []
        append = out.append
        for c in state.hands[seat]:
            b = (c - LOWEST) << 2
            if c > t0 or c == t0 - 10:
                append(b)
            if c > t1 or c == t1 - 10:
                append(b + 1)
            if c < t2 or c == t2 + 10:
                append(b + 2)
            if c < t3 or c == t3 + 10:
                append(b + 3)
        if state.played_this_turn >= state.minimum:
            append(END)
        if state.signals_on:
            mine = state.signals[seat]
            for p in range(NUM_PILES):
                if not state.signal_changed[p]:
                    for v in range(3):
                        if v != mine[p]:
                            append(SIGNAL0 + p * 3 + v)
        return out

    def state_features(self, state: Any, seat: int) -> np.ndarray:
        """What decides how many more cards reach the piles, the input of the search's learned
        state value (``agents/search/leaf.py``; the return is shared, so ``seat`` changes
        nothing): the cards on the piles, each pile's room left, the draw pile's size, this
        turn's plays and minimum; of the cards not yet played (hands and draw pile) how many fit
        no pile now, how close they fit on average, and per hand (in turn order from the player
        to move) its size, its closest fit and its cards that fit within 3 or by the backwards
        trick. Reads only attributes, so a native state works too."""
        tops = state.tops
        hands = state.hands
        n = state.num_players
        rest = [c for hand in hands for c in hand] + list(state.draw_pile)
        x: list[float] = [state.on_piles / NUM_CARDS, len(state.draw_pile) / NUM_CARDS]
        x += [(100 - t if ASCENDING[p] else t - 1) / 99 for p, t in enumerate(tops)]
        x += [state.played_this_turn / HAND_SIZES[n], state.minimum / MIN_CARDS]
        gaps = [_closest_fit(c, tops) for c in rest]
        dead = sum(1 for g in gaps if g > NUM_CARDS)
        fitting = [g for g in gaps if g <= NUM_CARDS]
        x += [dead / NUM_CARDS, (sum(fitting) / len(fitting) / 99) if fitting else 1.0]
        current = state.current if state.current >= 0 else 0
        for k in range(n):
            hand = hands[(current + k) % n]
            near = [_closest_fit(c, tops) for c in hand]
            best = min(near) if near else 99
            x += [len(hand) / HAND_SIZES[n], min(best, 99) / 99]
            x.append(sum(1 for g in near if g <= 3) / HAND_SIZES[n])
        return np.asarray(x, dtype=np.float32)

    def returns(self, state: TheGameState) -> list[float]:
        """Shared: the fraction of the 98 cards on the piles so far, for every seat (G8, G10)."""
        return [state.on_piles / NUM_CARDS] * state.num_players

    def scores(self, state: TheGameState) -> list[float]:
        """G10: cards not played (hands + draw pile), the team score of every seat; lower is better."""
        return [float(NUM_CARDS - state.on_piles)] * state.num_players

    def winners(self, state: TheGameState) -> list[int]:
        return list(range(state.num_players)) if state.won else []

    def decision_name(self, state: TheGameState) -> str:
        if state.over:
            return "game_over"
        return "play" if state.played_this_turn < state.minimum else "play_or_end"

    # ---- play ---------------------------------------------------------------------------------
    def apply(self, state: TheGameState, action: int, seat: int | None = None) -> None:
        if state.over or (seat is not None and seat != state.current):
            self.check_turn(state, seat)  # raises
        seat = state.current
        action = int(action)
        if 0 <= action < END:  # G4/G5: one card onto one pile
            card, pile = (action >> 2) + LOWEST, action & 3
            hand = state.hands[seat]
            top = state.tops[pile]
            if pile < 2:  # fits(), inlined
                ok = card > top or card == top - BACKWARDS_STEP
            else:
                ok = card < top or card == top + BACKWARDS_STEP
            if not ok or card not in hand:
                raise self.illegal(state, action)
            hand.remove(card)
            state.piles[pile].append(card)
            state.tops[pile] = card
            state.played_this_turn += 1
            state.on_piles += 1
            state.decisions += 1
            if state.on_piles == NUM_CARDS:  # G8: won
                state.over = state.won = True
                state.current = -1
            elif state.played_this_turn < state.minimum and not can_play(hand, state.tops):
                state.over = True  # G9: owes cards, none fits (no look-ahead)
                state.current = -1
            return
        if action == END:
            if state.played_this_turn < state.minimum:
                raise self.illegal(state, action)
            state.decisions += 1
            self._end_turn(state, seat)
            return
        if state.signals_on and SIGNAL0 <= action < NUM_ACTIONS:  # G11
            pile, value = divmod(action - SIGNAL0, 3)
            if state.signal_changed[pile] or state.signals[seat][pile] == value:
                raise self.illegal(state, action)
            state.signals[seat][pile] = value
            state.signal_changed[pile] = True
            state.decisions += 1
            return
        raise self.illegal(state, action)

    # ---- internals -------------------------------------------------------------------------------
    def _end_turn(self, state: TheGameState, seat: int) -> None:
        """G6: draw back up while the draw pile lasts; G7: the next seat holding cards plays."""
        hand, draw = state.hands[seat], state.draw_pile
        need = state.hand_size - len(hand)
        while need > 0 and draw:
            insort(hand, draw.pop())
            need -= 1
        n = state.num_players
        nxt = (seat + 1) % n
        while not state.hands[nxt]:  # some seat holds cards: the game is not won (G8)
            nxt = (nxt + 1) % n
        state.turn_index += 1
        self._start_turn(state, nxt)

    def _start_turn(self, state: TheGameState, seat: int) -> None:
        """G4: the minimum is fixed for the turn; G9: lost at once when nothing fits."""
        if not state.hands[seat]:  # G7 (only reachable from a scenario deal)
            n = state.num_players
            while not state.hands[seat]:
                seat = (seat + 1) % n
        state.current = seat
        state.played_this_turn = 0
        state.minimum = MIN_CARDS if state.draw_pile else state.min_cards_when_empty
        state.signal_changed = [False] * NUM_PILES
        if not can_play(state.hands[seat], state.tops):
            state.over = True
            state.current = -1

    # ---- serialisation (the fields are declared on TheGameState) ---------------------------------
    def check_state(self, state: TheGameState, r: StateReader) -> None:
        """What ``from_dict`` refuses between fields; rebuilds ``tops`` and ``on_piles``.

        A state is refused unless some history of the rules leads to it, a scenario deal
        (reset options ``piles``, ``deck``, ``first_player``) included: the piles below the
        cards played may have been placed by the scenario, so the counters give ranges, not
        exact values (``_check_counters``). Everything here is O(size of the state)."""
        data, hands, current, played = r.data, state.hands, state.current, state.played_this_turn
        for s, hand in enumerate(hands):  # to_dict writes every hand sorted (no information)
            if any(a > b for a, b in zip(hand, hand[1:], strict=False)):
                raise r.error(f"hands[{s}]", data["hands"][s], "its cards in ascending order")
        state.on_piles = sum(len(p) for p in state.piles)
        state.tops = [pile[-1] if pile else FOUNDATIONS[p] for p, pile in enumerate(state.piles)]
        over, won, hs = state.over, state.won, state.hand_size
        if won != (state.on_piles == NUM_CARDS) or (won and not over):
            raise r.error("won", won, f"true exactly when all {NUM_CARDS} cards are on the piles")
        if over != (current == -1):
            raise r.error("current", current, "-1 exactly when the game is over")
        # G4: the minimum is fixed when a turn starts; the draw pile only shrinks when a turn
        # ends (G6), so it is 2 exactly while the pile lasts. 0 only for a scenario dealt won.
        dealt_won = won and state.decisions == 0
        minimum = 0 if dealt_won else MIN_CARDS if state.draw_pile else state.min_cards_when_empty
        if state.minimum != minimum:
            raise r.error(
                "minimum",
                state.minimum,
                f"{minimum} (G4: 2 while the draw pile lasts, then min_cards_when_empty; 0 only "
                f"for a game dealt already won)",
            )
        if not state.signals_on:  # G11: no signal without the option
            for s, mine in enumerate(state.signals):
                if any(mine):
                    raise r.error(f"signals[{s}]", data["signals"][s], "all 'none' (signals off)")
            if any(state.signal_changed):
                raise r.error("signal_changed", data["signal_changed"], "all false (signals off)")
        if not over:
            self._check_running(state, r)
        elif not won:
            self._check_lost(state, r)
        elif not dealt_won and not 1 <= played <= hs:  # G8: the 98th card won during a turn
            raise r.error(
                "played_this_turn", played, f"1..{hs} (the turn that placed the last card)"
            )
        self._check_counters(state, r)

    def _check_running(self, state: TheGameState, r: StateReader) -> None:
        hands, current, played, hs = (
            state.hands,
            state.current,
            state.played_this_turn,
            state.hand_size,
        )
        if state.draw_pile:  # G6: everyone drew back up while the draw pile lasted
            for s, hand in enumerate(hands):
                want = hs - (played if s == current else 0)
                if len(hand) != want:
                    raise r.error(
                        f"hands[{s}]",
                        r.data["hands"][s],
                        f"{want} cards (a full hand, less what the current seat played this "
                        f"turn, while the draw pile lasts)",
                    )
        elif len(hands[current]) + played > hs:  # the turn began with at most a full hand
            raise r.error(
                "played_this_turn",
                played,
                f"at most {hs - len(hands[current])} (a hand of {hs} at most when the turn "
                f"began, {len(hands[current])} still held)",
            )
        if played < state.minimum and not can_play(hands[current], state.tops):
            raise r.error(
                "current",
                current,
                "a seat that owes cards and has one that fits (G9 ends the game otherwise)",
            )

    def _check_lost(self, state: TheGameState, r: StateReader) -> None:
        """G9: the game was lost by a seat that still owed cards and had none that fits, at the
        start of its turn (nothing played yet, its signals not yet changed) or after a play."""
        hands, played, hs, data = state.hands, state.played_this_turn, state.hand_size, r.data
        if played >= state.minimum:
            raise r.error(
                "played_this_turn",
                played,
                f"fewer than the minimum {state.minimum} (G9: a game is lost by a seat that owes "
                f"cards)",
            )
        if played == 0 and any(state.signal_changed):
            raise r.error(
                "signal_changed",
                data["signal_changed"],
                "all false (the game was lost as the turn began, before any signal)",
            )
        if state.draw_pile:  # G6: full hands, less the one card the stuck seat played
            short = [s for s, hand in enumerate(hands) if len(hand) != hs]
            if len(short) != (1 if played else 0) or (
                short and len(hands[short[0]]) != hs - played
            ):
                s = short[0] if short else 0
                raise r.error(
                    f"hands[{s}]",
                    data["hands"][s],
                    f"hands of {hs} cards (the stuck seat {hs - played}) while the draw pile lasts",
                )
        for hand in hands:
            if _stuck(hand, played, hs, state.tops):
                return  # the seat that got stuck
        raise r.error(
            "over",
            True,
            "a lost game only where some seat holds no card that fits (G9), after at most "
            f"{played} played this turn",
        )

    def _check_counters(self, state: TheGameState, r: StateReader) -> None:
        """``decisions`` = plays + ended turns (``turn_index``) + signal changes (G11). Each ended
        turn placed at least its minimum (2 while the draw pile lasted, G4) and at most a hand
        (G2); the plays are at most the cards on the piles (a scenario placed the rest)."""
        hs, T, played = state.hand_size, state.turn_index, state.played_this_turn
        if played > state.on_piles:
            raise r.error(
                "played_this_turn", played, f"at most the {state.on_piles} cards on the piles"
            )
        # while the draw pile lasts every turn places 2 (G4); once it is gone, min_cards_when_empty
        least = played + MIN_CARDS * T
        if not state.draw_pile and state.min_cards_when_empty == 1:
            least -= min(T, self._turns_since_the_draw_pile(state))
        if least > state.on_piles:
            raise r.error(
                "turn_index",
                T,
                f"fewer ended turns ({least - played} cards placed at least, with {played} this "
                f"turn, but {state.on_piles} on the piles; G4)",
            )
        most = min(state.on_piles, played + hs * T)  # a hand at most each turn (G2)
        changes = self._signal_changes(state, r) if state.signals_on else 1
        low, high = state.decisions - T - most, state.decisions - T - least
        if high < 0 or not changes >> max(0, low) & ((1 << (high - max(0, low) + 1)) - 1):
            fewest = (changes & -changes).bit_length() - 1
            raise r.error(
                "decisions",
                state.decisions,
                f"cards played ({least}..{most}: each ended turn placed 2 while the draw pile "
                f"lasted, G4, a hand at most, G2, and at most the {state.on_piles} cards on the "
                f"piles) + {T} ended turns + signal changes ({fewest}..{changes.bit_length() - 1}"
                f", G11)",
            )

    @staticmethod
    def _turns_since_the_draw_pile(state: TheGameState) -> int:
        """The most ended turns that can have begun with the draw pile gone (each placed a card
        at least, G4, and nobody draws any more, G6): a seat placed at most what its hand lacks
        since (less this turn's cards). Going back from the current seat the turns went round
        (G3); only a seat without cards now may have been passed over (G7), so a seat holding
        cards that lacks none stops the count there."""
        hands, hs, played = state.hands, state.hand_size, state.played_this_turn
        lacks = [hs - len(h) for h in hands]
        if state.over:  # the last seat unknown: only the cards lacking bound it
            return max(0, sum(lacks) - played)
        n, current = state.num_players, state.current
        lacks[current] -= played
        back = [(current - i) % n for i in range(1, n + 1)]  # current-1, current-2, ..., current
        holding = [s for s in back if hands[s] or s == current]
        m = len(holding)
        rounds = min(i + lacks[s] * m for i, s in enumerate(holding))
        return rounds + sum(lacks[s] for s in back if s not in holding)

    def _signal_changes(self, state: TheGameState, r: StateReader) -> int:
        """The numbers of signal changes (G11) that can lead to the signals shown, as a bit set
        (bit q: q changes). A signal changes at most once a turn, only in its owner's turn,
        always to another value: one at ``none`` changed 0 or at least 2 times, another at
        least once, one changed this turn from another value. The turns of each seat: going
        back from the current seat they went round the table, and only a seat without cards
        now may have been passed over (G7; nobody while the draw pile lasts)."""
        n, T, current, changed = (
            state.num_players,
            state.turn_index,
            state.current,
            state.signal_changed,
        )
        hands = state.hands
        if state.over:  # T + 1 turns with the last, whose seat is not saved
            turns = [-(-(T + 1) // n) if state.draw_pile else T + 1] * n
        else:
            back = [(current - i) % n for i in range(1, n + 1)]  # current-1, ..., current
            holding = [s for s in back if hands[s] or s == current]
            m = len(holding)
            passed = (T - 1) // (m + 1) + 1 if T else 0  # once a round, a round of m + 1
            turns = [passed] * n
            for i, s in enumerate(holding):  # the i-th holding seat: turns i, i + m, ... < T
                turns[s] = -(-(T - i) // m) if T > i else 0
        bits = 1
        for s, mine in enumerate(state.signals):
            for p, v in enumerate(mine):
                most = turns[s]
                if s == current and changed[p]:  # this turn's change, from another value
                    least, most, gap = (2 if v == NONE else 1), most + 1, False
                else:
                    least, gap = (0, True) if v == NONE else (1, False)
                if least > most:
                    raise r.error(
                        f"signals[{s}]",
                        r.data["signals"][s],
                        f"signals seat {s} can have set in its {turns[s]} turn(s) so far (G11: "
                        f"one change per pile a turn, to another value)",
                    )
                if gap:  # 0, or 2 and more (away and back)
                    bits = bits | (_spread(bits, 2, most) if most >= 2 else 0)
                else:
                    bits = _spread(bits, least, most)
        if state.over:  # the last turn's changes are the saved ones
            bits &= ~((1 << sum(changed)) - 1)
        return bits

    card_codes, full_deck = CARD_CODES, FULL_DECK  # deck_codes()

    def resample_hidden(
        self, state: TheGameState, seat: int, rng: np.random.Generator
    ) -> TheGameState:
        """Other hands and the draw pile are one unseen pool for ``seat``: redeal it keeping every
        hand size and the draw-pile size; the generator is replaced too.

        A running game also tells ``seat`` that a current player who still owes cards holds one
        that fits (G9 would have ended it otherwise): deals that break this are drawn again
        (rejection sampling, so the deal is uniform among those consistent with it). A lost game
        tells it that some seat was stuck (G9): unless ``seat`` itself holds such a hand, the
        other seat that can have been stuck with the fewest cards (hand sizes and the unseen
        cards are public) is dealt its cards among those that fit no pile, the rest as above
        (so ``from_dict`` accepts the copy; not weighted by how likely each such seat was).
        Older G9 checks, on hands since changed, are not conditioned on."""
        clone = self.clone(state, rng=np.random.default_rng(int(rng.integers(2**63))))
        others = [s for s in range(clone.num_players) if s != seat]
        base = list(clone.draw_pile)
        for s in others:
            base.extend(clone.hands[s])
        base.sort()  # canonical order first: the copy owes nothing to the true arrangement
        current = clone.current
        owes = (
            not clone.over
            and current != seat
            and current in others
            and clone.played_this_turn < clone.minimum
        )
        stuck, stuck_hand = -1, []
        hands, played, hs, tops = clone.hands, clone.played_this_turn, clone.hand_size, clone.tops
        if clone.over and not clone.won and not _stuck(hands[seat], played, hs, tops):
            unfit = [c for c in base if not can_play([c], tops)]
            could = [
                s
                for s in others
                if len(hands[s]) <= len(unfit)
                and (hands[s] or played)
                and len(hands[s]) + played <= hs
            ]
            if could:
                stuck = min(could, key=lambda s: len(hands[s]))
                picked = rng.permutation(len(unfit))[: len(hands[stuck])]
                stuck_hand = sorted(unfit[i] for i in picked)
                taken = set(stuck_hand)
                base = [c for c in base if c not in taken]
        for _ in range(100_000):
            pool = [base[i] for i in rng.permutation(len(base))]
            at = 0
            for s in others:
                if s == stuck:
                    clone.hands[s] = list(stuck_hand)
                    continue
                k = len(clone.hands[s])
                clone.hands[s] = sorted(pool[at : at + k])
                at += k
            clone.draw_pile = pool[at:]
            if not owes or can_play(clone.hands[current], clone.tops):
                return clone
        raise RuntimeError("thegame: no deal of the unseen cards lets the current player move")


def _stuck(hand: list[int], played: int, hand_size: int, tops: list[int]) -> bool:
    """Whether a seat with ``hand`` can be the one a lost game stopped at (G9): it held at most
    a full hand when the turn began, played ``played`` cards, and none of its cards fits."""
    return bool(hand or played) and len(hand) + played <= hand_size and not can_play(hand, tops)


def _spread(bits: int, low: int, high: int) -> int:
    """The bit set ``{a + k : a in bits, low <= k <= high}``."""
    out, width, covered = bits << low, high - low, 1
    while covered <= width:
        step = min(covered, width + 1 - covered)
        out |= out << step
        covered += step
    return out


# ---- option parsing ---------------------------------------------------------------------------------
def parse_card(code: Any) -> int:
    """A card code (exactly ``"2"`` .. ``"99"``, or the int) as its value; ConfigError otherwise
    (so ``" 5"``, ``"05"`` or a digit of another script such as ``"٣"`` are no codes)."""
    if isinstance(code, int | np.integer) and not isinstance(code, bool):
        value = int(code)
    else:
        value = CODE_TO_CARD.get(code, -1) if isinstance(code, str) else -1
    if not LOWEST <= value <= HIGHEST:
        raise ConfigError(
            f"unknown thegame card code {_shown(code)}; cards are the numbers {LOWEST}..{HIGHEST} "
            f"written as such (1 and 100 are the foundations, not cards)"
        )
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _parse_piles(piles: Any) -> list[list[int]]:
    """The ``piles`` scenario option (and saved field): four lists of card codes, bottom first,
    each a legal G5 build from its foundation (a card higher on piles 0-1, lower on 2-3, or
    exactly 10 the other way), no card twice."""
    if piles is None:
        return [[] for _ in range(NUM_PILES)]
    if not isinstance(piles, list | tuple) or len(piles) != NUM_PILES:
        raise ConfigError(
            f"{_shown(piles)}; allowed: a list of {NUM_PILES} lists of card codes (bottom first)"
        )
    out: list[list[int]] = []
    seen: set[int] = set()
    for p, cards in enumerate(piles):
        if not isinstance(cards, list | tuple):
            raise ConfigError(f"pile {p} is {_shown(cards)}; allowed: a list of card codes")
        top = FOUNDATIONS[p]
        pile = []
        for i, code in enumerate(cards):
            if not isinstance(code, str):
                raise ConfigError(
                    f"pile {p}, card {i} is {_shown(code)}; allowed: a card code (a string)"
                )
            card = parse_card(code)
            if card in seen:
                raise ConfigError(f"card {code!r} appears twice (pile {p}); every card is unique")
            if not fits(card, p, top):
                raise ConfigError(
                    f"{code!r} cannot go on pile {p} over {top} "
                    f"({'ascending' if ASCENDING[p] else 'descending'}: G5 takes a card "
                    f"{'higher' if ASCENDING[p] else 'lower'} or exactly 10 "
                    f"{'lower' if ASCENDING[p] else 'higher'})"
                )
            seen.add(card)
            pile.append(card)
            top = card
        out.append(pile)
    return out
