"""The declared type of Rat-a-Tat Cat's ``view`` (``encoding_text.view``): what one seat sees,
as the plain dict scripted agents read. A ``TypedDict``, so the value stays a plain dict (JSON,
replays, outside agents) while a type checker catches a misspelt key; tests/test_views.py holds
the declaration against the code."""

from typing import TypedDict


class RatatatView(TypedDict):
    seat: int
    num_players: int
    #: ``rules.MEMORY_MODES``
    memory: str
    #: ``rules.DECISION_NAMES`` or ``game_over``
    decision: str
    decider: int | None
    dealer: int
    starter: int
    round_index: int
    num_rounds: int
    scores: list[int]
    round_scores: list[list[int]]
    #: per seat its 4 slots' card codes as this seat sees them (None: unknown)
    rows: list[list[str | None]]
    #: per seat and slot: whether the row's owner knows it (public, R18)
    owner_knows: list[list[bool]]
    #: per seat and slot: whether it changed since this seat last decided
    changed: list[list[bool]]
    #: the drawn card, when this seat may see it
    held: str | None
    held_public: bool
    top_discard: str | None
    discard_pile: list[str]
    draw_pile_size: int
    in_use: list[str]
    set_aside: list[str]
    #: count per code of the cards not visible to this seat
    unseen: dict[str, int]
    knocker: int | None
    played: list[bool]
    owes_last_turn: list[bool]
    turns: int
    max_turns: int
    #: the recent (seat, action) pairs, two per seat at most
    last_moves: list[list[int]]
