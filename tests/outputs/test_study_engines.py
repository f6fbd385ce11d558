"""The engine's verdicts carried past ``annotate``: ``view`` of an annotated record (or
``view --engine``), ``report --engine``, and the page data they write."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from qwirkle_tools.analysis.analyse import analyse
from qwirkle_tools.analysis.recorded import recorded_engine
from qwirkle_tools.cli.app import app
from qwirkle_tools.formats.record import loads
from qwirkle_tools.play.load import load_history

SAMPLES = Path(__file__).parents[2] / "sample_games"
GAME = SAMPLES / "296-295.json"
FLAGGED = [2, 8, 14, 59]  # the turns the look-ahead engine flags better-move in this game (the issue names them)


def page_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', html, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found[1])
    return data


def better(data: dict[str, Any]) -> list[int]:
    return [n for n, t in enumerate(data["turns"], 1) if t.get("verdict", {}).get("better")]


@pytest.fixture(scope="module")
def annotated_la(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("la") / "la.json"
    result = CliRunner().invoke(app, ["annotate", str(GAME), "--engine", "lookahead", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    return out


def test_the_annotated_record_names_its_engine(annotated_la: Path) -> None:
    record = loads(annotated_la.read_bytes())
    assert record.extra["analysis"]["engine"] == "lookahead"  # type: ignore[index]
    assert recorded_engine(record) == "lookahead"
    assert recorded_engine(loads(GAME.read_bytes())) == "greedy"
    # a record annotated before the engine was named: read off its turns' verdicts
    data = json.loads(annotated_la.read_text())
    del data["analysis"]["engine"]
    assert recorded_engine(loads(json.dumps(data).encode())) == "lookahead"
    data["analysis"]["engine"] = "deep"  # one this version does not know, with no verdict in the turns
    for turn in data["turns"]:
        turn["analysis"].pop("lookahead", None)
    assert recorded_engine(loads(json.dumps(data).encode())) == "greedy"


def test_view_of_an_annotated_record_carries_the_engines_verdicts(annotated_la: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["view", str(annotated_la), "-o", str(tmp_path / "la.html")]).exit_code == 0
    data = page_data((tmp_path / "la.html").read_text())
    assert better(data) == FLAGGED
    analysis = analyse(load_history(GAME), "lookahead")
    for t, entry in zip(analysis.turns, data["turns"]):
        assert t.verdict is not None
        assert entry["verdict"] == {"engine": "lookahead", "best_value": round(t.verdict.best_value, 2),
                                    "played_value": round(t.verdict.played_value, 2),
                                    "value_lost": round(t.verdict.value_lost, 2), "better": t.turn in FLAGGED}
        assert [c["v"] for c in entry["cands"]] == [round(c.value or 0, 2) for c in t.candidates]
        assert entry["best"]["by"] == "lookahead"
    assert data["lost"]["kind"] == "value"
    assert data["lost"]["values"] == [round(t.verdict.value_lost, 2) for t in analysis.turns if t.verdict]
    # --engine overrides what the record names; a plain record views greedy, as before
    assert runner.invoke(app, ["view", str(annotated_la), "-o", str(tmp_path / "g.html"), "--engine", "greedy"]).exit_code == 0
    greedy = page_data((tmp_path / "g.html").read_text())
    assert better(greedy) == [] and all("verdict" not in t for t in greedy["turns"]) and greedy["lost"]["kind"] == "points"
    assert runner.invoke(app, ["view", str(GAME), "-o", str(tmp_path / "p.html")]).exit_code == 0
    assert page_data((tmp_path / "p.html").read_text())["lost"]["kind"] == "points"
    assert runner.invoke(app, ["view", str(GAME), "-o", str(tmp_path / "e.html"), "-e", "lookahead"]).exit_code == 0
    assert better(page_data((tmp_path / "e.html").read_text())) == FLAGGED


def test_report_with_an_engine_carries_its_verdicts_everywhere(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["report", str(GAME), "-o", str(tmp_path / "r"), "--engine", "lookahead"])
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "r"
    assert all(f"turn {n}: better-move" in result.stdout for n in FLAGGED)
    assert "better-move" in (folder / "summary.txt").read_text()
    rows = list(csv.DictReader(io.StringIO((folder / "turns.csv").read_text())))
    assert [int(r["turn"]) for r in rows if "better-move" in r["flags"]] == FLAGGED
    assert all(r["value_lost"] != "" for r in rows)
    assert better(page_data((folder / "game.html").read_text())) == FLAGGED
    assert json.loads((folder / "annotated.json").read_text())["analysis"]["engine"] == "lookahead"
    plain = CliRunner().invoke(app, ["report", str(GAME), "-o", str(tmp_path / "g")])
    assert plain.exit_code == 0 and "better-move" not in plain.stdout
    assert all(r["value_lost"] == "" for r in csv.DictReader(io.StringIO((tmp_path / "g" / "turns.csv").read_text())))
    bad = CliRunner().invoke(app, ["report", str(GAME), "-o", str(tmp_path / "x"), "--engine", "deep"])
    assert bad.exit_code == 2 and not (tmp_path / "x").exists()


def test_an_endgame_loss_given_by_the_analysis_reaches_the_page() -> None:
    from dataclasses import dataclass

    from qwirkle_tools.outputs.pageanalysis import turn_analysis

    t = analyse(load_history(GAME)).turns[60]
    assert "exact" not in turn_analysis(t, None)  # optional: absent until the analysis gives it

    @dataclass(frozen=True)
    class WithExact:  # the field another part of the analysis may add; the page takes it as given
        inner: Any
        exact_loss: int = 4

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

    assert turn_analysis(WithExact(t), None)["exact"] == 4  # type: ignore[arg-type]
