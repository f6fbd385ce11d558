"""Tiles: the 36 values, their long and short text forms, and the opening group size."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qwirkle_tools.core.tiles import (
    COLOUR_OF,
    COLOURS,
    SHAPE_OF,
    SHAPES,
    TILE_COUNT,
    TILES,
    Tile,
    TileError,
    largest_group,
    parse_tiles,
    tile,
    tile_names,
    tile_number,
)

# -- the 36 tiles ---------------------------------------------------------------


def test_there_are_36_distinct_tiles_in_colour_major_order() -> None:
    assert len(TILES) == 36 == len(set(TILES))
    assert TILE_COUNT == 108
    assert [int(t) for t in TILES] == list(range(36))
    assert (TILES[0].colour, TILES[0].shape) == ("red", "circle")
    assert (TILES[7].colour, TILES[7].shape) == ("orange", "cross")
    assert (TILES[35].colour, TILES[35].shape) == ("purple", "clover")
    assert {(t.colour, t.shape) for t in TILES} == {(c, s) for c in COLOURS for s in SHAPES}


def test_the_encoding_tables_invert_tile_number() -> None:
    numbers = [tile_number(c, s) for c in range(len(COLOURS)) for s in range(len(SHAPES))]
    assert sorted(numbers) == list(range(36))
    for c in range(len(COLOURS)):
        for s in range(len(SHAPES)):
            t = tile_number(c, s)
            assert (COLOUR_OF[t], SHAPE_OF[t]) == (c, s)
            assert (TILES[t].colour, TILES[t].shape) == (COLOURS[c], SHAPES[s])
            assert tile(COLOURS[c], SHAPES[s]) == t


@pytest.mark.parametrize(("text", "colour", "shape"), [
    ("red-circle", "red", "circle"),
    ("orange-cross", "orange", "cross"),
    ("yellow-diamond", "yellow", "diamond"),
    ("green-square", "green", "square"),
    ("blue-star", "blue", "star"),
    ("purple-clover", "purple", "clover"),
    ("rc", "red", "circle"),
    ("ox", "orange", "cross"),
    ("yd", "yellow", "diamond"),
    ("gs", "green", "square"),
    ("bt", "blue", "star"),
    ("pl", "purple", "clover"),
    ("os", "orange", "square"),
    ("gl", "green", "clover"),
])
def test_parse_reads_long_and_short_forms(text: str, colour: str, shape: str) -> None:
    t = Tile.parse(text)
    assert (t.colour, t.shape) == (colour, shape)
    assert t == tile(colour, shape)


@pytest.mark.parametrize(("text", "expected"), [
    ("RED-CIRCLE", "red-circle"),
    ("Orange-Square", "orange-square"),
    ("OS", "orange-square"),
    ("oS", "orange-square"),
    ("  bt  ", "blue-star"),
    ("\tpurple-clover\n", "purple-clover"),
])
def test_parse_ignores_case_and_surrounding_space(text: str, expected: str) -> None:
    assert str(Tile.parse(text)) == expected


def test_parse_returns_the_shared_instance() -> None:
    assert Tile.parse("rc") is Tile.parse("red-circle") is TILES[0]
    assert Tile.parse("PL") is TILES[35]


@pytest.mark.parametrize("text", [
    "", " ", "zz", "rz", "zc", "red", "circle", "red circle", "red_circle", "redcircle",
    "red-circel", "pink-circle", "r-c", "rcc", "c r", "36", "0",
])
def test_unknown_text_raises_tile_error_quoting_it(text: str) -> None:
    with pytest.raises(TileError, match=re.escape(repr(text))):
        Tile.parse(text)


def test_tile_error_is_a_value_error_and_explains_the_forms() -> None:
    assert issubclass(TileError, ValueError)
    with pytest.raises(ValueError, match=r"red-circle.*rc") as info:
        Tile.parse("blue-triangle")
    assert "'blue-triangle'" in str(info.value)


def test_tile_by_colour_and_shape_names() -> None:
    assert tile("green", "star") == Tile.parse("gt")
    with pytest.raises(TileError, match="'pink'"):
        tile("pink", "star")
    with pytest.raises(TileError, match="'triangle'"):
        tile("red", "triangle")


# -- text forms of all 36 tiles -------------------------------------------------

@pytest.mark.parametrize("t", TILES, ids=[t.short for t in TILES])
def test_every_tile_round_trips_through_all_forms(t: Tile) -> None:
    assert str(t) == t.name == f"{t.colour}-{t.shape}"
    assert t.short == t.colour[0] + "cxdstl"[SHAPES.index(t.shape)]
    assert Tile.parse(str(t)) is t
    assert Tile.parse(t.short) is t
    assert repr(t) == f"Tile.parse({str(t)!r})"
    assert eval(repr(t), {"Tile": Tile}) == t  # the repr promises to be evaluable


def test_short_forms_are_36_distinct_two_letter_codes() -> None:
    shorts = [t.short for t in TILES]
    assert len(set(shorts)) == 36
    assert all(len(s) == 2 and s.isalpha() and s.islower() for s in shorts)


def test_tiles_compare_and_sort_as_numbers() -> None:
    assert sorted(parse_tiles("pl rc os rc")) == parse_tiles("rc rc os pl")
    assert Tile.parse("rc") < Tile.parse("rx") < Tile.parse("oc")
    assert hash(Tile.parse("ys")) == hash(15)
    assert len({Tile.parse("rc"), Tile.parse("red-circle"), TILES[0]}) == 1


@given(st.sampled_from(TILES), st.booleans(), st.data())
def test_parse_of_format_is_identity_for_both_forms(t: Tile, short: bool, data: st.DataObject) -> None:
    text = t.short if short else str(t)
    # any mix of upper and lower case, with some padding, reads the same
    flips = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    text = "".join(c.upper() if f else c for c, f in zip(text, flips))
    pad = data.draw(st.sampled_from(["", " ", "  ", "\t"]))
    assert Tile.parse(pad + text + pad) is t


@given(st.text(max_size=20))
def test_parse_either_succeeds_with_a_tile_or_raises_tile_error(text: str) -> None:
    known = {str(t) for t in TILES} | {t.short for t in TILES}
    if text.strip().lower() in known:
        assert Tile.parse(text) in TILES
    else:
        with pytest.raises(TileError):
            Tile.parse(text)


# -- several tiles ----------------------------------------------------------------

@pytest.mark.parametrize(("texts", "expected"), [
    ("rc rs", [0, 3]),
    ("rc,rs", [0, 3]),
    ("rc, rs ,  bt", [0, 3, 28]),
    ("red-circle purple-clover", [0, 35]),
    (["rc", "red-square", "PL"], [0, 3, 35]),
    ("", []),
    ([], []),
    ("rc rc", [0, 0]),
])
def test_parse_tiles(texts: str | list[str], expected: list[int]) -> None:
    tiles = parse_tiles(texts)
    assert tiles == expected
    assert all(isinstance(t, Tile) for t in tiles)


def test_parse_tiles_rejects_a_bad_tile_and_names_it() -> None:
    with pytest.raises(TileError, match="'zz'"):
        parse_tiles("rc zz rs")


def test_tile_names() -> None:
    assert tile_names(parse_tiles("rc bt")) == "red-circle, blue-star"
    assert tile_names([]) == ""


@pytest.mark.parametrize(("rack", "expected"), [
    ("rc rc rs bc gc yd", 3),        # circles r, b, g (rc counted once); reds only c, s
    ("rc rx rd rs rt rl", 6),        # one colour, six shapes
    ("rc oc yc gc bc pc", 6),        # one shape, six colours
    ("rc rc rc rc rc rc", 1),        # one distinct tile
    ("rc ox yd gs bt pl", 1),        # nothing shared
    ("rc rx oc ox yd gs", 2),        # red c,x / orange c,x / circle r,o / cross r,o
    ("rc rx rx rd bd gd", 3),        # red c,x,d and diamond r,b,g both 3
    ("bt bt bl pl pl gl", 3),        # clover b,p,g; blue t,l
    ("rc", 1),
    ("", 0),
])
def test_largest_group_counts_duplicates_once(rack: str, expected: int) -> None:
    assert largest_group(parse_tiles(rack)) == expected


@given(st.lists(st.sampled_from(TILES), max_size=6))
def test_largest_group_matches_a_direct_count(rack: list[Tile]) -> None:
    colour_groups = [{t for t in rack if t.colour == c} for c in COLOURS]
    shape_groups = [{t for t in rack if t.shape == s} for s in SHAPES]
    assert largest_group(rack) == max(len(g) for g in colour_groups + shape_groups)
    assert largest_group(rack) == largest_group(rack + rack)  # duplicates never count


# -- a rack or a bag as text ---------------------------------------------------------

@given(st.lists(st.sampled_from(TILES), max_size=12), st.booleans())
def test_format_tiles_round_trips(tiles: list[Tile], short: bool) -> None:
    from qwirkle_tools.core.tiles import format_tiles

    text = format_tiles(tiles, short)
    assert parse_tiles(text) == tiles
    assert all(len(part) == 2 for part in text.split()) if short else all("-" in part for part in text.split())
