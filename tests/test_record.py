"""Record reading and writing: typed values, round trips, errors with pointers."""

from __future__ import annotations

import json

import pytest
from conftest import game, place, simulated
from hypothesis import given, settings
from hypothesis import strategies as st

from qwirkle_tools.record import RecordError, dumps, from_data, from_data_lenient, loads, parse_json
from qwirkle_tools.tiles import Tile


def test_reads_every_field() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2, rack="rc rs bd yx gl pt", draw="oc ox"),
                {"player": 1, "action": "exchange", "tiles": ["blue-star"], "draw": ["green-star"], "comment": "meh"},
                {"player": 0, "action": "exchange", "count": 2, "x-clock": 31},
                result={"scores": [2, 0], "end": "unfinished"}, meta={"event": "Club night"},
                rules={"lone_tile_score": 0, "qwirkle_bonus": 6, "end_bonus": 6},
                setup={"board": []})
    record = from_data(data)
    first, second, third = record.turns
    assert [str(p) for p in first.tiles or ()] == ["red-circle@0,0", "red-square@1,0"]
    assert first.rack is not None and first.rack[0] is Tile.parse("rc")
    assert second.exchanged == (Tile.parse("bt"),) and second.comment == "meh" and second.exchange_size == 1
    assert third.count == 2 and third.exchange_size == 2 and third.extra == {"x-clock": 31}
    assert record.rules.lone_tile_score == 0
    assert record.result is not None and record.result.scores == (2, 0) and record.result.end == "unfinished"
    assert record.meta == {"event": "Club night"}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_dump_then_load_gives_the_same_record(seed: int) -> None:
    data = simulated(3, seed, "random")
    record = from_data(data)
    assert loads(dumps(record)) == record
    # and the data itself survives, key for key
    assert json.loads(dumps(record)) == data


def test_extensions_and_analysis_survive_a_round_trip() -> None:
    data = game(place(0, "rc@0,0", 1), **{"x-source": {"app": "bot"}, "analysis": {"tool": "t"}})
    data["players"][0]["x-elo"] = 1500
    assert json.loads(dumps(from_data(data))) == data


def test_strict_reading_names_the_first_problem() -> None:
    data = game(place(0, "rc@0,0", 1))
    data["turns"][0]["tiles"][0]["tile"] = "red-circel"
    with pytest.raises(RecordError) as info:
        from_data(data)
    assert info.value.pointer == "/turns/0/tiles/0/tile"
    assert "red-circel" in str(info.value)
    with pytest.raises(RecordError):
        loads("[]")


def test_lenient_reading_keeps_the_readable_turns() -> None:
    data = game(place(0, "rc@0,0", 1), {"player": 1, "action": "jump"}, place(0, "rs@1,0", 2))
    record, turns = from_data_lenient(data)
    assert record is not None
    assert [t is None for t in turns] == [False, True, False]


names = st.sampled_from(["red", "orange", "yellow", "green", "blue", "purple"])
shapes = st.sampled_from(["circle", "cross", "diamond", "square", "star", "clover"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(names, shapes, st.integers(-10**6, 10**6), st.integers(-10**6, 10**6)), min_size=1, max_size=6),
       st.integers(0, 500), st.text(max_size=30))
def test_round_trip_property(tiles: list[tuple[str, str, int, int]], score: int, comment: str) -> None:
    turn = {"player": 0, "action": "place", "tiles": [{"tile": f"{c}-{s}", "x": x, "y": y} for c, s, x, y in tiles],
            "score": score, "comment": comment}
    data = game(turn)
    record = from_data(data)
    assert loads(dumps(record)) == record
    assert json.loads(dumps(record)) == data


# -- the JSON reader: both modes give one verdict (regressions found by fuzzing) --

def _error(text: bytes, exact: bool) -> str:
    with pytest.raises(json.JSONDecodeError) as info:
        parse_json(text, exact)
    return f"line {info.value.lineno}, column {info.value.colno}: {info.value.msg}"


@pytest.mark.parametrize(("text", "expected"), [
    (b'{"x-big": 1e400}', "line 1, column 11: 1e400 is too large for a number"),  # the exact mode read inf, then wrote Infinity
    (b'{"name": "\\ud800"}', "line 1, column 11: no low surrogate"),  # ... and could not write it
    ('{"a": 1}'.encode("utf-16"), "line 1, column 1: UTF-16 text"),  # ... read it as UTF-16
    (b'{"a":\n "\xc3\x28"}', "line 2, column 3: not UTF-8 (byte 0xc3)"),  # orjson said line 1, column 1
    (b'{"a": NaN}', "line 1, column 7: NaN is not JSON"),
    (b"[" * 1025 + b"]" * 1025, "line 1, column 1026: nested deeper than 1,024 levels"),
    (b'{"a": 1' + b"0" * 5000 + b"}", "line 1, column 7: a number of 5,001 digits"),
], ids=["1e400", "lone-surrogate", "utf-16", "bad-utf-8", "NaN", "too-deep", "5001-digits"])
def test_both_reading_modes_refuse_the_same_text(text: bytes, expected: str) -> None:
    assert _error(text, exact=False).startswith(expected)
    assert _error(text, exact=True).startswith(expected)


def test_integers_beyond_a_double_are_read_exactly_in_both_modes() -> None:
    big = 10**400
    for exact in (False, True):
        assert parse_json(b'{"x-big": %d, "n": -%d}' % (big, big), exact) == {"x-big": big, "n": -big}
    assert parse_json(b'{"a": 123456789012345678901234567890}', exact=True) == {"a": 123456789012345678901234567890}


def test_nesting_up_to_the_limit_is_read_and_written_in_both_modes() -> None:
    from qwirkle_tools.record import MAX_DEPTH

    text = json.dumps(game(place(0, "rc@0,0", 1)))[:-1] + ', "x-deep": ' + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "}"
    for exact in (False, True):  # the exact mode (the standard library) ran out of stack at about 990 levels
        written = dumps(parse_json(text, exact))
        assert dumps(parse_json(written, exact)) == written
    record = from_data(parse_json(text, exact=True))
    assert dumps(record) == dumps(parse_json(text))
