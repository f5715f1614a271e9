"""Suicidium: the pure rules engine (rule ids U1-U36 of ``docs/rules/suicidium.md``).

Action cards are ints: their index in ``catalogue.yaml`` (U30); objects are the ints ``RAZOR``..
``HARAKIRI`` (U1, U35). The engine advances on its own through everything the rules decide (draw
costs, object draws, the order of the response window, resolution, the end of turn) and stops at
the next decision a player must make:

===================  ==========================================  ===================================
decision             who decides                                 legal actions
===================  ==========================================  ===================================
``draw``             the active player (U7, U9)                  ``draw K``; ``discard ID`` (full hand:
                                                                 discard ID, draw one)
``main``             the active player, up to 3 cards (U8, U9)   ``play ID``; ``pass`` (end the phase)
``target_player``    the card's player (U8, U23)                 ``target N``
``target_card``      the response's player (U10, U20-U24)        ``on ID`` (a card on the table)
``respond``          each opponent still in the game clockwise,  ``play ID`` (a RESPONSE); ``pass``
                     then the active player if one responded
``discard``          the target of a draw-then-discard (U26)     ``discard ID``
``take``             the player of "Macchina del tempo" (U28)    ``take ID`` (discarded earlier)
===================  ==========================================  ===================================

Every opponent gets its ``respond`` decision even when only ``pass`` is legal (U10), so the
sequence of decisions never tells who holds responses.

Settled readings (the rules file leaves them open; tests pin each one):

* Options: ``mode`` is "SURVIVE" or "DEPRESSION" (any case). With 5 players the expansion objects
  are always in the object deck (U35), whatever ``expansion`` (which adds the party action cards).
* Dealing (contract): seat 0 gets the top 7 cards, seat 1 the next 7, and so on. Seat 0 starts.
  Object codes inside the ``deck`` option stack the object deck (so a full deck order of
  ``deck_codes()`` fixes every card).
* U4: the hand limit bounds draws (U7). Effects (steals, free draws, exchanges) may take a hand
  above 7; the U7 "discard one, draw one" is open to any hand of 7 or more.
* U5 with an empty object deck counts as a match (no new type is left to draw).
* U9: ``draw 0`` is legal only when the player can then play a card (a POINTS or EVENT card:
  a RESPONSE needs one of its own cards on the table first); ``pass`` in MAIN is illegal until
  the obligation is met. A player that can neither draw nor play passes without a decision; a
  MAIN phase that is reached is always a decision (with only ``pass`` when nothing is playable).
* U7/U12: a draw never asks for more cards than the draw and discard piles hold together.
* U11: a card whose recipient is out of the game does nothing to it; the cards of an active player
  eliminated during its own resolution still resolve, and effects that would benefit it vanish.
* U20-U24: a cancel works whatever happened to its target; a DOUBLE, REDIRECT or STEAL_PLAYED
  works only if neither it nor the card it rests on is cancelled (cancelled cards carry nothing).
* U23: each recipient slot takes any player still in the game (repeats allowed, the source says
  "freely"); with several REDIRECTs on one card the last one played that works decides.
* U24/U27: a lasting EVENT that is stolen has no lasting effect (it never lies in front of its
  target); the first working STEAL_PLAYED on a card gets it.
* U26: "discard N of its choice" discards min(N, hand size) cards, one decision each. Effects
  between the card's player and its target (steal, peek, exchange) do nothing when a REDIRECT
  made the card's player its own target.
* POINTS targets "(any player)" include the active player; "an opponent" is any other player
  still in the game; EVENT targets: SKIP_* and hand effects an opponent, SHIELD any player,
  free draws and "Macchina del tempo" the card's player.
* U27: a lasting EVENT takes effect when it resolves (a SHIELD resolved first protects against
  the same turn's later cards) and leaves at the end of the target's next turn: the turn after
  the one in which it arrived, even when it arrived during the target's own turn.
* U36: ``object_matches`` is the one place where BOOTH matches any type.
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
from cardarena.envs.suicidium.catalogue import (
    EFFECTS,
    TARGET_ANY,
    TARGET_CARD,
    TARGET_NONE,
    TARGET_OPPONENT,
    Card,
    load_catalogue,
)

# ---- the catalogue as flat tables (U30, U32) ----------------------------------------------------
CATALOGUE: list[Card] = load_catalogue()
NUM_CARDS = len(CATALOGUE)
CARD_IDS: list[str] = [c.id for c in CATALOGUE]
CARD_NAMES: list[str] = [c.name for c in CATALOGUE]
ID_TO_CARD: dict[str, int] = {c.id: c.index for c in CATALOGUE}
POINTS, EVENT, RESPONSE = 0, 1, 2
KIND_NAMES = ["POINTS", "EVENT", "RESPONSE"]
EFFECT_NAMES: list[str] = list(EFFECTS)
(
    E_POINTS_ONE,
    E_POINTS_SELF_AND_OPPONENT,
    E_POINTS_OPPONENTS,
    E_POINTS_ALL,
    E_POINTS_GAIN_LOSS,
    E_SKIP_DRAW,
    E_SKIP_MAIN,
    E_SHIELD,
    E_DISCARD_RANDOM,
    E_DRAW_DISCARD,
    E_STEAL_RANDOM,
    E_PEEK,
    E_EXCHANGE_HANDS,
    E_DRAW,
    E_RECOVER,
    E_CANCEL_POINTS,
    E_CANCEL_EVENT,
    E_CANCEL_ANY,
    E_DOUBLE,
    E_REDIRECT,
    E_STEAL_PLAYED,
) = range(len(EFFECT_NAMES))
assert EFFECT_NAMES[E_STEAL_PLAYED] == "steal_played" and EFFECT_NAMES[E_DRAW] == "draw"
T_NONE, T_ANY, T_OPPONENT, T_CARD = 0, 1, 2, 3
_TARGETING = {TARGET_NONE: T_NONE, TARGET_ANY: T_ANY, TARGET_OPPONENT: T_OPPONENT, TARGET_CARD: 3}
KIND: list[int] = [KIND_NAMES.index(c.kind) for c in CATALOGUE]
EFFECT: list[int] = [EFFECT_NAMES.index(c.effect) for c in CATALOGUE]
AMOUNT: list[int] = [c.amount for c in CATALOGUE]
TARGETING: list[int] = [_TARGETING[EFFECTS[c.effect][1]] for c in CATALOGUE]
#: per card, its class in ``state_features``' hand summary: 0 lowers willpower, 1 raises it
#: (POINTS by the sign of the amount), 2 EVENT, 3 RESPONSE
_HAND_CLASS: list[int] = [
    (0 if c.amount < 0 else 1) if c.kind == "POINTS" else (2 if c.kind == "EVENT" else 3)
    for c in CATALOGUE
]
IS_PARTY: list[bool] = [c.set == "party" for c in CATALOGUE]
BASE_DECK: list[int] = [c.index for c in CATALOGUE if c.set == "base"]
PARTY_DECK: list[int] = [c.index for c in CATALOGUE if c.set == "party"]
LASTING_EFFECTS = (E_SKIP_DRAW, E_SKIP_MAIN, E_SHIELD)
#: events acting on their target seat alone (the card's player may be out, or the target)
_TARGET_EFFECTS = (E_DISCARD_RANDOM, E_DRAW_DISCARD, E_DRAW, E_RECOVER)
CANCELS = (E_CANCEL_POINTS, E_CANCEL_EVENT, E_CANCEL_ANY)

# ---- objects (U1, U35, U36) -----------------------------------------------------------------------
RAZOR, NOOSE, POISON, BOOTH, HARAKIRI = 0, 1, 2, 3, 4
OBJECT_CODES = ["RAZOR", "NOOSE", "POISON", "BOOTH", "HARAKIRI"]
NUM_OBJECT_TYPES = len(OBJECT_CODES)
CODE_TO_OBJECT: dict[str, int] = {code: i for i, code in enumerate(OBJECT_CODES)}
parse_object = parts.card_parser("suicidium", OBJECT_CODES, what="object code")
BASE_OBJECTS: list[int] = [RAZOR] * 4 + [NOOSE] * 4 + [POISON] * 4 + [BOOTH]
PARTY_OBJECTS: list[int] = [RAZOR, NOOSE, POISON] + [HARAKIRI] * 5


def object_matches(held: list[int], drawn: int) -> bool:
    """U5/U36: a drawn object ends a player's game when it repeats a type it holds, or is BOOTH.

    The one place that decides what BOOTH matches, so that a variant can change it.
    """
    return drawn == BOOTH or drawn in held


# ---- game constants ---------------------------------------------------------------------------------
SURVIVE, DEPRESSION = 0, 1
MODE_NAMES = ["SURVIVE", "DEPRESSION"]
START_WP = 10  # U3
MAX_WP = 10
HAND_SIZE = 7  # U4
MAX_PLAYS = 3  # U8, U10
MAX_PLAYERS = 5

# ---- actions (indexed by catalogue id, so an action keeps its meaning across turns) -----------------
PASS = 0
DRAW0 = 1  #: DRAW0 + k: "draw k", k in 0..7
TARGET0 = DRAW0 + HAND_SIZE + 1  #: TARGET0 + seat: "target N"
PLAY0 = TARGET0 + MAX_PLAYERS  #: PLAY0 + card: "play ID"
ON0 = PLAY0 + NUM_CARDS  #: ON0 + card: "on ID" (a card on the table)
DISCARD0 = ON0 + NUM_CARDS  #: DISCARD0 + card: "discard ID"
TAKE0 = DISCARD0 + NUM_CARDS  #: TAKE0 + card: "take ID" (from the discard pile)
NUM_ACTIONS = TAKE0 + NUM_CARDS

# ---- decisions, phases, internal steps ------------------------------------------------------------
(D_NONE, D_DRAW, D_MAIN, D_TARGET_PLAYER, D_TARGET_CARD, D_RESPOND, D_DISCARD, D_TAKE) = range(8)
DECISION_NAMES = [
    "none",
    "draw",
    "main",
    "target_player",
    "target_card",
    "respond",
    "discard",
    "take",
]
PH_DRAW, PH_MAIN, PH_RESPONSE, PH_RESOLUTION = 0, 1, 2, 3
PHASE_NAMES = ["draw", "main", "response", "resolution"]
(
    ST_WAIT,
    ST_START_TURN,
    ST_MAIN,
    ST_END_MAIN,
    ST_NEXT_RESPONDER,
    ST_RESPOND,
    ST_RESOLVE_START,
    ST_RESOLVE,
    ST_END_TURN,
) = range(9)

# table entry fields: [card, player, target entry index (-1: a main card), seats, placed]
E_CARD, E_PLAYER, E_TARGET, E_SEATS, E_PLACED = 0, 1, 2, 3, 4


# ---- the saved form of a state (to_dict / from_dict) ---------------------------------------------
BIG = 10**12  #: from_dict's bound of the turn and decision counters
_ENTRY_KEYS = ("card", "player", "target", "seats", "placed")


def _deck_size(s: Any) -> int:
    """Action cards in the game (``most`` of from_dict's list bounds)."""
    return len(BASE_DECK) + (len(PARTY_DECK) if s.expansion else 0)


def _object_count(s: Any) -> int:
    return len(BASE_OBJECTS) + (len(PARTY_OBJECTS) if s.num_players == 5 else 0)


def _cards(zone: str = "", **bounds: Any) -> sf.Cards:
    return sf.Cards(CARD_IDS, "_card_lookup", "parse_card", max_len=_deck_size, zone=zone, **bounds)


def _objects(zone: str = "", **bounds: Any) -> sf.Cards:
    return sf.Cards(
        OBJECT_CODES, CODE_TO_OBJECT, parse_object, max_len=_object_count, zone=zone, **bounds
    )


class _Lasting(sf.Field):
    """A lasting event in front of a seat: ``[card id, turn it arrived]`` (U27)."""

    def dump(self, value: Any) -> list[Any]:
        return [CARD_IDS[value[0]], value[1]]

    def load(self, c: sf.Loading, key: str, value: Any) -> list[int]:
        r = c.r
        card, turn = r.list(key, length=2, value=value)
        card = r.cards(key, c.engine.parse_card, value=[card])[0]
        if EFFECT[card] not in LASTING_EFFECTS:
            raise r.error(key, value, "a lasting event card (skip draw, skip main, shield)")
        return [card, r.int(key, 0, c.state.turn, turn)]


class _Entry(sf.Field):
    """A card played this turn: ``{card, player, target, seats, placed}`` (the table entry)."""

    def dump(self, e: Any) -> dict[str, Any]:
        return {
            "card": CARD_IDS[e[E_CARD]],
            "player": e[E_PLAYER],
            "target": e[E_TARGET],
            "seats": list(e[E_SEATS]),
            "placed": bool(e[E_PLACED]),
        }

    def load(self, c: sf.Loading, key: str, e: Any) -> list[Any]:
        r, i = c.r, int(key[key.index("[") + 1 : -1])
        if not isinstance(e, dict) or set(e) != set(_ENTRY_KEYS):
            raise r.error(key, e, "{'card', 'player', 'target', 'seats', 'placed'}")
        card = r.cards(f"{key}.card", c.engine.parse_card, value=[e["card"]])[0]
        target = r.int(f"{key}.target", -1, i - 1, e["target"])
        if target >= 0 and KIND[card] != RESPONSE:
            raise r.error(f"{key}.target", target, "-1 for a card that is not a response")
        placed = r.bool(f"{key}.placed", e["placed"])
        if placed and EFFECT[card] not in LASTING_EFFECTS:
            raise r.error(f"{key}.placed", placed, "true only for a lasting event")
        player = r.seat(f"{key}.player", value=e["player"])
        return [
            card,
            player,
            target,
            r.seats(f"{key}.seats", unique=False, value=e["seats"]),
            int(placed),
        ]


class _KnownBy(sf.Field):
    """Per card, the seats that know which hand holds it; saved as {card id: bitmask}."""

    def dump(self, value: Any) -> dict[str, int]:
        return {CARD_IDS[c]: m for c, m in enumerate(value) if m}

    def load(self, c: sf.Loading, key: str, value: Any) -> list[int]:
        r = c.r
        if not isinstance(value, dict) or len(value) > _deck_size(c.state):
            raise r.error(key, value, "a dict of card id -> bitmask of seats")
        known_by = [0] * NUM_CARDS
        for code, mask in value.items():
            card = r.cards(key, c.engine.parse_card, value=[code])[0]
            known_by[card] = r.int(f"{key}[{code!r}]", 1, (1 << r.num_players) - 1, mask)
        return known_by


def _table_zone(s: Any) -> list[list[str]]:
    """Per seat, what lies face up in front of it: its objects, then its lasting events."""
    return [
        [OBJECT_CODES[o] for o in s.objects[p]] + [CARD_IDS[c] for c, _ in s.lasting[p]]
        for p in range(s.num_players)
    ]


@sf.state_fields
@dataclass(slots=True)
class SuicidiumState:
    """Everything about one game (hidden parts included: hands, pile orders, the generator)."""

    num_players: int
    mode: int
    expansion: bool
    rng: np.random.Generator
    wp: list[int]
    alive: list[bool]
    hands: list[list[int]]
    draw_pile: list[int]  # top of the pile is the END of the list
    discard_pile: list[int]  # in discard order
    object_pile: list[int]  # top is the END of the list
    objects: list[list[int]]  # per seat, face up in the order drawn
    lasting: list[list[list[int]]]  # per seat, [card, turn it arrived] (U27)
    known_by: list[int]  # per card: bitmask of seats that know which hand holds it (PEEK, ...)
    active: int = 0
    turn: int = 0
    phase: int = PH_DRAW
    step: int = ST_START_TURN
    decision: int = D_NONE
    decider: int = -1
    table: list[list[int | list[int]]] = field(default_factory=list)  # cards played this turn
    played: int = 0  # cards the decider played in this MAIN phase / response turn
    drew: int = 0  # cards drawn in this turn's DRAW phase
    skip_draw_now: bool = False
    skip_main_now: bool = False
    responders: list[int] = field(default_factory=list)  # opponents still to respond
    responded: bool = False  # an opponent played a response this turn
    active_responding: bool = False
    need: int = 0  # recipients still to choose for the card being played
    res_idx: int = 0
    res_active: list[bool] = field(default_factory=list)
    discard_left: int = 0
    discard_mark: int = 0  # discard_pile[:discard_mark] was discarded before this turn (U28)
    winners: list[int] = field(default_factory=list)
    over: bool = False
    decisions: int = 0
    passes_in_a_row: int = 0

    #: the saved form: to_dict writes these fields in this order (after game, num_players)
    FIELDS = sf.declare(
        mode=sf.Choice(MODE_NAMES),
        expansion=sf.Bool(),
        scores=sf.Derived(lambda game, s: game.scores(s)),
        winners=sf.Seats(),
        current_player=sf.Derived(lambda game, s: game.current_player(s)),
        decision=sf.Derived(lambda game, s: game.decision_name(s)).of("decision"),
        decider=sf.Seat(none=-1),
        phase=sf.Choice(PHASE_NAMES),
        step=sf.Int(ST_WAIT, ST_END_TURN),
        active=sf.Seat(),
        turn=sf.Int(0, BIG),
        wp=sf.Ints(0, MAX_WP, length=sf.N),
        in_game=sf.Bools(sf.N).of("alive"),
        hands=sf.List(_cards(), length=sf.N, zone="hand_{}"),
        draw_pile=_cards("draw_pile", reverse=True),
        discard_pile=_cards("discard_pile"),
        object_pile=_objects("object_pile", reverse=True),
        objects=sf.List(_objects(), length=sf.N),
        lasting=sf.List(sf.List(_Lasting(), max_len=lambda s: _deck_size(s)), length=sf.N),
        table=sf.Derived(lambda game, s: _table_zone(s)),
        played=sf.List(_Entry(), max_len=_deck_size).of("table"),
        known_by=_KnownBy(),
        played_count=sf.Int(0, MAX_PLAYS).of("played"),
        drew=sf.Int(0, HAND_SIZE),
        skip_draw_now=sf.Bool(),
        skip_main_now=sf.Bool(),
        responders=sf.Seats(),
        responded=sf.Bool(),
        active_responding=sf.Bool(),
        need=sf.Int(0, sf.N),
        res_idx=sf.Int(0, _deck_size),  # not reset when the table is cleared
        res_active=sf.List(sf.Bool(), max_len=lambda s: len(s.table)),
        discard_left=sf.Int(0, _deck_size),
        discard_mark=sf.Int(0, lambda s: len(s.discard_pile)),
        over=sf.Bool(),
        decisions=sf.Int(0, BIG),
        # U9: a turn that passes asks no decision, and the first turn that asks one resets the
        # count, so every saved state (a decision or the end) has 0
        passes_in_a_row=sf.Int(0, 0),
        rng=sf.Rng(),
    )


def table_activity(table: list[list[Any]]) -> list[bool]:
    """Which cards on the table work (U20-U24).

    A card is cancelled when a working cancel targets it; a cancel works when nothing cancels it
    (cancelling a cancel restores its target, U21); any other response works when it is not
    cancelled and the card it rests on works (a cancelled card carries nothing, U20). Responses
    always come after their targets, so one backward and one forward pass settle everything.
    """
    n = len(table)
    cancelled = [False] * n
    for i in range(n - 1, -1, -1):
        entry = table[i]
        if not cancelled[i] and entry[E_TARGET] >= 0 and EFFECT[entry[E_CARD]] in CANCELS:
            cancelled[entry[E_TARGET]] = True
    active = [False] * n
    for i in range(n):
        if cancelled[i]:
            continue
        entry = table[i]
        t = entry[E_TARGET]
        active[i] = t < 0 or EFFECT[entry[E_CARD]] in CANCELS or active[t]
    return active


def card_modifiers(
    table: list[list[Any]], active: list[bool], i: int
) -> tuple[int, list[int], int]:
    """(multiplier, recipients, thief seat or -1) of table card ``i`` after its responses (U22-U24)."""
    mult = 1
    seats = table[i][E_SEATS]
    thief = -1
    for j in range(i + 1, len(table)):
        r = table[j]
        if r[E_TARGET] == i and active[j]:
            eff = EFFECT[r[E_CARD]]
            if eff == E_DOUBLE:
                mult += 1
            elif eff == E_REDIRECT:
                seats = r[E_SEATS]
            elif eff == E_STEAL_PLAYED and thief < 0:
                thief = r[E_PLAYER]
    return mult, seats, thief


def point_changes(card: int, seats: list[int], mult: int) -> list[tuple[int, int]]:
    """(seat, WP change) per recipient slot of a POINTS card (U22: doubles add the base again)."""
    amount = AMOUNT[card] * mult
    if EFFECT[card] == E_POINTS_GAIN_LOSS:  # slot 0 gains, slot 1 loses
        return [(s, amount if k == 0 else -amount) for k, s in enumerate(seats)]
    return [(s, amount) for s in seats]


def describe_action(action: int) -> str:
    """Action texts: ``pass``, ``draw K``, ``target N``, ``play ID``, ``on ID``, ``discard ID``,
    ``take ID`` (ID: a catalogue id, N: an absolute seat)."""
    a = int(action)
    if a == PASS:
        return "pass"
    if DRAW0 <= a < TARGET0:
        return f"draw {a - DRAW0}"
    if TARGET0 <= a < PLAY0:
        return f"target {a - TARGET0}"
    if PLAY0 <= a < ON0:
        return f"play {CARD_IDS[a - PLAY0]}"
    if ON0 <= a < DISCARD0:
        return f"on {CARD_IDS[a - ON0]}"
    if DISCARD0 <= a < TAKE0:
        return f"discard {CARD_IDS[a - DISCARD0]}"
    if TAKE0 <= a < NUM_ACTIONS:
        return f"take {CARD_IDS[a - TAKE0]}"
    raise IllegalActionError(f"suicidium has actions 0..{NUM_ACTIONS - 1}; got {action}")


_CARD_VERBS = {"play": PLAY0, "on": ON0, "discard": DISCARD0, "take": TAKE0}


def parse_action(text: str) -> int:
    words = str(text).strip().split()
    if len(words) == 1 and words[0].lower() == "pass":
        return PASS
    if len(words) == 2:
        verb, arg = words[0].lower(), words[1]
        if verb == "draw" and arg.isdigit() and int(arg) <= HAND_SIZE:
            return DRAW0 + int(arg)
        if verb == "target" and arg.isdigit() and int(arg) < MAX_PLAYERS:
            return TARGET0 + int(arg)
        if verb in _CARD_VERBS and arg.upper() in ID_TO_CARD:
            return _CARD_VERBS[verb] + ID_TO_CARD[arg.upper()]
    raise IllegalActionError(
        f"cannot parse suicidium action {text!r}; expected 'pass', 'draw K' (K in 0..7), "
        f"'target N' (seat N in 0..{MAX_PLAYERS - 1}), or 'play ID' / 'on ID' / 'discard ID' / "
        f"'take ID' with ID a catalogue id (e.g. 'play SPOILER')"
    )


class SuicidiumGame(GameEngine[SuicidiumState], describe=describe_action, parse=parse_action):
    """Suicidium for 2-5 players (options ``num_players``, ``mode`` (U6), ``expansion`` (U32)).

    With 5 players the expansion objects are always in the object deck (U35); ``expansion``
    adds the 8 "Suicidium Party" action cards (U32).
    """

    name = "suicidium"
    num_actions = NUM_ACTIONS
    min_players = 2
    max_players = MAX_PLAYERS
    reward_kind = "zero_sum"

    def __init__(self, num_players: int = 4, mode: str = "SURVIVE", expansion: bool = False):
        self.num_players = check_int("num_players", num_players, self.min_players, self.max_players)
        if not isinstance(mode, str) or mode.strip().upper() not in MODE_NAMES:
            raise ConfigError(f"mode must be one of {MODE_NAMES} (any case), got {mode!r}")
        self.mode = MODE_NAMES.index(mode.strip().upper())
        if not isinstance(expansion, bool | np.bool_):
            raise ConfigError(f"expansion must be True or False, got {expansion!r}")
        self.expansion = bool(expansion)
        self.action_deck: list[int] = BASE_DECK + (PARTY_DECK if self.expansion else [])
        self._card_lookup = {CARD_IDS[c]: c for c in self.action_deck}  # from_dict's fast path
        self.object_deck: list[int] = BASE_OBJECTS + (
            PARTY_OBJECTS if self.num_players == 5 else []
        )

    # ---- set-up --------------------------------------------------------------------------------
    @staticmethod
    def _codes(key: str, value: Any, what: str = "card ids") -> list[str]:
        """A reset option that is a list of codes (None: none), refused naming ``key``."""
        if value is None:
            return []
        if not isinstance(value, list | tuple) or not all(isinstance(c, str) for c in value):
            raise ConfigError(
                f"suicidium reset option {key!r} must be a list of {what}, got {value!r}"
            )
        return list(value)

    @staticmethod
    def _per_seat(key: str, value: Any, n: int, what: str) -> list[list[str]] | None:
        """A reset option with one list of codes per seat (None: not given)."""
        if value is None:
            return None
        if (
            not isinstance(value, list | tuple)
            or len(value) != n
            or not all(
                isinstance(v, list | tuple) and all(isinstance(c, str) for c in v) for v in value
            )
        ):
            raise ConfigError(
                f"suicidium reset option {key!r} must be {n} lists of {what} (one per seat), "
                f"got {value!r}"
            )
        return [list(v) for v in value]

    @staticmethod
    def _named(key: str, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` with its ConfigError naming the reset option ``key``."""
        try:
            return fn(*args)
        except ConfigError as err:
            raise ConfigError(f"suicidium reset option {key!r}: {err}") from None

    def _held_objects(self, held_opt: Any) -> tuple[list[list[int]], list[int]]:
        """The reset option ``held`` (object codes per seat; None: none): (objects per seat, the
        object deck left)."""
        n = self.num_players
        held: list[list[int]] = [[] for _ in range(n)]
        rest_objects = list(self.object_deck)
        for s, codes in enumerate(self._per_seat("held", held_opt, n, "object codes") or []):
            for code in codes:
                obj = self._named("held", parse_object, code)
                if obj not in rest_objects:
                    raise ConfigError(
                        f"suicidium reset option 'held': no {code!r} left in the object deck"
                    )
                rest_objects.remove(obj)
                held[s].append(obj)
        return held, rest_objects

    def new_game(
        self, rng: np.random.Generator, options: dict[str, Any] | None = None
    ) -> SuicidiumState:
        """Start a game.

        Options: ``deck`` (action card ids, top first; without ``hands`` the top 7 go to seat 0,
        the next 7 to seat 1, ...; object codes in it stack the object deck after ``objects``),
        ``objects`` (object codes, top first), ``hands`` (exact hands
        per seat, 7 cards at most (U4); then nothing is dealt), ``wp`` (per seat, 1..10),
        ``held`` (object codes each seat already holds), ``first_player`` (seat, default 0).
        The state they give must be one ``from_dict`` accepts (the engine's guard checks it).
        """
        options = dict(options or {})
        n = self.num_players
        top: list[int] = []
        deck_objects: list[int] = []  # object codes inside `deck` stack the object deck
        for code in self._codes("deck", options.pop("deck", None)):
            if code.strip().upper() in OBJECT_CODES:
                deck_objects.append(parse_object(code))
            else:
                top.append(self._named("deck", self.parse_card, code))
        hands_opt = self._per_seat("hands", options.pop("hands", None), n, "card ids")
        if hands_opt is not None:
            hands = [[self._named("hands", self.parse_card, c) for c in h] for h in hands_opt]
            rest = list(self.action_deck)
            for h in hands:
                for c in h:
                    if c not in rest:
                        raise ConfigError(
                            f"suicidium reset option 'hands': card {CARD_IDS[c]!r} is dealt twice"
                        )
                    rest.remove(c)
            pile = self._named("deck", parts.stack_deck, rest, top, rng, CARD_IDS)
        else:
            pile = self._named("deck", parts.stack_deck, self.action_deck, top, rng, CARD_IDS)
            hands = [pile[HAND_SIZE * s : HAND_SIZE * (s + 1)] for s in range(n)]
            pile = pile[HAND_SIZE * n :]
        held, rest_objects = self._held_objects(options.pop("held", None))
        object_top = [
            self._named("objects", parse_object, c)
            for c in self._codes("objects", options.pop("objects", None), "object codes")
        ] + deck_objects
        object_pile = self._named(
            "objects (with the object codes in 'deck' and those 'held')",
            parts.stack_deck,
            rest_objects,
            object_top,
            rng,
            OBJECT_CODES,
        )
        wp = options.pop("wp", None)
        if wp is None:
            wp = [START_WP] * n
        elif (
            not isinstance(wp, list | tuple)
            or len(wp) != n
            or any(
                isinstance(w, bool) or not isinstance(w, int | np.integer) or not 1 <= w <= MAX_WP
                for w in wp
            )
        ):
            raise ConfigError(
                f"suicidium reset option 'wp' must be {n} integers in [1, {MAX_WP}], got {wp!r}"
            )
        first = check_int("first_player", options.pop("first_player", 0), 0, n - 1)
        if options:
            raise ConfigError(
                f"unknown suicidium reset options {sorted(options)}; known: deck, objects, "
                f"hands, wp, held, first_player"
            )
        state = SuicidiumState(
            num_players=n,
            mode=self.mode,
            expansion=self.expansion,
            rng=rng,
            wp=[int(w) for w in wp],
            alive=[True] * n,
            hands=[list(h) for h in hands],
            draw_pile=pile[::-1],
            discard_pile=[],
            object_pile=object_pile[::-1],
            objects=held,
            lasting=[[] for _ in range(n)],
            known_by=[0] * NUM_CARDS,
            active=first,
        )
        self._advance(state)
        return state

    def parse_card(self, code: Any) -> int:
        card = ID_TO_CARD.get(str(code).strip().upper())
        if card is None:
            raise ConfigError(
                f"unknown suicidium card id {code!r}; ids are those of envs/suicidium/"
                f"catalogue.yaml, e.g. {CARD_IDS[:3]}"
            )
        if IS_PARTY[card] and not self.expansion:
            raise ConfigError(
                f"card {CARD_IDS[card]!r} belongs to the Suicidium Party expansion; "
                f"create the game with expansion=True to use it"
            )
        return card

    # ---- queries ---------------------------------------------------------------------------------
    decision_names = DECISION_NAMES

    def state_features(self, state: Any, seat: int) -> np.ndarray:
        """What decides the outcome from here, seen from ``seat`` (seats in turn order from it),
        the input of the search's learned state value (``agents/search/leaf.py``): the mode;
        per seat its willpower, whether it is in, its hand (size, and how many attacks, heals,
        events and responses), its objects per type, lasting effects, whether it acts now and
        whether the next object drawn would end it (U5); the object pile's types left, the
        draw pile's size and the turn. Reads only attributes, so a native state works too."""
        n = state.num_players
        objs, wp, alive, hands = state.object_pile, state.wp, state.alive, state.hands
        objects, lasting, decider, active = (
            state.objects,
            state.lasting,
            state.decider,
            state.active,
        )
        top = objs[-1] if objs else -1
        x: list[float] = [float(state.mode == SURVIVE), float(state.mode == DEPRESSION)]
        for k in range(n):
            p = (seat + k) % n
            held = [0.0] * NUM_OBJECT_TYPES
            for o in objects[p]:
                held[o] += 0.5
            kinds = [0.0] * 4
            for c in hands[p]:
                kinds[_HAND_CLASS[c]] += 1.0 / 7
            ends = top >= 0 and (top == BOOTH or held[top] > 0)
            x += [wp[p] / MAX_WP, float(alive[p]), len(hands[p]) / 7, *kinds, *held]
            x += [len(lasting[p]) / 3, float(decider == p), float(active == p), float(ends)]
        left = [0.0] * NUM_OBJECT_TYPES
        for o in objs:
            left[o] += 0.25
        x += left
        x += [len(objs) / 13, len(state.draw_pile) / 97, min(state.turn, 200) / 100]
        return np.asarray(x, dtype=np.float32)

    def scores(self, state: SuicidiumState) -> list[float]:
        """Willpower per seat (U3); a player out of the game has 0."""
        return [float(w) for w in state.wp]

    def legal_actions(self, state: SuicidiumState) -> list[int]:
        if state.over:
            return []
        d = state.decision
        seat = state.decider
        hand = state.hands[seat]
        if d == D_MAIN:
            if state.played < MAX_PLAYS:
                # the table's classes matter only for RESPONSE cards (_response_fits)
                flags = (_table_classes(state.table) if state.table else 0) | _ALWAYS
                acts = [PLAY0 + c for c in hand if _PLAYABLE[c] & flags]
            else:
                acts = []
            if not acts or state.drew or state.played:  # U9
                acts.append(PASS)
            acts.sort()
            return acts
        if d == D_RESPOND:
            acts = [PASS]
            if state.played < MAX_PLAYS:
                flags = _table_classes(state.table) if state.table else 0
                acts += [PLAY0 + c for c in hand if _RESPONSE_ONLY_FITS[c] & flags]
                acts.sort()
            return acts
        if d == D_TARGET_PLAYER:
            entry = state.table[-1]
            card = entry[E_CARD]
            alive = state.alive
            if EFFECT[card] == E_REDIRECT or TARGETING[card] == T_ANY:
                return [TARGET0 + s for s in range(state.num_players) if alive[s]]
            player = entry[E_PLAYER]
            return [TARGET0 + s for s in range(state.num_players) if alive[s] and s != player]
        if d == D_TARGET_CARD:
            card = state.table[-1][E_CARD]
            return sorted(ON0 + state.table[i][E_CARD] for i in _card_targets(state, card))
        if d == D_DRAW:
            return self._draw_actions(state, seat)
        if d == D_DISCARD:
            return sorted(DISCARD0 + c for c in hand)
        if d == D_TAKE:
            return sorted(TAKE0 + c for c in state.discard_pile[: state.discard_mark])
        return []

    def _draw_actions(self, state: SuicidiumState, seat: int) -> list[int]:
        """U7/U9: draw k (0 only if a card can then be played), or discard one and draw one."""
        hand = state.hands[seat]
        kmax = _draw_max(state, seat)
        # draw 0 only if a card can then be played (kmax is below 1 with a full hand)
        acts = [DRAW0] if not state.skip_main_now and _can_open_main(hand) else []
        acts += range(DRAW0 + 1, DRAW0 + kmax + 1)
        if len(hand) >= HAND_SIZE:
            acts += sorted([DISCARD0 + c for c in hand])
        return acts

    # ---- play ------------------------------------------------------------------------------------------
    def apply(self, state: SuicidiumState, action: int, seat: int | None = None) -> None:
        if state.over or (seat is not None and seat != state.decider):
            self.check_turn(state, seat)  # raises
        seat = state.decider
        if type(action) is not int:
            action = int(action)
        d = state.decision
        # the commonest actions, checked and applied at once (the same tests as _legal's)
        if d == D_MAIN or d == D_RESPOND:
            if self._fast_play(state, seat, action, d):
                return
        elif d == D_TARGET_PLAYER:
            if self._fast_target_player(state, action):
                return
        elif d == D_TARGET_CARD and ON0 <= action < DISCARD0:
            if self._fast_target_card(state, action):
                return
        elif d == D_DRAW:
            if DRAW0 < action <= DRAW0 + HAND_SIZE and action - DRAW0 <= _draw_max(state, seat):
                state.decisions += 1
                state.decision = D_NONE
                self._draw_phase(state, seat, action)
                self._advance(state)
                return
        if not self._legal(state, seat, action, d):
            raise self.illegal(state, action)
        state.decisions += 1
        state.decision = D_NONE
        self._apply_decision(state, seat, action, d)
        self._advance(state)

    def _fast_play(self, state: SuicidiumState, seat: int, action: int, d: int) -> bool:
        """Play a card or PASS in a MAIN / RESPOND decision when legal (True: applied)."""
        if PLAY0 <= action < ON0:  # play a card
            c = action - PLAY0
            if KIND[c] == RESPONSE:
                legal = _RESPONSE_FITS[c] & _table_classes(state.table) != 0
            else:
                legal = d == D_MAIN
            if legal and state.played < MAX_PLAYS and c in state.hands[seat]:
                state.decisions += 1
                state.decision = D_NONE
                self._play(state, seat, c)
                self._advance(state)
                return True
        elif action == PASS and (d == D_RESPOND or state.drew or state.played):  # U9
            state.decisions += 1
            state.decision = D_NONE
            state.step = ST_END_MAIN if d == D_MAIN else ST_NEXT_RESPONDER
            self._advance(state)
            return True
        return False

    def _fast_target_player(self, state: SuicidiumState, action: int) -> bool:
        """Choose a recipient when legal (True: applied)."""
        target = action - TARGET0
        entry = state.table[-1]
        if 0 <= target < state.num_players and state.alive[target]:
            card = entry[E_CARD]
            if EFFECT[card] == E_REDIRECT or TARGETING[card] == T_ANY or target != entry[E_PLAYER]:
                state.decisions += 1
                entry[E_SEATS].append(target)
                state.need -= 1
                if state.need > 0:
                    state.decision = D_TARGET_PLAYER
                else:
                    state.decision = D_NONE
                    self._played_one(state)
                self._advance(state)
                return True
        return False

    def _fast_target_card(self, state: SuicidiumState, action: int) -> bool:
        """Choose the card a response goes on when legal (True: applied)."""
        # legal_actions: the cards before the response being played that it fits
        table = state.table
        target_card = action - ON0
        fits = _RESPONSE_FITS[table[-1][E_CARD]] & _CARD_CLASS[target_card]
        last = len(table) - 1
        index = next((i for i in range(last) if table[i][E_CARD] == target_card), -1)
        if fits and index >= 0:
            state.decisions += 1
            state.decision = D_NONE
            entry = table[-1]
            entry[E_TARGET] = index
            if EFFECT[entry[E_CARD]] == E_REDIRECT:  # U23: one choice per recipient
                state.need = len(table[index][E_SEATS])
                state.decision = D_TARGET_PLAYER
            else:
                self._played_one(state)
            self._advance(state)
            return True
        return False

    def _legal(self, state: SuicidiumState, seat: int, action: int, d: int) -> bool:
        """Whether ``action`` is legal: the common cases tested one action at a time, as
        legal_actions would include it."""
        if (d == D_MAIN or d == D_RESPOND) and PLAY0 <= action < ON0:  # play a card
            c = action - PLAY0
            if KIND[c] == RESPONSE:
                legal = _RESPONSE_FITS[c] & _table_classes(state.table) != 0
            else:
                legal = d == D_MAIN
            return legal and state.played < MAX_PLAYS and c in state.hands[seat]
        elif action == PASS and (d == D_RESPOND or (d == D_MAIN and (state.drew or state.played))):
            return True  # U9
        elif d == D_DRAW and DRAW0 < action <= DRAW0 + HAND_SIZE:  # draw k >= 1
            return action - DRAW0 <= _draw_max(state, seat)
        elif d == D_TARGET_PLAYER and TARGET0 <= action < TARGET0 + state.num_players:
            target = action - TARGET0
            entry = state.table[-1]
            card = entry[E_CARD]
            return state.alive[target] and (
                EFFECT[card] == E_REDIRECT or TARGETING[card] == T_ANY or target != entry[E_PLAYER]
            )
        elif d == D_DISCARD and DISCARD0 <= action < TAKE0:
            return action - DISCARD0 in state.hands[seat]
        else:
            return action in self.legal_actions(state)

    def _apply_decision(self, state: SuicidiumState, seat: int, action: int, d: int) -> None:
        """Apply the legal ``action`` of decision ``d`` (its bookkeeping done by apply)."""
        if d == D_MAIN or d == D_RESPOND:
            if action == PASS:
                state.step = ST_END_MAIN if d == D_MAIN else ST_NEXT_RESPONDER
            else:
                self._play(state, seat, action - PLAY0)
        elif d == D_TARGET_PLAYER:
            entry = state.table[-1]
            entry[E_SEATS].append(action - TARGET0)
            state.need -= 1
            if state.need > 0:
                state.decision = D_TARGET_PLAYER
            else:
                self._played_one(state)
        elif d == D_TARGET_CARD:
            entry = state.table[-1]
            target_card = action - ON0
            index = next(i for i, e in enumerate(state.table) if e[E_CARD] == target_card)
            entry[E_TARGET] = index
            if EFFECT[entry[E_CARD]] == E_REDIRECT:  # U23: one choice per recipient
                state.need = len(state.table[index][E_SEATS])
                state.decision = D_TARGET_PLAYER
            else:
                self._played_one(state)
        elif d == D_DRAW:
            self._draw_phase(state, seat, action)
        elif d == D_DISCARD:
            self._discard_from_hand(state, seat, action - DISCARD0)
            state.discard_left -= 1
            if state.discard_left > 0:
                state.decision = D_DISCARD
            else:
                state.step = ST_RESOLVE
        elif d == D_TAKE:  # U28: "Macchina del tempo"
            card = action - TAKE0
            index = state.discard_pile.index(card)
            del state.discard_pile[index]
            state.discard_mark -= 1
            state.hands[seat].append(card)
            state.known_by[card] = (1 << state.num_players) - 1  # everyone saw it taken
            state.step = ST_RESOLVE

    # ---- internals: turn flow ----------------------------------------------------------------------
    def _advance(self, state: SuicidiumState) -> None:
        """Run everything the rules decide until a player must choose or the game ends."""
        while not state.over and state.decision == D_NONE:
            step = state.step
            # the steps in order of how often they come (ST_MAIN after every card played)
            if step == ST_MAIN:
                if state.played >= MAX_PLAYS:  # U8: at most 3 cards
                    state.step = ST_END_MAIN
                else:
                    state.decision, state.decider = D_MAIN, state.active
            elif step == ST_NEXT_RESPONDER:
                state.played = 0
                if state.responders:
                    state.decision, state.decider = D_RESPOND, state.responders.pop(0)
                elif state.responded and not state.active_responding:
                    state.active_responding = True
                    state.decision, state.decider = D_RESPOND, state.active
                else:
                    state.step = ST_RESOLVE_START
            elif step == ST_END_MAIN:
                if state.table:  # U10: responses only if a card was put on the table
                    n = state.num_players
                    a = state.active
                    state.phase = PH_RESPONSE
                    state.responders = [
                        (a + k) % n for k in range(1, n) if state.alive[(a + k) % n]
                    ]
                    state.step = ST_NEXT_RESPONDER
                else:
                    state.step = ST_END_TURN
            elif step == ST_RESPOND:
                if state.played >= MAX_PLAYS:
                    state.step = ST_NEXT_RESPONDER
                else:
                    state.decision = D_RESPOND
            elif step == ST_START_TURN:
                self._start_turn(state)
            elif step == ST_END_TURN:
                self._end_turn(state)
            elif step == ST_RESOLVE_START:
                state.phase = PH_RESOLUTION
                state.res_active = table_activity(state.table)
                state.res_idx = 0
                state.step = ST_RESOLVE
            elif step == ST_RESOLVE:
                self._resolve(state)
            else:  # pragma: no cover - a decision was expected
                raise RuntimeError(f"suicidium: stuck at step {step} without a decision")

    def _start_turn(self, state: SuicidiumState) -> None:
        """U7-U9: lasting skips of this turn, then the draw decision (or MAIN, or a pass)."""
        a = state.active
        state.turn += 1
        state.table = []
        state.played = state.drew = 0
        state.responded = state.active_responding = False
        state.discard_mark = len(state.discard_pile)
        skip_draw = skip_main = False
        for card, arrived in state.lasting[a]:
            if arrived < state.turn:
                eff = EFFECT[card]
                skip_draw |= eff == E_SKIP_DRAW
                skip_main |= eff == E_SKIP_MAIN
        state.skip_draw_now, state.skip_main_now = skip_draw, skip_main
        hand = state.hands[a]
        can_play = not skip_main and _can_open_main(hand)
        can_draw = not skip_draw and (
            len(hand) >= HAND_SIZE or len(state.draw_pile) + len(state.discard_pile) > 0
        )
        if not can_draw and not can_play:  # U9: no way to meet the obligation: pass
            state.passes_in_a_row += 1
            if state.passes_in_a_row > 4 * state.num_players:  # pragma: no cover
                raise RuntimeError("suicidium: every player keeps passing (engine bug)")
            state.step = ST_END_TURN
            return
        state.passes_in_a_row = 0
        if skip_draw:  # U9: may not draw, must play
            state.phase = PH_MAIN
            state.step = ST_MAIN
        else:
            state.phase = PH_DRAW
            state.decision, state.decider = D_DRAW, a
            state.step = ST_WAIT

    def _draw_phase(self, state: SuicidiumState, seat: int, action: int) -> None:
        """U7: draw k cards one at a time, or discard one and draw one; costs by mode."""
        if action >= DISCARD0:
            self._discard_from_hand(state, seat, action - DISCARD0)
            k = 1
        else:
            k = action - DRAW0
        for _ in range(k):
            state.drew += 1
            if not self._draw_paid(state, seat):
                break
        if state.over:
            return
        if not state.alive[seat] or state.skip_main_now:
            state.step = ST_END_TURN
        else:
            state.phase = PH_MAIN
            state.step = ST_MAIN

    def _draw_paid(self, state: SuicidiumState, seat: int) -> bool:
        """Draw one card in the DRAW phase and pay for it (U7); False stops the drawing."""
        card = self._draw_card(state)
        if card < 0:
            return False
        state.hands[seat].append(card)
        if state.mode == SURVIVE:
            state.wp[seat] -= 1
            if state.wp[seat] <= 0:  # U7: reaching 0 ends the drawing, then U5
                state.wp[seat] = 0
                self._zero(state, seat)
                return False
            return True
        n = state.num_players
        for k in range(1, n):  # DEPRESSION: every opponent pays, in seat order (U5 each)
            o = (seat + k) % n
            if state.alive[o]:
                state.wp[o] -= 1
                if state.wp[o] <= 0:
                    state.wp[o] = 0
                    self._zero(state, o)
                    if state.over:
                        return False
        return True

    def _draw_card(self, state: SuicidiumState) -> int:
        """U12: the top card; an empty draw pile is refilled by shuffling the discard pile."""
        if not state.draw_pile:
            pile = state.discard_pile
            if not pile:
                return -1
            order = state.rng.permutation(len(pile))
            state.draw_pile = [pile[i] for i in order]
            state.discard_pile = []
            state.discard_mark = 0
        return state.draw_pile.pop()

    def _discard_from_hand(self, state: SuicidiumState, seat: int, card: int) -> None:
        state.hands[seat].remove(card)
        state.known_by[card] = 0
        state.discard_pile.append(card)

    def _zero(self, state: SuicidiumState, seat: int) -> None:
        """U5: WP reached 0: draw an object; a new type resets WP, a match ends the player's game."""
        held = state.objects[seat]
        if state.object_pile:
            obj = state.object_pile.pop()
            match = object_matches(held, obj)
            held.append(obj)
        else:
            match = True  # settled: no object left to draw counts as a match
        if not match:
            state.wp[seat] = START_WP
            return
        if state.mode == DEPRESSION:  # U5/U6: wins at once
            state.winners = [seat]
            self._game_over(state)
            return
        state.alive[seat] = False  # U5: out; its hand is discarded
        for card in state.hands[seat]:
            state.known_by[card] = 0
            state.discard_pile.append(card)
        state.hands[seat] = []
        for card, _ in state.lasting[seat]:
            state.discard_pile.append(card)
        state.lasting[seat] = []
        left = [s for s in range(state.num_players) if state.alive[s]]
        if len(left) == 1:  # U6
            state.winners = left
            self._game_over(state)

    def _game_over(self, state: SuicidiumState) -> None:
        state.over = True
        state.decision = D_NONE
        state.decider = -1
        state.step = ST_WAIT

    def _play(self, state: SuicidiumState, seat: int, card: int) -> None:
        """U8/U10: put a card on the table, then ask for its targets."""
        state.hands[seat].remove(card)
        state.known_by[card] = 0
        entry: list[Any] = [card, seat, -1, [], 0]
        state.table.append(entry)
        targeting = TARGETING[card]
        state.decider = seat
        if targeting == T_CARD:
            state.decision = D_TARGET_CARD
            return
        eff = EFFECT[card]
        if targeting == T_NONE:
            n = state.num_players
            if eff == E_POINTS_OPPONENTS:
                seats = [(seat + k) % n for k in range(1, n) if state.alive[(seat + k) % n]]
            elif eff == E_POINTS_ALL:
                seats = [(seat + k) % n for k in range(n) if state.alive[(seat + k) % n]]
            else:  # self effects (U28)
                seats = [seat]
            entry[E_SEATS] = seats
            self._played_one(state)
            return
        if eff == E_POINTS_SELF_AND_OPPONENT or eff == E_POINTS_GAIN_LOSS:
            entry[E_SEATS].append(seat)
        state.need = 1
        state.decision = D_TARGET_PLAYER

    def _played_one(self, state: SuicidiumState) -> None:
        state.played += 1
        if state.phase == PH_MAIN:
            state.step = ST_MAIN
        else:
            if state.decider != state.active:
                state.responded = True
            state.step = ST_RESPOND

    # ---- internals: resolution (U11) ----------------------------------------------------------------
    def _resolve(self, state: SuicidiumState) -> None:
        table = state.table
        while state.res_idx < len(table):
            i = state.res_idx
            state.res_idx += 1
            if table[i][E_TARGET] < 0 and state.res_active[i]:
                self._resolve_card(state, i)
                if state.over or state.decision != D_NONE:
                    return
        # every card to the discard pile, except placed lasting events and stolen cards (U11, U24)
        everyone = (1 << state.num_players) - 1
        # thieves only where a STEAL_PLAYED response lies on the table (U24)
        steals = any([_STEALS[e[E_CARD]] for e in table])
        for i, entry in enumerate(table):
            if entry[E_PLACED]:
                continue
            card = entry[E_CARD]
            thief = card_modifiers(table, state.res_active, i)[2] if steals else -1
            if thief >= 0 and state.alive[thief]:
                state.hands[thief].append(card)
                state.known_by[card] = everyone
            else:
                state.discard_pile.append(card)
        state.table = []
        state.res_active = []
        state.step = ST_END_TURN

    def _resolve_card(self, state: SuicidiumState, i: int) -> None:
        entry = state.table[i]
        card, player = entry[E_CARD], entry[E_PLAYER]
        mult, seats, thief = card_modifiers(state.table, state.res_active, i)
        eff = EFFECT[card]
        if KIND[card] == POINTS:
            self._resolve_points(state, card, seats, mult)
            return
        t = seats[0]
        if not state.alive[t]:
            return
        if eff in LASTING_EFFECTS:
            if thief < 0:  # settled: a stolen lasting event never lies in front of its target
                state.lasting[t].append([card, state.turn])
                entry[E_PLACED] = 1
            return
        if eff in _TARGET_EFFECTS:
            self._target_effect(state, card, eff, t)
        elif state.alive[player] and t != player:
            # the card's player takes part in the remaining effects
            self._exchange_effect(state, eff, player, t)

    def _resolve_points(
        self, state: SuicidiumState, card: int, seats: list[int], mult: int
    ) -> None:
        """A POINTS card's WP changes, seat by seat (U11, U27, U5)."""
        n, a = state.num_players, state.active
        changes = point_changes(card, seats, mult)
        if len(changes) > 1:  # U11: seat order from the active player
            changes.sort(key=lambda sc: (sc[0] - a) % n)
        for s, delta in changes:
            if not state.alive[s]:
                continue
            if delta < 0 and _shielded(state, s):  # U27
                continue
            w = state.wp[s] + delta
            if w <= 0:
                state.wp[s] = 0
                self._zero(state, s)  # U5 after each change
                if state.over:
                    return
            else:
                state.wp[s] = min(w, MAX_WP)

    def _target_effect(self, state: SuicidiumState, card: int, eff: int, t: int) -> None:
        """An EVENT on seat ``t`` alone: discards, draws, taking back a discard."""
        hands = state.hands
        if eff == E_DISCARD_RANDOM:
            hand = hands[t]
            for _ in range(min(AMOUNT[card], len(hand))):
                c = hand.pop(int(state.rng.integers(len(hand))))
                state.known_by[c] = 0
                state.discard_pile.append(c)
        elif eff == E_DRAW_DISCARD:
            for _ in range(AMOUNT[card]):
                c = self._draw_card(state)
                if c < 0:
                    break
                hands[t].append(c)
            k = min(AMOUNT[card], len(hands[t]))
            if k:
                state.discard_left = k
                state.decision, state.decider = D_DISCARD, t
        elif eff == E_DRAW:
            for _ in range(AMOUNT[card]):
                c = self._draw_card(state)
                if c < 0:
                    break
                hands[t].append(c)
        elif eff == E_RECOVER:
            if state.discard_mark > 0:
                state.decision, state.decider = D_TAKE, t

    def _exchange_effect(self, state: SuicidiumState, eff: int, player: int, t: int) -> None:
        """An EVENT between the card's ``player`` and seat ``t``: steal, peek, exchange hands."""
        hands = state.hands
        if eff == E_STEAL_RANDOM:
            hand = hands[t]
            if hand:
                c = hand.pop(int(state.rng.integers(len(hand))))
                hands[player].append(c)
                state.known_by[c] = (1 << player) | (1 << t)
        elif eff == E_PEEK:
            bit = 1 << player
            for c in hands[t]:
                state.known_by[c] |= bit
        elif eff == E_EXCHANGE_HANDS:
            hands[player], hands[t] = hands[t], hands[player]
            both = (1 << player) | (1 << t)
            for c in hands[player]:
                state.known_by[c] = both
            for c in hands[t]:
                state.known_by[c] = both

    def _end_turn(self, state: SuicidiumState) -> None:
        """U27: lasting events of the active player that arrived before this turn leave; next seat."""
        a = state.active
        keep = []
        for item in state.lasting[a]:
            if item[1] < state.turn:
                state.discard_pile.append(item[0])
            else:
                keep.append(item)
        state.lasting[a] = keep
        n = state.num_players
        nxt = (a + 1) % n
        while not state.alive[nxt]:
            nxt = (nxt + 1) % n
        state.active = nxt
        state.phase = PH_DRAW
        state.step = ST_START_TURN

    # ---- serialisation (the fields are declared on SuicidiumState) ------------------------------
    def check_state(self, state: SuicidiumState, r: StateReader) -> None:
        """What ``from_dict`` refuses between fields; reads ``decision`` (saved as its name)."""
        data = r.data
        if state.mode != self.mode:
            raise r.error("mode", data["mode"], f"{MODE_NAMES[self.mode]!r} (this game's mode)")
        if state.expansion != self.expansion:
            raise r.error("expansion", data["expansion"], f"{self.expansion} (this game's)")
        if state.over:
            state.decision = D_NONE
            if (
                state.decider != -1
                or state.step != ST_WAIT
                or len(state.winners) != 1
                or (
                    self.mode == SURVIVE
                    and state.winners != [s for s in range(state.num_players) if state.alive[s]]
                )
            ):
                raise r.error(
                    "over",
                    True,
                    "an ended game with decider -1, step 0 and one winner (in SURVIVE the one "
                    "seat still in the game)",
                )
            if state.phase not in (PH_DRAW, PH_RESOLUTION):
                raise r.error(
                    "phase", PHASE_NAMES[state.phase], "draw or resolution (where a game ends)"
                )
            if state.phase == PH_DRAW and state.winners == [state.active]:
                # U5/U7: the draw ends a game for the drawer's loss (SURVIVE) or an opponent's win
                raise r.error("active", state.active, "the seat whose draw ended the game")
        else:
            state.decision = r.choice("decision", DECISION_NAMES[1:], data.get("decision")) + 1
            self._check_running(r, state)
        _check_turn(r, state)

    @staticmethod
    def _check_seats(r: StateReader, state: SuicidiumState) -> None:
        alive, wp = state.alive, state.wp
        if state.winners:
            raise r.error("winners", state.winners, "[] while the game runs")
        for s in range(state.num_players):
            if alive[s] != (wp[s] >= 1) or (not alive[s] and (state.hands[s] or state.lasting[s])):
                raise r.error(
                    f"in_game[{s}]",
                    alive[s],
                    "true exactly when wp >= 1 (a seat out of the game holds no cards)",
                )
        if sum(alive) < 2:
            raise r.error("in_game", alive, "at least two seats in a running game (U6)")
        # U11 (settled): the cards of an active player eliminated during its own resolution still
        # resolve, so a discard or take decision of that resolution may wait on another seat
        resolving = state.decision in (D_DISCARD, D_TAKE)
        if not (alive[state.active] or resolving) or state.decider < 0 or not alive[state.decider]:
            raise r.error(
                "decider",
                state.decider,
                "a seat in the game (and so the active seat, unless its own resolution runs on)",
            )

    @staticmethod
    def _check_table(r: StateReader, state: SuicidiumState) -> None:
        """Every entry but a last one still waiting for its targets has them."""
        table = state.table
        for i, (c, _, target, seats, _) in enumerate(table):
            waiting = i == len(table) - 1 and state.decision in (D_TARGET_PLAYER, D_TARGET_CARD)
            if TARGETING[c] == T_CARD:
                want = len(table[target][E_SEATS]) if EFFECT[c] == E_REDIRECT and target >= 0 else 0
                ok = target >= 0 and len(seats) == want
            else:
                two = EFFECT[c] in (E_POINTS_SELF_AND_OPPONENT, E_POINTS_GAIN_LOSS)
                ok = len(seats) == 1 + two if TARGETING[c] != T_NONE else len(seats) >= 1
            if not ok and not waiting:
                raise r.error(f"played[{i}]", CARD_IDS[c], "a card with all its targets chosen")

    @classmethod
    def _check_running(cls, r: StateReader, state: SuicidiumState) -> None:
        """What a running game's decision point implies (see ``_advance``), for from_dict."""
        cls._check_seats(r, state)
        cls._check_table(r, state)
        table, decision, decider, step, phase = (
            state.table,
            state.decision,
            state.decider,
            state.step,
            state.phase,
        )
        targeting = step in (ST_MAIN, ST_NEXT_RESPONDER, ST_RESPOND) and phase in (
            PH_MAIN,
            PH_RESPONSE,
        )
        last = table[-1] if table else None
        expect = {
            D_DRAW: (
                decider == state.active and not table and step == ST_WAIT and phase == PH_DRAW
            ),
            D_MAIN: (decider == state.active and step == ST_MAIN and phase == PH_MAIN),
            D_RESPOND: (
                bool(table) and step in (ST_NEXT_RESPONDER, ST_RESPOND) and phase == PH_RESPONSE
            ),
            D_TARGET_PLAYER: (
                last is not None and last[E_PLAYER] == decider and state.need >= 1 and targeting
            ),
            D_TARGET_CARD: (
                last is not None
                and last[E_PLAYER] == decider
                and TARGETING[last[E_CARD]] == T_CARD
                and last[E_TARGET] == -1
                and targeting
            ),
            D_DISCARD: state.discard_left >= 1,
            D_TAKE: True,
        }[decision]
        if decision in (D_DISCARD, D_TAKE):
            expect = expect and (
                step == ST_RESOLVE
                and phase == PH_RESOLUTION
                and len(state.res_active) == len(table)
                and 1 <= state.res_idx <= len(table)
            )
        elif decision == D_MAIN and state.played >= MAX_PLAYS:  # U8: the phase ends after 3 cards
            expect = False
        if not expect:
            raise r.error(
                "decision",
                DECISION_NAMES[decision],
                "a decision that agrees with phase, step, active seat, decider and the cards "
                "played this turn",
            )

    # ---- the rest is module functions (below): the checks of the turn under way ------------------

    # ---- invariants ----------------------------------------------------------------------------------
    def card_zones(self, state: SuicidiumState) -> dict[str, list[str]]:
        """The declared zones, the cards played this turn and what lies in front of each seat."""
        zones = super().card_zones(state)
        zones["played"] = [CARD_IDS[e[E_CARD]] for e in state.table if not e[E_PLACED]]
        for s, cards in enumerate(_table_zone(state)):
            zones[f"table_{s}"] = cards
        return zones

    def deck_codes(self) -> list[str]:
        return [CARD_IDS[c] for c in self.action_deck] + [OBJECT_CODES[o] for o in self.object_deck]

    def resample_hidden(
        self, state: SuicidiumState, seat: int, rng: np.random.Generator
    ) -> SuicidiumState:
        """Redraw what ``seat`` cannot see: other hands (except cards it knows), pile orders, rng."""
        clone = self.clone(state, rng=np.random.default_rng(int(rng.integers(2**63))))
        bit = 1 << seat
        pool = list(clone.draw_pile)
        keep: list[list[int]] = []
        for s in range(clone.num_players):
            if s == seat:
                keep.append(clone.hands[s])
                continue
            known = [c for c in clone.hands[s] if clone.known_by[c] & bit]
            pool.extend(c for c in clone.hands[s] if not clone.known_by[c] & bit)
            keep.append(known)
        pool.sort()  # canonical order first: the copy owes nothing to the true arrangement
        pool = [pool[i] for i in rng.permutation(len(pool))]
        for s in range(clone.num_players):
            if s == seat:
                continue
            missing = len(clone.hands[s]) - len(keep[s])
            fresh, pool = pool[:missing], pool[missing:]
            for c in fresh:
                clone.known_by[c] = 0
            clone.hands[s] = keep[s] + fresh
        for c in pool:
            clone.known_by[c] = 0
        clone.draw_pile = pool
        objects = sorted(clone.object_pile)
        clone.object_pile = [objects[i] for i in rng.permutation(len(objects))]
        return clone


# ---- helpers -----------------------------------------------------------------------------------------
def _draw_max(state: SuicidiumState, seat: int) -> int:
    """The most cards ``seat`` may draw now (U4, U7, U12)."""
    kmax = HAND_SIZE - len(state.hands[seat])
    cards = len(state.draw_pile) + len(state.discard_pile)
    if cards < kmax:
        kmax = cards
    if state.mode == SURVIVE and state.wp[seat] < kmax:
        kmax = state.wp[seat]  # U7: never more than its WP
    return kmax


_HAS_POINTS, _HAS_EVENT, _HAS_ANY = 1, 2, 4


def _table_classes(table: list[list[Any]]) -> int:
    flags = 0
    for e in table:
        flags |= _CARD_CLASS[e[E_CARD]]
    return flags


#: per response effect: the table classes it may rest on (U20-U24)
_FITS = {
    E_CANCEL_POINTS: _HAS_POINTS,
    E_CANCEL_EVENT: _HAS_EVENT,
    E_CANCEL_ANY: _HAS_ANY,
    E_DOUBLE: _HAS_POINTS,
    E_REDIRECT: _HAS_POINTS | _HAS_EVENT,
    E_STEAL_PLAYED: _HAS_ANY,
}
_RESPONSE_FITS: list[int] = [_FITS.get(EFFECT[c], 0) for c in range(NUM_CARDS)]
#: per card: the table classes it adds (see _table_classes, fits_target)
_CARD_CLASS: list[int] = [
    _HAS_ANY | (_HAS_POINTS if KIND[c] == POINTS else 0) | (_HAS_EVENT if KIND[c] == EVENT else 0)
    for c in range(NUM_CARDS)
]
#: per card: the table classes a RESPONSE fits (0 for the other cards), and those under which MAIN
#: may play it (_ALWAYS, a bit every table has, for a card that is not a RESPONSE; U8, U20)
_ALWAYS = 8
_RESPONSE_ONLY_FITS: list[int] = [
    _RESPONSE_FITS[c] if KIND[c] == RESPONSE else 0 for c in range(NUM_CARDS)
]
_PLAYABLE: list[int] = [
    _RESPONSE_FITS[c] if KIND[c] == RESPONSE else _ALWAYS for c in range(NUM_CARDS)
]


def _response_fits(card: int, flags: int) -> bool:
    return bool(_RESPONSE_FITS[card] & flags)


def fits_target(response: int, target: int) -> bool:
    """Whether RESPONSE card ``response`` may rest on card ``target`` (U20, U22-U24)."""
    return bool(_RESPONSE_FITS[response] & _CARD_CLASS[target])


def _card_targets(state: SuicidiumState, response: int) -> list[int]:
    """Table indices the response being played (the last entry) may rest on."""
    table = state.table
    fits = _RESPONSE_FITS[response]
    return [i for i in range(len(table) - 1) if fits & _CARD_CLASS[table[i][E_CARD]]]


def _can_open_main(hand: list[int]) -> bool:
    """A card playable on an empty table: any POINTS or EVENT card (U8)."""
    return any(map(_OPENS.__getitem__, hand))


_OPENS: list[bool] = [KIND[c] != RESPONSE for c in range(NUM_CARDS)]
_STEALS: list[bool] = [EFFECT[c] == E_STEAL_PLAYED for c in range(NUM_CARDS)]


def _shielded(state: SuicidiumState, seat: int) -> bool:
    for card, _ in state.lasting[seat]:
        if EFFECT[card] == E_SHIELD:
            return True
    return False


# ---- from_dict: what the turn under way implies (U7-U11, U20-U28) --------------------------------
_TWO = (E_POINTS_SELF_AND_OPPONENT, E_POINTS_GAIN_LOSS)
#: the most decisions one turn asks (a bound of ``decisions`` by ``turn``): the draw; per seat in
#: the MAIN phase and the response window 3 cards with a card and up to 5 recipients each, and the
#: pass; up to 3 resolving events, each with its discards or its take
_MAX_DISCARDS = max(AMOUNT[c] for c in range(NUM_CARDS) if EFFECT[c] == E_DRAW_DISCARD)


def _most_decisions(n: int) -> int:
    return 1 + (n + 1) * (MAX_PLAYS * (2 + n) + 1) + MAX_PLAYS * max(_MAX_DISCARDS, 1)


def _check_turn(r: StateReader, state: SuicidiumState) -> None:
    """The turn's counters, the cards on the table and the resolution, for a running or an ended
    game (see ``_advance``: what each step leaves behind)."""
    if state.turn < 1:
        raise r.error("turn", state.turn, ">= 1 (the deal starts turn 1)")
    most = _most_decisions(state.num_players) * state.turn
    if state.decisions > most:
        raise r.error(
            "decisions", state.decisions, f"0..{most} (at most {most // state.turn} a turn)"
        )
    if state.phase == PH_DRAW and state.table:
        raise r.error("played", len(state.table), "[] in the DRAW phase (U7, U8)")
    _check_lasting(r, state)
    _check_objects(r, state)
    _check_hands(r, state)
    responded = _check_plays(r, state)
    _check_window(r, state, responded)
    _check_skips(r, state)
    _check_draw(r, state)
    _check_resolution(r, state)
    _check_decisions(r, state)


def _check_lasting(r: StateReader, state: SuicidiumState) -> None:
    """U27: a lasting event leaves at the end of its target's next turn, so the turns since it
    arrived (each one seat's, clockwise over the seats in the game) never pass its target: at
    most (active - target) mod n of them, or n when the target is the active seat."""
    n, a, turn = state.num_players, state.active, state.turn
    for p in range(n):
        most = (a - p) % n or n
        for k, (card, arrived) in enumerate(state.lasting[p]):
            if arrived < 1 or turn - arrived > most:
                raise r.error(
                    f"lasting[{p}][{k}]",
                    [CARD_IDS[card], arrived],
                    f"a lasting event that arrived in turn {max(1, turn - most)}..{turn} (it "
                    f"leaves at the end of seat {p}'s next turn, U27)",
                )


def _check_objects(r: StateReader, state: SuicidiumState) -> None:
    """U5/U36: an object that matches what a seat holds ends its game, so only the last object of
    a seat out of the game (SURVIVE) or of the winner (DEPRESSION) may match the ones before."""
    ended = (
        state.winners
        if state.mode == DEPRESSION
        else [s for s in range(state.num_players) if not state.alive[s]]
    )
    for s, objs in enumerate(state.objects):
        for k, o in enumerate(objs):
            if (k < len(objs) - 1 or s not in ended) and object_matches(objs[:k], o):
                raise r.error(
                    f"objects[{s}]",
                    [OBJECT_CODES[x] for x in objs],
                    "objects of distinct types without BOOTH, but for the last one of a seat "
                    "whose game it ended (U5, U36)",
                )


def _check_hands(r: StateReader, state: SuicidiumState) -> None:
    """U4: the first decision of a game sees the hands as dealt (7 cards at most); a card anyone
    knows the holder of lies in a hand (U26: peeks, steals, exchanges, takes)."""
    if state.turn == 1 and state.decisions == 0:
        for s, hand in enumerate(state.hands):
            if len(hand) > HAND_SIZE:
                raise r.error(
                    f"hands[{s}]",
                    [CARD_IDS[c] for c in hand],
                    f"at most {HAND_SIZE} cards before the first decision (U4: dealt 7)",
                )
    known = state.known_by
    for s, hand in enumerate(state.hands):
        for c in hand:  # its holder learns nobody's hand by itself: a peek marks the peeker, a
            if known[c] == 1 << s:  # steal or exchange both seats, a take everyone (U26, U28)
                raise r.error(f"known_by[{CARD_IDS[c]!r}]", known[c], "not its holder alone")
    in_hands = {c for hand in state.hands for c in hand}
    for c, mask in enumerate(known):
        if mask and c not in in_hands:
            raise r.error(
                f"known_by[{CARD_IDS[c]!r}]", mask, "no entry: only a card in a hand is known"
            )


def _plays_error(r: StateReader, i: int, what: str, value: Any, allowed: str) -> ConfigError:
    return r.error(f"played[{i}]{what}", value, allowed)


def _check_seats_of(r: StateReader, state: SuicidiumState, i: int, resolving: bool) -> None:
    """The recipients of table card ``i``: in the game when it was played (nobody leaves before
    the resolution), and as the card says (U8, U23, U30)."""
    n, alive = state.num_players, state.alive
    card, player, _, seats, _ = state.table[i]
    if not (alive[player] or resolving) or not all(alive[s] or resolving for s in seats):
        raise _plays_error(
            r, i, "", CARD_IDS[card], "a card of a seat in the game, for seats in the game"
        )
    eff = EFFECT[card]
    if TARGETING[card] == T_NONE:
        if eff in (E_POINTS_OPPONENTS, E_POINTS_ALL):
            order = [(player + k) % n for k in range(0 if eff == E_POINTS_ALL else 1, n)]
            ok = [s for s in seats if alive[s]] == [s for s in order if alive[s]] and seats == [
                s for s in order if s in seats
            ]
        else:
            ok = seats == [player]
        allowed = "the seats in the game when it was played, clockwise from its player"
    elif TARGETING[card] == T_CARD:
        return
    else:
        two = eff in _TWO
        chosen = i < len(state.table) - 1 or state.decision != D_TARGET_PLAYER
        if two:
            ok = bool(seats) and seats[0] == player and player not in seats[1:]
            allowed = "its player, then an opponent (U30)"
        else:
            ok = TARGETING[card] == T_ANY or player not in seats
            allowed = "an opponent (U30)"
        ok = ok and len(seats) == (1 + two if chosen else two)
    if not ok:
        raise _plays_error(r, i, ".seats", seats, allowed)


def _hit(state: SuicidiumState) -> set[int]:
    """The seats the POINTS cards resolved so far this turn reached (U11, U20-U23)."""
    table = state.table
    activity = table_activity(table)
    return {
        s
        for i, e in enumerate(table[: state.res_idx])
        if e[E_TARGET] < 0 and activity[i] and KIND[e[E_CARD]] == POINTS
        for s in card_modifiers(table, activity, i)[1]
    }


def _check_plays(r: StateReader, state: SuicidiumState) -> bool:
    """U8/U10: the active seat's MAIN cards (at most 3) come first, then the responses of each
    opponent that responds, clockwise from the active seat (at most 3 each), then the active
    seat's own, only if an opponent responded; a response rests on an earlier card it fits
    (U20-U24). Returns whether an opponent responded."""
    table, n, a = state.table, state.num_players, state.active
    resolving = state.phase == PH_RESOLUTION
    if resolving:  # U5/U11: a seat leaves during the resolution only hit by a resolved POINTS card
        hit = _hit(state)
        for i, e in enumerate(table):
            for s in [e[E_PLAYER], *e[E_SEATS]]:
                if not state.alive[s] and s not in hit:
                    raise _plays_error(
                        r,
                        i,
                        "",
                        CARD_IDS[e[E_CARD]],
                        f"no card of or for seat {s}: out of the game, and no card resolved so "
                        "far this turn has hit it",
                    )
    first_opp = next((i for i, e in enumerate(table) if e[E_PLAYER] != a), len(table))
    if first_opp > MAX_PLAYS or (state.phase == PH_MAIN and first_opp < len(table)):
        raise r.error("played", len(table), "at most 3 cards of the active seat in MAIN (U8)")
    runs: list[list[int]] = []  # [player, cards] after the MAIN cards
    for i, (card, player, target, _, _) in enumerate(table):
        if i >= first_opp:
            if runs and runs[-1][0] == player:
                runs[-1][1] += 1
            else:
                runs.append([player, 1])
        if (i == 0 and target >= 0) or (KIND[card] != RESPONSE and i >= first_opp):
            raise _plays_error(
                r, i, ".target", target, "-1 for the MAIN cards, which come first (U8, U10)"
            )
        if target >= 0 and not fits_target(card, table[target][E_CARD]):
            raise _plays_error(
                r, i, ".target", target, f"a card that {CARD_IDS[card]} may rest on (U20-U24)"
            )
        _check_seats_of(r, state, i, resolving)
    offsets = [(p - a) % n for p, _ in runs]
    if offsets and offsets[-1] == 0:
        offsets.pop()  # the active seat's response turn, after an opponent's
        if not offsets:
            raise r.error("played", len(table), "the active seat responds after an opponent (U10)")
    if any(c > MAX_PLAYS for _, c in runs) or offsets != sorted(set(offsets)) or 0 in offsets:
        raise r.error(
            "played",
            [p for p, _ in runs],
            "the responses of each opponent once, clockwise from the active seat, at most 3 "
            "each (U10)",
        )
    waiting = bool(table) and state.decision in (D_TARGET_PLAYER, D_TARGET_CARD)
    return any(e[E_PLAYER] != a for e in table[: len(table) - waiting])


def _check_window(r: StateReader, state: SuicidiumState, responded: bool) -> None:
    """The counters of the MAIN phase and the response window (U8, U10, U23)."""
    table, phase, decision, decider = state.table, state.phase, state.decision, state.decider
    n, a, alive = state.num_players, state.active, state.alive
    waiting = bool(table) and decision in (D_TARGET_PLAYER, D_TARGET_CARD)
    responders: list[int] = []
    if phase == PH_RESPONSE:
        last = table[-1][E_PLAYER] if table else a
        if decider != a:
            k = (decider - a) % n
            if last != a and k < (last - a) % n:
                raise r.error("decider", decider, "a seat clockwise after the last responder")
            responders = [(a + j) % n for j in range(k + 1, n) if alive[(a + j) % n]]
        run = 0
        for e in reversed(table):
            if e[E_PLAYER] != decider:
                break
            run += 1
        if decider == a and not responded:
            raise r.error(
                "decider", decider, "an opponent: the active seat responds after one (U10)"
            )
        played = run - waiting
        active_responding = decider == a
    else:
        played = len(table) - waiting if phase == PH_MAIN else 0
        responded = responded and phase == PH_RESOLUTION
        active_responding = responded
    _check_step(r, state, played)
    if state.played != played:
        raise r.error("played_count", state.played, f"{played} (the decider's cards so far)")
    if state.responders != responders:
        raise r.error("responders", state.responders, f"{responders} (still to respond, U10)")
    if state.responded != responded:
        raise r.error("responded", state.responded, f"{responded} (an opponent responded)")
    if state.active_responding != active_responding:
        raise r.error("active_responding", state.active_responding, f"{active_responding}")
    need = 0
    if decision == D_TARGET_PLAYER:
        card, _, target, seats, _ = table[-1]
        if EFFECT[card] == E_REDIRECT:  # U23: one recipient per recipient of its target
            need = len(table[target][E_SEATS]) - len(seats)
        else:
            need = int(len(seats) == (EFFECT[card] in _TWO))
    if state.need != need or (decision == D_TARGET_PLAYER and need < 1):
        raise r.error("need", state.need, f"{need} (recipients still to choose)")


def _check_step(r: StateReader, state: SuicidiumState, played: int) -> None:
    """The step the engine waits in (see ``_advance``): a responder's first card comes from
    ST_NEXT_RESPONDER, its later ones from ST_RESPOND; MAIN's cards from ST_MAIN."""
    if state.over:
        return
    if state.phase == PH_RESPONSE:
        step = ST_RESPOND if played else ST_NEXT_RESPONDER
    else:
        step = {PH_DRAW: ST_WAIT, PH_MAIN: ST_MAIN, PH_RESOLUTION: ST_RESOLVE}[state.phase]
    if state.step != step:
        raise r.error("step", state.step, f"{step} (where this decision waits)")


def _check_skips(r: StateReader, state: SuicidiumState) -> None:
    """U9/U25/U27: the skips the active seat started its turn with; the draw; discard_mark."""
    a, phase = state.active, state.phase
    if state.alive[a]:
        skips = [EFFECT[c] for c, t in state.lasting[a] if t < state.turn]
        if state.skip_draw_now != (E_SKIP_DRAW in skips) or state.skip_main_now != (
            E_SKIP_MAIN in skips
        ):
            raise r.error(
                "skip_draw_now",
                [state.skip_draw_now, state.skip_main_now],
                "the skips lying before the active seat since an earlier turn (U25, U27)",
            )
    if state.skip_main_now and phase != PH_DRAW:
        raise r.error("phase", PHASE_NAMES[phase], "draw: the active seat skips MAIN (U9, U25)")
    if state.skip_draw_now and state.drew:
        raise r.error("drew", state.drew, "0: the active seat skips the draw (U9, U25)")
    if phase == PH_DRAW and (state.drew == 0) != (not state.over):
        raise r.error("drew", state.drew, "0 before the draw, >= 1 in a game the draw ended")
    # discard_mark: the discard pile's size when the turn started (0 after a reshuffle, U12);
    # what lies above it was discarded this turn: the draw's "discard one, draw one" (U7), the
    # resolved discard effects (U26), the hands of seats that left the game (U5)
    extra = len(state.discard_pile) - state.discard_mark
    most = int(state.drew == 1)
    if phase in (PH_MAIN, PH_RESPONSE):  # "discard one, draw one" is a full hand's (U7)
        a = state.active
        most &= len(state.hands[a]) + sum(e[E_PLAYER] == a for e in state.table) >= HAND_SIZE
    out = [p for p in range(state.num_players) if not state.alive[p]]
    if state.mode == SURVIVE and (
        (phase == PH_DRAW and state.over) or (phase == PH_RESOLUTION and set(out) & _hit(state))
    ):  # a seat left the game this turn: its hand went to the pile (U5)
        most = len(state.discard_pile)
    elif phase == PH_RESOLUTION:
        active = table_activity(state.table)
        most += sum(
            AMOUNT[e[E_CARD]]
            for i, e in enumerate(state.table[: state.res_idx])
            if e[E_TARGET] < 0
            and active[i]
            and EFFECT[e[E_CARD]] in (E_DISCARD_RANDOM, E_DRAW_DISCARD)
        )
    if not (0 <= extra <= most) or (phase == PH_DRAW and not state.over and extra):
        raise r.error(
            "discard_mark",
            state.discard_mark,
            f"{len(state.discard_pile) - most}..{len(state.discard_pile)}, the discard pile's size "
            "when the turn started (U7, U12, U26)",
        )
    if state.decision == D_TAKE and state.discard_mark < 1:
        raise r.error("discard_mark", 0, ">= 1: a card discarded before this turn to take (U28)")


def _check_resolution(r: StateReader, state: SuicidiumState) -> None:
    """U11: the cards' activity, the card resolving now, what the resolved lasting events did."""
    table, n, decision = state.table, state.num_players, state.decision
    resolving = state.phase == PH_RESOLUTION
    if resolving:
        activity = table_activity(table)
        if state.res_active != activity:
            raise r.error("res_active", state.res_active, f"{activity} (U20-U24)")
        i = state.res_idx - 1
        if not 0 <= i < len(table):
            raise r.error("res_idx", state.res_idx, f"1..{len(table)}")
        card, _, target, _, _ = table[i]
        seats = card_modifiers(table, activity, i)[1]
        if state.over:  # the game ended on a POINTS card (U5, U6)
            ok = KIND[card] == POINTS
        else:
            want = E_DRAW_DISCARD if decision == D_DISCARD else E_RECOVER
            ok = EFFECT[card] == want and seats[0] == state.decider
        if not ok or target >= 0 or not activity[i]:
            raise r.error(
                "res_idx",
                state.res_idx,
                "1 + the index of the working card that asks this decision or ended the game",
            )
        if decision == D_DISCARD and state.discard_left > min(
            AMOUNT[card], len(state.hands[state.decider])
        ):
            raise r.error("discard_left", state.discard_left, f"1..{AMOUNT[card]} (U26)")
    else:
        if state.res_active:
            raise r.error("res_active", state.res_active, "[] outside the resolution")
        most = 3 * n + 3 if state.turn > 1 else 0  # turn 1: no table resolved yet
        if state.res_idx > most:
            raise r.error("res_idx", state.res_idx, f"0..{most} (the last table's size)")
    if decision != D_DISCARD and state.discard_left:
        raise r.error("discard_left", state.discard_left, "0 outside a discard decision")
    for i, (card, _, target, _, placed) in enumerate(table):
        if target >= 0 or EFFECT[card] not in LASTING_EFFECTS:
            continue
        should = resolving and i < state.res_idx and state.res_active[i]
        if should:
            _, seats, thief = card_modifiers(table, state.res_active, i)
            t = seats[0]
            should = thief < 0
        if (placed and not should) or (
            should and state.alive[t] and not (placed and [card, state.turn] in state.lasting[t])
        ):
            raise _plays_error(
                r,
                i,
                ".placed",
                bool(placed),
                "true for a resolved lasting event before its target (U27)",
            )


_MAX_RANDOM = max(AMOUNT[c] for c in range(NUM_CARDS) if EFFECT[c] == E_DISCARD_RANDOM)


def _check_draw(r: StateReader, state: SuicidiumState) -> None:
    """U7/U9: what this turn's draw left, while nothing else has touched hands and WP (before the
    resolution): the active seat's hand with the cards it played this turn, and the WP paid."""
    if state.over or state.phase not in (PH_MAIN, PH_RESPONSE):
        return
    a, k = state.active, state.drew
    before = len(state.hands[a]) + sum(e[E_PLAYER] == a for e in state.table)
    if k >= 2 and before > HAND_SIZE:  # drawing k >= 2 fills a hand to at most 7 (U4, U7)
        raise r.error("drew", k, f"0..1 for a hand of {before} after the draw (U4, U7)")
    if k == 0 and not state.skip_draw_now:  # "draw 0" only with a card to open MAIN (U9)
        cards = state.hands[a] + [e[E_CARD] for e in state.table if e[E_PLAYER] == a]
        if not _can_open_main(cards):
            raise r.error("drew", k, ">= 1: draw 0 needs a POINTS or EVENT card to play (U9)")
    if not k:
        return
    # each card drawn costs WP (U7): a seat that never reached 0 (no object) paid from 10 at
    # most; in SURVIVE a drawer that reached 0 and drew a new type stopped at 10 (U5)
    payers = [a] if state.mode == SURVIVE else [o for o in range(state.num_players) if o != a]
    for o in payers:
        w = state.wp[o]
        if not state.alive[o] or w <= MAX_WP - k:
            continue
        if not state.objects[o] or (state.mode == SURVIVE and w != START_WP):
            raise r.error("drew", k, f"at most {MAX_WP - w}: seat {o} paid no more WP (U5, U7)")


def _turn_decisions(state: SuicidiumState) -> int:
    """The fewest decisions the turn under way has asked so far (U7-U10)."""
    table, phase, n, a = state.table, state.phase, state.num_players, state.active
    count = int((phase != PH_DRAW or state.over) and not state.skip_draw_now)  # the draw
    runs: dict[int, int] = {}
    main = 0
    for card, player, target, seats, _ in table:
        count += 1  # the play
        if TARGETING[card] == T_CARD:
            count += (target >= 0) + (len(seats) if EFFECT[card] == E_REDIRECT else 0)
        elif TARGETING[card] != T_NONE:
            count += len(seats) - (EFFECT[card] in _TWO)
        if player == a and not runs:
            main += 1
        else:
            runs[player] = runs.get(player, 0) + 1
    if phase in (PH_RESPONSE, PH_RESOLUTION):
        count += main < MAX_PLAYS  # the pass that ended MAIN (U8)
        if phase == PH_RESPONSE:
            k = (state.decider - a) % n
            asked = [(a + j) % n for j in range(1, k if k else n)]
        else:
            asked = [(a + j) % n for j in range(1, n)] + ([a] if state.responded else [])
        # each seat asked in the window passed, unless it played 3 (U10)
        count += sum(1 for s in asked if state.alive[s] and runs.get(s, 0) < MAX_PLAYS)
    return count


def _check_decisions(r: StateReader, state: SuicidiumState) -> None:
    """The decision counter: at least this turn's, one per earlier turn but for passes (U9:
    never more than 4n in a row, else the engine stops), and one per card that reached the
    discard pile but for a random discard's (U26) where no seat ever left the game (U5)."""
    n, before = state.num_players, state.turn - 1
    # an earlier turn passes (U9) only barred from drawing by a skip placed in an earlier turn
    # (a play and its target: 2 decisions, one pass each), or with both piles empty: then every
    # card has left the draw pile, dealt (7 a seat at most, U4) or drawn (7 a decision at most)
    piles_emptied = -(-(_deck_size(state) - HAND_SIZE * n) // HAND_SIZE)
    least = _turn_decisions(state) + min(
        -(-2 * before // 3), max(piles_emptied, before // (4 * n + 1))
    )
    if state.mode == DEPRESSION or all(state.alive):
        least = max(least, -(-len(state.discard_pile) // (1 + _MAX_RANDOM)))
    if state.decisions < least:
        raise r.error("decisions", state.decisions, f">= {least} (the decisions this game asked)")
