"""The report: its files from one replay, the per-turn table and the summary."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from conftest import game, place

from qwirkle_tools.analysis.analyse import analyse
from qwirkle_tools.analysis.rescore import rescore
from qwirkle_tools.formats.record import from_data, loads
from qwirkle_tools.outputs.reporting import CSV_COLUMNS, FILES, build, summary, turn_table_csv
from qwirkle_tools.play import engine

SAMPLES = Path(__file__).parents[2] / "sample_games"


def test_a_report_replays_the_game_once(monkeypatch: pytest.MonkeyPatch) -> None:
    record = loads((SAMPLES / "296-295.json").read_bytes())
    games: list[Any] = []
    real = engine.Replay.__init__

    def counting(self: Any, *args: Any, **kwargs: Any) -> None:
        games.append(self)
        real(self, *args, **kwargs)

    monkeypatch.setattr(engine.Replay, "__init__", counting)
    done = build(record, "296-295.json")
    assert len(games) == 1
    assert list(done.files) == list(FILES) and done.valid
    assert all(done.files[name].startswith(b"\x89PNG") for name in FILES if name.endswith(".png"))
    assert done.files["summary.txt"].decode() == done.summary + "\n"
    assert done.summary.startswith("296-295.json: Ana 295 - 296 Ben (computed; end: out), 64 turns")


def test_the_turn_table_has_a_row_per_turn_and_running_totals() -> None:
    data = game(place(0, "rc@0,0 rx@1,0", 2, rack="rc rx bd yx gl pt"), place(1, "rd@2,0", 5), place(0, score=4))
    record = from_data(data)
    history = engine.replay(record)
    rows = list(csv.reader(io.StringIO(turn_table_csv(rescore(history), analyse(history)))))
    assert rows[0] == [*CSV_COLUMNS, "total Ana", "total Ben"]
    assert len(rows) == 4
    first = dict(zip(rows[0], rows[1]))
    assert first["tiles"] == "rc@0,0 rx@1,0" and first["rack"] == "recorded" and first["best_score"] == "2"
    assert [r[-2:] for r in rows[1:]] == [["2", "0"], ["2", "3"], ["6", "3"]]
    assert dict(zip(rows[0], rows[2]))["computed"] == "3" and dict(zip(rows[0], rows[3]))["computed"] == ""


def test_the_summary_lists_findings_and_differences() -> None:
    data = game(place(0, "rc@0,0 rx@1,0", 2), place(1, "rd@2,0", 5))
    history = engine.replay(from_data(data))
    text = summary("g.json", history, rescore(history), analyse(history))
    lines = text.splitlines()
    assert lines[0] == "g.json: Ana 2 - 3 Ben (computed; end: not recorded), 2 turns"
    assert lines[1] == "invalid: 1 error, 0 warnings"  # (it read "1 errors")
    assert lines[2].startswith("  turn 2: score-mismatch: Ben (seat 1) claims 5")
    assert "re-scoring: 1 claimed turn score differs from the computed ones" in lines


def test_a_score_sheet_report_has_no_board_picture() -> None:
    record = loads((SAMPLES / "score-sheet.json").read_bytes())
    done = build(record, "score-sheet.json")
    assert "board.png" not in done.files and set(done.files) == set(FILES) - {"board.png", "win-chance.png"}
