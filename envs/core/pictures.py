"""Pictures of a game table: ``render_mode="rgb_array"`` of every env, as numpy ``uint8 (H, W, 3)``.

A game describes what one seat may see as a :class:`Table` (seats with their cards and scores,
the piles in the middle, whose turn it is) with a small layout function registered in its
``GameSpec.picture``; :func:`draw` paints any table the same way (cards are labelled
rectangles with the card's full name, wrapped over up to three lines, and a short note of its
effect where a player needs one; a card the seat cannot see is a blue back). A game without a
layout is drawn as its text ``render(state, seat)``. The text is DejaVu Sans, the TrueType font
matplotlib ships, drawn by Pillow (both dependencies): no download, and on one machine the same
state always gives the same pixels.

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
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardarena.envs.core.errors import ConfigError

#: ``seat`` of :func:`picture` that shows every card, hidden ones included
OBSERVER = "observer"

#: a game's layout: (state, seat | None | OBSERVER) -> Table
Layout = Callable[[Any, Any], "Table"]


@dataclass(frozen=True)
class Card:
    """A card: ``label`` (its name: ``_`` and spaces split it over up to three lines) face up, or
    a back; ``note``, a short line at its foot (an effect a player needs to know)."""

    label: str = ""
    face_up: bool = True
    #: "plain", "special", "good", "bad" or "dim": the face colour
    tone: str = "plain"
    note: str = ""


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


# ---- geometry, colours and type -----------------------------------------------------------------
WIDTH = 800
LINE = 20  # a line of the title, a seat's heading, the status
CARD_LINE = 14  # a line of a card's name
CARD_LINES = 3  # at most this many lines of a name
CARD_H = 62
CARD_TEXT_W = 96  # the widest line of a card's name, in pixels
BACK_W = 42  # a card's back, and the least width of a card
NOTE_W = 120  # the widest note at a card's foot (a longer one is cut with an ellipsis)
PAD = 8
PILE_NAME_W = 150
SEAT_H = LINE + 4 + CARD_H + PAD
PILE_H = CARD_H + PAD

FELT = (22, 92, 52)
FELT_YOU = (36, 122, 72)
WHITE = (240, 240, 240)
GREY = (150, 160, 150)
YELLOW = (250, 210, 60)
INK = (20, 20, 20)
NOTE_INK = (90, 40, 40)
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

#: the type sizes (pixels): headings and status, a card's name (shrunk to fit down to the
#: smallest), a short card (a number) and a card's note
TEXT_PX, NAME_PX, SMALLEST_PX, BIG_PX, NOTE_PX = 15, 12, 9, 20, 11


def font_file(bold: bool = False) -> str:
    """DejaVu Sans, the TrueType font matplotlib (a dependency) ships: found on disk, not
    imported, so drawing needs no matplotlib import and nothing downloaded."""
    import importlib.util
    from pathlib import Path

    found = importlib.util.find_spec("matplotlib")
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in found.submodule_search_locations or [] if found else []:
        path = Path(folder) / "mpl-data" / "fonts" / "ttf" / name
        if path.is_file():
            return str(path)
    raise ConfigError(
        f"pictures need the font {name} that matplotlib ships (mpl-data/fonts/ttf); "
        "reinstall matplotlib (pip install 'matplotlib>=3.8,<4')"
    )


@functools.cache
def font(px: int, bold: bool = False) -> Any:
    from PIL import ImageFont

    return ImageFont.truetype(font_file(bold), px)


def text_width(text: str, px: int = TEXT_PX, bold: bool = False) -> int:
    return int(math.ceil(font(px, bold).getlength(text)))


def size(num_seats: int, num_piles: int) -> tuple[int, int]:
    """(height, width) of the picture of a table with that many seats and piles."""
    return PAD + LINE + PAD + num_piles * PILE_H + num_seats * SEAT_H + LINE + PAD, WIDTH


def _wrap(words: list[str], px: int) -> list[str] | None:
    """Words in at most :data:`CARD_LINES` lines no wider than :data:`CARD_TEXT_W` at ``px``;
    None where they do not fit."""
    lines: list[str] = []
    for word in words:
        if text_width(word, px) > CARD_TEXT_W:
            return None
        if lines and text_width(f"{lines[-1]} {word}", px) <= CARD_TEXT_W:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines if len(lines) <= CARD_LINES else None


@functools.cache
def card_text(label: str, note: str = "") -> tuple[int, tuple[str, ...]]:
    """(type size, lines) of a card's name: a short one (a number) big, a longer one wrapped in
    up to :data:`CARD_LINES` lines, in smaller type until it fits (cut with an ellipsis only
    past the smallest size)."""
    words = label.replace("_", " ").split()
    if not words:
        return NAME_PX, ()
    if len(label) <= 4 and not note and text_width(label, BIG_PX, True) <= CARD_TEXT_W:
        return BIG_PX, (label,)
    for px in range(NAME_PX, SMALLEST_PX - 1, -1):
        lines = _wrap(words, px)
        if lines is not None:
            return px, tuple(lines)
    cut = []
    for line in filter(None, (" ".join(words[i::CARD_LINES]) for i in range(CARD_LINES))):
        while text_width(line, SMALLEST_PX) > CARD_TEXT_W and len(line) > 1:
            line = line[:-2] + "\u2026"
        cut.append(line)
    return SMALLEST_PX, tuple(cut)


def card_width(card: Card) -> int:
    if not card.face_up:
        return BACK_W
    px, lines = card_text(card.label, card.note)
    widest = max([text_width(line, px, px == BIG_PX) for line in lines] or [0])
    if card.note:
        widest = max(widest, min(text_width(card.note, NOTE_PX), NOTE_W))
    return max(BACK_W, widest + 12)


def _rect(image: np.ndarray, x: int, y: int, w: int, h: int, color: tuple[int, int, int]) -> None:
    image[max(y, 0) : max(y + h, 0), max(x, 0) : max(x + w, 0)] = color


#: text to write once the shapes are painted: (x, y, text, colour, type size, bold)
Texts = list[tuple[int, int, str, tuple[int, int, int], int, bool]]


def draw_card(image: np.ndarray, texts: Texts, x: int, y: int, card: Card) -> int:
    """Draw one card at (x, y) (its text goes to ``texts``); returns its width."""
    w = card_width(card)
    _rect(image, x, y, w, CARD_H, EDGE)
    if card.face_up:
        _rect(image, x + 2, y + 2, w - 4, CARD_H - 4, FACES.get(card.tone, FACES["plain"]))
        px, lines = card_text(card.label, card.note)
        step = BIG_PX + 4 if px == BIG_PX else CARD_LINE if px >= 11 else px + 2
        room = CARD_H - (NOTE_PX + 6 if card.note else 0)
        top = y + max(3, (room - len(lines) * step) // 2 + 1)
        for i, line in enumerate(lines):
            tx = x + (w - text_width(line, px, px == BIG_PX)) // 2
            texts.append((tx, top + i * step, line, INK, px, px == BIG_PX))
        if card.note:
            note = card.note
            while text_width(note, NOTE_PX) > w - 8 and len(note) > 1:
                note = note[:-2] + "\u2026"
            nx = x + (w - text_width(note, NOTE_PX)) // 2
            texts.append((nx, y + CARD_H - NOTE_PX - 6, note, NOTE_INK, NOTE_PX, False))
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


def draw_cards(
    image: np.ndarray, texts: Texts, x: int, y: int, cards: Sequence[Card], right: int
) -> None:
    """Cards from left to right; those that do not fit before ``right`` become a "+N" note."""
    for i, card in enumerate(cards):
        more = len(cards) - i - 1
        reserve = text_width(f"+{more + 1}") + 8 if more else 0
        if x + card_width(card) + reserve > right:
            texts.append(
                (x + 4, y + CARD_H // 2 - LINE // 2, f"+{len(cards) - i}", WHITE, TEXT_PX, False)
            )
            return
        x += draw_card(image, texts, x, y, card) + 6


@functools.lru_cache(maxsize=4096)
def _ink(text: str, px: int, bold: bool) -> tuple[np.ndarray, int, int]:
    """The coverage of ``text`` (float32 in [0, 1]) and its offset from the pen position,
    rendered once by FreeType through Pillow (frames repeat their names and numbers)."""
    from PIL import Image, ImageDraw

    left, top, right, bottom = font(px, bold).getbbox(text)
    canvas = Image.new("L", (max(right - left, 1), max(bottom - top, 1)), 0)
    ImageDraw.Draw(canvas).text((-left, -top), text, fill=255, font=font(px, bold))
    ink = np.asarray(canvas, dtype=np.float32)[..., None] / 255.0
    ink.flags.writeable = False
    return ink, left, top


def write(image: np.ndarray, texts: Texts) -> np.ndarray:
    """``image`` with ``texts`` written on it, each blended by its coverage (the same text
    gives the same pixels on one machine)."""
    height, width = image.shape[:2]
    for x, y, text, color, px, bold in texts:
        if not text:
            continue
        ink, left, top = _ink(text, px, bold)
        x0, y0 = x + left, y + top
        x1, y1 = min(x0 + ink.shape[1], width), min(y0 + ink.shape[0], height)
        if x1 <= max(x0, 0) or y1 <= max(y0, 0):
            continue
        cover = ink[max(-y0, 0) : y1 - y0, max(-x0, 0) : x1 - x0]
        region = image[max(y0, 0) : y1, max(x0, 0) : x1]
        blended = region * (1.0 - cover) + np.asarray(color, dtype=np.float32) * cover
        region[:] = (blended + 0.5).astype(np.uint8)
    return image


def draw(table: Table) -> np.ndarray:
    """The picture of ``table``: uint8 (H, W, 3), H from :func:`size`."""
    height, width = size(len(table.seats), len(table.piles))
    image = np.empty((height, width, 3), dtype=np.uint8)
    image[:] = FELT
    texts: Texts = []
    y = PAD
    texts.append((PAD, y, table.title, WHITE, TEXT_PX, True))
    y += LINE + PAD
    for name, cards in table.piles:
        texts.append((PAD, y + CARD_H // 2 - LINE // 2, name, WHITE, TEXT_PX, False))
        draw_cards(image, texts, PAD + PILE_NAME_W, y, cards, width - PAD)
        y += PILE_H
    for seat in table.seats:
        if seat.you:
            _rect(image, 0, y - 2, width, SEAT_H - PAD + 4, FELT_YOU)
        if seat.turn:
            _rect(image, 0, y - 2, 5, SEAT_H - PAD + 4, YELLOW)
        color = YELLOW if seat.turn else GREY if seat.out else WHITE
        name = seat.name + (" (you)" if seat.you else "")
        texts.append((PAD + 4, y, name, color, TEXT_PX, True))
        x = PAD + 4 + text_width(name, TEXT_PX, True) + 16
        texts.append((x, y, seat.info, color, TEXT_PX, False))
        draw_cards(image, texts, PAD + 4, y + LINE + 4, seat.cards, width - PAD)
        y += SEAT_H
    texts.append((PAD, y, table.status, YELLOW, TEXT_PX, False))
    return write(image, texts)


# ---- games -------------------------------------------------------------------------------------
TEXT_ROWS = 30


def text_table(spec: Any, state: Any, seat: Any) -> np.ndarray:
    """A game without a layout: its text ``render`` (the public one for the observer), one line
    per row of the picture (at most :data:`TEXT_ROWS`, so every frame has one size)."""
    lines = spec.render(state, seat if isinstance(seat, int) else None).splitlines()
    height = PAD + TEXT_ROWS * LINE + PAD
    image = np.empty((height, WIDTH, 3), dtype=np.uint8)
    image[:] = FELT
    texts: Texts = [
        (PAD, PAD + i * LINE, line, WHITE, TEXT_PX - 2, False)
        for i, line in enumerate(lines[:TEXT_ROWS])
    ]
    return write(image, texts)


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
