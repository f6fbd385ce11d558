"""What the move generator knows of a board besides the rack, kept from call to call.

The board's runs of tiles along rows and columns, keyed by the empty cells
at their ends; what each frontier cell (an empty cell beside the board)
accepts; and, worked out when first needed, each frontier cell's record and
infos, which :mod:`~qwirkle_tools.core.movegen` grows its moves from. They
are kept, per thread, for the next call: when that call's board holds the
same tiles and more, as in a game played or replayed turn by turn, only the
lines through the new tiles are worked out again (:func:`board_data`). A
search that says what each move placed keeps its own data instead (:class:`Line`).

No move reaches past the coordinate limit (:data:`~qwirkle_tools.core.board.COORD_LIMIT`):
on a board within reach of it, the cells just past it that a move could reach are
frontier cells that accept no tile (:func:`_fence`), so no move is grown onto them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from typing import Any, Final

from .board import COORD_LIMIT, STEP_X, STEP_Y, Placement, cell_key, key_bounds, key_cell
from .lines import ALL, accepts, line_start, survey, walk
from .tiles import TILES

_new_tuple: Final = tuple.__new__  # Placement(...) without the named tuple's Python-level __new__
_MARGIN: Final = 7  # moves reach at most 6 cells beyond the board's bounds
_SLACK: Final = 8  # room left in a frame for the board to grow

Run = tuple[int, int, int]  # (tiles that may join, tiles, length); joinable 0 if the run is invalid
NO_RUN: Final[Run] = (ALL, 0, 0)
# per empty cell and direction: (tiles allowed there by its cross line and the run after it,
# tiles of the run after it, tiles that may join that run, its length, cross points, cross Qwirkles)
Info = tuple[int, int, int, int, int, int]
DEAD: Final[Info] = (0, 0, 0, 0, 0, 0)
FREE: Final[Info] = (ALL, 0, ALL, 0, 0, 0)


ROWS_MOST: Final = 1 << 18
"""The most cells a frame keeps :class:`Placements` rows for (a list of 2 MB)."""


class Placements:
    """Placement code to placement, each built once: ``rows[code >> 6][code & 63]``, ``None``
    until :meth:`make` builds it. Lists by cell, then tile, rather than a dict by code: compiled,
    a list's index is a machine integer, where each look-up in a dict boxes its key. A frame of
    more than :data:`ROWS_MOST` cells (a board of tiles far apart, as a record may set up) has no
    rows: its placements are kept in ``far``, by code."""

    __slots__ = ("frame", "rows", "far")

    def __init__(self, x0: int, y0: int, width: int, cells: int) -> None:
        self.frame = (x0, y0, width)
        # (codes below 64 * cells; a reader of rows checks a cell against len(rows) first)
        self.rows: list[list[Placement | None] | None] = [None] * cells if cells <= ROWS_MOST else []
        self.far: dict[int, Placement] = {}

    def make(self, code: int) -> Placement:
        """The placement of ``code``, built and kept."""
        cell, tile = code >> 6, code & 63
        if cell >= len(self.rows):
            p = self.far.get(code)
            if p is None:
                p = self.far[code] = self.build(code)
            return p
        row = self.rows[cell]
        if row is None:
            row = self.rows[cell] = [None] * len(TILES)
        p = row[tile] = self.build(code)
        return p

    def build(self, code: int) -> Placement:
        x0, y0, width = self.frame
        cell = code >> 6
        p: Placement = _new_tuple(Placement, (TILES[code & 63], cell % width + x0, cell // width + y0))
        return p


class BoardData:
    """What the moves on a board depend on besides the rack, kept from call to
    call (per thread): a board is usually the previous call's plus a few tiles.

    ``before_x`` / ``after_x`` map each empty cell at the end of a maximal run
    of board tiles along a row to that run; ``before_y`` / ``after_y`` the same
    for columns. ``joinable`` maps every frontier cell (empty, beside the board)
    to the tiles that all its neighbouring runs accept. ``cells`` (a snapshot of
    the board), ``bonus``, and the records and infos of frontier cells, computed
    when first needed: ``records[f] = (row, col, row length, column length, and
    the lengths of the runs before and after f in its row, then its column,
    and f's placement code with tile 0)``, where ``row`` / ``col`` are the tiles
    its row / column accept; ``info_x[f]`` / ``info_y[f]`` as ``Info`` for
    moves along a row / column.

    Placement codes (see the move generator's sort keys) use a frame: ``x0``, ``y0`` and ``width``, with
    room around the board for every move, which reaches at most 6 cells beyond
    the board's bounds; ``w`` bits hold a code. ``placements`` maps codes to
    Placement objects. The bounds are kept to move the frame when the board
    outgrows it.
    """

    def __new__(cls, *args: object, **kwargs: object) -> BoardData:  # (compiled: pickles, copies)
        return super().__new__(cls)

    cells: dict[int, int]
    bonus: int
    before_x: dict[int, Run]
    after_x: dict[int, Run]
    before_y: dict[int, Run]
    after_y: dict[int, Run]
    joinable: dict[int, int]
    records: dict[int, tuple[int, ...]]  # (9 ints; of no fixed length to the compiler: kept as the object it is)
    info_x: dict[int, Info]
    info_y: dict[int, Info]
    bounds: tuple[int, int, int, int]
    x0: int
    y0: int
    width: int
    w: int
    placements: Placements
    stamp: int  # counts the changes made in place (see grown)
    spots: list[Any]  # (cells: Any, so that the compiled build hands each on as the object it is, not boxed anew)
    masks: list[int]
    slot: dict[int, int]
    __slots__ = ("cells", "bonus", "before_x", "after_x", "before_y", "after_y", "joinable",
                 "records", "info_x", "info_y", "bounds", "x0", "y0", "width", "w", "placements", "stamp",
                 "spots", "masks", "slot")

    def __init__(self, cells: dict[int, int], bonus: int, like: BoardData | None = None) -> None:
        self.cells = dict(cells)
        self.bonus = bonus
        self.stamp = 0
        if like is not None:  # a copy of like's data (the board of cells) to grow without changing it
            self.bounds, self.x0, self.y0, self.width, self.w = like.bounds, like.x0, like.y0, like.width, like.w
            self.placements = like.placements  # a cache for the frame, shared
            self.before_x, self.after_x = like.before_x.copy(), like.after_x.copy()
            self.before_y, self.after_y = like.before_y.copy(), like.after_y.copy()
            self.joinable, self.records = like.joinable.copy(), like.records.copy()
            self.info_x, self.info_y = like.info_x.copy(), like.info_y.copy()
            self.spots, self.masks, self.slot = like.spots.copy(), like.masks.copy(), like.slot.copy()
            return
        self.bounds = key_bounds(cells)
        self.frame()
        self.before_x, self.after_x = _runs(cells, STEP_X, cells)
        self.before_y, self.after_y = _runs(cells, STEP_Y, cells)
        joinable: dict[int, int] = {}
        get = joinable.get
        for runs in (self.before_x, self.after_x, self.before_y, self.after_y):
            for f, run in runs.items():
                joinable[f] = get(f, ALL) & run[0]
        self.joinable = joinable
        if _near_limit(self.bounds):
            _fence(joinable, cells)
        self.index()
        self.records = {}
        self.info_x = {}
        self.info_y = {}

    def copy(self) -> BoardData:
        """A copy to grow without changing this one (the placements, a cache for the frame, shared)."""
        return BoardData(self.cells, self.bonus, self)

    def index(self) -> None:
        """``joinable`` again as lists, for the loops over every frontier cell: ``spots[i]`` a
        cell, ``masks[i]`` its mask, ``slot[cell]`` its ``i`` (compiled, an item of a list is
        read with no call, where a dict's are handed out one call and two objects each)."""
        self.spots = list(self.joinable)
        self.masks = list(self.joinable.values())
        self.slot = {f: i for i, f in enumerate(self.spots)}

    def fits(self, wanted: int) -> bool:
        """Whether a tile of the mask ``wanted`` fits alone on some frontier cell. A cell with
        a run on one side only, in its row and in its column, accepts exactly what
        ``joinable`` says; a cell between two runs is judged (:func:`~qwirkle_tools.core.lines.accepts`)."""
        bx, ax, by, ay = self.before_x, self.after_x, self.before_y, self.after_y
        spots, masks = self.spots, self.masks
        for i in range(len(masks)):
            if masks[i] & wanted:
                f = spots[i]
                if not ((f in bx and f in ax) or (f in by and f in ay)) or accepts(self.cells, f) & wanted:
                    return True
        return False

    def forget(self) -> None:
        """Drop the records and infos (they hold points and codes)."""
        self.stamp += 1
        self.records.clear()
        self.info_x.clear()
        self.info_y.clear()

    def frame(self) -> None:
        """A frame around the board's bounds, with room to grow."""
        min_x, min_y, max_x, max_y = self.bounds
        self.x0 = min_x - _MARGIN - _SLACK
        self.y0 = min_y - _MARGIN - _SLACK
        self.width = max_x - self.x0 + _MARGIN + _SLACK + 1
        height = max_y - self.y0 + _MARGIN + _SLACK + 1
        self.w = (height * self.width * 64).bit_length()
        self.placements = Placements(self.x0, self.y0, self.width, (1 << self.w) >> 6)

    def add(self, cells: dict[int, int], new: set[int]) -> None:
        """Bring the data up to ``cells``: the snapshot plus the cells ``new``."""
        self.stamp += 1
        snapshot = self.cells  # (its own copy: brought up to date, not copied again)
        min_x, min_y, max_x, max_y = self.bounds
        for k in new:
            snapshot[k] = cells[k]
            x, y = key_cell(k)
            min_x, min_y, max_x, max_y = min(min_x, x), min(min_y, y), max(max_x, x), max(max_y, y)
        self.bounds = min_x, min_y, max_x, max_y
        if (min_x - _MARGIN < self.x0 or min_y - _MARGIN < self.y0 or max_x + _MARGIN >= self.x0 + self.width
                or (max_y + _MARGIN - self.y0 + 1) * self.width * 64 >= 1 << self.w):
            self.frame()
            self.forget()
        # (the cells typed Any: compiled, each stays the one object it is, where an int would be boxed
        # anew for every look-up; and a del after an in, where dict.pop is a method called by name)
        fresh: list[Any] = list(new)
        touched: set[Any] = set(fresh)  # frontier cells whose runs changed, and cells no longer empty
        for step, before, after in ((STEP_X, self.before_x, self.after_x), (STEP_Y, self.before_y, self.after_y)):
            starts = set()
            for k in fresh:
                if k in before:
                    del before[k]
                if k in after:
                    del after[k]
                starts.add(line_start(cells, k, step, reach=None))
            b, a = _runs(cells, step, starts)
            before.update(b)
            after.update(a)
            touched.update(b)
            touched.update(a)
        runs = (self.before_x, self.after_x, self.before_y, self.after_y)
        records, info_x, info_y, joinable = self.records, self.info_x, self.info_y, self.joinable
        for f in touched:
            if f in records:
                del records[f]
            if f in info_x:
                del info_x[f]
            if f in info_y:
                del info_y[f]
            if f in cells:
                if f in joinable:
                    del joinable[f]
                    self.unlist(f)
            else:
                j = ALL
                for r in runs:
                    run = r.get(f)
                    if run is not None:
                        j &= run[0]
                joinable[f] = j
                i = self.slot.get(f)
                if i is None:
                    self.slot[f] = len(self.spots)
                    self.spots.append(f)
                    self.masks.append(j)
                else:
                    self.masks[i] = j
        if _near_limit(self.bounds):
            _fence(self.joinable, new)
            self.index()

    def unlist(self, f: int) -> None:
        """Take the cell ``f`` out of the lists (see :meth:`index`): the last one takes its place."""
        slot = self.slot
        i = slot[f]
        del slot[f]
        last, mask = self.spots.pop(), self.masks.pop()
        if i < len(self.spots):
            self.spots[i], self.masks[i] = last, mask
            self.slot[last] = i


def _near_limit(bounds: tuple[int, int, int, int]) -> bool:
    """Whether a board of these bounds lies within a move's reach of the coordinate limit."""
    min_x, min_y, max_x, max_y = bounds
    near = COORD_LIMIT - _MARGIN
    return min_x < -near or min_y < -near or max_x > near or max_y > near


def _fence(joinable: dict[int, int], cells: Iterable[int]) -> None:
    """Make the cells past the coordinate limit that a move beside ``cells`` could reach
    frontier cells that accept no tile: every move lies in one line, grows cell by cell
    from a frontier cell and spans at most 6 cells, so it reaches past the limit only
    through a cell just past it, in the column (or row) of a tile within 6 of the limit
    or of its neighbour. (An anchor needs a tile of the rack in its mask, and the growth
    stops at a cell of the frontier that accepts none: a mask of 0 is both.)"""
    edge = COORD_LIMIT + 1
    near = COORD_LIMIT - _MARGIN
    for k in cells:
        x, y = key_cell(k)
        for d in (-1, 0, 1):
            if y > near:
                joinable[cell_key(x + d, edge)] = 0
            if y < -near:
                joinable[cell_key(x + d, -edge)] = 0
            if x > near:
                joinable[cell_key(edge, y + d)] = 0
            if x < -near:
                joinable[cell_key(-edge, y + d)] = 0
    for k in [k for k in joinable if joinable[k]]:
        x, y = key_cell(k)
        if abs(x) > COORD_LIMIT or abs(y) > COORD_LIMIT:  # a frontier cell past the limit, beside a run's end
            joinable[k] = 0


_local = threading.local()


def kept() -> BoardData | None:
    """A copy of this thread's board data (``None`` if there is none), for :func:`restore`:
    a search that takes tiles back (a board no longer a superset of the last one's) would
    otherwise have the data worked out afresh."""
    data: BoardData | None = getattr(_local, "data", None)
    return None if data is None else data.copy()


def restore(saved: BoardData | None) -> None:
    """Make a copy of ``saved`` (from :func:`kept`) this thread's board data again. Safe
    whatever the next board: :func:`board_data` still uses it only for a board that holds
    all its cells."""
    if saved is not None:
        _local.data = saved.copy()


def board_data(cells: dict[int, int], bonus: int) -> BoardData:
    """The board data for ``cells``: this thread's last, brought up to date if
    ``cells`` has all its cells (and more), else built afresh (a search that
    takes moves back keeps its own: :class:`Line`, or :func:`kept` and :func:`restore`)."""
    data: BoardData | None = getattr(_local, "data", None)
    if data is not None and data.bonus == bonus and data.cells == cells:  # (== looks at the sizes first)
        return data  # the same board again (a game asks for it to list its moves and to tell whether it is over)
    _local.data = None  # left unset if an update is interrupted
    if data is None or not data.cells.items() <= cells.items():
        data = BoardData(cells, bonus)
    else:
        new = cells.keys() - data.cells.keys()
        if new:
            data.add(cells, new)
        if data.bonus != bonus:
            data.bonus = bonus
            data.forget()
    _local.data = data
    return data


def grown(kept: BoardData, stamp: int, cells: dict[int, int], new: Iterable[int]) -> BoardData | None:
    """The board data of ``cells`` for a caller that knows what changed, with no look at the
    boards: this thread's data, brought up to ``cells``, if it is still ``kept`` as the caller
    last had it (its ``stamp`` then), for the board ``cells`` less the cells ``new``; else
    ``None`` (another board's data took its place or grew from it: ask :func:`board_data`)."""
    data: BoardData | None = getattr(_local, "data", None)
    if data is not kept or data.stamp != stamp:
        return None
    fresh = set(new)
    if fresh:
        _local.data = None  # left unset if the update is interrupted
        data.add(cells, fresh)
        _local.data = data
    return data


class Line:
    """The board data of every board on a depth-first search's line, for a search
    that says what each move placed (:meth:`push`) and when it is taken back
    (:meth:`pop`): :meth:`data` then costs no look at the board to tell which
    kept data it grows from.

    The data of a board is worked out when first asked for (a position the
    search looks up elsewhere needs none), from the nearest board before it on
    the line, and kept until the search takes back a move that board holds.
    """

    def __new__(cls, *args: object, **kwargs: object) -> Line:  # (compiled: pickles, copies)
        return super().__new__(cls)

    __slots__ = ("placed", "kept")

    def __init__(self, cells: dict[int, int], bonus: int) -> None:
        self.placed: list[tuple[int, ...]] = []  # the cell keys of each move on the line (passes are not pushed)
        # (moves on the line, its data): the root's grown from this thread's data (often of the same board), a copy
        self.kept: list[tuple[int, BoardData]] = [(0, board_data(cells, bonus).copy())]

    def push(self, keys: tuple[int, ...]) -> None:
        """A move placed tiles on ``keys``."""
        self.placed.append(keys)

    def pop(self) -> None:
        """The last move pushed is taken back."""
        placed, kept = self.placed, self.kept
        placed.pop()
        if kept[-1][0] > len(placed):
            kept.pop()

    def data(self, cells: dict[int, int]) -> BoardData:
        """The data of ``cells``: the root's board with the moves pushed and not popped."""
        moves, data = self.kept[-1]
        placed = self.placed
        if moves == len(placed):
            return data
        data = data.copy()
        data.add(cells, {k for keys in placed[moves:] for k in keys})
        self.kept.append((len(placed), data))
        return data


def _runs(cells: Mapping[int, int], step: int, starts: Iterable[int]) -> tuple[dict[int, Run], dict[int, Run]]:
    """The maximal runs of board tiles along ``step`` that start at ``starts``
    (others are skipped), keyed by the empty cell just after each (first dict)
    and just before it (second dict)."""
    before: dict[int, Run] = {}
    after: dict[int, Run] = {}
    for k in starts:
        if k - step in cells:
            continue
        _, tiles = walk(cells, k, step, reach=None)  # the whole run, for the cell after it (each run walked once)
        n = len(tiles)
        joins, held = survey(tiles)
        run = (max(joins, 0), held, n)
        after[k - step] = run
        before[k + n * step] = run
    return before, after


