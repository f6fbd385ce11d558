"""The chart of a club's standings (``qwirkle standings -o chart.png``).

Two panels, a row per player in the standings' order: the wins against the
games played, and the openskill rating with its 95 % interval; at most
:data:`MOST_PLAYERS` rows (the first), the title saying how many more the
table holds, so that the picture stays about 1,500 x 5,300 pixels at most, as
the board pictures are bounded (a club of 1,200 players was 1,500 x 75,780
and 711 MB of memory). The data is
anything with the fields of :class:`StandingLine` (the standings of
:mod:`qwirkle_tools.bots.standings` are; this layer does not import that one);
matplotlib is imported only when the chart is drawn, and the figure is
returned, never shown (see :func:`qwirkle_tools.outputs.charts.save`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from ..core.text import count
from .charts import PALETTE, _no_math, _short

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class Rated(Protocol):
    @property
    def mu(self) -> float: ...
    @property
    def low(self) -> float: ...
    @property
    def high(self) -> float: ...


class StandingLine(Protocol):
    """A player's line as the chart reads it."""

    @property
    def player(self) -> str: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> float: ...
    @property
    def rating(self) -> Rated | None: ...


MOST_PLAYERS = 80
"""Most players drawn, the first of the standings: a row is 0.42 inches (35 inches
for 80, 5,300 pixels at the PNG's 150 dpi)."""


def standings_figure(players: Sequence[StandingLine], title: str) -> Figure:
    """Wins of games played and ratings with their intervals, the first player on top
    (at most the first :data:`MOST_PLAYERS`, the title saying so)."""
    from matplotlib.figure import Figure

    every = list(players)
    rows = every[:MOST_PLAYERS]
    drawn = "" if len(rows) == len(every) else f"; the first {len(rows)} drawn, {len(every) - len(rows):,} more in the table"
    height = max(2.6, 1.2 + 0.42 * len(rows))
    fig = Figure(figsize=(10.0, height), layout="constrained")
    wins_ax, rating_ax = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": (1, 1)})
    y = list(range(len(rows)))
    names = [_short(p.player) for p in rows]
    with _no_math():
        wins_ax.barh(y, [p.games for p in rows], color="#e3e3e3", label="games")
        wins_ax.barh(y, [p.wins for p in rows], color=PALETTE[0], label="wins")
        for i, p in enumerate(rows):
            wins_ax.text(p.games, i, f" {p.wins:g} of {p.games}", va="center", fontsize=10)
        wins_ax.set_yticks(y, names, fontsize=11)
        wins_ax.set_ylim(len(rows) - 0.5, -0.5)  # the first place on top, no margin of empty rows (shared)
        wins_ax.set_xlim(0, max((p.games for p in rows), default=1) * 1.25)
        wins_ax.set_xlabel("games (grey) and wins (a shared first place counts half)", fontsize=10)
        wins_ax.set_title("Wins", fontsize=12, fontweight="bold")
        rated = [(i, p.rating) for i, p in enumerate(rows) if p.rating is not None]
        for i, r in rated:
            rating_ax.errorbar(r.mu, i, xerr=[[r.mu - r.low], [r.high - r.mu]], fmt="o", color=PALETTE[1],
                               ecolor="#999999", capsize=4, markersize=7)
            rating_ax.text(r.mu, i - 0.22, f"{r.mu:.1f}", ha="center", va="bottom", fontsize=9)
        rating_ax.set_xlabel("openskill rating (mu), 95% interval", fontsize=10)
        rating_ax.set_title("Rating", fontsize=12, fontweight="bold")
        for ax in (wins_ax, rating_ax):
            ax.grid(True, axis="x", color="#d9d9d9", linewidth=0.6)
            ax.set_axisbelow(True)
            for side in ("top", "right"):
                ax.spines[side].set_visible(False)
        fig.suptitle(f"{title} ({count(len(every), 'player')}{drawn})", fontsize=14, fontweight="bold")
    return fig


__all__ = ["MOST_PLAYERS", "Rated", "StandingLine", "standings_figure"]
