"""One of a thing is singular in every message: no "1 errors", "1 games", "1 tiles"."""

from __future__ import annotations

from conftest import findings, game, place

from qwirkle_tools.analysis.analyse import analyse
from qwirkle_tools.analysis.rescore import rescore
from qwirkle_tools.analysis.validate import check_data
from qwirkle_tools.corpus.rows import game_rows
from qwirkle_tools.corpus.stats import Stats
from qwirkle_tools.formats.record import from_data
from qwirkle_tools.formats.sources import Source
from qwirkle_tools.outputs.reporting import summary
from qwirkle_tools.play.engine import replay


def test_a_report_of_one_turn_with_one_error() -> None:
    history = replay(from_data(game(place(0, "rc@0,0", 5))))  # scores 1, claims 5: one error
    assert [f.severity for f in history.findings] == ["error"]
    text = summary("one.json", history, rescore(history), analyse(history))
    assert "1 turn" in text and "1 turns" not in text
    assert "invalid: 1 error, 0 warnings" in text


def test_stats_of_one_game() -> None:
    import json

    stats = Stats()
    text = json.dumps(game(place(0, "rc@0,0", 1), place(1, "rs@1,0", 2))).encode()
    stats.add(game_rows(Source("one.json", 0, text)))
    assert "  2 players, 1 game: " in stats.text()


def test_the_setup_and_result_messages_count_right() -> None:
    one = game(place(0, "rc@0,0", 1), players=2, result={"scores": [1]})
    assert findings(one)  # the result's one score for two players
    text = " ".join(f.message for f in check_data(one)[1])
    assert "1 score for 2 players" in text and "1 scores" not in text


def test_the_endgame_solver_of_a_record_of_one_turn() -> None:
    import pytest

    from qwirkle_tools.engines.endgame import NotAnEndgame, position

    record = from_data(game(place(0, "rc@0,0", 1)))
    with pytest.raises(NotAnEndgame) as told:
        position(record, turn=5)
    assert "the record has 1 turn (" in str(told.value)
