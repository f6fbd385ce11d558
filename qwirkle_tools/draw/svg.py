"""A board as an SVG picture, in plain text: what a notebook shows for a game
(:class:`~qwirkle_tools.play.game.Game`) and a replay's positions.

The picture is the board pictures' (:mod:`qwirkle_tools.outputs.pictures`),
without matplotlib: the same palette and shapes (:mod:`~qwirkle_tools.draw.palette`),
the same columns and rows (:mod:`~qwirkle_tools.draw.extent`), coordinates
on the edges, the last move outlined in gold, ghost tiles faint and dashed,
and under it the legend of the colours and shapes with their letters. It is
text, so that a game can draw itself without the output layer; it reads no
file and imports nothing heavy.

Each tile is a ``<g class="tile">`` with ``data-tile`` (``colour-shape``),
``data-x`` and ``data-y``, as on the viewer page. Text put in the picture (a
caption: players' names) is one line, escaped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import TYPE_CHECKING

from ..core.safetext import one_line
from ..core.tiles import COLOUR_CODES, COLOUR_OF, COLOURS, SHAPE_CODES, SHAPE_OF, SHAPES, tile_name
from .extent import Placed, cut_note, layout
from .palette import COLOUR_HEX, GHOST, LAST_MOVE, TABLE, TILE_FACE, shape_pieces

if TYPE_CHECKING:
    from ..core.board import Board


CELL = 36.0
"""A cell's side, in pixels (smaller on a board too wide for :data:`WIDEST`)."""
WIDEST = 960.0
"""The widest a board is drawn, in pixels."""
_MARGIN = 24.0  # room for the coordinates
_INK = "#1d1d1f"
_MUTED = "#6b6b70"
_LEGEND_STEP = 96.0  # a legend column: a tile and its words
_LEGEND_SHAPE = "#e8e8e8"  # the legend's shapes: light grey, a shape and not a colour


def _n(value: float) -> str:
    """A coordinate, short: ``12``, ``3.5``, ``-0.125``."""
    return f"{value:.3f}".rstrip("0").rstrip(".")


def shape_svg(kind: int, cx: float, cy: float, r: float, fill: str = "") -> str:
    """Shape ``kind`` (:func:`~qwirkle_tools.draw.palette.shape_pieces`) as SVG
    circles and polygons, filled with ``fill`` (none given: the fill they inherit)."""
    paint = f' fill="{fill}"' if fill else ""
    parts = []
    for what, args in shape_pieces(kind, cx, cy, r):
        if what == "circle":
            x, y, radius = args
            parts.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(radius)}"{paint}/>')
        else:
            points = " ".join(f"{_n(x)},{_n(y)}" for x, y in args)
            parts.append(f'<polygon points="{points}"{paint}/>')
    return "".join(parts)


def _face(x: float, y: float, size: float, edge: str | None = None, dashed: bool = False) -> str:
    pad = size * 0.06
    stroke = "" if edge is None else \
        f' stroke="{edge}" stroke-width="{_n(size * 0.07)}"' + (f' stroke-dasharray="{_n(size * 0.12)}"' if dashed else "")
    return (f'<rect x="{_n(x + pad)}" y="{_n(y + pad)}" width="{_n(size - 2 * pad)}" height="{_n(size - 2 * pad)}" '
            f'rx="{_n(size * 0.12)}" fill="{TILE_FACE}"{stroke}/>')


def _tile(t: int, x: int, y: int, left: float, top: float, size: float, marked: bool = False, ghost: bool = False) -> str:
    """Tile ``t`` of cell ``(x, y)`` (its record coordinates), drawn at ``(left, top)``."""
    face = _face(left, top, size, GHOST if ghost else LAST_MOVE if marked else None, dashed=ghost)
    shape = shape_svg(SHAPE_OF[t], left + size / 2, top + size / 2, size / 2, COLOUR_HEX[COLOUR_OF[t]])
    kind = "ghost" if ghost else "tile"
    opacity = ' opacity="0.45"' if ghost else ""
    return f'<g class="{kind}" data-tile="{tile_name(t)}" data-x="{x}" data-y="{y}"{opacity}>{face}{shape}</g>'


def legend_svg(left: float, top: float) -> tuple[str, float, float]:
    """The legend: each colour (a swatch on the tile face) and each shape
    (light grey on the tile face) with its letter; its SVG at ``(left, top)``,
    its width and its height."""
    size, parts = 22.0, []
    for i in range(len(COLOURS)):
        x = left + i * _LEGEND_STEP
        parts.append(_face(x, top, size))
        parts.append(f'<rect x="{_n(x + 5)}" y="{_n(top + 5)}" width="12" height="12" rx="2" fill="{COLOUR_HEX[i]}"/>')
        parts.append(f'<text x="{_n(x + size + 4)}" y="{_n(top + size / 2)}">{COLOUR_CODES[i]} {COLOURS[i]}</text>')
    for i in range(len(SHAPES)):
        x, y = left + i * _LEGEND_STEP, top + size + 6
        parts.append(_face(x, y, size))
        parts.append(shape_svg(i, x + size / 2, y + size / 2, size / 2, _LEGEND_SHAPE))
        parts.append(f'<text x="{_n(x + size + 4)}" y="{_n(y + size / 2)}">{SHAPE_CODES[i]} {SHAPES[i]}</text>')
    group = (f'<g class="legend" font-size="11" fill="{_INK}" dominant-baseline="central">{"".join(parts)}</g>')
    return group, len(COLOURS) * _LEGEND_STEP, 2 * size + 6


def board_svg(board: Mapping[tuple[int, int], int] | Board, last: Iterable[Placed] = (), ghosts: Iterable[Placed] = (),
              caption: str = "", legend: bool = True) -> str:
    """``board`` as the text of an SVG picture.

    ``last`` (the last move's placements) are outlined in gold, ``ghosts``
    drawn faint with a dashed red outline; ``caption`` (one line, escaped)
    heads the picture; ``legend`` adds the colours and shapes with their
    letters under it. A board too wide for :data:`WIDEST` is drawn smaller;
    long empty runs are closed up and a board past
    :data:`~qwirkle_tools.draw.extent.MAX_SHOWN` columns or rows is cut, with a note.

    >>> text = board_svg({(0, 0): 0}, legend=False)
    >>> text.startswith("<svg") and 'data-tile="red-circle"' in text
    True
    """
    shown = layout(board, last, ghosts)
    min_x, _, min_y, _ = shown.bounds
    cols, rows = len(shown.columns), len(shown.lines)
    size = max(8.0, min(CELL, WIDEST / max(cols, rows)))
    head = 22.0 if caption else 0.0
    board_top = head + _MARGIN
    parts = [f'<rect x="{_n(_MARGIN)}" y="{_n(board_top)}" width="{_n(cols * size)}" height="{_n(rows * size)}" '
             f'fill="{TABLE}"/>']
    label = max(7.0, min(11.0, size * 0.3))
    coords = [f'<g font-size="{_n(label)}" fill="{_MUTED}" text-anchor="middle" dominant-baseline="central">']
    for i, x in enumerate(shown.columns):
        coords.append(f'<text x="{_n(_MARGIN + (i + 0.5) * size)}" y="{_n(board_top - 9)}">{".." if x is None else x}</text>')
    for i, y in enumerate(shown.lines):
        coords.append(f'<text x="{_n(_MARGIN / 2)}" y="{_n(board_top + (i + 0.5) * size)}">{".." if y is None else y}</text>')
    parts.append("".join(coords) + "</g>")
    place = {"x": {min_x + i: x for i, x in enumerate(shown.columns)}, "y": {min_y + i: y for i, y in enumerate(shown.lines)}}

    def at(x: int, y: int) -> tuple[int, int, float, float]:  # a drawing position: the cell's coordinates and its corner
        return place["x"][x] or 0, place["y"][y] or 0, _MARGIN + (x - min_x) * size, board_top + (y - min_y) * size

    parts.extend(_tile(t, *at(x, y), size, marked=(x, y) in shown.marked) for x, y, t in shown.cells)
    parts.extend(_tile(t, *at(x, y), size, ghost=True) for x, y, t in shown.ghosts)
    width, height = 2 * _MARGIN + cols * size, board_top + rows * size + 8
    if shown.hidden:
        parts.append(f'<text x="{_n(_MARGIN)}" y="{_n(height + 6)}" font-size="11" fill="{_MUTED}">'
                     f'{escape(cut_note(shown.hidden))}</text>')
        height += 18
    if legend:
        group, legend_width, legend_height = legend_svg(_MARGIN, height + 4)
        parts.append(group)
        width, height = max(width, legend_width + 2 * _MARGIN), height + legend_height + 12
    if caption:
        parts.insert(0, f'<text x="{_n(_MARGIN)}" y="15" font-size="13" font-weight="600" fill="{_INK}">'
                        f'{escape(one_line(caption), quote=False)}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
            f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="system-ui, sans-serif">{"".join(parts)}</svg>')


def score_line(names: Iterable[str], scores: Iterable[int]) -> str:
    """Each player and score, for a caption: ``"Ana 12 · Ben 7"`` (a name one line, at most 40 characters).

    >>> score_line(["Ana", "Ben"], [12, 7])
    'Ana 12 · Ben 7'
    """
    return " · ".join(f"{one_line(name, 40)} {score}" for name, score in zip(names, scores))


def position_svg(board: Mapping[tuple[int, int], int] | Board, last: Iterable[Placed] | None, names: Iterable[str],
                 scores: Iterable[int], to_move: int | None) -> str:
    """A game's position as a picture: ``board`` with the ``last`` move
    outlined, under the scores and who is to move (``None``: the game is over).

    >>> "Ana 3 · Ben 0 · Ben to move" in position_svg({(0, 0): 0}, (), ["Ana", "Ben"], [3, 0], 1)
    True
    """
    names = list(names)
    state = "game over" if to_move is None else f"{one_line(names[to_move], 40)} to move"
    return board_svg(board, last or (), caption=f"{score_line(names, scores)} · {state}")
