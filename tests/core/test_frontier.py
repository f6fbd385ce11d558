"""The move generator's kept board data: the replay's, grown in place, and a depth-first search's line of boards (``Line``)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from qwirkle_tools.core import frontier
from qwirkle_tools.core.lines import accepts
from qwirkle_tools.core.movegen import generate_raw, generate_raw_on
from qwirkle_tools.core.rules import DEFAULT_RULES
from qwirkle_tools.play.game import Game


def _fresh(cells: dict[int, int], rack: list[int]) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]:
    """The moves with no kept data to lean on: the board's data built afresh."""
    frontier._local.data = None
    return generate_raw(dict(cells), rack, DEFAULT_RULES)


_Raws = list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]


def _walk(seed: int, turns: int, steps: int, moves_at: Callable[[int, dict[int, int], list[int]], _Raws],
          pushed: Callable[[tuple[int, ...]], None] = lambda keys: None, popped: Callable[[], None] = lambda: None
          ) -> int:
    """A random depth-first walk over a board ``turns`` greedy turns into a game: at each of
    ``steps`` steps ``moves_at(step, cells, rack)`` gives the mover's moves, then one of them is
    played (``pushed`` is told its cells) or the last one taken back (``popped``), at most 6 deep.
    Returns how deep the walk ended."""
    game = Game.deal(players=2, seed=seed)
    for _ in range(turns):
        game.push(game.legal_moves()[0])
    cells = dict(game.board.cells)
    racks = [[int(t) for t in r] for r in game.racks]
    rng = random.Random(seed)
    line: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    for step in range(steps):
        p = len(line) % 2
        moves = moves_at(step, cells, racks[p])
        if moves and len(line) < 6 and rng.random() < 0.6:
            _, _, keys, tiles = moves[rng.randrange(len(moves))]
            for k, t in zip(keys, tiles):
                cells[k] = t
                racks[p].remove(t)
            line.append((p, keys, tiles))
            pushed(keys)
        elif line:
            q, keys, tiles = line.pop()
            for k, t in zip(keys, tiles):
                del cells[k]
                racks[q].append(t)
            popped()
    return len(line)


def test_outside_a_search_the_last_board_is_grown_in_place() -> None:
    game = Game.deal(players=2, seed=5)
    for _ in range(4):
        game.push(game.legal_moves()[0])
    cells = dict(game.board.cells)
    first = frontier.board_data(cells, DEFAULT_RULES.qwirkle_bonus)
    key, tile = next(iter(generate_raw(cells, [int(t) for t in game.racks[game.to_move]])))[2:]
    grown = dict(cells)
    for k, t in zip(key, tile):
        grown[k] = t
    assert frontier.board_data(grown, DEFAULT_RULES.qwirkle_bonus) is first  # no copy on the replay's path


@pytest.mark.parametrize("seed", [4, 23])
def test_a_line_told_each_move_gives_the_moves_of_fresh_data(seed: int) -> None:
    # the endgame solver's walk: moves pushed and popped, the data asked for at some boards only
    line: list[frontier.Line] = []
    skip = random.Random(-seed)
    checked = [0]

    def moves_at(step: int, cells: dict[int, int], rack: list[int]) -> _Raws:
        if not line:
            line.append(frontier.Line(cells, DEFAULT_RULES.qwirkle_bonus))
        if step and skip.random() < 0.3:  # a position the search values without generating its moves
            return _fresh(cells, rack)
        moves = generate_raw_on(line[0].data(cells), rack, DEFAULT_RULES)
        assert moves == _fresh(cells, rack), f"step {step}"
        checked[0] += 1
        return moves

    depth = _walk(seed, 10, 150, moves_at, lambda keys: line[0].push(keys), lambda: line[0].pop())
    assert checked[0] > 80
    assert len(line[0].placed) == depth and len(line[0].kept) <= depth + 1


@pytest.mark.parametrize("seed", range(6))
def test_fits_says_what_judging_every_frontier_cell_says(seed: int) -> None:
    """``BoardData.fits`` (the dead-position check's fast answer) against every frontier cell judged by
    ``accepts``, for each single tile and for random racks, on the boards of a greedy game."""
    rng = random.Random(seed)
    game = Game.deal(players=2, seed=seed)
    checked = 0
    while not game.is_over():
        cells = dict(game.board.cells)
        if cells:
            data = frontier.BoardData(cells, DEFAULT_RULES.qwirkle_bonus)
            fitting = 0
            for f in data.joinable:
                fitting |= accepts(cells, f)
            for wanted in [1 << t for t in range(36)] + [rng.getrandbits(36) for _ in range(20)]:
                assert data.fits(wanted) == bool(fitting & wanted)
                checked += 1
        game.push(game.legal_moves()[0])
    assert checked > 1000
