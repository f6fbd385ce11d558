"""Score sheets from paper (.csv): read as a club writes them, mistakes placed by row and column."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qwirkle_tools.engine import replay
from qwirkle_tools.record import from_data
from qwirkle_tools.sheets import parse_sheet, separator
from qwirkle_tools.validate import Source, check_source, read_record

SAMPLES = Path(__file__).parent.parent / "sample_games"


def turns(text: str) -> list[tuple[int, str, int | None]]:
    parsed = parse_sheet(text)
    assert parsed.findings == (), [f.message for f in parsed.findings]
    return [(t["player"], t["action"], t.get("score")) for t in parsed.data["turns"]]


def test_a_sheet_is_a_column_per_player_and_a_row_per_round() -> None:
    parsed = parse_sheet("Ana,Ben,Cy\n4,6,-\n12,x,0\n8,\n")
    assert parsed.findings == ()
    assert parsed.data["players"] == [{"name": "Ana"}, {"name": "Ben"}, {"name": "Cy"}]
    assert [(t["player"], t["action"], t["score"]) for t in parsed.data["turns"]] == [
        (0, "place", 4), (1, "place", 6), (2, "exchange", 0),
        (0, "place", 12), (1, "exchange", 0), (2, "exchange", 0), (0, "place", 8)]
    assert "result" not in parsed.data
    from_data(parsed.data)  # of the schema


def test_semicolons_a_byte_order_mark_quotes_and_a_total_row() -> None:
    raw = "\ufeffAna;\"Ben; the elder\"\r\n5;7\r\n;\r\nTotal;5;7\r\n".encode()
    report = check_source(Source("sheet.csv", 0, raw), keep_record=True)
    assert report.findings == ()
    assert report.record is not None and report.record.names == ("Ana", "Ben; the elder")
    assert report.record.result is not None and report.record.result.scores == (5, 7)
    assert separator("a;b,c;d\n") == ";" and separator("Dupont, Ana,Ben\n") == ","
    assert separator("\"Smith, John\";\"Doe, Jane\"\n") == ";"


def test_totals_are_checked_like_a_result() -> None:
    report = check_source(Source("sheet.csv", 0, b"Ana,Ben\n5,7\n3,2\ntotal,8,10\n"))
    assert [(f.code, f.message) for f in report.findings] == [
        ("result-mismatch", "the result gives Ben (seat 1) 10, the turns add up to 9")]


@pytest.mark.parametrize(("text", "words"), [
    ("Ana,Ben\n5,7\n,2\n3,4\n", "row 3, column A: Ana's cell is empty before the end of the game"),
    ("Ana,Ben\n5,7\n3\n4,4\n", "row 3, column B: Ben's cell is empty before the end of the game"),
    ("Ana,Ben\n5,seven\n", "row 2, column B: expected Ben's points for the turn (a whole number), "
                           "or 0, - or x for a turn that scored nothing; got 'seven'"),
    ("Ana,Ben\n5,-3\n", "row 2, column B: expected Ben's points"),
    ("Ana,Ben\n5,7,9\n", "row 2, column C: a cell beyond the last player's column (2 players)"),
    ("Ana,,Ben\n5,7,9\n", "row 1, column B: a player's name is empty"),
    ("Ana,Ben\n5,7\ntotal,5,lots\n", "row 3, column C: expected Ben's total, a whole number; got 'lots'"),
    ("\n\n", "empty: the first row should hold the players' names"),
])
def test_each_mistake_is_placed_by_row_and_column(text: str, words: str) -> None:
    parsed = parse_sheet(text)
    assert [f.code for f in parsed.findings] == ["sheet"]
    assert words in parsed.findings[0].message, parsed.findings[0].message


def test_an_empty_cell_in_the_middle_leaves_only_its_turn_unread() -> None:
    parsed = parse_sheet("Ana,Ben\n5,7\n,2\n3,4\n")
    assert parsed.broken == {2} and len(parsed.data["turns"]) == 6
    report = check_source(Source("sheet.csv", 0, b"Ana,Ben\n5,7\n,2\n3,4\n"))
    assert [f.code for f in report.findings] == ["sheet"]


def test_the_296_295_sheet_is_that_game_turn_by_turn() -> None:
    sheet = read_record(SAMPLES / "296-295-sheet.csv")
    game = from_data(json.loads((SAMPLES / "296-295.json").read_text()))
    assert [t.score if t.action == "place" else 0 for t in sheet.turns] == [t.score for t in game.turns]
    assert [t.player for t in sheet.turns] == [t.player for t in game.turns]
    assert replay(sheet).totals == replay(game).totals == (295, 296)
    assert sheet.result is not None and sheet.result.scores == (295, 296)
