"""Every legal move at a turn, best first (``qwirkle moves``), and what a move
really scores: its points plus the end bonus where it empties the rack with
the bag empty. The analysis (:mod:`qwirkle_tools.analysis.analyse`) ranks
moves by the same scores.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..core.board import Placement, as_cells, format_move
from ..core.errors import QwirkleError
from ..core.move import Move
from ..core.movegen import TooManyMoves, generate
from ..core.pickling import Rebuilt, rebuilt
from ..core.rules import Rules
from ..core.safetext import count
from ..core.tiles import COPIES, RACK_SIZE, TILES, Tile, format_tiles
from ..formats.record import placements_data
from ..play.engine import BOARD_UNKNOWN_WHY, History


def recorded_placements(tiles: object) -> tuple[Placement, ...]:
    """The placements of a move as :func:`move_data` writes them (``[{"tile", "x", "y"}, ...]``), read back.

    Raises:
        KeyError, TypeError, ValueError: the data is not such a list.
    """
    if not isinstance(tiles, list):
        raise TypeError(f"a move's tiles are a list, not {type(tiles).__name__}")
    return tuple(Placement(Tile.parse(t["tile"]), int(t["x"]), int(t["y"])) for t in tiles)


def move_data(move: Move, score: int | None = None) -> dict[str, object]:
    return {"tiles": placements_data(move.tiles), "score": move.score if score is None else score,
            "qwirkles": move.qwirkles}


def move_scores(points: Iterable[int], placed: Iterable[int], rack: int, bag: int | None, rules: Rules) -> list[int]:
    """What each move, given by its ``points`` and the number of tiles it
    ``placed`` (two iterables in step), really scores from a rack of ``rack``
    tiles: its points plus the end bonus
    (:meth:`~qwirkle_tools.core.rules.Rules.end_points`, as the replay counts it for
    ``rescore``) when it empties the rack while the bag is empty. A bag of
    ``None`` (not known) earns no bonus: nothing is assumed. ``placed`` is
    not read where no move can earn the bonus."""
    if bag is None or not rules.end_points(0, bag):  # no move can earn it here (the analysis's common case)
        return list(points)
    return [rules.scored(p, n, rack, bag) for p, n in zip(points, placed)]


class AnalysisError(QwirkleError):
    """A question the record cannot answer (a board or a rack it does not give)."""


@dataclass(frozen=True, slots=True)
class LegalMoves:
    """Every legal move at a turn, best first, for the rack given or known;
    ``scores[i]`` is what ``moves[i]`` really scores, the end bonus included
    (:func:`move_scores`), by which they are ranked."""

    turn: int
    rack: tuple[Tile, ...]
    moves: tuple[Move, ...]
    scores: tuple[int, ...]

    def _shown(self, limit: int) -> Iterator[tuple[Move, int]]:
        return zip(self.moves[:limit] if limit else self.moves, self.scores)

    def to_data(self, limit: int = 0) -> dict[str, object]:
        return {"turn": self.turn, "rack": [str(t) for t in self.rack],
                "moves": [move_data(m, s) for m, s in self._shown(limit)]}

    def json_chunks(self, limit: int = 0) -> Iterator[str]:
        """:meth:`to_data` as JSON text, a move at a time (a position may have many)."""
        yield json.dumps({"turn": self.turn, "rack": [str(t) for t in self.rack]})[:-1] + ', "moves": ['
        for i, (m, s) in enumerate(self._shown(limit)):
            yield ("" if i == 0 else ", ") + json.dumps(move_data(m, s))
        yield "]}"

    def lines(self, limit: int = 0) -> Iterator[str]:
        """The listing, a line at a time: a heading, then a move per line
        (its score, with the end bonus it includes, if any)."""
        yield f"turn {self.turn}: rack {format_tiles(self.rack)}: {count(len(self.moves), 'legal move')}"
        for m, s in self._shown(limit):
            q = f"  {count(m.qwirkles, 'Qwirkle')}" if m.qwirkles else ""
            out = f"  +{s - (m.score or 0)} end bonus" if s != m.score else ""
            yield f"{s:>4}  {format_move(m.tiles)}{q}{out}"

    def text(self, limit: int = 0) -> str:
        return "\n".join(self.lines(limit))

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


MOVES_LISTED = 200_000
"""The most legal moves :func:`legal_moves` lists for one position."""


def legal_moves(history: History, turn: int, rack: Sequence[int] | None = None) -> LegalMoves:
    """Every legal move for the player to move at ``turn`` (1-based; one past
    the last turn for the position after it), on the board before that turn,
    best first: by the score each really makes, the end bonus included
    (:func:`move_scores`, as ``annotate`` ranks them), then more Qwirkles,
    then :func:`~qwirkle_tools.core.movegen.generate`'s order. The rack is
    ``rack`` if given, else the one the record gives or implies; on an empty
    board the opening rule applies (largest group).

    Raises:
        AnalysisError: ``turn`` is out of range; the board or the rack is not
            known; a rack given holds more than 6 tiles or a tile more than 3
            times; or the position has more than :data:`MOVES_LISTED` moves.
    """
    last = len(history.turns) + 1
    if not 1 <= turn <= last:
        raise AnalysisError(f"--turn must be 1 to {last}, not {turn}")
    state = history.state(turn - 1)
    if not state.board_known:
        raise AnalysisError(f"the board before turn {turn} is not known ({BOARD_UNKNOWN_WHY})")
    if rack is not None:
        if len(rack) > RACK_SIZE:
            raise AnalysisError(f"--rack: a rack holds at most {RACK_SIZE} tiles, not {len(rack)}")
        many = [t for t in set(rack) if list(rack).count(t) > COPIES]
        if many:
            raise AnalysisError(f"--rack: the game has {COPIES} of each tile; the rack holds {list(rack).count(many[0])} "
                                f"{TILES[many[0]]}")
    else:
        if turn == last:
            raise AnalysisError("after the last turn, give the rack with --rack")
        known, _ = history.known_rack(turn - 1)
        if known is None:
            raise AnalysisError(f"the rack at turn {turn} is not known; give it with --rack")
        rack = known
    cells = as_cells(state.board)
    try:
        found = generate(cells, rack, history.record.rules, largest_first=not cells, limit=MOVES_LISTED)
    except TooManyMoves:
        raise AnalysisError(f"the position before turn {turn} has more than {MOVES_LISTED:,} legal moves "
                            "for this rack; too many to list") from None
    scores = move_scores((m.score or 0 for m in found), (len(m.tiles) for m in found), len(rack), state.bag,
                         history.record.rules)
    order = sorted(range(len(found)), key=lambda i: (-scores[i], -(found[i].qwirkles or 0)))  # stable: generate's order next
    return LegalMoves(turn, tuple(TILES[t] for t in rack), tuple(found[i] for i in order),
                      tuple(scores[i] for i in order))
