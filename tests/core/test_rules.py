"""Rules: legality and scoring of one placement, as tables of small boards.

Every case is a board drawn as text (see ``Board.parse``: ``@x,y`` is the top-left
cell, default ``@0,0``; ``..`` an empty cell), a move written as ``tile@x,y``
placements, and the score and finding codes worked out by hand from docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from conftest import play
from hypothesis import given, settings
from hypothesis import strategies as st

from qwirkle_tools.core.board import Board, Placement, cell_key, key_cell
from qwirkle_tools.core.frontier import BoardData
from qwirkle_tools.core.movegen import generate
from qwirkle_tools.core.rules import (
    DEFAULT_RULES,
    Judgement,
    LineScore,
    Rules,
    ScoreBreakdown,
    check,
    explain,
    judge,
    judge_placed,
    playable_tile,
    score,
)
from qwirkle_tools.core.tiles import TILES, Tile, parse_tiles
from qwirkle_tools.engines.selfplay import simulate


def mv(text: str) -> list[Placement]:
    """A move as ``"rc@0,0 rx@1,0"``."""
    return [Placement.parse(p) for p in text.split()]


def codes(board: Board, move: list[Placement], rules: Rules = DEFAULT_RULES) -> set[str]:
    return {v.code for v in judge(board, move, rules).violations}


@dataclass(frozen=True)
class Case:
    id: str
    board: str
    move: str
    total: int | None  # None: not checked (illegal moves are scored too, but that is tested apart)
    codes: frozenset[str] = frozenset()
    rules: Rules = DEFAULT_RULES


def case(id: str, board: str, move: str, total: int | None, *codes: str, rules: Rules = DEFAULT_RULES) -> Any:
    return pytest.param(Case(id, board, move, total, frozenset(codes), rules), id=id)


# Diagram used by the double-Qwirkle case: an orange row missing its square at
# (5,0) and a square column missing its orange at the top.
DOUBLE = """
    oc ox od ot ol ..
    .. .. .. .. .. rs
    .. .. .. .. .. ys
    .. .. .. .. .. gs
    .. .. .. .. .. bs
    .. .. .. .. .. ps
"""

# A red column of five ending above (2,5), and two stars to the left of (2,5).
QWIRKLE_AND_THREE = """
    .. .. rl
    .. .. rc
    .. .. rx
    .. .. rd
    .. .. rs
    bt gt ..
"""

LEGAL = [
    # The first move scores 1 per tile; a lone first tile scores lone_tile_score.
    case("lone-first-tile", "", "rc@0,0", 1),
    case("lone-first-tile-house-rule-0", "", "rc@0,0", 0, rules=Rules(lone_tile_score=0)),
    case("lone-first-tile-house-rule-2", "", "bt@-4,7", 2, rules=Rules(lone_tile_score=2)),
    # three reds in a row: one line of 3
    case("first-move-3", "", "rc@0,0 rx@1,0 rd@2,0", 3),
    # three circles in a column, anywhere: one line of 3
    case("first-move-3-column", "", "bc@4,4 gc@4,5 yc@4,6", 3),
    # a line of 6 is a Qwirkle: 6 + 6
    case("first-move-6-qwirkle", "", "rc@0,0 rx@1,0 rd@2,0 rs@3,0 rt@4,0 rl@5,0", 12),
    case("first-move-6-no-bonus", "", "rc@0,0 rx@1,0 rd@2,0 rs@3,0 rt@4,0 rl@5,0", 6, rules=Rules(qwirkle_bonus=0)),
    # a two-tile first move scores 2, and the lone-tile rule does not apply to it
    case("first-move-2-lone-rule-ignored", "", "rc@0,0 rx@1,0", 2, rules=Rules(lone_tile_score=5)),
    # extending a line of 2 by one tile: the line of 3 scores 3
    case("extend-line", "rc rx", "rd@2,0", 3),
    # extending to the left works the same
    case("extend-line-left", "rc rx", "rd@-1,0", 3),
    # a new line of 2 from one board tile
    case("line-of-two", "rc", "bc@0,1", 2),
    # rl completes rc rx rd rs rt: 6 + 6 bonus
    case("complete-six", "rc rx rd rs rt", "rl@5,0", 12),
    case("complete-six-no-bonus", "rc rx rd rs rt", "rl@5,0", 6, rules=Rules(qwirkle_bonus=0)),
    case("complete-six-bonus-3", "rc rx rd rs rt", "rl@5,0", 9, rules=Rules(qwirkle_bonus=3)),
    # two tiles, one at each end of rx rd rs rt: one line of 6, counted once = 12
    case("complete-six-both-ends", "rx rd rs rt", "rc@-1,0 rl@4,0", 12),
    # os completes the orange row (6 -> 12) and the square column (6 -> 12)
    case("double-qwirkle", DOUBLE, "os@5,0", 24),
    case("double-qwirkle-no-bonus", DOUBLE, "os@5,0", 12, rules=Rules(qwirkle_bonus=0)),
    # rd at (2,1) makes the row rc rx rd (3) and the column bd rd (2): 3 + 2
    case("two-lines", ".. .. bd\nrc rx ..", "rd@2,1", 5),
    # rt at (2,5) makes the row bt gt rt (3) and completes the red column (12)
    case("qwirkle-and-three", QWIRKLE_AND_THREE, "rt@2,5", 15),
    # rc and rs on both sides of rx rd: the line rc rx rd rs (4), counted once
    case("both-sides", ".. rx rd ..", "rc@0,0 rs@3,0", 4),
    # the same in a column
    case("both-sides-column", "@0,0\n..\nbx\ngx\n..", "rx@0,0 yx@0,3", 4),
    # rd and rt are separated by the board's rs: the row rc rx rd rs rt (5) once,
    # plus rd's column rd gd (2); rt has nothing above or below it
    case("gap-filled-by-board", "rc rx .. rs ..\n.. gx gd gs ..", "rd@2,0 rt@4,0", 7),
    # a row of three under rc rx rd: the new row (3) and three columns of 2
    case("cross-lines-row", "rc rx rd", "bc@0,1 bx@1,1 bd@2,1", 3 + 2 + 2 + 2),
    # a column of two beside rc / rx: the new column (2) and two rows of 2
    case("cross-lines-column", "@0,0\nrc\nrx\nrd", "bc@1,0 bx@1,1", 2 + 2 + 2),
    # only the middle tile has a neighbour across: row yc yx yd (3) + column rx yx (2)
    case("cross-line-one-tile", ".. rx ..", "yc@0,1 yx@1,1 yd@2,1", 5),
    # a move of two that touches the board only through its cross line:
    # column rc bc (2) + row bc bx (2)
    case("touch-by-cross-line-only", "rc", "bc@0,1 bx@1,1", 4),
    # placed tiles need not be given in line order
    case("any-order", "rc rx", "rt@4,0 rs@3,0 rd@2,0", 5),
    # a tile that joins two runs: rc rx + rd + rs rt = one line of 5
    case("join-two-runs", "rc rx .. rs rt", "rd@2,0", 5),
    # join two runs into a Qwirkle
    case("join-two-runs-qwirkle", "rc rx .. rs rt rl", "rd@2,0", 12),
    # far from the origin, negative coordinates
    case("negative-coordinates", "@-1000,-500\nbc gc", "yc@-998,-500 oc@-997,-500", 4),
]


ILLEGAL = [
    # rx@1,0 and rd@0,1 are in neither one row nor one column (each alone would fit)
    case("not-in-line", "rc", "rx@1,0 rd@0,1", None, "not-in-line"),
    case("not-in-line-first-move", "", "rc@0,0 rx@1,1", None, "not-in-line"),
    # rx@1,0 and rs@3,0 leave (2,0) empty
    case("gap", "rc", "rx@1,0 rs@3,0", None, "gap"),
    case("gap-first-move", "", "rc@0,0 rx@2,0", None, "gap"),
    case("gap-column", "rc", "bc@0,1 gc@0,3", None, "gap"),
    # a line of its own two cells away from the board
    case("not-connected", "rc", "rx@3,0 rd@4,0", None, "not-connected"),
    # diagonal contact is no contact
    case("not-connected-diagonal", "rc", "rx@1,1", None, "not-connected"),
    case("cell-occupied", "rc rx", "rd@1,0", None, "cell-occupied"),
    # rs on the board's rx; rd alone would be fine
    case("cell-occupied-second-tile", "rc rx", "rd@2,0 rs@1,0", None, "cell-occupied"),
    case("cell-repeated", "rc", "rx@1,0 rd@1,0", None, "cell-repeated"),
    case("cell-repeated-first-move", "", "rc@0,0 rc@0,0", None, "cell-repeated"),
    # bd joins a red line
    case("line-mixed", "rc rx", "bd@2,0", None, "line-mixed"),
    # bc bd is a fine blue row and rc bc a fine circle column,
    # but the column rx bd shares neither colour nor shape
    case("line-mixed-cross", "rc rx rd", "bc@0,1 bd@1,1", None, "line-mixed"),
    case("line-mixed-first-move", "", "rc@0,0 bx@1,0", None, "line-mixed"),
    # rc twice in a red line, in a circle line, and within one move
    case("duplicate-in-line", "rc rx", "rc@2,0", None, "duplicate-in-line"),
    case("duplicate-in-shape-line", "rc bc", "rc@2,0", None, "duplicate-in-line"),
    case("duplicate-in-move", "", "rc@0,0 rc@1,0", None, "duplicate-in-line"),
    case("duplicate-across", "rc\n..\nrx", "rc@0,1", None, "duplicate-in-line"),
    # a seventh red after a Qwirkle
    case("line-too-long", "rc rx rd rs rt rl", "rc@6,0", None, "line-too-long"),
    # 3 + 1 + 3 = 7: a tile can never join these two runs
    case("line-too-long-joining", "rc rx rd .. bc gc yc", "oc@3,0", None, "line-too-long"),
    case("empty-move", "rc", "", None, "empty-move"),
    case("empty-move-first", "", "", None, "empty-move"),
    # several faults at once: rx on an occupied cell, rd far away and off the line
    case("several", "rc", "rx@0,0 rd@5,5", None, "cell-occupied", "not-in-line", "not-connected"),
    # rd's row is fine (red), its column joins bd bs (blue): the two demands clash
    case("row-and-column-clash", ".. .. bd\n.. .. bs\nrc rx ..", "rd@2,2", None, "line-mixed"),
]


@pytest.mark.parametrize("c", LEGAL + ILLEGAL)
def test_judge_table(c: Case) -> None:
    board = Board.parse(c.board)
    move = mv(c.move)
    judgement = judge(board, move, c.rules)
    assert {v.code for v in judgement.violations} == c.codes
    assert judgement.legal == (not c.codes)
    if c.total is not None:
        assert judgement.score.total == c.total
    # the points, there at once, are the breakdown's total; and an independent scorer agrees
    assert judgement.points == judgement.score.total
    assert reference_score(board.cells, move, c.rules) == (c.total if not c.codes else None)


@pytest.mark.parametrize(("board", "move", "rules"), [
    (DOUBLE, "os@5,0", Rules(qwirkle_bonus=0)),
    ("rc", "rx@0,0 rd@5,5", DEFAULT_RULES),
    ("", "rc@0,0", Rules(lone_tile_score=0)),
])
def test_check_and_score_are_judge_in_parts(board: str, move: str, rules: Rules) -> None:
    b, m = Board.parse(board), mv(move)
    assert check(b, m, rules) == list(judge(b, m, rules).violations)
    assert score(b, m, rules) == judge(b, m, rules).score


def test_judge_accepts_a_board_or_its_cells() -> None:
    board = Board.parse("rc rx\n.. bx")
    for move in (mv("rd@2,0"), mv("gx@1,2"), mv("rd@1,0"), mv("yx@1,2 ox@1,3")):
        assert judge(board, move) == judge(board.cells, move)
        assert judge(board, move) == judge(dict(board.cells), move)


def test_judge_does_not_change_the_board() -> None:
    board = Board.parse("rc rx")
    before = dict(board.cells)
    judge(board, mv("rd@2,0 rs@3,0"))
    judge(board, mv("rd@1,0"))
    assert dict(board.cells) == before


def test_illegal_moves_are_scored_without_occupied_cells() -> None:
    # rs on rx's cell is left out; rd still makes rc rx rd
    judgement = judge(Board.parse("rc rx"), mv("rd@2,0 rs@1,0"))
    assert not judgement.legal
    assert judgement.score.total == 3
    # bd beside rc rx is scored as the line it makes, though that line is mixed
    assert judge(Board.parse("rc rx"), mv("bd@2,0")).score.total == 3
    assert judge(Board.parse("rc"), mv("")).score == ScoreBreakdown()


def test_a_cell_no_tile_can_fill() -> None:
    # (2,2): its row rc rx wants a red (not circle, not cross), its column bd bs a blue
    board = Board.parse("""
        .. .. bd
        .. .. bs
        rc rx ..
    """)
    for t in TILES:
        found = codes(board, [Placement(t, 2, 2)])
        assert found and found <= {"line-mixed", "duplicate-in-line"}, t
        assert reference_score(board.cells, [Placement(t, 2, 2)]) is None
    # each demand alone can be met elsewhere: a blue above bd, a red left of rc
    assert judge(board, mv("bc@2,-1")).legal
    assert judge(board, mv("rd@-1,2")).legal
    # generate never offers (2,2), whatever the rack
    for rack in (parse_tiles("rd rs rt rl"), parse_tiles("bc bx bt bl"), parse_tiles("rd bd rs bs")):
        assert all((p.x, p.y) != (2, 2) for m in generate(board, rack) for p in m.tiles)


# -- where the violation points -----------------------------------------------------------

@pytest.mark.parametrize(("board", "move", "code", "index"), [
    ("rc rx", "rd@1,0", "cell-occupied", 0),
    ("rc rx", "rd@2,0 rs@1,0", "cell-occupied", 1),
    ("rc rx", "rs@3,0 rd@2,0 rt@2,0", "cell-repeated", 2),
    ("", "rc@0,0 rx@0,0", "cell-repeated", 1),
    # bd's column under rx is the bad line; bc's column under rc is fine
    ("rc rx rd", "bc@0,1 bd@1,1", "line-mixed", 1),
    # the same, with the faulty tile given first
    ("rc rx rd", "bd@1,1 bc@0,1", "line-mixed", 0),
    # the green row and the first two columns are fine; the column rd gs is not
    ("rc rx rd", "gc@0,1 gx@1,1 gs@2,1", "line-mixed", 2),
    # a single tile is the only candidate
    ("rc rx", "bd@2,0", "line-mixed", 0),
    ("rc rx", "rc@2,0", "duplicate-in-line", 0),
    ("rc rx rd rs rt rl", "rc@6,0", "line-too-long", 0),
    # the main line's duplicate is the placed rx (index 1); rs fits the red line
    ("rc rx rd", "rs@3,0 rx@4,0", "duplicate-in-line", 1),
    # rs extends the red line; bt is what makes it mixed (index 1)
    ("rc rx rd", "rs@3,0 bt@4,0", "line-mixed", 1),
])
def test_violation_index_points_at_the_offending_tile(board: str, move: str, code: str, index: int) -> None:
    violations = judge(Board.parse(board), mv(move)).violations
    assert [(v.code, v.index) for v in violations if v.code == code] == [(code, index)]


@pytest.mark.parametrize(("board", "move", "code"), [
    ("rc", "rx@1,0 rd@0,1", "not-in-line"),
    ("rc", "rx@1,0 rs@3,0", "gap"),
    ("rc", "rx@3,0 rd@4,0", "not-connected"),
    ("rc", "", "empty-move"),
])
def test_whole_move_faults_point_at_no_tile(board: str, move: str, code: str) -> None:
    violations = judge(Board.parse(board), mv(move)).violations
    assert [(v.code, v.index) for v in violations] == [(code, None)]


@pytest.mark.parametrize(("board", "move", "words"), [
    ("rc rx", "rd@1,0", ["red-diamond", "(1,0)", "red-cross"]),
    ("rc", "rx@1,0 rs@3,0", ["(2,0)"]),
    ("rc", "rx@3,0 rd@4,0", ["red-cross", "(3,0)"]),
    ("rc rx", "bd@2,0", ["blue-diamond", "(2,0)", "red-circle, red-cross, blue-diamond"]),
])
def test_messages_name_tiles_and_cells(board: str, move: str, words: list[str]) -> None:
    (violation,) = judge(Board.parse(board), mv(move)).violations
    for word in words:
        assert word in violation.message


# -- score breakdowns -----------------------------------------------------------------

def test_breakdown_lists_each_line() -> None:
    s = judge(Board.parse(".. .. bd\nrc rx .."), mv("rd@2,1")).score
    assert s.lines == (
        LineScore(tuple(parse_tiles("rc rx rd")), (0, 1), True, 3, False),
        LineScore(tuple(parse_tiles("bd rd")), (2, 0), False, 2, False),
    )
    assert (s.qwirkles, s.lone, s.end_bonus, s.total) == (0, 0, 0, 5)
    assert [str(line) for line in s.lines] == ["3", "2"]


@pytest.mark.parametrize(("board", "move", "rules", "text", "qwirkles"), [
    (QWIRKLE_AND_THREE, "rt@2,5", DEFAULT_RULES, "3+12(Qwirkle) = 15", 1),
    (DOUBLE, "os@5,0", DEFAULT_RULES, "12(Qwirkle)+12(Qwirkle) = 24", 2),
    (DOUBLE, "os@5,0", Rules(qwirkle_bonus=0), "6(Qwirkle)+6(Qwirkle) = 12", 2),
    ("", "rc@0,0", DEFAULT_RULES, "1(lone tile) = 1", 0),
    ("", "rc@0,0", Rules(lone_tile_score=0), "0 = 0", 0),
    ("rc rx", "rd@2,0", DEFAULT_RULES, "3 = 3", 0),
    ("rc", "", DEFAULT_RULES, "0 = 0", 0),
])
def test_breakdown_text(board: str, move: str, rules: Rules, text: str, qwirkles: int) -> None:
    s = judge(Board.parse(board), mv(move), rules).score
    assert str(s) == text
    assert s.qwirkles == qwirkles


def test_end_bonus_is_added_to_the_breakdown() -> None:
    s = judge(Board.parse(QWIRKLE_AND_THREE), mv("rt@2,5")).score.with_end_bonus(6)
    assert str(s) == "3+12(Qwirkle)+6(end) = 21"
    assert s.total == 21 and s.end_bonus == 6
    assert str(ScoreBreakdown().with_end_bonus(6)) == "6(end) = 6"


def test_rules_defaults() -> None:
    assert Rules() == DEFAULT_RULES == Rules(lone_tile_score=1, qwirkle_bonus=6, end_bonus=6)


# -- playable_tile ------------------------------------------------------------------

def test_playable_tile_on_an_empty_board_is_the_first_rack_tile_at_the_origin() -> None:
    assert playable_tile({}, parse_tiles("bx rc")) == Placement(Tile.parse("bx"), 0, 0)


@pytest.mark.parametrize(("board", "rack"), [
    ("rc", ""),
    ("", ""),
    ("rc", "bx gd ys"),          # nothing shares red or circle
    ("rc", "rc rc"),             # a copy of the only board tile may not touch it
    ("rc rx rd", "bs gt pl"),     # nothing shares red, circle, cross or diamond
    # clovers share nothing with blue or red diamonds, squares, circles, crosses
    (".. .. bd\n.. .. bs\nrc rx ..", "gl yl ol"),
])
def test_playable_tile_is_none_when_nothing_fits(board: str, rack: str) -> None:
    cells = Board.parse(board).cells
    assert playable_tile(cells, parse_tiles(rack)) is None
    if cells:  # the same with the move generator's masks of the frontier
        assert playable_tile(cells, parse_tiles(rack), BoardData(dict(cells), 6).joinable) is None


@pytest.mark.parametrize(("board", "rack", "tile"), [
    ("rc rx", "bd gs rd", "rd"),          # only rd shares anything
    ("rc", "bx bc", "bc"),                # bc, as a circle line
    ("rc rx rd rs rt rl", "bx", "bx"),     # above or below rx
    (".. .. bd\n.. .. bs\nrc rx ..", "gd", "gd"),   # beside bd
])
def test_playable_tile_finds_a_legal_placement(board: str, rack: str, tile: str) -> None:
    b = Board.parse(board)
    for frontier in (None, BoardData(dict(b.cells), 6).joinable):
        found = playable_tile(b.cells, parse_tiles(rack), frontier)
        assert found is not None and found.tile == Tile.parse(tile)
        assert judge(b, [found]).legal



# -- property tests: random positions -------------------------------------------------------

positions = st.builds(play, st.integers(0, 2**32), st.integers(0, 14))
rules_variants = st.sampled_from([
    DEFAULT_RULES, Rules(lone_tile_score=0, qwirkle_bonus=0), Rules(lone_tile_score=3, qwirkle_bonus=9),
])


def window(cells: Mapping[int, int], margin: int) -> tuple[range, range]:
    if not cells:
        return range(-margin, margin + 1), range(-margin, margin + 1)
    xs, ys = zip(*(key_cell(k) for k in cells))
    return range(min(xs) - margin, max(xs) + margin + 1), range(min(ys) - margin, max(ys) + margin + 1)


@st.composite
def line_moves(draw: st.DrawFn, cells: Mapping[int, int]) -> list[Placement]:
    """1-3 random tiles in one row or column near the board, sometimes with a hole."""
    xs, ys = window(cells, 2)
    x0, y0 = draw(st.sampled_from(xs)), draw(st.sampled_from(ys))
    n = draw(st.integers(1, 3))
    offsets = sorted(draw(st.sets(st.integers(0, n), min_size=n, max_size=n)))
    horizontal = draw(st.booleans())
    tiles = draw(st.lists(st.sampled_from(TILES), min_size=n, max_size=n))
    move = [Placement(t, x0 + o, y0) if horizontal else Placement(t, x0, y0 + o) for t, o in zip(tiles, offsets)]
    return draw(st.permutations(move))


@st.composite
def garbage_moves(draw: st.DrawFn, cells: Mapping[int, int]) -> list[Placement]:
    """1-4 random tiles on random cells around the board, in any shape."""
    xs, ys = window(cells, 3)
    cell = st.tuples(st.sampled_from(xs), st.sampled_from(ys))
    return [Placement(t, x, y) for t, (x, y) in draw(st.lists(st.tuples(st.sampled_from(TILES), cell), min_size=1, max_size=4))]


@st.composite
def bent_moves(draw: st.DrawFn, cells: Mapping[int, int], bag: list[int]) -> list[Placement]:
    """A generated (legal) move for a rack from the bag, then 0-2 small changes."""
    rack = [bag[i] for i in draw(st.sets(st.integers(0, len(bag) - 1), min_size=6, max_size=6))]
    moves = generate(cells, rack)
    if not moves:
        return draw(line_moves(cells))
    longer = [m for m in moves if len(m.tiles) > 1]
    prefer_longer = draw(st.booleans())
    move = list(draw(st.sampled_from(longer if longer and prefer_longer else moves)).tiles)
    for _ in range(draw(st.integers(0, 2))):
        i = draw(st.integers(0, len(move) - 1))
        p = move[i]
        change = draw(st.sampled_from(["tile", "shift", "drop", "add", "swap"]))
        if change == "tile":
            move[i] = p._replace(tile=draw(st.sampled_from(TILES)))
        elif change == "shift":
            dx, dy = draw(st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1)]))
            move[i] = p._replace(x=p.x + dx, y=p.y + dy)
        elif change == "drop" and len(move) > 1:
            del move[i]
        elif change == "add":
            dx, dy = draw(st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1), (2, 0), (0, 2)]))
            move.append(Placement(draw(st.sampled_from(TILES)), p.x + dx, p.y + dy))
        else:
            move.reverse()
    return move


def reference_score(cells: Mapping[int, int], move: list[Placement], rules: Rules = DEFAULT_RULES) -> int | None:
    """The score of a legal move, else ``None``: docs/rules.md read literally, with
    coordinates and sets, independently of qwirkle_tools.core.lines and rules."""
    board = {key_cell(k): TILES[t] for k, t in cells.items()}
    spots = [(p.x, p.y) for p in move]
    if not move or len(set(spots)) != len(spots) or any(c in board for c in spots):
        return None
    if len({x for x, _ in spots}) > 1 and len({y for _, y in spots}) > 1:
        return None
    after = dict(board)
    after.update({(p.x, p.y): p.tile for p in move})
    (x0, y0), (x1, y1) = min(spots), max(spots)
    if any((x, y) not in after for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)):
        return None  # a gap
    if board and not any((x + dx, y + dy) in board for x, y in spots for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
        return None
    lines = set()
    for x, y in spots:
        for dx, dy in ((1, 0), (0, 1)):
            a = (x, y)
            while (a[0] - dx, a[1] - dy) in after:
                a = (a[0] - dx, a[1] - dy)
            line = []
            while a in after:
                line.append(a)
                a = (a[0] + dx, a[1] + dy)
            if len(line) > 1:
                lines.add(tuple(line))
    total = 0
    for line in lines:
        tiles = [after[c] for c in line]
        colours, shapes = {t.colour for t in tiles}, {t.shape for t in tiles}
        if not (len(tiles) <= 6 and (len(colours) == 1 and len(shapes) == len(tiles)
                                     or len(shapes) == 1 and len(colours) == len(tiles))):
            return None
        total += len(tiles) + (rules.qwirkle_bonus if len(tiles) == 6 else 0)
    return total if lines else rules.lone_tile_score


def assert_agrees_with_reference(cells: Mapping[int, int], move: list[Placement], rules: Rules) -> None:
    judgement = judge(cells, move, rules)
    expected = judgement.score.total if judgement.legal else None
    board = Board(Placement(TILES[t], *key_cell(k)) for k, t in cells.items())
    assert reference_score(cells, move, rules) == expected, (board.diagram(), judgement)
    assert judgement.points == judgement.score.total


@settings(max_examples=150, deadline=None)
@given(positions, rules_variants, st.data())
def test_judge_agrees_with_a_literal_reading_of_the_rules(position: tuple[dict[int, int], list[int]], rules: Rules,
                                                          data: st.DataObject) -> None:
    cells, bag = position
    for strategy in (line_moves(cells), garbage_moves(cells), bent_moves(cells, bag)):
        assert_agrees_with_reference(cells, data.draw(strategy), rules)


def judgement_facts(j: Judgement) -> tuple[object, ...]:
    return (j.violations, j.points, j.qwirkles, j.score, j.legal)


@settings(max_examples=150, deadline=None)
@given(positions, rules_variants, st.data())
def test_the_fast_and_the_explaining_judge_agree(position: tuple[dict[int, int], list[int]], rules: Rules,
                                                 data: st.DataObject) -> None:
    # twins kept for speed: judge settles a legal move over the board with the tiles on it (and
    # judge_placed, over the engine's board), explain walks the board and the new tiles apart
    # and writes every message; both must reach the same judgement on every move
    cells, bag = position
    for strategy in (line_moves(cells), garbage_moves(cells), bent_moves(cells, bag)):
        move = data.draw(strategy)
        fast = judge(cells, move, rules)
        assert judgement_facts(explain(cells, move, rules)) == judgement_facts(fast), move
        keys = [p.key for p in move]
        if len(set(keys)) == len(keys) and cells.keys().isdisjoint(keys):
            after = {**cells, **{p.key: p.tile for p in move}}
            placed = judge_placed(after, move, keys, rules)
            assert (placed is None) == (not fast.legal), move
            if placed is not None:
                assert judgement_facts(placed) == judgement_facts(fast)


@settings(max_examples=100, deadline=None)
@given(positions, st.data())
def test_judge_does_not_depend_on_the_order_of_the_tiles(position: tuple[dict[int, int], list[int]], data: st.DataObject) -> None:
    cells, bag = position
    move = data.draw(st.one_of(line_moves(cells), bent_moves(cells, bag)))
    shuffled = data.draw(st.permutations(move))
    a, b = judge(cells, move), judge(cells, shuffled)
    assert a.legal == b.legal
    if len({(p.x, p.y) for p in move}) == len(move):  # with a repeated cell, which tile stays depends on order
        assert a.score.total == b.score.total
        assert {v.code for v in a.violations} == {v.code for v in b.violations}


@settings(max_examples=100, deadline=None)
@given(positions, st.lists(st.sampled_from(TILES), max_size=6))
def test_playable_tile_exists_exactly_when_some_move_does(position: tuple[dict[int, int], list[int]], rack: list[Tile]) -> None:
    cells, _ = position
    found = playable_tile(cells, rack)
    assert (found is None) == (not generate(cells, rack))
    if found is not None:
        assert found.tile in rack
        assert judge(cells, [found]).legal


@settings(max_examples=100, deadline=None)
@given(positions, st.data())
def test_every_legal_move_has_a_tile_that_is_legal_alone(position: tuple[dict[int, int], list[int]],
                                                         data: st.DataObject) -> None:
    # playable_tile relies on this to answer "can this player place anything?"
    cells, _ = position
    rack = data.draw(st.lists(st.sampled_from(TILES), min_size=1, max_size=6))
    for move in generate(cells, rack)[:20]:
        assert any(judge(cells, [p]).legal for p in move.tiles), str(move)
        # and with default rules a move scores at least one point per tile placed
        assert move.score >= len(move.tiles)


# -- whole simulated games ----------------------------------------------------------------

@cache
def simulated(seed: int, policy: str) -> dict[str, Any]:
    return simulate(players=2, seed=seed, policy=policy)  # type: ignore[arg-type]


@pytest.mark.parametrize(("seed", "policy"), [(1, "greedy"), (2, "random")])
def test_simulated_games_are_legal_turn_by_turn(seed: int, policy: str) -> None:
    data = simulated(seed, policy)
    cells: dict[int, int] = {}
    places = [t for t in data["turns"] if t["action"] == "place"]
    assert places
    for n, turn in enumerate(data["turns"]):
        if turn["action"] != "place":
            continue
        move = [Placement(Tile.parse(p["tile"]), p["x"], p["y"]) for p in turn["tiles"]]
        judgement = judge(cells, move)
        assert judgement.legal, (n, judgement.violations)
        ends = n == len(data["turns"]) - 1 and data["result"]["end"] == "out"
        assert judgement.score.total + (DEFAULT_RULES.end_bonus if ends else 0) == turn["score"], n
        assert reference_score(cells, move) == judgement.score.total
        for p in move:
            cells[cell_key(p.x, p.y)] = p.tile


def test_a_moves_score_with_the_end_bonus_is_composed_once() -> None:
    from qwirkle_tools.core.rules import Rules

    rules = Rules(end_bonus=6)
    assert rules.scored(7, 3, 3, 0) == 13  # empties the rack with the bag empty
    assert rules.scored(7, 2, 3, 0) == 7  # a tile left
    assert rules.scored(7, 3, 3, 4) == 7  # the bag refills the rack
    assert rules.scored(7, 3, 3, None) == 7  # the bag not known: nothing assumed
    assert Rules(end_bonus=0).scored(7, 3, 3, 0) == 7


@given(positions, st.lists(st.sampled_from(range(36)), min_size=1, max_size=3))
@settings(max_examples=150, deadline=None)
def test_the_frontiers_masks_find_a_playable_tile_where_there_is_one(position: Any, rack: list[int]) -> None:
    cells = position[0]
    if cells:
        assert (playable_tile(cells, rack) is None) == (playable_tile(cells, rack, BoardData(cells, 6).joinable) is None)
