"""Decisive endgame moves: the move that turned a win into a loss, named by the default analysis."""

from __future__ import annotations

import json
from pathlib import Path

from brute_force import after, minimax

from qwirkle_tools.analysis.analyse import analyse
from qwirkle_tools.analysis.decisive import decisive
from qwirkle_tools.engines.endgame_position import position
from qwirkle_tools.formats.record import from_data, loads
from qwirkle_tools.play.engine import replay

GAME = Path(__file__).parents[2] / "sample_games" / "296-295.json"


def test_296_295s_turn_63_is_decisive_and_the_brute_force_agrees() -> None:
    record = loads(GAME.read_text(encoding="utf-8"))
    found = [t for t in analyse(record).turns if t.decisive is not None]
    assert [t.turn for t in found] == [63]
    turn = found[0]
    assert "decisive" in turn.flags and turn.decisive is not None
    game, played = position(record, 63)
    assert played is not None
    seen: dict[object, int] = {}
    lead = game.scores[0] - game.scores[1]  # Ana to move, 293 to 287
    assert (turn.decisive.best, turn.decisive.played) == (lead + minimax(game, seen), lead + after(game, played, seen))
    assert turn.decisive.text().startswith("it turns a win by 1 into a loss by 2, best play after")


def test_a_game_without_racks_that_ended_out_still_names_it() -> None:
    data = json.loads(GAME.read_text(encoding="utf-8"))
    for t in data["turns"]:  # as a club records it: the moves and the scores
        t.pop("rack", None)
        t.pop("draw", None)
    history = replay(from_data(data))
    assert decisive(history, 62) is not None and decisive(history, 61) is None  # turn 62 (Ben's) decided nothing


def test_a_corpus_leaves_the_endgames_out() -> None:
    record = loads(GAME.read_text(encoding="utf-8"))
    assert all(t.decisive is None for t in analyse(record, endgames=False).turns)


def test_the_decisive_moments_are_each_players_worst_turn_and_the_endgames_decisive_move() -> None:
    from qwirkle_tools import load
    from qwirkle_tools.analysis.annotation import MOMENT, decisive_moments, summary_text

    analysis = analyse(loads(GAME.read_text(encoding="utf-8")))
    moments = decisive_moments(analysis)
    assert 63 in [t.turn for t in moments]
    for t in moments:
        assert t.decisive is not None or (t.win is not None and t.win.lost >= MOMENT - 1e-9)
        if t.decisive is None:  # a player's worst turn: no turn of theirs lost more chance
            assert t.win is not None and all(u.win is None or u.win.lost <= t.win.lost for u in analysis.turns
                                             if u.player == t.player)
    line = next(x for x in summary_text(analysis).splitlines() if x.startswith("decisive moments:"))
    assert "turn 63 (Ana: it turns a win by 1 into a loss by 2)" in line
    weak = analyse(load(GAME.parent / "weak-play.json"))
    worst = {p: max(t.win.lost for t in weak.turns if t.win is not None and t.player == p) for p in (0, 1)}
    assert sorted((t.player, t.win.lost) for t in decisive_moments(weak) if t.win is not None) == sorted(worst.items())
