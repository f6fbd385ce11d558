"""Score sheets from paper (.csv): read as a club writes them, mistakes placed by row and column."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from qwirkle_tools.analysis.validate import check_source
from qwirkle_tools.core.findings import MAX_FINDINGS, STOPPED
from qwirkle_tools.formats.record import from_data
from qwirkle_tools.formats.schema import MAX_TURNS
from qwirkle_tools.formats.sheets import parse_sheet, separator
from qwirkle_tools.formats.sources import Source, read_record
from qwirkle_tools.play.engine import replay

SAMPLES = Path(__file__).parents[2] / "sample_games"


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
        ("result-mismatch", "row 4, column C: the result gives Ben (seat 1) 10, the turns add up to 9")]


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


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n", "mixed"])
def test_every_kind_of_line_end_reads_alike(end: str) -> None:
    rows = ["Ana;Ben", "5;7", ";", "3;x", "total;8;7"]
    ends = ["\r", "\n", "\r\n"] if end == "mixed" else [end]
    parsed = parse_sheet("".join(row + ends[i % len(ends)] for i, row in enumerate(rows)))
    assert [(f.code, f.message) for f in parsed.findings] == [
        ("sheet", "row 3, column A: Ana's cell is empty before the end of the game "
                  "(write 0, - or x for a turn that scored nothing)"),
        ("sheet", "row 3, column B: Ben's cell is empty before the end of the game "
                  "(write 0, - or x for a turn that scored nothing)")]
    assert [(t["player"], t.get("score")) for t in parsed.data["turns"]] == [(0, 5), (1, 7), (0, None), (1, None),
                                                                            (0, 3), (1, 0)]
    assert parsed.data["result"] == {"scores": [8, 7]}
    report = check_source(Source("sheet.csv", 0, b"Ana;Ben\r5;7\r\xff;2\r"))
    assert report.findings[0].message.startswith("line 3 of the file, column 1: not UTF-8"), report.findings


def test_the_separator_is_read_from_the_first_row_as_csv_reads_it() -> None:
    text = '"Smith,\nJohn";"Doe, Jane";Cy\n1;2;3\n'
    assert separator(text) == ";"  # was ',': counted on the first line, "Smith,
    parsed = parse_sheet(text)
    assert parsed.findings == ()
    assert parsed.data["players"] == [{"name": "Smith,\nJohn"}, {"name": "Doe, Jane"}, {"name": "Cy"}]
    assert separator('"a;\r\nb",c,d\r\n1,2,3\r\n') == ","


def test_a_sheet_of_millions_of_rows_is_read_only_to_the_turn_limit() -> None:
    text = "Ana,Ben\n" + "4,5\n" * 300_000
    tracemalloc.start()
    try:
        parsed = parse_sheet(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * 2**20, peak  # bytes allocated, not time: was about 200 MB (2,097,152 rows: 1.5 GB)
    assert len(parsed.data["turns"]) == MAX_TURNS
    (finding,) = parsed.findings
    assert finding.pointer == "/turns" and finding.message == (
        f"row {MAX_TURNS // 2 + 2}, column A: a turn past the 10,000th: a record holds at most 10,000 turns; "
        "the rest of the file is not read")


def test_mistakes_stop_at_the_cap_with_one_note() -> None:
    parsed = parse_sheet("Ana,Ben\n" + "x1,x2\n" * 5000)
    assert len(parsed.findings) == MAX_FINDINGS  # the last a note
    assert parsed.findings[-1].message == f"row {MAX_FINDINGS // 2 + 1}, column A: {STOPPED}"


def test_a_row_of_thousands_of_names_or_cells_is_bounded() -> None:
    parsed = parse_sheet(",".join(f"P{i}" for i in range(100_000)) + "\n" + "1," * 100_000 + "\n")
    assert parsed.data["players"] == [{"name": f"P{i}"} for i in range(6)]
    assert parsed.findings[0].message == ("row 1, column G: 100,000 names: a game has at most 6 players "
                                          "(the first row holds the names, in seat order)")
    assert len(parsed.findings) == MAX_FINDINGS  # a cell beyond the last column, each, to the cap
    assert [t["score"] for t in parsed.data["turns"]] == [1] * 6


def test_rows_without_text_keep_the_row_numbers_and_a_quoted_cell_its_lines() -> None:
    text = '\n\n"Ana\n\nLee";Ben\r\n5;7\r\n\r\n ; \r\r3;x\n\n\n'
    parsed = parse_sheet(text)
    assert parsed.data["players"] == [{"name": "Ana\n\nLee"}, {"name": "Ben"}]  # the first row with text
    assert [f.message.split(":")[0] for f in parsed.findings] == [
        f"row {r}, column {c}" for r in (5, 6, 7) for c in "AB"]
    assert [t.get("score") for t in parsed.data["turns"]] == [5, 7, None, None, None, None, None, None, 3, 0]
    assert parsed.broken == {2, 3, 4, 5, 6, 7}


def test_a_million_blank_rows_are_counted_at_once() -> None:
    parsed = parse_sheet("Ana,Ben\n4,5\n" + "\n , \n" * 500_000 + "3,4\ntotal,7,9\n")
    assert parsed.findings[0].message.startswith("row 3, column A: Ana's cell is empty before the end")
    assert len(parsed.findings) == MAX_FINDINGS and "result" not in parsed.data
    parsed = parse_sheet("Ana,Ben\n4,5\n" + "\n" * 1_000_000 + "total,4,5\n")
    assert parsed.findings == () and parsed.data["result"] == {"scores": [4, 5]}
