"""The declared type of Flip 6's ``view`` (``encoding_text.view``): what a seat may see, as the
plain dict scripted agents read (all of it public, F3). A ``TypedDict``, so the value stays a
plain dict (JSON, replays, outside agents) while a type checker catches a misspelt key;
tests/test_views.py holds the declaration against the code."""

from cardarena.envs.core.race import RaceView


class Flip6View(RaceView):
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
