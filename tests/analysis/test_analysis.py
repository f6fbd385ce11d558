"""Analysis on hand-built positions with known answers, and on whole games."""

from __future__ import annotations

import copy
import json
from typing import Any

from conftest import endgame, game, place, simulated

from qwirkle_tools.analysis.analyse import analyse, legal_moves
from qwirkle_tools.analysis.annotation import annotated
from qwirkle_tools.analysis.validate import check_data
from qwirkle_tools.formats.record import dumps, from_data
from qwirkle_tools.play.engine import check, replay

REDS = [{"tile": t, "x": x, "y": 0} for x, t in enumerate(["red-circle", "red-cross", "red-diamond", "red-square", "red-star"])]


def test_a_rack_that_could_make_a_qwirkle_and_did_not() -> None:
    # five reds in a row; the rack holds the red clover, but a blue circle is played under the red circle
    data = game(place(0, "bc@0,1", 2, rack="rl bc yd gs pt ox"), setup={"board": REDS})
    assert check_data(data)[1] == []
    (turn,) = analyse(from_data(data)).turns
    assert turn.rack == "recorded" and turn.played == 2 and turn.best_score == 12
    assert turn.points_lost == 10 and turn.flags == ("missed-qwirkle",)
    assert turn.missed_qwirkle is not None and turn.missed_qwirkle.qwirkles == 1
    assert {(p.x, p.y) for p in turn.missed_qwirkle.tiles} in ({(5, 0)}, {(-1, 0)})
    assert turn.rank is not None and turn.moves is not None and 1 < turn.rank <= turn.moves


def test_a_double_qwirkle_available() -> None:
    clovers = [{"tile": t, "x": 5, "y": y} for y, t in
               enumerate(["blue-clover", "green-clover", "yellow-clover", "orange-clover", "purple-clover"], 1)]
    data = game(place(0, "bc@0,1", 2, rack="rl bc yd gs pt ox"), setup={"board": REDS + clovers})
    (turn,) = analyse(from_data(data)).turns
    assert turn.best_score == 24 and turn.best is not None and turn.best.qwirkles == 2
    assert turn.missed_qwirkle is not None and turn.missed_qwirkle.qwirkles == 2
    assert [(p.x, p.y, str(p.tile)) for p in turn.missed_qwirkle.tiles] == [(5, 0, "red-clover")]


def test_playing_the_qwirkle_is_not_flagged() -> None:
    data = game(place(0, "rl@5,0", 12, rack="rl bc yd gs pt ox"), setup={"board": REDS})
    (turn,) = analyse(from_data(data)).turns
    assert turn.flags == () and turn.points_lost == 0 and turn.rank == 1 and turn.qwirkles == 1


def test_a_qwirkle_gift() -> None:
    # a row of four reds; Ana makes it five (the red clover is still unseen), Ben completes it
    data = game(place(0, "rt@4,0", 5), place(1, "rl@5,0", 12), setup={"board": REDS[:4]})
    assert check_data(data)[1] == []
    first, second = analyse(from_data(data)).turns
    assert first.flags == ("open-five", "qwirkle-gift") and second.flags == ()
    assert first.gift is not None and first.gift.completed_at == 2 and str(first.gift.missing) == "red-clover"
    assert first.gift.line == tuple((x, 0) for x in range(5))


def test_no_gift_when_the_sixth_tile_is_all_on_the_table() -> None:
    seen = [{"tile": "red-clover", "x": x, "y": 5} for x in (0, 2, 4)]
    data = game(place(0, "rt@4,0", 5), place(1, "bs@3,1", 2), setup={"board": REDS[:4] + seen})
    assert all(t.gift is None for t in analyse(from_data(data)).turns)


def test_exchange_while_a_placement_was_possible() -> None:
    data = game({"player": 0, "action": "exchange", "tiles": ["blue-circle"], "draw": ["green-star"],
                 "rack": ["red-clover", "blue-circle", "yellow-diamond", "green-square", "purple-star", "orange-cross"]},
                setup={"board": REDS})
    (turn,) = analyse(from_data(data)).turns
    assert "could-place" in turn.flags and "missed-qwirkle" in turn.flags
    assert turn.played == 0 and turn.points_lost == 12 and turn.moves is not None and turn.rank is None  # not a placement


def test_unknown_rack_checks_only_the_placed_tiles() -> None:
    # the red clover went above the red circle (2 points) where it could have completed the row
    data = game(place(0, "rl@0,-1", 2), setup={"board": REDS})
    (turn,) = analyse(from_data(data)).turns
    assert turn.rack == "placed-tiles" and turn.flags == ("missed-qwirkle", "same-tiles", "inferred-loss")
    assert turn.points_lost is None and turn.best_score is None and "rack unknown" in turn.note
    assert turn.same_tiles is not None and (turn.same_tiles.best.score, turn.same_tiles.gain) == (12, 10)  # the Qwirkle


def test_two_player_endgame_rack_is_deduced() -> None:
    full = simulated(2, 3)
    bare = copy.deepcopy(full)
    for turn in bare["turns"]:
        if turn["player"] == 1:
            turn.pop("rack", None)
            turn.pop("draw", None)
    a_full = analyse(from_data(full)).turns
    a_bare = analyse(from_data(bare)).turns
    endgame = [i for i, t in enumerate(a_bare) if t.player == 1 and t.rack == "deduced"]
    assert endgame, "the bag empties before Bot 2's last turns"
    for i in endgame:
        assert a_bare[i].best_score == a_full[i].best_score and a_bare[i].moves == a_full[i].moves


# with the bag empty, rc@0,0 scores 8 (rc rx rd rs across, rc bc gc yc down); yc@4,-1 rc@4,0
# scores 6 but empties the rack: 6 + 6 = 12
GOING_OUT = "rx@1,0 rd@2,0 rs@3,0 bc@0,1 gc@0,2 yc@0,3"


def test_moves_are_ranked_by_what_they_score_end_bonus_included() -> None:
    data = endgame(GOING_OUT, "rc yc", 3, place(0, "yc@4,-1 rc@4,0", 12))
    assert check_data(data)[1] == []  # the replay (rescore) gives the move going out its 12
    history = replay(from_data(data))
    (turn,) = analyse(history).turns
    listed = legal_moves(history, 1)
    assert listed.scores == tuple(sorted(listed.scores, reverse=True))
    best, score = listed.moves[0], listed.scores[0]
    assert (score, len(best.tiles), best.score) == (12, 2, 6) == (turn.best_score, 2, 6)
    one_tile = listed.moves.index(next(m for m in listed.moves if len(m.tiles) == 1 and m.score == 8))
    assert listed.scores[one_tile] == 8 and all(len(m.tiles) == 2 for m in listed.moves[:one_tile])  # only moves going out
    assert all(s == m.score + (6 if len(m.tiles) == 2 else 0) for m, s in zip(listed.moves, listed.scores))
    assert listed.to_data(1)["moves"] == [{"tiles": [{"tile": "yellow-circle", "x": 4, "y": -1},
                                                     {"tile": "red-circle", "x": 4, "y": 0}],
                                           "score": 12, "qwirkles": 0}]
    assert list(listed.lines(1))[1] == "  12  yc@4,-1 rc@4,0  +6 end bonus"
    # the rules' switch is the one the replay uses; without a bonus the 8 comes first
    data["rules"] = {"end_bonus": 0}
    plain = legal_moves(replay(from_data(data)), 1)
    assert (plain.scores[0], len(plain.moves[0].tiles)) == (8, 1)
    assert plain.scores == tuple(m.score for m in plain.moves)


def test_greedy_self_play_loses_nothing_and_summaries_add_up() -> None:
    data = simulated(2, 5)
    result = analyse(from_data(data))
    for p, summary in enumerate(result.players):
        assert summary.score == data["result"]["scores"][p]
        assert summary.qwirkles_made == sum(t.qwirkles for t in result.turns if t.player == p)
        assert summary.analysed_turns == sum(1 for t in result.turns if t.player == p)
    # greedy plays the best score (before any end bonus) every turn
    lost = [t for t in result.turns if t.points_lost]
    assert all(t.best is not None and t.played is not None and t.best_score == t.played + (t.points_lost or 0)
               for t in lost)
    assert all(t.points_lost == 6 for t in lost)  # only a missed chance to go out can cost


def test_annotate_is_idempotent_valid_and_keeps_comments() -> None:
    data = simulated(2, 6)
    data["turns"][3]["comment"] = "a human note"
    once = annotated(from_data(data))
    twice = annotated(from_data(json.loads(dumps(once))))
    assert dumps(once) == dumps(twice)
    assert check_data(once)[1] == []
    turns: Any = once["turns"]
    assert turns[3]["comment"] == "a human note"
    assert all("analysis" in t for t in turns)
    summary: Any = once["analysis"]
    assert summary["tool"] == "qwirkle-tools" and len(summary["players"]) == 2
    stripped = json.loads(dumps(once))
    del stripped["analysis"]
    for t in stripped["turns"]:
        del t["analysis"]
    assert stripped == data  # nothing else changed


def test_turns_on_a_board_fuller_than_the_game_are_not_analysed() -> None:
    # illegal moves stay on the board: a record can put thousands of tiles there, and generating
    # every move on each turn took hours (found by fuzzing); past the game's 108 tiles, no analysis
    names = ["red-circle", "blue-cross", "green-star"]
    turns = [{"player": i % 2, "action": "place", "tiles": [{"tile": names[i % 3], "x": 2 * (i % 20), "y": 2 * (i // 20)}],
              "score": 1, "rack": [names[i % 3], "purple-clover"]} for i in range(112)]
    analysis = analyse(from_data(game(*turns)))
    assert [t.best_score is None for t in analysis.turns[107:]] == [False, False, True, True, True]
    # the replay puts no 109th tile down: the board is no longer known (a too-many-tiles finding says why)
    assert analysis.turns[-1].note.startswith("not analysed: the board is not known")
    assert [f.code for f in check(from_data(game(*turns))) if f.code == "too-many-tiles"] == ["too-many-tiles"]


# -- a score-sheet turn (score written, tiles not) is judged by its claim -------------

def sheet_turn(claim: int, board: list[dict[str, Any]]) -> Any:
    data = game(place(0, score=claim, rack="rl bc yd gs pt ox"), setup={"board": board})
    assert check_data(data)[1] == []
    (turn,) = analyse(from_data(data)).turns
    return turn


def test_a_score_sheet_turn_that_made_the_qwirkle() -> None:
    turn = sheet_turn(12, REDS)
    assert turn.played == 12 and turn.best_score == 12 and turn.points_lost == 0 and turn.rank == 1
    assert turn.flags == ()  # a claim of 12 may be the Qwirkle: not a missed one (was: played 0, lost 12, flagged)


def test_a_score_sheet_turn_below_the_qwirkle() -> None:
    turn = sheet_turn(2, REDS)
    assert turn.played == 2 and turn.points_lost == 10 and turn.flags == ("missed-qwirkle",)
    assert turn.rank is not None and turn.moves is not None and 1 < turn.rank <= turn.moves


def test_a_score_sheet_claim_bounds_the_qwirkles_it_made() -> None:
    clovers = [{"tile": t, "x": 5, "y": y} for y, t in
               enumerate(["blue-clover", "green-clover", "yellow-clover", "orange-clover", "purple-clover"], 1)]
    turn = sheet_turn(13, REDS + clovers)  # at most one Qwirkle in 13 points; the best move made two
    assert turn.best_score == 24 and turn.points_lost == 11 and turn.flags == ("missed-qwirkle",)
    assert sheet_turn(24, REDS + clovers).flags == ()
    summary = analyse(from_data(game(place(0, score=24, rack="rl bc yd gs pt ox"),
                                     setup={"board": REDS + clovers}))).players[0]
    assert summary.accuracy == 1.0 and summary.points_lost == 0


# -- the analysis' cost is bounded ---------------------------------------------------------

def crowded_record(turns: int) -> dict[str, Any]:
    from conftest import CIRCLES, crowded

    ana = {"player": 0, "action": "exchange", "tiles": CIRCLES.split(), "rack": CIRCLES.split()}
    ben = {"player": 1, "action": "exchange", "count": 1}
    data = game(*[ana if i % 2 == 0 else ben for i in range(turns)], setup=crowded())
    data["turns"] = [{**t, "tiles": [{"rc": "red-circle", "oc": "orange-circle", "yc": "yellow-circle",
                                      "gc": "green-circle", "bc": "blue-circle", "pc": "purple-circle"}[s]
                                     for s in t["tiles"]], "rack": None} if "rack" in t else t for t in data["turns"]]
    for t in data["turns"]:
        if t.get("rack", 0) is None:
            t["rack"] = t["tiles"]
    return data


def test_a_turn_with_too_many_legal_moves_is_noted_not_analysed() -> None:
    from qwirkle_tools.analysis.analyse import MOVES_PER_TURN

    data = crowded_record(2)
    assert check_data(data)[1] == []
    first = analyse(from_data(data)).turns[0]
    assert first.best_score is None and first.moves is None
    assert first.note == f"not analysed: more than {MOVES_PER_TURN:,} legal moves (the analysis bound for a turn)"


def test_a_record_spends_a_bounded_number_of_moves(monkeypatch: Any) -> None:
    import qwirkle_tools.analysis.analyse as analysis

    monkeypatch.setattr(analysis, "MOVES_PER_TURN", 10**7)
    monkeypatch.setattr(analysis, "MOVES_PER_RECORD", 10**7)
    whole = analyse(from_data(crowded_record(2))).turns[0].moves
    assert whole is not None and whole > 100_000
    monkeypatch.setattr(analysis, "MOVES_PER_RECORD", whole + 1_000)
    turns = analyse(from_data(crowded_record(8))).turns
    assert turns[0].moves == whole  # analysed whole, within the budget
    spent = [t.turn for t in turns if t.note.startswith(f"not analysed: the analysis bound of {whole + 1_000:,}")]
    assert spent == [3, 5, 7]


def test_accuracy_is_at_most_one_when_an_illegal_move_scores_more_than_any_legal_one() -> None:
    # Ben's Qwirkle laid far from the board, of tiles not in his rack, is illegal but counts 12 by the
    # usual count; his best legal move scores 2: the share of the best he played is 100 %, not 600 %
    data = game(place(0, "rc@0,0 rx@1,0", 2, rack="rc rx yd gs bt pl"),
                place(1, "oc@9,9 ox@10,9 od@11,9 os@12,9 ot@13,9 ol@14,9", 12, rack="yc bs pt ol gl os"))
    summary = analyse(replay(from_data(data))).players[1]
    assert summary.analysed_turns == 1 and summary.best_available == 2
    assert summary.accuracy == 1.0 and summary.points_lost == 0


def test_the_flagged_count_is_of_turns_not_flags() -> None:
    from qwirkle_tools.analysis.annotation import summary_text

    data = game({"player": 0, "action": "exchange", "tiles": ["blue-circle"], "draw": ["green-star"],
                 "rack": ["red-clover", "blue-circle", "yellow-diamond", "green-square", "purple-star", "orange-cross"]},
                setup={"board": REDS})
    analysis = analyse(from_data(data))
    assert len(analysis.flagged) == 1 and len(analysis.flagged[0].flags) == 2
    text = summary_text(analysis)
    assert "flagged turns: 1 (2 flags)" in text and text.count("  turn 1: ") == 2


def test_the_analysis_engines_are_players_of_the_one_registry() -> None:
    """``annotate --engine NAME`` judges by the player a match or self-play knows by that name."""
    from typing import get_args

    from qwirkle_tools.analysis.analyse import Engine
    from qwirkle_tools.cli.common import Engine as EngineOption
    from qwirkle_tools.engines.policies import BUILT_IN

    assert {e.value for e in EngineOption} == set(get_args(Engine)) <= set(BUILT_IN)
