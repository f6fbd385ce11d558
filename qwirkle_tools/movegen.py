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
from collections.abc import Mapping, Sequence
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


def _cross(cells: Mapping[int, int], key: int, step: int) -> list[int]:
    """Board tiles on both sides of empty cell ``key`` along ``step``."""
    out = []
    k = key - step
    while k in cells:
        out.append(cells[k])
        k -= step
    k = key + step
    while k in cells:
        out.append(cells[k])
        k += step
    return out


def _cross_ok(cells: Mapping[int, int], key: int, step: int, t: int) -> tuple[bool, int]:
    """Whether ``t`` on ``key`` keeps its cross line valid, and its length."""
    line = _cross(cells, key, step)
    if not line:
        return True, 1
    ok = all(_fits(line[:i], line[i]) for i in range(1, len(line))) and _fits(line, t)
    return ok, len(line) + 1


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
    frontier = {
        k + d for k in cells for d in (STEP_X, -STEP_X, STEP_Y, -STEP_Y) if k + d not in cells
    }
    counts = Counter(rack)
    moves: list[Move] = []
    bonus = rules.qwirkle_bonus
    for step, cross_step in ((STEP_X, STEP_Y), (STEP_Y, STEP_X)):
        starts = {f - i * step for f in frontier for i in range(LINE_MAX)}
        for start in starts:
            if start in cells:
                continue
            prefix = []
            k = start - step
            while k in cells:
                prefix.append(cells[k])
                k -= step
            prefix.reverse()
            if len(prefix) >= LINE_MAX or not all(_fits(prefix[:i], prefix[i]) for i in range(1, len(prefix))):
                continue
            _extend(cells, counts, start, step, cross_step, prefix, [], 0, 0, False,
                    frontier, moves, bonus)
    # one-tile moves were found in both directions: keep one of each
    unique: dict[tuple[Placement, ...], Move] = {}
    for m in moves:
        unique.setdefault(m.tiles, m)
    return list(unique.values())


def _extend(
    cells: Mapping[int, int], counts: Counter[int], key: int, step: int, cross_step: int,
    line: list[int], placed: list[tuple[int, int]], cross_points: int, cross_q: int,
    touches: bool, frontier: set[int], out: list[Move], bonus: int,
) -> None:
    """Place a tile on empty ``key`` in every possible way, then go on or stop."""
    for t in list(counts):
        if counts[t] == 0 or not _fits(line, t):
            continue
        ok, cross_len = _cross_ok(cells, key, cross_step, t)
        if not ok:
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
            cp = cross_points + (cross_len + (bonus if cross_len == LINE_MAX else 0) if cross_len > 1 else 0)
            cq = cross_q + (cross_len == LINE_MAX)
            now = placed + [(key, t)]
            touch = touches or key in frontier
            if touch:
                n = len(new_line)
                main = n + (bonus if n == LINE_MAX else 0) if n > 1 else 0
                out.append(Move(
                    tuple(Placement(TILES[tt], *key_cell(kk)) for kk, tt in now),
                    main + cp, cq + (n == LINE_MAX),
                ))
            if len(new_line) < LINE_MAX:
                _extend(cells, counts, k, step, cross_step, new_line, now, cp, cq, touch,
                        frontier, out, bonus)
        counts[t] += 1
