"""The declared type of SEVN's ``view`` (``encoding_view.view``): the whole table as the plain
dict scripted agents read (every drawn card is public). A ``TypedDict``, so the value stays a
plain dict (JSON, replays, outside agents) while a type checker catches a misspelt key;
tests/test_views.py holds the declaration against the code."""

from cardarena.envs.core.race import RaceView


class SevnView(RaceView):
    has_second_chance: list[bool]
    has_x2: list[bool]
    hand_scores: list[int]
    #: hand score banked this hand per seat, -1 if not
    banked: list[int]
    #: the drawn cards set aside while a decision on them is pending
    holding: list[str]
    second_chance_takers: list[int]
    #: seats with draws still owed (FLIP_THREE, the deal)
    pending: list[int]
    dealing: bool
    draw_pile_size: int
    discard_pile: list[str]
    unseen: dict[str, int]
    #: count per card kind of the pile the next card comes from
    next_card_counts: list[int]
    hand_index: int
