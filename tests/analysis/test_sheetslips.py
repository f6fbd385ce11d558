"""Slips on a score sheet (qwirkle_tools.analysis.sheetslips): a row's cells swapped, a row left out,
a total written wrong: one finding each, and rescore names the total."""

from __future__ import annotations

from pathlib import Path

from qwirkle_tools.analysis.rescore import rescore
from qwirkle_tools.analysis.validate import check_source
from qwirkle_tools.formats.record import from_data
from qwirkle_tools.formats.sheets import parse_sheet
from qwirkle_tools.formats.sources import Source

SHEET = (Path(__file__).parents[2] / "sample_games" / "296-295-sheet.csv").read_text().splitlines()


def found(rows: list[str]) -> list[tuple[str, str]]:
    report = check_source(Source("sheet.csv", 0, ("\n".join(rows) + "\n").encode()))
    return [(f.code, f.message) for f in report.findings]


def test_the_sheet_as_written_is_valid() -> None:
    assert found(SHEET) == [] and SHEET[-1] == "total,295,296"


def test_two_cells_of_a_row_swapped_are_one_finding_naming_the_row() -> None:
    rows = list(SHEET)
    a, b = rows[5].split(",")
    assert a != b
    rows[5] = f"{b},{a}"
    ((code, message),) = found(rows)
    assert code == "slip" and message.startswith(f"two cells swapped? round 5: Ana's {b} and Ben's {a} read the other way")


def test_a_row_left_out_is_one_finding() -> None:
    rows = list(SHEET)
    k = next(i for i, r in enumerate(rows[1:-1], 1) if "-" not in r and "0" not in r.split(","))
    a, b = map(int, rows[k].split(","))
    del rows[k]
    ((code, message),) = found(rows)
    assert code == "slip" and message.startswith(f"a row left out? the totals written are more than their cells add up "
                                                 f"to: Ana by {a}, Ben by {b}")
    assert "row 33, column B: the result gives Ana" in message  # the totals' place kept


def test_one_total_written_wrong_is_one_finding_and_rescore_names_it() -> None:
    rows = [*SHEET[:-1], "total,290,296"]
    ((code, message),) = found(rows)
    assert code == "result-mismatch" and "gives Ana (seat 0) 290, the turns add up to 295" in message
    text = rescore(from_data(parse_sheet("\n".join(rows) + "\n").data)).text()
    assert text.splitlines()[-1].endswith("0 turn scores differ; the total written for Ana is 290, the turns add up to 295")
