"""The move generator's kept board data: a depth-first search's line of boards (``branching``)."""

from __future__ import annotations

import random

import pytest

from qwirkle_tools.core import frontier
from qwirkle_tools.core.movegen import generate_raw, generate_raw_on
from qwirkle_tools.core.rules import DEFAULT_RULES
from qwirkle_tools.play.game import Game


def _fresh(cells: dict[int, int], rack: list[int]) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]:
    """The moves with no kept data to lean on: the board's data built afresh."""
    frontier._local.data = None
    return generate_raw(dict(cells), rack, DEFAULT_RULES)


@pytest.mark.parametrize("seed", [3, 17, 29])
def test_a_search_that_takes_moves_back_gets_the_moves_built_afresh(seed: int) -> None:
    # a random depth-first walk over a mid-game board: moves tried, taken back, others tried from the same board
    game = Game.deal(players=2, seed=seed)
    for _ in range(8):
        game.push(game.legal_moves()[0])
    cells = dict(game.board.cells)
    racks = [[int(t) for t in r] for r in game.racks]
    rng = random.Random(seed)
    line: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    checked = 0
    with frontier.branching():
        for step in range(120):
            p = len(line) % 2
            moves = generate_raw(cells, racks[p], DEFAULT_RULES)
            with_line = frontier._local.line
            frontier._local.line = None  # outside the search for the reference
            assert moves == _fresh(cells, racks[p]), f"step {step}"
            frontier._local.line = with_line
            checked += 1
            if moves and len(line) < 6 and rng.random() < 0.6:
                _, _, keys, tiles = moves[rng.randrange(len(moves))]
                for k, t in zip(keys, tiles):
                    cells[k] = t
                    racks[p].remove(t)
                line.append((p, keys, tiles))
            elif line:
                q, keys, tiles = line.pop()
                for k, t in zip(keys, tiles):
                    del cells[k]
                    racks[q].append(t)
    assert checked == 120
    assert frontier._local.line is None  # the search's line is gone with it


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
    # a random depth-first walk, as the endgame solver makes: moves pushed and popped, data asked for at some boards only
    game = Game.deal(players=2, seed=seed)
    for _ in range(10):
        game.push(game.legal_moves()[0])
    cells = dict(game.board.cells)
    racks = [[int(t) for t in r] for r in game.racks]
    line = frontier.Line(cells, DEFAULT_RULES.qwirkle_bonus)
    rng = random.Random(seed)
    played: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    checked = 0
    for step in range(150):
        p = len(played) % 2
        if rng.random() < 0.3 and played:  # a position the search values without generating its moves
            moves = _fresh(cells, racks[p])
        else:
            moves = generate_raw_on(line.data(cells), racks[p], DEFAULT_RULES)
            assert moves == _fresh(cells, racks[p]), f"step {step}"
            checked += 1
        if moves and len(played) < 6 and rng.random() < 0.6:
            _, _, keys, tiles = moves[rng.randrange(len(moves))]
            for k, t in zip(keys, tiles):
                cells[k] = t
                racks[p].remove(t)
            line.push(keys)
            played.append((p, keys, tiles))
        elif played:
            q, keys, tiles = played.pop()
            for k, t in zip(keys, tiles):
                del cells[k]
                racks[q].append(t)
            line.pop()
    assert checked > 80
    assert len(line.kept) <= len(played) + 1
