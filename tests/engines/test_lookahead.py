"""The look-ahead engine and open lines of five, on hand-built positions with known answers."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest
from conftest import game, place, run_on_the_pure_build, simulated

from qwirkle_tools.analysis.analyse import analyse, chance_held, open_fives
from qwirkle_tools.analysis.annotation import analysis_data, annotated
from qwirkle_tools.analysis.validate import check_data
from qwirkle_tools.core.board import Placement
from qwirkle_tools.core.movegen import generate_raw
from qwirkle_tools.core.rules import DEFAULT_RULES
from qwirkle_tools.core.tiles import parse_tiles
from qwirkle_tools.engines.lookahead import MARGIN, Settings, choose, judge, sample_racks
from qwirkle_tools.engines.selfplay import seat_policies, simulate
from qwirkle_tools.formats.record import from_data
from qwirkle_tools.play.engine import replay

FOUR_REDS = [{"tile": t, "x": x, "y": 0} for x, t in enumerate(["red-circle", "red-cross", "red-diamond", "red-square"])]


def cells_of(text: str) -> dict[int, int]:
    return {p.key: int(p.tile) for p in map(Placement.parse, text.split())}


def tiles(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text.split())]


# -- open lines of five -------------------------------------------------------------

def test_a_five_with_all_three_sixth_tiles_unseen() -> None:
    # four reds on the board; Ana (rack rt bc yd gs pt ox) makes them five: the red clover completes it
    data = game(place(0, "rt@4,0", 5, rack="rt bc yd gs pt ox"), setup={"board": FOUR_REDS})
    assert check_data(data)[1] == []
    (turn,) = analyse(from_data(data)).turns
    assert turn.flags == ("open-five",)
    (five,) = turn.open_fives
    assert str(five.missing) == "red-clover" and five.unseen == 3
    assert five.line == tuple((x, 0) for x in range(5)) and five.cells == ((-1, 0), (5, 0))
    # unseen by Ana: 108 tiles less 5 on the board less the 5 she still holds = 98; Ben holds 6 of them
    by_hand = 1 - 869_107_785 / 1_052_618_392  # 1 - C(95,6) / C(98,6): no red clover among Ben's 6
    assert math.comb(95, 6) == 869_107_785 and math.comb(98, 6) == 1_052_618_392
    assert five.chance == pytest.approx(by_hand) and turn.open_five_risk == pytest.approx(by_hand)
    assert round(by_hand, 4) == 0.1743


def test_a_sixth_tile_in_the_movers_own_rack_is_not_unseen() -> None:
    # Ana holds a red clover herself: two copies are unseen, and she missed the Qwirkle
    data = game(place(0, "rt@4,0", 5, rack="rt rl bc yd gs pt"), setup={"board": FOUR_REDS})
    (turn,) = analyse(from_data(data)).turns
    assert turn.flags == ("missed-qwirkle", "open-five")
    assert turn.open_fives[0].unseen == 2
    assert turn.open_five_risk == pytest.approx(1 - math.comb(96, 6) / math.comb(98, 6))


def test_no_open_five_when_every_sixth_tile_is_seen_or_no_end_fits() -> None:
    seen = [{"tile": "red-clover", "x": x, "y": 5} for x in (0, 2, 4)]
    data = game(place(0, "rt@4,0", 5), setup={"board": FOUR_REDS + seen})
    assert analyse(from_data(data)).turns[0].open_fives == ()
    # both ends blocked: a blue cross above (-1,0) and (5,0) lets no red clover in
    blocked = [{"tile": "blue-cross", "x": -1, "y": -1}, {"tile": "blue-square", "x": -1, "y": -2},
               {"tile": "green-cross", "x": 5, "y": -1}, {"tile": "green-star", "x": 5, "y": -2}]
    data = game(place(0, "rt@4,0", 5), setup={"board": FOUR_REDS + blocked})
    assert check_data(data)[1] == []
    assert analyse(from_data(data)).turns[0].open_fives == ()


def test_chance_held_is_the_hypergeometric_tail() -> None:
    assert chance_held(98, 3, 6) == pytest.approx(1 - math.comb(95, 6) / math.comb(98, 6))
    assert chance_held(6, 1, 6) == 1.0  # the whole pool is the rack
    assert chance_held(10, 0, 6) == 0.0 and chance_held(10, 2, 0) == 0.0


def test_open_fives_in_the_tables_and_the_annotation() -> None:
    data = game(place(0, "rt@4,0", 5, rack="rt bc yd gs pt ox"), setup={"board": FOUR_REDS})
    record = from_data(data)
    analysis = analyse(record)
    turn = annotated(record, analysis)["turns"][0]["analysis"]  # type: ignore[index]
    assert turn["flags"] == ["open-five"]
    assert turn["open_fives"] == [{"line": [[x, 0] for x in range(5)], "missing": "red-clover",
                                   "cells": [[-1, 0], [5, 0]], "unseen": 3, "chance": 0.1743}]
    assert analysis.players[0].open_fives == 1 and analysis.players[1].open_fives == 0
    from qwirkle_tools.analysis.rescore import rescore
    from qwirkle_tools.outputs.reporting import CSV_COLUMNS, turn_table_csv

    history = replay(record)
    header, row = csv.reader(io.StringIO(turn_table_csv(rescore(history), analysis)))
    values = dict(zip(header, row))
    assert "open_fives" in CSV_COLUMNS and values["open_fives"] == "1" and values["open_five_risk"] == "0.1743"


# -- the look-ahead engine ------------------------------------------------------------

SAFE_BOARD = "rc@0,0 rx@1,0 rd@2,0 rs@3,0"


def test_the_engine_prefers_the_move_that_opens_no_qwirkle() -> None:
    # the red star scores 5 but makes a five the red clover completes; the blue square under
    # the red square scores 2 and opens nothing. The next player's rack is the whole pool: known.
    cells = cells_of(SAFE_BOARD)
    rack = tiles("rt bs")
    pool = tiles("rl gx yd ps bt gl")
    moves = generate_raw(cells, rack, DEFAULT_RULES)
    assert moves[0][0] == 5 and moves[0][3] == (tiles("rt")[0],)  # greedy would play the red star
    ranked, _ = judge(cells, moves, rack, pool, 6, 50, DEFAULT_RULES, seed=1, settings=Settings(8, 4))
    best = ranked[0]
    assert best.move is not None and best.move[0] == 2
    after = {**cells, **dict(zip(best.move[2], best.move[3]))}
    assert open_fives(after, best.move[2]) == []  # the safer move leaves no line of five
    chosen = choose(cells, rack, pool, 6, 50, DEFAULT_RULES, seed=1, settings=Settings(8, 4))
    assert chosen == best.move and chosen is not None and chosen[0] < 5
    star = next(j for j in judge(cells, moves, rack, pool, 6, 50, DEFAULT_RULES, 1, Settings(8, 4), moves[0])[0]
                if j.move == moves[0])
    # after the red star, the next player's best reply is the red clover's Qwirkle (12) with the
    # green clover beside it (a line of 2): 14 points
    assert star.score == 5 and star.reply == 14 and star.value == -9
    assert best.value > star.value


def test_without_the_clover_in_the_pool_the_star_is_safe() -> None:
    cells = cells_of(SAFE_BOARD)
    rack = tiles("rt bs")
    pool = tiles("gx yd ps bt gl oc")
    chosen = choose(cells, rack, pool, 6, 50, DEFAULT_RULES, seed=1, settings=Settings(8, 4))
    assert chosen is not None and chosen[0] == 5


def test_samples_are_seeded() -> None:
    pool = tiles("rl rl gc yc oc pc bc gx gs gd")
    assert sample_racks(pool, 6, 8, seed=3) == sample_racks(pool, 6, 8, seed=3)
    assert sum(n for _, n in sample_racks(pool, 6, 8, seed=3)) == 8
    assert sample_racks(pool[:4], 6, 8, seed=3) == [(tuple(sorted(pool[:4])), 1)]  # the pool is the rack
    with pytest.raises(ValueError):
        Settings(0, 4)


def test_annotate_with_the_engine_is_deterministic_and_complete() -> None:
    record = from_data(simulated(2, 3))
    first = analysis_data(analyse(record, "lookahead"))
    assert json.dumps(first) == json.dumps(analysis_data(analyse(record, "lookahead")))
    turns = [t for t in first["turns"] if "lookahead" in t]  # type: ignore[union-attr]
    assert len(turns) == len(record.turns)  # self-play records every rack: every turn is judged
    for t in turns:
        la = t["lookahead"]
        assert la["value_lost"] == pytest.approx(max(0.0, la["best_value"] - la["played_value"]), abs=0.011)
        assert ("better-move" in t["flags"]) == (la["value_lost"] > MARGIN)
    players = first["players"]
    assert all("value_lost" in p for p in players)  # type: ignore[union-attr]
    greedy = analysis_data(analyse(record))
    assert all("lookahead" not in t for t in greedy["turns"]) and all("value_lost" not in p for p in greedy["players"])  # type: ignore[union-attr]


def test_an_unknown_engine_is_refused() -> None:
    with pytest.raises(ValueError, match="greedy, lookahead or sim"):
        analyse(from_data(simulated(2, 3)), "deep")  # type: ignore[arg-type]


# -- self-play with one policy per seat -------------------------------------------------

def test_engines_play_each_other() -> None:
    data = simulate(2, 11, ("lookahead", "greedy"))
    assert check_data(data)[1] == [] and data["meta"]["policy"] == "lookahead,greedy"
    assert data == simulate(2, 11, ("lookahead", "greedy"))
    assert data != simulate(2, 11, "greedy")  # the engine plays differently somewhere
    assert simulate(2, 11, ["greedy", "greedy"])["turns"] == simulate(2, 11, "greedy")["turns"]


def test_seat_policies() -> None:
    assert seat_policies("greedy", 3) == ("greedy",) * 3
    assert seat_policies(["lookahead", "greedy"], 2) == ("lookahead", "greedy")
    with pytest.raises(ValueError, match="one per seat"):
        seat_policies(["lookahead", "greedy"], 3)
    with pytest.raises(ValueError, match="unknown policy 'deep'"):
        seat_policies(["deep", "greedy"], 2)


# -- the command line -------------------------------------------------------------------

def test_cli_annotate_engine_and_simulate_policies(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from qwirkle_tools.cli.app import app

    runner = CliRunner()
    corpus = tmp_path / "match.jsonl"
    result = runner.invoke(app, ["simulate", "-g", "2", "--seed", "3", "--policy", "lookahead,greedy", "-o", str(corpus)])
    assert result.exit_code == 0
    games = [json.loads(line) for line in corpus.read_text().splitlines()]
    assert [g["meta"]["policy"] for g in games] == ["lookahead,greedy"] * 2
    record = tmp_path / "game.json"
    record.write_text(json.dumps(games[0]))
    result = runner.invoke(app, ["annotate", str(record), "--engine", "lookahead", "--format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert all("lookahead" in t for t in data["turns"]) and all("value_lost" in p for p in data["players"])
    text = runner.invoke(app, ["annotate", str(record), "--engine", "lookahead"]).stdout
    assert text.count("value lost") == 2 and "open five" in text
    assert "value lost" not in runner.invoke(app, ["annotate", str(record)]).stdout  # greedy stays the default
    bad = runner.invoke(app, ["simulate", "--policy", "lookahead,deep", "-o", str(tmp_path / "x.jsonl")])
    assert bad.exit_code == 2 and "unknown policy 'deep'" in bad.stderr and not (tmp_path / "x.jsonl").exists()
    bad = runner.invoke(app, ["simulate", "--policy", "lookahead,greedy", "-p", "3", "-o", str(tmp_path / "x.jsonl")])
    assert bad.exit_code == 2 and "one per seat" in bad.stderr
    assert runner.invoke(app, ["annotate", str(record), "--engine", "deep"]).exit_code == 2


def test_board_picture_marks_the_open_five(tmp_path: Path) -> None:
    from qwirkle_tools.outputs.pictures import board_view

    data = game(place(0, "rt@4,0", 5, rack="rt bc yd gs pt ox"), setup={"board": FOUR_REDS})
    view = board_view(replay(from_data(data)), 1)
    assert [(str(p.tile), p.x, p.y) for p in view.open_cells] == [("red-clover", -1, 0), ("red-clover", 5, 0)]
    assert board_view(replay(from_data(data)), 0).open_cells == ()


def test_a_position_with_thousands_of_moves_is_noted_not_judged() -> None:
    from conftest import CIRCLES, crowded

    from qwirkle_tools.engines.lookahead import REPLY_LIMIT

    circles = [str(t) for t in parse_tiles(CIRCLES.split())]
    data = game({"player": 0, "action": "exchange", "tiles": circles, "rack": circles}, setup=crowded(tiles=2))
    assert check_data(data)[1] == []
    (turn,) = analyse(from_data(data), "lookahead").turns
    assert turn.moves is not None and REPLY_LIMIT < turn.moves  # analysed greedily: 11,752 moves
    assert turn.lookahead is None and f"more than {REPLY_LIMIT:,} legal moves" in turn.note


def test_the_engine_plays_the_best_score_where_there_are_too_many_moves_to_judge() -> None:
    from conftest import CIRCLES, crowded

    board = crowded(tiles=2)["board"]
    cells = cells_of(" ".join(f"{p['tile']}@{p['x']},{p['y']}" for p in board))
    rack = [int(t) for t in parse_tiles(CIRCLES.split())]
    moves = generate_raw(cells, rack, DEFAULT_RULES)
    assert len(moves) > 5_000
    assert choose(cells, rack, tiles("rl gx yd ps bt gl"), 6, 50, DEFAULT_RULES, seed=1) == moves[0]


def crowded_lookahead_record(turns: int) -> dict[str, Any]:
    """A legal record on a crowded board (30 isolated tiles) whose mover has a few thousand
    moves a turn (within the look-ahead's bound), each of whose 54 reply positions has hundreds."""
    from conftest import crowded

    rack = [str(t) for t in parse_tiles("rc rx rd oc ox od")]
    ana = {"player": 0, "action": "exchange", "tiles": rack, "rack": rack}
    ben = {"player": 1, "action": "exchange", "count": 1}
    return game(*[ana if i % 2 == 0 else ben for i in range(turns)], setup=crowded(tiles=30))


def test_the_lookaheads_reply_positions_are_charged_to_the_records_budget(monkeypatch: pytest.MonkeyPatch,
                                                                         request: pytest.FixtureRequest) -> None:
    if run_on_the_pure_build(request):  # (the move generations counted)
        return
    import qwirkle_tools.analysis.analyse as analysis
    import qwirkle_tools.core.movegen as movegen
    from qwirkle_tools.core.movegen import TooManyMoves

    generated = [0]
    table = movegen._table

    def counted(*args: Any, **kwargs: Any) -> Any:  # every move generated, for the mover and the replies
        try:
            found = table(*args, **kwargs)
        except TooManyMoves as many:
            generated[0] += many.found
            raise
        generated[0] += len(found)
        return found

    monkeypatch.setattr(movegen, "_table", counted)
    budget = 200_000
    monkeypatch.setattr(analysis, "MOVES_PER_RECORD", budget)
    data = crowded_lookahead_record(40)
    assert check_data(data)[1] == []
    turns = analyse(from_data(data), "lookahead").turns
    mine = [t for t in turns if t.player == 0]
    assert any(t.lookahead is not None for t in mine)  # judged, within the budget
    assert generated[0] <= budget + 5_000  # the mover's moves alone: 20 x 2,646 = 52,920; with the replies: 1,000,000
    spent = [t for t in mine if "bound of 200,000 legal moves for a record is spent" in t.note]
    assert spent and all(t.lookahead is None for t in spent)
