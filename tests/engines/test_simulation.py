"""The simulation engine on small hand-built positions with known answers."""

from __future__ import annotations

from typing import Any

import pytest

from qwirkle_tools import Game
from qwirkle_tools.analysis.analyse import open_fives
from qwirkle_tools.analysis.validate import check_data
from qwirkle_tools.bots.match import play
from qwirkle_tools.bots.players import load
from qwirkle_tools.core.board import Placement
from qwirkle_tools.core.movegen import generate_raw
from qwirkle_tools.core.rules import DEFAULT_RULES
from qwirkle_tools.core.tiles import parse_tiles
from qwirkle_tools.engines import policies
from qwirkle_tools.engines.endgame import solve
from qwirkle_tools.engines.simulation import ITERATIONS, Settings, Static, Tally, choose, evaluate, score_ranking

SAFE_BOARD = "rc@0,0 rx@1,0 rd@2,0 rs@3,0"
"""Four reds in a row: a red star at (4,0) makes a five that the red clover completes (a Qwirkle)."""


def cells_of(text: str) -> dict[int, int]:
    return {p.key: int(p.tile) for p in map(Placement.parse, text.split())}


def tiles(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text.split())]


def endgame_where_greedy_loses() -> tuple[Game, int]:
    """A bag-empty two-player position where the highest-scoring move is not the
    best, and the exact value of the position (the solver's proof, unbounded)."""
    for seed in range(60):
        game = Game.deal(players=2, seed=seed)
        while not game.is_over() and not (game.bag_size == 0 and sum(len(r) for r in game.racks) <= 5):
            game.push(game.legal_moves()[0])
        if game.is_over():
            continue
        exact = solve(game, seconds=None)
        assert exact.proven
        if exact.loss(game.legal_moves()[0]):
            return game, exact.value
    raise AssertionError("no endgame where greedy play loses points")


# -- choices on hand-built positions ---------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_simulation_prefers_the_safe_move_to_the_one_that_opens_a_qwirkle(seed: int) -> None:
    # the red star scores 5 but makes a five whose sixth tile (the red clover, two of the twelve unseen
    # tiles) the next player holds three times in four; the moves that score 2 (the blue square under
    # the red square, or the red star under a red tile) open nothing
    cells = cells_of(SAFE_BOARD)
    rack = tiles("rt bs")
    pool = tiles("rl rl gx yd ps bt gl oc yc pc gc bc")
    first = score_ranking(cells, rack, 6, DEFAULT_RULES, 8)
    assert first[0][0] == 5 and first[0][3] == tuple(tiles("rt"))  # the static (greedy) choice: the star
    ranked, star = evaluate(cells, rack, pool, [6], 6, DEFAULT_RULES, seed, played=first[0])
    best = ranked[0]
    assert best.move is not None and best.move[0] == 2
    after = {**cells, **dict(zip(best.move[2], best.move[3]))}
    assert open_fives(after, best.move[2]) == []  # the move played leaves no line of five
    assert star is not None and star.value < best.value


def test_with_no_red_clover_unseen_the_star_is_played() -> None:
    cells = cells_of(SAFE_BOARD)
    rack = tiles("rt bs")
    pool = tiles("yl gx yd ps bt gl oc yc pc gc bc ol")
    ranked, _ = evaluate(cells, rack, pool, [6], 6, DEFAULT_RULES, seed=1)
    assert ranked[0].move is not None and ranked[0].move[3] == tuple(tiles("rt"))


def test_the_value_counts_the_plies_the_end_and_the_leave() -> None:
    # every sample is the same: the opponent holds a red diamond, the bag the other. The mover's
    # best placement, the two crosses by the red circle, scores 4 and draws the diamond; the
    # opponent then goes out with theirs by the red line (3 + the end bonus 6) and the game ends.
    # With a leave worth 10 a tile: the mover's one tile, the opponent's none
    cells = cells_of("rc@0,0")
    rack = tiles("rx gx")
    pool = tiles("rd rd")
    tens = Static(score_ranking, lambda kept, cells, bag: 10.0 * len(kept))
    for static, by_plies in ((tens, (4 + 0, 4 - 9 + 10, 4 - 9 + 10)), (None, (4, 4 - 9, 4 - 9))):
        for plies, expected in enumerate(by_plies):
            ranked, _ = evaluate(cells, rack, pool, [1], 1, DEFAULT_RULES, 1, Settings(candidates=1, plies=plies),
                                 static=static)
            assert ranked[0].score == 4 and ranked[0].value == expected and ranked[0].error == 0


# -- the budget and reproducibility ----------------------------------------------------

def midgame(seed: int = 5, turns: int = 14) -> Game:
    game = Game.deal(players=2, seed=seed)
    for _ in range(turns):
        game.push(game.legal_moves()[0])
    return game


def position(game: Game) -> tuple[dict[int, int], list[int], list[int], list[int], int]:
    view = game.view(game.to_move)
    pool = [t for t, c in enumerate(view.unseen) for _ in range(c)]
    return dict(view.board.cells), [int(t) for t in view.rack], pool, [view.rack_sizes[1 - view.seat]], view.bag


def test_the_same_position_and_seed_give_the_same_values() -> None:
    cells, rack, pool, sizes, bag = position(midgame())
    one = evaluate(cells, rack, pool, sizes, bag, DEFAULT_RULES, seed=7)
    assert one == evaluate(cells, rack, pool, sizes, bag, DEFAULT_RULES, seed=7)
    other = evaluate(cells, rack, pool, sizes, bag, DEFAULT_RULES, seed=8)
    assert [e.value for e in one[0]] != [e.value for e in other[0]]  # the samples do come from the seed
    game = midgame()
    assert choose(game.view(game.to_move), 7) == choose(game.view(game.to_move), 7)


def test_a_win_chance_is_read_at_each_playouts_end_when_asked() -> None:
    cells, rack, pool, sizes, bag = position(midgame())
    seen: list[tuple[float, int, bool, bool]] = []

    def leaf(lead: float, tiles: int, moved: bool, over: bool) -> float:
        seen.append((lead, tiles, moved, over))
        return 1.0 if lead > 0 else 0.0

    plain, _ = evaluate(cells, rack, pool, sizes, bag, DEFAULT_RULES, 3)
    assert all(e.chance is None for e in plain)
    ranked, _ = evaluate(cells, rack, pool, sizes, bag, DEFAULT_RULES, 3, chance=(0, leaf))
    assert [e.value for e in ranked] == [e.value for e in plain]  # the chance changes nothing else
    assert len(seen) == sum(e.iterations for e in ranked)  # one leaf a playout
    assert all(moved for _, _, moved, over in seen if not over)  # two plies after the candidate: the mover played last
    tiles_now = len(pool) + len(rack)
    assert all(tiles_now - 3 * 6 <= t < tiles_now for _, t, _, _ in seen)
    assert all(e.chance is not None and 0.0 <= e.chance <= 1.0 for e in ranked)
    # the lead at a playout's end is the lead before it plus the spread the playout earned (its value:
    # no leave with the score-only static player)
    leads, _ = evaluate(cells, rack, pool, sizes, bag, DEFAULT_RULES, 3, chance=(5, lambda lead, *_: lead))
    assert all(e.chance == pytest.approx(e.value + 5) for e in leads)
    with pytest.raises(ValueError, match="two players"):
        evaluate(cells, rack, pool, [6, 6], bag, DEFAULT_RULES, 3, chance=(0, leaf))


def test_the_iteration_budget_is_respected() -> None:
    cells, rack, pool, sizes, bag = position(midgame())
    never = Settings(candidates=5, iterations=10, minimum=1_000)  # no pruning before the budget ends
    ranked, _ = evaluate(cells, rack, pool, sizes, bag, DEFAULT_RULES, 3, never)
    assert len(ranked) == 5 and [e.iterations for e in ranked] == [10] * 5 and not any(e.pruned for e in ranked)
    assert all(e.error > 0 for e in ranked)
    tally = Tally()
    pruning = Settings(candidates=5, iterations=40, minimum=4, z=0.5)
    ranked, _ = evaluate(cells, rack, pool, sizes, bag, DEFAULT_RULES, 3, pruning, tally=tally)
    assert max(e.iterations for e in ranked) == tally.iterations <= 40
    assert any(e.pruned for e in ranked) and not ranked[0].pruned
    assert sum(e.iterations for e in ranked) * 3 == tally.positions  # the candidate and two plies, each time


def test_a_time_budget_stops_early(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    game = midgame()
    tally = Tally()
    ticks = iter(range(10**6))  # a clock a second on at each look (read as the module's attribute, both builds)
    monkeypatch.setattr(time, "monotonic", lambda: float(next(ticks)))
    choose(game.view(game.to_move), 1, movetime_ms=1, settings=Settings(minimum=1_000), tally=tally)
    assert tally.simulated == 1 and tally.iterations == 1  # past the 1 ms at the first look, after one iteration


def test_the_played_move_is_judged_among_the_candidates() -> None:
    cells, rack, pool, sizes, bag = position(midgame())
    moves = generate_raw(cells, rack, DEFAULT_RULES)
    worst = moves[-1]
    ranked, mine = evaluate(cells, rack, pool, sizes, bag, DEFAULT_RULES, 3, Settings(candidates=3), played=worst)
    assert mine is not None and mine.move == worst and mine in ranked and len(ranked) == 4


# -- the endgame hand-over -------------------------------------------------------------

UNBOUNDED = Settings(endgame_nodes=1_000_000, small_nodes=1_000_000)


def test_with_the_bag_empty_the_solver_decides() -> None:
    game, truth = endgame_where_greedy_loses()
    greedy = game.legal_moves()[0]
    view = game.view(game.to_move)
    chosen = choose(view, 1, settings=UNBOUNDED)
    assert chosen is not None and chosen != greedy
    points = game.push(chosen)
    from_solver = solve(game, seconds=None).value if not game.is_over() else 0
    game.pop()
    assert points - from_solver == truth  # the exactly best move
    cells, rack, pool, _, _ = position(game)
    played = next(m for m in generate_raw(cells, rack, DEFAULT_RULES)
                  if frozenset(zip(m[2], m[3])) == frozenset((p.key, int(p.tile)) for p in greedy.tiles))
    ranked, mine = evaluate(cells, rack, pool, [len(pool)], 0, DEFAULT_RULES, 1, UNBOUNDED,
                            played=played)
    assert all(e.exact for e in ranked) and ranked[0].value == truth
    assert mine is not None and mine.value < truth


def test_with_the_solver_off_a_bag_empty_position_is_simulated() -> None:
    game, _ = endgame_where_greedy_loses()
    cells, rack, pool, _, _ = position(game)
    off = Settings(iterations=6, endgame=False)
    ranked, _ = evaluate(cells, rack, pool, [len(pool)], 0, DEFAULT_RULES, 1, off)
    assert ranked and not any(e.exact for e in ranked) and all(e.iterations for e in ranked)
    tally = Tally()
    chosen = choose(game.view(game.to_move), 1, settings=off, tally=tally)
    assert chosen is not None and game.is_legal(chosen)
    assert (tally.endgames, tally.simulated) == (0, 1)


def test_the_equity_static_player_never_offers_an_exchange() -> None:
    from qwirkle_tools.engines import equity, leaves
    from qwirkle_tools.engines.simulation import from_equity

    model = leaves.default()
    static = from_equity(equity.ranked, model)
    for seed in range(40):  # until equity ranks an exchange among its first moves
        game = Game.deal(players=2, seed=seed)
        game.push(game.legal_moves()[0])
        view = game.view(game.to_move)
        cells, rack = dict(view.board.cells), [int(t) for t in view.rack]
        first = equity.ranked(cells, rack, view.bag, view.rules, model, 3)
        if any(isinstance(v.move, equity.Exchange) for v in first):
            break
    else:
        raise AssertionError("no deal where equity ranks an exchange among its first three")
    moves = static.ranking(cells, rack, view.bag, view.rules, 3)
    placements = [v.move for v in equity.ranked(cells, rack, view.bag, view.rules, model) if isinstance(v.move, tuple)]
    assert moves == placements[:3] and all(isinstance(m, tuple) for m in moves)


def test_a_three_player_game_with_the_bag_empty_is_simulated() -> None:
    game = Game.deal(players=3, seed=4)
    while game.bag_size:
        game.push(game.legal_moves()[0])
    tally = Tally()
    chosen = choose(game.view(game.to_move), 2, settings=Settings(iterations=6), tally=tally)
    assert chosen is not None and game.is_legal(chosen)
    assert tally.endgames == 0


# -- the policy in games and matches ---------------------------------------------------

def test_the_policy_plays_whole_legal_games() -> None:
    quick = Settings(candidates=3, iterations=6, minimum=3, endgame_nodes=10, small_nodes=50)
    game = Game.deal(players=2, seed=11)
    while not game.is_over():
        view = game.view(game.to_move)
        move = policies.sim(view, len(game), settings=quick) if game.to_move == 0 else policies.greedy(view)
        game.push(move)  # (an illegal move raises)
    data: Any = game.record().to_data()
    assert not [f for f in check_data(data)[1] if f.severity == "error"]


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """The movetime each call of the sim policy is given (it plays greedy's move)."""
    told: list[int | None] = []

    def spy(view: Any, seed: int, movetime_ms: int | None = None, settings: Any = None) -> Any:
        told.append(movetime_ms)
        return policies.greedy(view)

    monkeypatch.setattr(policies, "sim_choose", spy)
    return told


def test_the_match_runner_passes_its_movetime_to_sim(seen: list[int | None]) -> None:
    assert "sim" in policies.POLICIES and policies.BUILT_IN["sim"] is policies.sim
    bot = load("sim")
    record = play([bot, load("greedy")], ["sim", "greedy"], seed=3, movetime_ms=123)
    assert record.result is not None and seen and set(seen) == {123}


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError):
        Settings(candidates=0)
    with pytest.raises(ValueError):
        Settings(iterations=0)
    assert ITERATIONS >= Settings().minimum


def test_a_qbp_bot_passes_go_movetime_to_sim(seen: list[int | None]) -> None:
    from qwirkle_tools.bots.qbp import go_line, position_line, rack_line, serve

    game = midgame()
    view = game.view(game.to_move)
    said: list[str] = []
    lines = [f"newgame players 2 seat {view.seat}", position_line(view), rack_line(view), go_line(250), "go", "quit"]
    serve(policies.sim, lines, said.append, "sim", timed=policies.TIMED["sim"])
    answers = [s for s in said if s.startswith("bestmove")]
    assert seen == [250, None] and len(answers) == 2 and answers[0] == f"bestmove {policies.greedy(view)}"


def test_restored_board_data_generates_what_fresh_data_does() -> None:
    from qwirkle_tools.core import frontier

    game = midgame(seed=8, turns=12)
    view = game.view(game.to_move)
    root = dict(view.board.cells)
    rack = [int(t) for t in view.rack]
    moves = generate_raw(root, rack, DEFAULT_RULES)
    saved = frontier.kept()
    assert saved is not None and saved.cells == root
    for move in moves[:12]:  # each move put down on the root's board, then taken up again
        frontier.restore(saved)
        cells = {**root, **dict(zip(move[2], move[3]))}
        left = list(rack)
        for t in move[3]:
            left.remove(t)
        pool = [t for t, c in enumerate(view.unseen) for _ in range(c)][:6]
        restored = [generate_raw(cells, hand, DEFAULT_RULES) for hand in (left, pool)]
        frontier._local.data = None  # worked out afresh
        assert restored == [generate_raw(cells, hand, DEFAULT_RULES) for hand in (left, pool)]
    assert saved.cells == root  # the copy kept is never changed


def test_an_unknown_bag_is_what_the_racks_do_not_hold() -> None:
    cells, rack, pool, sizes, bag = position(midgame())
    assert bag == len(pool) - sizes[0]
    assert evaluate(cells, rack, pool, sizes, None, DEFAULT_RULES, 2) == evaluate(cells, rack, pool, sizes, bag,
                                                                                  DEFAULT_RULES, 2)
    with pytest.raises(ValueError, match="only 3 are unseen"):
        evaluate(cells, rack, pool[:3], sizes, 0, DEFAULT_RULES, 2)
