"""Win chances (qwirkle_tools.analysis.winchance): the curve, a turn's chances and its class, and the
calibration on games the model was not fitted to."""

from __future__ import annotations

from pathlib import Path

import pytest

from qwirkle_tools import from_data, load
from qwirkle_tools.analysis.analyse import analyse
from qwirkle_tools.analysis.annotation import summary_text
from qwirkle_tools.analysis.winchance import CLASSES, TEMPO, WinChance, chances, playout_chance, win_chance
from qwirkle_tools.engines.selfplay import game_seed, simulate
from qwirkle_tools.play.history import replay

SAMPLES = Path(__file__).parents[2] / "sample_games"


def test_the_chance_grows_with_the_lead_and_narrows_as_the_tiles_run_out() -> None:
    leads = [win_chance(lead, 60) for lead in range(-40, 41, 5)]
    assert leads == sorted(leads) and leads[0] < 0.1 and leads[-1] > 0.9
    assert win_chance(TEMPO, 60) == pytest.approx(0.5)
    assert win_chance(20, 80) < win_chance(20, 30) < win_chance(20, 5)  # the same lead is surer near the end
    assert (win_chance(3, 0, over=True), win_chance(0, 0, over=True), win_chance(-1, 0, over=True)) == (1.0, 0.5, 0.0)


def test_a_turn_loses_the_chance_between_the_best_move_and_the_move_played() -> None:
    same = chances(lead=0, played=10, best=10, tiles=50, placed=2, best_placed=2, ends=False, best_ends=False)
    assert same.lost == 0 and same.kind is None
    worse = chances(lead=0, played=2, best=24, tiles=20, placed=1, best_placed=3, ends=False, best_ends=False)
    assert worse.best > worse.played and worse.lost == pytest.approx(worse.best - worse.played)
    assert worse.kind == "blunder" and worse.lost >= CLASSES[0][1]
    for lost, kind in ((0.16, "blunder"), (0.12, "mistake"), (0.06, "inaccuracy"), (0.04, None)):
        assert WinChance(0.5, 0.5 + lost).kind == kind
    out = chances(lead=-5, played=12, best=12, tiles=6, placed=6, best_placed=6, ends=True, best_ends=True)
    assert out.played == 1.0  # the move that goes out and wins is the result


def test_a_playouts_end_is_read_from_the_side_of_whoever_played_last() -> None:
    for lead, tiles in ((12, 40), (-7, 10), (0, 70)):
        assert playout_chance(lead, tiles, True, False) == win_chance(lead, tiles)  # the mover just played
        # the other player just played: their chance, turned round
        assert playout_chance(lead, tiles, False, False) == pytest.approx(1 - win_chance(-lead, tiles))
        assert playout_chance(lead, tiles, False, False) > playout_chance(lead, tiles, True, False)  # the mover to move
    assert (playout_chance(2, 0, False, True), playout_chance(0, 0, True, True), playout_chance(-2, 0, False, True)) \
        == (1.0, 0.5, 0.0)


def test_every_turn_of_a_recorded_game_is_classed_and_the_summary_counts_them() -> None:
    analysis = analyse(load(SAMPLES / "weak-play.json"))
    judged = [t for t in analysis.turns if t.win is not None]
    assert len(judged) == sum(t.best_score is not None for t in analysis.turns)
    for t in judged:
        assert t.win is not None and 0.0 <= t.win.played <= t.win.best <= 1.0
        if t.points_lost == 0:
            assert t.win.lost == 0 and t.win.kind is None
    for p, summary in enumerate(analysis.players):
        kinds = [t.win.kind for t in judged if t.player == p and t.win is not None]
        assert summary.classes == tuple(kinds.count(name) for name, _ in CLASSES)
    assert any(summary.classes[0] for summary in analysis.players)  # the weak game has blunders
    assert "by win chance" in summary_text(analysis) and "blunders (a win chance lost of 15 points" in summary_text(analysis)
    data = judged[0].to_data()["win_chance"]
    assert isinstance(data, dict) and set(data) == {"played", "best", "lost", "class", "inferred", "source"}
    assert data["source"] == "model" and "playouts" not in judged[0].win.text()


def test_a_rack_less_turns_win_chance_is_inferred() -> None:
    data = simulate(2, 4, ["random", "greedy"])
    for turn in data["turns"]:
        turn.pop("rack", None)
        turn.pop("draw", None)
    turns = analyse(from_data(data), endgames=False).turns
    inferred = [t for t in turns if t.win is not None and t.inferred is not None]
    assert len(inferred) > 40 and all(t.win is not None and t.win.inferred for t in inferred)


def test_the_chance_is_calibrated_on_games_it_was_not_fitted_to() -> None:
    """60 games of seed 7000 (the fit used seed 200): where the model says 90 % or more the mover
    went on to win at least 85 % of the time, and 10 % or less at most 15 %."""
    high, low = [], []
    for g in range(60):
        history = replay(from_data(simulate(2, game_seed(7000, g), [("greedy", "random"), ("random", "random"),
                                                                     ("greedy", "greedy")][g % 3])))
        final = history.totals
        for i, turn in enumerate(history.turns):
            assert turn is not None
            p = turn.player
            after = history.state(i + 1)
            chance = win_chance(after.scores[p] - after.scores[1 - p], 108 - len(after.board), after.ended is not None)
            won = 1.0 if final[p] > final[1 - p] else 0.5 if final[p] == final[1 - p] else 0.0
            if chance >= 0.9:
                high.append(won)
            elif chance <= 0.1:
                low.append(won)
    assert len(high) > 300 and len(low) > 300
    assert sum(high) / len(high) >= 0.85 and sum(low) / len(low) <= 0.15
