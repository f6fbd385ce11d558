"""The win-chance chart (qwirkle_tools.outputs.winchart) and the report's picture of it."""

from __future__ import annotations

from pathlib import Path

from qwirkle_tools import load
from qwirkle_tools.analysis.analyse import analyse
from qwirkle_tools.outputs import charts
from qwirkle_tools.outputs.reporting import build
from qwirkle_tools.outputs.winchart import series, win_chance

SAMPLES = Path(__file__).parents[2] / "sample_games"


def test_the_series_is_the_first_players_chance_and_ends_with_the_result() -> None:
    record = load(SAMPLES / "296-295.json")  # Ben, second, goes out on the last turn and wins by one
    analysis = analyse(record)
    points = series(analysis)
    assert [turn for turn, _ in points] == [t.turn for t in analysis.turns if t.win is not None]
    assert all(0.0 <= chance <= 1.0 for _, chance in points)
    assert points[-1] == (64, 0.0)
    assert max(chance for _, chance in points[:-1]) > 0.9  # Ana led all game
    fig = win_chance(analysis, record.names, "Ana - Ben")
    ax = fig.axes[0]
    assert ax.get_ylim() == (0.0, 1.0) and ax.get_title().startswith("Win chance: Ana - Ben")
    marked = {text.get_text() for text in ax.texts}
    assert "63 decisive" in marked  # Ana's turn 63, the decisive one (the endgame solved)
    assert any(text.startswith("estimated from the lead") for text in marked)
    assert charts.render(fig, "png")[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_report_draws_it_only_where_the_board_and_two_players_allow() -> None:
    assert "win-chance.png" in build(load(SAMPLES / "296-295.json"), "296-295.json").files
    assert "win-chance.png" not in build(load(SAMPLES / "score-sheet.json"), "score-sheet.json").files
