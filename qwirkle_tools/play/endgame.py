"""The endgame solver: the best play once the bag is empty, in a two-player game.

With the bag empty nothing is hidden: the tiles a player has not seen are
the other's rack. The game is then a two-player game of perfect information,
and its value from a position is the spread of the points still to come (the
mover's less the other's, the end bonus included), which does not depend on
the scores so far. :func:`solve` finds it by negamax with alpha-beta pruning
over :meth:`Game.legal_moves <qwirkle_tools.play.game.Game.legal_moves>`
(best score first, so the first move searched is usually the best), a
transposition table (the same tiles placed by the same players in another
order is the same position) and iterative deepening: depth 1, 2, ... until
the search reaches the end of the game on every line (the value is then
*proven*) or the budget is spent. At the depth limit a position is valued by
a greedy playout to the end (each player plays their highest-scoring move),
so a search cut short still answers with a whole game's worth of points, and
reports the depth it completed.

Each root move gets its own value (a full-window search per move, the best
first), so the answer says what every candidate loses against perfect play
(:attr:`Solution.candidates`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.errors import QwirkleError
from ..core.safetext import one_line
from ..core.tiles import format_tiles
from ..formats.jsontext import JSON
from ..formats.record import Record, Turn
from .engine import replay
from .game import Game, Move

INFINITY = 10**9

_EXACT, _LOWER, _UPPER = 0, 1, 2


class NotAnEndgame(QwirkleError, ValueError):
    """The position is not one the solver takes: the bag is not empty, the game
    does not have two players, or it is over; or a record does not tell the
    position (its racks), or has no such turn."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A move at the root, its value (the spread to the end after it, from the
    mover's side), and the points it loses against the best move."""

    move: Move
    value: int
    loss: int

    def __str__(self) -> str:
        return f"{self.move} {self.value:+d}" + (f" (loses {self.loss})" if self.loss else "")


@dataclass(frozen=True, slots=True)
class Solution:
    """What :func:`solve` found.

    ``value`` is the spread of the points to come with best play from both
    sides, from the side of the player to move; ``line`` is the principal
    variation (the best move, the best reply, ... to the end, or to where the
    search stopped and the playout took over); ``proven`` says the search
    reached the end of the game on every line it needed (the value is exact),
    else ``depth`` is the last depth it completed within the budget (the
    value is then that depth's, with greedy playouts below it). ``nodes`` counts
    the positions searched, ``seconds`` the time taken.
    """

    value: int
    line: tuple[Move, ...]
    candidates: tuple[Candidate, ...]
    proven: bool
    depth: int
    nodes: int
    seconds: float

    @property
    def best(self) -> Move:
        return self.line[0]

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def loss(self, move: Move) -> int | None:
        """What ``move`` loses against the best, if it was valued."""
        return next((c.loss for c in self.candidates if str(c.move) == str(move)), None)

    def to_json(self) -> dict[str, JSON]:
        return {
            "value": self.value, "proven": self.proven, "depth": self.depth, "nodes": self.nodes,
            "seconds": round(self.seconds, 3), "line": [str(m) for m in self.line],
            "candidates": [{"move": str(c.move), "value": c.value, "loss": c.loss} for c in self.candidates],
        }


class _Spent(Exception):
    """The budget ran out in the middle of a depth."""


class _Search:
    """One solve: the game searched in place (push and pop), the table, the counts."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.deadline: float | None = None
        self.max_nodes: int | None = None
        self.nodes = 0
        self.table: dict[tuple[frozenset[tuple[int, int, int]], int], tuple[int, int, int, bool, str | None]] = {}
        self.placed: set[tuple[int, int, int]] = set()  # (cell key, tile, player) since the root

    def key(self) -> tuple[frozenset[tuple[int, int, int]], int]:
        return frozenset(self.placed), self.game.to_move

    def play(self, move: Move) -> int:
        p = self.game.to_move
        points = self.game.push(move)
        for pl in move.tiles:
            self.placed.add((pl.key, int(pl.tile), p))
        return points

    def unplay(self, move: Move, player: int) -> None:
        self.game.pop()
        for pl in move.tiles:
            self.placed.discard((pl.key, int(pl.tile), player))

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _Spent
        if self.deadline is not None and self.nodes % 32 == 0 and time.monotonic() > self.deadline:
            raise _Spent

    def playout(self) -> int:
        """The spread to the end, from the mover's side, with both players greedy."""
        game, spread, played, sign = self.game, 0, 0, 1
        while not game.is_over():
            spread += sign * game.push(game.legal_moves()[0])
            sign, played = -sign, played + 1
        for _ in range(played):
            game.pop()
        return spread

    def value(self, move: Move, depth: int, alpha: int, beta: int) -> tuple[int, bool]:
        """The value of ``move`` for the mover (its points less the reply's value),
        searched within (alpha, beta), and whether it is proven."""
        p = self.game.to_move
        points = self.play(move)
        try:
            if self.game.is_over():
                return points, True
            if depth <= 1:
                return points - self.playout(), False
            child, proven = self.negamax(depth - 1, points - beta, points - alpha)
            return points - child, proven
        finally:
            self.unplay(move, p)

    def negamax(self, depth: int, alpha: int, beta: int) -> tuple[int, bool]:
        """The value of the position for the mover, searched ``depth`` plies
        (then playouts), within (alpha, beta): a value at or below alpha is an
        upper bound, at or above beta a lower bound. And whether it is proven
        (no playout below)."""
        self.tick()
        key = self.key()
        entry = self.table.get(key)
        first: str | None = None
        if entry is not None:
            value, flag, stored, proven, first = entry
            if proven or stored >= depth:
                if flag == _EXACT or (flag == _LOWER and value >= beta) or (flag == _UPPER and value <= alpha):
                    return value, proven
        moves = self.game.legal_moves()
        if first is not None:  # the table's best move searched first
            moves.sort(key=lambda m: str(m) != first)
        start_alpha, best, best_move, proven_all = alpha, -INFINITY, moves[0], True
        for move in moves:
            value, proven = self.value(move, depth, alpha, beta)
            proven_all = proven_all and proven
            if value > best:
                best, best_move = value, move
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
        flag = _UPPER if best <= start_alpha else _LOWER if best >= beta else _EXACT
        self.table[key] = (best, flag, depth, proven_all, str(best_move))
        return best, proven_all

    def root(self, moves: Sequence[Move], depth: int) -> tuple[int, Move, bool]:
        """The best of ``moves`` searched ``depth`` plies (alpha-beta at the root
        too), its value, and whether that is proven."""
        self.tick()
        best, best_move, proven_all = -INFINITY, moves[0], True
        for move in moves:
            value, proven = self.value(move, depth, best, INFINITY)
            proven_all = proven_all and proven
            if value > best:
                best, best_move = value, move
        return best, best_move, proven_all

    def line(self, first: Move, limit: int) -> tuple[Move, ...]:
        """The principal variation from the root after ``first``: the table's
        best moves, then the greedy playout's, to the end."""
        game = self.game
        played: list[tuple[Move, int]] = []
        move: Move | None = first
        while move is not None and len(played) < limit:
            played.append((move, game.to_move))
            self.play(move)
            if game.is_over():
                break
            entry = self.table.get(self.key())
            moves = game.legal_moves()
            move = moves[0]
            if entry is not None and entry[4] is not None:
                move = next((m for m in moves if str(m) == entry[4]), move)
        for move, player in reversed(played):
            self.unplay(move, player)
        return tuple(m for m, _ in played)


UNLIMITED = 64
"""The depth of an exact search: more plies than any bag-empty game can last."""


def solve(game: Game, seconds: float | None = 5.0, max_nodes: int | None = None, candidates: int = 5,
          include: Sequence[Move] = ()) -> Solution:
    """The best play from ``game``'s position (bag empty, two players), within
    ``seconds`` of time or ``max_nodes`` positions (``None``: no limit).

    First an exact search (alpha-beta to the end of the game) with half the
    budget; if it does not finish, iterative deepening (depth 1, 2, ...) with
    greedy playouts at the depth limit, up to four fifths of it. The rest
    values the moves of ``include`` (say, the move a record played) and up
    to ``candidates`` other moves the same way (exact, or at the depth
    reached); those it cannot value in time are left out (but for
    ``include``, valued whatever the budget). The game is searched in place
    with push and pop and left as it was.

    Raises:
        NotAnEndgame: the bag holds tiles, the game has more than two players, or it is over.
    """
    if len(game.names) != 2:
        raise NotAnEndgame(f"the endgame solver takes two-player games, not {len(game.names)} players")
    if game.bag_size:
        raise NotAnEndgame(f"the bag still holds {game.bag_size} tiles: the endgame starts when it is empty")
    if game.is_over():
        raise NotAnEndgame("the game is over: there is nothing to solve")
    started = time.monotonic()
    search = _Search(game)

    def until(share: float) -> None:  # the budget up to this share of the whole
        search.deadline = started + share * seconds if seconds is not None else None
        search.max_nodes = int(share * max_nodes) if max_nodes is not None else None

    moves = game.legal_moves()
    until(0.5)
    try:
        value, best, proven = search.root(moves, UNLIMITED)
        depth = UNLIMITED
    except _Spent:
        until(0.8)
        value, best, proven, depth = _deepening(search, moves)
    others: list[Candidate] = []
    search.deadline = search.max_nodes = None
    wanted = {str(m) for m in include} - {str(best)}
    for move in moves:
        if str(move) in wanted:
            v, _ = search.value(move, depth, -INFINITY, INFINITY)
            others.append(Candidate(move, v, value - v))
    until(1.0)
    try:
        for move in [m for m in moves if m is not best and str(m) not in wanted][:candidates]:
            v, _ = search.value(move, depth, -INFINITY, INFINITY)
            others.append(Candidate(move, v, value - v))
    except _Spent:
        pass
    ranked = sorted([Candidate(best, value, 0), *others], key=lambda c: c.loss)
    search.deadline = search.max_nodes = None
    line = search.line(best, limit=200)
    return Solution(value, line, tuple(ranked), proven, len(line) if proven else depth, search.nodes,
                    time.monotonic() - started)


def _deepening(search: _Search, moves: list[Move]) -> tuple[int, Move, bool, int]:
    """Iterative deepening with playouts, to the end of the budget: the last
    completed depth's best move and value (depth 0: the greedy move, valued
    by a playout)."""
    found: tuple[int, Move, bool, int] | None = None
    for depth in range(1, UNLIMITED):
        try:
            value, best, proven = search.root(moves, depth)
        except _Spent:
            break
        found = (value, best, proven, depth)
        moves = [best, *(m for m in moves if m is not best)]  # the next depth searches it first
        if proven:
            break
    if found is None:
        search.deadline = search.max_nodes = None
        value, _ = search.value(moves[0], 1, -INFINITY, INFINITY)
        found = (value, moves[0], False, 0)
    return found


def position(record: Record, turn: int | None = None) -> tuple[Game, Move | None]:
    """The game before turn ``turn`` (1-based) of a record, and the move the
    record played there (``None`` past its end); with no ``turn``, the first
    position with the bag empty. The record must tell every rack (see
    :meth:`Game.from_record <qwirkle_tools.play.game.Game.from_record>`).

    Raises:
        NotAnEndgame: the record has errors, does not tell the racks there, or
            has no turn ``turn``.
    """
    last = len(record.turns) + 1
    if turn is not None and not 1 <= turn <= last:
        raise NotAnEndgame(f"--turn {turn}: the record has {len(record.turns)} turns (1 to {last}, {last} after the last)")
    if turn is None:
        history = replay(record)
        turn = next((k + 1 for k in range(len(record.turns) + 1) if history.state(k).bag == 0), None)
        if turn is None:
            raise NotAnEndgame("the bag does not empty in this record (or its size is not known)")
    try:
        game = Game.from_record(dataclasses.replace(record, turns=record.turns[:turn - 1], result=None))
    except ValueError as exc:
        raise NotAnEndgame(f"before turn {turn}: {exc}") from None
    return game, _move(record.turns[turn - 1]) if turn <= len(record.turns) else None


def _move(turn: Turn) -> Move | None:
    if turn.action == "place":
        return Move.place(turn.tiles) if turn.tiles is not None else None
    if turn.action == "exchange":
        return Move.exchange(turn.exchanged) if turn.exchanged is not None else None
    return Move.pass_turn()


def format_solution(solution: Solution, game: Game, played: Move | None = None, first_turn: int = 1) -> str:
    """The solution as text: the value, the line turn by turn, the candidates
    and what the played move loses."""
    names = [one_line(name, most=24) for name in game.names]  # a record's names are any text: shown safe
    mover = names[game.to_move]
    how = "proven" if solution.proven else \
        f"searched {solution.depth} {'ply' if solution.depth == 1 else 'plies'} deep, greedy play below"
    lines = [f"{mover} to move; the bag is empty; " + ", ".join(f"{n} {s}" for n, s in zip(names, game.scores)),
             "racks: " + ", ".join(f"{n} {format_tiles(r)}" for n, r in zip(names, game.racks)),
             f"best play: {solution.value:+d} for {mover} from here ({how})", "line:"]
    seat = game.to_move
    for i, move in enumerate(solution.line):
        lines.append(f"  {first_turn + i}. {names[seat]}: {move}")
        seat = (seat + 1) % len(names)
    lines.append("candidates (value for the mover, what each loses):")
    for c in solution.candidates:
        lines.append(f"  {c.value:+4d}  {'best' if not c.loss else f'-{c.loss}':>5}  {c.move}")
    if played is not None:
        loss = solution.loss(played)
        lines.append(f"played: {played}: " + ("the best" if loss == 0 else f"loses {loss}" if loss is not None
                                             else "not a legal move here"))
    lines.append(f"{solution.nodes:,} positions in {solution.seconds:.2f} s")
    return "\n".join(lines)
