"""Findings: the codes, one clean line each, and the line form that round-trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qwirkle_tools.core.findings import CODES, MAX_MESSAGE, Finding, make, parse_line

places = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=40).filter(
    lambda s: ": " not in s and ":turn " not in s and s.strip() == s and s.isprintable())
findings = st.builds(make, st.sampled_from(sorted(CODES)), st.one_of(st.none(), st.integers(1, 10_000)), st.just(""),
                     st.text(min_size=1, max_size=400))


@given(places, findings)
def test_a_finding_line_round_trips(where: str, finding: Finding) -> None:
    line = finding.line(where)
    assert "\n" not in line
    assert parse_line(line) == (where, finding)


def test_the_line_form_is_what_validate_prints() -> None:
    f = make("score-mismatch", 5, "/turns/4/score", "Ana (seat 0) claims 7, the turn scores 2+3 = 5")
    assert f.line("game.json") == "game.json:turn 5: score-mismatch: Ana (seat 0) claims 7, the turn scores 2+3 = 5"
    assert make("result-mismatch", None, "/result", "x").line("c.jsonl:3") == "c.jsonl:3: result-mismatch: x"
    assert str(f) == "turn 5: score-mismatch: Ana (seat 0) claims 7, the turn scores 2+3 = 5"


def test_a_place_with_colons_reads_back() -> None:
    f = make("json", None, "", "line 1, column 2: unexpected end of data")
    assert parse_line(f.line(r"C:\games\a.jsonl:12")) == (r"C:\games\a.jsonl:12", f)


@pytest.mark.parametrize("text", ["", "no colon at all", "a.json: not-a-code: x", "a.json:turn 5:json: y"])
def test_parse_line_refuses_other_text(text: str) -> None:
    with pytest.raises(ValueError):
        parse_line(text)


def test_make_keeps_messages_to_one_short_line() -> None:
    f = make("gap", 1, "/turns/0", "a\nb\x1b[31m" + "x" * 1000)
    assert f.message.isprintable() and len(f.message) <= MAX_MESSAGE and f.message.endswith("...")
    assert f.severity == "error" and make("wrong-starter", 1, "", "m").severity == "warning"


def test_a_place_that_is_not_printable_is_shown_escaped() -> None:
    line = make("json", None, "", "empty").line("evil\x1b[2J\nBen: 999.json")
    assert line == "evil\\x1b[2J\\nBen: 999.json: json: empty" and line.isprintable()
