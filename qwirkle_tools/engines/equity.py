"""The static ``equity`` player: a move's score plus the value of the tiles it keeps.

Greedy play takes the highest score this turn; the equity player also asks
what its rack will be worth next turn (:mod:`qwirkle_tools.engines.leaves`):

    equity(placement) = score (end bonus included, as Rules.scored counts it) + leave value of the tiles kept
    equity(exchange)  = leave value of the tiles kept + Leaves.exchange

An exchange is weighed against the placements whenever the bag holds tiles
(not on the first move, where the rules allow none). Ties in equity go to
the move listed first: placements in the move generator's order (best score
first), then exchanges, largest first. The cost is one move generation and a
pass over its moves (each different leave valued once): it is the static
player inside the simulation engine.

What is *not* done: no opponent is modelled (what a move opens for the next
player is the look-ahead's and the simulation's business), and with the bag
empty the leave counts nothing, so the player is greedy there.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Final

from ..core.board import Placement, as_cells, key_cell
from ..core.movegen import Cutoff, RawMove, generate_raw
from ..core.pickling import Rebuilt, rebuilt
from ..core.rules import DEFAULT_RULES, Rules
from ..core.tiles import TILES, format_tiles
from ..play.game import Move, SeatView
from .leaves import Leaves, Terms, default


@dataclass(frozen=True, slots=True)
class Exchange:
    """An exchange of ``tiles`` (tile numbers), as :class:`Valued` holds it."""

    tiles: tuple[int, ...]

    def __str__(self) -> str:
        return f"exchange {format_tiles(self.tiles)}"

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Valued:
    """A candidate move with its score (end bonus included; 0 for an
    exchange), the value of its leave, and its equity, their sum (for an
    exchange also :attr:`Leaves.exchange`)."""

    move: RawMove | Exchange
    score: int
    leave: float
    equity: float

    def __str__(self) -> str:
        return f"{self.to_move()}: score {self.score}, leave {self.leave:+.2f}, equity {self.equity:.2f}"

    def to_move(self) -> Move:
        """The game's :class:`~qwirkle_tools.core.move.Move` for it."""
        if isinstance(self.move, Exchange):
            return Move.exchange(self.move.tiles)
        _, _, keys, tiles = self.move
        return Move.place((Placement(TILES[t], *key_cell(k)) for k, t in zip(keys, tiles)), self.score)

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


MOVES_KEPT: Final = 20_000
"""The most placements the player values in one position: the best-scoring (a real game has at most a
few hundred; a crowded board may offer a million, about 1 kB each)."""


def ranked(cells: Mapping[int, int], rack: Sequence[int], bag: int, rules: Rules = DEFAULT_RULES,
           leaves: Leaves | None = None, limit: int | None = None, deadline: float | None = None) -> list[Valued]:
    """The seat's legal moves valued by equity, best first (at most ``limit``).

    ``cells``: the board (cell key to tile); ``rack``: the mover's tiles;
    ``bag``: the bag's count before the move; ``leaves``: the model
    (``None``: :func:`~qwirkle_tools.engines.leaves.default`). On an empty board
    only openings of the rack's largest group are legal, and no exchange.
    Empty when nothing but a pass is legal. The placements valued are the
    :data:`MOVES_KEPT` best-scoring, and with a ``deadline`` (a
    :func:`time.monotonic` time, read by the move generator between anchors)
    those found by then.
    """
    model = default() if leaves is None else leaves
    opening = not cells
    moves = generate_raw(cells, rack, rules, largest_first=opening, cutoff=Cutoff(deadline, MOVES_KEPT))
    held = tuple(sorted(rack))
    whole = len(held)
    full = (1 << whole) - 1
    parts = model.parts(held, Terms.of(cells, rules.qwirkle_bonus)) if bag else None  # by the mask of tiles kept
    leave_of: dict[tuple[int, ...], float] = {}  # the tiles a move places to the value of those it keeps

    def leave(placed: tuple[int, ...]) -> float:
        assert parts is not None
        mask = full
        for t in placed:  # each placed tile takes the first of its copies still kept (any copy values the same)
            i = held.index(t)
            while not mask >> i & 1:
                i += 1
            mask ^= 1 << i
        found = leave_of[placed] = parts[mask] * model.scale(bag - len(placed))
        return found

    rows: list[tuple[float, int, float, RawMove | Exchange]] = []
    if parts is None:  # the bag is empty: no leave counts, a move that goes out has the end bonus
        scored = rules.scored
        for m in moves:
            score = scored(m[0], len(m[3]), whole, bag)
            rows.append((score, score, 0.0, m))
    else:  # (with tiles in the bag no move earns the end bonus: its score is its points)
        get = leave_of.get
        for m in moves:
            value = get(m[3])
            if value is None:
                value = leave(m[3])
            rows.append((m[0] + value, m[0], value, m))
    if parts is not None and not opening:
        keep = model.scale(bag)
        for out, mask in _exchanges(held, min(whole, bag)):
            value = parts[mask] * keep
            rows.append((value + model.exchange, 0, value, Exchange(out)))
    if limit == 1 and rows:  # (max keeps the first of equal ones, as the stable sort does)
        equities = [r[0] for r in rows]
        order = [max(range(len(rows)), key=equities.__getitem__)]
    else:
        order = sorted(range(len(rows)), key=lambda i: -rows[i][0])[:limit]  # (stable: ties keep the listed order)
    return [Valued(rows[i][3], rows[i][1], rows[i][2], rows[i][0]) for i in order]


@lru_cache(maxsize=4096)
def _exchanges(held: tuple[int, ...], most: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every different exchange of at most ``most`` tiles of a sorted rack, largest first (as the
    game lists them), with the mask of the rack's tiles it keeps (see :meth:`Leaves.parts`)."""
    full = (1 << len(held)) - 1
    found: dict[tuple[int, ...], int] = {}
    for size in range(most, 0, -1):
        for chosen in combinations(range(len(held)), size):
            out = tuple(held[i] for i in chosen)
            if out not in found:  # (the first of equal exchanges: the same tiles kept either way)
                found[out] = full ^ sum(1 << i for i in chosen)
    return tuple(found.items())


def equity(view: SeatView, seed: int = 0, leaves: Leaves | None = None, movetime_ms: int | None = None) -> Move:
    """The move of highest equity for the seat's view (``seed`` unused: the
    player is deterministic); a pass when nothing else is legal. Within
    ``movetime_ms`` when given: the best of the moves found by then.

    Raises:
        ValueError: it is not the seat's turn, or the game is over.
    """
    if view.over or view.seat != view.to_move:
        raise ValueError(f"seat {view.seat} has no move: it is seat {view.to_move}'s turn, or the game is over")
    deadline = None if movetime_ms is None else time.monotonic() + 0.9 * movetime_ms / 1000
    best = ranked(as_cells(view.board), view.rack, view.bag, view.rules, leaves, limit=1, deadline=deadline)
    return best[0].to_move() if best else Move.pass_turn()


__all__ = ["MOVES_KEPT", "Exchange", "Valued", "equity", "ranked"]
