"""The same tiles, exactly: a turn whose rack is not recorded is judged by the best placement
of the very tiles it played (hand-built cases whose answers are worked out by hand)."""

from __future__ import annotations

from conftest import run_cli

from qwirkle_tools.analysis.analyse import analyse
from qwirkle_tools.analysis.annotation import analysis_data
from qwirkle_tools.analysis.sametiles import same_tiles
from qwirkle_tools.core.board import cell_key
from qwirkle_tools.formats.qgn import parse_qgn
from qwirkle_tools.formats.record import from_data

# Ben's red clover scores 2 above the red circle; left of the row it makes rl rc rx rd rt: 5
CLUB = """Players: Ana, Ben

1. Ana rc@0,0 rx@1,0 rd@2,0 rt@3,0 4
2. Ben rl@0,-1 2
3. Ana gl@0,-2 2
"""


def analysed(text: str):  # type: ignore[no-untyped-def]
    return analyse(from_data(parse_qgn(text).data))


def test_a_turn_whose_tiles_scored_more_elsewhere_says_where_and_how_much() -> None:
    turn = analysed(CLUB).turns[1]
    assert turn.rack == "placed-tiles" and turn.same_tiles is not None
    assert (str(turn.same_tiles.best), turn.same_tiles.best.score, turn.same_tiles.gain) == ("rl@-1,0", 5, 3)
    assert "same-tiles" in turn.flags
    assert turn.to_data()["same_tiles"] == {"best": {"tiles": [{"tile": "red-clover", "x": -1, "y": 0}], "score": 5,
                                                     "qwirkles": 0}, "gain": 3}


def test_a_turn_that_placed_its_tiles_as_well_as_they_go_gains_nothing() -> None:
    first = analysed(CLUB).turns[0]  # four tiles in a row on an empty table: 4, the only way
    assert first.same_tiles is not None and first.same_tiles.gain == 0 and "same-tiles" not in first.flags


def test_the_summary_says_the_same_tiles_total_and_that_the_racks_are_not_recorded() -> None:
    analysis = analysed(CLUB)
    ben = analysis.players[1]
    assert ben.same_tiles == (3, 1)
    assert analysis_data(analysis)["players"][1]["same_tiles"] == {"gain": 3, "turns": 1}  # type: ignore[index]


def test_annotate_prints_the_same_tiles(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = tmp_path / "club.qgn"
    game.write_text(CLUB, encoding="utf-8")
    code, out, _ = run_cli("annotate", str(game))
    assert code == 0
    assert "  turn 2: same-tiles: with the same tiles: rl@-1,0 scores 5 (3 more)" in out.splitlines()
    assert "Ben: 2 points" in out and "the racks not recorded: with the same tiles, 3 points more over 1 turn" in out


def test_a_turn_with_its_rack_recorded_is_judged_by_the_rack_not_the_same_tiles() -> None:
    from pathlib import Path

    from qwirkle_tools import load

    analysis = analyse(load(Path(__file__).parents[2] / "sample_games" / "complete-2p.json"))
    assert all(t.same_tiles is None for t in analysis.turns) and analysis.players[0].same_tiles is None


def test_the_end_bonus_counts_for_a_placement_of_every_tile_when_the_turn_earned_it() -> None:
    one, two = cell_key(0, 0), cell_key(1, 0)
    moves = [(5, 0, (one,), (1,)), (4, 0, (one, two), (1, 2))]  # one tile for 5, both for 4
    went_out = same_tiles(moves, placed=2, played=4 + 6, bonus=6)  # both tiles were the whole rack: 4 + 6
    assert went_out is not None and (went_out.best.score, went_out.gain, len(went_out.best.tiles)) == (10, 0, 2)
    stayed = same_tiles(moves, placed=2, played=4, bonus=0)
    assert stayed is not None and (stayed.best.score, stayed.gain, len(stayed.best.tiles)) == (5, 1, 1)
    assert same_tiles([], placed=1, played=0, bonus=0) is None
