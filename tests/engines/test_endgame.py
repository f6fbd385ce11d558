"""The endgame solver against an independent brute force (``brute_force.py``: plain minimax, no pruning)."""

from __future__ import annotations

from pathlib import Path

import pytest
from brute_force import after, endgame, minimax
from conftest import run_on_the_pure_build

from qwirkle_tools import Game, loads
from qwirkle_tools.core.movegen import generate_raw
from qwirkle_tools.engines.endgame import (
    UNLIMITED,
    NotAnEndgame,
    Threshold,
    _Raw,
    _Search,
    format_solution,
    position,
    solve,
)

SAMPLES = Path(__file__).parents[2] / "sample_games"

POSITIONS = [(seed, game) for seed in range(40) if (game := endgame(seed, 5)) is not None][:10]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "game"), POSITIONS, ids=[f"seed{s}" for s, _ in POSITIONS])
def test_the_proven_value_and_move_are_the_brute_forces(seed: int, game: Game) -> None:
    before = game.record()
    solution = solve(game, seconds=None)
    assert game.record() == before  # searched in place, left as it was
    assert solution.proven
    seen: dict[object, int] = {}
    truth = minimax(game, seen)
    assert solution.value == truth
    assert after(game, solution.best, seen) == truth
    for candidate in solution.candidates:  # every candidate's value and loss are exact too
        assert after(game, candidate.move, seen) == candidate.value
        assert candidate.loss == truth - candidate.value


@pytest.mark.parametrize(("seed", "game"), POSITIONS[:4], ids=[f"seed{s}" for s, _ in POSITIONS[:4]])
def test_a_threshold_question_answers_as_the_brute_force_value(seed: int, game: Game) -> None:
    """``Threshold.above``: the position's value and each move's against thresholds about them."""
    seen: dict[object, int] = {}
    truth = minimax(game, seen)
    moves = game.legal_moves()[:4]
    question = Threshold(game)
    for t in range(truth - 2, truth + 2):
        assert question.above(t) is (truth > t)
    for move in moves:
        value = after(game, move, seen)
        for t in (value - 1, value):
            assert question.above(t, move) is (value > t)
    assert Threshold(game, max_nodes=0).above(truth) is None  # no budget: not known


def test_the_line_is_legal_play_to_the_end_worth_the_value() -> None:
    game = endgame(3, 7)
    assert game is not None
    solution = solve(game, seconds=None)
    spread, sign = 0, 1
    for move in solution.line:
        spread += sign * game.push(move)
        sign = -sign
    assert game.is_over()
    assert spread == solution.value


@pytest.mark.slow
def test_going_out_first_can_beat_the_higher_scoring_move() -> None:
    # a position where greedy play (the highest score now) is not best, found by the brute force
    found = []
    for seed in range(60):
        game = endgame(seed, 4)
        if game is None:
            continue
        greedy = game.legal_moves()[0]
        seen: dict[object, int] = {}
        truth = minimax(game, seen)
        if after(game, greedy, seen) < truth:
            found.append((game, greedy, truth))
        if len(found) >= 2:
            break
    assert found, "no position where greedy play loses points"
    for game, greedy, truth in found:
        solution = solve(game, seconds=None)
        assert solution.value == truth
        assert str(solution.best) != str(greedy)
        loss = next(c.loss for c in solution.candidates if str(c.move) == str(greedy))
        assert loss == truth - after(game, greedy) > 0


def test_a_search_cut_short_reports_the_depth_it_reached() -> None:
    game = endgame(5, 12)
    assert game is not None and min(len(r) for r in game.racks) >= 5
    before = game.record()
    solution = solve(game, seconds=None, max_nodes=300)
    assert game.record() == before
    assert not solution.proven
    assert 0 <= solution.depth < 10
    assert solution.nodes <= 300 + 1
    for move in solution.line:  # the line is legal play
        game.push(move)
    assert game.is_over()


@pytest.mark.parametrize(("seconds", "nodes"), [(float("nan"), None), (-1.0, None), (None, -5)])
def test_a_budget_that_is_no_budget_is_refused(seconds: float | None, nodes: int | None) -> None:
    game = endgame(5, 12)
    assert game is not None
    with pytest.raises(ValueError, match="the budget must be"):
        solve(game, seconds=seconds, max_nodes=nodes)
    assert not solve(game, seconds=0.0).proven  # no time left is no error: the greedy move, valued by a playout


def test_only_bag_empty_two_player_games_are_solved() -> None:
    with pytest.raises(NotAnEndgame, match="the bag still holds"):
        solve(Game.deal(players=2, seed=1))
    three = Game.deal(players=3, seed=1)
    with pytest.raises(NotAnEndgame, match="two-player"):
        solve(three)


def test_a_recorded_endgame_and_what_the_played_move_lost() -> None:
    record = loads((SAMPLES / "296-295.json").read_text(encoding="utf-8"))
    game, played = position(record, 61)
    assert played is not None and len(game.turns) == 60 and game.bag_size == 0
    solution = solve(game, seconds=None, include=[played])
    seen: dict[object, int] = {}
    truth = minimax(game, seen)
    lost = truth - after(game, played, seen)
    assert solution.proven and solution.value == truth
    assert solution.loss(played) == lost
    text = format_solution(solution, game, played, first_turn=61)
    assert f"best play: {truth:+d} for {game.names[game.to_move]} from here (proven): " in text
    assert f"played: {played}: " + ("the best" if not lost else f"loses {lost}") in text
    assert f"  61. {game.names[game.to_move]}: {solution.best}" in text


def test_with_no_turn_the_position_is_where_the_bag_empties() -> None:
    record = loads((SAMPLES / "296-295.json").read_text(encoding="utf-8"))
    game, played = position(record)
    before, _ = position(record, len(game.turns))
    assert game.bag_size == 0 and before.bag_size > 0
    assert played is not None and str(played) == str(position(record, len(game.turns) + 1)[1])


class _Checked(_Search):
    """The search, every move it plays checked against the legal moves of the position
    (the table's move is played before the moves are generated) and every reply of one
    tile that it values without a node checked against that tile's generated moves."""

    def play(self, move: _Raw) -> bool:
        legal = [(m[2], m[3]) for m in generate_raw(dict(self.cells), self.racks[self.to_move])]
        assert move in legal if move is not None else not legal
        return super().play(move)

    def last(self, lone: list[tuple[int, int]], placed: tuple[int, ...]) -> int | None:
        found = super().last(lone, placed)
        rack = self.racks[self.to_move]
        moves = generate_raw(dict(self.cells), rack)
        assert found == (max(self.rules.scored(m[0], 1, 1, 0) for m in moves) if moves else None)
        self.lasts += 1
        return found

    lasts = 0


# (seed 38: a move down a column opens a row beside its second tile, where the last tile goes)
@pytest.mark.parametrize(("seed", "least"), [(14, 1000), (16, 1000), (38, 10)])
def test_the_search_plays_only_legal_moves_and_values_a_last_tile_as_generated(seed: int, least: int,
                                                                               request: pytest.FixtureRequest) -> None:
    if run_on_the_pure_build(request):  # (the search subclassed)
        return
    game = endgame(seed, 7)
    assert game is not None
    search = _Checked(game)
    moves = search.moves()
    value, best, proven = search.root(moves, UNLIMITED)
    assert proven and value == solve(game, seconds=None).value
    assert search.lasts > least and search.nodes > 2 * least  # the table's moves and the last tiles were met


class _Passes(_Search):
    """The search, counting the passes it plays, each position's moves checked against
    moves generated afresh (after a pass they are those kept when the pass was found)."""

    passes = kept = 0

    def play(self, move: _Raw) -> bool:
        self.passes += move is None
        return super().play(move)

    def moves(self) -> list[tuple[int, _Raw]]:
        held = self.held is not None and self.held[0] == self.hash
        found = super().moves()
        mine = self.placements(self.to_move)
        assert found == (mine or ([(0, None)] if self.placements(1 - self.to_move) else []))
        self.kept += held
        return found


@pytest.mark.parametrize("seed", [108, 110])
def test_the_moves_kept_at_a_pass_are_the_next_positions_moves(seed: int, request: pytest.FixtureRequest) -> None:
    if run_on_the_pure_build(request):  # (the search subclassed)
        return
    # a player who cannot place passes: told by the other's moves, kept for the position the pass leads to
    game = endgame(seed, 6)
    assert game is not None
    search = _Passes(game)
    value, best, proven = search.root(search.moves(), UNLIMITED)
    assert search.passes > 0 and search.kept > 0
    assert proven and value == solve(game, seconds=None).value


def crowded_game(first: str = "rc oc yc gc bc rc", second: str = "rs os ys gs bs rs") -> Game:
    from conftest import crowded_endgame

    from qwirkle_tools import from_data

    return Game.from_record(from_data(crowded_endgame(first, second)))


@pytest.mark.serial
def test_the_solver_keeps_its_budget_on_a_crowded_board() -> None:
    # 139,536 moves a rack (about a second a generation): depth 1 valued every root move by a playout
    # that never read the clock; now every generation does, and the answer comes at the budget
    import time

    from qwirkle_tools.engines.endgame import MOVES_KEPT

    game = crowded_game()
    lone = next(m for m in game.legal_moves() if len(m.tiles) == 1)  # not among the best MOVES_KEPT
    started = time.monotonic()
    solution = solve(game, seconds=0.5, include=[lone])
    took = time.monotonic() - started
    assert took < 1.0 and solution.seconds < 1.0, took
    assert solution.cut and not solution.proven
    assert solution.loss(lone) is not None  # valued (the move a record played), though no generation kept it
    assert 0 < len(solution.line) and solution.best.action == "place"
    game.push(solution.best)  # a legal move
    assert MOVES_KEPT < len(game.legal_moves())


def test_a_position_with_more_moves_than_the_search_keeps_is_not_proven() -> None:
    # six circles go out at once: the exact search ends at the root, but over the best MOVES_KEPT moves alone
    from conftest import CIRCLES

    solution = solve(crowded_game(CIRCLES, "rs os ys gs bs ps"), seconds=2.0)
    assert solution.cut and not solution.proven
    assert solution.best.action == "place" and len(solution.best.tiles) == 6
    assert "not every move was generated" in format_solution(solution, crowded_game(CIRCLES, "rs os ys gs bs ps"))


def test_each_candidate_says_the_result_it_leads_to_and_the_played_move_what_it_turned() -> None:
    from qwirkle_tools.engines.solution import lead, solution_data

    record = loads((SAMPLES / "296-295.json").read_text(encoding="utf-8"))
    game, played = position(record, 63)  # Ana 293, Ben 287: the game ends 295-296
    assert played is not None and lead(game) == 6
    solution = solve(game, seconds=None, include=[played])
    seen: dict[object, int] = {}
    for c in solution.candidates:  # the margin is the lead now plus the brute force's value of the move
        assert lead(game) + c.value == lead(game) + after(game, c.move, seen)
    text = format_solution(solution, game, played, first_turn=63)
    assert "best play: -5 for Ana from here (proven): Ana wins by 1" in text
    assert "played: yx@-5,-14: loses 3: it turns a win by 1 into a loss by 2" in text
    data = solution_data(solution, game)
    assert data["result"] == {"outcome": "win", "margin": 1}
    mine = [c for c in data["candidates"] if isinstance(c, dict) and c["move"] == str(played)]  # type: ignore[union-attr]
    assert mine and mine[0]["result"] == {"outcome": "loss", "margin": -2}  # type: ignore[index]
