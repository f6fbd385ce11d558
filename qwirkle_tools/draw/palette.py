"""How a tile looks: the value of each of its six colours, the dark tile face,
each shape's outline and its terminal symbol.

This is the one palette: the board pictures, the viewer page (its data
carries :data:`COLOUR_HEX` and its style :data:`TILE_FACE`), the terminal
diagram (24-bit colour from the same values, or the nearest of the 256
colours) and the notebook pictures all read it.

The colours are a true red, orange, yellow, green, blue and purple, as a
player names them, chosen for a dark tile (``tests/draw/test_palette.py`` holds
the bounds, measured with the colour-science library ``coloraide``):

* every two colours differ by a CIEDE2000 colour difference of at least
  :data:`MIN_DIFFERENCE` (a difference of 2 is about the least one sees);
* under simulated protanopia and deuteranopia (full severity, by each of
  the Brettel, Vienot and Machado simulations) every two still differ by at
  least :data:`MIN_DIFFERENCE_CVD`: told apart, though less easily (11.5 to
  13.5 at the closest: orange and green, blue and purple); under tritanopia, much
  rarer, by at least :data:`MIN_DIFFERENCE_TRITAN` (green and blue come
  closest). Where colours come close, the shapes still tell tiles apart;
* each colour has a contrast ratio of at least :data:`MIN_CONTRAST` with the
  tile face (WCAG 2.1's bound for graphics).
"""

from __future__ import annotations

import math
from typing import Any

COLOUR_HEX: tuple[str, ...] = ("#d9162f", "#f08000", "#fde526", "#42b46a", "#3d94ea", "#8d3cd0")
"""Each colour's value, in the order of :data:`~qwirkle_tools.core.tiles.COLOURS`:
red, orange, yellow, green, blue, purple."""
TILE_FACE = "#1b1b1b"
"""The tile itself, on which the colours are drawn."""
TABLE = "#f4f1ea"
"""The table the tiles lie on, in the pictures."""
LAST_MOVE = "#ffd700"
"""The outline of the last move's tiles."""
GHOST = "#c00000"
"""The dashed outline of a ghost tile (a missed Qwirkle)."""
SHAPE_SYMBOLS: tuple[str, ...] = ("●", "✚", "◆", "■", "✸", "♣")
"""Each shape's symbol in the terminal, in the order of :data:`~qwirkle_tools.core.tiles.SHAPES`."""

MIN_DIFFERENCE = 25.0
"""The least CIEDE2000 difference between two of the colours."""
MIN_DIFFERENCE_CVD = 10.0
"""The least CIEDE2000 difference between two of the colours as a protanope or deuteranope sees them."""
MIN_DIFFERENCE_TRITAN = 5.0
"""The least CIEDE2000 difference between two of the colours as a tritanope sees them."""
MIN_CONTRAST = 3.0
"""The least contrast ratio of a colour on the tile face."""


def rgb(hex_colour: str) -> tuple[int, int, int]:
    """The red, green and blue of ``#rrggbb``, 0 to 255.

    >>> rgb("#1b1b1b")
    (27, 27, 27)
    """
    value = int(hex_colour.removeprefix("#"), 16)
    return value >> 16, (value >> 8) & 0xFF, value & 0xFF


_CUBE = (0, 95, 135, 175, 215, 255)
"""The levels of each channel in the 6 x 6 x 6 colour cube of a 256-colour terminal (colours 16 to 231)."""


def xterm_colour(hex_colour: str) -> int:
    """The colour of a 256-colour terminal nearest ``hex_colour``: of its
    colour cube (16 to 231) or its greys (232 to 255).

    >>> xterm_colour("#ff0000"), xterm_colour("#1b1b1b")
    (196, 234)
    """
    r, g, b = rgb(hex_colour)
    levels = [min(range(6), key=lambda i: abs(_CUBE[i] - c)) for c in (r, g, b)]
    cube = 16 + 36 * levels[0] + 6 * levels[1] + levels[2]
    grey_step = min(23, max(0, round((sum((r, g, b)) / 3 - 8) / 10)))

    def distance(to: tuple[int, int, int]) -> float:
        return math.dist((r, g, b), to)

    cube_rgb = (_CUBE[levels[0]], _CUBE[levels[1]], _CUBE[levels[2]])
    grey = 8 + 10 * grey_step
    return cube if distance(cube_rgb) <= distance((grey, grey, grey)) else 232 + grey_step


def ansi(hex_colour: str, truecolour: bool = True, background: bool = False) -> str:
    """The escape sequence that sets a terminal's text (or ``background``)
    colour to ``hex_colour``: 24-bit when ``truecolour``, else the nearest
    of 256 colours (:func:`xterm_colour`), which every colour terminal has.

    >>> ansi("#d9162f"), ansi("#d9162f", truecolour=False)
    ('\\x1b[38;2;217;22;47m', '\\x1b[38;5;160m')
    """
    layer = 48 if background else 38
    if truecolour:
        r, g, b = rgb(hex_colour)
        return f"\x1b[{layer};2;{r};{g};{b}m"
    return f"\x1b[{layer};5;{xterm_colour(hex_colour)}m"


def shape_pieces(kind: int, cx: float, cy: float, r: float) -> list[tuple[str, Any]]:
    """The outline of shape ``kind`` (an index of :data:`~qwirkle_tools.core.tiles.SHAPES`)
    centred on ``(cx, cy)`` in a cell of half-width ``r``: a list of
    ``("circle", (cx, cy, radius))`` and ``("poly", [(x, y), ...])`` pieces,
    which every drawing (matplotlib, SVG) fills in the tile's colour."""
    if kind == 0:  # circle
        return [("circle", (cx, cy, r * 0.62))]
    if kind == 1:  # cross: a four-pointed star
        pts = []
        for i in range(8):
            a = math.pi / 4 * i + math.pi / 4
            rad = r * 0.78 if i % 2 == 0 else r * 0.22
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
        return [("poly", pts)]
    if kind == 2:  # diamond
        return [("poly", [(cx, cy - r * 0.78), (cx + r * 0.55, cy), (cx, cy + r * 0.78), (cx - r * 0.55, cy)])]
    if kind == 3:  # square
        s = r * 0.55
        return [("poly", [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)])]
    if kind == 4:  # star: an eight-pointed starburst
        pts = []
        for i in range(16):
            a = math.pi / 8 * i
            rad = r * 0.8 if i % 2 == 0 else r * 0.38
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
        return [("poly", pts)]
    # clover: four round leaves around a centre
    d = r * 0.3
    leaves = [("circle", (cx + dx, cy + dy, r * 0.3)) for dx, dy in ((d, 0), (-d, 0), (0, d), (0, -d))]
    return [*leaves, ("circle", (cx, cy, r * 0.22))]
