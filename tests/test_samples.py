"""The bundled sample games: each produces exactly the findings its README promises."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qwirkle_tools.analysis.validate import validate
from qwirkle_tools.formats.record import from_data
from qwirkle_tools.play.engine import replay

SAMPLES = Path(__file__).parent.parent / "sample_games"

EXPECTED = {
    "complete-2p.json": [],
    "weak-play.json": [],
    "296-295.json": [],
    "double-qwirkle.json": [],
    "mistakes.json": [("score-mismatch", 10), ("line-mixed", 66)],
    "score-sheet.json": [],
    "296-295.qgn": [],
    "296-295-sheet.csv": [],
    "club-night.qgn": [("slip", 2)],
    # (the result is the scores written added up: wrong only by the turns told, and said with them)
    "wrong-scores.json": [("score-mismatch", 5), ("score-mismatch", 10)],
    "bookkeeping.json": [
        ("draw-count", 3), ("rack-mismatch", 5), ("tile-not-in-rack", 8), ("line-mixed", 8), ("line-mixed", 8),
        ("rack-mismatch", 10), ("illegal-pass", 12), ("illegal-pass", 13), ("tile-overused", 36),
    ],
    "illegal-moves.json": [
        ("gap", 3), ("line-mixed", 4), ("line-mixed", 4), ("not-in-line", 5), ("duplicate-in-line", 6),
        ("not-connected", 7), ("cell-occupied", 8), ("result-mismatch", None), ("result-mismatch", None),
    ],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_findings_are_pinned(name: str) -> None:
    (report,) = validate([SAMPLES / name])
    assert [(f.code, f.turn) for f in report.findings] == EXPECTED[name]


def test_every_sample_is_pinned_and_described() -> None:
    files = {p.name for suffix in ("json", "qgn", "csv") for p in SAMPLES.glob(f"*.{suffix}")}
    assert files == set(EXPECTED)
    readme = (SAMPLES / "README.md").read_text()
    for name in [*files, "corpus-10.jsonl"]:
        assert f"`{name}`" in readme


def test_double_qwirkle_game() -> None:
    from qwirkle_tools.play.engine import replay

    data = json.loads((SAMPLES / "double-qwirkle.json").read_text())
    doubles = [(r.index + 1, r.score.total) for r in replay(from_data(data)) if r.score is not None and r.score.qwirkles == 2]
    assert doubles and doubles[0][0] == 28 and doubles[0][1] >= 24
    assert data["turns"][27]["score"] == doubles[0][1]


def test_mistakes_game_has_missed_qwirkles_for_the_analysis() -> None:
    from qwirkle_tools.analysis.analyse import analyse

    data = json.loads((SAMPLES / "mistakes.json").read_text())
    flagged = {t.turn for t in analyse(from_data(data)).turns if "missed-qwirkle" in t.flags}
    assert {53, 59, 61, 63} <= flagged


def test_corpus_is_all_valid() -> None:
    reports = list(validate([SAMPLES / "corpus-10.jsonl"]))
    assert len(reports) == 10 and all(r.valid and not r.findings for r in reports)


def test_complete_game_has_racks_draws_and_exchanges() -> None:
    data = json.loads((SAMPLES / "complete-2p.json").read_text())
    turns = data["turns"]
    assert len(data["players"]) == 2 and data["result"]["end"] == "out"
    assert all("rack" in t for t in turns) and all("draw" in t for t in turns if t["action"] != "pass")
    assert any(t["action"] == "exchange" for t in turns)
    assert list(replay(from_data(data)).totals) == data["result"]["scores"]


def test_score_sheet_has_scores_only() -> None:
    data = json.loads((SAMPLES / "score-sheet.json").read_text())
    assert not any(k in t for t in data["turns"] for k in ("tiles", "rack", "draw"))
    assert list(replay(from_data(data)).totals) == data["result"]["scores"]


def test_samples_are_reproducible(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_samples", SAMPLES / "make_samples.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "HERE", tmp_path)
    module.main()
    for path in tmp_path.iterdir():
        assert path.read_bytes() == (SAMPLES / path.name).read_bytes(), path.name
