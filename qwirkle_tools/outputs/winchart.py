"""The win-chance chart: the first player's chance of winning after each turn, with the turns
that lost the most chance marked (:mod:`qwirkle_tools.analysis.winchance`: a model, and the chart says so)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..analysis.analyse import Analysis
from ..analysis.annotation import decisive_moments
from ..analysis.winchance import CLASSES
from .charts import _canvas, _colour, _no_math, _short, _style_axes

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


MARKED = tuple(name for name, _ in CLASSES[:2])
"""The classes the chart marks: blunders and mistakes."""


def series(analysis: Analysis) -> list[tuple[int, float]]:
    """The first player's chance after each turn that has one, as ``(turn, chance)`` (two players)."""
    return [(t.turn, t.win.played if t.player == 0 else 1.0 - t.win.played)
            for t in analysis.turns if t.win is not None]


def marks(analysis: Analysis) -> list[tuple[int, str, int, float, bool]]:
    """The blunders and mistakes (:data:`MARKED`) and the decisive moments
    (:func:`~qwirkle_tools.analysis.annotation.decisive_moments`), as ``(turn, class, mover, the first
    player's chance after it, decisive)`` (the class ``"decisive"`` for a decisive turn of no class)."""
    after = dict(series(analysis))
    decisive = {t.turn for t in decisive_moments(analysis)}
    return [(t.turn, t.win.kind or "decisive", t.player, after[t.turn], t.turn in decisive) for t in analysis.turns
            if t.win is not None and (t.win.kind in MARKED or t.turn in decisive)]


def basis(analysis: Analysis) -> str:
    """What the chances come from, said under the chart: the model, the simulation's playouts (and
    the solver once the bag is empty), the best moves inferred where racks were not recorded."""
    sources = {t.win.source for t in analysis.turns if t.win is not None}
    simulated = sources - {"model"}
    parts = []
    if "model" in sources or not simulated:
        parts.append("estimated from the lead and the tiles still to come" + (" where not simulated" if simulated else ""))
    if simulated:
        parts.append("from the sim engine's playouts"
                     + (", the endgame solved once the bag is empty" if simulated & {"exact", "solver"} else ""))
    inferred = any(t.win is not None and t.win.inferred for t in analysis.turns)
    return "; ".join(parts) + (", the best moves inferred" if inferred else "")


def win_chance(analysis: Analysis, names: tuple[str, ...], title: str, ax: Axes | None = None) -> Figure:
    """The chart: a step line of the first player's win chance (above half: they are ahead), each
    blunder and mistake marked in the mover's colour with its turn; ``title`` names the game."""
    from matplotlib.ticker import PercentFormatter

    a, fig = _canvas(ax)
    points = series(analysis)
    turns = len(analysis.turns)
    with _no_math():
        starts = [0] + [turn for turn, _ in points]
        chances = [0.5] + [chance for _, chance in points]
        xs: list[float] = []
        ys: list[float] = []
        for i, (start, chance) in enumerate(zip(starts, chances)):  # each step drawn out, so that its shading spans it
            xs += [start, starts[i + 1] if i + 1 < len(starts) else turns + 1]
            ys += [chance, chance]
        a.plot(xs, ys, color="#222222", linewidth=1.6, zorder=3)
        a.fill_between(xs, ys, 0.5, where=[y >= 0.5 for y in ys], color=_colour(0), alpha=0.3, linewidth=0)
        a.fill_between(xs, ys, 0.5, where=[y <= 0.5 for y in ys], color=_colour(1), alpha=0.3, linewidth=0)
        a.axhline(0.5, color="black", linewidth=0.9)
        for turn, kind, mover, y, decisive in marks(analysis):
            a.plot([turn], [y], marker="v" if kind == "blunder" else "D" if kind == "decisive" else "o",
                   markersize=9 if kind == "blunder" else 6, color=_colour(mover), markeredgecolor="black", zorder=4,
                   linestyle="none")
            if decisive:  # a ring round it, and the word
                a.plot([turn], [y], marker="o", markersize=16, markerfacecolor="none", markeredgecolor="#b8860b",
                       markeredgewidth=2, zorder=5, linestyle="none")
            a.annotate(f"{turn} decisive" if decisive else str(turn), (turn, y), xytext=(0, 10 if decisive else 8),
                       textcoords="offset points", ha="center", fontsize=8, fontweight="bold" if decisive else "normal")
        _style_axes(a, "turn", f"{_short(names[0])}'s chance of winning", turns)
        a.set_xlim(0, turns + 1)
        a.set_ylim(0, 1)
        a.yaxis.set_major_formatter(PercentFormatter(1.0))
        a.set_title(f"Win chance: {title}", fontsize=14, fontweight="bold", parse_math=False)
        a.text(0.0, -0.16, basis(analysis), transform=a.transAxes, fontsize=9, color="#555555", parse_math=False)
        a.text(0.0, -0.21, "\u25bc a blunder, \u25cf a mistake (the turn's number above); ringed, decisive: a player's worst "
               "turn, or an endgame move that changed the result", transform=a.transAxes, fontsize=9,
               color="#555555", parse_math=False)
    return fig


__all__ = ["MARKED", "basis", "marks", "series", "win_chance"]
