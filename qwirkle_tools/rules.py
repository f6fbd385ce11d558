"""Legality and scoring of one placement, as ``../shared/RULES.md`` states them.

Pure functions over a board and a move: :func:`judge` returns every rule the
move breaks (with the index of the tile concerned) and its score breakdown.
Nothing here knows about racks, the bag or turns; :mod:`qwirkle_tools.replay`
keeps that bookkeeping.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .board import _SHIFT, STEP_X, STEP_Y, Board, Placement, cell_text, key_cell
from .tiles import TILES, Tile, tile_names

LINE_MAX = 6


@dataclass(frozen=True, slots=True)
class Rules:
    """The house-rule switches a record may set; defaults as in RULES.md."""

    lone_tile_score: int = 1
    qwirkle_bonus: int = 6
    end_bonus: int = 6


DEFAULT_RULES = Rules()


@dataclass(frozen=True, slots=True)
class Violation:
    """One rule a placement breaks.

    ``index`` is the position in the move of the tile concerned, or ``None``
    when the whole move is at fault.
    """

    code: str
    message: str
    index: int | None = None


@dataclass(frozen=True, slots=True)
class LineScore:
    """A line of two or more tiles that the move formed or extended."""

    tiles: tuple[Tile, ...]
    start: tuple[int, int]
    horizontal: bool
    points: int
    qwirkle: bool

    def __str__(self) -> str:
        return f"{len(self.tiles)}{' Qwirkle' if self.qwirkle else ''}"


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """How a turn's points add up: lines, Qwirkle bonuses, end bonus."""

    lines: tuple[LineScore, ...] = ()
    lone: int = 0
    end_bonus: int = 0

    @property
    def qwirkles(self) -> int:
        return sum(1 for line in self.lines if line.qwirkle)

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines) + self.lone + self.end_bonus

    def with_end_bonus(self, bonus: int) -> ScoreBreakdown:
        return ScoreBreakdown(self.lines, self.lone, bonus)

    def __str__(self) -> str:
        """E.g. ``"3+12(Qwirkle)+6(end) = 21"``."""
        parts = [
            f"{line.points}(Qwirkle)" if line.qwirkle else str(line.points)
            for line in self.lines
        ]
        if self.lone:
            parts.append(f"{self.lone}(lone tile)")
        if self.end_bonus:
            parts.append(f"{self.end_bonus}(end)")
        return f"{'+'.join(parts) or '0'} = {self.total}"


@dataclass(frozen=True, slots=True)
class Judgement:
    """What :func:`judge` found: the broken rules and the score."""

    violations: tuple[Violation, ...]
    score: ScoreBreakdown

    @property
    def legal(self) -> bool:
        return not self.violations


def line_fault(tiles: Sequence[int]) -> str | None:
    """Why a line of tiles is invalid (a finding code), or ``None`` if valid.

    A valid line is one colour with distinct shapes, or one shape with
    distinct colours; so at most 6 tiles, and no tile twice.

        >>> line_fault([0, 1, 2])   # red circle, cross, diamond
        >>> line_fault([0, 7])      # red circle, orange cross
        'line-mixed'
    """
    n = len(tiles)
    if n < 2:
        return None
    if n > LINE_MAX:
        return "line-too-long"
    if len({t // 6 for t in tiles}) != 1 and len({t % 6 for t in tiles}) != 1:
        return "line-mixed"
    if len(set(tiles)) != n:
        return "duplicate-in-line"
    return None


_FAULT_TEXT = {
    "line-too-long": "a line longer than 6",
    "line-mixed": "a line sharing neither one colour nor one shape",
    "duplicate-in-line": "a line with the same tile twice",
}


def _run(cells: Mapping[int, int], new: Mapping[int, int], key: int, step: int) -> tuple[int, list[int]]:
    """The maximal line through ``key`` along ``step`` over board and move tiles."""
    start = key
    while start - step in cells or start - step in new:
        start -= step
    tiles: list[int] = []
    k = start
    while True:
        t = cells.get(k)
        if t is None:
            t = new.get(k)
            if t is None:
                return start, tiles
        tiles.append(t)
        k += step


def lines_through(cells: Mapping[int, int], keys: Iterable[int], length: int) -> list[tuple[int, ...]]:
    """The lines of exactly ``length`` board tiles through any of ``keys``,
    each as its cell keys in order (e.g. the Qwirkles a move just made, with
    ``length`` 6), sorted."""
    found: set[tuple[int, ...]] = set()
    for key in keys:
        for step in (STEP_X, STEP_Y):
            start, tiles = _run(cells, {}, key, step)
            if len(tiles) == length:
                found.add(tuple(range(start, start + length * step, step)))
    return sorted(found)


def _faulty_before(cells: Mapping[int, int], start: int, step: int, length: int) -> bool:
    """Whether the board tiles of a line already broke the rules before this move.

    A move that extends a line left invalid by an earlier, already reported
    move is not blamed for it again.
    """
    run: list[int] = []
    for k in range(start, start + step * length, step):
        t = cells.get(k)
        if t is None:
            if len(run) > 1 and line_fault(run):
                return True
            run = []
        else:
            run.append(t)
    return len(run) > 1 and line_fault(run) is not None


def _culprit(cells: Mapping[int, int], move: Sequence[Placement], keys: list[int], placed: list[int],
             start: int, step: int, length: int, default: int) -> int:
    """The placed tile to blame for a bad line: the first that breaks it when
    added alone to the line's board tiles, else the first whose removal mends it."""
    span = set(range(start, start + step * length, step))
    board = [cells[k] for k in span if k in cells]
    mine = [i for i in placed if keys[i] in span]
    for i in mine:
        if line_fault([*board, move[i].tile]) is not None:
            return i
    for i in mine:
        if line_fault([*board, *(move[j].tile for j in mine if j != i)]) is None:
            return i
    return default


def judge(
    board: Board | Mapping[int, int],
    move: Sequence[Placement],
    rules: Rules = DEFAULT_RULES,
) -> Judgement:
    """Every rule ``move`` breaks on ``board``, and what it scores.

    The score is computed even for an illegal move, by the same counting
    (each line of 2+ through a placed tile, once); tiles placed on occupied
    cells are left out of it. The end bonus is not added: that depends on the
    rack and the bag, which the replay knows. A line whose board tiles were
    already invalid (an earlier illegal move left on the table) is not held
    against this move.
    """
    cells = board.cells if isinstance(board, Board) else board
    if not move:
        return Judgement((Violation("empty-move", "a placement with no tiles"),), ScoreBreakdown())
    violations: list[Violation] = []
    new: dict[int, int] = {}
    keys: list[int] = []
    placed: list[int] = []  # indexes of tiles that were actually put down
    for i, p in enumerate(move):
        key = (p.x << _SHIFT) + p.y
        keys.append(key)
        if key in cells:
            violations.append(Violation(
                "cell-occupied", f"{p.tile} placed on {cell_text(key)}, where {TILES[cells[key]]} lies", i,
            ))
        elif key in new:
            violations.append(Violation(
                "cell-repeated", f"{p.tile} placed on {cell_text(key)}, which this move already fills", i,
            ))
        else:
            new[key] = p.tile
            placed.append(i)

    if len(move) > 1:
        horizontal = all(p.y == move[0].y for p in move)
        if not horizontal and not all(p.x == move[0].x for p in move):
            violations.append(Violation(
                "not-in-line",
                "tiles " + ", ".join(f"{p.tile} at ({p.x},{p.y})" for p in move)
                + " are not all in one row or one column",
            ))
        else:
            step = STEP_X if horizontal else STEP_Y
            lo, hi = min(keys), max(keys)
            span = (hi - lo) // step + 1
            if span > 4 * LINE_MAX:  # far apart: no need to walk every cell
                violations.append(Violation(
                    "gap", f"tiles from {cell_text(lo)} to {cell_text(hi)} leave {span - len(move)} or so cells empty"))
            else:
                holes = [k for k in range(lo, hi + 1, step) if k not in cells and k not in new]
                if holes:
                    violations.append(Violation(
                        "gap",
                        f"tiles from {cell_text(lo)} to {cell_text(hi)} leave "
                        + ", ".join(cell_text(k) for k in holes) + " empty",
                    ))
    if cells and placed and not any(
        keys[i] + d in cells for i in placed for d in (STEP_X, -STEP_X, STEP_Y, -STEP_Y)
    ):
        violations.append(Violation(
            "not-connected",
            "no placed tile touches a tile on the board ("
            + ", ".join(f"{move[i].tile} at {cell_text(keys[i])}" for i in placed) + ")",
        ))

    lines: list[LineScore] = []
    seen: set[tuple[int, int]] = set()
    for i in placed:
        for step in (STEP_X, STEP_Y):
            start, tiles = _run(cells, new, keys[i], step)
            if len(tiles) < 2 or (start, step) in seen:
                continue
            seen.add((start, step))
            fault = line_fault(tiles)
            if fault is not None and not _faulty_before(cells, start, step, len(tiles)):
                j = _culprit(cells, move, keys, placed, start, step, len(tiles), i)
                violations.append(Violation(
                    fault,
                    f"{move[j].tile} at {cell_text(keys[j])} makes {_FAULT_TEXT[fault]}: " + tile_names(tiles),
                    j,
                ))
            qwirkle = len(tiles) == LINE_MAX
            lines.append(LineScore(
                tuple(TILES[t] for t in tiles), key_cell(start), step == STEP_X,
                len(tiles) + (rules.qwirkle_bonus if qwirkle else 0), qwirkle,
            ))
    lone = rules.lone_tile_score if placed and not lines else 0
    return Judgement(tuple(violations), ScoreBreakdown(tuple(lines), lone))


def quick_score(cells: Board | Mapping[int, int], move: Sequence[Placement], rules: Rules = DEFAULT_RULES) -> int | None:
    """The score of ``move`` if it is legal, else ``None``; no end bonus.

    The replay's fast path: the same rules as :func:`judge` without building
    messages or breakdowns (a test checks that the two always agree).
    """
    if isinstance(cells, Board):
        cells = cells.cells
    n = len(move)
    if not n:
        return None
    bonus = rules.qwirkle_bonus
    first = move[0]
    if n == 1:
        key = (first.x << _SHIFT) + first.y
        if key in cells:
            return None
        total = 0
        for step in (STEP_X, STEP_Y):
            line: list[int] = [first.tile]
            k = key - step
            while k in cells:
                line.append(cells[k])
                k -= step
            k = key + step
            while k in cells:
                line.append(cells[k])
                k += step
            if len(line) > 1:
                if line_fault(line) is not None:
                    return None
                total += len(line) + (bonus if len(line) == LINE_MAX else 0)
        if not total:
            return None if cells else rules.lone_tile_score
        return total
    if all(p.y == first.y for p in move):
        step, cross = STEP_X, STEP_Y
    elif all(p.x == first.x for p in move):
        step, cross = STEP_Y, STEP_X
    else:
        return None
    new: dict[int, int] = {}
    for p in move:
        key = (p.x << _SHIFT) + p.y
        if key in cells or key in new:
            return None
        new[key] = p.tile
    lo, hi = min(new), max(new)
    k = lo
    while k - step in cells:
        k -= step
    main = []
    while True:
        t = cells.get(k)
        if t is None:
            t = new.get(k)
            if t is None:
                break
        main.append(t)
        k += step
    if k <= hi or line_fault(main) is not None:
        return None  # a gap, or a bad main line
    total = len(main) + (bonus if len(main) == LINE_MAX else 0)
    touched = len(main) > n
    for key, tile in new.items():
        line = [tile]
        k = key - cross
        while k in cells:
            line.append(cells[k])
            k -= cross
        k = key + cross
        while k in cells:
            line.append(cells[k])
            k += cross
        if len(line) > 1:
            if line_fault(line) is not None:
                return None
            touched = True
            total += len(line) + (bonus if len(line) == LINE_MAX else 0)
    if cells and not touched:
        return None
    return total


def score(board: Board, move: Sequence[Placement], rules: Rules = DEFAULT_RULES) -> ScoreBreakdown:
    """What ``move`` scores on ``board`` (without any end bonus)."""
    return judge(board, move, rules).score


def check(board: Board, move: Sequence[Placement], rules: Rules = DEFAULT_RULES) -> list[Violation]:
    """Every rule ``move`` breaks on ``board``; empty when it is legal."""
    return list(judge(board, move, rules).violations)


def playable_tile(cells: Board | Mapping[int, int], rack: Sequence[int]) -> Placement | None:
    """Some legal single-tile placement of a rack tile, or ``None``.

    Any legal placement contains a tile that would be legal alone, so this
    answers "can this player place anything?" On an empty board any tile is.
    """
    if isinstance(cells, Board):
        cells = cells.cells
    if not rack:
        return None
    if not cells:
        return Placement(TILES[rack[0]], 0, 0)
    distinct = set(rack)
    tried: set[int] = set()
    for key in cells:
        for d in (STEP_X, -STEP_X, STEP_Y, -STEP_Y):
            k = key + d
            if k in cells or k in tried:
                continue
            tried.add(k)
            for t in distinct:
                if _fits(cells, k, t):
                    return Placement(TILES[t], *key_cell(k))
    return None


def _fits(cells: Mapping[int, int], key: int, t: int) -> bool:
    """Whether tile ``t`` alone on empty cell ``key`` leaves both its lines valid."""
    for step in (STEP_X, STEP_Y):
        line = [t]
        k = key - step
        while k in cells:
            line.append(cells[k])
            k -= step
        k = key + step
        while k in cells:
            line.append(cells[k])
            k += step
        if len(line) > 1 and line_fault(line) is not None:
            return False
    return True
