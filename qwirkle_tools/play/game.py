"""A game to play: deal, list the legal moves, push one, take it back, ask who won.

:class:`Game` is the dealer's view of one game: every rack and the bag's
order are known, so every turn is checked at once and the game is never in
doubt (the validator's :mod:`~qwirkle_tools.play.engine` is the other side: it
replays a record that may say little). Its names follow python-chess's
``Board``::

    >>> from qwirkle_tools import Game
    >>> game = Game.deal(players=2, seed=7)
    >>> while not game.is_over():
    ...     points = game.push(game.legal_moves()[0])
    >>> game.outcome()
    'out'
    >>> game.pop()                        # the last turn taken back, exactly
    Move.parse('bd@4,-6')
    >>> game.is_over()
    False

:meth:`Game.push` is strict: an illegal move raises
:class:`~qwirkle_tools.play.engine.IllegalMoveError` naming the turn, the move and
the reason, with the same finding code the validator gives, and the game is
left as it was. :meth:`Game.pop` undoes a turn from what the turn saved
(no replay), so a search can push and pop millions of times; the move
generator's data of each board on the line of pushed placements is kept
(from the first :meth:`Game.legal_moves` or end check), so the moves after a
pop grow from the data of the board before, not from a survey of the whole
board. A game pickles and copies with all of it (``copy.copy`` as deeply as
``copy.deepcopy``: a copy plays on alone), to hand to another process or to
search on a copy.

What is judged where: a placement's legality and score are
:func:`~qwirkle_tools.core.rules.judge`'s (the one scorer) and the list of legal
placements is :func:`~qwirkle_tools.core.movegen.generate_raw`'s; the racks and
the bag are a :class:`~qwirkle_tools.play.ledger.Dealer`'s, and so are the rules
of a turn that depend on them, the replay's own: the opening rule (the starter
places their largest group), exchanges (at most as many tiles as the bag
holds), the pass (only when nothing else is legal). This module adds the end
bonus and the end of the game (docs/rules.md). :meth:`Game.record` writes the game
in the record format, which the validator replays with no finding.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final, Literal

from ..core.board import COORD_LIMIT, Board, Placement, cell_key, key_cell
from ..core.findings import make
from ..core.frontier import BoardData, Line, board_data, grown
from ..core.lines import mask
from ..core.move import Action as Action
from ..core.move import Move as Move
from ..core.move import MoveError as MoveError
from ..core.rules import DEFAULT_RULES, Rules, dead, judge, judge_placed
from ..core.tiles import COPIES, RACK_SIZE, TILES, Tile, each_copy, tile_names
from ..formats.jsontext import EMPTY_OBJECT, JSON
from ..formats.record import Player, Record, Result, Setup, Turn
from .engine import GameState, IllegalMoveError
from .ledger import Dealer, starter
from .view import SeatView, end_of, hide, hide_setup, moves_for, tiles_of

Outcome = Literal["out", "blocked"]
_End = Literal["out", "blocked", "unknown"] | None  # "unknown": not worked out since the last change


class _Undo:
    """What :meth:`Game.push` changed, for :meth:`Game.pop` to put back."""

    def __new__(cls, *args: object, **kwargs: object) -> _Undo:  # (compiled: pickles, copies)
        return super().__new__(cls)

    __slots__ = ("rack", "keys", "drawn", "bag", "rng", "end")

    def __init__(self, rack: list[int], keys: tuple[int, ...], drawn: int, bag: list[int] | None,
                 rng: object | None, end: _End) -> None:
        self.rack = rack
        self.keys = keys
        self.drawn = drawn
        self.bag = bag
        self.rng = rng
        self.end = end


class Game:
    """A game in play with every rack and the bag known (see the module's notes).

    Build one with :meth:`deal` (a new game) or :meth:`from_record` (a
    recorded game, continued). The state is read through :attr:`board`,
    :attr:`racks`, :attr:`bag_size`, :attr:`scores`, :attr:`to_move` and
    :meth:`view`; it changes only by :meth:`push` and :meth:`pop`.
    """

    def __new__(cls, *args: object, **kwargs: object) -> Game:  # (compiled: pickles, copies)
        return super().__new__(cls)

    def __init__(self, names: Sequence[str], racks: Sequence[Sequence[int]], bag: Sequence[int], to_move: int,
                 rules: Rules = DEFAULT_RULES, seed: int = 0, board: Iterable[Placement] = (),
                 scores: Sequence[int] | None = None, turns: Sequence[Turn] = (),
                 setup: Setup | None = None, meta: Mapping[str, JSON] | None = None) -> None:
        """A game from a position: the names, every rack, the bag in draw order
        (the last tile is drawn first), the seat to move. ``seed`` seeds the
        shuffles of exchanged tiles back into the bag. ``turns`` already played
        (and the ``setup`` they started from) go into :meth:`record` but cannot
        be taken back. Prefer :meth:`deal` and :meth:`from_record`.
        """
        n = len(names)
        if not 2 <= n <= 6:
            raise ValueError(f"a game has 2 to 6 players, not {n}")
        if len(racks) != n:
            raise ValueError(f"give one rack per player: {n}, not {len(racks)}")
        if not 0 <= to_move < n:
            raise ValueError(f"seat {to_move} does not exist: the game has {n} players")
        self.names = tuple(names)
        self.rules = rules
        self._cells: dict[int, int] = {}
        self._shown: Board | None = None  # the board as handed out (a Board never changes): until the next placement
        for p in board:
            self._cells[cell_key(p.x, p.y)] = int(p.tile)
        self._dealer = dealer = Dealer(racks, bag, random.Random(seed))
        self._racks = dealer.racks  # the dealer's own lists, read here, changed only by the dealer
        held = [0] * len(TILES)
        for t in (*self._cells.values(), *dealer.left()):
            held[t] += 1
        over = [TILES[t] for t, c in enumerate(held) if c > COPIES]
        if over or sum(held) != len(TILES) * COPIES or any(len(r) > RACK_SIZE for r in dealer.racks):
            raise ValueError("the board, the racks and the bag must hold the 108 tiles, 3 of each, "
                             f"and no rack more than {RACK_SIZE}" + (f" (more than 3 of {tile_names(over)})" if over else ""))
        self._scores = list(scores) if scores is not None else [0] * n
        self._to_move = to_move
        self._prefix: tuple[Turn, ...] = tuple(turns)
        self._turns: list[Turn] = []
        self._seen: dict[int, list[Turn]] = {}  # each seat's view of the turns, as far as a view asked
        self._undo: list[_Undo] = []
        self._setup = setup
        self._meta = dict(meta or {})
        self._named_rules: tuple[str, ...] | None = None  # a recorded game's rules object, written back as it was
        self._end: _End = "unknown"  # worked out when asked
        self._boards = _Boards(rules.qwirkle_bonus)

    # -- making a game ----------------------------------------------------------

    @classmethod
    def deal(cls, players: int | Sequence[str] = 2, seed: int = 0, rules: Rules = DEFAULT_RULES) -> Game:
        """A new game: the bag shuffled by ``seed``, six tiles dealt to each seat
        in turn, and the starter chosen by the rules (the largest group of
        tiles sharing a colour or a shape; a tie goes to the lower seat, as a
        record just says who started). The same seed deals the same game.
        ``players``: how many (named ``Bot 1``, ``Bot 2``, ...) or their names.
        """
        names = [f"Bot {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        dealer, starter = Dealer.deal(len(names), seed)
        game = cls(names, dealer.racks, dealer.bag, starter, rules)
        game._dealer.rng = dealer.rng  # the deal's generator goes on to shuffle exchanged tiles back
        return game

    @classmethod
    def from_record(cls, record: Record, seed: int = 0) -> Game:
        """The game a record reached, to play on (its turns cannot be taken back).

        The record must replay with no error and tell the bag's size and the
        rack of every seat that has played (a self-play record does; a score
        sheet does not). What a record never holds is dealt by ``seed``: the
        bag's order, and the racks of the seats that have not played yet (the
        tiles neither on the board nor in a told rack, shuffled). A record
        with no turn on an empty table starts with the seat the rules choose
        (the largest group), one with no turn from a setup with seat 0.

        Raises:
            ValueError: the record has errors, or does not tell what is needed.
        """
        state = end_of(record, "the record")
        racks, bag = _to_play_on(record, state, seed)
        to_move = state.to_move if state.to_move is not None else 0
        if not record.turns and not state.board.cells:
            to_move = starter(racks)
        board = [Placement(TILES[t], *key_cell(k)) for k, t in state.board.cells.items()]
        game = cls(record.names, racks, bag, to_move, record.rules, seed, board,
                   state.scores, record.turns, record.setup, dict(record.meta))
        game._named_rules = record.named_rules
        if state.ended is not None:
            game._end = "out" if state.ended == "out" else "blocked"
        return game

    # -- the position -----------------------------------------------------------

    @property
    def to_move(self) -> int:
        """The seat whose turn it is (after the end: whose turn it would be)."""
        return self._to_move

    @property
    def board(self) -> Board:
        shown = self._shown
        if shown is None:
            shown = self._shown = Board._wrap(dict(self._cells))
        return shown

    @property
    def racks(self) -> tuple[tuple[Tile, ...], ...]:
        return tuple(tuple(TILES[t] for t in r) for r in self._racks)

    @property
    def bag_size(self) -> int:
        return len(self._dealer.bag)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    @property
    def turns(self) -> tuple[Turn, ...]:
        """Every turn so far, as recorded (with racks, draws and scores)."""
        return self._prefix + tuple(self._turns)

    def __copy__(self) -> Game:
        """A game of its own: ``copy.copy`` copies as ``copy.deepcopy`` does (a shallow
        copy would share the board, racks, bag and undo line, and its pop would undo both)."""
        return copy.deepcopy(self)

    def __len__(self) -> int:
        """The turns that :meth:`pop` can take back."""
        return len(self._turns)

    def _repr_svg_(self) -> str:
        """The position as a picture, for Jupyter (:func:`~qwirkle_tools.draw.svg.position_svg`)."""
        from ..draw.svg import position_svg
        return position_svg(self.board, self.turns[-1].tiles if self.turns else None, self.names, self._scores,
                            None if self.is_over() else self._to_move)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now (see :class:`SeatView`)."""
        if not 0 <= seat < len(self.names):
            raise ValueError(f"seat {seat} does not exist: the game has {len(self.names)} players")
        seen = self._seen.get(seat)  # the turns as the seat saw them, kept from view to view
        if seen is None:
            seen = self._seen[seat] = [hide(t, seat) for t in self._prefix]
        seen.extend(hide(t, seat) for t in self._turns[len(seen) - len(self._prefix):])
        return SeatView(seat, self._to_move, self.board, tiles_of(self._racks[seat]), tuple(len(r) for r in self._racks),
                        len(self._dealer.bag), self.scores, tuple(seen),
                        self.rules, self.is_over(), self.names, hide_setup(self._setup, seat))

    # -- moves ------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move: the placements, best score first
        (end bonus included; ties as :func:`~qwirkle_tools.core.movegen.generate`
        breaks them), then the exchanges the bag allows, largest first; a pass
        only when nothing else is legal. Empty once the game is over. On the
        first move only groups of the starter's largest size are listed, laid
        out in row 0 from (0,0)."""
        if self.is_over():
            return []
        return moves_for(self._cells, self._racks[self._to_move], len(self._dealer.bag), self.rules,
                      self._boards.data(self._cells, len(self._undo)))

    def is_legal(self, move: Move) -> bool:
        if _refusal(self, move) is not None:
            return False
        return move.action != "place" or not judge(self._cells, move.tiles, self.rules).violations

    def push(self, move: Move) -> int:
        """Play ``move`` for the seat to move; returns the points it scored.

        Raises:
            IllegalMoveError: the move breaks a rule (or the game is over); the
                game is as it was.
        """
        refusal = _refusal(self, move)
        p = self._to_move
        rack = self._racks[p]
        rules = self.rules
        cells = self._cells
        judgement = None
        if refusal is None and move.action == "place":
            keys = tuple([cell_key(pl.x, pl.y) for pl in move.tiles])
            if len(set(keys)) == len(keys) and cells.keys().isdisjoint(keys):
                self._shown = None
                for k, pl in zip(keys, move.tiles):  # put the tiles down, then judge the move on the one board
                    cells[k] = pl.tile
                judgement = judge_placed(cells, move.tiles, keys, rules)
                if judgement is None:
                    for k in keys:
                        del cells[k]
            if judgement is None:  # illegal: judged again on the board without it, for the reason
                v = judge(cells, move.tiles, rules).violations[0]
                refusal = v.code, "/tiles" if v.index is None else f"/tiles/{v.index}", v.message
        if refusal is not None:
            code, pointer, reason = refusal
            index = len(self.turns)
            finding = make(code, index + 1, f"/turns/{index}{pointer}", reason)
            raise IllegalMoveError(f"turn {index + 1} ({move}): {code}: {finding.message}", finding)
        held = list(rack)
        dealer = self._dealer
        end = self._end
        if judgement is not None:
            points = rules.scored(judgement.points, len(move.tiles), len(rack), len(dealer.bag))
            new = dealer.place(p, [pl.tile for pl in move.tiles])
            self._undo.append(_Undo(held, keys, len(new), None, None, end))
            turn = _turn((p, "place", move.tiles, None, None, points, tiles_of(held), tiles_of(new), None, EMPTY_OBJECT))
            self._end = "out" if not rack else "unknown"  # (a placement may leave the position dead)
            self._boards.push(keys)
        elif move.action == "exchange":
            new, saved_bag, saved_rng = dealer.exchange(p, [int(t) for t in move.exchanged])
            points = 0
            self._undo.append(_Undo(held, (), 0, saved_bag, saved_rng, end))
            turn = _turn((p, "exchange", None, move.exchanged, None, 0, tiles_of(held), tiles_of(new), None, EMPTY_OBJECT))
        else:
            points = 0
            self._undo.append(_Undo(held, (), 0, None, None, end))
            turn = _turn((p, "pass", None, None, None, 0, tiles_of(held), None, None, EMPTY_OBJECT))
        self._scores[p] += points
        self._turns.append(turn)
        self._to_move = (p + 1) % len(self.names)
        return points

    def pop(self) -> Move:
        """Take the last turn back exactly (board, racks, bag, scores, turn, end);
        returns its move.

        Raises:
            IndexError: no turn played with :meth:`push` is left to take back.
        """
        if not self._undo:
            raise IndexError("no turn to take back" + (": the record's turns cannot be" if self._prefix else ""))
        undo = self._undo.pop()
        turn = self._turns.pop()
        for seen in self._seen.values():
            del seen[len(self._prefix) + len(self._turns):]
        self._boards.pop(len(self._undo), turn.action == "place")
        p = turn.player
        self._to_move = p
        self._scores[p] -= turn.score or 0
        if turn.action == "place":
            assert turn.tiles is not None
            self._shown = None
            for k in undo.keys:
                del self._cells[k]
            self._dealer.undo_place(p, undo.rack, undo.drawn)
            move = Move.place(turn.tiles, turn.score)
        elif turn.action == "exchange":
            assert undo.bag is not None and turn.exchanged is not None
            self._dealer.undo_exchange(p, undo.rack, undo.bag, undo.rng)
            move = Move.exchange(turn.exchanged)
        else:
            self._racks[p][:] = undo.rack
            move = Move.pass_turn()
        self._end = undo.end
        return move

    # -- the end ----------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """``"out"`` once a player emptied their rack with the bag empty,
        ``"blocked"`` once no tile left in the game (in racks and bag) fits
        anywhere, else ``None`` (docs/rules.md, "The end")."""
        end = self._end
        if end == "unknown":
            end = self._end = "blocked" if self._boards.dead(self._cells, self._racks[self._to_move], self._dealer.left,
                                                             len(self._undo)) else None
        return end

    def is_over(self) -> bool:
        return self.outcome() is not None

    def winners(self) -> tuple[int, ...]:
        """The seats with the highest score (more than one on a tie)."""
        top = max(self._scores)
        return tuple(p for p, s in enumerate(self._scores) if s == top)

    def record(self, meta: Mapping[str, JSON] | None = None) -> Record:
        """The game so far in the record format, with every rack, draw and score;
        the result is the scores and how the game ended (``unfinished`` while
        it goes on). :func:`~qwirkle_tools.play.engine.replay` finds nothing wrong with it."""
        outcome = self.outcome()
        return Record(
            players=tuple(Player(name) for name in self.names), turns=self.turns, rules=self.rules,
            setup=self._setup, result=Result(self.scores, outcome or "unfinished"),
            meta={**self._meta, **(meta or {})}, named_rules=self._named_rules,
        )


def _turn(fields: tuple[object, ...]) -> Turn:
    """A turn from all its fields in :class:`~qwirkle_tools.formats.record.Turn`'s order (player,
    action, tiles, exchanged, count, score, rack, draw, comment, extra): built as the tuple it
    is, without the named tuple's ``__new__``, which runs in the interpreter even when compiled
    (``tests/play/test_game.py`` holds the game's turns equal to the record's, read back)."""
    return _new_tuple(Turn, fields)


_new_tuple: Final = tuple.__new__


def _refusal(game: Game, move: Move) -> tuple[str, str, str] | None:
    """Why ``move`` may not be played now in ``game``, as (finding code, pointer within
    the turn, reason), or ``None`` if it may, as far as the rack and the bag
    are concerned (:meth:`~qwirkle_tools.play.ledger.Dealer.refusal`, the rules
    the replay applies too): a placement's lines are :func:`~qwirkle_tools.core.rules.judge`'s."""
    # (no placement is legal in a dead position, so a legal one needs no look for it)
    if game._end in ("out", "blocked") or (move.action != "place" and game.is_over()):
        return "after-end", "/action", f"the game is over ({game.outcome()})"
    if move.action == "place":
        if not move.tiles:
            return "empty-move", "/tiles", "a placement with no tiles"
        for j, pl in enumerate(move.tiles):
            if abs(pl.x) > COORD_LIMIT or abs(pl.y) > COORD_LIMIT:
                return "schema", f"/tiles/{j}", f"({pl.x},{pl.y}) is off the board (at most {COORD_LIMIT:,})"
    tiles = [int(pl.tile) for pl in move.tiles] if move.action == "place" else [int(t) for t in move.exchanged]
    p = game._to_move
    return game._dealer.refusal(game.names[p], p, move.action, tiles, game._cells)


def _to_play_on(record: Record, state: GameState, seed: int) -> tuple[list[list[int]], list[int]]:
    """The racks and the bag to play on from a record's end ``state`` (see :meth:`Game.from_record`).

    Raises:
        ValueError: the bag's size, or the rack of a seat that has played, is not told.
    """
    played = {t.player for t in record.turns}
    told = state.racks
    missing = [p for p, r in enumerate(told) if r is None and p in played]
    sizes = [len(r) if r is not None else s if s is not None else RACK_SIZE if state.bag else None
             for r, s in zip(told, state.rack_sizes)]
    if missing or state.bag is None or None in sizes:
        what = "the bag's size" if state.bag is None else f"the rack of seat {(missing or [sizes.index(None)])[0]}"
        raise ValueError(f"the record does not tell {what} at its end: it cannot be played on")
    left = list(state.unseen(-1))
    for t in (t for known in state.known for t in known):
        left[t] -= 1
    pool = each_copy(left)
    racks = [[int(t) for t in known] for known in state.known]
    dealt = sum(size - len(rack) for rack, size in zip(racks, sizes) if size is not None)
    if len(pool) != state.bag + dealt:
        raise ValueError(f"the record's bag should hold {state.bag} tiles, but {len(pool) - dealt} are unaccounted for")
    random.Random(seed).shuffle(pool)
    for rack, size in zip(racks, sizes):  # a seat yet to play: its known tiles and the rest dealt
        rack.extend(pool.pop() for _ in range(len(rack), size or 0))
    return racks, pool


class _Boards:
    """The move generator's data of each board. A game played forward shares the thread's
    (:func:`~qwirkle_tools.core.frontier.board_data`, which its players' move generations
    use too), and tells it the cells each placement filled (:func:`~qwirkle_tools.core.frontier.grown`:
    no look at the boards while no one else changed it); from the first :meth:`pop`, a line of
    pushed placements (a :class:`~qwirkle_tools.core.frontier.Line`), so that a search that pops
    and pushes again grows the next board's data from its parent's, not from nothing."""

    __slots__ = ("line", "start", "bonus", "searched", "kept", "stamp", "new")

    def __init__(self, bonus: int) -> None:
        self.line: Line | None = None
        self.start = 0  # the turns pushed when the line began: a pop below them ends it
        self.bonus = bonus
        self.searched = False  # a turn was taken back
        self.kept: BoardData | None = None  # played forward: the data last handed out, its stamp then,
        self.stamp = 0
        self.new: list[int] = []  # and the cells filled since

    def __reduce__(self) -> tuple[Callable[[int, Line | None, int, bool], _Boards], tuple[int, Line | None, int, bool]]:
        """(pickle and copy, both builds) Without the data kept for play forward: a copy asks for its own."""
        return _boards, (self.bonus, self.line, self.start, self.searched)

    def data(self, cells: dict[int, int], turns: int) -> BoardData | None:
        """The data of ``cells`` (``None`` while the board is empty), ``turns`` turns pushed."""
        if not cells:
            return None
        if not self.searched:
            kept = self.kept
            data = None if kept is None else grown(kept, self.stamp, cells, self.new)
            if data is None:
                data = board_data(cells, self.bonus)
            self.kept, self.stamp = data, data.stamp
            self.new.clear()
            return data
        if self.line is None:
            self.line, self.start = Line(cells, self.bonus), turns
        return self.line.data(cells)

    def dead(self, cells: dict[int, int], first: Sequence[int], left: Callable[[], Iterable[int]], turns: int) -> bool:
        """:func:`~qwirkle_tools.core.rules.dead` of the tiles ``left()``, judging only the frontier cells
        whose masks hold one; ``first`` (the rack to move, most often one that fits) is tried first."""
        data = self.data(cells, turns)
        if data is None or data.fits(mask(first)):
            return False
        return dead(cells, left(), data.joinable)

    def push(self, keys: tuple[int, ...]) -> None:
        """A placement on ``keys`` pushed."""
        if self.line is not None:
            self.line.push(keys)
        elif self.kept is not None:  # (played forward: a pop ends that for good)
            self.new.extend(keys)

    def pop(self, turns: int, placed: bool) -> None:
        """A turn taken back (``placed``: a placement), ``turns`` left pushed."""
        self.searched = True
        self.kept = None
        if turns < self.start:
            self.line = None
        elif placed and self.line is not None:
            self.line.pop()


def _boards(bonus: int, line: Line | None, start: int, searched: bool) -> _Boards:
    """A copy of a game's :class:`_Boards` (see its ``__reduce__``)."""
    boards = _Boards(bonus)
    boards.line, boards.start, boards.searched = line, start, searched
    return boards


__all__ = ["Game", "Move", "MoveError", "SeatView"]
