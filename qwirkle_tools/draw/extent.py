"""Which part of a board a picture shows: every column and row from the
least used to the greatest, a long empty run closed up as one gap, and at
most :data:`MAX_SHOWN` of them (a record's tiles may lie a million cells apart).

The text diagram, the board pictures, the notebook's SVG and the viewer page
all show a board through :func:`axis`, so they agree on what they leave out.
(A board is taken as the mapping it is and a placement as its ``(tile, x, y)``
tuple: this module does not import :mod:`~qwirkle_tools.core.board`, whose
:class:`~qwirkle_tools.core.board.Board` draws itself through it.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.text import count

if TYPE_CHECKING:
    from ..core.board import Board


MAX_SHOWN = 256
"""Most columns (and rows) a picture shows: a record's tiles may lie a million
cells apart. More than twice the game's 108 tiles, so that every board a game
can hold (each tile needs at most its own column and one gap), with a move's
ghost and ringed cells, is shown whole; only illegal moves make more."""
GAP = 3
"""A run of more empty columns (or rows) than this is shown as one gap, marked ``..``."""


def axis(used: Iterable[int]) -> tuple[list[int | None], bool]:
    """The columns (or rows) to show, in order, and whether some were cut.

    Every coordinate from the least to the greatest used, except that a run
    of more than :data:`GAP` unused ones becomes one ``None`` (a gap); if
    that is more than :data:`MAX_SHOWN`, every run of unused ones becomes a
    gap (tiles far apart); and at most :data:`MAX_SHOWN` of them, the rest
    cut. A connected board has no such run, so the board of a legal game is
    shown whole and as it is.
    """
    values = sorted(set(used))
    out = _runs(values, GAP)
    if len(out) > MAX_SHOWN:
        out = _runs(values, 0)
    return out[:MAX_SHOWN], len(out) > MAX_SHOWN


def _runs(values: list[int], gap: int) -> list[int | None]:
    """``values`` (sorted, distinct) with the coordinates between them, a run
    of more than ``gap`` as one ``None``; cut after ``MAX_SHOWN + 1`` (a board
    with illegal moves may have very many)."""
    out: list[int | None] = []
    for a, b in zip(values, values[1:]):
        out.append(a)
        if b - a - 1 > gap:
            out.append(None)
        else:
            out.extend(range(a + 1, b))
        if len(out) > MAX_SHOWN:
            return out
    out.extend(values[-1:])
    return out


def not_shown(cells: Iterable[tuple[int, int]], columns: Sequence[int | None], rows: Sequence[int | None]) -> int:
    """How many of ``cells`` (x, y) lie outside the ``columns`` and ``rows`` shown."""
    xs, ys = set(columns), set(rows)
    return sum(1 for x, y in cells if x not in xs or y not in ys)


def cut_note(hidden: int) -> str:
    """What a picture cut by :data:`MAX_SHOWN` says: how many tiles it does not draw.

    >>> cut_note(8)
    '8 tiles not drawn: only the first 256 columns and rows are shown'
    """
    return f"{count(hidden, 'tile')} not drawn: only the first {MAX_SHOWN} columns and rows are shown"


Cell = tuple[int, int, int]
"""A tile at a drawing position: x, y, tile."""


@dataclass(frozen=True, slots=True)
class Layout:
    """Where a board picture draws: the coordinates shown along each axis
    (``None``: a gap), whether each was cut, how many tiles are not drawn,
    and the tiles, the last move's cells, the ghosts and the ringed cells at
    their drawing positions (the coordinates themselves, unless gaps or a cut close them up)."""

    columns: list[int | None]
    lines: list[int | None]
    cut: tuple[bool, bool]
    hidden: int
    cells: list[Cell]
    marked: set[tuple[int, int]]
    ghosts: list[Cell]
    rings: list[Cell]

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        """The drawing positions' least and greatest x, then y."""
        first_x, first_y = self.columns[0] or 0, self.lines[0] or 0
        return first_x, first_x + len(self.columns) - 1, first_y, first_y + len(self.lines) - 1


Placed = tuple[int, int, int]
"""A placement as the tuple it is: tile, x, y (:class:`~qwirkle_tools.core.board.Placement`)."""


def layout(board: Mapping[tuple[int, int], int] | Board, last: Iterable[Placed] = (), ghosts: Iterable[Placed] = (),
           open_cells: Iterable[Placed] = ()) -> Layout:
    """Where a picture of ``board`` draws each tile, the ``last`` move's
    cells, the ``ghosts`` and the ringed ``open_cells`` (each a tile on its cell)."""
    cells: list[Cell] = [(x, y, t) for (x, y), t in board.items()]
    ghost_cells = [(x, y, int(t)) for t, x, y in ghosts]
    ring_cells = [(x, y, int(t)) for t, x, y in open_cells]
    everything = cells + ghost_cells + ring_cells
    origin: tuple[list[int | None], bool] = ([0], False)  # an empty board: the one cell (0, 0)
    columns, cut_x = axis(c[0] for c in everything) if everything else origin
    lines, cut_y = axis(c[1] for c in everything) if everything else origin
    first_x, first_y = columns[0] or 0, lines[0] or 0
    at_x = {x: first_x + i for i, x in enumerate(columns) if x is not None}
    at_y = {y: first_y + i for i, y in enumerate(lines) if y is not None}
    hidden = not_shown(((x, y) for x, y, _ in everything), columns, lines) if cut_x or cut_y else 0

    def placed(found: list[Cell]) -> list[Cell]:
        return [(at_x[x], at_y[y], t) for x, y, t in found if x in at_x and y in at_y]

    marked = {(at_x[x], at_y[y]) for _, x, y in last if x in at_x and y in at_y}
    return Layout(columns, lines, (cut_x, cut_y), hidden, placed(cells), marked, placed(ghost_cells), placed(ring_cells))
