"""The endgame solver: the best play once the bag is empty, in a two-player game.

With the bag empty nothing is hidden: the tiles a player has not seen are
the other's rack. The game is then a two-player game of perfect information,
and its value from a position is the spread of the points still to come (the
mover's less the other's, the end bonus included), which does not depend on
the scores so far. :func:`solve` finds it by negamax with alpha-beta pruning
over the legal moves of :func:`~qwirkle_tools.core.movegen.generate_raw`
(best score first, the end bonus counted, so the first move searched is usually the best), a
transposition table (the same tiles placed by the same players in another
order is the same position) and iterative deepening: depth 1, 2, ... until
the search reaches the end of the game on every line (the value is then
*proven*) or the budget is spent. At the depth limit a position is valued by
a greedy playout to the end (each player plays their highest-scoring move),
so a search cut short still answers with a whole game's worth of points, and
reports the depth it completed.

Each root move gets its own value, so the answer says what every candidate
loses against perfect play (:attr:`Solution.candidates`): a move after the
first is asked with a null window whether it beats the best so far (then
searched for its value), and a candidate's value is searched below the bound
that answer gave. In the tree too, null windows; the table's move is played
before the moves are generated (it often settles the position); a reply of
one tile is valued from its placements before the move, without a node.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from itertools import islice
from typing import Any, Final

from ..core.board import Placement, cell_key, key_cell
from ..core.frontier import Line
from ..core.lines import lone_points, run_ends
from ..core.movegen import Cutoff, generate_raw_on
from ..core.rules import judge
from ..core.text import count
from ..core.tiles import TILES
from ..play.game import Game, Move
from .endgame_position import NotAnEndgame as NotAnEndgame  # (its home: the position a record gives)
from .endgame_position import Start as Start
from .endgame_position import position as position
from .endgame_position import start as start
from .solution import Candidate, Solution
from .solution import format_solution as format_solution  # (its home is engines.solution)

INFINITY: Final = 10**9

MOVES_KEPT: Final = 20_000
"""The most moves the search keeps of one move generation: the best-scoring (a real endgame has at most
a few hundred; a crowded board may offer a million, and every one kept costs about 1 kB). A position with
more is searched over these alone, and the answer says so (:attr:`Solution.cut`)."""
TABLE_MOST: Final = 250_000
"""The most positions the transposition table (and each cache by position) holds: full, it is emptied
and filled again (correct, if slower). With :data:`MOVES_KEPT`, the solver's memory stays under
about 300 MiB whatever the budget (see ``docs/performance.md``)."""

_EXACT, _LOWER, _UPPER = 0, 1, 2


class _Spent(Exception):
    """The budget ran out in the middle of a depth."""


_Raw = tuple[tuple[int, ...], tuple[int, ...]] | None
"""A move as the search plays it: its cell keys and tiles, or ``None`` for a pass."""


class _Search:
    """One solve, on the position's bare parts (the cells, the two racks, the
    seat to move), changed in place and changed back: a node costs one move
    generation (:func:`~qwirkle_tools.core.movegen.generate_raw_on`, from the
    search's own :class:`~qwirkle_tools.core.frontier.Line` of board data). The
    game's rules stay the rules' own: the moves, their scores with the end bonus
    (:meth:`Rules.scored <qwirkle_tools.core.rules.Rules.scored>`),
    and the end (a player goes out, or neither can place: :func:`~qwirkle_tools.core.rules.dead`,
    here "neither has a move"); the brute-force tests play the same positions
    through :class:`~qwirkle_tools.play.game.Game` and agree."""

    def __init__(self, game: Game) -> None:
        self.rules = game.rules
        self.cells: dict[int, int] = dict(game.board.cells)
        self.racks: list[list[int]] = [[int(t) for t in rack] for rack in game.racks]
        self.to_move = game.to_move
        self.board = Line(self.cells, self.rules.qwirkle_bonus)  # the move generator's data of each board searched
        self.deadline: float | None = None  # when the search under way gives up (_Spent)
        self.max_nodes: int | None = None
        self.hard: float | None = None  # the end of the whole budget: past it, each generation hands back its first moves
        self.cutoff = Cutoff(most=MOVES_KEPT)
        self.cut = False  # some generation was cut short (by the clock or MOVES_KEPT): nothing is proven
        self.nodes = 0
        # the position's key: the XOR of a random number per (cell, tile, player) placed since the root and
        # one for the seat to move (Zobrist hashing: one XOR a tile, where a set of the tiles costs a copy a node);
        # the numbers of 62 bits, so that the compiled build keeps the key a machine integer
        self.hash = 0
        self.codes: dict[Any, list[int]] = {}  # by cell key, a cell's numbers by tile << 1 | player (0: not drawn yet)
        self.numbers = random.Random(0)
        self.table: dict[int, tuple[int, int, int, bool, _Raw, int]] = {}
        # the moves of the player after a pass (the position's key then, the moves): generated to tell a pass
        # from the end, and the position the pass leads to has them
        # what the last completed root search found of each root move: its value and whether that is exact
        # (else an upper bound)
        self.bounds: dict[_Raw, tuple[int, bool]] = {}
        self.lones: dict[int, list[tuple[int, int]]] = {}  # by the position's key: see lone
        self.outs: dict[int, int | None] = {}  # by the position's key: see last (the same tile, the same board)
        self.held: tuple[int, list[tuple[int, _Raw]]] | None = None

    def number(self, key: Any, tile: int, player: int) -> int:
        """The number of ``tile`` of ``player`` on the cell ``key``, drawn when first asked for."""
        numbers = self.codes.get(key)
        if numbers is None:
            numbers = self.codes[key] = [0] * (2 * len(TILES))
        found = numbers[tile << 1 | player]
        if not found:
            found = numbers[tile << 1 | player] = self.numbers.getrandbits(_BITS) or 1
        return found

    def moves(self) -> list[tuple[int, _Raw]]:
        """The mover's moves with what each scores (the end bonus counted), best first;
        a pass alone when the mover cannot place but the other can; none at the end."""
        held = self.held
        if held is not None and held[0] == self.hash:  # the other's moves, generated when this one passed
            self.held = None
            return held[1]
        moves = self.placements(self.to_move)
        if moves:
            return moves
        # the mover cannot place: a pass if the other can (the moves it will then choose from, kept), else the end
        other = self.placements(1 - self.to_move)
        if other:
            self.held = (self.hash ^ _TURN, other)
            return [(0, None)]
        return []

    def placements(self, seat: int) -> list[tuple[int, _Raw]]:
        """The placements of ``seat``'s rack with what each scores (the end bonus counted), best first
        (at most :data:`MOVES_KEPT`). The generation reads the clock: past the search's deadline it
        gives up (:class:`_Spent`); with none, past the budget's end it hands back the moves found."""
        rack = self.racks[seat]
        cutoff = self.cutoff
        cutoff.deadline, cutoff.cut = self.deadline if self.deadline is not None else self.hard, False
        found = generate_raw_on(self.board.data(self.cells), rack, self.rules, cutoff)
        if cutoff.cut:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise _Spent
            self.cut = True
        whole = len(rack)
        bonus = self.rules.scored(0, whole, whole, 0)  # the end bonus: a move that empties the rack scores it
        moves: list[tuple[int, _Raw]] = [(m[0] + bonus if len(m[3]) == whole else m[0], (m[2], m[3])) for m in found]
        if bonus and any(len(m[3]) == whole for m in found):
            moves.sort(key=lambda m: -m[0])  # going out may rank a move higher; a stable sort keeps the generator's ties
        return moves

    def play(self, move: _Raw) -> bool:
        """Plays ``move`` for the mover; whether that ended the game (the rack emptied)."""
        p = self.to_move
        self.to_move = 1 - p
        self.hash ^= _TURN
        if move is None:
            return False
        rack, cells, codes = self.racks[p], self.cells, self.codes
        keys, tiles = move
        for i in range(len(keys)):  # (not zip(*move): compiled, a call through the interpreter)
            k: Any = keys[i]
            t = tiles[i]
            cells[k] = t
            rack.remove(t)
            numbers = codes.get(k)
            found = 0 if numbers is None else numbers[t << 1 | p]
            self.hash ^= found or self.number(k, t, p)
        self.board.push(move[0])
        return not rack

    def unplay(self, move: _Raw) -> None:
        self.to_move = p = 1 - self.to_move
        self.hash ^= _TURN
        if move is None:
            return
        rack, cells, codes = self.racks[p], self.cells, self.codes
        keys, tiles = move
        for i in range(len(keys)):
            k: Any = keys[i]
            t = tiles[i]
            del cells[k]
            rack.append(t)
            self.hash ^= codes[k][t << 1 | p]  # (numbered when played)
        self.board.pop()

    def lone(self) -> list[tuple[int, int]]:
        """The placements of the other player's one tile on this board, as (points with the end
        bonus, cell key), best first; kept by the position's key (every move from here asks)."""
        found = self.lones.get(self.hash)
        if found is None:
            tile = self.racks[1 - self.to_move]
            bonus = self.rules.scored(0, 1, 1, 0)
            found = self.lones[self.hash] = [(m[0] + bonus, m[2][0])
                                             for m in generate_raw_on(self.board.data(self.cells), tile, self.rules)]
        return found

    def last(self, lone: list[tuple[int, int]], placed: tuple[int, ...]) -> int | None:
        """What the mover's one tile scores at best, going out (the end bonus counted), ``None`` if it
        cannot be placed; from ``lone``, its placements before the last move placed tiles on ``placed``.
        A placement there stays what it was unless its row or its column now holds a tile of that move:
        the cells at the ends of the runs through those tiles, each scored as the rules score one tile
        (:func:`~qwirkle_tools.core.lines.lone_points`, held to :func:`~qwirkle_tools.core.rules.judge_placed`).
        Kept by the position's key: another order of the same moves meets the same position (four in ten,
        measured)."""
        if not placed:
            return lone[0][0] if lone else None
        known = self.outs.get(self.hash, -1)
        if known != -1:
            return known
        best = self.outs[self.hash] = self.best_last(lone, placed)
        return best

    def best_last(self, lone: list[tuple[int, int]], placed: tuple[int, ...]) -> int | None:
        """:meth:`last` worked out."""
        cells = self.cells
        ends = run_ends(cells, placed)  # (a list: a few cells, each looked up in it once a placement of lone)
        best = None
        for points, f in lone:  # (loops, not next() of a generator and a bound cells.get: compiled, direct calls)
            if f not in ends and f not in cells:
                best = points
                break
        tile = self.racks[self.to_move][0]
        bonus = self.rules.scored(0, 1, 1, 0)
        line_bonus = self.rules.qwirkle_bonus
        for end in ends:
            scored = lone_points(cells, end, tile, line_bonus)  # (0: the tile may not go there)
            if scored and (best is None or scored + bonus > best):
                best = scored + bonus
        return best

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _Spent
        if self.deadline is not None and self.nodes % 32 == 0 and time.monotonic() > self.deadline:
            raise _Spent

    def playout(self) -> int:
        """The spread to the end, from the mover's side, with both players greedy."""
        played: list[_Raw] = []
        spread, sign = 0, 1
        try:
            while True:
                moves = self.moves()  # (out of time, it gives up: the moves played so far are taken back)
                if not moves:
                    break
                points, move = moves[0]
                spread += sign * points
                sign = -sign
                played.append(move)
                if self.play(move):
                    break
        finally:
            for move in reversed(played):
                self.unplay(move)
        return spread

    def store(self, key: int, entry: tuple[int, int, int, bool, _Raw, int]) -> None:
        """A position's entry in the table, emptied first when it holds :data:`TABLE_MOST`
        (with the caches by position: the memory bound)."""
        table = self.table
        if len(table) >= TABLE_MOST:
            table.clear()
            self.lones.clear()
            self.outs.clear()
        table[key] = entry

    def value(self, points: int, move: _Raw, depth: int, alpha: int, beta: int) -> tuple[int, bool]:
        """The value of ``move`` (scoring ``points``) for the mover: its points less
        the reply's value, searched within (alpha, beta); and whether it is proven."""
        other = self.racks[1 - self.to_move]
        lone = self.lone() if len(other) == 1 and (move is None or len(move[1]) < len(self.racks[self.to_move])) else None
        out = self.play(move)
        try:
            if out:
                return points, True
            if lone is not None:  # the reply has one tile: it goes out with its best placement, if it has one
                last = self.last(lone, () if move is None else move[0])
                if last is not None:
                    if depth > 1:  # counted as the node it stands for (at the depth limit: the playout it stands for)
                        self.tick()
                    return points - last, True
            if depth <= 1:
                return points - self.playout(), False
            child, proven = self.negamax(depth - 1, points - beta, points - alpha)
            return points - child, proven
        finally:
            self.unplay(move)

    def negamax(self, depth: int, alpha: int, beta: int) -> tuple[int, bool]:
        """The value of the position for the mover, searched ``depth`` plies
        (then playouts), within (alpha, beta): a value at or below alpha is an
        upper bound, at or above beta a lower bound. And whether it is proven
        (no playout below)."""
        self.tick()
        key = self.hash
        entry = self.table.get(key)
        start_alpha, best, best_move, best_points, proven_all = alpha, -INFINITY, None, 0, True
        first: _Raw = None
        if entry is not None:
            value, flag, stored, proven, first, points = entry
            if proven or stored >= depth:
                if flag == _EXACT or (flag == _LOWER and value >= beta) or (flag == _UPPER and value <= alpha):
                    return value, proven
            if first is not None:  # the table's best move, searched before the moves are generated: it may cut off
                best, proven_all = self.value(points, first, depth, alpha, beta)
                best_move, best_points = first, points
                alpha = max(alpha, best)
                if alpha >= beta:
                    self.store(key, (best, _LOWER, depth, proven_all, best_move, best_points))
                    return best, proven_all
        moves = self.moves()
        if not moves:
            return 0, True  # neither player can place: the game is over, blocked
        for points, move in moves:
            if first is not None and move == first:
                continue
            if best == -INFINITY or beta - alpha == 1 or depth <= 1:  # (at depth 1 the replies are playouts: no window)
                value, proven = self.value(points, move, depth, alpha, beta)
            else:  # a null window first: is the move better than the best so far? searched again if it may be
                value, proven = self.value(points, move, depth, alpha, alpha + 1)
                if alpha < value < beta:
                    value, proven = self.value(points, move, depth, alpha, beta)
            proven_all = proven_all and proven
            if value > best:
                best, best_move, best_points = value, move, points
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
        flag = _UPPER if best <= start_alpha else _LOWER if best >= beta else _EXACT
        self.store(key, (best, flag, depth, proven_all, best_move, best_points))
        return best, proven_all

    def root(self, moves: Sequence[tuple[int, _Raw]], depth: int) -> tuple[int, _Raw, bool]:
        """The best of ``moves`` searched ``depth`` plies (alpha-beta at the root
        too), its value, and whether that is proven."""
        self.tick()
        best, best_move, proven_all = -INFINITY, moves[0][1], True
        bounds: dict[_Raw, tuple[int, bool]] = {}
        deadline = self.deadline
        for points, move in moves:
            if deadline is not None and time.monotonic() > deadline:  # (a move that goes out costs no node)
                raise _Spent
            if best == -INFINITY or depth <= 1:  # (at depth 1 the replies are playouts: no window)
                value, proven = self.value(points, move, depth, best, INFINITY)
                exact = True
            else:  # a null window: is it better than the best so far? If so, its value
                value, proven = self.value(points, move, depth, best, best + 1)
                if value > best:
                    value, proven = self.value(points, move, depth, best, INFINITY)
                exact = value > best
            bounds[move] = (value, exact)
            proven_all = proven_all and proven
            if value > best:
                best, best_move = value, move
        self.bounds = bounds
        return best, best_move, proven_all



_BITS: Final = 62
"""The bits of a position's key and of each number XORed into it (a machine integer, compiled)."""
_TURN: Final = random.Random(1).getrandbits(_BITS)
"""The number XORed into a position's key as the seat to move changes."""


def _as_move(move: _Raw, points: int) -> Move:
    if move is None:
        return Move.pass_turn()
    return Move.place((Placement(TILES[t], *key_cell(k)) for k, t in zip(*move)), points)


def _raw(move: Move) -> _Raw:
    if move.action == "pass":
        return None
    return tuple([cell_key(pl.x, pl.y) for pl in move.tiles]), tuple(int(pl.tile) for pl in move.tiles)


UNLIMITED: Final = 64
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
    ``include``, valued whatever the budget). The search works on a copy of
    the position's bare parts: ``game`` is not changed.

    Raises:
        NotAnEndgame: the bag holds tiles, the game has more than two players, or it is over.
        ValueError: ``seconds`` or ``max_nodes`` is negative, or ``seconds`` is not a number
            (no budget at all, or none left, is not an error: the greedy move is then valued).
    """
    if (seconds is not None and not seconds >= 0) or (max_nodes is not None and max_nodes < 0):  # (nan is not >= 0)
        raise ValueError(f"the budget must be at least 0 seconds and 0 nodes, not {seconds!r} and {max_nodes!r}")
    _refuse(game)
    return _solve(game, seconds, max_nodes, candidates, include)


def _refuse(game: Game) -> None:
    """Raises NotAnEndgame unless ``game`` is a two-player game, not over, with the bag empty."""
    if len(game.names) != 2:
        raise NotAnEndgame(f"the endgame solver takes two-player games, not {len(game.names)} players")
    if game.bag_size:
        raise NotAnEndgame(f"the bag still holds {count(game.bag_size, 'tile')}: the endgame starts when it is empty")
    if game.is_over():
        raise NotAnEndgame("the game is over: there is nothing to solve")


def _solve(game: Game, seconds: float | None, max_nodes: int | None, candidates: int, include: Sequence[Move]
           ) -> Solution:
    started = time.monotonic()
    search = _Search(game)

    def until(share: float) -> None:  # the budget up to this share of the whole
        search.deadline = started + share * seconds if seconds is not None else None
        search.max_nodes = int(share * max_nodes) if max_nodes is not None else None

    search.hard = started + 0.8 * seconds if seconds is not None else None  # (a crowded board's moves take long)
    moves = search.moves()
    if include:
        moves += _missing(search, include, moves)
    search.hard = started + seconds if seconds is not None else None
    until(0.5)
    try:
        value, best, proven = search.root(moves, UNLIMITED)
        depth = UNLIMITED
    except _Spent:
        until(0.8)
        value, best, proven, depth = _deepening(search, moves)
    points = dict((m, s) for s, m in moves)
    others: list[Candidate] = []
    search.deadline, search.max_nodes = search.hard, None  # the moves of include are valued whatever the nodes
    wanted = {_same(_raw(m)) for m in include} - {_same(best)}
    for s, move in moves if wanted else ():
        if _same(move) in wanted:
            try:
                v = _candidate(search, s, move, depth)
            except _Spent:  # out of time: valued by one playout, quick past the budget (so not proven)
                search.deadline, search.cut = None, True
                v = min(value, search.value(s, move, 1, -INFINITY, INFINITY)[0])
                search.deadline = search.hard
            others.append(Candidate(_as_move(move, s), v, value - v))
    until(1.0)
    try:
        for s, move in list(islice((m for m in moves if m[1] != best and _same(m[1]) not in wanted), candidates)):
            v = _candidate(search, s, move, depth)
            others.append(Candidate(_as_move(move, s), v, value - v))
    except _Spent:
        pass
    ranked = sorted([Candidate(_as_move(best, points[best]), value, 0), *others], key=lambda c: c.loss)
    search.deadline = search.max_nodes = None
    line = _line(search, best, points[best], limit=200)
    return Solution(value, line, tuple(ranked), proven and not search.cut, len(line) if proven else depth,
                    search.nodes, time.monotonic() - started, search.cut)


def _missing(search: _Search, include: Sequence[Move], moves: list[tuple[int, _Raw]]) -> list[tuple[int, _Raw]]:
    """The placements of ``include`` that are legal for the mover but not among ``moves``
    (a generation cut short leaves moves out), with what each scores."""
    known = {_same(m) for _, m in moves}
    rack = search.racks[search.to_move]
    found: list[tuple[int, _Raw]] = []
    for move in include:
        raw = _raw(move)
        if raw is None or _same(raw) in known or Counter(raw[1]) - Counter(rack):
            continue
        judged = judge(search.cells, move.tiles, search.rules)
        if judged.legal:
            found.append((search.rules.scored(judged.score.total, len(raw[1]), len(rack), 0), raw))
            known.add(_same(raw))
    return found


def _candidate(search: _Search, points: int, move: _Raw, depth: int) -> int:
    """The value of a root move (searched ``depth`` plies), from the last root search's
    bounds: its value if that search found it, else searched below its upper bound."""
    value, exact = search.bounds.get(move, (INFINITY - 1, False))
    if exact:
        return value
    lower = -INFINITY
    while lower < value:  # null windows at the upper bound, each lowering it, until it holds (MTD(f))
        found = search.value(points, move, depth, value - 1, value)[0]
        if found >= value:
            lower = found
        else:
            value = found
    return value


def _line(search: _Search, first: _Raw, points: int, limit: int) -> tuple[Move, ...]:
    """The principal variation from the root after ``first`` (scoring ``points``): the
    table's best moves, then the greedy playout's, to the end."""
    played: list[Move] = []
    raws: list[_Raw] = []
    move: _Raw = first
    try:
        while len(played) < limit:
            played.append(_as_move(move, points))
            raws.append(move)
            if search.play(move):
                break
            moves = search.moves()
            if not moves:
                break
            points, move = moves[0]
            entry = search.table.get(search.hash)
            if entry is not None and entry[4] is not None:
                points, move = next((m for m in moves if m[1] == entry[4]), moves[0])
    finally:
        for move in reversed(raws):
            search.unplay(move)
    return tuple(played)


def _same(move: _Raw) -> frozenset[tuple[int, int]] | None:
    """A move's tiles on their cells, whatever order it lists them in."""
    return None if move is None else frozenset(zip(*move))


def _deepening(search: _Search, moves: list[tuple[int, _Raw]]) -> tuple[int, _Raw, bool, int]:
    """Iterative deepening with playouts, to the end of the budget: the last
    completed depth's best move and value (depth 0: the greedy move, valued
    by a playout)."""
    found: tuple[int, _Raw, bool, int] | None = None
    for depth in range(1, UNLIMITED):
        try:
            value, best, proven = search.root(moves, depth)
        except _Spent:
            break
        found = (value, best, proven, depth)
        moves = sorted(moves, key=lambda m: m[1] != best)  # the next depth searches it first
        if proven:
            break
    if found is None:
        search.deadline = search.max_nodes = None
        value, _ = search.value(moves[0][0], moves[0][1], 1, -INFINITY, INFINITY)
        found = (value, moves[0][1], False, 0)
    return found


class Threshold:
    """Null-window questions about one endgame position (bag empty, two players): is its value,
    or a move's there, above a threshold with best play? Cheaper than the value itself (a
    search that only has to show a bound cuts off sooner); the questions share one search and
    its transposition table, and at most ``max_nodes`` positions in all (``None``: no limit).

    Raises:
        NotAnEndgame: as :func:`solve`.
    """

    def __new__(cls, *args: object, **kwargs: object) -> Threshold:  # (compiled: pickles, copies)
        return super().__new__(cls)

    def __init__(self, game: Game, max_nodes: int | None = None) -> None:
        _refuse(game)
        self.search = _Search(game)
        self.budget = max_nodes
        self.moves = self.search.moves()

    def above(self, threshold: int, move: Move | None = None) -> bool | None:
        """Whether the position's value (or ``move``'s: its points less the reply's value) exceeds
        ``threshold``; ``None`` when the budget ran out first, or ``move`` is not legal here."""
        search = self.search
        search.max_nodes = self.budget
        try:
            if move is None:
                value, proven = search.negamax(UNLIMITED, threshold, threshold + 1)
            else:
                wanted = _same(_raw(move))
                found = next((m for m in self.moves if _same(m[1]) == wanted), None)
                if found is None:
                    return None
                value, proven = search.value(found[0], found[1], UNLIMITED, threshold, threshold + 1)
        except _Spent:
            return None
        return value > threshold if proven and not search.cut else None
