"""The 296-295 sample game: legal, complete, and the finish of the seeds' photo."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from qwirkle_tools.analysis.validate import validate
from qwirkle_tools.formats.record import from_data
from qwirkle_tools.play.engine import replay

SAMPLES = Path(__file__).parent.parent / "sample_games"
GAME = SAMPLES / "296-295.json"
SCRIPT = SAMPLES.parent / "tools" / "search_296_295.py"


@pytest.fixture(scope="module")
def data() -> Any:
    return json.loads(GAME.read_text(encoding="utf-8"))


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("search_296_295", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


def _running(data: Any) -> list[tuple[int, int]]:
    totals = [0] * len(data["players"])
    out = []
    for turn in data["turns"]:
        totals[turn["player"]] += turn.get("score", 0)
        out.append((totals[0], totals[1]))
    return out


def test_validates_with_no_findings() -> None:
    (report,) = validate([GAME])
    assert report.findings == ()
    assert report.valid


def test_result_is_296_295_out_and_replays(data: Any) -> None:
    assert [p["name"] for p in data["players"]] == ["Ana", "Ben"]
    assert sorted(data["result"]["scores"]) == [295, 296]
    assert data["result"]["end"] == "out"
    assert list(replay(from_data(data)).totals) == data["result"]["scores"]
    assert list(_running(data)[-1]) == data["result"]["scores"]


def test_every_turn_records_rack_and_draw(data: Any) -> None:
    for turn in data["turns"]:
        assert "rack" in turn
        if turn["action"] != "pass":
            assert "draw" in turn
            assert "tiles" in turn


def test_winner_trails_all_game_and_leads_only_at_the_end(data: Any) -> None:
    scores = data["result"]["scores"]
    winner = scores.index(296)
    loser = 1 - winner
    totals = _running(data)
    behind = [t[winner] < t[loser] for t in totals]
    ahead = [t[winner] > t[loser] for t in totals]
    assert sum(behind) >= 0.75 * len(totals)
    # the turns with the winner ahead are the last few, and only those
    first_ahead = ahead.index(True)
    assert all(ahead[first_ahead:])
    assert len(totals) - first_ahead <= 3


def test_game_looks_like_a_real_one(data: Any) -> None:
    turns = data["turns"]
    assert 40 <= len(turns) <= 70
    assert all(turn["player"] == i % 2 for i, turn in enumerate(turns))
    assert any(turn["action"] == "exchange" for turn in turns)


def test_script_makes_the_same_data(data: Any) -> None:
    assert _script().make() == data
