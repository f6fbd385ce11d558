"""Unknown is "unknown": a figure the record cannot tell (no racks, a score sheet) is n/a in text,
null in JSON and missing (a nullable column) in the tables, never 0; the notes say what was unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from qwirkle_tools.analysis.analyse import analyse
from qwirkle_tools.analysis.annotation import summary_data, summary_text
from qwirkle_tools.corpus.rows import run
from qwirkle_tools.corpus.stats import Stats
from qwirkle_tools.corpus.tables import TableWriter, load
from qwirkle_tools.formats.sources import read_record

SAMPLES = Path(__file__).parents[2] / "sample_games"
SHEETS = ("score-sheet.json", "296-295-sheet.csv")


@pytest.mark.parametrize("name", SHEETS)
def test_a_score_sheet_knows_no_qwirkles_points_lost_or_fives(name: str) -> None:
    analysis = analyse(read_record(SAMPLES / name))
    for p in analysis.players:
        assert p.analysed_turns == 0 and p.accuracy is None
        assert (p.points_lost, p.qwirkles_made, p.qwirkles_missed, p.gifts_given, p.open_fives) == (None,) * 5
        assert p.score > 0  # the scores are known: only what the sheet cannot tell is unknown
    text = summary_text(analysis)
    assert "n/a points lost, n/a Qwirkles made, n/a missed, n/a gifts, n/a open fives" in text
    assert " 0 Qwirkles" not in text and "0 points lost" not in text
    (note,) = analysis.notes
    assert "the board is unknown" in note and "rack" not in note
    assert note.startswith(f"{len(analysis.turns)} of {len(analysis.turns)} turns")
    data = json.loads(json.dumps(summary_data(analysis)))
    assert all(p["points_lost"] is None and p["qwirkles_made"] is None for p in data["players"])


def test_no_racks_on_a_known_board_says_the_rack_is_unknown_not_the_board() -> None:
    analysis = analyse(read_record(SAMPLES / "illegal-moves.json"))  # every tile placed is written, no rack
    (note,) = analysis.notes
    assert "the rack is unknown" in note and "board" not in note
    for p in analysis.players:
        assert p.points_lost is None  # no turn's rack was known
        assert p.qwirkles_made == 0 and p.open_fives == 0 and p.gifts_given == 0  # the board is: these are counted
        assert p.qwirkles_missed == 0  # the placed tiles were checked


def test_a_whole_record_knows_everything() -> None:
    analysis = analyse(read_record(SAMPLES / "weak-play.json"))
    assert analysis.notes == ()
    for p in analysis.players:
        assert None not in (p.points_lost, p.qwirkles_made, p.qwirkles_missed, p.gifts_given, p.open_fives)
    assert "n/a" not in summary_text(analysis)


def test_the_tables_leave_a_sheets_unknowns_missing(tmp_path: Path) -> None:
    paths = [SAMPLES / name for name in (*SHEETS, "complete-2p.json")]
    games, turns, _ = load(paths, analyse=True)
    sheet, known = games.iloc[0], games.iloc[2]
    assert pd.isna(sheet["qwirkles"]) and pd.isna(sheet["points_lost"]) and pd.isna(sheet["missed_qwirkles"])
    assert pd.isna(sheet["qwirkle_gifts"]) and sheet["turns"] == 54
    assert not pd.isna(known["qwirkles"]) and not pd.isna(known["points_lost"])
    assert str(games["qwirkles"].dtype) == "Int64" and str(turns["missed_qwirkle"].dtype) == "boolean"
    on_sheet = turns[turns["game"] == str(SAMPLES / SHEETS[0])]
    placed = on_sheet[on_sheet["action"] == "place"]
    assert placed["qwirkles"].isna().all() and (on_sheet[on_sheet["action"] == "exchange"]["qwirkles"] == 0).all()
    assert on_sheet["missed_qwirkle"].isna().all()
    assert on_sheet["open_fives"].isna().all() and on_sheet["qwirkle_gift"].isna().all()
    pq = pytest.importorskip("pyarrow.parquet")
    writer = TableWriter(tmp_path / "pq", "parquet")
    for rows in run(paths, analyse=True):
        writer.add(rows)
    writer.close()
    schema = pq.read_schema(tmp_path / "pq" / "games.parquet")
    assert schema.field("qwirkles").nullable and str(schema.field("qwirkles").type) == "int64"
    back = pd.read_parquet(tmp_path / "pq" / "games.parquet")
    assert back["qwirkles"].isna().tolist() == [True, True, False]


def test_stats_leaves_a_sheets_qwirkles_out_rather_than_counting_them_as_0() -> None:
    stats = Stats()
    for rows in run([SAMPLES / name for name in (*SHEETS, "complete-2p.json", "296-295.json")], analyse=True):
        stats.add(rows)
    data = stats.to_data()
    per_game = data["qwirkles_per_game"]
    assert isinstance(per_game, dict)
    assert per_game["n"] == 2 and per_game["min"] > 0 and data["qwirkles_unknown"] == 2
    assert "leaves out 2 games whose tiles are not recorded" in stats.text()
    only = Stats()
    for rows in run([SAMPLES / SHEETS[0]], analyse=True):
        only.add(rows)
    assert only.to_data()["qwirkles_per_game"] is None  # nothing known: no figures at all, not a mean of 0
    players = only.to_data()["players"]
    assert isinstance(players, list)
    assert all(p["points_lost"] is None and p["missed_qwirkles"] is None for p in players)
    assert "n/a" in only.text()
