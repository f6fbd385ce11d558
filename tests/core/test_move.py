"""A move's text form: one grammar with the notation's, and every refusal a message of ours."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwirkle_tools.core.board import COORD_LIMIT, MAX_DIGITS, Placement, PlacementError, parse_coordinate
from qwirkle_tools.core.move import Move, MoveError
from qwirkle_tools.core.tiles import TILES, Tile
from qwirkle_tools.formats.qgn import parse_qgn

# spellings of a coordinate that int() takes or that look like numbers
SPELLINGS = ["0", "-1", "12", "-0", "007", "9" * MAX_DIGITS, "9" * (MAX_DIGITS + 1), "+1", "1_0", "-1_0",
             "\u0661", "\u0663\u0660", "\uff11", "\u0967", "\U0001d7ce", "1e3", "0x1", "1.0", "--1", "-", "",
             " 1", "1 ", "\u22121", "²", "1,2", "1\n"]


def _notation_reads(x: str) -> bool:
    parsed = parse_qgn(f"Players: Ana, Ben\n1. Ana rc@{x},0\n")
    return not [f for f in parsed.findings if f.code == "qgn"]


def _move_reads(x: str) -> bool:
    try:
        Move.parse(f"rc@{x},0")
    except MoveError:
        return False
    return True


@pytest.mark.parametrize("x", SPELLINGS)
def test_a_coordinate_reads_alike_in_a_move_a_placement_and_the_notation(x: str) -> None:
    reads = _notation_reads(x) if "\n" not in x else False  # (a line's end ends the notation's word)
    assert _move_reads(x) == reads, x
    if reads:
        assert Placement.parse(f"rc@{x},0") == Placement(Tile.parse("rc"), int(x), 0) == Move.parse(f"rc@{x},0").tiles[0]
        assert parse_coordinate(x) == int(x)
    else:
        if x.strip() == x:  # (a placement alone ignores the spaces around its parts, as Tile.parse does)
            with pytest.raises(PlacementError, match="bad placement"):
                Placement.parse(f"rc@{x},0")
        with pytest.raises(ValueError, match="expected a"):
            parse_coordinate(x)


@pytest.mark.parametrize("x", ["1_0", "+1", "\u0661", "\uff11"])
def test_the_spellings_int_takes_and_the_notation_refuses_are_refused(x: str) -> None:
    assert int(x) in (1, 10) and not _notation_reads(x)
    with pytest.raises(MoveError, match=re.escape(repr(f"rc@0,{x}"))):
        Move.parse(f"rc@0,{x}")


_REASON = (r"it is empty|name the tiles exchanged|unknown tile .*|"
           r"bad placement (?P<q>['\"]).*(?P=q): write tile@x,y \((no '@' before the cell|no ',' between x and y|"
           r"unknown tile .*|expected a whole number like 3 or -1, got .*|"
           rf"expected a number of at most {MAX_DIGITS} digits, got [0-9]+)\)")
OURS = re.compile(rf"bad move (?P<m>['\"]).*(?P=m): write tile@x,y \.\.\., exchange TILES or pass \(({_REASON})\)",
                  re.DOTALL)
PIECES = st.sampled_from(["rc", "red-circle", "RC", "zz", "@", ",", "-", "+", "_", "0", "1", "17", "\u0661", "\uff11",
                          " ", "\t", "exchange", "pass", "'", '"', "@@", ",,", "9" * 17, "\x00", "\u2003", "é"])


@settings(max_examples=600, deadline=None)
@given(st.one_of(st.text(max_size=40), st.lists(PIECES, max_size=12).map("".join)))
def test_every_text_is_a_move_that_round_trips_or_refused_by_a_message_of_ours(text: str) -> None:
    try:
        move = Move.parse(text)
    except MoveError as exc:
        message = str(exc)
        assert OURS.fullmatch(message), message
        assert not re.search(r"unpack|invalid literal|int\(\)|base 10|Traceback", message), message
        assert len(message) < 600
        return
    assert Move.parse(str(move)) == move


COORDS = st.integers(-COORD_LIMIT, COORD_LIMIT)


@given(st.lists(st.tuples(st.sampled_from(TILES), COORDS, COORDS), min_size=1, max_size=6), st.booleans())
def test_a_placement_move_over_the_whole_board_round_trips(parts: list[tuple[Tile, int, int]], short: bool) -> None:
    move = Move.place(Placement(t, x, y) for t, x, y in parts)
    text = str(move) if short else " ".join(str(p) for p in move.tiles)  # the long tile form reads too
    assert Move.parse(text) == move
    assert all(Placement.parse(str(p)) == p for p in move.tiles)


def test_a_long_text_is_quoted_cut() -> None:
    with pytest.raises(MoveError) as caught:
        Move.parse("rc@0," + "1" * 100_000)
    assert len(str(caught.value)) < 400 and "..." in str(caught.value)
