"""Forgiving hand entry in score sheets (.csv): a column of round numbers is
not a player, and a wrong total is one finding at its row and column, also
told by ``chart`` and ``view``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from qwirkle_tools.analysis.validate import check_source
from qwirkle_tools.cli.app import app
from qwirkle_tools.formats.sheets import parse_sheet
from qwirkle_tools.formats.sources import Source

SHEET = (Path(__file__).parents[2] / "sample_games" / "296-295-sheet.csv").read_text(encoding="utf-8")
"""The 296-295 game's sheet: the names, 32 rounds, the totals (valid as written)."""
ROWS = SHEET.splitlines()


def with_rounds(head: str, totals: bool = True) -> str:
    """The sheet with a first column of round numbers headed ``head``."""
    body = [f"{i},{row}" for i, row in enumerate(ROWS[1:-1], 1)]
    return "\n".join([f"{head},{ROWS[0]}", *body, *([ROWS[-1]] if totals else [])]) + "\n"


def report(text: str) -> tuple[list[tuple[str, str]], object]:
    found = check_source(Source("sheet.csv", 0, text.encode()), keep_record=True)
    return [(f.code, f.message) for f in found.findings], found.record


def test_the_sheet_is_valid_as_written() -> None:
    findings, record = report(SHEET)
    assert findings == [] and record is not None


@pytest.mark.parametrize("head", ["Round", "#", "Turn", "round:", "No."])
@pytest.mark.parametrize("totals", [True, False])
def test_a_column_of_round_numbers_is_not_a_player(head: str, totals: bool) -> None:
    # was: "Round" a third player, the sheet valid without totals; with them, one error at the wrong cell
    findings, record = report(with_rounds(head, totals))
    _, plain = report(SHEET if totals else "\n".join(ROWS[:-1]) + "\n")
    assert findings == []
    assert record.names == ("Ana", "Ben") and record.turns == plain.turns and record.result == plain.result  # type: ignore[attr-defined]


def test_with_round_numbers_a_real_arithmetic_mistake_is_the_finding_at_its_cell() -> None:
    text = with_rounds("Round").replace("\ntotal,295,296", "\ntotal,295,297")
    findings, record = report(text)
    assert findings == [("result-mismatch", f"row {len(ROWS)}, column C: the result gives Ben (seat 1) 297, "
                                            f"the turns add up to 296")]
    assert len(record.turns) == 64  # type: ignore[attr-defined]


def test_without_round_numbers_a_wrong_total_names_its_row_and_column() -> None:
    text = SHEET.replace("\ntotal,295,296", "\ntotal,290,296")  # the totals sit one column right of the names
    assert report(text)[0] == [("result-mismatch", f"row {len(ROWS)}, column B: the result gives Ana (seat 0) 290, "
                                                   f"the turns add up to 295")]


def test_a_mistake_in_a_sheet_with_round_numbers_names_the_players_column() -> None:
    parsed = parse_sheet("Round,Ana,Ben\n1,5,7\n2,,3\n3,4,4\n")
    assert [f.message.split(":")[0] for f in parsed.findings] == ["row 3, column B"]
    assert parsed.data["players"] == [{"name": "Ana"}, {"name": "Ben"}]
    assert parse_sheet("Round,Ana,Ben\n1,5,7,9\n").findings[0].message.startswith("row 2, column D: a cell beyond")


def test_a_first_player_named_like_a_round_column_in_a_two_column_sheet_is_a_player() -> None:
    parsed = parse_sheet("No,Ben\n5,7\n")  # two names: a game needs both as players
    assert parsed.findings == () and parsed.data["players"] == [{"name": "No"}, {"name": "Ben"}]


@pytest.mark.parametrize("command", ["chart", "view"])
def test_chart_and_view_of_a_sheet_with_a_wrong_total_say_so_and_still_write(command: str, tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(with_rounds("Round").replace("\ntotal,295,296", "\ntotal,295,297"), encoding="utf-8")
    out = tmp_path / ("out.png" if command == "chart" else "out.html")
    result = CliRunner().invoke(app, [command, str(sheet), "-o", str(out)])
    assert result.exit_code == 0, result.output  # a warning does not fail (as in validate)
    assert out.stat().st_size > 0
    assert (f"qwirkle: warning: {sheet}: result-mismatch: row {len(ROWS)}, column C: the result gives Ben (seat 1) 297, "
            f"the turns add up to 296") in result.stderr.splitlines()


def test_the_viewers_findings_tell_a_wrong_total_at_its_row_and_column(tmp_path: Path) -> None:
    from qwirkle_tools.analysis.analyse import analyse
    from qwirkle_tools.formats.sources import load_record
    from qwirkle_tools.outputs.viewer import page_data
    from qwirkle_tools.play.engine import replay

    sheet = tmp_path / "sheet.csv"
    sheet.write_text(SHEET.replace("\ntotal,295,296", "\ntotal,295,297"), encoding="utf-8")
    loaded = load_record(sheet)
    history = replay(loaded.record)
    told = page_data(history, analyse(history), reading=loaded)["findings"]
    assert ["result-mismatch", "error", f"row {len(ROWS)}, column C: the result gives Ben (seat 1) 297, "
            "the turns add up to 296"] in told
    bare = page_data(history, analyse(history))["findings"]  # (no file: the record's pointers only)
    assert [f[2] for f in bare if f[0] == "result-mismatch"] == ["the result gives Ben (seat 1) 297, the turns add up to 296"]
    out = tmp_path / "v.html"
    assert CliRunner().invoke(app, ["view", str(sheet), "-o", str(out)]).exit_code == 0
    assert f"row {len(ROWS)}, column C: the result gives Ben" in out.read_text(encoding="utf-8")


def test_chart_of_a_valid_sheet_warns_of_nothing(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(SHEET, encoding="utf-8")
    result = CliRunner().invoke(app, ["chart", str(sheet), "-o", str(tmp_path / "c.svg")])
    assert result.exit_code == 0 and "warning" not in result.stderr


def test_chart_of_a_game_with_a_slip_read_past_tells_it_with_its_caret(tmp_path: Path) -> None:
    game = tmp_path / "game.qgn"
    game.write_text("Player: Ana, Ben\n1. Ana rc@0,0 rd@1,0 2\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["chart", str(game), "-o", str(tmp_path / "c.svg")])
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    at = lines.index(f"qwirkle: warning: {game}: header-misspelt: line 1, column 1: 'Player' is not a header of the "
                     f"notation: did you mean 'Players'? (read as Players:)")
    assert lines[at + 1:at + 3] == ["    Player: Ana, Ben", "    ^"]
