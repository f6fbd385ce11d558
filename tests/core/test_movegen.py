"""Move generation: every generated move is legal, none is missing, none is listed twice.

The reference is a brute-force enumerator written here: every ordering of every
sub-rack on every set of cells in one row or column near the board, kept when
``judge`` finds it legal. Positions are boards drawn as text (``Board.parse``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations, permutations
from typing import Literal

import pytest
from conftest import play
from hypothesis import given, settings
from hypothesis import strategies as st

from qwirkle_tools.core.board import Board, Placement, cell_key, key_cell
from qwirkle_tools.core.move import Move
from qwirkle_tools.core.movegen import Cutoff, RawMove, best_move, generate, generate_found, generate_raw
from qwirkle_tools.core.rules import DEFAULT_RULES, Rules, judge
from qwirkle_tools.core.tiles import TILES, Tile, parse_tiles
from qwirkle_tools.engines.selfplay import simulate

MoveSet = dict[frozenset[Placement], tuple[int, int]]
"""A set of moves, each as its placements (order ignored), with (score, Qwirkles)."""

# faults that depend on the cells alone, whatever tiles lie on them
GEOMETRY = {"cell-occupied", "cell-repeated", "not-in-line", "gap", "not-connected"}


def placed(move: Move) -> str:
    """A move's placements in the order it lists them, in long form."""
    return " ".join(str(p) for p in move.tiles)


def brute_force(board: Board, rack: Sequence[int], rules: Rules = DEFAULT_RULES) -> MoveSet:
    """Every legal move on a non-empty board, by trying (nearly) everything.

    A move of n tiles lies within n cells of the board's bounds along its line,
    and its row (column) is at most one away from the bounds, since it must touch.
    Each cell set is first tried with one ordering of tiles; if ``judge`` finds a
    fault of the cells alone, no other ordering can mend it.
    """
    assert board, "on an empty board generate lays moves out in row 0; see test_opening_*"
    min_x, min_y, max_x, max_y = board.bounds()
    found: MoveSet = {}
    for n in range(1, len(rack) + 1):
        orderings = sorted(set(permutations(rack, n)))
        for horizontal in (True, False):
            across = range(min_y - 1, max_y + 2) if horizontal else range(min_x - 1, max_x + 2)
            along = range(min_x - n, max_x + n + 1) if horizontal else range(min_y - n, max_y + n + 1)
            for a in across:
                for cells in combinations(along, n):
                    xy = [(c, a) if horizontal else (a, c) for c in cells]
                    for i, order in enumerate(orderings):
                        move = [Placement(TILES[t], x, y) for t, (x, y) in zip(order, xy)]
                        judgement = judge(board, move, rules)
                        if i == 0 and GEOMETRY & {v.code for v in judgement.violations}:
                            break
                        if judgement.legal:
                            found[frozenset(move)] = (judgement.score.total, judgement.score.qwirkles)
    return found


def generated(board: Board | Mapping[int, int], rack: Sequence[int], rules: Rules = DEFAULT_RULES) -> MoveSet:
    """``generate`` as a MoveSet, failing if a move is listed twice."""
    out: MoveSet = {}
    for m in generate(board, rack, rules):
        key = frozenset(m.tiles)
        assert len(key) == len(m.tiles), f"a placement repeated within {m}"
        assert key not in out, f"listed twice: {m}"
        out[key] = (m.score, m.qwirkles)
    return out


def assert_same_moves(expected: MoveSet, actual: MoveSet) -> None:
    missing = [sorted(map(str, k)) for k in expected.keys() - actual.keys()]
    extra = [sorted(map(str, k)) for k in actual.keys() - expected.keys()]
    assert not missing and not extra, f"generate misses {missing[:5]} and adds {extra[:5]}"
    wrong = {tuple(sorted(map(str, k))): (expected[k], actual[k]) for k in expected if expected[k] != actual[k]}
    assert not wrong, f"(score, qwirkles) differ, brute force vs generate: {wrong}"


# An orange row missing its square at (5,0), a square column missing its orange.
DOUBLE = """
    oc ox od ot ol ..
    .. .. .. .. .. rs
    .. .. .. .. .. ys
    .. .. .. .. .. gs
    .. .. .. .. .. bs
    .. .. .. .. .. ps
"""

POSITIONS = [
    pytest.param("rc", "bc gc", id="one-tile"),
    pytest.param("rc", "rx rd bc bc", id="one-tile-duplicate-rack"),
    pytest.param("rc rx rd", "rs rt bd bd", id="row-of-three"),
    # (2,0) takes only rd: red for the row, diamond (or blue) for the column
    pytest.param("rc rx .. rs\n.. bx bd bs", "rd rt yd rd", id="hole-in-a-row"),
    pytest.param("rc rx rd rs rt", "rl bl gl rl", id="one-from-qwirkle"),
    pytest.param(".. bc ..\nrx rc rd\n.. gc ..", "yc oc rs rs", id="plus-sign"),
    pytest.param("@-3,2\nyt\nyl\n..\nbd", "yd yc gd yx", id="column-with-gap"),
    # greens in a line beside rc, gc touching it: up to three tiles on cells with no neighbour
    pytest.param("rc", "gx gd gs gc", id="line-beside-one-tile"),
    # rs rt rl after rd, or rl before rc and rs rt after rd: grown forward to a Qwirkle
    pytest.param("rc rx rd", "rs rt rl gd", id="row-to-qwirkle"),
]


@pytest.mark.parametrize(("diagram", "rack"), POSITIONS)
def test_generate_finds_exactly_the_brute_force_moves(diagram: str, rack: str) -> None:
    board = Board.parse(diagram)
    assert_same_moves(brute_force(board, parse_tiles(rack)), generated(board, parse_tiles(rack)))


@pytest.mark.parametrize("rules", [Rules(qwirkle_bonus=0), Rules(qwirkle_bonus=10, lone_tile_score=0)])
def test_generate_scores_with_the_house_rules(rules: Rules) -> None:
    board = Board.parse("rc rx rd rs rt")
    rack = parse_tiles("rl bl gl rl")
    assert_same_moves(brute_force(board, rack, rules), generated(board, rack, rules))


# (board, rack, number of moves, best score, moves with a Qwirkle), counted by the
# brute force above and checked against generate when these tests were written.
GOLDEN = [
    # by hand: bc or gc alone on one of rc's 4 sides (8 moves); both in rc's row or
    # column, both on one side (2 sides x 2 orders) or one each side (2), in 2
    # directions (12); both in a line beside rc, one of them touching it:
    # 4 neighbours of rc x 2 tiles there x 2 sides for the other (16). 8 + 12 + 16 = 36.
    pytest.param("rc", "bc gc", 36, 4, 0, id="one-tile"),
    pytest.param("rc", "bc bc", 4, 2, 0, id="one-tile-twin-rack"),
    pytest.param("rc", "rx rd bc bc", 40, 4, 0, id="one-tile-duplicate-rack"),
    pytest.param("rc", "gx gd gs gc", 196, 6, 0, id="line-beside-one-tile"),
    # the brute force takes seconds on this one, so it is pinned by count only
    pytest.param("rc", "gx gd gs gt gl gc", 6524, 14, 2880, id="six-greens-beside-one-tile"),
    pytest.param("rc rx rd", "rs rt rl gd", 362, 12, 24, id="row-to-qwirkle"),
    pytest.param("rc rx .. rs\n.. bx bd bs", "rd rt yd rd", 33, 7, 0, id="hole-in-a-row"),
    pytest.param("rc rx rd rs rt", "rl bl gl rl", 48, 15, 22, id="one-from-qwirkle"),
    # os at (5,0) scores 24; os at (-1,0) or (5,6) completes one line: 12
    pytest.param(DOUBLE, "os os yl rc", 28, 24, 3, id="double-qwirkle"),
]


@pytest.mark.parametrize(("diagram", "rack", "count", "best", "qwirkle_moves"), GOLDEN)
def test_golden_move_counts(diagram: str, rack: str, count: int, best: int, qwirkle_moves: int) -> None:
    moves = generate(Board.parse(diagram), parse_tiles(rack))
    assert len(moves) == count
    assert moves[0].score == best
    assert sum(1 for m in moves if m.qwirkles) == qwirkle_moves


def test_a_move_may_lie_mostly_on_cells_with_no_neighbour() -> None:
    # gc touches rc; the five greens above it touch nothing on the board.
    # Column of six greens 6 + 6, row rc gc 2: 14.
    board = Board.parse("rc")
    move = {placed(m): m for m in generate(board, parse_tiles("gx gd gs gt gl gc"))}
    text = "green-cross@1,-5 green-diamond@1,-4 green-square@1,-3 green-star@1,-2 green-clover@1,-1 green-circle@1,0"
    assert text in move
    assert (move[text].score, move[text].qwirkles) == (14, 1)
    assert judge(board, move[text].tiles).score.total == 14


def test_the_double_qwirkle_is_best_and_counts_two() -> None:
    best = generate(Board.parse(DOUBLE), parse_tiles("os os yl rc"))[0]
    assert [str(p) for p in best.tiles] == ["orange-square@5,0"]
    assert (best.score, best.qwirkles) == (24, 2)
    assert placed(best) == "orange-square@5,0" and str(best) == "os@5,0"


def test_a_rack_that_fits_nowhere_has_no_moves() -> None:
    assert generate(Board.parse("rc rx rd"), parse_tiles("bs gt pl")) == []
    assert generate(Board.parse("rc"), parse_tiles("rc rc")) == []
    assert generate(Board.parse("rc"), []) == []


def test_a_board_or_its_cells_give_the_same_moves() -> None:
    board = Board.parse("rc rx .. rs\n.. bx bd bs")
    rack = parse_tiles("rd rt yd rd")
    assert generate(board, rack) == generate(board.cells, rack) == generate(dict(board.cells), rack)


def test_move_text_lists_placements_in_line_order() -> None:
    moves = generate(Board.parse("rc rx"), parse_tiles("rd rs"))
    texts = {placed(m) for m in moves}
    assert "red-diamond@2,0 red-square@3,0" in texts
    assert "red-square@-2,0 red-diamond@-1,0" in texts
    assert "red-diamond@-1,0 red-square@2,0" in texts


# -- the opening: an empty board ---------------------------------------------------------------

def opening_brute_force(rack: Sequence[int], rules: Rules = DEFAULT_RULES) -> MoveSet:
    """Every ordering of every sub-rack laid out from (0,0) along row 0 that judge accepts."""
    found: MoveSet = {}
    for n in range(1, len(rack) + 1):
        for order in set(permutations(rack, n)):
            move = [Placement(TILES[t], x, 0) for x, t in enumerate(order)]
            judgement = judge({}, move, rules)
            if judgement.legal:
                found[frozenset(move)] = (judgement.score.total, judgement.score.qwirkles)
    return found


@pytest.mark.parametrize("rack", ["rc", "rc rx rd bc gs gs", "rc rc rc", "rc ox yd gs bt pl", "rc rx rd rs rt rl"])
@pytest.mark.parametrize("rules", [DEFAULT_RULES, Rules(lone_tile_score=0, qwirkle_bonus=0)])
def test_opening_moves_are_every_valid_ordering_in_row_0(rack: str, rules: Rules) -> None:
    tiles = parse_tiles(rack)
    assert_same_moves(opening_brute_force(tiles, rules), generated({}, tiles, rules))
    for m in generate(Board(), tiles, rules):
        assert [(p.x, p.y) for p in m.tiles] == [(x, 0) for x in range(len(m.tiles))]


@pytest.mark.parametrize(("rack", "count", "largest_first_count", "best"), [
    # distinct rc rx rd bc gs: singles 5; pairs rc-rx rc-rd rx-rd rc-bc (x2 orders) 8;
    # the triple rc rx rd (x6 orders) 6: 19 in all, 6 of them of the largest size, 3
    ("rc rx rd bc gs gs", 19, 6, 3),
    # one distinct tile: one move, of one tile, scoring the lone-tile 1
    ("rc rc rc", 1, 1, 1),
    # nothing shared: 6 single-tile moves, all of the largest size 1
    ("rc ox yd gs bt pl", 6, 6, 1),
    # a whole colour: sum over k of C(6,k) k! = 6+30+120+360+720+720 = 1956, 720 of size 6
    ("rc rx rd rs rt rl", 1956, 720, 12),
])
def test_opening_counts(rack: str, count: int, largest_first_count: int, best: int) -> None:
    tiles = parse_tiles(rack)
    moves = generate(Board(), tiles)
    assert len(moves) == count
    assert moves[0].score == best
    first = generate(Board(), tiles, largest_first=True)
    assert len(first) == largest_first_count
    assert {len(m.tiles) for m in first} == {max(len(m.tiles) for m in moves)}


def test_opening_qwirkle_counts_one() -> None:
    best = generate({}, parse_tiles("rc rx rd rs rt rl"))[0]
    assert (best.score, best.qwirkles, len(best.tiles)) == (12, 1, 6)


# -- property tests on random positions ---------------------------------------------------------

@st.composite
def position_and_rack(draw: st.DrawFn, max_turns: int, max_rack: int) -> tuple[dict[int, int], list[int]]:
    """A random position and a rack drawn from its bag, sometimes with a tile twice."""
    cells, bag = play(draw(st.integers(0, 2**32)), draw(st.integers(0, max_turns)))
    size = draw(st.integers(1, max_rack))
    rack = [bag[i] for i in draw(st.sets(st.integers(0, len(bag) - 1), min_size=size, max_size=size))]
    if size > 1 and draw(st.booleans()):
        rack[-1] = rack[0]
    return cells, rack


rules_variants = st.sampled_from([DEFAULT_RULES, Rules(qwirkle_bonus=0), Rules(qwirkle_bonus=3, lone_tile_score=0)])


def as_board(cells: Mapping[int, int]) -> Board:
    return Board(Placement(TILES[t], *key_cell(k)) for k, t in cells.items())


@settings(max_examples=150, deadline=None)
@given(position_and_rack(max_turns=14, max_rack=5), rules_variants)
def test_every_generated_move_is_legal_with_the_same_score(position: tuple[dict[int, int], list[int]], rules: Rules) -> None:
    # the generator's incremental scoring is a twin of judge's, kept for speed; play() reached the
    # position turn by turn, so the board data kept from call to call is checked too
    cells, rack = position
    moves = generate(cells, rack, rules)
    generated(cells, rack, rules)  # nothing listed twice
    scores = [m.score for m in moves]
    assert scores == sorted(scores, reverse=True), "best score first"
    for m in moves:
        judgement = judge(cells, m.tiles, rules)
        assert judgement.legal, (as_board(cells).diagram(), str(m), judgement.violations)
        assert (m.score, m.qwirkles) == (judgement.score.total, judgement.score.qwirkles), str(m)
        assert not Counter(int(p.tile) for p in m.tiles) - Counter(rack), f"{m} uses tiles not in the rack"


@settings(max_examples=100, deadline=None)
@given(position_and_rack(max_turns=14, max_rack=6))
def test_the_moves_come_in_the_documented_order(position: tuple[dict[int, int], list[int]]) -> None:
    # score, then Qwirkles, then the placements as (y, x, tile) in line order, a move before those it begins
    cells, rack = position
    moves = generate(cells, rack)
    order = [(-(m.score or 0), -(m.qwirkles or 0), [(p.y, p.x, int(p.tile)) for p in m.tiles]) for m in moves]
    assert order == sorted(order)
    assert [m.tiles for m in generate(cells, rack, cutoff=Cutoff(most=7))] == [m.tiles for m in moves[:7]]


@settings(max_examples=40, deadline=None)
@given(position_and_rack(max_turns=4, max_rack=3))
def test_generate_matches_brute_force_on_random_positions(position: tuple[dict[int, int], list[int]]) -> None:
    cells, rack = position
    if not cells:
        assert_same_moves(opening_brute_force(rack), generated(cells, rack))
    else:
        assert_same_moves(brute_force(as_board(cells), rack), generated(cells, rack))


@settings(max_examples=100, deadline=None)
@given(position_and_rack(max_turns=14, max_rack=6), st.booleans(), st.data())
def test_the_moves_kept_as_keys_read_as_the_moves_made(position: tuple[dict[int, int], list[int]], largest_first: bool,
                                                       data: st.DataObject) -> None:
    # what the analysis reads off the keys (points, Qwirkles, tiles placed) and the few moves it makes
    cells, rack = position
    made = generate_raw(cells, rack, largest_first=largest_first)
    found = generate_found(cells, rack, largest_first=largest_first)
    assert len(found) == len(made)
    assert found.points() == [m[0] for m in made]
    assert found.qwirkles() == [m[1] for m in made]
    assert list(found.counts()) == [len(m[3]) for m in made]
    at = data.draw(st.lists(st.integers(0, len(made) - 1), max_size=8)) if made else []
    assert found.picked(at) == [made[k] for k in at]
    assert found.raws() == made


def test_a_single_tile_move_is_listed_once() -> None:
    # each single is found along its row and along its column, but listed once.
    # rd: right or left of rc rx, or above rx (above rc: rd rc bc is mixed);
    # gc: above rc or below bc (circle columns), or left of bc (row gc bc).
    moves = generate(Board.parse("rc rx\nbc .."), parse_tiles("rd gc pl"))
    singles = [placed(m) for m in moves if len(m.tiles) == 1]
    assert sorted(singles) == sorted([
        "red-diamond@2,0", "red-diamond@-1,0", "red-diamond@1,-1",
        "green-circle@0,-1", "green-circle@0,2", "green-circle@-1,1",
    ])


# -- generate_raw and best_move: the same moves as generate, without building them ----------------

def game_positions(players: int, seed: int, policy: Literal["greedy", "random"]) -> list[tuple[dict[int, int], list[int]]]:
    """(cells, rack) before every turn of a self-play game."""
    record = simulate(players, seed, policy)
    cells: dict[int, int] = {}
    positions = []
    for turn in record["turns"]:
        positions.append((dict(cells), [int(Tile.parse(t)) for t in turn["rack"]]))
        if turn["action"] == "place":
            for p in turn["tiles"]:
                cells[cell_key(p["x"], p["y"])] = int(Tile.parse(p["tile"]))
    return positions


Game = tuple[int, int, Literal["greedy", "random"]]
GAMES: list[Game] = [(2, 1, "greedy"), (3, 2, "random"), (4, 3, "greedy"), (2, 4, "random")]


@pytest.mark.parametrize(("players", "seed", "policy"), GAMES)
def test_generate_raw_and_best_move_agree_with_generate(players: int, seed: int, policy: Literal["greedy", "random"]) -> None:
    for rules in (DEFAULT_RULES, Rules(qwirkle_bonus=0, lone_tile_score=3)):
        for cells, rack in game_positions(players, seed, policy):
            first = not cells
            moves = generate(cells, rack, rules, largest_first=first)
            raw = generate_raw(cells, rack, rules, largest_first=first)
            assert raw == [(m.score, m.qwirkles, tuple(p.key for p in m.tiles), tuple(int(p.tile) for p in m.tiles))
                           for m in moves], "same moves, same order"
            assert all(type(t) is int for _, _, _, tiles in raw for t in tiles)
            assert best_move(cells, rack, rules, largest_first=first) == (moves[0] if moves else None)


def test_moves_do_not_depend_on_the_boards_seen_before() -> None:
    # generate keeps what it worked out for the last board and updates it when the next
    # board adds tiles; in reverse order every board is worked out afresh
    positions = [p for game in GAMES for p in game_positions(*game)]
    grown: dict[int, int] = {}  # one dict, grown in place as a game goes on
    forward = []
    for cells, rack in positions:
        if not grown.items() <= cells.items():
            grown.clear()
        grown.update(cells)
        forward.append(generate_raw(grown, rack))
    backward = [generate_raw(as_board(cells), rack) for cells, rack in reversed(positions)]
    assert forward == backward[::-1]


def test_a_limit_bounds_the_work_on_a_crowded_board() -> None:
    from conftest import CIRCLES, crowded

    from qwirkle_tools.core.movegen import TooManyMoves, generate_raw
    from qwirkle_tools.formats.record import Setup, from_data

    setup = from_data({"format": "qwirkle-record", "version": 1, "players": [{"name": "A"}, {"name": "B"}],
                       "turns": [], "setup": crowded()}).setup
    assert isinstance(setup, Setup)
    cells = Board(setup.board).cells
    rack = [int(t) for t in parse_tiles(CIRCLES)]
    with pytest.raises(TooManyMoves) as caught:
        generate_raw(cells, rack, limit=20_000)
    assert 20_000 < caught.value.found < 30_000  # stopped soon after the limit
    assert len(generate_raw(cells, rack, limit=10**7)) > 100_000  # the position really is that rich


def test_no_move_extends_a_line_longer_than_the_rules_allow() -> None:
    # a row of 10 reds (left by illegal moves): no tile may join it at either end, however long it is
    from qwirkle_tools.core.board import Placement
    from qwirkle_tools.core.tiles import Tile

    row = {Placement(Tile.parse(t), x, 0).key: int(Tile.parse(t)) for x, t in enumerate("rc rx rd rs rt rl rc rx rd rs".split())}
    moves = generate(row, [int(Tile.parse(t)) for t in "rc rx rd bc gc yc".split()])
    assert all(p.y != 0 for m in moves for p in m.tiles), [str(m) for m in moves if any(p.y == 0 for p in m.tiles)]


def test_threads_generating_at_once_get_the_moves_of_one_thread() -> None:
    # each thread keeps its own board data and growers: moves made side by side must not mix
    from concurrent.futures import ThreadPoolExecutor

    games = [game_positions(*game) for game in GAMES]
    alone = [[generate_raw(cells, rack) for cells, rack in positions] for positions in games]

    def run(positions: list[tuple[dict[int, int], list[int]]]) -> list[list[RawMove]]:
        return [generate_raw(cells, rack) for cells, rack in positions]

    import sys

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # threads take turns inside each call
    try:
        with ThreadPoolExecutor(len(games)) as pool:
            assert list(pool.map(run, games)) == alone
    finally:
        sys.setswitchinterval(interval)


@pytest.mark.parametrize("edge", ["right", "left", "bottom", "top"])
def test_no_move_reaches_past_the_coordinate_limit(edge: str) -> None:
    # a board grown turn by turn against an edge of the coordinate range (so the kept board data
    # grows too): its moves are those of the same board far from the edge, less those past it
    from qwirkle_tools.core.board import COORD_LIMIT

    limit = COORD_LIMIT
    shift = {"right": (limit, 0), "left": (-limit, 0), "bottom": (0, limit), "top": (0, -limit)}[edge]

    def moved(cells: Mapping[int, int], dx: int, dy: int) -> dict[int, int]:
        return {cell_key(key_cell(k)[0] + dx, key_cell(k)[1] + dy): t for k, t in cells.items()}

    def move_set(moves: list[RawMove], dx: int = 0, dy: int = 0) -> set[tuple[int, frozenset[tuple[int, int, int]]]]:
        return {(m[0], frozenset((key_cell(k)[0] + dx, key_cell(k)[1] + dy, t) for k, t in zip(m[2], m[3])))
                for m in moves}

    rack = [int(t) for t in parse_tiles("rc rx rd rs rt rl")]
    cells = {cell_key(*shift): int(Tile.parse("bc"))}
    boards, found = [], []
    for _ in range(3):  # the first move each time: it runs along the edge or into it
        moves = generate_raw(cells, rack)
        boards.append(dict(cells))
        found.append(moves)
        best = next(m for m in moves if len(m[3]) >= 2)
        cells.update(zip(best[2], best[3]))
    for board, moves in zip(boards, found):
        assert all(abs(x) <= limit and abs(y) <= limit for _, placed in move_set(moves) for x, y, _ in placed)
        far = generate_raw(moved(board, -shift[0], -shift[1]), rack)
        inside = {m for m in move_set(far, *shift) if all(abs(x) <= limit and abs(y) <= limit for x, y, _ in m[1])}
        assert move_set(moves) == inside
        assert len(inside) < len(far)  # some moves of the board far away do cross the line


def test_the_games_first_move_at_the_coordinate_limit_is_one_it_accepts() -> None:
    from qwirkle_tools.core.board import COORD_LIMIT
    from qwirkle_tools.play.game import Game

    board = [Placement(Tile.parse("bc"), 0, COORD_LIMIT), Placement(Tile.parse("bx"), 1, COORD_LIMIT)]
    racks = [[int(t) for t in parse_tiles(r)] for r in ("rc rx gc gx yc yx", "oc ox pc px rd gd")]
    bag = [t for t in range(36) for _ in range(3)]
    for t in [int(p.tile) for p in board] + racks[0] + racks[1]:
        bag.remove(t)
    game = Game(("Ana", "Ben"), racks, bag, 0, board=board)
    moves = game.legal_moves()
    assert moves and all(p.y <= COORD_LIMIT for m in moves for p in m.tiles)
    game.push(moves[0])  # (refused before: the best move went to y = 1,000,001)


@pytest.mark.serial
def test_a_cutoff_ends_a_generation_at_its_deadline_with_the_moves_found() -> None:
    import time

    from conftest import CIRCLES, crowded

    from qwirkle_tools.core.movegen import ANCHOR_MOST, Cutoff
    from qwirkle_tools.formats.record import Setup, from_data

    setup = from_data({"format": "qwirkle-record", "version": 1, "players": [{"name": "A"}, {"name": "B"}],
                       "turns": [], "setup": crowded()}).setup
    assert isinstance(setup, Setup)
    cells = Board(setup.board).cells
    rack = [int(t) for t in parse_tiles(CIRCLES)]
    whole = generate_raw(cells, rack)
    assert len(whole) > 300_000
    cutoff = Cutoff(deadline=time.monotonic())  # already past: the first anchor's moves, and no more
    started = time.monotonic()
    found = generate_raw(cells, rack, cutoff=cutoff)
    assert time.monotonic() - started < 0.5 and cutoff.cut
    at = {m: i for i, m in enumerate(whole)}
    assert 0 < len(found) <= ANCHOR_MOST and all(m in at for m in found)
    assert found == sorted(found, key=at.__getitem__)  # in generate's order
    cutoff = Cutoff(most=1_000)
    assert generate_raw(cells, rack, cutoff=cutoff) == whole[:1_000] and cutoff.cut
    assert [str(m) for m in generate(cells, rack, cutoff=Cutoff(most=10))] == [str(m) for m in generate(cells, rack)[:10]]


@pytest.mark.serial
def test_a_cutoff_that_does_not_bind_changes_nothing() -> None:
    import time

    from qwirkle_tools.core.movegen import Cutoff

    cells, bag = play(3, 20)
    rack = bag[:6]
    cutoff = Cutoff(deadline=time.monotonic() + 60, most=10_000)
    assert generate_raw(cells, rack, cutoff=cutoff) == generate_raw(cells, rack) and not cutoff.cut
    assert best_move(cells, rack, cutoff=cutoff) == generate(cells, rack)[0]

