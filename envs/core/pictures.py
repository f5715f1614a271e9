"""Pictures of a game table: ``render_mode="rgb_array"`` of every env, as numpy ``uint8 (H, W, 3)``.

A game describes what one seat may see as a :class:`Table` (seats with their cards and scores,
the piles in the middle, whose turn it is) with a small layout function registered in its
``GameSpec.picture``; :func:`draw` paints any table the same way (cards are labelled
rectangles, a card the seat cannot see is a blue back). A game without a layout is drawn as its
text ``render(state, seat)``. The text comes from the 5x7 font of :mod:`envs.core.bitfont`: no
font file, no download, and the same state always gives the same pixels.

Who looks (``seat`` of :func:`picture`):

=================  =============================================================================
an int             that seat's view: its own private cards face up, the others' hidden cards as
                   backs (exactly what its observation and ``view`` hold)
``None``           the public table: every private card as a back
``"observer"``     the whole table, hidden cards included (asked for explicitly, never a default)
=================  =============================================================================

The image size depends only on the number of seats and of piles, so the frames of one env (and
of a video) all have the same size.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardarena.envs.core.bitfont import GLYPH_H, GLYPH_W, draw_text, text_width

#: ``seat`` of :func:`picture` that shows every card, hidden ones included
OBSERVER = "observer"

#: a game's layout: (state, seat | None | OBSERVER) -> Table
Layout = Callable[[Any, Any], "Table"]


@dataclass(frozen=True)
class Card:
    """A card: ``label`` (``_`` or a space splits it over two lines) face up, or a back."""

    label: str = ""
    face_up: bool = True
    #: "plain", "special", "good", "bad" or "dim": the face colour
    tone: str = "plain"


BACK = Card(face_up=False)


@dataclass(frozen=True)
class Seat:
    name: str
    info: str = ""
    cards: Sequence[Card] = ()
    turn: bool = False  # the seat to act
    you: bool = False  # the seat the picture is drawn for
    out: bool = False  # busted, out of the game: drawn greyed


@dataclass(frozen=True)
class Table:
    title: str
    seats: Sequence[Seat]
    #: the middle of the table: (name, cards) per pile; keep their number fixed per game
    piles: Sequence[tuple[str, Sequence[Card]]] = ()
    status: str = ""  # the last line: the decision pending, or the result
    extra: dict[str, Any] = field(default_factory=dict)


# ---- geometry and colours ----------------------------------------------------------------------
WIDTH = 800
SCALE = 2  # font scale: 10x14 pixel glyphs
LINE = (GLYPH_H + 2) * SCALE  # 18
CARD_CHARS = 9  # at most this many characters per card line
CARD_H = 2 * LINE + 6
PAD = 8
PILE_NAME_W = 16 * (GLYPH_W + 1) * SCALE  # 16 characters
SEAT_H = LINE + 4 + CARD_H + PAD
PILE_H = CARD_H + PAD

FELT = (22, 92, 52)
FELT_YOU = (36, 122, 72)
WHITE = (240, 240, 240)
GREY = (150, 160, 150)
YELLOW = (250, 210, 60)
INK = (20, 20, 20)
EDGE = (25, 25, 25)
BACK_BLUE = (48, 70, 160)
BACK_STRIPE = (92, 116, 205)
FACES = {
    "plain": (250, 248, 240),
    "special": (255, 228, 150),
    "good": (196, 238, 196),
    "bad": (255, 196, 196),
    "dim": (185, 185, 185),
}


def size(num_seats: int, num_piles: int) -> tuple[int, int]:
    """(height, width) of the picture of a table with that many seats and piles."""
    return PAD + LINE + PAD + num_piles * PILE_H + num_seats * SEAT_H + LINE + PAD, WIDTH


def _card_lines(label: str) -> list[str]:
    words = label.replace("_", " ").split()
    if not words:
        return []
    if len(words) == 1 and len(words[0]) > CARD_CHARS:
        return [words[0][:CARD_CHARS], words[0][CARD_CHARS : 2 * CARD_CHARS]]
    return [words[0][:CARD_CHARS], " ".join(words[1:])[:CARD_CHARS]] if len(words) > 1 else words


def card_width(card: Card) -> int:
    chars = max([3, *(len(line) for line in _card_lines(card.label))])
    return text_width("x" * chars, SCALE) + 8


def _rect(image: np.ndarray, x: int, y: int, w: int, h: int, color: tuple[int, int, int]) -> None:
    image[max(y, 0) : max(y + h, 0), max(x, 0) : max(x + w, 0)] = color


def draw_card(image: np.ndarray, x: int, y: int, card: Card) -> int:
    """Draw one card at (x, y); returns its width."""
    w = card_width(card)
    _rect(image, x, y, w, CARD_H, EDGE)
    if card.face_up:
        _rect(image, x + 2, y + 2, w - 4, CARD_H - 4, FACES.get(card.tone, FACES["plain"]))
        lines = _card_lines(card.label)
        top = y + (CARD_H - len(lines) * LINE) // 2 + SCALE
        for i, line in enumerate(lines):
            tx = x + (w - text_width(line, SCALE)) // 2 + SCALE // 2
            draw_text(image, tx, top + i * LINE, line, INK, SCALE)
    else:
        back = _back(w - 4)
        image[y + 2 : y + CARD_H - 2, x + 2 : x + w - 2] = back[: image.shape[0] - y - 2]
    return w


@functools.cache
def _back(w: int) -> np.ndarray:
    """The striped back of a card ``w`` pixels wide inside its edge."""
    yy, xx = np.indices((CARD_H - 4, w))
    back = np.empty((CARD_H - 4, w, 3), dtype=np.uint8)
    back[:] = BACK_BLUE
    back[(xx + yy) % 8 < 3] = BACK_STRIPE
    back.flags.writeable = False
    return back


def draw_cards(image: np.ndarray, x: int, y: int, cards: Sequence[Card], right: int) -> None:
    """Cards from left to right; those that do not fit before ``right`` become a "+N" note."""
    for i, card in enumerate(cards):
        more = len(cards) - i - 1
        reserve = text_width(f"+{more + 1}", SCALE) + 8 if more else 0
        if x + card_width(card) + reserve > right:
            draw_text(image, x + 4, y + CARD_H // 2 - LINE // 2, f"+{len(cards) - i}", WHITE, SCALE)
            return
        x += draw_card(image, x, y, card) + 6


def draw(table: Table) -> np.ndarray:
    """The picture of ``table``: uint8 (H, W, 3), H from :func:`size`."""
    height, width = size(len(table.seats), len(table.piles))
    image = np.empty((height, width, 3), dtype=np.uint8)
    image[:] = FELT
    y = PAD
    draw_text(image, PAD, y, table.title, WHITE, SCALE)
    y += LINE + PAD
    for name, cards in table.piles:
        draw_text(image, PAD, y + CARD_H // 2 - LINE // 2, name, WHITE, SCALE)
        draw_cards(image, PAD + PILE_NAME_W, y, cards, width - PAD)
        y += PILE_H
    for seat in table.seats:
        if seat.you:
            _rect(image, 0, y - 2, width, SEAT_H - PAD + 4, FELT_YOU)
        if seat.turn:
            _rect(image, 0, y - 2, 5, SEAT_H - PAD + 4, YELLOW)
        color = YELLOW if seat.turn else GREY if seat.out else WHITE
        x = draw_text(image, PAD + 4, y, seat.name + (" (you)" if seat.you else ""), color, SCALE)
        draw_text(image, x + 2 * SCALE * 6, y, seat.info, color, SCALE)
        draw_cards(image, PAD + 4, y + LINE + 4, seat.cards, width - PAD)
        y += SEAT_H
    draw_text(image, PAD, y, table.status, YELLOW, SCALE)
    return image


# ---- games -------------------------------------------------------------------------------------
TEXT_ROWS = 30


def text_table(spec: Any, state: Any, seat: Any) -> np.ndarray:
    """A game without a layout: its text ``render`` (the public one for the observer), one line
    per row of the picture (at most :data:`TEXT_ROWS`, so every frame has one size)."""
    lines = spec.render(state, seat if isinstance(seat, int) else None).splitlines()
    height = PAD + TEXT_ROWS * LINE + PAD
    image = np.empty((height, WIDTH, 3), dtype=np.uint8)
    image[:] = FELT
    for i, line in enumerate(lines[:TEXT_ROWS]):
        draw_text(image, PAD, PAD + i * LINE, line, WHITE, SCALE)
    return image


def check_seat(seat: Any, num_players: int) -> Any:
    """``seat`` if it is a seat, None or :data:`OBSERVER`; ValueError otherwise."""
    if seat is None or seat == OBSERVER:
        return seat
    if isinstance(seat, int | np.integer) and not isinstance(seat, bool):
        if 0 <= seat < num_players:
            return int(seat)
    raise ValueError(
        f"render_seat must be a seat 0..{num_players - 1}, None (the public table) or "
        f"{OBSERVER!r} (every card, hidden ones included); got {seat!r}"
    )


def picture(spec: Any, state: Any, seat: Any = None, num_players: int = 0) -> np.ndarray:
    """What ``seat`` may see of ``state`` (a game of ``spec``), as an RGB image; before the first
    ``reset()`` (``state`` None) a table of ``num_players`` empty seats saying so."""
    if state is None:
        seats = [Seat(f"seat {s}") for s in range(num_players)]
        return draw(Table(f"{spec.name}: not started (call reset())", seats))
    layout: Layout | None = spec.layout
    if layout is None:
        return text_table(spec, state, seat)
    return draw(layout(state, seat))


def seat_row(
    s: int, seat: Any, info: str, cards: Sequence[Card], turn: bool, out: bool = False
) -> Seat:
    """The row of seat ``s`` in a picture drawn for ``seat``."""
    return Seat(f"seat {s}", info, tuple(cards), turn=turn, you=s == seat, out=out)
