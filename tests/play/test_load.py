"""load_history: one record file read and replayed once, with the reader's errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from qwirkle_tools.formats.sources import InputError, UnreadableRecord, read_record
from qwirkle_tools.play.engine import replay
from qwirkle_tools.play.load import load_history

SAMPLES = Path(__file__).parents[2] / "sample_games"


@pytest.mark.parametrize("name", ["296-295.json", "296-295.qgn", "296-295-sheet.csv", "wrong-scores.json"])
def test_a_file_is_read_and_replayed(name: str) -> None:
    history = load_history(SAMPLES / name)
    expected = replay(read_record(SAMPLES / name))
    assert history.totals == expected.totals and history.findings == expected.findings
    assert history.record == expected.record
    assert [r.points for r in history] == [r.points for r in expected]


def test_positions_false_keeps_no_state_per_turn() -> None:
    kept, lean = load_history(SAMPLES / "complete-2p.json"), load_history(SAMPLES / "complete-2p.json", positions=False)
    assert lean.totals == kept.totals
    assert all(r.state is None for r in lean) and all(r.state is not None for r in kept)


def test_the_reader_s_errors_are_raised(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_history(tmp_path / "missing.json")
    with pytest.raises(InputError, match="not a .jsonl corpus"):
        load_history(SAMPLES / "corpus-10.jsonl")
    (tmp_path / "bad.json").write_text('{"format": "qwirkle-record", "players": [')
    with pytest.raises(UnreadableRecord):
        load_history(tmp_path / "bad.json")
