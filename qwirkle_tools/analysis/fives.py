"""Lines of five: the Qwirkles a move leaves open to the next player, and the
chance that player holds a tile that completes one (``open-five`` and
``qwirkle-gift`` in :mod:`qwirkle_tools.analysis.analyse`).

Pure functions of a board (cell key to tile number) and a state; nothing is
replayed here.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..core.board import as_cells, key_cell
from ..core.lines import LINE_MAX, accepts, completing_tile, lines_through
from ..core.pickling import Rebuilt, rebuilt
from ..core.tiles import COPIES, TILES, Tile
from ..play.engine import GameState

Five = tuple[tuple[int, ...], int]
"""A line of five: its cell keys and the tile that completes it."""


@dataclass(frozen=True, slots=True)
class OpenFive:
    """A line of five a move left open: its cells, the tile that completes it,
    the empty end cells where that tile fits, the copies of it the mover has
    not seen, and the chance that the next player holds one (``None`` when
    the next player's rack size is not known)."""

    line: tuple[tuple[int, int], ...]
    missing: Tile
    cells: tuple[tuple[int, int], ...]
    unseen: int
    chance: float | None

    def to_data(self) -> dict[str, object]:
        return {"line": [list(c) for c in self.line], "missing": str(self.missing),
                "cells": [list(c) for c in self.cells], "unseen": self.unseen,
                "chance": None if self.chance is None else round(self.chance, 4)}

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


def open_fives(cells: Mapping[int, int], keys: Iterable[int]) -> list[tuple[tuple[int, ...], int]]:
    """The lines of five through ``keys`` (a move's cells) on the board ``cells``
    whose sixth tile still has a copy off the board: a Qwirkle left open to
    the next player. Each as its cell keys and the tile that completes it."""
    on_table = Counter(cells.values())
    fives = []
    for line in lines_through(cells, keys, LINE_MAX - 1):
        need = completing_tile([cells[k] for k in line])
        if need is not None and on_table[need] < COPIES:
            fives.append((line, need))
    return fives


def chance_held(unseen: int, copies: int, rack: int) -> float:
    """The chance that a rack of ``rack`` tiles, drawn uniformly from ``unseen``
    tiles, holds at least one of ``copies`` of them (hypergeometric):
    1 - C(unseen - copies, rack) / C(unseen, rack).

        >>> round(chance_held(60, 3, 6), 4)   # 1 - C(57,6)/C(60,6)
        0.2752
    """
    rack = min(rack, unseen)
    if copies <= 0 or rack <= 0:
        return 0.0
    return 1 - math.comb(unseen - copies, rack) / math.comb(unseen, rack)


def open_five_risks(after: GameState, mover: int, fives: Sequence[tuple[tuple[int, ...], int]], players: int
                    ) -> tuple[tuple[OpenFive, ...], float | None]:
    """Of the lines of five ``fives`` (:func:`open_fives`) left by seat
    ``mover``'s move, those whose sixth tile fits an end cell and has copies
    the mover has not seen, in the state ``after`` the move; and the chance
    the next player holds at least one completing tile (``None`` when that
    player's rack size is not known; a game already over leaves no risk).
    """
    if after.ended:
        return (), None
    cells = as_cells(after.board)
    unseen = after.unseen(mover)
    total = sum(unseen)
    size = after.rack_sizes[(mover + 1) % players] if players else None
    found = []
    for line, need in fives:
        step = line[1] - line[0]
        ends = [k for k in (line[0] - step, line[-1] + step) if accepts(cells, k) >> need & 1]
        if not ends or not unseen[need]:
            continue
        chance = None if size is None else chance_held(total, unseen[need], size)
        found.append(OpenFive(tuple(key_cell(k) for k in line), TILES[need], tuple(key_cell(k) for k in ends),
                              unseen[need], chance))
    if not found or size is None:
        return tuple(found), None
    copies = sum(unseen[t] for t in {int(f.missing) for f in found})
    return tuple(found), chance_held(total, copies, size)


def completed(left: Iterable[Five], cells: Mapping[int, int], keys: Iterable[int]) -> Five | None:
    """Which of the lines of five ``left`` open (by the move before) a move through
    ``keys`` made into a line of six on the board ``cells`` (the last found), if any."""
    sixes = [set(six) for six in lines_through(cells, keys, LINE_MAX)]
    found = None
    for five, missing in left:
        if any(set(five) <= six for six in sixes):
            found = (five, missing)
    return found
