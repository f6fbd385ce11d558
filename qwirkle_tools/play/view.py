"""What one seat may know of a game (:class:`SeatView`), and the legal moves of a rack.

:class:`~qwirkle_tools.play.game.Game` hands out views (:meth:`~qwirkle_tools.play.game.Game.view`)
and lists its moves here (:func:`moves_for`), so a player sees the moves the game would
accept, in the same order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from ..core.board import Board, Placement, as_cells, key_cell
from ..core.frontier import BoardData
from ..core.move import Move
from ..core.movegen import best_move, generate, generate_on, generate_raw
from ..core.pickling import Rebuilt, rebuilt
from ..core.rules import DEFAULT_RULES, Rules
from ..core.text import count
from ..core.tiles import COLOUR_OF, COPIES, RACK_SIZE, SHAPE_OF, TILES, Tile, tile_names
from ..formats.record import Player, Record, Setup, Turn
from .engine import BOARD_UNKNOWN_WHY, GameState, replay


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know of a game: never the bag's order or another rack.

    :attr:`unseen` tells how many copies of each tile the seat cannot see. ``turns``
    are the turns so far with what the seat may not know taken out: other
    seats' racks, draws and exchanged tiles (an exchange keeps its count).
    """

    seat: int
    to_move: int
    board: Board
    rack: tuple[Tile, ...]
    rack_sizes: tuple[int, ...]
    bag: int
    scores: tuple[int, ...]
    turns: tuple[Turn, ...]
    rules: Rules = DEFAULT_RULES
    over: bool = False
    names: tuple[str, ...] = ()
    setup: Setup | None = None

    @property
    def unseen(self) -> tuple[int, ...]:
        """``unseen[t]``: the copies of tile ``t`` not on the board nor in the rack (in the bag or in other racks)."""
        return tuple(unseen_counts(self.board.cells.values(), map(int, self.rack)))

    def legal_moves(self) -> list[Move]:
        """The seat's legal moves, as :meth:`Game.legal_moves` lists them (empty
        when it is not this seat's turn or the game is over)."""
        if self.over or self.seat != self.to_move:
            return []
        return moves_for(as_cells(self.board), [int(t) for t in self.rack], self.bag, self.rules)

    def best_placement(self) -> Move | None:
        """The first placement of :meth:`legal_moves` (the highest score, end bonus included),
        found without listing the rest; ``None`` when the seat has none to play."""
        if self.over or self.seat != self.to_move:
            return None
        return best_placement(self.board, [int(t) for t in self.rack], self.bag, self.rules)

    def record(self) -> Record:
        """The game so far as the seat may know it, in the record format (no result)."""
        names = self.names or tuple(f"Player {p + 1}" for p in range(len(self.rack_sizes)))
        return Record(tuple(Player(n) for n in names), self.turns, self.rules, self.setup)

    @classmethod
    def from_record(cls, record: Record, seat: int, rack: Sequence[int]) -> SeatView:
        """The view of ``seat``, holding ``rack``, after a record's turns: what a bot
        rebuilds from the protocol's ``position`` and ``rack`` (see ``docs/bots.md``).

        Raises:
            ValueError: the seat does not exist, the record has errors, the board
                is not known, or the rack does not fit what the board leaves.
        """
        if not 0 <= seat < len(record.players):
            raise ValueError(f"seat {seat} does not exist: the game has {len(record.players)} players")
        state = end_of(record, "the position")
        unseen = unseen_counts(state.board.cells.values(), rack)
        if min(unseen) < 0:
            raise ValueError(f"the rack {tile_names(rack)} holds a tile whose copies are all on the board")
        sizes = tuple(len(rack) if p == seat else (s if s is not None else RACK_SIZE)
                      for p, s in enumerate(state.rack_sizes))
        bag = state.bag if state.bag is not None else max(0, sum(unseen) - sum(sizes) + len(rack))
        return cls(seat, state.to_move if state.to_move is not None else seat, state.board, tiles_of(list(rack)), sizes,
                   bag, state.scores, record.turns, record.rules, state.ended is not None,
                   record.names, record.setup)

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


def end_of(record: Record, what: str) -> GameState:
    """The state a record reaches, replayed; ``what`` names it in the errors.

    Raises:
        ValueError: the record has errors, or its board is not known.
    """
    history = replay(record)
    errors = [f for f in history.findings if f.is_error]
    if errors:
        raise ValueError(f"{what} has {count(len(errors), 'error')}, the first: {errors[0]}")
    state = history.final
    assert state is not None
    if not state.board_known:
        raise ValueError(f"{what}'s board is not known ({BOARD_UNKNOWN_WHY})")
    return state


def moves_for(cells: Mapping[int, int], rack: Sequence[int], bag: int, rules: Rules, data: BoardData | None = None
           ) -> list[Move]:
    """The legal moves for ``rack`` (see :meth:`Game.legal_moves`), from the board's ``data`` if given."""
    opening = not cells
    found = generate(cells, rack, rules, largest_first=opening) if data is None else generate_on(data, rack, rules)
    whole = len(rack)
    moves = found
    if not bag:  # going out adds the bonus: such a move may rank higher (a stable sort keeps generate's ties)
        moves = [m.with_score(rules.scored(m.score or 0, whole, whole, 0)) if len(m.tiles) == whole else m
                 for m in found]
        moves.sort(key=lambda m: -(m.score or 0))
    if bag and not opening:
        moves.extend(_exchanges(tuple(sorted(rack)), min(whole, bag)))
    if not moves and not bag and not opening:
        moves.append(Move.pass_turn())
    return moves


def best_placement(cells: Board | Mapping[int, int], rack: Sequence[int], bag: int, rules: Rules) -> Move | None:
    """The first placement :func:`moves_for` lists, or ``None``. While tiles are in the bag no
    move earns the end bonus, so it is the generator's best, found without listing every move."""
    if bag or not cells or not _one_line(rack):  # (no move can place a rack that is no line: no bonus)
        return best_move(cells, rack, rules, largest_first=not cells)
    whole = len(rack)  # the bag is empty: a move that empties the rack earns the bonus
    found = generate_raw(cells, rack, rules)
    if not found:
        return None
    best = max(found, key=lambda m: rules.scored(m[0], len(m[3]), whole, 0))  # (the first of the best: generate's order)
    score, qwirkles, keys, placed = best
    return Move.place((Placement(TILES[t], *key_cell(k)) for k, t in zip(keys, placed)),
                      rules.scored(score, len(placed), whole, 0), qwirkles)


def _one_line(rack: Sequence[int]) -> bool:
    """Whether the tiles could lie in one line: all different, sharing one colour or one shape."""
    return len(set(rack)) == len(rack) and (len({COLOUR_OF[t] for t in rack}) == 1 or len({SHAPE_OF[t] for t in rack}) == 1)


@lru_cache(maxsize=4096)
def _exchanges(rack: tuple[int, ...], most: int) -> tuple[Move, ...]:
    """Every distinct exchange of at most ``most`` tiles of a (sorted) rack, largest first."""
    tiles = [TILES[t] for t in rack]  # (combinations of tiles: a move's tuple as it comes)
    chosen = dict.fromkeys(c for size in range(most, 0, -1) for c in combinations(tiles, size))
    return tuple(Move("exchange", (), c, 0) for c in chosen)


def unseen_counts(board: Iterable[int], rack: Iterable[int]) -> list[int]:
    """How many of each tile a seat holding ``rack`` does not see on ``board`` or in it
    (negative where more are seen than the game has)."""
    unseen = [COPIES] * len(TILES)
    for t in (*board, *rack):
        unseen[t] -= 1
    return unseen


def tiles_of(tiles: list[int]) -> tuple[Tile, ...]:
    return tuple([TILES[t] for t in tiles])  # (a list first: compiled, a loop with no generator, over a list's items)


def hide_setup(setup: Setup | None, seat: int) -> Setup | None:
    """A setup as ``seat`` saw it: the other racks as their sizes, the bag as its count."""
    if setup is None:
        return None
    racks = None if setup.racks is None else tuple(
        r if p == seat or isinstance(r, int) else len(r) for p, r in enumerate(setup.racks))
    bag = setup.bag if setup.bag is None or isinstance(setup.bag, int) else len(setup.bag)
    return Setup(setup.board, bag, racks, setup.scores, setup.extra)


def hide(turn: Turn, seat: int) -> Turn:
    """``turn`` as ``seat`` saw it: another seat's rack, draw and exchanged tiles removed."""
    if turn.player == seat:
        return turn
    if turn.action == "exchange":
        return turn._replace(rack=None, draw=None, exchanged=None, count=turn.exchange_size)
    return turn._replace(rack=None, draw=None)


__all__ = ["SeatView", "best_placement", "end_of", "hide", "hide_setup", "moves_for", "tiles_of", "unseen_counts"]
