"""Lines: the one place that knows what a line of tiles is.

A *line* is a maximal unbroken run of tiles in a row or a column. This
module walks lines on a board, says whether a line is valid (one colour with
distinct shapes, or one shape with distinct colours), which tiles may still
join it, which tile completes a line of five, and what a line scores. Every
other module asks here; nothing else walks or judges a line.

Tiles are plain ints (0 to 35) and cells are :func:`~qwirkle_tools.core.board.cell_key`
ints, so that the move generator and the replay can use these functions in
their inner loops. A set of tiles is a 36-bit mask (bit ``t`` for tile ``t``).

    >>> fault([0, 1, 2])        # red circle, red cross, red diamond
    >>> fault([0, 7])           # red circle, orange cross
    'line-mixed'
    >>> points(6, bonus=6), points(3, bonus=6), points(1, bonus=6)
    (12, 3, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from .board import STEP_X, STEP_Y, as_cells
from .tiles import COLOUR_OF, SHAPE_OF

LINE_MAX: Final = 6
"""The longest valid line: 6 tiles (a Qwirkle)."""

ALL: Final = (1 << 36) - 1
"""The mask of all 36 tiles."""

JOIN: Final[tuple[int, ...]] = tuple(
    sum(1 << u for u in range(36) if u != t and (COLOUR_OF[u] == COLOUR_OF[t] or SHAPE_OF[u] == SHAPE_OF[t])) for t in range(36)
)
"""For each tile, the tiles that may share a line with it (its colour or its
shape, itself excluded). Tiles that pairwise may share a line always form a
valid line: if a and b share a colour and a and c a shape, b and c can share
neither without one of them being a."""

JOIN_OR_SELF: Final[tuple[int, ...]] = tuple(JOIN[t] | 1 << t for t in range(36))
""":data:`JOIN` with each tile itself included."""


FAULTS: Final[dict[str, str]] = {
    "line-too-long": "a line longer than 6",
    "line-mixed": "a line sharing neither one colour nor one shape",
    "duplicate-in-line": "a line with the same tile twice",
}
"""Each way a line can be invalid (a finding code) and how to say it."""


def mask(tiles: Iterable[int]) -> int:
    """The set of ``tiles`` as a mask (a tile twice is one bit)."""
    m = 0
    for t in tiles:
        m |= 1 << t
    return m


def survey(tiles: Sequence[int]) -> tuple[int, int]:
    """The one validity check. Returns the tiles that may join the line, as a
    mask (0 for a full line; -1 if the line is invalid), and the line's own
    tiles as a mask. A line is valid when its tiles are distinct and each may
    share a line with every other."""
    j = ALL
    m = 0
    for t in tiles:
        j &= JOIN_OR_SELF[t]
        m |= 1 << t
    if m & ~j or m.bit_count() != len(tiles):
        return -1, m
    return j & ~m, m


def fault(tiles: Sequence[int]) -> str | None:
    """Why a line of tiles is invalid (a key of :data:`FAULTS`), or ``None``.

    A line of fewer than two tiles is no line, so never invalid. The reasons
    go in this order: too long, then mixed (neither one colour nor one
    shape), then a tile twice.
    """
    n = len(tiles)
    if n < 2:
        return None
    if n > LINE_MAX:
        return "line-too-long"
    if survey(tiles)[0] >= 0:
        return None
    first = tiles[0]
    if any(COLOUR_OF[t] != COLOUR_OF[first] for t in tiles) and any(SHAPE_OF[t] != SHAPE_OF[first] for t in tiles):
        return "line-mixed"
    return "duplicate-in-line"


def joinable(tiles: Sequence[int]) -> int:
    """The tiles that may join a line of ``tiles`` and leave it valid, as a
    mask: 0 for an invalid or full line, :data:`ALL` for no tiles.

        >>> [t for t in range(36) if joinable([0, 1, 2, 3, 4]) >> t & 1]   # red c, x, d, s, t
        [5]
    """
    return max(survey(tiles)[0], 0)


def completing_tile(tiles: Sequence[int]) -> int | None:
    """The one tile that completes a valid line of five to a Qwirkle, else ``None``."""
    if len(tiles) != LINE_MAX - 1:
        return None
    j = joinable(tiles)
    return j.bit_length() - 1 if j and not j & (j - 1) else None


def points(length: int, bonus: int) -> int:
    """What a line of ``length`` tiles scores when a move forms or extends it:
    a point a tile, plus ``bonus`` for a Qwirkle; a lone tile is no line (0)."""
    if length < 2:
        return 0
    return length + bonus if length == LINE_MAX else length


REACH: Final = LINE_MAX + 1
"""How far :func:`walk` goes each way from its cell: past 6 tiles a line is
too long, whatever lies beyond, so no walk needs to go further (a board left
with a row of 60,000 tiles by illegal moves must not cost 60,000 steps a tile)."""


def line_start(cells: Mapping[int, int], key: int, step: int, reach: int | None = REACH) -> int:
    """The first cell of the run of board tiles through ``key`` along
    ``step``, going back at most ``reach`` cells (``None``: to the run's
    start); ``key`` itself when the cell before it is empty.

        >>> line_start({0: 0, STEP_X: 1, 3 * STEP_X: 2}, 2 * STEP_X, STEP_X) == 0
        True
    """
    first = key - (reach if reach is not None else _FAR) * step
    while key != first and key - step in cells:
        key -= step
    return key


def runs(cells: Mapping[int, int], start: int, step: int, length: int) -> list[list[int]]:
    """The tiles of each run of board tiles among the ``length`` cells from
    ``start`` along ``step``, in order (the lines a stretch of a row or a
    column holds; runs that go on beyond the stretch are cut at its ends).

        >>> runs({0: 0, STEP_X: 1, 3 * STEP_X: 2}, 0, STEP_X, 4)
        [[0, 1], [2]]
    """
    found: list[list[int]] = []
    run: list[int] = []
    for k in range(start, start + step * length, step):
        t = cells.get(k)
        if t is not None:
            run.append(t)
        elif run:
            found.append(run)
            run = []
    if run:
        found.append(run)
    return found


def walk(cells: Mapping[int, int], key: int, step: int,
         new: Mapping[int, int] | None = None, reach: int | None = REACH) -> tuple[int, list[int]]:
    """The line through cell ``key`` along ``step`` (:data:`~qwirkle_tools.core.board.STEP_X`
    for its row, ``STEP_Y`` for its column): its first cell and its tiles in
    order, over the board ``cells`` and the tiles ``new`` being placed.

    ``key`` itself must hold a tile (on the board or in ``new``) for the line
    to be the one through it; an empty ``key`` gives no tiles.

    Two loops, one for the board alone and one over the board and ``new``,
    are twins kept for speed (the replay walks the board alone, the
    explaining judge over both): ``tests/core/test_lines.py`` cross-checks them on
    random boards, and :func:`line_start` against both.

    The walk goes at most ``reach`` tiles (:data:`REACH`) beyond ``key`` each
    way (``None``: to the line's ends), so its cost is bounded: a line of at
    most :data:`LINE_MAX` tiles comes back whole, and a longer one as a part
    of it, around ``key``, that is itself longer than :data:`LINE_MAX` (so
    :func:`fault` says ``line-too-long`` of both). Its first cell is then
    the part's.

        >>> row = {k: 0 for k in range(0, 1000 * STEP_X, STEP_X)}   # 1,000 tiles in a row
        >>> start, tiles = walk(row, 500 * STEP_X, STEP_X)
        >>> start == 493 * STEP_X, len(tiles), fault(tiles)
        (True, 15, 'line-too-long')
    """
    return _walk(as_cells(cells), key, step, None if new is None else as_cells(new), reach)


def _walk(cells: dict[int, int], key: int, step: int, new: dict[int, int] | None, reach: int | None) -> tuple[int, list[int]]:
    """:func:`walk` over dicts (compiled: dict look-ups, no method called by name)."""
    # the walk stops at these cells (the sentinels lie beyond any board when reach is None)
    first = key - (reach if reach is not None else _FAR) * step
    if new is None:
        if key not in cells:
            return key, []
        start = key
        while start != first and start - step in cells:
            start -= step
        end = key + (reach + 1 if reach is not None else _FAR) * step
        tiles: list[int] = []
        k = start
        t = cells.get(k)
        while t is not None:
            tiles.append(t)
            k += step
            if k == end:
                break
            t = cells.get(k)
        return start, tiles
    if key not in cells and key not in new:
        return key, []
    start = key
    while start != first and (start - step in cells or start - step in new):
        start -= step
    end = key + (reach + 1 if reach is not None else _FAR) * step
    tiles = []
    k = start
    while k != end:
        t = cells.get(k)
        if t is None:
            t = new.get(k)
            if t is None:
                return start, tiles
        tiles.append(t)
        k += step
    return start, tiles


_FAR: Final = 1 << 23
"""More cells than any row or column holds (coordinates lie within +-2^21)."""


def lines_through(cells: Mapping[int, int], keys: Iterable[int], length: int) -> list[tuple[int, ...]]:
    """The lines of exactly ``length`` board tiles through any of ``keys``,
    each as its cell keys in order (e.g. the Qwirkles a move just made, with
    ``length`` 6), sorted."""
    found: set[tuple[int, ...]] = set()
    board = as_cells(cells)  # (once: a mapping that is no dict is copied)
    for key in keys:
        for step in (STEP_X, STEP_Y):
            start, tiles = _walk(board, key, step, None, REACH)
            if len(tiles) == length:
                found.add(tuple(range(start, start + length * step, step)))
    return sorted(found)


def accepts(cells: Mapping[int, int], key: int) -> int:
    """The tiles that fit alone on the empty cell ``key``, as a mask: those
    that leave its row and its column valid (:data:`ALL` on a cell with no
    neighbour). Each side is walked only as far as a line can be long: a
    twin of :func:`walk` that skips the empty cell (the analysis and the
    dead-position check ask it of every frontier cell); ``tests/core/test_lines.py``
    cross-checks it against :func:`walk` with each tile placed there."""
    get = cells.get
    m = ALL
    for step in (STEP_X, STEP_Y):
        tiles: list[int] = []
        k = key - step
        t = get(k)
        while t is not None and len(tiles) < LINE_MAX:
            tiles.append(t)
            k -= step
            t = get(k)
        k = key + step
        t = get(k)
        while t is not None and len(tiles) < LINE_MAX:
            tiles.append(t)
            k += step
            t = get(k)
        if tiles:
            m &= joinable(tiles)
    return m


def lone_points(cells: dict[int, int], key: int, tile: int, bonus: int) -> int:
    """What ``tile`` alone on the empty cell ``key`` scores (Qwirkle ``bonus``): the points of
    its row and its column, or 0 if either line would be invalid or the cell has no neighbour.
    The rules for one tile from this module's own parts, with no move built: :func:`accepts`
    says whether the tile may go there, :func:`line_start` how long its lines are, :func:`points`
    what they score; a look at the four neighbours first turns most cells away (a neighbour the
    tile cannot share a line with). The endgame solver asks it of a last tile's cells;
    ``tests/core/test_lines.py`` cross-checks it against :func:`~qwirkle_tools.core.rules.judge_placed`.

        >>> row = {0: 0, STEP_X: 1}                  # red circle, red cross
        >>> lone_points(row, 2 * STEP_X, 2, bonus=6)  # a red diamond after them: a row of 3
        3
        >>> lone_points(row, 2 * STEP_X, 7, bonus=6), lone_points(row, 5 * STEP_X, 2, bonus=6)  # orange cross; alone
        (0, 0)
    """
    clash = _CLASH[tile]
    if (clash >> cells.get(key + STEP_X, _NO_TILE) & 1 or clash >> cells.get(key - STEP_X, _NO_TILE) & 1
            or clash >> cells.get(key + STEP_Y, _NO_TILE) & 1 or clash >> cells.get(key - STEP_Y, _NO_TILE) & 1
            or not accepts(cells, key) >> tile & 1):
        return 0
    total = 0
    for step in (STEP_X, STEP_Y):  # (accepted: each line holds at most LINE_MAX tiles with this one)
        n = (line_start(cells, key, -step, LINE_MAX) - line_start(cells, key, step, LINE_MAX)) // step + 1
        total += points(n, bonus)
    return total


_CLASH: Final = tuple(ALL & ~JOIN[t] for t in range(36))
"""For each tile, the tiles it cannot share a line with (itself included), as a mask."""
_NO_TILE: Final = 36
"""Past every tile's bit in a mask: what an empty cell reads as where a mask is shifted by its tile."""


def run_ends(cells: dict[int, int], keys: Sequence[int]) -> list[int]:
    """The empty cells just past each end of the runs of tiles through ``keys`` (a move's cells, on
    the board ``cells``, in line order), each once: its own line's two, then two across each tile.

        >>> run_ends({0: 0, STEP_X: 1}, [0, STEP_X]) == [2 * STEP_X, -STEP_X, STEP_Y, -STEP_Y, STEP_X + STEP_Y, STEP_X - STEP_Y]
        True
    """
    along = STEP_X if len(keys) > 1 and keys[1] - keys[0] >= STEP_X else STEP_Y
    ends: list[int] = []
    for i in range(len(keys)):
        for step in (along, -along, STEP_X + STEP_Y - along, along - STEP_X - STEP_Y):
            if i and (step == along or step == -along):
                continue  # (the move's own line: from its first tile alone)
            end = line_start(cells, keys[i], -step, None) + step
            if end not in ends:
                ends.append(end)
    return ends


__all__ = ["ALL", "FAULTS", "JOIN", "JOIN_OR_SELF", "LINE_MAX", "REACH", "accepts", "completing_tile", "fault", "joinable",
           "line_start", "lines_through", "lone_points", "mask", "points", "run_ends", "runs", "survey", "walk"]
