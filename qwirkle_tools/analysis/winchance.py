"""Win chances: how likely the mover is to win after a move, and the chance a move gave away.

A model of the game's end from two facts of a position: the mover's lead (their score less
the best other's) and the tiles not yet on the board (in the bag and the racks, the points
still to come). The chance is a logistic curve of the lead over the spread still possible::

    chance = 1 / (1 + exp(-(lead - TEMPO) / (SCALE * sqrt(tiles + OFFSET))))

(the lead less :data:`TEMPO`: right after a move, the next player is to move, and a move is
worth points).

:data:`SCALE`, :data:`OFFSET` and :data:`TEMPO` were fitted (the likelihood of the results, a draw half a
win) to the 32,762 positions of 600 two-player self-play games of mixed skill (``greedy``,
``equity``, ``random`` in every pairing: ``benchmarks/bench_winchance.py --fit --seed 200``),
and checked on 600 others (``--seed 5100``: docs/analysis.md gives the calibration). Once a move ends the game, its chance is
the result: 1, 0.5 or 0. The model knows nothing of who plays: against a stronger player a
lead is worth less than it says.

Each turn judged gets the mover's chance after the move played and after the best move (its
score added to the lead instead), and the chance lost between the two; a turn is classed by
that loss, as lichess classes a chess move by the winning chances it loses:
:data:`CLASSES` (an inaccuracy from 5 points of chance, a mistake from 10, a blunder from 15).
Where the rack is not recorded the best is the inferred one (the expected points lost added
back), and the figures are inferred too.

With ``--engine sim`` a turn whose rack is known takes its chances from the simulation instead
(``source`` ``"sim"``): each candidate's chance is the mean, over its playouts, of the model's
chance at the playout's end (:func:`playout_chance`: the lead and the tiles left there, a few
turns nearer the end, as Macondo's simulation reads a win percentage at its playouts' ends), the
played move's and the best candidate's compared. Once the bag is empty the endgame solver's
spread is the result (``source`` ``"exact"`` where it proves the position, ``"solver"`` where its
budget ran out first): 1, 0.5 or 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.pickling import Rebuilt, rebuilt

SCALE = 0.6875
"""The curve's spread per square root of a tile still to come (fitted: see the module)."""
OFFSET = 42.0
"""Added to the tiles still to come under the square root (fitted: see the module)."""
TEMPO = 3.5
"""Points taken off the lead: the next player's move to come (fitted: see the module)."""
CLASSES = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))
"""Each class and the least chance lost it takes, the worst first."""


def win_chance(lead: float, tiles: int, over: bool = False) -> float:
    """The mover's chance of winning with ``lead`` points over the best other and ``tiles``
    tiles not on the board; ``over``: the game has ended (the chance is the result)."""
    if over:
        return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
    z = (lead - TEMPO) / (SCALE * math.sqrt(max(tiles, 0) + OFFSET))
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def playout_chance(lead: float, tiles: int, moved: bool, over: bool) -> float:
    """The mover's chance at a playout's end (:data:`~qwirkle_tools.engines.simulation.Leaf`): ``lead``
    points over the other player with ``tiles`` not on the board, the mover having played last
    (``moved``) or the other player; ``over``: the game ended there (the chance is the result)."""
    return win_chance(lead, tiles, over) if moved or over else 1.0 - win_chance(-lead, tiles)


SOURCES = {"model": "", "sim": "from the simulation's playouts; ", "exact": "exact, the endgame solved; ",
           "solver": "the endgame solver's best line, not proven; "}
"""Where a chance comes from: the model of the lead and the tiles, the simulation, the solver."""


@dataclass(frozen=True, slots=True)
class WinChance:
    """The mover's win chance after the move played (``played``) and after the best move
    (``best``), ``inferred`` where the best is the inferred one (the rack not recorded), and
    its ``source`` (:data:`SOURCES`)."""

    played: float
    best: float
    inferred: bool = False
    source: str = "model"

    @property
    def lost(self) -> float:
        return max(0.0, self.best - self.played)

    @property
    def kind(self) -> str | None:
        """``blunder``, ``mistake``, ``inaccuracy`` (:data:`CLASSES`), or ``None``."""
        return next((name for name, least in CLASSES if self.lost >= least - 1e-9), None)

    def text(self) -> str:
        """``win chance 41% (the best move: 62%, 21 points of chance lost)``."""
        what = "inferred best move" if self.inferred else "best move"
        return (f"win chance {self.played:.0%} ({SOURCES.get(self.source, '')}the {what}: {self.best:.0%}, "
                f"{100 * self.lost:.0f} points of chance lost)")

    def to_data(self) -> dict[str, object]:
        return {"played": round(self.played, 4), "best": round(self.best, 4), "lost": round(self.lost, 4),
                "class": self.kind, "inferred": self.inferred, "source": self.source}

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


def chances(lead: int, played: int, best: float, tiles: int, placed: int, best_placed: int, ends: bool,
            best_ends: bool, inferred: bool = False) -> WinChance:
    """The win chances of a turn: ``lead`` before it (the mover's), the points ``played`` and the
    ``best`` score, ``tiles`` not on the board before it, the tiles each move placed, and whether
    each ends the game."""
    after = win_chance(lead + played, tiles - placed, ends)
    return WinChance(after, max(win_chance(lead + best, tiles - best_placed, best_ends), after), inferred)


__all__ = ["CLASSES", "OFFSET", "SCALE", "SOURCES", "TEMPO", "WinChance", "chances", "playout_chance", "win_chance"]
