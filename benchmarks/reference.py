"""The fixed reference: greedy self-play with a straightforward brute-force move generator.

    python benchmarks/reference.py [--games 4]    (prints games per second)

Written apart from the package and never changed, so that a ratio to it cancels the
machine's speed: this toolkit's greedy self-play is measured as so many times this one
(``benchmarks/bench_builds.py``). The rules are the game's (lines of one colour or one
shape, no tile twice, six at most, a Qwirkle scores 12, going out 6); the generator tries,
from every empty cell beside the board, in both directions, every tile of the rack on the
next empty cells one after another, each line checked as it grows; the best score wins.
"""

from __future__ import annotations

import argparse
import random
import time

Cell = tuple[int, int]


def valid(line: list[int]) -> bool:
    if len(line) > 6 or len(set(line)) != len(line):
        return False
    return len({t // 6 for t in line}) == 1 or len({t % 6 for t in line}) == 1


def run(board: dict[Cell, int], cell: Cell, dx: int, dy: int) -> list[int]:
    """The tiles of the line through ``cell`` (on the board) along ``(dx, dy)``."""
    x, y = cell
    while (x - dx, y - dy) in board:
        x, y = x - dx, y - dy
    tiles = []
    while (x, y) in board:
        tiles.append(board[(x, y)])
        x, y = x + dx, y + dy
    return tiles


def points(line: list[int]) -> int:
    return 0 if len(line) < 2 else len(line) + (6 if len(line) == 6 else 0)


def best_move(board: dict[Cell, int], rack: list[int]) -> tuple[int, list[tuple[Cell, int]]]:
    """The best-scoring placement (score, placements), ``(0, [])`` when there is none."""
    best: tuple[int, list[tuple[Cell, int]]] = (0, [])
    if not board:
        for t in set(rack):
            best = max(best, grow(board, list(rack), [((0, 0), t)], 1, 0, None, 0), key=lambda b: b[0])
        return best
    anchors = {(x + dx, y + dy) for (x, y) in board for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))} - board.keys()
    for ax, ay in sorted(anchors):
        for dx, dy in ((1, 0), (0, 1)):
            for back in range(6):  # the move's first tile up to 5 cells before the anchor
                start = (ax - back * dx, ay - back * dy)
                if start in board:
                    break
                for t in set(rack):
                    found = grow(board, list(rack), [(start, t)], dx, dy, (ax, ay), 0)
                    if found[0] > best[0]:
                        best = found
    return best


def grow(board: dict[Cell, int], rack: list[int], placed: list[tuple[Cell, int]], dx: int, dy: int,
         anchor: Cell | None, cross_points: int) -> tuple[int, list[tuple[Cell, int]]]:
    """The best move that begins with ``placed`` (its last tile not yet on ``board``) and goes on
    along ``(dx, dy)``; ``cross_points``: the cross lines' points of the tiles before the last."""
    cell, tile = placed[-1]
    board[cell] = tile
    rack.remove(tile)
    try:
        main, cross = run(board, cell, dx, dy), run(board, cell, dy, dx)
        if not valid(main) or not valid(cross):
            return (0, [])
        cross_points += points(cross)
        best: tuple[int, list[tuple[Cell, int]]] = (0, [])
        if anchor is None or any(c == anchor for c, _ in placed):
            score = points(main) + cross_points
            best = (score or 1, list(placed))
        x, y = cell[0] + dx, cell[1] + dy
        while (x, y) in board:
            x, y = x + dx, y + dy
        for t in set(rack):
            found = grow(board, rack, [*placed, ((x, y), t)], dx, dy, anchor, cross_points)
            if found[0] > best[0]:
                best = found
        return best
    finally:
        del board[cell]
        rack.append(tile)


def game(seed: int) -> list[int]:
    """One greedy two-player game; the scores."""
    rng = random.Random(seed)
    bag = [t for t in range(36) for _ in range(3)]
    rng.shuffle(bag)
    racks = [[bag.pop() for _ in range(6)] for _ in range(2)]
    board: dict[Cell, int] = {}
    scores = [0, 0]
    player, passes = 0, 0
    while passes < 2:
        score, placed = best_move(board, racks[player])
        if not placed:
            passes += 1
        else:
            passes = 0
            for cell, t in placed:
                board[cell] = t
                racks[player].remove(t)
            while bag and len(racks[player]) < 6:
                racks[player].append(bag.pop())
            scores[player] += score
            if not racks[player]:
                scores[player] += 6
                break
        player = 1 - player
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    options = parser.parse_args()
    started = time.perf_counter()
    for seed in range(options.games):
        game(seed)
    print(f"{options.games / (time.perf_counter() - started):.3f} games/s")


if __name__ == "__main__":
    main()
