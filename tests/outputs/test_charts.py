"""Charts: the data they draw, checked against the replay; the files they write."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import game, place

from qwirkle_tools.formats.record import Record, from_data, loads
from qwirkle_tools.outputs import charts
from qwirkle_tools.outputs.charts import ChartData, LeadChange, Margin, QwirkleMark, progression_data
from qwirkle_tools.play.engine import replay

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "sample_games"


def sample(name: str) -> Record:
    return loads((SAMPLES / name).read_text())


def claims(*scores: int, players: int = 2) -> dict[str, Any]:
    """A score-sheet record: turn i scores ``scores[i]`` for seat ``i % players``."""
    return game(*(place(i % players, score=s) for i, s in enumerate(scores)), players=players)


# -- the data --------------------------------------------------------------------

@pytest.mark.parametrize("name", ["complete-2p.json", "score-sheet.json", "weak-play.json"])
def test_series_run_from_zero_to_the_result(name: str) -> None:
    record = sample(name)
    data = progression_data(record)
    assert record.result is not None and record.result.scores is not None
    assert data.players == tuple(p.name for p in record.players)
    assert data.final == record.result.scores
    assert len(data.series) == len(data.points) == len(record.players)
    for p, series in enumerate(data.series):
        assert series[0] == (0, 0)
        assert [t for t, _ in series] == list(range(len(record.turns) + 1))
        assert series[-1] == (len(record.turns), data.final[p])
        assert all(a[1] <= b[1] for a, b in zip(series, series[1:]))  # totals never fall
        assert sum(t.points for t in data.points[p]) == data.final[p]
        assert all(t.player == p for t in data.points[p])


def test_qwirkle_marks_are_the_turns_whose_breakdown_has_qwirkles() -> None:
    record = sample("complete-2p.json")
    expected = [QwirkleMark(r.index + 1, r.turn.player, r.state.scores[r.turn.player], r.score.qwirkles)
                for r in replay(record) if r.turn is not None and r.score is not None and r.score.qwirkles]
    data = progression_data(record)
    assert len(expected) == 8
    assert list(data.qwirkles) == expected
    for mark in data.qwirkles:  # each star sits on its player's line
        assert data.series[mark.player][mark.turn] == (mark.turn, mark.score)


def test_score_sheet_marks_no_qwirkles_and_says_they_are_unknown() -> None:
    data = progression_data(sample("score-sheet.json"))
    assert data.qwirkles == ()
    turns = [t for seat in data.points for t in seat]
    assert all(t.qwirkles is None for t in turns if t.action == "place")
    assert all(t.qwirkles == 0 for t in turns if t.action != "place")
    assert not data.annotated and all(t.points_lost is None for t in turns)


def test_lead_changes_ignore_ties_and_the_first_leader() -> None:
    #          Ana leads, Ben takes it, tie, Ben again, Ana takes it, tie, Ana again
    data = progression_data(from_data(claims(5, 7, 2, 1, 4, 3, 1)))
    assert data.lead_changes == (LeadChange(2, 1), LeadChange(5, 0))
    assert [(m.margin, m.leader) for m in data.margins()] == [
        (0, None), (5, 0), (-2, 1), (0, None), (-1, 1), (3, 0), (0, None), (1, 0)]
    assert data.final == (12, 11)


def test_margins_with_more_players_are_the_leaders_lead_over_second() -> None:
    data = progression_data(from_data(claims(4, 6, 6, 5, players=3)))  # 4-0-0, 4-6-0, 4-6-6, 9-6-6
    assert data.margins() == (Margin(0, 0, None), Margin(1, 4, 0), Margin(2, 2, 1), Margin(3, 0, None),
                              Margin(4, 3, 0))
    assert data.lead_changes == (LeadChange(2, 1), LeadChange(4, 0))


def test_titles() -> None:
    assert progression_data(sample("complete-2p.json")).title == "Ana 197 - 203 Ben"
    assert progression_data(from_data(claims(120, 110, 90, players=3))).title == "Ana 120 · Ben 110 · Cy 90"


def test_points_lost_come_from_the_turn_analysis() -> None:
    data = claims(5, 7, 2)
    data["turns"][0]["analysis"] = {"rack": "unknown", "points_lost": 3}
    data["turns"][1]["analysis"] = {"rack": "unknown"}  # analysed, but nothing worked out
    chart = progression_data(from_data(data))
    assert chart.annotated
    assert [(t.turn, t.points, t.points_lost) for t in chart.points[0]] == [(1, 5, 3), (3, 2, None)]
    assert [(t.turn, t.points, t.points_lost) for t in chart.points[1]] == [(2, 7, None)]


def test_a_game_with_no_turns() -> None:
    data = progression_data(from_data(game()))
    assert data.series == (((0, 0),), ((0, 0),)) and data.final == (0, 0) and data.turn_count == 0
    assert data.margins() == (Margin(0, 0, None),)


# -- the drawings and the files -----------------------------------------------------

@pytest.fixture(scope="module")
def complete() -> ChartData:
    return progression_data(sample("complete-2p.json"))


def test_svg_holds_the_title_and_names_and_is_reproducible(complete: ChartData, tmp_path: Path) -> None:
    first, second = tmp_path / "a.svg", tmp_path / "b.svg"
    charts.save(charts.progression(complete), first)
    charts.save(charts.progression(complete), second)  # a fresh figure, the same bytes
    text = first.read_text()
    assert "Ana 197 - 203 Ben" in text
    assert "Ana (197)" in text and "Ben (203)" in text
    assert "Qwirkle (8)" in text
    assert first.read_bytes() == second.read_bytes()


def test_png_is_a_png_of_sensible_size(complete: ChartData, tmp_path: Path) -> None:
    path = tmp_path / "lead.png"
    charts.save(charts.lead(complete), path)
    raw = path.read_bytes()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(raw) > 10_000
    width, height = int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")
    assert width > height > 500
    assert [p.name for p in tmp_path.iterdir()] == ["lead.png"]  # no temporary file left behind


@pytest.mark.parametrize("draw", [charts.progression, charts.lead, charts.turns])
def test_draws_on_the_axes_given(complete: ChartData, draw: Any) -> None:
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.add_subplot()
    assert draw(complete, ax=ax) is fig
    assert ax.get_title().endswith("Ana 197 - 203 Ben")
    assert ax.has_data() and ax.get_legend() is not None
    assert fig.axes == [ax]


def test_turns_chart_shows_points_lost_where_annotated(tmp_path: Path) -> None:
    data = claims(5, 7, 2)
    data["turns"][0]["analysis"] = {"rack": "unknown", "points_lost": 3}
    fig = charts.turns(from_data(data))
    legend = fig.axes[0].get_legend()
    assert legend is not None
    labels = [t.get_text() for t in legend.get_texts()]
    assert labels == ["Ana scored 7", "Ana lost 3", "Ben scored 7"]
    assert fig.axes[0].get_title() == "Points per turn and points lost: Ana 7 - 7 Ben"


def test_many_players_and_awkward_names_draw(tmp_path: Path) -> None:
    data = claims(*range(12), players=6)
    for player, name in zip(data["players"], ["$x$ Sam", "_hidden", "A" * 40, "Di", "Ed", "Flo"]):
        player["name"] = name
    chart = progression_data(from_data(data))
    for draw in (charts.progression, charts.lead, charts.turns):
        charts.save(draw(chart), tmp_path / f"{draw.__name__}.svg")
    text = (tmp_path / "progression.svg").read_text()
    assert "$x$ Sam" in text and "_hidden" in text and "A" * 21 + "..." in text  # no mathtext, none left out


def test_axes_carry_a_few_labels_whatever_the_totals() -> None:
    # a valid score sheet's totals may reach 10^9 (10,000 turns of up to 100,000): a handful of labels, not thousands
    from qwirkle_tools.formats.sheets import MAX_POINTS

    chart = progression_data(from_data(claims(*[MAX_POINTS] * 2_000)))
    for draw in (charts.progression, charts.lead, charts.turns):
        ax = draw(chart).axes[0]
        low, high = ax.get_ylim()
        shown = [v for v in ax.get_yticks() if low <= v <= high]
        assert 2 <= len(shown) <= 10 and 2 <= len(ax.get_xticks()) <= 14, draw.__name__


def test_save_refuses_other_formats(tmp_path: Path) -> None:
    from matplotlib.figure import Figure

    with pytest.raises(ValueError, match="use .png or .svg"):
        charts.save(Figure(), tmp_path / "chart.pdf")
    assert list(tmp_path.iterdir()) == []


def test_docstring_examples_run() -> None:
    assert doctest.testmod(charts).failed == 0


def test_importing_charts_does_not_import_matplotlib() -> None:
    code = "import sys, qwirkle_tools.outputs.charts; print('matplotlib' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert proc.stdout.strip() == "False"


def test_implausible_points_lost_are_left_out(tmp_path: Path) -> None:
    # a record may hold any "analysis": 10**30 points lost overflowed the turns chart (found by fuzzing)
    data = claims(5, 7, 2, 4)
    for turn, lost in zip(data["turns"], [10**30, -1, 2**64, 4]):
        turn["analysis"] = {"points_lost": lost}
    chart = progression_data(from_data(data))
    assert [t.points_lost for p in chart.points for t in p] == [None, None, None, 4]
    charts.save(charts.turns(chart), tmp_path / "turns.svg")
