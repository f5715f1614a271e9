"""A 5x7 bitmap font drawn into numpy images (no font files, nothing downloaded).

Upper-case letters, digits and the punctuation the games' texts use; lower case is drawn as upper
case and any other character as ``?``. Each glyph is 7 rows of 5 pixels, ``#`` on.
"""

from __future__ import annotations

import numpy as np

GLYPH_W, GLYPH_H = 5, 7

_GLYPHS = """
A .###. #...# #...# ##### #...# #...# #...#
B ####. #...# #...# ####. #...# #...# ####.
C .###. #...# #.... #.... #.... #...# .###.
D ####. #...# #...# #...# #...# #...# ####.
E ##### #.... #.... ####. #.... #.... #####
F ##### #.... #.... ####. #.... #.... #....
G .###. #...# #.... #.### #...# #...# .####
H #...# #...# #...# ##### #...# #...# #...#
I .###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.
J ..### ...#. ...#. ...#. ...#. #..#. .##..
K #...# #..#. #.#.. ##... #.#.. #..#. #...#
L #.... #.... #.... #.... #.... #.... #####
M #...# ##.## #.#.# #.#.# #...# #...# #...#
N #...# #...# ##..# #.#.# #..## #...# #...#
O .###. #...# #...# #...# #...# #...# .###.
P ####. #...# #...# ####. #.... #.... #....
Q .###. #...# #...# #...# #.#.# #..#. .##.#
R ####. #...# #...# ####. #.#.. #..#. #...#
S .#### #.... #.... .###. ....# ....# ####.
T ##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..
U #...# #...# #...# #...# #...# #...# .###.
V #...# #...# #...# #...# #...# .#.#. ..#..
W #...# #...# #...# #.#.# #.#.# #.#.# .#.#.
X #...# #...# .#.#. ..#.. .#.#. #...# #...#
Y #...# #...# .#.#. ..#.. ..#.. ..#.. ..#..
Z ##### ....# ...#. ..#.. .#... #.... #####
0 .###. #...# #..## #.#.# ##..# #...# .###.
1 ..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.
2 .###. #...# ....# ...#. ..#.. .#... #####
3 ##### ...#. ..#.. ...#. ....# #...# .###.
4 ...#. ..##. .#.#. #..#. ##### ...#. ...#.
5 ##### #.... ####. ....# ....# #...# .###.
6 ..##. .#... #.... ####. #...# #...# .###.
7 ##### ....# ...#. ..#.. .#... .#... .#...
8 .###. #...# #...# .###. #...# #...# .###.
9 .###. #...# #...# .#### ....# ...#. .##..
. ..... ..... ..... ..... ..... .##.. .##..
, ..... ..... ..... ..... .##.. ..#.. .#...
: ..... .##.. .##.. ..... .##.. .##.. .....
; ..... .##.. .##.. ..... .##.. ..#.. .#...
- ..... ..... ..... ##### ..... ..... .....
+ ..... ..#.. ..#.. ##### ..#.. ..#.. .....
/ ..... ....# ...#. ..#.. .#... #.... .....
* ..... ..#.. #.#.# .###. #.#.# ..#.. .....
# .#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.
? .###. #...# ....# ...#. ..#.. ..... ..#..
! ..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..
( ...#. ..#.. .#... .#... .#... ..#.. ...#.
) .#... ..#.. ...#. ...#. ...#. ..#.. .#...
[ .###. .#... .#... .#... .#... .#... .###.
] .###. ...#. ...#. ...#. ...#. ...#. .###.
= ..... ..... ##### ..... ##### ..... .....
< ...#. ..#.. .#... #.... .#... ..#.. ...#.
> .#... ..#.. ...#. ....# ...#. ..#.. .#...
' ..#.. ..#.. .#... ..... ..... ..... .....
% ##... ##..# ...#. ..#.. .#... #..## ...##
_ ..... ..... ..... ..... ..... ..... #####
| ..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#..
↑ ..#.. .###. #.#.# ..#.. ..#.. ..#.. ..#..
↓ ..#.. ..#.. ..#.. ..#.. #.#.# .###. ..#..
"""


def _parse(table: str) -> dict[str, np.ndarray]:
    glyphs = {" ": np.zeros((GLYPH_H, GLYPH_W), dtype=bool)}
    for line in table.strip().splitlines():
        char, *rows = line.split()
        assert len(rows) == GLYPH_H and all(len(r) == GLYPH_W for r in rows), line
        glyphs[char] = np.array([[c == "#" for c in r] for r in rows], dtype=bool)
    return glyphs


#: glyph bitmaps by character (``↑`` and ``↓`` are arrows)
GLYPHS = _parse(_GLYPHS)
_SCALED: dict[tuple[str, int], np.ndarray] = {}


def _glyph(char: str, scale: int) -> np.ndarray:
    key = (char, scale)
    if key not in _SCALED:
        glyph = GLYPHS.get(char, GLYPHS["?"])
        _SCALED[key] = np.kron(glyph, np.ones((scale, scale), dtype=bool)).astype(bool)
    return _SCALED[key]


def text_width(text: str, scale: int = 1) -> int:
    """Pixels taken by ``text`` (one pixel column between glyphs, scaled)."""
    return len(text) * (GLYPH_W + 1) * scale


def draw_text(
    image: np.ndarray, x: int, y: int, text: str, color: tuple[int, int, int], scale: int = 1
) -> int:
    """Draw ``text`` with its top-left corner at (x, y), clipped to the image; returns the x after
    it. Lower case is drawn as upper case."""
    height, width = image.shape[:2]
    step = (GLYPH_W + 1) * scale
    for char in text.upper():
        glyph = _glyph(char, scale)
        h, w = glyph.shape
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, width), min(y + h, height)
        if x0 < x1 and y0 < y1:
            image[y0:y1, x0:x1][glyph[y0 - y : y1 - y, x0 - x : x1 - x]] = color
        x += step
    return x
