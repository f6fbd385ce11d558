"""The board: which tile lies on which cell.

Cells are ``(x, y)`` with ``x`` growing to the right and ``y`` downward. Inside,
a cell is one integer key (see :func:`cell_key`) so that neighbours are plain
additions; the public API speaks in ``(x, y)`` and :class:`Placement`.

A :class:`Board` is immutable: :meth:`Board.place` returns a new board. It
knows nothing of legality; :mod:`qwirkle_tools.core.rules` decides that.
"""

from __future__ import annotations

import re
from collections.abc import Collection, ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from types import MappingProxyType
from typing import Final, NamedTuple

from .errors import QwirkleError
from .text import cut
from .tiles import TILES, Tile

COORD_LIMIT: Final = 1_000_000
"""Largest coordinate magnitude a record may use (the schema enforces it)."""

INTEGER: Final = re.compile(r"-?[0-9]+")
"""The grammar of a coordinate wherever a cell is read (:func:`parse_coordinate`,
:meth:`Placement.parse`, :meth:`Move.parse <qwirkle_tools.core.move.Move.parse>`,
the notation, the bots' protocol): ASCII digits after an optional minus sign,
at most :data:`MAX_DIGITS` of them; no plus sign, no underscore, no digits of
another script (``int()`` takes all three)."""
MAX_DIGITS: Final = 15
"""Longest number read (a coordinate, a score); a longer one is a mistake."""

_SHIFT: Final = 22
STEP_X: Final = 1 << _SHIFT
"""Key difference between a cell and its right-hand neighbour."""
STEP_Y: Final = 1
"""Key difference between a cell and the cell below it."""
_HALF: Final = 1 << (_SHIFT - 1)
_Y_MASK: Final = (1 << _SHIFT) - 1


def cell_key(x: int, y: int) -> int:
    """One integer for a cell, valid while ``|x|, |y| <= COORD_LIMIT``."""
    return (x << _SHIFT) + y


def key_cell(key: int) -> tuple[int, int]:
    """The ``(x, y)`` of a cell key; inverse of :func:`cell_key`."""
    x = (key + _HALF) >> _SHIFT
    return x, key - (x << _SHIFT)


def key_bounds(keys: Collection[int]) -> tuple[int, int, int, int]:
    """``(min_x, min_y, max_x, max_y)`` of some cell keys (at least one),
    without splitting each key: keys order cells by ``x`` first, and a key
    plus half a step in ``x`` holds ``y`` plus that half in its low bits.

        >>> key_bounds([cell_key(2, -5), cell_key(-1, 3), cell_key(0, 0)])
        (-1, -5, 2, 3)
    """
    ys = list(map(_Y_MASK.__and__, map(_HALF.__add__, keys)))  # y + _HALF each (map: no Python frame per key)
    return key_cell(min(keys))[0], min(ys) - _HALF, key_cell(max(keys))[0], max(ys) - _HALF


def cell_text(key: int) -> str:
    """A cell key as ``(x,y)``, the form messages use."""
    x, y = key_cell(key)
    return f"({x},{y})"


def parse_coordinate(text: str) -> int:
    """A coordinate written by the grammar of :data:`INTEGER`: ``0``, ``-12``.

    Raises:
        ValueError: the text is no such number; the message quotes it.
    """
    if not INTEGER.fullmatch(text):
        raise ValueError(f"expected a whole number like 3 or -1, got {cut(text, 40)!r}")
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"expected a number of at most {MAX_DIGITS} digits, got {len(text.lstrip('-'))}")
    return int(text)


class PlacementError(QwirkleError, ValueError):
    """A text that is no placement; the message quotes it."""


class Placement(NamedTuple):
    """A tile put on a cell: ``Placement(Tile.parse("rc"), 0, 0)``."""

    tile: Tile
    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.tile}@{self.x},{self.y}"

    @classmethod
    def parse(cls, text: str) -> Placement:
        """Read ``tile@x,y`` (long or short tile form), as :meth:`__str__` writes;
        ``x`` and ``y`` by the notation's grammar (:func:`parse_coordinate`),
        spaces around the parts ignored (as :meth:`Tile.parse` ignores them).

        Raises:
            PlacementError: the text is no placement; the message quotes it.
        """
        name, at, where = text.partition("@")
        x, comma, y = where.partition(",")
        try:
            if not at or not comma:
                raise ValueError("no '@' before the cell" if not at else "no ',' between x and y")
            return cls(Tile.parse(name), parse_coordinate(x.strip()), parse_coordinate(y.strip()))
        except ValueError as exc:
            raise PlacementError(f"bad placement {cut(text, 40)!r}: write tile@x,y ({exc})") from None

    @property
    def short(self) -> str:
        """The short text form, ``rc@0,0``, for typing at a terminal (parsed by :meth:`parse` too)."""
        return f"{self.tile.short}@{self.x},{self.y}"

    @property
    def key(self) -> int:
        """The cell's key (:func:`cell_key`; the hot paths call that: compiled, reading a named tuple's
        property looks it up by name)."""
        return (self.x << _SHIFT) + self.y


def format_move(placements: Iterable[Placement], short: bool = True) -> str:
    """Placements as one text, separated by spaces: ``"rc@0,0 rx@1,0"``
    (the long tile form with ``short=False``); :func:`parse_move` reads it back."""
    return " ".join(p.short if short else str(p) for p in placements)


def parse_move(text: str) -> tuple[Placement, ...]:
    """Placements from a text as :func:`format_move` writes it (either tile
    form, separated by spaces).

    Raises:
        ValueError: a placement that cannot be read; the message quotes it.
    """
    return tuple(Placement.parse(part) for part in text.split())


class Board:
    """An immutable map from ``(x, y)`` to the tile lying there: a
    :class:`~collections.abc.Mapping` (registered as one, its methods written out:
    the compiled build's classes cannot inherit the mixins)."""

    __slots__ = ("_cells",)

    def __init__(self, placements: Iterable[Placement] = ()) -> None:
        cells: dict[int, int] = {}
        for p in placements:
            cells[cell_key(p.x, p.y)] = p.tile
        self._cells = cells

    @classmethod
    def _wrap(cls, cells: dict[int, int]) -> Board:
        """A board over ``cells``, which the caller must never change again."""
        board = cls()
        board._cells = cells
        return board

    @property
    def cells(self) -> Mapping[int, int]:
        """Cell key to tile number: the fast, read-only view for the engine."""
        return MappingProxyType(self._cells)

    def place(self, placements: Iterable[Placement]) -> Board:
        """A new board with the tiles added (no legality check)."""
        cells = dict(self._cells)
        for p in placements:
            cells[cell_key(p.x, p.y)] = p.tile
        return Board._wrap(cells)

    def placements(self) -> list[Placement]:
        """Every tile on the board, sorted by row then column."""
        out = [Placement(TILES[t], *key_cell(k)) for k, t in self._cells.items()]
        out.sort(key=lambda p: (p.y, p.x))
        return out

    def bounds(self) -> tuple[int, int, int, int]:
        """``(min_x, min_y, max_x, max_y)``; ``(0, 0, 0, 0)`` when empty."""
        if not self._cells:
            return (0, 0, 0, 0)
        return key_bounds(self._cells)

    def __getitem__(self, cell: tuple[int, int]) -> Tile:
        return TILES[self._cells[cell_key(*cell)]]

    def __contains__(self, cell: object) -> bool:
        if not isinstance(cell, tuple) or len(cell) != 2:
            return False
        return cell_key(*cell) in self._cells

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return (key_cell(k) for k in self._cells)

    def __len__(self) -> int:
        return len(self._cells)

    def _mapping(self) -> dict[tuple[int, int], Tile]:
        return {key_cell(k): TILES[t] for k, t in self._cells.items()}

    def keys(self) -> KeysView[tuple[int, int]]:
        return self._mapping().keys()

    def values(self) -> ValuesView[Tile]:
        return self._mapping().values()

    def items(self) -> ItemsView[tuple[int, int], Tile]:
        return self._mapping().items()

    def get(self, cell: tuple[int, int], default: Tile | None = None) -> Tile | None:
        t = self._cells.get(cell_key(*cell))
        return default if t is None else TILES[t]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Board):
            return self._cells == other._cells
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self._cells.items()))

    def __reduce__(self) -> tuple[type[Board], tuple[list[Placement]]]:
        return Board, (self.placements(),)  # (pickle and copy: the compiled class has no state of its own to give)

    def __repr__(self) -> str:
        return f"Board.parse({self.diagram()!r})" if self._cells else "Board()"

    def diagram(self) -> str:
        """The board as rows of two-letter tiles, ``..`` for an empty cell.

        The first line gives the top-left cell, so the text round-trips
        through :meth:`parse`::

            @0,0
            rc rs
            .. bs
        """
        min_x, min_y, max_x, max_y = self.bounds()
        lines = [f"@{min_x},{min_y}"]
        for y in range(min_y, max_y + 1):
            row = []
            for x in range(min_x, max_x + 1):
                t = self._cells.get(cell_key(x, y))
                row.append(".." if t is None else TILES[t].short)
            lines.append(" ".join(row))
        return "\n".join(lines)

    @classmethod
    def parse(cls, text: str) -> Board:
        """Read a diagram as :meth:`diagram` writes it.

        The ``@x,y`` line is optional (default ``@0,0``); blank lines and
        surrounding spaces are ignored, so diagrams can be indented in tests.
        """
        rows = [line.split() for line in text.strip().splitlines() if line.strip()]
        x0 = y0 = 0
        if rows and rows[0][0].startswith("@"):
            x, _, y = rows[0][0][1:].partition(",")
            x0, y0 = parse_coordinate(x), parse_coordinate(y)
            rows = rows[1:]
        cells: dict[int, int] = {}
        for dy, row in enumerate(rows):
            for dx, item in enumerate(row):
                if item != "..":
                    cells[cell_key(x0 + dx, y0 + dy)] = Tile.parse(item)
        return cls._wrap(cells)


Mapping.register(Board)


def as_cells(board: Board | Mapping[int, int]) -> dict[int, int]:
    """A board's cells (cell key to tile number) as a dict, for code that reads them by the
    thousand: a dict itself, a :class:`Board`'s own (it never changes), else a copy."""
    if isinstance(board, dict):
        return board
    if isinstance(board, Board):
        return board._cells
    return dict(board)
