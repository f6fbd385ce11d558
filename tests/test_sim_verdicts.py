"""The simulation engine in the analysis (``annotate --engine sim``): seeded, every candidate valued,
and in a bag-empty two-player turn the endgame solver's exact loss."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from qwirkle_tools.analysis import verdicts
from qwirkle_tools.analysis.analyse import Analysis, analyse, recorded_engine
from qwirkle_tools.formats.record import from_data
from qwirkle_tools.play.endgame import position, solve
from qwirkle_tools.play.load import load_history

SAMPLE = Path(__file__).parent.parent / "sample_games" / "296-295.json"


@pytest.fixture(scope="module")
def judged() -> Iterator[Analysis]:
    # a smaller solver budget than the analysis's own (the game's 6-against-6 turns take seconds
    # each at 20,000 positions): the last turns are still proven, the first bag-empty ones not
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(verdicts, "ENDGAME_NODES", 2_000)
        yield analyse(load_history(SAMPLE), "sim")


def test_the_same_record_gives_the_same_analysis() -> None:
    history = load_history(SAMPLE)
    short = dataclasses.replace(history.record, turns=history.record.turns[:12], result=None)
    first, again = analyse(short, "sim"), analyse(short, "sim")
    assert [t.verdict for t in first.turns] == [t.verdict for t in again.turns]
    assert sum(1 for t in first.turns if t.verdict is not None) >= 10


@pytest.mark.slow
def test_every_judged_turn_has_the_sims_verdict_and_valued_candidates(judged: Analysis) -> None:
    turns = [t for t in judged.turns if t.best_score is not None and t.action == "place"]
    assert turns and all(t.verdict is not None and t.verdict.engine == "sim" for t in turns)
    for t in turns:
        assert t.verdict is not None
        values = [c.value for c in t.candidates]
        assert all(v is not None for v in values)
        assert t.verdict.best_value >= t.verdict.played_value - 1e-9 or t.verdict.value_lost == 0
    assert judged.players[0].value_lost is not None


def test_a_bag_empty_turn_carries_the_solvers_exact_loss(judged: Analysis) -> None:
    record = load_history(SAMPLE).record
    exact = [t for t in judged.turns if t.exact_loss is not None]
    assert exact, "the 296-295 game ends with the bag empty: its last turns are solved"
    for t in exact[:3]:
        game, played = position(record, t.turn)
        assert game.bag_size == 0 and played is not None
        solution = solve(game, seconds=None, include=[played])
        assert solution.proven
        assert t.exact_loss == solution.loss(played)
    assert all(t.exact_loss is None for t in judged.turns if t.turn < exact[0].turn)


def test_an_annotated_record_names_its_engine(judged: Analysis) -> None:
    from qwirkle_tools.analysis.analyse import annotated

    data = annotated(load_history(SAMPLE), judged)
    assert recorded_engine(from_data(data)) == "sim"
    last = data["turns"][-1]["analysis"]  # type: ignore[index]
    assert "exact_loss" in last["sim"]
