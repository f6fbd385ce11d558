"""A turn's top candidates and an engine's verdict (qwirkle_tools.analysis.verdicts)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_on_the_pure_build

from qwirkle_tools.analysis import verdicts
from qwirkle_tools.analysis.analyse import analyse, legal_moves
from qwirkle_tools.analysis.annotation import analysis_data
from qwirkle_tools.analysis.verdicts import SHOWN, Position, Verdict, engine, lookahead
from qwirkle_tools.core.board import Placement, format_move, key_cell
from qwirkle_tools.core.movegen import generate_raw
from qwirkle_tools.engines.lookahead import judge
from qwirkle_tools.play.engine import History
from qwirkle_tools.play.load import load_history

SAMPLES = Path(__file__).parents[2] / "sample_games"


def sample(name: str) -> History:
    return load_history(SAMPLES / name)


def placed(tiles: tuple[Placement, ...]) -> frozenset[tuple[int, int, int]]:
    return frozenset((int(p.tile), p.x, p.y) for p in tiles)


@pytest.mark.parametrize("name", ["296-295.json", "complete-2p.json", "weak-play.json"])
def test_every_judged_turn_lists_the_best_scoring_moves_with_what_each_loses(name: str) -> None:
    history = sample(name)
    analysis = analyse(history)
    judged = [t for t in analysis.turns if t.best_score is not None and t.moves]
    assert len(judged) > 40
    for t in judged:
        listing = legal_moves(history, t.turn)
        found = t.candidates
        assert len(found) == min(SHOWN, len(listing.moves)) and (len(found) >= 5 or len(found) == t.moves)
        # the same scores as the full listing's first, best first, and each is a legal move at that score
        assert [c.score for c in found] == list(listing.scores[:len(found)])
        legal = {placed(m.tiles): s for m, s in zip(listing.moves, listing.scores)}
        assert all(legal[placed(c.move.tiles)] == c.score for c in found)
        assert [c.lost for c in found] == [t.best_score - c.score for c in found]
        assert found[0].score == t.best_score and t.best is not None and placed(found[0].move.tiles) == placed(t.best.tiles)
        turn = history.turns[t.turn - 1]
        assert turn is not None
        mine = placed(turn.tiles) if turn.tiles else None
        assert [c.played for c in found] == [placed(c.move.tiles) == mine for c in found]
        assert all(c.value is None and c.value_lost is None for c in found)


def test_a_turn_that_played_a_top_move_has_it_marked_and_written() -> None:
    analysis = analyse(sample("296-295.json"))
    marked = [t for t in analysis.turns if any(c.played for c in t.candidates)]
    assert marked and all(sum(c.played for c in t.candidates) == 1 for t in marked)
    data = analysis_data(analysis)
    turns = data["turns"]
    assert isinstance(turns, list)
    for t, d in zip(analysis.turns, turns):
        if t.candidates:
            assert [c["score"] for c in d["candidates"]] == [c.score for c in t.candidates]
            assert [c.get("played", False) for c in d["candidates"]] == [c.played for c in t.candidates]
            assert all("value" not in c for c in d["candidates"])


def test_the_lookahead_values_every_candidate_as_the_engine_does_alone() -> None:
    history = sample("296-295.json")
    analysis = analyse(history, "lookahead")
    checked = 0
    for t in analysis.turns:
        v = t.verdict
        if v is None or t.turn not in (2, 8, 14, 30, 59):
            continue
        assert v.engine == "lookahead" and t.lookahead is v
        found = t.candidates
        values = [c.value for c in found]
        assert None not in values and values == sorted(values, reverse=True)  # type: ignore[type-var]
        # each value is the engine's judgement of that move alone (the same sampled racks)
        state = history.before(t.turn - 1)
        rack, _ = history.known_rack(t.turn - 1)
        assert rack is not None
        raw = generate_raw(state.board.cells, rack, history.record.rules, not state.board.cells)
        by_tiles = {frozenset((int(tile), x, y) for tile, (x, y) in
                              zip(m[3], (key_cell(k) for k in m[2]))): m for m in raw}
        for c in found:
            move = by_tiles[placed(c.move.tiles)]
            unseen = state.unseen(t.player)
            pool = [k for k in range(36) for _ in range(unseen[k])]
            reply = state.rack_sizes[1 - t.player] or 6
            _, alone = judge(dict(state.board.cells), [], rack, pool, reply, state.bag, history.record.rules, t.turn,
                             played=move)
            assert alone is not None and c.value == pytest.approx(alone.value)
            assert c.value_lost == pytest.approx(max(0.0, v.best_value - alone.value))
        if v.best is not None and any(placed(c.move.tiles) == placed(v.best.tiles) for c in found):
            assert found[0].value == pytest.approx(v.best_value) and found[0].value_lost == 0
        checked += 1
    assert checked == 5
    flagged = [t.turn for t in analysis.turns if "better-move" in t.flags]
    assert flagged == [2, 8, 14, 59]


def test_the_verdict_is_written_under_its_engines_name_with_valued_candidates() -> None:
    data = analysis_data(analyse(sample("296-295.json"), "lookahead"))
    turns = data["turns"]
    assert isinstance(turns, list)
    judged = [t for t in turns if "lookahead" in t]
    assert len(judged) == 64
    for t in judged:
        assert set(t["lookahead"]) == {"best", "best_value", "played_value", "value_lost"}
        assert all({"value", "value_lost", "lost", "score", "tiles"} <= set(c) for c in t["candidates"])


def test_an_engine_is_one_function_chosen_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []

    def fixed(position: Position, settings: object = None) -> Verdict:
        # an engine that values every candidate at its score less its index, and the played move at 0
        seen.append(position.index)
        values = tuple(float(m[0] - k) for k, m in enumerate(position.candidates))
        return Verdict("fixed", None, 0, max(values, default=0.0), 0.0, values)

    monkeypatch.setitem(verdicts.ENGINES, "fixed", fixed)
    history = sample("complete-2p.json")
    analysis = analyse(history, "fixed")  # type: ignore[arg-type]
    judged = [t for t in analysis.turns if t.verdict is not None]
    assert judged and seen == [t.turn - 1 for t in judged]
    assert all(t.lookahead is None and t.verdict.engine == "fixed" for t in judged)  # type: ignore[union-attr]
    turns = analysis_data(analysis)["turns"]
    assert isinstance(turns, list) and all("fixed" in d for d, t in zip(turns, analysis.turns) if t.verdict)
    assert all(("better-move" in t.flags) == (t.verdict is not None and t.verdict.best_value > 3) for t in analysis.turns)


def test_an_unknown_engine_is_named() -> None:
    with pytest.raises(ValueError, match="no engine 'deep'"):
        engine("deep")
    assert engine("lookahead") is lookahead


def test_a_flag_names_the_engines_move() -> None:
    analysis = analyse(sample("296-295.json"), "lookahead")
    t = next(t for t in analysis.turns if "better-move" in t.flags)
    assert t.verdict is not None and t.verdict.best is not None
    from qwirkle_tools.analysis.annotation import flag_details

    detail = dict(flag_details(t))["better-move"]
    assert detail.startswith(format_move(t.verdict.best.tiles))


def test_an_annotated_records_verdicts_are_read_back_not_judged_again(monkeypatch: pytest.MonkeyPatch,
                                                                     request: pytest.FixtureRequest) -> None:
    """``view`` and ``report`` of a record annotated with an engine take its verdicts from the record
    (``reuse``): the same best moves, values to two decimals, flags; the engine is not run at all."""
    if run_on_the_pure_build(request):  # (the analysis's engine picker spied on)
        return
    import qwirkle_tools.analysis.analyse as analysis_module
    from qwirkle_tools import from_data, load
    from qwirkle_tools.analysis.annotation import annotated

    record = load(SAMPLES / "complete-2p.json")
    first = analyse(record, "lookahead")
    written = from_data(annotated(record, first))

    def no_engine(*_: object, **__: object) -> object:
        raise AssertionError("the engine ran")

    monkeypatch.setattr(analysis_module, "pick_engine", lambda *_: no_engine)
    again = analyse(written, "lookahead", reuse=True)
    judged = [(a, b) for a, b in zip(first.turns, again.turns) if a.verdict is not None]
    assert len(judged) > 20
    for a, b in judged:
        assert b.verdict is not None and a.verdict is not None
        assert b.verdict.best == a.verdict.best and b.verdict.best_value == pytest.approx(a.verdict.best_value, abs=0.005)
        assert b.verdict.played_value == pytest.approx(a.verdict.played_value, abs=0.005)
        assert b.verdict.values == pytest.approx(a.verdict.values, abs=0.005) and a.flags == b.flags
    with pytest.raises(AssertionError, match="the engine ran"):  # without reuse, or with no verdict recorded, it judges
        analyse(written, "lookahead")
