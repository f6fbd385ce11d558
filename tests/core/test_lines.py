"""Lines: the walk, validity, the tile that completes a five, the points."""

from __future__ import annotations

import pytest
from conftest import play
from hypothesis import given, settings
from hypothesis import strategies as st

from qwirkle_tools.core.board import STEP_X, STEP_Y, Board, Placement, cell_key, key_cell
from qwirkle_tools.core.lines import (
    ALL,
    LINE_MAX,
    accepts,
    completing_tile,
    fault,
    joinable,
    line_start,
    lines_through,
    lone_points,
    points,
    runs,
    survey,
    walk,
)
from qwirkle_tools.core.tiles import TILES, Tile, parse_tiles

line_fault = fault


# -- line_fault ---------------------------------------------------------------------

@pytest.mark.parametrize(("tiles", "expected"), [
    ("rc", None),
    ("rc rx", None),
    ("rc bc", None),
    ("rc rx rd rs rt rl", None),
    ("rc oc yc gc bc pc", None),
    ("rl rc rt", None),               # order does not matter
    ("rc bx", "line-mixed"),
    ("rc rx bx", "line-mixed"),        # neither all red nor all crosses
    ("rc bc bx", "line-mixed"),
    ("rc rc", "duplicate-in-line"),
    ("rc rx rc", "duplicate-in-line"),
    ("rc bc rc", "duplicate-in-line"),
    ("rc rx rd rs rt rl rc", "line-too-long"),
    ("rc oc yc gc bc pc rc", "line-too-long"),
    ("rc ox yd gs bt pl rc", "line-too-long"),  # length is checked first
])
def test_line_fault(tiles: str, expected: str | None) -> None:
    assert line_fault(parse_tiles(tiles)) == expected


@given(st.lists(st.sampled_from(TILES), min_size=1, max_size=8))
def test_line_fault_matches_the_rule_text(tiles: list[Tile]) -> None:
    one_colour = len({t.colour for t in tiles}) == 1 and len({t.shape for t in tiles}) == len(tiles)
    one_shape = len({t.shape for t in tiles}) == 1 and len({t.colour for t in tiles}) == len(tiles)
    assert (line_fault(tiles) is None) == (one_colour or one_shape)


# -- joinable, completing_tile, points -----------------------------------------------------

@given(st.lists(st.sampled_from(TILES), min_size=0, max_size=6))
def test_joinable_is_what_keeps_the_line_valid(tiles: list[Tile]) -> None:
    j = joinable(tiles)
    for t in TILES:
        assert bool(j >> t & 1) == (fault([*tiles, t]) is None and fault(tiles) is None and len(tiles) < LINE_MAX), t


def test_joinable_of_nothing_is_everything_and_of_a_bad_line_nothing() -> None:
    assert joinable([]) == ALL
    assert joinable(parse_tiles("rc bx")) == 0
    assert joinable(parse_tiles("rc rx rd rs rt rl")) == 0


@pytest.mark.parametrize(("tiles", "expected"), [
    ("rc rx rd rs rt", "rl"),
    ("rc oc yc gc pc", "bc"),
    ("rc rx rd rs", None),      # four: two tiles could complete it
    ("rc rx rd rs bc", None),   # not a valid line
    ("rc oc yc gc bc pc", None),
])
def test_completing_tile(tiles: str, expected: str | None) -> None:
    found = completing_tile(parse_tiles(tiles))
    assert found == (None if expected is None else Tile.parse(expected))


@pytest.mark.parametrize(("length", "bonus", "expected"), [(0, 6, 0), (1, 6, 0), (2, 6, 2), (5, 6, 5), (6, 6, 12),
                                                           (6, 0, 6), (6, 9, 15)])
def test_points(length: int, bonus: int, expected: int) -> None:
    assert points(length, bonus) == expected


# -- walking ------------------------------------------------------------------------

def test_walk_over_board_and_new_tiles() -> None:
    board = Board.parse("rc .. rd")
    cells = board.cells
    key = Placement.parse("rc@0,0").key
    assert walk(cells, key, STEP_X) == (key, [int(Tile.parse("rc"))])
    middle = Placement.parse("rx@1,0")
    start, tiles = walk(cells, middle.key, STEP_X, {middle.key: middle.tile})
    assert key_cell(start) == (0, 0) and tiles == list(parse_tiles("rc rx rd"))
    assert walk(cells, middle.key, STEP_Y, {middle.key: middle.tile})[1] == [middle.tile]
    assert walk(cells, middle.key, STEP_X)[1] == []  # an empty cell, nothing placed there


def test_accepts_is_the_tiles_legal_alone_on_a_cell() -> None:
    board = Board.parse(""".. .. bd
                           .. .. bs
                           rc rx ..""")
    assert accepts(board.cells, Placement.parse("rc@2,2").key) == 0  # a red is wanted, and a blue
    fits = accepts(board.cells, Placement.parse("rc@2,-1").key)
    assert [TILES[t].name for t in range(36) if fits >> t & 1] == [
        "blue-circle", "blue-cross", "blue-star", "blue-clover"]


def test_lines_through_finds_lines_of_a_given_length() -> None:
    board = Board.parse("""
        rc rx rd rs rt rl
        bc
        gc
    """)
    six = lines_through(board.cells, [Placement.parse("rl@5,0").key], 6)
    assert [[key_cell(k) for k in line] for line in six] == [[(x, 0) for x in range(6)]]
    corner = Placement.parse("rc@0,0").key
    assert lines_through(board.cells, [corner], 3) == [tuple(Placement.parse(f"rc@0,{y}").key for y in range(3))]
    assert lines_through(board.cells, [corner, corner], 6) == six  # each line once
    assert lines_through(board.cells, [corner], 4) == []


class _Counting(dict[int, int]):
    """A board that counts the cells looked at (a walk's cost)."""

    looks = 0

    def get(self, key: int, default: object = None) -> object:  # type: ignore[override]
        self.looks += 1
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.looks += 1
        return super().__contains__(key)


def test_walks_along_a_line_longer_than_the_rules_allow_are_bounded() -> None:
    # a row of 20,000 tiles (illegal moves left on the table): a walk stops once the line is too long
    row = _Counting({x * STEP_X: x % 6 for x in range(20_000)})
    start, tiles = walk(row, 10_000 * STEP_X, STEP_X)
    assert fault(tiles) == "line-too-long" and len(tiles) > 6 and start <= 10_000 * STEP_X
    start, tiles = walk(row, 10_000 * STEP_X, STEP_X, {20_000 * STEP_X: 0})
    assert fault(tiles) == "line-too-long"
    assert accepts(row, -STEP_X) == 0 and accepts(row, 20_000 * STEP_X) == 0
    assert row.looks < 100  # the whole line: 40,000 and more
    # a line of at most 6 still comes back whole, from any of its cells
    short = {x * STEP_X: x for x in range(6)}
    assert all(walk(short, x * STEP_X, STEP_X) == (0, list(range(6))) for x in range(6))


# -- the twins: walks kept twice for speed, cross-checked on random boards ----------------------

# any tiles on a window (lines of every length up to 18, mostly invalid), or a position
# of legal play (valid lines, Qwirkles); cells are drawn from the window and beside the tiles
window = st.builds(cell_key, st.integers(-8, 9), st.integers(-8, 9))
boards = st.one_of(st.dictionaries(window, st.integers(0, 35), max_size=80),
                   st.builds(lambda seed, turns: play(seed, turns)[0], st.integers(0, 2**32), st.integers(0, 30)))
STEPS = (STEP_X, STEP_Y)


@st.composite
def board_and_cell(draw: st.DrawFn) -> tuple[dict[int, int], int]:
    cells = draw(boards)
    how = draw(st.sampled_from(("any", "near", "end")))
    if not cells or how == "any":
        return cells, draw(window)
    key = draw(st.sampled_from(sorted(cells)))
    step = draw(st.sampled_from((STEP_X, -STEP_X, STEP_Y, -STEP_Y)))
    if how == "near":
        return cells, key + draw(st.sampled_from((0, step)))
    while key in cells:  # the empty cell at the end of a line: where a sixth tile would go
        key += step
    return cells, key


def literal_line(cells: dict[int, int], key: int, step: int) -> tuple[int, list[int]]:
    """The whole line through ``key``: its first cell and tiles, one cell at a time."""
    if key not in cells:
        return key, []
    start = key
    while start - step in cells:
        start -= step
    tiles = []
    k = start
    while k in cells:
        tiles.append(cells[k])
        k += step
    return start, tiles


@settings(max_examples=200, deadline=None)
@given(board_and_cell(), boards)
def test_the_walk_over_the_board_and_the_walk_with_new_tiles_agree(position: tuple[dict[int, int], int],
                                                                   new: dict[int, int]) -> None:
    cells, key = position
    new = {k: t for k, t in new.items() if k not in cells}
    both = {**cells, **new}
    for step in STEPS:
        whole = literal_line(both, key, step)
        assert walk(both, key, step, reach=None) == whole
        assert walk(cells, key, step, new, reach=None) == whole
        bounded = walk(both, key, step)
        assert walk(cells, key, step, new) == bounded
        if len(whole[1]) <= LINE_MAX:
            assert bounded == whole  # a line that may be legal comes back whole
        else:
            assert len(bounded[1]) > LINE_MAX and fault(bounded[1]) == "line-too-long"
        if key in both:
            assert line_start(both, key, step, reach=None) == whole[0]


@settings(max_examples=200, deadline=None)
@given(boards, window, st.integers(0, 12))
def test_runs_are_the_lines_a_stretch_holds(cells: dict[int, int], start: int, length: int) -> None:
    for step in STEPS:
        stretch = [cells.get(start + i * step) for i in range(length)]
        text = " ".join("." if t is None else str(int(t)) for t in stretch)
        assert runs(cells, start, step, length) == [[int(t) for t in part.split()] for part in text.split(".") if part.strip()]


@settings(max_examples=200, deadline=None)
@given(board_and_cell())
def test_accepts_is_every_tile_that_leaves_both_walks_valid(position: tuple[dict[int, int], int]) -> None:
    cells, key = position
    if key in cells:
        return
    expected = 0
    for t in range(36):
        if all(survey(walk(cells, key, step, {key: t})[1])[0] >= 0 for step in STEPS):
            expected |= 1 << t
    assert accepts(cells, key) == expected


@settings(max_examples=200, deadline=None)
@given(board_and_cell(), st.sampled_from((6, 0, 10)))
def test_lone_points_is_the_rules_judgement_of_one_tile(position: tuple[dict[int, int], int], bonus: int) -> None:
    from qwirkle_tools.core.rules import Rules, judge_placed

    cells, key = position
    if key in cells or not cells:
        return
    rules = Rules(qwirkle_bonus=bonus)
    x, y = key_cell(key)
    for t in range(36):
        judged = judge_placed({**cells, key: t}, (Placement(TILES[t], x, y),), (key,), rules)
        assert lone_points(cells, key, t, bonus) == (0 if judged is None else judged.points), (key, t)
