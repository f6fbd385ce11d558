"""Decisive endgame moves: once the bag is empty, a move that changes who wins, proven.

With the bag empty in a two-player game the racks are known or follow from the record: a
rack told or deduced, or, in a game that ended with a player going out, that player's rack is
the tiles they went on to play, and the other holds every tile still unseen. The endgame
solver then asks who wins (:class:`~qwirkle_tools.engines.endgame.Threshold`, null windows):
does the move played win, draw, and could the best move do better? Where the best move leads
to a better result (a win, a draw, a loss), the move is decisive, and a solve
(:func:`~qwirkle_tools.engines.endgame.solve`) gives both margins: "it turns a win by 1 into
a loss by 2". Only small endgames are asked here (at most :data:`MOST_TILES` tiles in the two
racks, :data:`NODES` positions), so the default analysis stays fast (a position of 6 tiles
costs about 7 ms, of 5 about 3); a larger one is left to ``qwirkle endgame`` and ``--engine sim``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..core.board import Placement, key_cell
from ..core.move import Move
from ..core.pickling import Rebuilt, rebuilt
from ..core.tiles import TILES, each_copy
from ..engines.endgame import Threshold, solve
from ..engines.solution import lead, result_text
from ..play.engine import GameState, History
from ..play.game import Game

MOST_TILES = 5
"""The most tiles the two racks may hold together for the analysis to solve the endgame."""
NODES = 20_000
"""The positions the solver may search for one turn (a small endgame needs a few hundred)."""


@dataclass(frozen=True, slots=True)
class Decisive:
    """A move that changed the result: ``best`` is the margin the best move leads to, ``played``
    the margin of the move played, both for the mover, with best play after."""

    best: int
    played: int
    best_move: Move

    def text(self) -> str:
        return (f"it turns a {result_text(self.best)} into a {result_text(self.played)}, best play after "
                f"({self.best_move} keeps the {result_text(self.best)}; the endgame solved exactly)")

    def to_data(self) -> dict[str, object]:
        return {"best_margin": self.best, "played_margin": self.played, "best": str(self.best_move)}

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


def decisive(history: History, index: int) -> Decisive | None:
    """Whether turn ``index`` (0-based) was a decisive endgame move (see the module's notes).

    First three null-window questions, each cheaper than a value: does the move played win
    (then it is not decisive), draw, and could the best move do better than it? Only a
    move found decisive is solved for the margins and the best move."""
    here = _position(history, index)
    if here is None:
        return None
    game, played = here
    mover = game.to_move
    if len(played.tiles) == len(game.racks[mover]):  # it goes out: the game ends, its result is the record's
        after = history.state(index + 1).scores
        if after[mover] > after[1 - mover]:  # (won: nothing does better)
            return None
    try:
        question = Threshold(game, NODES)
    except ValueError:
        return None
    draw = -lead(game)  # a value above it wins, it alone draws
    if question.above(draw, played) is not False:  # the move played wins (or it is not known)
        return None
    draws = question.above(draw - 1, played)
    if draws is None or not question.above(draw if draws else draw - 1):
        return None
    solution = solve(game, seconds=None, max_nodes=NODES, candidates=0, include=[played])
    mine = next((c for c in solution.candidates if c.move == played), None)
    if not solution.proven or mine is None:
        return None
    return Decisive(lead(game) + solution.value, lead(game) + mine.value, solution.best)


def _position(history: History, index: int) -> tuple[Game, Move] | None:
    """The game before turn ``index`` with both racks, and the move played, where the bag is
    empty in a two-player game and the racks are known and small."""
    record = history.record
    turn = history.turns[index]
    state = history.before(index)
    if turn is None or len(record.players) != 2 or state.bag != 0 or not state.board_known or state.ended:
        return None
    racks = _racks(history, index, state)
    if racks is None or sum(map(len, racks)) > MOST_TILES or not racks[turn.player]:
        return None
    board = [Placement(TILES[t], *key_cell(k)) for k, t in state.board.cells.items()]
    try:
        game = Game([p.name for p in record.players], racks, [], turn.player, record.rules, board=board,
                    scores=state.scores)
    except ValueError:  # (a position the record does not make whole: not judged here)
        return None
    return game, Move.place(turn.tiles) if turn.action == "place" and turn.tiles else Move.pass_turn()


def _racks(history: History, index: int, state: GameState) -> list[list[int]] | None:
    """Both racks before turn ``index`` with the bag empty, where the record makes them known."""
    unseen = each_copy(state.unseen(-1))  # the tiles not on the board: in one rack or the other
    known: list[list[int] | None] = [None if r is None else [int(t) for t in r] for r in state.racks]
    record = history.record
    turn = record.turns[index]
    mine, _ = history.known_rack(index)
    if mine is not None:
        known[turn.player] = [int(t) for t in mine]
    if known[0] is None and known[1] is None and record.result is not None and record.result.end == "out":
        last = record.turns[-1]  # the player who went out: their rack was what they went on to play
        later = [t for n in range(index, len(record.turns)) for t in _placed(history, n, last.player)]
        known[last.player] = later
    for seat in (0, 1):
        held = known[seat]
        if held is not None and known[1 - seat] is None:
            rest = Counter(unseen)
            rest.subtract(held)
            if min(rest.values(), default=0) < 0:
                return None
            known[1 - seat] = list(rest.elements())
    first, second = known
    if first is None or second is None or sorted(first + second) != sorted(unseen):
        return None
    return [first, second]


def _placed(history: History, index: int, seat: int) -> list[int]:
    turn = history.record.turns[index]
    return [int(p.tile) for p in turn.tiles or ()] if turn.player == seat else []


__all__ = ["MOST_TILES", "NODES", "Decisive", "decisive"]
