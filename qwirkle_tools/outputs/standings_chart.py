"""The chart of a club's standings (``qwirkle standings -o chart.png``).

Two panels, a row per player in the standings' order: the wins against the
games played, and the openskill rating with its 95 % interval. The data is
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


def standings_figure(players: Sequence[StandingLine], title: str) -> Figure:
    """Wins of games played and ratings with their intervals, the first player on top."""
    from matplotlib.figure import Figure

    rows = list(players)
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
        wins_ax.invert_yaxis()  # the first place on top
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
        fig.suptitle(f"{title} ({count(len(rows), 'player')})", fontsize=14, fontweight="bold")
    return fig


__all__ = ["Rated", "StandingLine", "standings_figure"]
