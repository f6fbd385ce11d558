"""Inferred racks (qwirkle_tools.analysis.inference): racks the record forces are the truth, the
draws' chances are counted right, and the player model tells a greedy player from a random one."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from typing import Any

import pytest

from qwirkle_tools import from_data
from qwirkle_tools.analysis.analyse import analyse
from qwirkle_tools.analysis.annotation import summary_text
from qwirkle_tools.analysis.inference import SAMPLES, _supplied, infer
from qwirkle_tools.engines.selfplay import simulate
from qwirkle_tools.play.history import replay


def stripped(data: dict[str, Any]) -> dict[str, Any]:
    bare = json.loads(json.dumps(data))
    for turn in bare["turns"]:
        turn.pop("rack", None)
        turn.pop("draw", None)
    return bare


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_a_rack_the_later_plays_force_is_judged_as_the_truth(seed: int) -> None:
    """With the bag empty, a player who went out held exactly what they went on to place: where
    that fills the rack, every rack drawn is the true one, and the inferred loss is the true loss."""
    data = simulate(2, seed, ["greedy", "random"])
    truth = analyse(from_data(data), endgames=False, inference=False)
    history = replay(from_data(stripped(data)))
    record = history.record
    assert record.result is not None and record.result.end == "out"
    last = record.turns[-1].player
    forced = []
    for i, turn in enumerate(record.turns):
        state = history.before(i)
        if turn.player != last or state.bag != 0 or turn.action != "place" or not turn.tiles:
            continue
        later = sum(len(t.tiles or ()) for t in record.turns[i + 1:] if t.player == last)
        if state.rack_sizes[last] == len(turn.tiles) + later:
            forced.append(i)
    assert forced  # (the last turn at least)
    found = infer(history, forced)
    for i in forced:
        assert found[i].samples == SAMPLES
        assert found[i].expected_loss == truth.turns[i].points_lost
        assert found[i].better == (1.0 if truth.turns[i].points_lost else 0.0)


def test_a_rack_drawn_holds_the_tiles_played_so_it_loses_at_least_what_they_lose() -> None:
    """Every rack drawn holds the tiles played: the inferred loss is at least the same tiles' (a fact),
    and a better move existed in every rack where the same tiles alone had one."""
    analysis = analyse(from_data(stripped(simulate(2, 6, ["random", "equity"]))), endgames=False)
    judged = [t for t in analysis.turns if t.inferred is not None and t.same_tiles is not None]
    assert len(judged) > 40
    for t in judged:
        assert t.inferred is not None and t.same_tiles is not None
        assert t.inferred.expected_loss >= t.same_tiles.gain - 1e-9
        if t.same_tiles.gain:
            assert t.inferred.better == pytest.approx(1.0)


def test_the_same_record_gives_the_same_inference() -> None:
    data = stripped(simulate(2, 5, ["random", "greedy"]))
    first, again = analyse(from_data(data)), analyse(from_data(data))
    assert [t.inferred for t in first.turns] == [t.inferred for t in again.turns]
    assert sum(t.inferred is not None for t in first.turns) > 40


@pytest.mark.parametrize("draws", [1, 2, 3])
def test_the_chance_a_draw_supplies_the_tiles_lacking_is_counted_by_brute_force(draws: int) -> None:
    pool = Counter({0: 2, 1: 1, 5: 3, 9: 2})  # 8 copies
    copies = [t for t, n in pool.items() for _ in range(n)]
    for needed, kept in [(Counter({0: 1}), Counter()), (Counter({0: 2, 5: 1}), Counter({0: 1})),
                         (Counter({1: 1, 9: 1}), Counter()), (Counter({5: 1}), Counter({5: 1}))]:
        hands = list(combinations(range(len(copies)), draws))
        good = sum(not (needed - kept - Counter(copies[i] for i in hand)) for hand in hands)
        assert _supplied(needed, kept, pool, draws) == pytest.approx(good / len(hands))


def test_the_player_model_tells_a_greedy_player_from_a_random_one() -> None:
    data = simulate(2, 11, ["greedy", "random"])
    truth = analyse(from_data(data), endgames=False, inference=False)
    inferred = analyse(from_data(stripped(data)), endgames=False)
    sharpness = {t.player: t.inferred.sharpness for t in inferred.turns if t.inferred is not None}
    assert sharpness[0] > sharpness[1]
    for p, summary in enumerate(inferred.players):
        assert summary.inferred is not None and truth.players[p].points_lost is not None
    greedy, weak = (s.inferred[0] for s in inferred.players if s.inferred is not None)
    true_weak = truth.players[1].points_lost
    assert true_weak is not None and abs(weak - true_weak) < 0.25 * true_weak
    assert greedy < 0.1 * weak  # (the greedy player lost nothing; its figure is small, not 0: inferred)


def test_a_rack_less_record_shows_the_inferred_figures_as_inferred() -> None:
    analysis = analyse(from_data(stripped(simulate(2, 2))))
    turn = next(t for t in analysis.turns if t.inferred is not None)
    data = turn.to_data()["inferred"]
    assert isinstance(data, dict) and data["samples"] == turn.inferred.samples  # type: ignore[union-attr]
    assert f"inferred over {turn.inferred.samples} racks" in turn.inferred.text()  # type: ignore[union-attr]
    assert "inferred, " in summary_text(analysis) and f"({SAMPLES} racks drawn a turn)" in summary_text(analysis)
    assert analysis.players[0].to_data()["inferred"]["racks_a_turn"] == SAMPLES  # type: ignore[index]
