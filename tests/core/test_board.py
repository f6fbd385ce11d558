"""The board: cell keys, placements, diagrams, and an immutable mapping."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qwirkle_tools.core.board import (
    COORD_LIMIT,
    STEP_X,
    STEP_Y,
    Board,
    Placement,
    cell_key,
    cell_text,
    key_bounds,
    key_cell,
)
from qwirkle_tools.core.tiles import TILES, Tile

coords = st.integers(-COORD_LIMIT, COORD_LIMIT)
placements = st.builds(Placement, st.sampled_from(TILES), coords, coords)


def t(text: str) -> Tile:
    return Tile.parse(text)


# -- cell keys ---------------------------------------------------------------------

@given(coords, coords)
def test_cell_key_round_trips(x: int, y: int) -> None:
    assert key_cell(cell_key(x, y)) == (x, y)
    assert cell_text(cell_key(x, y)) == f"({x},{y})"


@given(st.integers(-COORD_LIMIT + 1, COORD_LIMIT - 1), st.integers(-COORD_LIMIT + 1, COORD_LIMIT - 1))
def test_neighbours_are_one_step_away(x: int, y: int) -> None:
    key = cell_key(x, y)
    assert cell_key(x + 1, y) == key + STEP_X
    assert cell_key(x - 1, y) == key - STEP_X
    assert cell_key(x, y + 1) == key + STEP_Y
    assert cell_key(x, y - 1) == key - STEP_Y


@given(coords, coords, coords, coords)
def test_distinct_cells_have_distinct_keys(x1: int, y1: int, x2: int, y2: int) -> None:
    assert (cell_key(x1, y1) == cell_key(x2, y2)) == ((x1, y1) == (x2, y2))


@pytest.mark.parametrize("cell", [
    (0, 0), (1, 0), (0, 1), (-1, 0), (0, -1), (-1, -1),
    (COORD_LIMIT, COORD_LIMIT), (-COORD_LIMIT, -COORD_LIMIT), (COORD_LIMIT, -COORD_LIMIT), (-COORD_LIMIT, COORD_LIMIT),
])
def test_cell_key_round_trips_at_the_edges(cell: tuple[int, int]) -> None:
    assert key_cell(cell_key(*cell)) == cell


@given(st.lists(st.tuples(coords, coords), min_size=1, max_size=20))
def test_key_bounds_are_the_bounds_of_the_cells(cells: list[tuple[int, int]]) -> None:
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    assert key_bounds([cell_key(x, y) for x, y in cells]) == (min(xs), min(ys), max(xs), max(ys))
    assert Board(Placement(TILES[0], x, y) for x, y in cells).bounds() == (min(xs), min(ys), max(xs), max(ys))


# -- placements --------------------------------------------------------------------

def test_placement_text_form() -> None:
    p = Placement(t("rc"), 3, -2)
    assert str(p) == "red-circle@3,-2"
    assert p.key == cell_key(3, -2)
    assert (p.tile, p.x, p.y) == (t("rc"), 3, -2)


@pytest.mark.parametrize(("text", "expected"), [
    ("rc@0,0", Placement(Tile.parse("rc"), 0, 0)),
    ("red-circle@0,0", Placement(Tile.parse("rc"), 0, 0)),
    ("OS@-4,7", Placement(Tile.parse("orange-square"), -4, 7)),
    ("purple-clover@12,-1", Placement(Tile.parse("pl"), 12, -1)),
    (" bt @ 1 , 2 ", Placement(Tile.parse("bt"), 1, 2)),
])
def test_placement_parse(text: str, expected: Placement) -> None:
    assert Placement.parse(text) == expected


@pytest.mark.parametrize("text", ["rc", "rc@", "rc@1", "rc@1,2,3", "rc@a,b", "zz@1,2", "@1,2", "rc@1.5,2", ""])
def test_placement_parse_rejects_bad_text_and_quotes_it(text: str) -> None:
    with pytest.raises(ValueError, match="tile@x,y") as info:
        Placement.parse(text)
    assert repr(text) in str(info.value)


@given(placements)
def test_placement_parse_of_str_is_identity(p: Placement) -> None:
    assert Placement.parse(str(p)) == p
    assert Placement.parse(f"{p.tile.short}@{p.x},{p.y}") == p
    assert eval(repr(p), {"Placement": Placement, "Tile": Tile}) == p


# -- diagrams ---------------------------------------------------------------------

L_SHAPE = """
    @-1,2
    rc rx rd
    .. .. bd
    .. .. gd
"""


def test_parse_places_tiles_from_the_top_left_cell() -> None:
    board = Board.parse(L_SHAPE)
    assert dict(board) == {
        (-1, 2): t("rc"), (0, 2): t("rx"), (1, 2): t("rd"),
        (1, 3): t("bd"), (1, 4): t("gd"),
    }


def test_diagram_text_is_exact() -> None:
    board = Board([Placement(t("rc"), 0, 0), Placement(t("rs"), 1, 0), Placement(t("bs"), 1, 1)])
    assert board.diagram() == "@0,0\nrc rs\n.. bs"
    assert Board.parse(L_SHAPE).diagram() == "@-1,2\nrc rx rd\n.. .. bd\n.. .. gd"


def test_parse_without_origin_starts_at_0_0_and_accepts_any_case() -> None:
    assert Board.parse("RC Rx\n.. bx") == Board.parse("@0,0\nrc rx\n.. bx")
    assert (1, 1) in Board.parse("rc rx\n.. bx")


@pytest.mark.parametrize("text", ["", "@0,0", "@5,-5", "  \n\n  ", "@0,0\n..", ".. ..\n.. .."])
def test_parse_of_nothing_is_the_empty_board(text: str) -> None:
    assert Board.parse(text) == Board()
    assert len(Board.parse(text)) == 0


def test_parse_rejects_a_bad_tile() -> None:
    with pytest.raises(ValueError, match="'zz'"):
        Board.parse("rc zz")


def test_empty_board_diagram_round_trips() -> None:
    assert Board.parse(Board().diagram()) == Board()


boards = st.dictionaries(
    st.tuples(st.integers(-8, 8), st.integers(-8, 8)), st.sampled_from(TILES), max_size=25,
).map(lambda cells: Board(Placement(tile, x, y) for (x, y), tile in cells.items()))


@given(boards, st.integers(-COORD_LIMIT // 2, COORD_LIMIT // 2), st.integers(-COORD_LIMIT // 2, COORD_LIMIT // 2))
def test_parse_of_diagram_is_identity(board: Board, dx: int, dy: int) -> None:
    assert Board.parse(board.diagram()) == board
    moved = Board(Placement(p.tile, p.x + dx, p.y + dy) for p in board.placements())
    assert Board.parse(moved.diagram()) == moved
    if board:
        min_x, min_y, _, _ = board.bounds()
        assert board.diagram().splitlines()[0] == f"@{min_x},{min_y}"


@given(boards)
def test_repr_is_evaluable(board: Board) -> None:
    assert eval(repr(board), {"Board": Board}) == board


# -- an immutable mapping -----------------------------------------------------------

def test_place_returns_a_new_board_and_leaves_the_old_one_alone() -> None:
    before = Board.parse("rc rx")
    snapshot = dict(before)
    after = before.place([Placement(t("rd"), 2, 0), Placement(t("bc"), 0, 1)])
    assert after is not before
    assert dict(before) == snapshot and len(before) == 2 and (2, 0) not in before
    assert after == Board.parse("rc rx rd\nbc .. ..")
    assert before == Board.parse("rc rx")


def test_place_does_not_check_legality() -> None:
    # rules live in qwirkle_tools.core.rules: the board lets a tile replace another
    board = Board.parse("rc").place([Placement(t("pl"), 0, 0), Placement(t("ys"), 9, 9)])
    assert board[(0, 0)] == t("pl") and board[(9, 9)] == t("ys")


def test_mapping_behaviour() -> None:
    board = Board.parse(L_SHAPE)
    assert len(board) == 5
    assert board[(1, 3)] is t("bd")
    assert isinstance(board[(1, 3)], Tile)
    assert (1, 3) in board and (0, 3) not in board
    others: list[object] = ["rc", (1, 3, 0), 5, [1, 3]]
    assert not any(other in board for other in others)
    with pytest.raises(KeyError):
        board[(0, 3)]
    assert board.get((0, 3)) is None
    assert board.get((-1, 2)) == t("rc")
    assert sorted(board) == [(-1, 2), (0, 2), (1, 2), (1, 3), (1, 4)]
    assert sorted(board.keys()) == sorted(board)
    assert sorted(board.values()) == sorted(parse_all("rc rx rd bd gd"))
    assert dict(board.items()) == dict(board)


def parse_all(text: str) -> list[Tile]:
    return [t(s) for s in text.split()]


def test_placements_are_sorted_by_row_then_column() -> None:
    board = Board.parse("""
        .. rc ..
        bx .. gd
    """)
    assert [str(p) for p in board.placements()] == ["red-circle@1,0", "blue-cross@0,1", "green-diamond@2,1"]
    assert Board(board.placements()) == board


def test_cells_is_keyed_by_cell_key() -> None:
    board = Board.parse("@3,-1\nrc rx")
    assert dict(board.cells) == {cell_key(3, -1): 0, cell_key(4, -1): 1}


@pytest.mark.parametrize(("text", "expected"), [
    ("", (0, 0, 0, 0)),
    ("rc", (0, 0, 0, 0)),
    ("@-3,4\nrc", (-3, 4, -3, 4)),
    (L_SHAPE, (-1, 2, 1, 4)),
    ("@-2,-2\n.. rc ..\nrx .. ..\n.. .. .. rd", (-2, -2, 1, 0)),
])
def test_bounds(text: str, expected: tuple[int, int, int, int]) -> None:
    assert Board.parse(text).bounds() == expected


def test_equal_boards_hash_alike_and_order_does_not_matter() -> None:
    a = Board([Placement(t("rc"), 0, 0), Placement(t("rx"), 1, 0)])
    b = Board([Placement(t("rx"), 1, 0), Placement(t("rc"), 0, 0)])
    assert a == b and hash(a) == hash(b)
    assert len({a, b, Board.parse("rc rx")}) == 1
    assert a != Board.parse("rc rd")
    assert a != Board.parse("@1,0\nrc rx")


def test_later_placement_on_the_same_cell_wins_in_the_constructor() -> None:
    board = Board([Placement(t("rc"), 0, 0), Placement(t("bt"), 0, 0)])
    assert len(board) == 1 and board[(0, 0)] == t("bt")


def test_empty_board() -> None:
    board = Board()
    assert len(board) == 0 and not board and list(board) == []
    assert board.bounds() == (0, 0, 0, 0)
    assert repr(board) == "Board()"
    assert board.placements() == []


# -- a move as text ---------------------------------------------------------------------

placements_strategy = st.builds(Placement, st.sampled_from(TILES), st.integers(-10**6, 10**6), st.integers(-10**6, 10**6))


@given(placements_strategy)
def test_short_placement_round_trips(p: Placement) -> None:
    assert Placement.parse(p.short) == p
    assert p.short == f"{p.tile.short}@{p.x},{p.y}"


@given(st.lists(placements_strategy, max_size=6), st.booleans())
def test_format_move_round_trips(move: list[Placement], short: bool) -> None:
    from qwirkle_tools.core.board import format_move, parse_move

    assert parse_move(format_move(move, short)) == tuple(move)


def test_parse_move_names_the_bad_part() -> None:
    from qwirkle_tools.core.board import PlacementError, parse_move

    with pytest.raises(PlacementError, match="rz@1,0"):
        parse_move("rc@0,0 rz@1,0")
