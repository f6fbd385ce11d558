"""The static equity player: hand-built positions with known answers, whole legal games, --policy equity."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qwirkle_tools.analysis.validate import check_data
from qwirkle_tools.cli.app import app
from qwirkle_tools.core.board import Placement
from qwirkle_tools.core.tiles import parse_tiles
from qwirkle_tools.engines.equity import Exchange, Valued, equity, ranked
from qwirkle_tools.engines.leaves import FEATURES, ZERO, Leaves
from qwirkle_tools.engines.policies import BUILT_IN, POLICIES, greedy, policy
from qwirkle_tools.engines.selfplay import simulate
from qwirkle_tools.formats.record import from_data
from qwirkle_tools.play.game import Game


def cells_of(text: str) -> dict[int, int]:
    return {p.key: int(p.tile) for p in map(Placement.parse, text.split())}


def tiles(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text.split())]


def only(exchange: float = 0.0, **weights: float) -> Leaves:
    return Leaves(tuple(weights.get(f, 0.0) for f in FEATURES), exchange=exchange)


def placed(v: Valued) -> list[int]:
    assert not isinstance(v.move, Exchange)
    return sorted(v.move[3])


ONE_RED = cells_of("rc@0,0")


def test_a_move_that_keeps_a_duplicate_ranks_below_one_that_does_not() -> None:
    # every move places one tile for 2 points: a red diamond (keeping rd gc) or the green circle (keeping rd rd)
    moves = ranked(ONE_RED, tiles("rd rd gc"), 30, leaves=only(duplicate=-3.0))
    assert {m.score for m in moves if not isinstance(m.move, Exchange)} == {2}
    assert placed(moves[0]) == tiles("rd") and moves[0].equity == 2.0 and moves[0].leave == 0.0
    assert str(moves[0]).endswith(": score 2, leave +0.00, equity 2.00") and str(moves[0]).startswith("rd@")
    green = [m for m in moves if not isinstance(m.move, Exchange) and placed(m) == tiles("gc")]
    assert green and all(m.equity == -1.0 and m.leave == -3.0 for m in green)


def test_the_shipped_model_keeps_the_pair_rather_than_the_duplicate() -> None:
    best = ranked(ONE_RED, tiles("rd rd gc"), 30, limit=1)[0]
    assert placed(best) == tiles("rd")


def test_an_opening_keeps_the_tiles_that_go_together() -> None:
    # the largest groups are pairs: reds, circles, crosses, greens; playing the circles (or the greens) keeps two pairs
    rack = tiles("rc rx bc gx gd yt")
    best = ranked({}, rack, 96, leaves=only(pair=1.0), limit=1)[0]
    assert best.equity == 4.0 and best.score == 2
    assert placed(best) in (sorted(tiles("rc bc")), sorted(tiles("gx gd")))
    assert not any(isinstance(v.move, Exchange) for v in ranked({}, rack, 96))  # no exchange on the first move


def test_an_exchange_is_chosen_when_it_is_worth_more_and_only_what_the_bag_allows() -> None:
    rack = tiles("rd bs bs")
    moves = ranked(ONE_RED, rack, 30, leaves=only(exchange=5.0))
    assert isinstance(moves[0].move, Exchange) and moves[0].equity == 5.0
    assert str(moves[0].move) == "exchange rd bs bs"  # equal equity: the largest exchange is listed first
    assert str(moves[0]) == "exchange rd bs bs: score 0, leave +0.00, equity 5.00"
    exchanges = [m.move for m in ranked(ONE_RED, rack, 2, leaves=only(exchange=5.0)) if isinstance(m.move, Exchange)]
    assert exchanges and max(len(e.tiles) for e in exchanges) == 2
    assert len(exchanges) == len(set(exchanges))  # each different exchange once (bs bs is not listed twice)
    assert not any(isinstance(m.move, Exchange) for m in ranked(ONE_RED, rack, 0, leaves=only(exchange=5.0)))
    assert ranked(ONE_RED, rack, 30, leaves=only(exchange=-5.0))[0].score == 2  # a poor exchange: the placement


def test_with_the_bag_empty_equity_is_the_score_with_the_end_bonus() -> None:
    moves = ranked(ONE_RED, tiles("rx"), 0)
    assert [(m.score, m.leave, m.equity) for m in moves] == [(8, 0.0, 8.0)] * 4  # 2 points and the end bonus of 6, 4 sides
    assert ranked(ONE_RED, tiles("bs"), 0) == []  # nothing fits, nothing to exchange: only a pass is legal


def test_with_zero_leaves_the_player_is_greedy() -> None:
    game = Game.deal(2, seed=4)
    while not game.is_over():
        view = game.view(game.to_move)
        assert equity(view, leaves=ZERO) == greedy(view)
        game.push(greedy(view))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_policy_plays_whole_legal_games(seed: int) -> None:
    game = Game.deal(2, seed=seed)
    while not game.is_over():
        game.push(equity(game.view(game.to_move)))  # (push refuses an illegal move)
    data = game.record().to_data()
    assert not [f for f in check_data(data)[1] if f.severity == "error"]
    assert game.bag_size == 0 or game.outcome() == "blocked"
    with pytest.raises(ValueError, match="no move"):
        equity(game.view(0))


def test_equity_is_a_built_in_policy_in_self_play_and_its_games_validate() -> None:
    assert "equity" in POLICIES and BUILT_IN["equity"] is equity and policy("equity") is equity
    data = simulate(2, 5, ("equity", "greedy"))
    assert data == simulate(2, 5, ("equity", "greedy"))  # the same seed, the same game
    assert not [f for f in check_data(data)[1] if f.severity == "error"]
    assert data["meta"]["policy"] == "equity,greedy"


def test_policy_equity_through_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    corpus = tmp_path / "games.jsonl"
    result = runner.invoke(app, ["simulate", "--games", "2", "--policy", "equity", "-o", str(corpus)])
    assert result.exit_code == 0, result.output
    games = [from_data(json.loads(line)) for line in corpus.read_text().splitlines()]
    assert len(games) == 2 and all(g.meta["policy"] == "equity" for g in games)
    out = tmp_path / "match.jsonl"
    result = runner.invoke(app, ["match", "equity", "greedy", "--games", "2", "--seed", "9", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "2 games: equity (A) against greedy (B)"
    bad = runner.invoke(app, ["simulate", "--games", "1", "--policy", "equit", "-o", str(tmp_path / "x.jsonl")])
    assert bad.exit_code == 2 and "equity" in bad.output


def test_each_moves_leave_is_the_models_value_of_the_tiles_it_keeps() -> None:
    model = Leaves((-0.7, -2.0, 0.3, 1.5, -0.4), taper=12.0, exchange=-3.0)
    game = Game.deal(2, seed=8)
    for _ in range(24):  # positions of a real game, with duplicates in the racks now and then
        cells, rack, bag = dict(game.board.cells), [int(t) for t in game.racks[game.to_move]], game.bag_size
        for v in ranked(cells, rack, bag, leaves=model):
            left = list(rack)
            for t in (v.move.tiles if isinstance(v.move, Exchange) else v.move[3]):
                left.remove(t)
            after = bag if isinstance(v.move, Exchange) else max(0, bag - len(v.move[3]))
            assert v.leave == pytest.approx(model.value(left, cells, after))
            assert v.equity == pytest.approx(v.score + v.leave + (model.exchange if isinstance(v.move, Exchange) else 0))
        game.push(greedy(game.view(game.to_move)))


def test_self_play_exchanges_by_choice_when_the_model_says_so() -> None:
    eager = only(exchange=30.0)  # an exchange beats any placement worth less than 30 points
    data = simulate(2, 3, ("equity", "greedy"), leaves=eager)
    seat0 = [t for t in data["turns"] if t["player"] == 0]
    assert sum(t["action"] == "exchange" for t in seat0) > len(seat0) // 2
    assert not [f for f in check_data(data)[1] if f.severity == "error"]


@pytest.mark.serial
@pytest.mark.parametrize("name", ["lookahead", "equity", "sim"])
def test_a_timed_policy_keeps_its_movetime_on_a_crowded_board(name: str) -> None:
    # 978,336 moves for the rack (seconds to generate, about 1 GB if all were kept): each search reads
    # its clock inside the generation and answers within its time, with a legal move; in a process of
    # its own, so that its memory's peak is its own
    import json
    import subprocess
    import sys
    from pathlib import Path

    from conftest import CIRCLES, crowded_endgame

    code = f"""
import json, sys, time
from qwirkle_tools import Game, from_data
from qwirkle_tools.engines.policies import TIMED
game = Game.from_record(from_data(json.loads(sys.stdin.read())))
started = time.monotonic()
move = TIMED[{name!r}](game.view(0), 0, 500)
seconds = time.monotonic() - started
game.push(move)
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(seconds, peak)  # (VmHWM, kB: this program's own peak; ru_maxrss keeps the parent's from before the exec)
"""
    record = json.dumps(crowded_endgame(CIRCLES, "rs os ys gs bs ps"))
    proc = subprocess.run([sys.executable, "-c", code], input=record, capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).parents[2], check=False)
    assert proc.returncode == 0, proc.stderr  # (push raises if the move is illegal)
    seconds, peak = proc.stdout.split()
    assert float(seconds) < 0.9
    assert int(peak) < 600 * 1024  # kB
