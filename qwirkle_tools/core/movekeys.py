"""The move generator's sort keys: how one integer says a whole move, and how the keys of a
generation turn back into moves (:class:`Found`). :mod:`~qwirkle_tools.core.movegen` makes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from .board import STEP_X, STEP_Y, cell_key
from .frontier import Placements
from .move import Move

RawMove = tuple[int, int, tuple[int, ...], tuple[int, ...]]
"""``(score, qwirkles, cell_keys, tiles)``: a move as plain data, its cells and
tiles in line order (left to right, or top to bottom), as in :attr:`Move.tiles`."""

# Each move found is one integer, its sort key, which says the whole move:
#     -(score * 8 + qwirkles) << (31 + w)  |  first << 31  |  column << 30  |  slots
# ``first`` is the code of its first placement in line order, ((y - y0) * width + x - x0) * 64
# + tile, in a frame (x0, y0, width: see BoardData) that keeps every possible move's codes
# positive, below 2**w, and ordered as (y, x, tile). ``column`` is 1 for a move down a column
# (0 along a row, and for one tile). ``slots`` holds a 6-bit slot for each of the 5 cells after
# the first along the line, the nearest highest: tile + 1 for a placed tile, 63 for a board tile
# between two placed ones, 0 past the move's last tile. So the keys sort as generate orders the
# moves (score, Qwirkles, then the placements as (y, x, tile) in line order, a move before the
# longer ones it begins: a row's second cell comes before a column's), and differ for different
# moves; on boards of any usual size they fit 63 bits (larger ones stay right as larger ints).
COLUMN: Final = 1 << 30
SLOTS: Final = COLUMN - 1
BOARD_SLOT: Final = 63
SLOT_SHIFT: Final = (30, 24, 18, 12, 6, 0)  # by the cell's offset from the first placement (offset 0 is ``first``: no slot)
GAPS: Final = tuple(sum(BOARD_SLOT << SLOT_SHIFT[o] for o in range(max(1, off - run), off) if o <= 5)
                     for off in range(16) for run in range(8))
"""``GAPS[off * 8 + run]``: the slots of ``run`` board tiles just before offset ``off``."""


class Found:
    """The moves of one generation, as sort keys (see above), and what turns them into moves:
    the frame of their codes, ``shift`` (31 + w), and the placements by code."""

    def __init__(self, keys: list[int], shift: int, frame: tuple[int, int, int], placements: Placements) -> None:
        self.keys = keys
        self.shift = shift
        self.frame = frame
        self.placements = placements

    def __len__(self) -> int:
        return len(self.keys)

    def points(self) -> list[int]:
        """Each move's points (no end bonus), in :func:`~qwirkle_tools.core.movegen.generate`'s
        order, read off the keys: no move is made."""
        self.keys.sort()
        shift = self.shift
        return [(-(key >> shift)) >> 3 for key in self.keys]

    def qwirkles(self) -> list[int]:
        """Each move's lines of six completed, in the same order (as :meth:`points`)."""
        self.keys.sort()
        shift = self.shift
        return [(-(key >> shift)) & 7 for key in self.keys]

    def counts(self) -> Iterator[int]:
        """Each move's number of tiles placed, in the same order; worked out as it is read."""
        self.keys.sort()
        for key in self.keys:
            slots = key & SLOTS
            placed = 1
            while slots:
                slot = slots & 63
                slots >>= 6
                if slot and slot != BOARD_SLOT:
                    placed += 1
            yield placed

    def picked(self, at: Iterable[int]) -> list[RawMove]:
        """The moves at positions ``at`` of the order (as :meth:`points`) as :data:`RawMove`."""
        self.keys.sort()
        keys = self.keys
        return self._raws([keys[k] for k in at])

    def best(self) -> Move | None:
        """The first move in :func:`~qwirkle_tools.core.movegen.generate`'s order, the others left unmade (they are dropped)."""
        if not self.keys:
            return None
        self.keys = [min(self.keys)]
        return self.moves()[0]

    def moves(self) -> list[Move]:
        """Every move, in :func:`~qwirkle_tools.core.movegen.generate`'s order."""
        self.keys.sort()
        shift, made = self.shift, self.placements
        rows = made.rows  # (the placement of a code: rows[code >> 6][code & 63], made when first asked for)
        cells = len(rows)
        found = []
        column = self.frame[2] << 6
        for key in self.keys:
            high = key >> shift
            rest = key - (high << shift)
            first = rest >> 31
            cell = first >> 6
            row = rows[cell] if cell < cells else None
            p = None if row is None else row[first & 63]
            if p is None:
                p = made.make(first)
            slots = rest & SLOTS
            if slots:  # the placed tiles, cell by cell from the first (raws() decodes the same way: one decoder
                # called per move cost the pure build a tenth more, so each writes its loop out)
                step = column if rest & COLUMN else 64
                code = first & ~63
                tiles = [p]
                while slots:
                    code += step
                    slot = slots >> 24
                    slots = (slots << 6) & SLOTS
                    if slot != BOARD_SLOT:
                        cell = code >> 6
                        row = rows[cell] if cell < cells else None
                        p = None if row is None else row[slot - 1]
                        tiles.append(made.make(code + slot - 1) if p is None else p)
                placed = tuple(tiles)
            else:
                placed = (p,)
            found.append(Move("place", placed, (), (-high) >> 3, (-high) & 7))
        return found

    def raws(self) -> list[RawMove]:
        """Every move as :data:`RawMove`, in :func:`~qwirkle_tools.core.movegen.generate`'s order."""
        self.keys.sort()
        return self._raws(self.keys)

    def _raws(self, chosen: list[int]) -> list[RawMove]:
        shift = self.shift
        x0, y0, width = self.frame
        corner = cell_key(x0, y0)  # (a cell key is linear in x and y)
        found: list[RawMove] = []
        for key in chosen:  # (not "keys", a name the loop takes for each move's cells)
            high = key >> shift
            rest = key - (high << shift)
            first = rest >> 31
            cell = first >> 6
            origin = corner + cell % width * STEP_X + cell // width * STEP_Y
            slots = rest & SLOTS
            if slots:  # (as in moves)
                step = STEP_Y if rest & COLUMN else STEP_X
                keys = [origin]
                tiles = [first & 63]
                while slots:
                    origin += step
                    slot = slots >> 24
                    slots = (slots << 6) & SLOTS
                    if slot != BOARD_SLOT:
                        keys.append(origin)
                        tiles.append(slot - 1)
                found.append(((-high) >> 3, (-high) & 7, tuple(keys), tuple(tiles)))
            else:
                found.append(((-high) >> 3, (-high) & 7, (origin,), (first & 63,)))
        return found
