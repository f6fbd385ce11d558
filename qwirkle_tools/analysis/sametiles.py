"""The same tiles, exactly: the best placement of the very tiles a turn played.

A record without racks cannot say what else the player held, but it says which
tiles they put down, and they held at least those. The best placement of those
tiles (all of them or some) on the same board is then a fact, not an estimate:
the points the turn could surely have scored. The turn is judged by it where its
rack is unknown (a hand-written game, a score sheet with tiles).

The end bonus counts for a placement of every tile played only when the turn
itself earned it (then those tiles were the whole rack).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.move import Move
from ..core.movegen import RawMove
from .verdicts import raw_move


@dataclass(frozen=True, slots=True)
class SameTiles:
    """The best placement of a turn's own tiles (``best``, its score in ``best.score``, the
    bonus counted as the turn earned it) and the points it would have added (``gain``: 0
    when the move played was that good)."""

    best: Move
    gain: int

    def text(self) -> str:
        """``with the same tiles: rs@2,1 rl@3,1 scores 9 (3 more)``."""
        more = f" ({self.gain} more)" if self.gain else " (as played)"
        return f"with the same tiles: {self.best} scores {self.best.score}{more}"

    def to_data(self) -> dict[str, object]:
        from .moves import move_data

        return {"best": move_data(self.best), "gain": self.gain}


def same_tiles(moves: Sequence[RawMove], placed: int, played: int, bonus: int) -> SameTiles | None:
    """The best of ``moves`` (the legal placements of the ``placed`` tiles a turn played,
    :func:`~qwirkle_tools.core.movegen.generate_raw`'s, best first) against ``played``, the
    turn's score; ``bonus``: the end bonus the turn earned (0 or the rules'), which a
    placement of every one of its tiles earns too. ``None`` when there is no move."""
    if not moves:
        return None
    def scored(move: RawMove) -> int:
        return move[0] + (bonus if len(move[3]) == placed else 0)

    best = max(moves, key=scored)  # (the first of the best)
    found = raw_move(best)
    return SameTiles(Move.place(found.tiles, scored(best), found.qwirkles), max(0, scored(best) - played))


__all__ = ["SameTiles", "same_tiles"]
