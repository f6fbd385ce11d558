"""Re-scoring: the table of claimed and computed scores, and the corrected record."""

from __future__ import annotations

from conftest import game, place, simulated

from qwirkle_tools.analysis.rescore import corrected, rescore
from qwirkle_tools.analysis.validate import check_data
from qwirkle_tools.formats.record import from_data
from qwirkle_tools.play.engine import replay


def small() -> dict[str, object]:
    return game(place(0, "rc@0,0 rx@1,0", 2), place(1, "rd@2,0", 5), place(0, score=4),
                {"player": 1, "action": "exchange", "count": 2}, result={"scores": [6, 5], "end": "unfinished"})


def test_rows_give_claim_computation_breakdown_and_running_totals() -> None:
    table = rescore(from_data(small()))
    rows = table.rows
    assert [(r.turn, r.name, r.action, r.tiles) for r in rows] == [
        (1, "Ana", "place", "rc@0,0 rx@1,0"), (2, "Ben", "place", "rd@2,0"), (3, "Ana", "place", ""),
        (4, "Ben", "exchange", "2 tiles")]
    assert [(r.claimed, r.computed, r.breakdown) for r in rows] == [
        (2, 2, "2 = 2"), (5, 3, "3 = 3"), (4, None, ""), (None, 0, "")]
    assert [r.differs for r in rows] == [False, True, False, False]
    assert [r.totals for r in rows] == [(2, 0), (2, 3), (6, 3), (6, 3)]
    assert table.totals == (6, 3) and table.differences == 1 and table.wrong


def test_text_marks_the_differences_and_ends_with_the_totals() -> None:
    text = rescore(from_data(small())).text().splitlines()
    assert text[0].split()[:4] == ["turn", "player", "action", "tiles"]
    assert "!" in text[2] and "!" not in text[1]
    assert text[-1] == "final: Ana 6, Ben 3; 1 turn score differs; the total written for Ben is 5, the turns add up to 3"


def test_corrected_record_takes_the_computed_scores_and_validates() -> None:
    fixed = corrected(from_data(small()))
    assert [t.score for t in fixed.turns] == [2, 3, 4, 0]  # an exchange scores 0
    assert fixed.result is not None and fixed.result.scores == (6, 3) and fixed.result.end == "unfinished"
    assert check_data(fixed.to_data())[1] == []
    assert not rescore(fixed).wrong


def test_a_whole_game_rescores_to_its_result_and_a_history_is_reused() -> None:
    data = simulated(3, 4)
    history = replay(from_data(data))
    table = rescore(history)
    assert not table.wrong and list(table.totals) == data["result"]["scores"]
    assert [r.computed for r in table.rows] == [t["score"] for t in data["turns"]]
    assert rescore(from_data(data)) == table


def test_setup_scores_are_in_the_totals() -> None:
    data = game(place(0, "rc@0,0 rx@1,0", 2), setup={"board": [], "scores": [10, 20]}, result={"scores": [12, 20]})
    table = rescore(from_data(data))
    assert table.rows[0].totals == (12, 20) and table.totals == (12, 20) and not table.wrong
