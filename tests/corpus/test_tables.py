"""pandas tables: columns, dtypes and contents on known games; streamed files."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from qwirkle_tools.corpus.rows import FINDING_COLUMNS, GAME_COLUMNS, TURN_COLUMNS, run
from qwirkle_tools.corpus.tables import TableWriter, describe, load, tables
from qwirkle_tools.formats.fileio import OutputError

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "sample_games"


@pytest.fixture(scope="module")
def samples() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    return load([SAMPLES], analyse=True)


def test_every_column_has_its_dtype(samples: tuple[pd.DataFrame, ...]) -> None:
    for df, columns in zip(samples, (GAME_COLUMNS, TURN_COLUMNS, FINDING_COLUMNS)):
        assert list(df.columns) == [c[0] for c in columns]
        for name, dtype, _ in columns:
            assert df[name].dtype == pd.api.types.pandas_dtype(dtype), name


def test_games_table_contents(samples: tuple[pd.DataFrame, ...]) -> None:
    games = samples[0].set_index("game")
    g = games.loc[str(SAMPLES / "296-295.json")]
    assert (g["score_0"], g["score_1"], g["winner"], g["margin"], g["turns"]) == (295, 296, "Ben", 1, 64)
    assert g["qwirkles"] == 16 and bool(g["valid"])
    bad = games.loc[str(SAMPLES / "wrong-scores.json")]
    assert not bad["valid"] and bad["errors"] == 2 and pd.isna(bad["points_lost"])
    assert len(games) == 21 and games["players"].eq(2).all()
    same = games.loc[str(SAMPLES / "296-295.qgn")]  # the game in the notation: the same row
    assert same.drop("source").equals(g.drop("source"))
    assert games["player_2"].isna().all()


def test_turns_table_adds_up_to_the_games(samples: tuple[pd.DataFrame, ...]) -> None:
    games, turns, _ = samples
    totals = turns.groupby(["game", "seat"])["score"].sum().unstack()
    merged = games.set_index("game")[["score_0", "score_1"]].loc[totals.index]
    assert (totals[0] == merged["score_0"]).all() and (totals[1] == merged["score_1"]).all()
    last = turns.groupby(["game", "seat"])["cumulative"].last().unstack()
    assert (last[0] == merged["score_0"]).all()
    q = turns.groupby("game")["qwirkles"].sum()
    assert (q == games.set_index("game")["qwirkles"].loc[q.index]).all()


def test_analysis_columns(samples: tuple[pd.DataFrame, ...]) -> None:
    games, turns, _ = samples
    analysed = turns.dropna(subset=["best_score"])
    assert (analysed["points_lost"] == analysed["best_score"] - analysed["score"]).all()
    lost = turns.groupby("game")["points_lost"].sum()
    valid = games[games["valid"]].set_index("game")
    assert (lost.loc[valid.index] == valid["points_lost"]).all()


def test_findings_table(samples: tuple[pd.DataFrame, ...]) -> None:
    findings = samples[2]
    mine = findings[findings["game"] == str(SAMPLES / "wrong-scores.json")]
    assert list(mine["code"]) == ["score-mismatch", "score-mismatch"]  # (the total written: said with turn 5)
    assert mine["pointer"].iloc[0] == "/turns/4/score" and mine["turn"].iloc[0] == 5


def test_analysis_columns_are_missing_without_analysis() -> None:
    t = load([SAMPLES / "complete-2p.json"])
    assert t.turns["best_score"].isna().all() and t.games["points_lost"].isna().all()
    assert t.turns["best_score"].dtype == "Int64"


def test_empty_tables_have_the_columns() -> None:
    t = tables([])
    assert len(t.games) == 0 and list(t.turns.columns) == [c[0] for c in TURN_COLUMNS]


@pytest.mark.parametrize("kind", ["csv", "parquet"])
def test_writer_streams_the_same_tables(tmp_path: Path, kind: str) -> None:
    results = list(run([SAMPLES], analyse=True))
    writer = TableWriter(tmp_path / "out", kind, chunk=4)  # several chunks
    for r in results:
        writer.add(r)
    writer.close()
    expected = tables(results)
    for name, df in zip(TableWriter.NAMES, expected):
        path = tmp_path / "out" / f"{name}.{kind}"
        if kind == "csv":
            back = pd.read_csv(path, dtype={c: "string" for c in df.columns if df[c].dtype == "string"})
            back = back.astype(df.dtypes.to_dict())
        else:
            back = pd.read_parquet(path)
        pd.testing.assert_frame_equal(back, df, check_dtype=kind == "parquet")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(f"{n}.{kind}" for n in TableWriter.NAMES)


def test_writer_refuses_existing_files_and_discard_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "games.csv").write_text("keep")
    with pytest.raises(OutputError, match="already exists"):
        TableWriter(tmp_path, "csv")
    writer = TableWriter(tmp_path, "csv", force=True)
    for r in run([SAMPLES / "corpus-10.jsonl"]):
        writer.add(r)
    writer.discard()
    assert [p.name for p in tmp_path.iterdir()] == ["games.csv"]
    assert (tmp_path / "games.csv").read_text() == "keep"


def test_describe_lists_every_column() -> None:
    text = describe(GAME_COLUMNS)
    assert text.count("\n") == len(GAME_COLUMNS) + 1 and "| `winner_position` | Int64 |" in text


def test_the_bot_authors_guide_lists_the_columns() -> None:
    page = (ROOT / "docs" / "bot-authors.md").read_text(encoding="utf-8")
    for columns in (GAME_COLUMNS, TURN_COLUMNS, FINDING_COLUMNS):
        assert describe(columns) in page
