"""The declared type of Flip 6's ``view`` (``encoding_text.view``): what a seat may see, as the
plain dict scripted agents read (all of it public, F3). A ``TypedDict``, so the value stays a
plain dict (JSON, replays, outside agents) while a type checker catches a misspelt key;
tests/test_views.py holds the declaration against the code."""

from typing import TypedDict


class Flip6View(TypedDict):
    seat: int
    num_players: int
    target_score: int
    dealer: int
    #: ``turn``, ``freeze_target``, ``flip3_target`` ... (``rules.DECISION_NAMES``) or ``game_over``
    decision: str
    decider: int
    scores: list[int]
    #: per seat ``rules.STATUS_NAMES``: in the round, stayed, busted, frozen
    status: list[str]
    #: per seat the card codes in front of it
    table: list[list[str]]
    #: per seat the number values it holds (empty when busted)
    values: list[list[int]]
    has_extra_life: list[bool]
    has_double: list[bool]
    round_scores: list[int]
    draw_pile_size: int
    discard_pile: list[str]
    #: count per card code of the cards not yet seen (draw pile)
    unseen: dict[str, int]
    #: the drawn card set aside while its owner chooses a target (None: none)
    holding: str | None
    flip3_left: int
