"""Every legal placement of a rack's tiles on a board, with its score.

Complete on a non-empty board: moves in rows and columns, moves whose tiles
sit on both sides of board tiles or are separated by them, each distinct
move once (duplicate rack tiles do not repeat moves; a one-tile move is
listed once, not once per direction).

On an empty board every ordering of every valid group is a distinct move;
they are laid out in row 0 from (0,0). Mirror images and columns are not
listed, since they score the same and the first move's place is arbitrary.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations

from .board import STEP_X, STEP_Y, Board, Placement, key_cell
from .rules import DEFAULT_RULES, LINE_MAX, Rules
from .tiles import TILES, largest_group


@dataclass(frozen=True, slots=True)
class Move:
    """A legal placement with its score (without end bonus) and Qwirkles."""

    tiles: tuple[Placement, ...]
    score: int
    qwirkles: int

    def __str__(self) -> str:
        return " ".join(str(p) for p in self.tiles)


def _fits(line: Sequence[int], t: int) -> bool:
    """Whether ``line`` (valid) stays valid with ``t`` added."""
    if not line:
        return True
    if t in line or len(line) >= LINE_MAX:
        return False
    first = line[0]
    if len(line) == 1:
        return first // 6 == t // 6 or first % 6 == t % 6
    second = line[1]
    if first // 6 == second // 6:
        return t // 6 == first // 6
    return t % 6 == first % 6


def _cross_points(cells: Mapping[int, int], key: int, step: int, tiles: Sequence[int], bonus: int) -> dict[int, int]:
    """For each of ``tiles`` that may lie on empty ``key`` as far as its cross
    line is concerned: the points that cross line scores (0 if it is a lone tile)."""
    line = []
    k = key - step
    while k in cells:
        line.append(cells[k])
        k -= step
    k = key + step
    while k in cells:
        line.append(cells[k])
        k += step
    if not line:
        return dict.fromkeys(tiles, 0)
    if any(not _fits(line[:i], line[i]) for i in range(1, len(line))):
        return {}  # the board's own line is broken: nothing may join it
    n = len(line) + 1
    points = n + (bonus if n == LINE_MAX else 0)
    return {t: points for t in tiles if _fits(line, t)}


def generate(
    board: Board | Mapping[int, int],
    rack: Sequence[int],
    rules: Rules = DEFAULT_RULES,
    largest_first: bool = False,
) -> list[Move]:
    """Every legal move for ``rack`` on ``board``, best score first.

    ``largest_first`` applies the opening rule on an empty board: only groups
    of the rack's largest size.
    """
    cells = board.cells if isinstance(board, Board) else board
    if not cells:
        moves = _opening(rack, rules, largest_first)
    else:
        moves = _moves(cells, rack, rules)
    moves.sort(key=lambda m: (-m.score, -m.qwirkles, [(p.y, p.x, p.tile) for p in m.tiles]))
    return moves


def _opening(rack: Sequence[int], rules: Rules, largest_first: bool) -> list[Move]:
    distinct = sorted(set(rack))
    groups: set[tuple[int, ...]] = set()
    for value in range(6):
        for members in ([t for t in distinct if t // 6 == value], [t for t in distinct if t % 6 == value]):
            n = len(members)
            for mask in range(1, 1 << n):
                groups.add(tuple(members[i] for i in range(n) if mask >> i & 1))
    if largest_first:
        best = largest_group(rack)
        groups = {g for g in groups if len(g) == best}
    moves = []
    for group in groups:
        for order in permutations(group):
            k = len(order)
            points = rules.lone_tile_score if k == 1 else k + (rules.qwirkle_bonus if k == LINE_MAX else 0)
            moves.append(Move(tuple(Placement(TILES[t], x, 0) for x, t in enumerate(order)),
                              points, int(k == LINE_MAX)))
    return moves


def _moves(cells: Mapping[int, int], rack: Sequence[int], rules: Rules) -> list[Move]:
    """Moves on a non-empty board, generated from anchors.

    Every move places a tile on a frontier cell (an empty cell beside the
    board). Its *anchor* is the first such cell along the line; from there
    the move extends forward over empty and board cells alike, and backward
    only over free cells (empty, with no board neighbour), which constrain
    nothing but the line itself. So each move is found exactly once per
    direction, and no time is spent on tiles that never reach the board.
    """
    frontier = {
        k + d for k in cells for d in (STEP_X, -STEP_X, STEP_Y, -STEP_Y) if k + d not in cells
    }
    counts = Counter(rack)
    distinct = sorted(counts)
    moves: list[Move] = []
    bonus = rules.qwirkle_bonus
    for step, cross_step in ((STEP_X, STEP_Y), (STEP_Y, STEP_X)):
        crosses: dict[int, dict[int, int]] = {}

        def cross(key: int, crosses: dict[int, dict[int, int]] = crosses, cross_step: int = cross_step) -> dict[int, int]:
            found = crosses.get(key)
            if found is None:
                found = crosses[key] = _cross_points(cells, key, cross_step, distinct, bonus)
            return found

        for anchor in frontier:
            prefix = []
            k = anchor - step
            while k in cells:
                prefix.append(cells[k])
                k -= step
            prefix.reverse()
            if len(prefix) >= LINE_MAX or any(not _fits(prefix[:j], prefix[j]) for j in range(1, len(prefix))):
                continue
            free = 0
            if not prefix:
                k = anchor - step
                while free < LINE_MAX - 1 and k not in frontier and k not in cells:
                    free += 1
                    k -= step
            _forward(cells, counts, anchor, step, cross, prefix, [], 0, 0, anchor - step, free, moves, bonus)
    # one-tile moves are found in both directions: keep one of each
    unique: dict[tuple[Placement, ...], Move] = {}
    for m in moves:
        unique.setdefault(m.tiles, m)
    return list(unique.values())


def _emit(out: list[Move], placed: list[tuple[int, int]], line_len: int, cross_points: int, cross_q: int, bonus: int) -> None:
    main = line_len + (bonus if line_len == LINE_MAX else 0) if line_len > 1 else 0
    out.append(Move(
        tuple(Placement(TILES[t], *key_cell(k)) for k, t in placed),
        main + cross_points, cross_q + (line_len == LINE_MAX),
    ))


def _forward(
    cells: Mapping[int, int], counts: Counter[int], key: int, step: int, cross: Callable[[int], dict[int, int]],
    line: list[int], placed: list[tuple[int, int]], cross_points: int, cross_q: int,
    back: int, free: int, out: list[Move], bonus: int,
) -> None:
    """Place a tile on empty ``key`` every possible way; each result is a move,
    which may then grow backward over free cells and forward again."""
    for t, points in cross(key).items():
        if counts[t] == 0 or not _fits(line, t):
            continue
        counts[t] -= 1
        new_line = line + [t]
        k = key + step
        valid = True
        while k in cells:  # board tiles after the placed one join the line
            if not _fits(new_line, cells[k]):
                valid = False
                break
            new_line.append(cells[k])
            k += step
        if valid:
            cp = cross_points + points
            cq = cross_q + (points == LINE_MAX + bonus)
            now = placed + [(key, t)]
            _emit(out, now, len(new_line), cp, cq, bonus)
            if free:
                _backward(counts, new_line, now, cp, cq, back, step, free, out, bonus)
            if len(new_line) < LINE_MAX:
                _forward(cells, counts, k, step, cross, new_line, now, cp, cq, back, free, out, bonus)
        counts[t] += 1


def _backward(
    counts: Counter[int], line: list[int], placed: list[tuple[int, int]], cross_points: int, cross_q: int,
    key: int, step: int, free: int, out: list[Move], bonus: int,
) -> None:
    """Add tiles on free cells before the anchor (no cross lines there)."""
    if len(line) >= LINE_MAX:
        return
    for t in counts:
        if counts[t] == 0 or not _fits(line, t):
            continue
        counts[t] -= 1
        new_line = [t] + line
        now = [(key, t)] + placed
        _emit(out, now, len(new_line), cross_points, cross_q, bonus)
        if free > 1:
            _backward(counts, new_line, now, cross_points, cross_q, key - step, step, free - 1, out, bonus)
        counts[t] += 1
