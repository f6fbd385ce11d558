"""JSON text: both reading modes give one verdict (regressions found by fuzzing)."""

from __future__ import annotations

import json

import pytest
from conftest import game, place

from qwirkle_tools.formats.jsontext import MAX_DEPTH, inexact_integers, parse_json
from qwirkle_tools.formats.record import dumps, from_data


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
    text = json.dumps(game(place(0, "rc@0,0", 1)))[:-1] + ', "x-deep": ' + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "}"
    for exact in (False, True):  # the exact mode (the standard library) ran out of stack at about 990 levels
        written = dumps(parse_json(text, exact))
        assert dumps(parse_json(written, exact)) == written
    record = from_data(parse_json(text, exact=True))
    assert dumps(record) == dumps(parse_json(text))


def test_inexact_integers_spots_a_run_of_twenty_digits() -> None:
    assert inexact_integers(b'{"a": 12345678901234567890}')
    assert not inexact_integers(b'{"a": 1234567890123456789}')
