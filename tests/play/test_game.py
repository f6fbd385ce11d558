"""The playable game: deal, legal moves, push and pop, the end, the record, a seat's view."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qwirkle_tools.core.board import Placement
from qwirkle_tools.core.rules import Rules, dead
from qwirkle_tools.core.tiles import COPIES, TILES, Tile
from qwirkle_tools.engines.selfplay import simulate
from qwirkle_tools.formats.record import Record, Turn, dumps, from_data, loads
from qwirkle_tools.play.engine import IllegalMoveError, replay
from qwirkle_tools.play.game import Game, Move, MoveError
from qwirkle_tools.play.view import moves_for


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a turn may change, read through the public API."""
    return (dict(game.board.cells), game.racks, game.bag_size, game._dealer.bag[:], game.scores, game.to_move,
            game.outcome(), game.turns, game._dealer.rng.getstate())


def play_out(game: Game, rng: random.Random) -> list[tuple[Any, ...]]:
    """Play to the end, mostly placements, sometimes any legal move; the states on the way."""
    states = [snapshot(game)]
    while not game.is_over():
        moves = game.legal_moves()
        assert moves, "a game that is not over always has a legal move"
        placements = [m for m in moves if m.action == "place"]
        move = rng.choice(placements if placements and rng.random() < 0.9 else moves)
        points = game.push(move)
        assert points == move.score
        states.append(snapshot(game))
    return states


@pytest.mark.slow
def test_200_games_played_to_the_end_validate_and_pop_back_to_the_deal() -> None:
    outcomes: dict[str, int] = {}
    actions: set[str] = set()
    for seed in range(200):
        rng = random.Random(seed)
        game = Game.deal(players=2 + seed % 3, seed=seed)
        states = play_out(game, rng)
        record = game.record()
        findings = replay(record).findings
        assert findings == (), (seed, [str(f) for f in findings][:3])
        assert record.result is not None and record.result.scores == game.scores
        assert from_data(record.to_data()) == record
        outcome = game.outcome()
        assert outcome is not None
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        actions.update(t.action for t in game.turns)
        for expected in reversed(states[:-1]):
            game.pop()
            assert snapshot(game) == expected
        with pytest.raises(IndexError):
            game.pop()
    assert outcomes.get("out", 0) > 150
    assert actions == {"place", "exchange"}  # (a pass is rare in play: see the pass test below)


def afresh(game: Game) -> tuple[list[Move], bool]:
    """The legal moves and whether the game is over, from the position alone (none of the game's kept data)."""
    cells = dict(game.board.cells)
    over = game._end == "out" or dead(cells, [int(t) for r in game.racks for t in r] + game._dealer.bag)
    return ([] if over else moves_for(cells, [int(t) for t in game.racks[game.to_move]], game.bag_size, game.rules)), over


@pytest.mark.parametrize("seed", range(4))
def test_a_searchs_pushes_and_pops_give_the_moves_and_the_end_of_the_position_afresh(seed: int) -> None:
    # the game keeps the move generator's data of each board on its line of pushed placements: after a pop
    # the next board's grows from its parent's; here every position of a random depth-first walk is compared
    rng = random.Random(seed)
    game = Game.deal(players=2, seed=seed)
    twin = Game.deal(players=2, seed=seed)
    opening = []
    while len(opening) < 10 + 5 * seed and not twin.is_over():  # turns pushed before the game is first asked
        opening.append(twin.legal_moves()[0])
        twin.push(opening[-1])
    for move in opening:
        game.push(move)
    depth, compared, actions = 0, 0, set()
    for _ in range(300):
        moves = game.legal_moves()
        assert (moves, game.is_over()) == afresh(game)
        compared += 1
        if moves and (depth == 0 or rng.random() < 0.55):
            move = rng.choice(moves if rng.random() < 0.2 else moves[:8])  # (exchanges too: no board change)
            actions.add(move.action)
            game.push(move)
            depth += 1
        elif depth:
            game.pop()
            depth -= 1
    for _ in range(depth + len(opening)):  # back to the deal, below the turns pushed before the first ask
        game.pop()
        assert (game.legal_moves(), game.is_over()) == afresh(game)
    assert compared == 300 and not game.turns
    assert {"place", "exchange"} <= actions, actions


def test_a_game_pickled_or_deep_copied_plays_on_as_the_original() -> None:
    import copy
    import pickle

    game = Game.deal(players=2, seed=5)
    for _ in range(10):
        game.push(game.legal_moves()[0])  # (the game's board data begun: it goes along)
    twins = [pickle.loads(pickle.dumps(game)), copy.deepcopy(game)]
    for g in [game, *twins]:
        while not g.is_over():
            g.push(g.legal_moves()[0])
    record, scores = game.record(), game.scores
    popped = [game.pop() for _ in range(5)]
    for twin in twins:
        assert twin.record() == record and twin.scores == scores
        assert [twin.pop() for _ in range(5)] == popped
        assert twin.legal_moves() == game.legal_moves()


def test_deal_is_the_seeded_self_play_deal() -> None:
    # the same seed deals the same game; greedy play on it is simulate's greedy game, turn for turn
    game = Game.deal(2, seed=7)
    while not game.is_over():
        placements = [m for m in game.legal_moves() if m.action == "place"]
        rack = game.racks[game.to_move]
        move = placements[0] if placements else (
            Move.exchange(rack[: game.bag_size]) if game.bag_size else Move.pass_turn())
        game.push(move)
    assert game.record().turns == from_data(simulate(2, 7)).turns
    assert Game.deal(3, seed=4).racks == Game.deal(3, seed=4).racks != Game.deal(3, seed=5).racks


def test_the_starter_has_the_largest_group_and_must_place_it() -> None:
    game = Game.deal(4, seed=11)
    from qwirkle_tools.core.tiles import largest_group

    sizes = [largest_group(r) for r in game.racks]
    assert game.to_move == sizes.index(max(sizes))
    moves = game.legal_moves()
    assert moves and all(m.action == "place" and len(m.tiles) == max(sizes) for m in moves)
    rack = game.racks[game.to_move]
    with pytest.raises(IllegalMoveError) as refused:
        game.push(Move.exchange(rack[:1]))
    assert refused.value.finding.code == "first-move-not-largest"
    assert len(game) == 0 and game.turns == ()


def test_an_illegal_move_raises_and_leaves_the_game_as_it_was() -> None:
    game = Game.deal(2, seed=3)
    game.push(game.legal_moves()[0])
    before = snapshot(game)
    rack = game.racks[game.to_move]
    far = Move.place([Placement(rack[0], 40, 40)])
    with pytest.raises(IllegalMoveError) as refused:
        game.push(far)
    assert refused.value.finding.code == "not-connected"
    assert str(refused.value).startswith(f"turn 2 ({far}): not-connected: ")
    assert refused.value.finding.pointer == "/turns/1/tiles"
    not_held = next(t for t in TILES if t not in rack)
    cell = game.legal_moves()[0].tiles[0]
    with pytest.raises(IllegalMoveError, match="tile-not-in-rack"):
        game.push(Move.place([Placement(not_held, cell.x, cell.y)]))
    with pytest.raises(IllegalMoveError, match="illegal-pass: .* passes while the bag holds"):
        game.push(Move.pass_turn())
    assert snapshot(game) == before
    assert not game.is_legal(far) and game.is_legal(game.legal_moves()[-1])


def exchange_position(bag: int) -> Game:
    """A mid-game position with ``bag`` tiles in the bag: one line on the board."""
    everything = [t for t in range(len(TILES)) for _ in range(COPIES)]
    board = [Placement(TILES[t], x, 0) for x, t in enumerate((0, 1, 2))]  # red circle, cross, diamond
    for p in board:
        everything.remove(p.tile)
    racks = [everything[-6:], everything[-12:-6]]
    rest = everything[: len(everything) - 12]
    on_board = rest[: len(rest) - bag]
    cells = board + [Placement(TILES[t], 100 + i, 100 + i * 3) for i, t in enumerate(on_board)]  # far away, apart
    return Game(["A", "B"], racks, rest[len(rest) - bag:], 0, board=cells)


def test_exchanges_are_as_large_as_the_bag_allows_and_a_pass_only_when_nothing_else_is_legal() -> None:
    game = exchange_position(bag=2)
    exchanges = [m for m in game.legal_moves() if m.action == "exchange"]
    assert exchanges and max(len(m.exchanged) for m in exchanges) == 2
    assert len({m for m in exchanges}) == len(exchanges)  # each set of tiles once
    with pytest.raises(IllegalMoveError, match="exchange-too-many"):
        game.push(Move.exchange(game.racks[0][:3]))
    # a rack with nothing to place: exchanges while the bag has tiles, else only a pass
    board = {Placement(Tile.parse("rc"), 0, 0).key: Tile.parse("rc")}
    stuck = [Tile.parse(t) for t in ("ox", "ox", "yd", "gs")]
    assert moves_for(board, stuck, 0, Rules()) == [Move.pass_turn()]
    assert {len(m.exchanged) for m in moves_for(board, stuck, 3, Rules())} == {1, 2, 3}
    assert moves_for(board, [Tile.parse("rd")], 0, Rules())[0].action == "place"


def test_going_out_ranks_with_the_end_bonus() -> None:
    # with the bag empty, a move that empties the rack scores its lines plus the end bonus
    for seed in range(40):
        game = Game.deal(2, seed=seed, rules=Rules(end_bonus=50))
        while not game.is_over():
            moves = game.legal_moves()
            outs = [m for m in moves if m.action == "place" and len(m.tiles) == len(game.racks[game.to_move])
                    and game.bag_size == 0]
            if outs:
                assert moves[0].score is not None and moves[0].score >= 50
                assert moves[0] in outs
                scores = [m.score for m in moves if m.score is not None]
                assert scores == sorted(scores, reverse=True)
                return
            game.push(moves[0])
    pytest.fail("no game reached a move that goes out")


def test_from_record_continues_a_recorded_game() -> None:
    data = simulate(3, 5)
    full = from_data(data)
    cut = Record(full.players, full.turns[:20], full.rules, meta=full.meta)
    game = Game.from_record(cut, seed=1)
    assert game.scores == replay(cut).totals and game.to_move == full.turns[20].player
    assert game.racks[game.to_move] == full.turns[20].rack
    with pytest.raises(IndexError, match="the record's turns cannot be"):
        game.pop()
    while not game.is_over():
        game.push(game.legal_moves()[0])
    assert game.turns[:20] == cut.turns
    assert replay(game.record()).findings == ()


@pytest.mark.parametrize("seed", [3, 8])
def test_the_games_turns_are_the_records_turns_read_back(seed: int) -> None:
    # placements and exchanges, as the game builds them (as tuples, without Turn's __new__)
    game = Game.deal(2, seed=seed)
    rng = random.Random(seed)
    kinds = set()
    while not game.is_over():
        moves = game.legal_moves()
        move = moves[0] if rng.random() < 0.7 else rng.choice(moves)
        kinds.add(move.action)
        game.push(move)
    assert {"place", "exchange"} <= kinds
    again = loads(dumps(game.record()))
    assert again.turns == game.turns and [type(t) for t in game.turns] == [Turn] * len(game.turns)
    assert [t._asdict() for t in again.turns] == [t._asdict() for t in game.turns]
    assert replay(again).findings == ()  # each field where it belongs: the racks, draws and scores hold


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10_000), st.integers(0, 14))
def test_from_record_of_a_games_record_plays_on_from_the_same_position(players: int, seed: int, turns: int) -> None:
    # before every seat has played, the record holds no rack of the seats yet to play: they are dealt
    game = Game.deal(players, seed=seed)
    for _ in range(turns):
        game.push(game.legal_moves()[0])
    again = Game.from_record(game.record(), seed=seed + 1)
    assert (again.board, again.scores, again.bag_size, again.turns) == (game.board, game.scores, game.bag_size, game.turns)
    played = {t.player for t in game.turns}
    assert [r for p, r in enumerate(again.racks) if p in played] == [r for p, r in enumerate(game.racks) if p in played]
    assert [len(r) for r in again.racks] == [len(r) for r in game.racks]
    if turns:
        assert again.to_move == game.to_move
    else:  # the starter by the rules, on the racks dealt here
        assert again.legal_moves() and again.is_legal(again.legal_moves()[0])
    while not again.is_over():
        again.push(again.legal_moves()[0])
    assert [f for f in replay(again.record()).findings if f.severity == "error"] == []


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 12), st.integers(0, 12))
def test_a_shallow_copy_plays_and_pops_without_touching_the_original(seed: int, turns: int, more: int) -> None:
    import copy

    game = Game.deal(2, seed=seed)
    for _ in range(turns):
        game.push(game.legal_moves()[0])
    game.legal_moves()  # (the board data begun: a copy must not share it either)
    before = snapshot(game)
    twin, deep = copy.copy(game), copy.deepcopy(game)
    for g in (twin, deep):  # a few turns on, then back to one turn before the original's
        pushed = 0
        while pushed < more and not g.is_over():
            g.push(g.legal_moves()[-1])
            pushed += 1
        for _ in range(pushed + 1):
            g.pop()
    assert snapshot(game) == before and len(game) == turns
    assert snapshot(twin) == snapshot(deep) and len(twin) == turns - 1
    assert twin.legal_moves() == deep.legal_moves()


def test_from_record_refuses_what_the_record_does_not_tell() -> None:
    data = simulate(2, 1)
    for turn in data["turns"]:
        del turn["rack"], turn["draw"]
    with pytest.raises(ValueError, match="does not tell the rack of seat"):
        Game.from_record(from_data(data))
    data = simulate(2, 1)
    data["turns"][2]["score"] += 1
    with pytest.raises(ValueError, match="the record has 1 error"):
        Game.from_record(from_data(data))


def test_a_seat_view_holds_nothing_the_seat_may_not_know() -> None:
    game = Game.deal(3, seed=9)
    for _ in range(30):
        game.push(game.legal_moves()[0])
    for seat in range(3):
        view = game.view(seat)
        assert view.rack == game.racks[seat]
        assert view.rack_sizes == tuple(len(r) for r in game.racks) and view.bag == game.bag_size
        for turn in view.turns:
            if turn.player != seat:
                assert turn.rack is None and turn.draw is None and turn.exchanged is None
        hidden = [t for p, r in enumerate(game.racks) if p != seat for t in r] + list(game._dealer.bag)
        assert sum(view.unseen) == len(hidden)
        assert all(view.unseen[t] == hidden.count(t) for t in range(len(TILES)))
    # a game that differs only in what seat 0 cannot see gives seat 0 the same view
    other = Game(game.names, [game.racks[0], game.racks[2], game.racks[1]], list(reversed(game._dealer.bag)), game.to_move,
                 board=_placements(game), scores=game.scores)
    mine = game.view(0)
    theirs = other.view(0)
    assert (theirs.board, theirs.rack, theirs.bag, theirs.unseen) == (mine.board, mine.rack, mine.bag, mine.unseen)
    assert game.view(game.to_move).legal_moves() == game.legal_moves()
    assert game.view((game.to_move + 1) % 3).legal_moves() == []


def _placements(game: Game) -> list[Placement]:
    return [Placement(tile, x, y) for (x, y), tile in game.board.items()]


@given(st.lists(st.tuples(st.sampled_from(TILES), st.integers(-50, 50), st.integers(-50, 50)), min_size=1, max_size=6))
def test_a_placement_move_round_trips_through_its_text(parts: list[tuple[Tile, int, int]]) -> None:
    move = Move.place(Placement(t, x, y) for t, x, y in parts)
    assert Move.parse(str(move)) == move


@given(st.lists(st.sampled_from(TILES), min_size=1, max_size=6))
def test_an_exchange_round_trips_through_its_text(tiles: list[Tile]) -> None:
    move = Move.exchange(tiles)
    assert Move.parse(str(move)) == move and str(move).startswith("exchange ")


@pytest.mark.parametrize("text", ["", "exchange", "rc@0", "exchange zz", "pass now", "rc@a,b"])
def test_a_text_that_is_no_move_is_refused_with_the_text(text: str) -> None:
    with pytest.raises(MoveError, match=f"bad move {text!r}"):
        Move.parse(text)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 40), st.randoms(use_true_random=False))
def test_is_legal_and_legal_moves_agree_on_every_tile_order(seed: int, turns: int, rnd: random.Random) -> None:
    """On a board with tiles (the first move is listed in row 0 from (0,0) only, as documented)."""
    game = Game.deal(2, seed=seed)
    while not game.is_over() and len(game) < turns:
        game.push(game.legal_moves()[0])
    if game.is_over():
        return
    legal = game.legal_moves()
    placements = [m for m in legal if m.action == "place"]
    for move in rnd.sample(placements, min(5, len(placements))):  # a legal move in any order of its tiles
        shuffled = Move.place(rnd.sample(move.tiles, len(move.tiles)))
        assert shuffled == move and shuffled in legal and game.is_legal(shuffled), (str(move), str(shuffled))
    rack = [t for t in game.racks[game.to_move]]
    cells = [(x + dx, y + dy) for (x, y) in game.board for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))] or [(0, 0)]
    for _ in range(30):  # any placement of rack tiles near the board: legal exactly when listed
        size = rnd.randint(1, min(3, len(rack)))
        x, y = rnd.choice(cells)
        dx, dy = rnd.choice(((1, 0), (0, 1)))
        tiles = rnd.sample(rack, size)
        move = Move.place(Placement(t, x + i * dx, y + i * dy) for i, t in enumerate(tiles))
        move = Move.place(rnd.sample(move.tiles, size))
        assert game.is_legal(move) == (move in legal), str(move)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6))
def test_a_views_best_placement_is_the_first_placement_it_lists(seed: int) -> None:
    game = Game.deal(2, seed=seed)
    while not game.is_over():  # to the end: the bag-empty turns, where going out earns the bonus, too
        view = game.view(game.to_move)
        listed = [m for m in view.legal_moves() if m.action == "place"]
        best = view.best_placement()
        assert (best, best and best.score) == ((listed[0], listed[0].score) if listed else (None, None))
        game.push(game.legal_moves()[0])
