"""Every legal placement of a rack's tiles on a board, with its score.

Complete on a non-empty board: moves in rows and columns, moves whose tiles
sit on both sides of board tiles or are separated by them, each distinct
move once (duplicate rack tiles do not repeat moves; a one-tile move is
listed once, not once per direction).

On an empty board every ordering of every valid group is a distinct move;
they are laid out in row 0 from (0,0). Mirror images and columns are not
listed, since they score the same and the first move's place is arbitrary.

The entry points share one generator: :func:`generate` returns
:class:`Move` objects, :func:`generate_raw` the same moves in the same order
as plain tuples (no objects built), :func:`generate_found` their sort keys,
from which a caller reads every move's points and makes only the moves it
wants, :func:`best_move` only the first move :func:`generate` would return;
:func:`generate_on` and :func:`generate_raw_on` work from board data the
caller keeps (a search's).

How it works: a tile set is a 36-bit mask (bit ``t`` for tile ``t``). For a
valid line, the tiles that may join it are the AND over its tiles of
``_NEIGH[t]`` (the tiles sharing ``t``'s colour or shape, ``t`` itself
excluded): tiles pairwise sharing a colour or a shape, all different, always
form a valid line (so at most 6 of them). One pass over the board's runs of
tiles gives, for the empty cells at their ends, the masks of the runs on
their four sides; moves then grow from those cells by mask arithmetic alone.
Each move gets one integer sort key (score, Qwirkles, then its placements as
``(y, x, tile)``), so putting the moves in order is a sort of integers.

The scores are counted here as the moves grow, from the runs' lengths: a
twin of :func:`~qwirkle_tools.core.rules.judge`'s scoring kept for speed
(judging each of the thousands of moves a position may have would cost far more).
``tests/core/test_movegen.py`` holds every generated move legal with judge's
score and Qwirkles, on random positions reached turn by turn (so through
the kept board data too).

What depends on the board alone (its runs, what each frontier cell accepts:
:mod:`~qwirkle_tools.core.frontier`) is kept, per thread, for the next call:
when that call's board holds the same tiles and more, as in a game played or
replayed turn by turn, only the lines through the new tiles are worked out
again. Any other board is worked out afresh, so the results never depend on
earlier calls.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any, Final

from .board import STEP_X, STEP_Y, Board, as_cells, cell_key, key_cell
from .errors import QwirkleError
from .frontier import DEAD, FREE, NO_RUN, BoardData, Info, Placements, board_data
from .lines import JOIN, LINE_MAX
from .lines import points as line_points
from .move import Move
from .movekeys import COLUMN, GAPS, SLOT_SHIFT, SLOTS, Found
from .movekeys import RawMove as RawMove  # (the move form, named here too)
from .pickling import Rebuilt, rebuilt
from .rules import DEFAULT_RULES, Rules
from .tiles import COLOUR_OF, SHAPE_OF, largest_group


class TooManyMoves(QwirkleError):
    """A position with more legal moves than the caller's ``limit``: :attr:`found` so far."""

    def __init__(self, found: int, limit: int) -> None:
        super().__init__(f"more than {limit:,} legal moves")
        self.found = found
        self.limit = limit


@dataclass(slots=True)
class Cutoff:
    """How far a caller lets its move generations go (a search's clock and memory bound),
    read between anchors (every few thousand moves at most: see :data:`ANCHOR_MOST`).

    ``deadline``: a :func:`time.monotonic` time; once past it, a generation stops after the
    anchor it is on, with the moves found so far (at least one, when there is any).
    ``most``: the most moves a generation hands back: the best ``most`` in :func:`generate`'s
    order; while it runs it holds at most twice that, plus one anchor's. ``cut``: set by a
    generation that stopped early or left moves out (it stays set: the caller clears it).
    """

    deadline: float | None = None
    most: int | None = None
    cut: bool = False

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


ANCHOR_MOST: Final = 20_000
"""More moves than one anchor can add: ``2 * sum(k * 6!/(6-k)! for k in 1..6)`` = 19,572 for a
rack of six tiles that may all share a line (every ordering of every part of it, the anchor at
any place in it, along a row or a column); 9,455 measured on the crowded board of the tests. The
work a :class:`Cutoff` lets run past its bounds (tens of milliseconds)."""


def generate(
    board: Board | Mapping[int, int],
    rack: Sequence[int],
    rules: Rules = DEFAULT_RULES,
    largest_first: bool = False,
    limit: int | None = None,
    cutoff: Cutoff | None = None,
) -> list[Move]:
    """Every legal move for ``rack`` on ``board``, best score first.

    Ties are broken by more Qwirkles, then by the placements as
    ``(y, x, tile)`` in line order. ``largest_first`` applies the opening rule
    on an empty board: only groups of the rack's largest size.

    Raises:
        TooManyMoves: a ``limit`` is given and the position has more legal
            moves (a pathological but legal board may have hundreds of
            thousands); generation stops soon after the limit, so the cost
            stays bounded.

    ``cutoff``: the caller's bounds on time and moves kept (see :class:`Cutoff`; the
    moves are then the best of those found, and ``cutoff.cut`` says if some were not).
    """
    return _table(board, rack, rules, largest_first, limit, cutoff).moves()


def generate_on(data: BoardData, rack: Sequence[int], rules: Rules = DEFAULT_RULES, cutoff: Cutoff | None = None
                ) -> list[Move]:
    """The moves of :func:`generate` on the board that ``data`` describes (not empty), from
    data the caller keeps (a :class:`~qwirkle_tools.core.frontier.Line` along pushed and
    popped moves), not this thread's. ``data`` must be of that board and of ``rules``' Qwirkle
    bonus: nothing checks it. ``cutoff``: as for :func:`generate`."""
    return _table_on(data, rack, rules, cutoff=cutoff).moves()


def generate_raw(
    board: Board | Mapping[int, int],
    rack: Sequence[int],
    rules: Rules = DEFAULT_RULES,
    largest_first: bool = False,
    limit: int | None = None,
    cutoff: Cutoff | None = None,
) -> list[RawMove]:
    """The moves of :func:`generate`, in the same order, as ``(score, qwirkles, cell_keys, tiles)``.

    ``cell_keys`` are :func:`~qwirkle_tools.core.board.cell_key` values and ``tiles``
    tile numbers (plain ints), both in line order like :attr:`Move.tiles`.
    ``limit``, ``cutoff``: as for :func:`generate`.
    """
    return _table(board, rack, rules, largest_first, limit, cutoff).raws()


def generate_found(
    board: Board | Mapping[int, int],
    rack: Sequence[int],
    rules: Rules = DEFAULT_RULES,
    largest_first: bool = False,
    limit: int | None = None,
) -> Found:
    """The moves of :func:`generate_raw` kept as their sort keys (:class:`~qwirkle_tools.core.movekeys.Found`):
    for a caller that reads every move's points (:meth:`~qwirkle_tools.core.movekeys.Found.points`) and
    makes only a few of them (:meth:`~qwirkle_tools.core.movekeys.Found.picked`). ``limit``: as for :func:`generate`."""
    return _table(board, rack, rules, largest_first, limit)


def generate_raw_on(data: BoardData, rack: Sequence[int], rules: Rules = DEFAULT_RULES, cutoff: Cutoff | None = None
                    ) -> list[RawMove]:
    """The moves of :func:`generate_raw` on the board that ``data`` describes (not empty), from
    data the caller keeps (a search's :class:`~qwirkle_tools.core.frontier.Line`), not this thread's.
    ``data`` must be of that board and of ``rules``' Qwirkle bonus: nothing checks it.
    ``cutoff``: as for :func:`generate`."""
    return _table_on(data, rack, rules, cutoff=cutoff).raws()


def best_move(
    board: Board | Mapping[int, int],
    rack: Sequence[int],
    rules: Rules = DEFAULT_RULES,
    largest_first: bool = False,
    limit: int | None = None,
    spent: list[int] | None = None,
    cutoff: Cutoff | None = None,
) -> Move | None:
    """``generate(...)[0]``, or ``None`` when there is no move, without building every move.

    ``spent``: the moves generated to find it are added to ``spent[0]`` (for
    a caller that bounds its work by the moves generated); ``cutoff``: as for :func:`generate`."""
    found = _table(board, rack, rules, largest_first, limit, cutoff)
    if spent is not None:
        spent[0] += len(found.keys)
    return found.best()


def raw(move: Move) -> RawMove:
    """A generated move as the plain data :func:`generate_raw` gives."""
    placed = move.tiles
    return move.score or 0, move.qwirkles or 0, tuple([cell_key(p.x, p.y) for p in placed]), tuple([int(p.tile) for p in placed])


_NEIGH: Final = JOIN  # for each tile, the tiles that may share a line with it (see qwirkle_tools.core.lines)

_now = time.monotonic


_OPENING_FRAME: Final = (-1, 0, 8)  # (codes below 512, of 8 cells: w = 9)


def _table(board: Board | Mapping[int, int], rack: Sequence[int], rules: Rules, largest_first: bool,
           limit: int | None = None, cutoff: Cutoff | None = None) -> Found:
    cells = as_cells(board)
    if not cells:
        found = _opening(rack, rules, largest_first)
        _cut(found.keys, cutoff)
        return found
    return _table_on(board_data(cells, rules.qwirkle_bonus), rack, rules, limit, cutoff)


def _table_on(data: BoardData, rack: Sequence[int], rules: Rules, limit: int | None = None,
              cutoff: Cutoff | None = None) -> Found:
    """The moves on a non-empty board from its data."""
    keys: list[int] = []
    rack_mask = 0
    for t in rack:
        rack_mask |= 1 << t
    if rack_mask:
        _moves(data, rack_mask, rules.qwirkle_bonus, keys, limit, cutoff)
        _cut(keys, cutoff)
    return Found(keys, 31 + data.w, (data.x0, data.y0, data.width), data.placements)


def _cut(keys: list[int], cutoff: Cutoff | None) -> None:
    """At the generation's end: the keys cut to the cutoff's ``most``, if it has one and they are more."""
    if cutoff is not None and cutoff.most is not None and len(keys) > cutoff.most:
        _keep(keys, cutoff)


def _keep(keys: list[int], cutoff: Cutoff) -> None:
    """Leave the keys of the best ``cutoff.most`` moves (the least), and say so."""
    assert cutoff.most is not None
    keys.sort()
    del keys[cutoff.most:]
    cutoff.cut = True


def _stop(keys: list[int], cutoff: Cutoff) -> bool:
    """Between two anchors: whether the generation stops there (past the deadline, with a
    move found); the keys cut to the best ``cutoff.most`` once they are twice that."""
    if cutoff.most is not None and len(keys) > 2 * cutoff.most:
        _keep(keys, cutoff)
    if cutoff.deadline is not None and keys and time.monotonic() > cutoff.deadline:
        cutoff.cut = True
        return True
    return False


def _opening(rack: Sequence[int], rules: Rules, largest_first: bool) -> Found:
    """Every ordering of every group, in row 0 from (0,0), in the frame x0 = -1, y0 = 0, width 8."""
    distinct = sorted({int(t) for t in rack})
    groups: set[tuple[int, ...]] = set()
    for value in range(6):
        for members in ([t for t in distinct if COLOUR_OF[t] == value], [t for t in distinct if SHAPE_OF[t] == value]):
            n = len(members)
            for chosen in range(1, 1 << n):
                groups.add(tuple(members[i] for i in range(n) if chosen >> i & 1))
    if largest_first:
        best = largest_group(rack)
        groups = {g for g in groups if len(g) == best}
    shift = 31 + 9
    keys = []
    for group in groups:
        k = len(group)
        score = rules.lone_tile_score if k == 1 else line_points(k, rules.qwirkle_bonus)
        base = -(score * 8 + int(k == LINE_MAX)) << shift
        for order in permutations(group):
            key = base + ((64 + order[0]) << 31)
            for i in range(1, k):
                key += (order[i] + 1) << SLOT_SHIFT[i]
            keys.append(key)
    return Found(keys, shift, _OPENING_FRAME, Placements(*_OPENING_FRAME, 8))


_BY_LENGTH: Final[dict[int, tuple[tuple[int, ...], tuple[int, ...]]]] = {}
"""By Qwirkle bonus: a line's points and Qwirkles by its length (0 to 6)."""


def _moves(data: BoardData, rack: int, bonus: int, keys: list[int], limit: int | None = None,
           cutoff: Cutoff | None = None) -> None:
    """Moves on a non-empty board, generated from anchors, into ``keys``.

    Every move places a tile on a frontier cell (an empty cell beside the
    board). Its *anchor* is the first such cell along the line; from there
    the move extends forward over empty and board cells alike, and backward
    only over free cells (empty, with no board neighbour), which constrain
    nothing but the line itself. So each move is found exactly once per
    direction (one-tile moves are listed from the anchor, once), and no time
    is spent on tiles that never reach the board.
    """
    tables = _BY_LENGTH.get(bonus)
    if tables is None:
        tables = _BY_LENGTH[bonus] = (tuple(line_points(n, bonus) for n in range(LINE_MAX + 1)),
                                      tuple(int(n == LINE_MAX) for n in range(LINE_MAX + 1)))
    points, qwirkle = tables  # a line's points and Qwirkles by its length
    anchors = _anchors(data, rack, points, qwirkle)
    if not anchors:
        return
    shift = 31 + data.w
    along_x = _Grower(STEP_X, 64, 0, data.info_x, data.joinable, rack, keys, points, qwirkle, shift)
    along_y = _Grower(STEP_Y, 64 * data.width, COLUMN, data.info_y, data.joinable, rack, keys, points, qwirkle, shift)
    twice = deadline = None  # the cutoff's bounds, read between anchors (see _stop)
    if cutoff is not None:
        twice, deadline = None if cutoff.most is None else 2 * cutoff.most, cutoff.deadline
    for f, fit, (row, col, n_row, n_col, row_before, row_after, col_before, col_after, code) in anchors:
        if limit is not None and len(keys) > limit:  # (an anchor adds a few thousand moves at most)
            raise TooManyMoves(len(keys), limit)
        if (twice is not None and len(keys) > twice) or (deadline is not None and keys and _now() > deadline):
            if _stop(keys, cutoff):  # type: ignore[arg-type]  # (a cutoff's bounds)
                return
        base = -((points[n_row] + points[n_col]) * 8 + qwirkle[n_row] + qwirkle[n_col]) << shift
        m = fit
        while m:
            low = m & -m
            m ^= low
            keys.append(base + ((code + low.bit_length() - 1) << 31))
        # a second tile in the line must come from the rack too; the tiles before
        # the anchor (on free cells only, none if a board tile is there) are fewer
        m = row & rack
        if m & (m - 1):
            along_x.along(f, code, fit, row, n_row, points[n_col], qwirkle[n_col],
                          0 if row_before else m.bit_count() - 1, row_after)
        m = col & rack
        if m & (m - 1):
            along_y.along(f, code, fit, col, n_col, points[n_row], qwirkle[n_row],
                          0 if col_before else m.bit_count() - 1, col_after)


_Record = tuple[int, ...]
"""A frontier cell's record (nine ints: see BoardData), typed with no fixed length so that the compiled
build hands it on as the tuple it is, not as nine machine integers boxed again into a new tuple."""


def _anchors(data: BoardData, rack: int, points: tuple[int, ...], qwirkle: tuple[int, ...]
             ) -> list[tuple[Any, int, _Record]]:
    """The frontier cells where some rack tile may go as far as their
    neighbours are concerned, with the tiles that may and their records
    (see :class:`BoardData`), which are worked out and kept when first needed.

    Afterwards ``data.info_x`` and ``data.info_y`` hold every frontier cell a
    rack tile may reach; any other frontier cell is ``DEAD`` for this rack,
    an empty cell off the frontier ``FREE``."""
    spots, masks = data.spots, data.masks  # (the frontier as lists: see BoardData.index)
    records = data.records
    info_x = data.info_x
    info_y = data.info_y
    width = data.width
    anchors: list[tuple[Any, int, _Record]] = []  # (a cell Any: see BoardData.spots)
    for i in range(len(masks)):
        if not masks[i] & rack:
            continue
        f = spots[i]
        record = records.get(f)
        if record is None:
            bx = data.before_x.get(f, NO_RUN)
            ax = data.after_x.get(f, NO_RUN)
            by = data.before_y.get(f, NO_RUN)
            ay = data.after_y.get(f, NO_RUN)
            row = 0 if bx[1] & ~ax[0] else bx[0] & ax[0]
            col = 0 if by[1] & ~ay[0] else by[0] & ay[0]
            n_row = bx[2] + 1 + ax[2]
            n_col = by[2] + 1 + ay[2]
            if row & col:
                info_x[f] = (col & ax[0], ax[1], ax[0], ax[2], points[n_col], qwirkle[n_col])
                info_y[f] = (row & ay[0], ay[1], ay[0], ay[2], points[n_row], qwirkle[n_row])
            else:
                info_x[f] = info_y[f] = DEAD
            x, y = key_cell(f)
            code = ((y - data.y0) * width + x - data.x0) << 6
            record = records[f] = (row, col, n_row, n_col, bx[2], ax[2], by[2], ay[2], code)
        fit = record[0] & record[1] & rack
        if fit:
            anchors.append((f, fit, record))
    return anchors


class _Grower:
    """The moves of two or more tiles along one direction (``step``; ``code_step`` the
    placement codes' difference between neighbours there; ``direction`` the keys' column
    bit), as sort keys into ``keys``: each a move, which grows again.

    A class, not closures, for the compiled build: its methods are called natively, its
    attributes read from the object's own fields, with no argument boxed."""

    def __init__(self, step: int, code_step: int, direction: int, info: dict[int, Info], frontier: dict[int, int],
                 rack: int, keys: list[int], points: tuple[int, ...], qwirkle: tuple[int, ...], shift: int) -> None:
        self.step = step
        self.code_step = code_step
        self.direction = direction
        self.info = info
        self.frontier = frontier
        self.rack = rack
        self.keys = keys
        self.points = points
        self.qwirkle = qwirkle
        self.shift = shift  # of the score in a key
        self.back_code = self.free = 0  # the code of the cell before the anchor, the free cells there

    def along(self, f: int, code: int, fit: int, line: int, n: int, cross: int, cross_q: int, cap: int,
              run_after: int) -> None:
        """The moves with a tile of ``fit`` on anchor ``f`` (code ``code``); ``line`` the tiles
        that may join the line through ``f``, of ``n`` tiles with the anchor's; ``cross`` /
        ``cross_q`` the points and Qwirkles of its cross line; at most ``cap`` tiles before the
        anchor, and a run of ``run_after`` board tiles after it."""
        step, rack = self.step, self.rack
        self.free = -1  # free cells before the anchor, counted when first needed
        k = f + step * (1 + run_after)
        after = self.info.get(k) or (DEAD if k in self.frontier else FREE)
        allowed, run_tiles = after[0] & rack, after[1]
        off = 1 + run_after  # the next cell's offset from the anchor
        gaps = GAPS[off * 8 + run_after]
        while fit:
            low = fit & -fit
            fit ^= low
            tile = low.bit_length() - 1
            left = line & _NEIGH[tile]
            if not left & rack:
                continue
            if self.free < 0:
                self.free = _free_before(f, step, cap, self.frontier)
                self.back_code = code - self.code_step
            order = ((code + tile) << 31) | self.direction
            if self.free:
                self.backward(self.back_code, left, n, order, cross, cross_q, self.free)
            if left & allowed and not run_tiles & ~left:
                self.forward(k, after, left & allowed, left, n, order | gaps, off, cross, cross_q)

    def forward(self, k: int, here: Info, cand: int, joinable: int, n: int, order: int, off: int,
                cross: int, cross_q: int) -> None:
        """Place a tile of ``cand`` on empty ``k`` (described by ``here``), ``off`` cells after the
        move's first, after the line so far (``order``: its key's lower part)."""
        rack, keys = self.rack, self.keys
        _, _, run_joinable, run_n, cross_here, q_here = here
        joinable &= run_joinable
        n += 1 + run_n
        cross, cross_q = cross + cross_here, cross_q + q_here
        base = -((self.points[n] + cross) * 8 + self.qwirkle[n] + cross_q) << self.shift
        slot = SLOT_SHIFT[off]
        k += self.step * (1 + run_n)
        next_off = off + 1 + run_n
        gaps = GAPS[next_off * 8 + run_n]  # (the board tiles between this cell and the next)
        after = self.info.get(k) or (DEAD if k in self.frontier else FREE)
        allowed, run_tiles = after[0] & rack, after[1]
        free = self.free
        while cand:
            low = cand & -cand
            cand ^= low
            tile = low.bit_length() - 1
            now_order = order | (tile + 1) << slot
            keys.append(base + now_order)
            left = joinable & _NEIGH[tile]
            if left & rack:
                if free:
                    self.backward(self.back_code, left, n, now_order, cross, cross_q, free)
                if left & allowed and not run_tiles & ~left:
                    self.forward(k, after, left & allowed, left, n, now_order | gaps, next_off, cross, cross_q)

    def backward(self, code: int, joinable: int, n: int, order: int, cross: int, cross_q: int, free: int) -> None:
        """Add tiles on the ``free`` free cells before a move's first tile (from the cell of
        ``code``: no cross lines there); ``order``: the move's key's lower part."""
        rack, keys = self.rack, self.keys
        cand = joinable & rack
        n += 1
        base = -((self.points[n] + cross) * 8 + self.qwirkle[n] + cross_q) << self.shift
        # the move so far one cell further on: its first tile into the first slot
        rest = (((order >> 31) & 63) + 1) << 24 | (order & SLOTS) >> 6 | self.direction
        while cand:
            low = cand & -cand
            cand ^= low
            tile = low.bit_length() - 1
            now_order = ((code + tile) << 31) | rest
            keys.append(base + now_order)
            if free > 1:
                left = joinable & _NEIGH[tile]
                if left & rack:
                    self.backward(code - self.code_step, left, n, now_order, cross, cross_q, free - 1)


def _free_before(f: int, step: int, cap: int, frontier: Mapping[int, int]) -> int:
    """How many free cells (off the frontier) lie just before ``f`` along ``step``, at most ``cap``."""
    free = 0
    back = f - step
    while free < cap and back not in frontier:
        free += 1
        back -= step
    return free
