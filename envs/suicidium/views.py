"""The declared types of Suicidium's ``view`` (``encoding_view.view``): public information and
the seat's own hand, as the plain dict scripted agents read (absolute seats, card ids).
``TypedDict``s, so the value stays a plain dict (JSON, replays, outside agents) while a type
checker catches a misspelt key; tests/test_views.py holds the declarations against the code."""

# no "from __future__ import annotations": TypedDict reads NotRequired from real annotations
from typing import NotRequired, TypedDict


class LastingView(TypedDict):
    """A lasting card in front of a seat."""

    card: str
    effect: str
    #: the turn it arrived
    arrived: int


class TableEntryView(TypedDict):
    """A card on the table, not yet placed."""

    index: int
    card: str
    player: int
    kind: str
    effect: str
    amount: int
    #: the card this one is played on (None: on no card)
    target: str | None
    target_index: int
    seats: list[int]
    works: bool
    # a card played on no card, once the table's activity is known:
    multiplier: NotRequired[int]
    recipients: NotRequired[list[int]]
    #: the seat stealing it, -1: none
    stolen_by: NotRequired[int]


class SuicidiumView(TypedDict):
    seat: int
    num_players: int
    #: ``rules.MODE_NAMES``
    mode: str
    expansion: bool
    #: ``rules.DECISION_NAMES`` or ``game_over``
    decision: str
    decider: int | None
    phase: str
    active: int
    turn: int
    wp: list[int]
    in_game: list[bool]
    objects: list[list[str]]
    match_chance: list[float]
    hand_sizes: list[int]
    lasting: list[list[LastingView]]
    hand: list[str]
    table: list[TableEntryView]
    #: WP change per seat if the table resolved now
    projected: list[int]
    played_count: int
    drew: int
    obligation_met: bool
    skip_draw_now: bool
    skip_main_now: bool
    need: int
    discard_left: int
    responders_left: list[int]
    responded: bool
    discard_pile: list[str]
    #: the discards a card may take back
    takeable: list[str]
    draw_pile_size: int
    object_pile_size: int
    object_pile_counts: dict[str, int]
    #: per seat the card ids this seat has seen in that hand
    known: list[list[str]]
    winners: list[int]
