"""The declared type of The Game's ``view`` (``encoding.view``): what one seat sees, card values
as ints, as the plain dict scripted agents read. A ``TypedDict``, so the value stays a plain
dict (JSON, replays, outside agents) while a type checker catches a misspelt key;
tests/test_views.py holds the declaration against the code."""

from typing import TypedDict


class TheGameView(TypedDict):
    seat: int
    num_players: int
    hand: list[int]
    hand_sizes: list[int]
    #: the top card of each of the 4 piles (2 up, 2 down)
    tops: list[int]
    piles: list[list[int]]
    draw_pile_size: int
    cards_left: int
    current_player: int | None
    played_this_turn: int
    minimum: int
    signals_on: bool
    #: per seat and pile ``rules.SIGNAL_NAMES``
    signals: list[list[str]]
    signal_changed: list[bool]
    min_cards_when_empty: int
    over: bool
    won: bool
