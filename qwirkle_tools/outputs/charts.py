"""Charts of one game: the score race, the lead, the points of each turn.

The data comes first and is plain: :func:`progression_data` reads a replay
(:class:`~qwirkle_tools.play.engine.History`, or a record, which it replays) into
a :class:`ChartData` (no plotting library involved), which the chart
functions draw. Each chart takes a record or its :class:`ChartData` and an
optional matplotlib ``ax`` to draw on, and returns the figure; none of them
shows anything or writes a file (see :func:`save`). matplotlib is imported
only when a chart is drawn, so importing this module stays cheap.

Figures are built as :class:`matplotlib.figure.Figure` objects, never through
pyplot, so no global figure state is touched and no GUI backend is needed.
"""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.safetext import one_line
from ..formats.fileio import write_atomic
from ..formats.record import Record
from ..play.engine import History, LeadChange, replay, sole_leader

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..analysis.analyse import Analysis

__all__ = [
    "PALETTE",
    "ChartData",
    "LeadChange",
    "Margin",
    "QwirkleMark",
    "TurnPoints",
    "lead",
    "progression",
    "progression_data",
    "render",
    "save",
    "ticks",
    "turns",
]

#: Player colours, Okabe & Ito's colour-blind-safe set (its yellow left out:
#: too faint on white), seat 0 first.
PALETTE: tuple[str, ...] = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")

_NAME_LIMIT = 24
_FIGSIZE = (10.0, 5.2)
_PNG_DPI = 150
_SVG_SALT = "qwirkle-tools"


@dataclass(frozen=True, slots=True)
class QwirkleMark:
    """A turn that completed ``count`` Qwirkles; ``score`` is the player's total after it."""

    turn: int
    player: int
    score: int
    count: int


@dataclass(frozen=True, slots=True)
class Margin:
    """The gap after a turn; ``leader`` is ``None`` while the top scores are tied.

    With two players ``margin`` is seat 0's total minus seat 1's (negative
    while seat 1 leads); with more it is the leader's lead over the second.
    """

    turn: int
    margin: int
    leader: int | None


@dataclass(frozen=True, slots=True)
class TurnPoints:
    """One player's turn: what it added to the total, and what it lost.

    ``qwirkles`` is ``None`` where the record gives only the claimed score
    (a score-sheet turn); ``points_lost`` is ``None`` where the record holds
    no analysis for the turn (see ``qwirkle annotate``).
    """

    turn: int
    player: int
    action: str
    points: int
    qwirkles: int | None
    points_lost: int | None


@dataclass(frozen=True, slots=True)
class ChartData:
    """Everything the charts draw, as plain data.

    Turns are numbered from 1 as in the record; turn 0 is the start.

    Attributes:
        players: player names, by seat.
        series: for each seat, ``(turn, total)`` after every turn, starting
            with ``(0, 0)``; every seat has a point at every turn.
        qwirkles: the turns that completed Qwirkles, in turn order (only
            where the placed tiles are known).
        lead_changes: the turns after which a player leads alone where
            another led before; a tie does not end a lead, and the first
            player to lead does not count as a change.
        final: each seat's total after the last turn (computed where the
            tiles are known, else as claimed).
        points: for each seat, that player's turns in order.
    """

    players: tuple[str, ...]
    series: tuple[tuple[tuple[int, int], ...], ...]
    qwirkles: tuple[QwirkleMark, ...]
    lead_changes: tuple[LeadChange, ...]
    final: tuple[int, ...]
    points: tuple[tuple[TurnPoints, ...], ...]

    @property
    def turn_count(self) -> int:
        return len(self.series[0]) - 1 if self.series else 0

    @property
    def annotated(self) -> bool:
        """Whether any turn carries an analysis with points lost."""
        return any(t.points_lost is not None for seat in self.points for t in seat)

    @property
    def title(self) -> str:
        """The final score: ``"Ana 296 - 295 Ben"``, or ``"Ana 120 · Ben 110 · Cy 90"`` (seat order).

        >>> ChartData(("Ana", "Ben"), (), (), (), (296, 295), ()).title
        'Ana 296 - 295 Ben'
        """
        names = [_short(n) for n in self.players]
        if len(names) == 2:
            return f"{names[0]} {self.final[0]} - {self.final[1]} {names[1]}"
        return " · ".join(f"{n} {s}" for n, s in zip(names, self.final))

    def margins(self) -> tuple[Margin, ...]:
        """The gap between the leader and the rest after every turn, from turn 0."""
        out = []
        for i in range(self.turn_count + 1):
            totals = [s[i][1] for s in self.series]
            out.append(Margin(i, *_gap(totals)))
        return tuple(out)


def _gap(totals: Sequence[int]) -> tuple[int, int | None]:
    top = max(totals, default=0)
    leader = sole_leader(totals)
    if len(totals) == 2:
        return totals[0] - totals[1], leader
    second = max((s for p, s in enumerate(totals) if p != leader), default=top) if leader is not None else top
    return top - second, leader


def ticks(top: int, most: int) -> list[int]:
    """Round values for an axis from 0 to ``top`` or just past it: at most
    ``most`` steps, each step 1, 2, 2.5 or 5 times a power of ten (a whole
    number), the smallest that needs no more. So an axis carries at most
    ``most + 1`` labels whatever its range (the page's chart; the drawn
    charts use matplotlib's ``MaxNLocator`` to the same end).

    >>> ticks(296, 6)
    [0, 50, 100, 150, 200, 250, 300]
    >>> ticks(500_000_000, 6)
    [0, 100000000, 200000000, 300000000, 400000000, 500000000]
    >>> ticks(0, 6)
    [0, 1]
    """
    top, most = max(top, 1), max(most, 1)
    power = 10 ** max(0, len(str(top // most)) - 2)  # a decade or two below the step needed: a few tries
    while True:
        for step in (power, 2 * power, 25 * power // 10, 5 * power):  # (2.5 is 2 below ten: tried twice)
            steps = -(-top // step)  # rounded up
            if steps <= most:
                return list(range(0, steps * step + 1, step))
        power *= 10


def _short(name: str) -> str:
    """A name as a picture shows it: one clean line (no character XML forbids), cut short."""
    return one_line(name, _NAME_LIMIT)


def _points_lost(extra: object) -> int | None:
    """The points lost an annotated turn records; ``None`` unless a plausible count
    (a record may hold any ``analysis``: 10**30 overflowed the drawing)."""
    if not isinstance(extra, dict):
        return None
    lost = extra.get("points_lost")
    plausible = isinstance(lost, int) and not isinstance(lost, bool) and 0 <= lost <= _MAX_POINTS
    return lost if plausible else None


_MAX_POINTS = 100_000  # the record format's largest score


def progression_data(game: Record | History, analysis: Analysis | None = None) -> ChartData:
    """The data the charts draw, from a replay (or a record, replayed here).

    Works on any record the reader accepts: fully recorded games, score
    sheets (claimed scores only; their Qwirkles are not known, so none are
    marked) and records with illegal moves (replayed as the validator does,
    so totals are the computed ones where the tiles are known). Points lost
    come from ``analysis`` when given, else from the record's annotations.

    >>> from qwirkle_tools.formats.record import from_data
    >>> record = from_data({"format": "qwirkle-record", "version": 1,
    ...     "players": [{"name": "Ana"}, {"name": "Ben"}],
    ...     "turns": [{"player": 0, "action": "place", "score": 5},
    ...               {"player": 1, "action": "place", "score": 7}]})
    >>> data = progression_data(record)
    >>> data.series
    (((0, 0), (1, 5), (2, 5)), ((0, 0), (1, 0), (2, 7)))
    >>> data.lead_changes
    (LeadChange(turn=2, leader=1),)
    """
    history = game if isinstance(game, History) else replay(game, positions=False)
    record = history.record
    n = len(record.players)
    lost = {t.turn - 1: t.points_lost for t in analysis.turns} if analysis is not None else None
    series: list[list[tuple[int, int]]] = [[(0, s)] for s in history.initial.scores[:n]]
    points: list[list[TurnPoints]] = [[] for _ in range(n)]
    qwirkles: list[QwirkleMark] = []
    for result in history:
        number = result.index + 1
        totals = result.totals
        for p in range(n):
            series[p].append((number, totals[p]))
        turn = result.turn
        if turn is not None and 0 <= turn.player < n:
            p = turn.player
            count = result.qwirkles
            points[p].append(TurnPoints(
                number, p, turn.action, result.points, count,
                lost.get(result.index) if lost is not None else _points_lost(turn.extra.get("analysis"))))
            if count:
                qwirkles.append(QwirkleMark(number, p, totals[p], count))
    return ChartData(
        players=record.names,
        series=tuple(tuple(s) for s in series),
        qwirkles=tuple(qwirkles),
        lead_changes=history.lead_changes(),
        final=history.totals[:n],
        points=tuple(tuple(p) for p in points),
    )


# -- drawing -------------------------------------------------------------------

def _data(record_or_data: Record | History | ChartData) -> ChartData:
    return record_or_data if isinstance(record_or_data, ChartData) else progression_data(record_or_data)


def _colour(p: int) -> str:
    return PALETTE[p % len(PALETTE)]


def _canvas(ax: Axes | None) -> tuple[Axes, Figure]:
    """The axes to draw on and its figure: ``ax`` as given, or a new figure."""
    from matplotlib.figure import Figure

    if ax is None:
        fig = Figure(figsize=_FIGSIZE, layout="constrained")
        return fig.add_subplot(), fig
    root = ax.get_figure(root=True)
    if root is None:
        raise ValueError("the axes given belong to no figure")
    return ax, root


def _style_axes(ax: Axes, xlabel: str, ylabel: str, turns: int) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.set_xlabel(xlabel, fontsize=11, parse_math=False)  # (names: user input, taken literally)
    ax.set_ylabel(ylabel, fontsize=11, parse_math=False)
    ax.tick_params(labelsize=10)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=12, integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(nbins=8, integer=True))
    ax.set_xlim(0, max(turns, 1))
    ax.grid(True, color="#d9d9d9", linewidth=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


@contextmanager
def _no_math() -> Iterator[None]:
    """Draw with ``$`` in names taken literally (no mathtext): names are user
    input; and keep matplotlib's warnings (a glyph missing from the font for
    some name) off the user's terminal."""
    import matplotlib

    with matplotlib.rc_context({"text.parse_math": False}), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def progression(record_or_data: Record | History | ChartData, ax: Axes | None = None) -> Figure:
    """The running total of every player, turn by turn.

    One step line per player (the total jumps at the turn that scored it),
    a star where a turn completed Qwirkles, a dotted line in the new
    leader's colour where the lead changed hands, and the final score as
    the title. Draws on ``ax`` when given (its figure is returned), else on
    a new figure.
    """
    from matplotlib.lines import Line2D

    data = _data(record_or_data)
    a, fig = _canvas(ax)
    with _no_math():
        handles: list[Line2D] = []
        labels: list[str] = []
        for p, name in enumerate(data.players):
            # the last total drawn on to the right edge, so the last turn's step shows
            xs = [t for t, _ in data.series[p]] + [data.turn_count + 1]
            ys = [s for _, s in data.series[p]] + [data.final[p]]
            (line,) = a.plot(xs, ys, drawstyle="steps-post", color=_colour(p), linewidth=2.2, zorder=3)
            handles.append(line)
            labels.append(f"{_short(name)} ({data.final[p]})")
        for change in data.lead_changes:
            a.axvline(change.turn, color=_colour(change.leader), linestyle=":", linewidth=1.1, alpha=0.8, zorder=2)
        if data.lead_changes:
            handles.append(Line2D([], [], color="#555555", linestyle=":", linewidth=1.1))
            labels.append(f"lead changes ({len(data.lead_changes)}), in the new leader's colour")
        for mark in data.qwirkles:
            a.plot([mark.turn], [mark.score], marker="*", markersize=15 + 3 * (mark.count - 1), color=_colour(mark.player),
                   markeredgecolor="black", markeredgewidth=0.8, linestyle="none", zorder=4)
        if data.qwirkles:
            handles.append(Line2D([], [], marker="*", markersize=13, color="#888888", markeredgecolor="black",
                                  markeredgewidth=0.8, linestyle="none"))
            labels.append(f"Qwirkle ({sum(m.count for m in data.qwirkles)})")
        _style_axes(a, "turn", "score", data.turn_count)
        a.set_xlim(0, data.turn_count + 1)
        a.set_ylim(bottom=0)
        a.set_title(data.title, fontsize=14, fontweight="bold", parse_math=False)
        a.legend(handles, labels, loc="upper left", fontsize=10, framealpha=0.95)
    return fig


def lead(record_or_data: Record | History | ChartData, ax: Axes | None = None) -> Figure:
    """The lead, turn by turn.

    With two players, one step line of the first player's total minus the
    second's (above zero: the first player leads), shaded in the colour of
    whoever leads. With more, the leader's lead over the second, shaded in
    the leader's colour. Draws on ``ax`` when given, else on a new figure.
    """
    from matplotlib.patches import Patch

    data = _data(record_or_data)
    a, fig = _canvas(ax)
    margins = data.margins()
    two = len(data.players) == 2
    # the steps drawn out point by point, so that each turn's shading spans its whole step
    xs: list[float] = []
    ys: list[float] = []
    owners: list[int | None] = []
    for i, m in enumerate(margins):
        end = margins[i + 1].turn if i + 1 < len(margins) else m.turn + 1
        xs += [m.turn, end]
        ys += [m.margin, m.margin]
        owners += [m.leader, m.leader]
    with _no_math():
        handles: list[Patch] = []
        labels: list[str] = []
        for p, name in enumerate(data.players):
            where = [o == p for o in owners]
            if any(where) or two:
                a.fill_between(xs, ys, 0, where=where, color=_colour(p), alpha=0.3, linewidth=0, zorder=2)
                handles.append(Patch(facecolor=_colour(p), alpha=0.45))
                labels.append(f"{_short(name)} leads")
        a.plot(xs, ys, color="#222222", linewidth=1.6, zorder=3)
        a.axhline(0, color="black", linewidth=0.9, zorder=2)
        last = margins[-1]
        a.annotate(f"{last.margin:+d}" if two else f"{last.margin}", (last.turn + 1, last.margin), xytext=(4, 0),
                   textcoords="offset points", va="center", fontsize=10, fontweight="bold")
        _style_axes(a, "turn", f"points: {_short(data.players[0])} minus {_short(data.players[1])}" if two
                    else "points: leader's lead over second", data.turn_count)
        a.set_xlim(0, last.turn + 1 + max(2.0, 0.05 * last.turn))  # room for the final margin's label
        low = min(m.margin for m in margins)
        high = max(m.margin for m in margins)
        span = max(high, -low, 1)
        pad = 0.12 * span + 1
        if two:  # both sides of zero in view, however one-sided the game
            a.set_ylim(min(low, -0.3 * span) - pad, max(high, 0.3 * span) + pad)
        else:
            a.set_ylim(0, high + pad)
        a.set_title(f"Lead: {data.title}", fontsize=14, fontweight="bold", parse_math=False)
        a.legend(handles, labels, loc="best", fontsize=10, framealpha=0.95)
    return fig


def turns(record_or_data: Record | History | ChartData, ax: Axes | None = None) -> Figure:
    """The points of every turn, a bar per turn in the player's colour.

    Where the record is annotated (``qwirkle annotate``), the points lost on
    a turn (best score minus score played) are stacked on its bar, hatched
    and lighter, so the whole bar is the best score available. A star above
    a bar marks a turn that completed Qwirkles. Beyond :data:`MAX_BARS`
    turns, each bar sums a player's points over a span of turns (said in the
    title), so that a record of thousands of turns draws as fast as a game.
    Draws on ``ax`` when given, else on a new figure.
    """
    from matplotlib.artist import Artist
    from matplotlib.patches import Patch

    data = _data(record_or_data)
    a, fig = _canvas(ax)
    span = -(-data.turn_count // MAX_BARS)  # turns a bar sums: 1 for any game
    with _no_math():
        handles: list[Artist] = []
        labels: list[str] = []
        tallest = 0
        seats = max(len(data.players), 1)
        width = 0.85 if span == 1 else 0.85 * span / seats  # summed spans: the players side by side
        for p, name in enumerate(data.players):
            seat = _summed(data.points[p], span)
            shift = 0.0 if span == 1 else (p + 0.5) * span / seats - span / 2
            xs = [t.turn + shift for t in seat]
            played = [t.points for t in seat]
            a.bar(xs, played, width=width, color=_colour(p), zorder=3)
            handles.append(Patch(facecolor=_colour(p)))
            labels.append(f"{_short(name)} scored {sum(played)}")
            lost = [t.points_lost or 0 for t in seat]
            if any(t.points_lost is not None for t in seat):  # listed even when nothing was lost
                a.bar(xs, lost, bottom=played, width=width, color=_colour(p), alpha=0.35, hatch="///",
                      edgecolor=_colour(p), linewidth=0, zorder=3)
                handles.append(Patch(facecolor=_colour(p), alpha=0.35, hatch="///", edgecolor=_colour(p), linewidth=0))
                labels.append(f"{_short(name)} lost {sum(lost)}")
            tallest = max([tallest, *(s + lo for s, lo in zip(played, lost))])
            stars = [(t.turn + shift, t.points + (t.points_lost or 0)) for t in seat if t.qwirkles]
            if stars:
                a.plot([x for x, _ in stars], [y + 1.2 for _, y in stars], marker="*", markersize=11, color=_colour(p),
                       markeredgecolor="black", markeredgewidth=0.6, linestyle="none", zorder=4)
        if any(t.qwirkles for seat in data.points for t in seat):
            from matplotlib.lines import Line2D

            handles.append(Line2D([], [], marker="*", markersize=11, color="#888888", markeredgecolor="black",
                                  markeredgewidth=0.6, linestyle="none"))
            labels.append("Qwirkle")
        _style_axes(a, "turn", "points", data.turn_count)
        a.set_xlim(0.3, max(data.turn_count, 1) + 0.7)
        a.set_ylim(0, tallest * 1.3 + 3)  # headroom for the stars and the legend
        a.grid(False, axis="x")
        title = ("Points per turn" if span == 1 else f"Points per {span} turns") + (
            " and points lost" if data.annotated else "")
        a.set_title(f"{title}: {data.title}", fontsize=14, fontweight="bold", parse_math=False)
        # annotated: a column per player (scored above lost); else one column
        columns = -(-len(handles) // 2) if data.annotated else 1
        a.legend(handles, labels, loc="upper left", fontsize=10, framealpha=0.95, ncols=min(columns, 4))
    return fig


MAX_BARS = 150
"""Most bars a player's turns chart draws; longer records are summed over spans of turns."""


def _summed(seat: Sequence[TurnPoints], span: int) -> list[TurnPoints]:
    """A player's turns summed over spans of ``span`` turns (each at its span's
    middle, as a float); the turns themselves when ``span`` is 1."""
    if span == 1:
        return list(seat)
    buckets: dict[int, list[TurnPoints]] = {}
    for t in seat:
        buckets.setdefault((t.turn - 1) // span, []).append(t)
    out = []
    for b, ts in sorted(buckets.items()):
        lost = [t.points_lost for t in ts if t.points_lost is not None]
        out.append(TurnPoints(b * span + (span + 1) // 2, ts[0].player, "place", sum(t.points for t in ts),
                              sum(t.qwirkles or 0 for t in ts), sum(lost) if lost else None))
    return out


def render(fig: Figure, kind: str) -> bytes:
    """``fig`` as ``"png"`` or ``"svg"`` bytes.

    The same figure gives the same bytes every time: no timestamp or
    software version is written, and SVG element ids come from a fixed salt.
    SVG text is kept as text (searchable, selectable), not as glyph outlines.

    Raises:
        ValueError: ``kind`` is neither ``png`` nor ``svg``.
    """

    buffer = io.BytesIO()
    with _no_math():  # text is laid out (and glyphs looked up) as the figure is drawn
        _draw(fig, buffer, kind)
    return buffer.getvalue()


def _draw(fig: Figure, buffer: io.BytesIO, kind: str) -> None:
    import matplotlib

    if kind == "svg":
        with matplotlib.rc_context({"svg.hashsalt": _SVG_SALT, "svg.fonttype": "none"}):
            fig.savefig(buffer, format="svg", metadata={"Date": None})
    elif kind == "png":
        fig.savefig(buffer, format="png", dpi=_PNG_DPI, metadata={"Software": None})
    else:
        raise ValueError(f"unknown picture format {kind!r}; use png or svg")


def save(fig: Figure, path: str | os.PathLike[str], replace: bool = True) -> None:
    """Write ``fig`` to ``path`` as PNG or SVG, chosen by the suffix (see
    :func:`render`), atomically (see :func:`qwirkle_tools.formats.fileio.write_atomic`;
    without ``replace`` the name is created exclusively).

    Raises:
        ValueError: the suffix is neither ``.png`` nor ``.svg``.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(f"{os.fspath(path)!r}: unknown chart format {suffix or '(no suffix)'!r}; use .png or .svg")
    write_atomic(path, render(fig, suffix[1:]), replace)
