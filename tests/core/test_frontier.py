"""The move generator's kept board data: the replay's, grown in place, and a depth-first search's line of boards (``Line``)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from qwirkle_tools.core import frontier
from qwirkle_tools.core.board import cell_key
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


def _lists_mirror_joinable(data: frontier.BoardData) -> None:
    """The frontier's lists (``spots``, ``masks``, ``slot``) say what ``joinable`` says, cell for cell."""
    assert len(data.spots) == len(data.masks) == len(data.slot) == len(data.joinable)
    assert {f: data.masks[i] for i, f in enumerate(data.spots)} == data.joinable
    assert all(data.spots[i] == f for f, i in data.slot.items())


@pytest.mark.parametrize("seed", [3, 17])
def test_the_frontier_lists_follow_joinable_as_boards_grow_and_are_copied(seed: int) -> None:
    # grown in place (a game played forward) and along a line of copies (a search)
    line: list[frontier.Line] = []

    def moves_at(step: int, cells: dict[int, int], rack: list[int]) -> _Raws:
        if not line:
            line.append(frontier.Line(cells, DEFAULT_RULES.qwirkle_bonus))
        data = line[0].data(cells)
        _lists_mirror_joinable(data)
        fresh = frontier.BoardData(dict(cells), DEFAULT_RULES.qwirkle_bonus)
        assert data.joinable == fresh.joinable
        return generate_raw_on(data, rack, DEFAULT_RULES)

    _walk(seed, 12, 120, moves_at, lambda keys: line[0].push(keys), lambda: line[0].pop())
    game = Game.deal(players=2, seed=seed)
    while not game.is_over():
        game.push(game.legal_moves()[0])
        if game.board.cells:
            _lists_mirror_joinable(frontier.board_data(dict(game.board.cells), DEFAULT_RULES.qwirkle_bonus))


def test_grown_trusts_the_kept_data_only_while_no_one_else_changed_it() -> None:
    game = Game.deal(players=2, seed=8)
    for _ in range(3):
        game.push(game.legal_moves()[0])
    cells = dict(game.board.cells)
    bonus = DEFAULT_RULES.qwirkle_bonus
    data = frontier.board_data(cells, bonus)
    stamp = data.stamp
    _, _, keys, tiles = generate_raw(cells, [int(t) for t in game.racks[game.to_move]])[0]
    after = dict(cells)
    for k, t in zip(keys, tiles):
        after[k] = t
    assert frontier.grown(data, stamp, cells, []) is data  # nothing new: the same data, as it was
    assert frontier.grown(data, stamp, after, keys) is data and data.cells == after  # grown by the cells told
    assert data.stamp != stamp
    assert frontier.grown(data, stamp, after, []) is None  # changed since that stamp: not trusted
    other = dict(after)
    frontier._local.data = None
    replaced = frontier.board_data(other, bonus)  # another board's data took its place
    assert frontier.grown(data, data.stamp, after, []) is None
    assert frontier.grown(replaced, replaced.stamp, after, []) is replaced


@pytest.mark.parametrize("seed", [31, 44])
def test_a_game_played_forward_lists_the_moves_of_fresh_data_whatever_else_uses_the_thread(seed: int) -> None:
    # the game tells its kept data the cells it filled (frontier.grown); between its turns a look-ahead
    # grows that same data in place, or another game's board takes the thread's data over
    bonus = DEFAULT_RULES.qwirkle_bonus
    game, other = Game.deal(players=2, seed=seed), Game.deal(players=2, seed=seed + 1)
    rng = random.Random(seed)
    checked = 0
    while not game.is_over():
        moves = game.legal_moves()
        cells = dict(game.board.cells)
        if cells and game.bag_size:  # (an empty bag adds the end bonus and sorts again)
            fresh = generate_raw_on(frontier.BoardData(cells, bonus), [int(t) for t in game.racks[game.to_move]])
            placed = [(m.score, tuple(cell_key(p.x, p.y) for p in m.tiles)) for m in moves if m.action == "place"]
            assert placed == [(score, keys) for score, _, keys, _ in fresh], f"turn {len(game.turns) + 1}"
            checked += 1
        game.push(moves[0])
        what = rng.randrange(3)
        if what == 0 and not game.is_over():  # a look-ahead: the board now, then one move further
            ahead = dict(game.board.cells)
            rack = [int(t) for t in game.racks[game.to_move]]
            found = generate_raw(ahead, rack)
            if found:
                for k, t in zip(found[0][2], found[0][3]):
                    ahead[k] = t
                generate_raw(ahead, rack)
        elif what == 1 and not other.is_over():
            other.push(other.legal_moves()[0])
    assert checked > 15


def test_a_board_of_tiles_far_apart_keeps_its_placements_in_little_memory() -> None:
    # a record's set-up may put tiles a million cells apart: the frame's placement rows would be
    # hundreds of megabytes (seen: 526 MB, 0.7 s for one generation); such a frame keeps them by code
    import tracemalloc

    from qwirkle_tools.core.board import Board
    from qwirkle_tools.core.movegen import generate

    near, far = Board.parse("@-500000,-500000\nrc"), Board.parse("@500000,500000\nbs")
    both = near.place(far.placements())
    rack = [0, 1, 2, 7, 13]
    frontier._local.data = None
    tracemalloc.start()
    try:
        moves = generate(both, rack)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000, f"{peak:,} bytes"
    assert set(moves) == set(generate(near, rack)) | set(generate(far, rack))
    assert not frontier.board_data(dict(both.cells), DEFAULT_RULES.qwirkle_bonus).placements.rows
