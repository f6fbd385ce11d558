"""The endgame solver's referee: a plain minimax, written apart from the solver.

Every move of every line is searched to the end of the game, through the
playable :class:`~qwirkle_tools.play.game.Game` alone (``legal_moves``,
``push``, ``pop``, ``is_over``): no pruning, no move ordering, none of the
solver's code (its bare position, its move lists, its keys). A position met
again on another line is looked up rather than searched again, keyed by its
board, racks and seat, which is exact. Slow (every line of a seven-tile
endgame is millions of moves): for positions of up to about six tiles.

Used by ``tests/engines/test_endgame.py``, ``tests/cli/test_cli_endgame.py`` and
``benchmarks/bench_endgame.py --check``.
"""

from __future__ import annotations

from qwirkle_tools.play.game import Game, Move


def endgame(seed: int, most: int) -> Game | None:
    """The first position of a greedy self-play game (two players, dealt with
    ``seed``) with the bag empty and at most ``most`` tiles in the two racks;
    ``None`` if the game ends before."""
    game = Game.deal(players=2, seed=seed)
    while not game.is_over():
        if game.bag_size == 0 and sum(len(r) for r in game.racks) <= most:
            return game
        game.push(game.legal_moves()[0])
    return None


def minimax(game: Game, seen: dict[object, int] | None = None) -> int:
    """The spread of the points to come with best play (the mover's less the
    other's), every move of every line searched to the end; ``seen`` holds the
    values of positions already searched (pass the same dict to share them)."""
    if game.is_over():
        return 0
    seen = {} if seen is None else seen
    key = (frozenset(game.board.cells.items()), tuple(tuple(sorted(r)) for r in game.racks), game.to_move)
    if key not in seen:
        values = []
        for move in game.legal_moves():
            points = game.push(move)
            values.append(points - minimax(game, seen))
            game.pop()
        seen[key] = max(values)
    return seen[key]


def after(game: Game, move: Move, seen: dict[object, int] | None = None) -> int:
    """The value of playing ``move`` now: its points less the reply's minimax value."""
    points = game.push(move)
    value = points - minimax(game, seen)
    game.pop()
    return value
