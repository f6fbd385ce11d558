"""Legality and scoring of one placement, as ``docs/rules.md`` states them.

:func:`judge` is the one scorer: it returns every rule a move breaks (with
the index of the tile concerned) and what the move scores, with a breakdown
built only when asked for. It has two paths, twins kept for speed: a fast
one that settles a legal move without a message (``_formed``, also behind
:func:`judge_placed`), and the explaining one, :func:`explain`, which says
what is wrong; ``tests/core/test_rules.py`` holds them to the same judgement of
random moves on random boards. What a line is, and what it scores, comes from
:mod:`qwirkle_tools.core.lines`. Nothing here knows about racks, the bag or
turns (:mod:`qwirkle_tools.play.engine` keeps that bookkeeping), except the end
bonus rule, :meth:`Rules.end_points`, written here once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .board import STEP_X, STEP_Y, Board, Placement, cell_key, cell_text, key_cell
from .lines import FAULTS, LINE_MAX, accepts, fault, mask, points, runs, survey, walk
from .pickling import Rebuilt, rebuilt
from .tiles import TILES, Tile, tile_names


@dataclass(frozen=True, slots=True)
class Rules:
    """The house-rule switches a record may set; defaults as in docs/rules.md."""

    lone_tile_score: int = 1
    qwirkle_bonus: int = 6
    end_bonus: int = 6

    def end_points(self, rack_left: int, bag: int) -> int:
        """The end bonus a turn earns: :attr:`end_bonus` when it empties the
        player's rack (``rack_left`` tiles remain) while the bag is empty."""
        return self.end_bonus if rack_left == 0 and bag == 0 else 0

    def scored(self, points: int, placed: int, rack: int, bag: int | None) -> int:
        """What a placement of ``placed`` tiles from a rack of ``rack`` really
        scores: its ``points`` and the end bonus (:meth:`end_points`) when it
        empties the rack while the bag is empty. A bag of ``None`` (not known)
        earns no bonus: nothing is assumed. The one composition of a move's
        score and the bonus, for the analysis, the engines and the playable game."""
        return points if bag is None else points + self.end_points(rack - placed, bag)

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


DEFAULT_RULES: Final = Rules()
RULE_KEYS: Final[tuple[str, ...]] = ("lone_tile_score", "qwirkle_bonus", "end_bonus")
"""The switches of :class:`Rules`, in the documented order."""


@dataclass(frozen=True, slots=True)
class Violation:
    """One rule a placement breaks.

    ``index`` is the position in the move of the tile concerned, or ``None``
    when the whole move is at fault.
    """

    code: str
    message: str
    index: int | None = None

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


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

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


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

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


_Line = tuple[int, int, list[int]]  # first cell key, step, tiles


_POINTS: Final[dict[int, tuple[int, ...]]] = {}


def _points_table(bonus: int) -> tuple[int, ...]:
    """:func:`~qwirkle_tools.core.lines.points` of each line length up to 6, for a Qwirkle bonus (kept)."""
    table = _POINTS[bonus] = tuple(points(n, bonus) for n in range(LINE_MAX + 1))
    return table


class Judgement:
    """What :func:`judge` found: the broken rules and the score.

    ``points`` and ``qwirkles`` are there at once; :attr:`score`, the
    breakdown line by line, is built on first use.
    """

    def __new__(cls, *args: object, **kwargs: object) -> Judgement:  # (compiled: pickles, copies)
        return super().__new__(cls)

    __slots__ = ("violations", "points", "qwirkles", "_lines", "_lone", "_bonus", "_score")

    def __init__(self, violations: tuple[Violation, ...], lines: list[_Line], lone: int, bonus: int) -> None:
        self.violations = violations
        table = _POINTS.get(bonus) or _points_table(bonus)
        total = lone
        qwirkles = 0
        for _, _, tiles in lines:
            n = len(tiles)
            total += table[n] if n <= LINE_MAX else points(n, bonus)  # longer lines only in illegal moves
            qwirkles += n == LINE_MAX
        self.points = total
        self.qwirkles = qwirkles
        self._lines = lines
        self._lone = lone
        self._bonus = bonus
        self._score: ScoreBreakdown | None = None

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def score(self) -> ScoreBreakdown:
        """The breakdown (without end bonus)."""
        if self._score is None:
            self._score = ScoreBreakdown(tuple(
                LineScore(tuple(TILES[t] for t in tiles), key_cell(start), step == STEP_X,
                          points(len(tiles), self._bonus), len(tiles) == LINE_MAX)
                for start, step, tiles in self._lines), self._lone)
        return self._score

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Judgement):
            return NotImplemented
        return self.violations == other.violations and self.score == other.score

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Judgement(violations={self.violations!r}, score={self.score!r})"


def judge(
    board: Board | Mapping[int, int],
    move: Sequence[Placement],
    rules: Rules = DEFAULT_RULES,
) -> Judgement:
    """Every rule ``move`` breaks on ``board``, and what it scores.

    The score is computed even for an illegal move, by the same counting
    (each line of 2+ through a placed tile, once); tiles placed on occupied
    cells are left out of it. The end bonus is not added: that depends on the
    rack and the bag (see :meth:`Rules.end_points`). A line whose board tiles
    were already invalid (an earlier illegal move left on the table) is not
    held against this move. The opening rule (the largest group first) needs
    the rack, so it is the engine's to check.
    """
    cells = board.cells if isinstance(board, Board) else board
    bonus = rules.qwirkle_bonus
    n = len(move)
    if not n:
        return Judgement((Violation("empty-move", "a placement with no tiles"),), [], 0, bonus)
    if n > LINE_MAX:  # never legal (all in one line, which holds 6), and each tile would walk the line
        return Judgement((Violation("too-many-tiles", f"a move of {n:,} tiles; a line holds at most {LINE_MAX}"),),
                         [], 0, bonus)
    keys = [cell_key(p.x, p.y) for p in move]
    new: dict[int, int] = {k: p.tile for k, p in zip(keys, move)}
    if len(new) == n and cells.keys().isdisjoint(new):
        after = dict(cells)
        after.update(new)
        found = _formed(after, move, keys)
        if found is not None:  # the usual case, a legal move, settled without any message
            return Judgement((), found, 0 if found else rules.lone_tile_score, bonus)
    return explain(cells, move, rules)


def explain(board: Board | Mapping[int, int], move: Sequence[Placement], rules: Rules = DEFAULT_RULES) -> Judgement:
    """:func:`judge` for a move already found to break a rule (by
    :func:`judge_placed`): the same judgement, without first trying it as a
    legal move (which copies the board: on a board left with thousands of
    tiles by illegal moves, a copy per turn would cost the replay n^2)."""
    cells = board.cells if isinstance(board, Board) else board
    bonus = rules.qwirkle_bonus
    n = len(move)
    if not n or n > LINE_MAX:
        return judge({}, move, rules)  # (no board needed to say why)
    keys = [cell_key(p.x, p.y) for p in move]
    new: dict[int, int] = {}
    placed: list[int] = []  # indexes of tiles that were actually put down
    for i, key in enumerate(keys):
        if key not in cells and key not in new:
            new[key] = move[i].tile
            placed.append(i)
    # each line through a placed tile, once: a line of 2+ is a span that later tiles skip
    found = []
    spans: list[tuple[int, int, int]] = []
    for i in placed:
        key = keys[i]
        for step in (STEP_X, STEP_Y):
            for s, a, b in spans:
                if s == step and a <= key < b and (key - a) % step == 0:
                    break
            else:
                start, tiles = walk(cells, key, step, new)
                if len(tiles) > 1:
                    spans.append((step, start, start + len(tiles) * step))
                    found.append((start, step, tiles))
    lone = rules.lone_tile_score if placed and not found else 0
    return Judgement(tuple(_violations(cells, move, keys, new, placed, found)), found, lone, bonus)


def judge_placed(cells: Mapping[int, int], move: Sequence[Placement], keys: Sequence[int],
                 rules: Rules = DEFAULT_RULES) -> Judgement | None:
    """:func:`judge` for a move whose tiles are already on ``cells`` (at
    ``keys``, their cell keys, which were distinct and empty before): the
    judgement of a legal move, else ``None`` (then :func:`judge` on the board
    without them says what is wrong). For the engine, which puts the tiles
    down anyway: the lines are walked over one board."""
    found = _formed(cells, move, keys)
    if found is None:
        return None
    return Judgement((), found, 0 if found else rules.lone_tile_score, rules.qwirkle_bonus)


def _formed(after: Mapping[int, int], move: Sequence[Placement], keys: Sequence[int]) -> list[_Line] | None:
    """The lines a move keeping every rule forms, in the order :func:`judge`
    lists them (each tile's row, then its column, the move's own line once),
    or ``None`` if the move breaks any rule. ``after`` is the board with the
    move's tiles on it, on cells that were distinct and empty."""
    n = len(keys)
    if not n:
        return None  # an empty move
    touches = len(after) == n  # the first move touches nothing, and need not
    found: list[_Line] = []
    if n == 1:
        key = keys[0]
        for step in (STEP_X, STEP_Y):
            if key - step in after or key + step in after:
                start, tiles = walk(after, key, step)
                if survey(tiles)[0] < 0:
                    return None  # an invalid line (fault() says why)
                found.append((start, step, tiles))
                touches = True
        return found if touches else None
    first, second = move[0], move[1]
    if first.y == second.y and (n == 2 or all(p.y == first.y for p in move)):
        main, cross = STEP_X, STEP_Y
    elif first.x == second.x and (n == 2 or all(p.x == first.x for p in move)):
        main, cross = STEP_Y, STEP_X
    else:
        return None
    start, tiles = walk(after, keys[0], main)
    lo = hi = keys[0]
    for key in keys:  # (not min() and max(): compiled, those are calls through the interpreter)
        if key < lo:
            lo = key
        elif key > hi:
            hi = key
    if lo < start or hi >= start + len(tiles) * main:
        return None  # a gap
    if survey(tiles)[0] < 0:
        return None
    line = (start, main, tiles)
    touches = touches or len(tiles) > n
    for i, key in enumerate(keys):
        if i == 0 and main == STEP_X:
            found.append(line)  # a tile's row comes before its column
        if key - cross in after or key + cross in after:
            start, tiles = walk(after, key, cross)
            if survey(tiles)[0] < 0:
                return None
            found.append((start, cross, tiles))
            touches = True
        if i == 0 and main == STEP_Y:
            found.append(line)
    return found if touches else None


def _violations(cells: Mapping[int, int], move: Sequence[Placement], keys: list[int], new: dict[int, int],
                placed: list[int], found: list[_Line]) -> list[Violation]:
    """Every rule the move breaks, with messages (the slow path of :func:`judge`)."""
    violations: list[Violation] = []
    seen: set[int] = set()
    for i, (p, key) in enumerate(zip(move, keys)):
        if key in cells:
            violations.append(Violation(
                "cell-occupied", f"{p.tile} placed on {cell_text(key)}, where {TILES[cells[key]]} lies", i))
        elif key in seen:
            violations.append(Violation(
                "cell-repeated", f"{p.tile} placed on {cell_text(key)}, which this move already fills", i))
        seen.add(key)
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
    for start, step, tiles in found:
        code = fault(tiles)
        if code is not None and not _faulty_before(cells, start, step, len(tiles)):
            j = _culprit(cells, move, keys, placed, start, step, len(tiles))
            violations.append(Violation(
                code, f"{move[j].tile} at {cell_text(keys[j])} makes {FAULTS[code]}: " + tile_names(tiles), j))
    # messages in the order of the tiles, whole-move faults where they arose
    return violations


def _faulty_before(cells: Mapping[int, int], start: int, step: int, length: int) -> bool:
    """Whether the board tiles of a line already broke the rules before this move.

    A move that extends a line left invalid by an earlier, already reported
    move is not blamed for it again.
    """
    return any(fault(run) is not None for run in runs(cells, start, step, length))


def _culprit(cells: Mapping[int, int], move: Sequence[Placement], keys: list[int], placed: list[int],
             start: int, step: int, length: int) -> int:
    """The placed tile to blame for a bad line: the first that breaks it when
    added alone to the line's board tiles, else the first whose removal mends it."""
    span = set(range(start, start + step * length, step))
    board = [cells[k] for k in span if k in cells]
    mine = [i for i in placed if keys[i] in span]
    for i in mine:
        if fault([*board, move[i].tile]) is not None:
            return i
    for i in mine:
        if fault([*board, *(move[j].tile for j in mine if j != i)]) is None:
            return i
    return mine[0]


def score(board: Board | Mapping[int, int], move: Sequence[Placement], rules: Rules = DEFAULT_RULES) -> ScoreBreakdown:
    """What ``move`` scores on ``board`` (without any end bonus)."""
    return judge(board, move, rules).score


def check(board: Board | Mapping[int, int], move: Sequence[Placement], rules: Rules = DEFAULT_RULES) -> list[Violation]:
    """Every rule ``move`` breaks on ``board``; empty when it is legal."""
    return list(judge(board, move, rules).violations)


def playable_tile(cells: Board | Mapping[int, int], rack: Iterable[int], frontier: Mapping[int, int] | None = None
                  ) -> Placement | None:
    """Some legal single-tile placement of a rack tile, or ``None``.

    Any legal placement contains a tile that would be legal alone, so this
    answers "can this player place anything?" On an empty board any tile is.
    ``frontier``, if given, maps every empty cell beside the board to a mask of
    the tiles that may go there (a superset, such as the move generator's
    :attr:`BoardData.joinable <qwirkle_tools.core.frontier.BoardData>`): only
    the cells whose mask holds a rack tile are judged.
    """
    if isinstance(cells, Board):
        cells = cells.cells
    tiles = list(rack)
    if not tiles:
        return None
    if not cells:
        return Placement(TILES[tiles[0]], 0, 0)
    wanted = mask(tiles)
    beside = _beside(cells) if frontier is None else (k for k, may in frontier.items() if may & wanted)
    for k in beside:
        fit = accepts(cells, k) & wanted
        if fit:
            return Placement(TILES[(fit & -fit).bit_length() - 1], *key_cell(k))
    return None


def _beside(cells: Mapping[int, int]) -> Iterator[int]:
    """Each empty cell beside the board's tiles, once."""
    tried: set[int] = set()
    for key in cells:
        for d in (STEP_X, -STEP_X, STEP_Y, -STEP_Y):
            k = key + d
            if k not in cells and k not in tried:
                tried.add(k)
                yield k


def dead(cells: Board | Mapping[int, int], left: Iterable[int], frontier: Mapping[int, int] | None = None) -> bool:
    """Whether a position is dead: tiles are on the board and none of the
    tiles ``left`` in the game (in racks and bag) fits anywhere, so nobody
    can ever place again (docs/rules.md: the game ends, blocked). ``frontier``:
    as for :func:`playable_tile`."""
    if isinstance(cells, Board):
        cells = cells.cells
    return bool(cells) and playable_tile(cells, left, frontier) is None


__all__ = ["DEFAULT_RULES", "Judgement", "LineScore", "Rules", "ScoreBreakdown", "Violation", "check", "dead",
           "explain", "judge", "judge_placed", "playable_tile", "score"]
