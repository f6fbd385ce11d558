"""Board pictures: a coloured text diagram for the terminal, and a drawing.

The drawing shows every tile as its real shape in its real colour on a dark
tile, with coordinates, the last move outlined and, optionally, "ghost"
tiles (a missed Qwirkle) drawn faint with a dashed outline, and open fives:
the empty cells where a line of five the last move left open would become a
Qwirkle, ringed in red with the missing tile drawn small inside. The colours are
the Okabe-Ito palette, chosen to stay apart for colour-blind eyes; the six
shapes tell tiles apart even without colour.

matplotlib is imported only inside :func:`board_figure`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..core.board import Board, Placement
from ..core.errors import QwirkleError
from ..core.safetext import one_line
from ..core.text import count
from ..core.tiles import COLOUR_OF, SHAPE_OF, TILES
from ..play.engine import BOARD_UNKNOWN_WHY

if TYPE_CHECKING:
    from ..analysis.analyse import Analysis
    from ..play.engine import History

# Okabe-Ito: red, orange, yellow, green, blue, purple
COLOUR_HEX = ("#D55E00", "#E69F00", "#F0E442", "#009E73", "#0072B2", "#CC79A7")
TILE_FACE = "#1b1b1b"
SHAPE_SYMBOLS = ("●", "✚", "◆", "■", "✸", "♣")
_ANSI = ("\x1b[38;5;196m", "\x1b[38;5;208m", "\x1b[38;5;226m", "\x1b[38;5;34m", "\x1b[38;5;33m", "\x1b[38;5;171m")
_RESET = "\x1b[0m"
_BOLD_BOX = "\x1b[7m"


class BoardUnknown(QwirkleError):
    """A board the record does not give (:data:`~qwirkle_tools.play.engine.BOARD_UNKNOWN_WHY`)."""


@dataclass(frozen=True, slots=True)
class BoardView:
    """What a board picture shows: the board after ``turns_played`` turns, the
    tiles of the last move, and ghost tiles (the missed Qwirkle of that turn)."""

    board: Board
    turns_played: int
    last: tuple[Placement, ...] = ()
    ghosts: tuple[Placement, ...] = ()
    open_cells: tuple[Placement, ...] = ()


def board_view(history: History, turn: int | None = None, analysis: Analysis | None = None) -> BoardView:
    """The board after ``turn`` turns (default: the end), its last move, the
    missed Qwirkle of that turn as ghosts (from ``analysis`` when given, else
    from the record's annotation), and the cells completing the lines of
    five it left open (:func:`~qwirkle_tools.analysis.fives.open_five_risks`), each
    as the missing tile on its cell.

    Raises:
        BoardUnknown: ``turn`` is out of range, or the board is not known there.
    """
    from ..analysis.analyse import recorded_missed_qwirkle
    from ..analysis.fives import open_five_risks, open_fives

    count = len(history.turns)
    n = count if turn is None else turn
    if not 0 <= n <= count:
        raise BoardUnknown(f"--turn must be 0 to {count}, not {n}")
    state = history.state(n)
    if not state.board_known:
        raise BoardUnknown(f"the board after turn {n} is not known ({BOARD_UNKNOWN_WHY})")
    if n == 0:
        return BoardView(state.board, 0)
    played = history.turns[n - 1]
    if played is None:  # an unreadable turn: no move to outline
        return BoardView(state.board, n)
    judged = None if analysis is None else next((t for t in analysis.turns if t.turn == n), None)
    if judged is not None:
        missed = judged.missed_qwirkle
        ghosts = missed.tiles if missed is not None else ()
    else:
        ghosts = recorded_missed_qwirkle(played)
    if judged is not None:
        risky = judged.open_fives
    else:
        fives = open_fives(state.board.cells, [p.key for p in played.tiles or ()])
        risky = open_five_risks(state, played.player, fives, len(history.record.players))[0] if fives else ()
    marks = tuple(dict.fromkeys(Placement(f.missing, x, y) for f in risky for x, y in f.cells))
    return BoardView(state.board, n, tuple(played.tiles or ()), ghosts, marks)


def game_title(names: Sequence[str]) -> str:
    """The players as a picture's title names the game, e.g. ``Ana - Ben`` (three or more: ``Ana, Ben, Cy``),
    each one clean short line (a name is any text).

    >>> game_title(["Ana", "Ben"]), game_title(["Ana", "Ben", "Cy"])
    ('Ana - Ben', 'Ana, Ben, Cy')
    """
    shown = [one_line(n, 24) for n in names]
    return " - ".join(shown) if len(shown) == 2 else ", ".join(shown)


def position_view(history: History, turn: int | None = None, analysis: Analysis | None = None) -> BoardView:
    """The position turn ``turn`` (1-based) is played in, as ``--turn N`` means it in every command: the
    board before that turn, the move before it outlined with the open fives it left ringed (which turn
    ``turn`` may complete), and turn ``turn``'s missed Qwirkle as ghosts, where it could have been played.
    ``turn`` one past the last turn, or ``None``, is the final board (:func:`board_view` of the end).

    Raises:
        BoardUnknown: ``turn`` is out of range, or the board is not known there.
    """
    from ..analysis.analyse import recorded_missed_qwirkle

    last = len(history.turns)
    if turn is None:
        return board_view(history, None, analysis)
    if not 1 <= turn <= last + 1:
        raise BoardUnknown(f"--turn must be 1 to {last + 1} (the position turn N is played in; {last + 1}: the end), "
                           f"not {turn}")
    view = board_view(history, turn - 1, analysis)
    played = history.turns[turn - 1] if turn <= last else None
    judged = None if analysis is None else next((t for t in analysis.turns if t.turn == turn), None)
    if judged is not None:
        ghosts = judged.missed_qwirkle.tiles if judged.missed_qwirkle is not None else ()
    else:
        ghosts = recorded_missed_qwirkle(played) if played is not None else ()
    return replace(view, ghosts=tuple(ghosts))


MAX_SHOWN = 256
"""Most columns (and rows) a picture shows: a record's tiles may lie a million
cells apart. More than twice the game's 108 tiles, so that every board a game
can hold (each tile needs at most its own column and one gap), with a move's
ghost and ringed cells, is shown whole; only illegal moves make more."""
GAP = 3
"""A run of more empty columns (or rows) than this is shown as one gap, marked ``..``."""


def _axis(used: Iterable[int]) -> tuple[list[int | None], bool]:
    """The columns (or rows) to show, in order, and whether some were cut.

    Every coordinate from the least to the greatest used, except that a run
    of more than :data:`GAP` unused ones becomes one ``None`` (a gap); if
    that is more than :data:`MAX_SHOWN`, every run of unused ones becomes a
    gap (tiles far apart); and at most :data:`MAX_SHOWN` of them, the rest
    cut. A connected board has no such run, so the board of a legal game is
    shown whole and as it is.
    """
    values = sorted(set(used))
    out = _runs(values, GAP)
    if len(out) > MAX_SHOWN:
        out = _runs(values, 0)
    return out[:MAX_SHOWN], len(out) > MAX_SHOWN


def _runs(values: list[int], gap: int) -> list[int | None]:
    """``values`` (sorted, distinct) with the coordinates between them, a run
    of more than ``gap`` as one ``None``; cut after ``MAX_SHOWN + 1`` (a board
    with illegal moves may have very many)."""
    out: list[int | None] = []
    for a, b in zip(values, values[1:]):
        out.append(a)
        if b - a - 1 > gap:
            out.append(None)
        else:
            out.extend(range(a + 1, b))
        if len(out) > MAX_SHOWN:
            return out
    out.extend(values[-1:])
    return out


def not_shown(cells: Iterable[tuple[int, int]], columns: Sequence[int | None], rows: Sequence[int | None]) -> int:
    """How many of ``cells`` (x, y) lie outside the ``columns`` and ``rows`` shown."""
    xs, ys = set(columns), set(rows)
    return sum(1 for x, y in cells if x not in xs or y not in ys)


def cut_note(hidden: int) -> str:
    """What a picture cut by :data:`MAX_SHOWN` says: how many tiles it does not draw.

    >>> cut_note(8)
    '8 tiles not drawn: only the first 256 columns and rows are shown'
    """
    return f"{count(hidden, 'tile')} not drawn: only the first {MAX_SHOWN} columns and rows are shown"


def board_text(board: Board, last: Iterable[Placement] = (), colour: bool = True) -> str:
    """The board as text: a column per x, a row per y, coordinates on the edges.

    Each tile is its shape symbol, in its colour when ``colour``; without
    colour the two-letter short form is used, so the text stays readable.
    Tiles of the last move are shown reversed (with colour) or starred.
    Long runs of empty columns or rows are shown as one ``..`` (see
    :func:`_axis`), and at most :data:`MAX_SHOWN` columns and rows; a last
    line says how many tiles that leaves out (:func:`cut_note`).
    """
    if not len(board):
        return "(empty board)"
    columns, cut_x = _axis(x for x, _ in board)
    rows, cut_y = _axis(y for _, y in board)
    marked = {(p.x, p.y) for p in last}
    width = 3 if colour else 4
    labels = [".." if x is None else str(x) for x in columns]
    lines = ["     " + "".join(f"{label:>{width}}" if len(label) < width else " " + label for label in labels)]
    for y in rows:
        if y is None:
            lines.append(f"{'..':>4}")
            continue
        row = [f"{y:>4} "]
        for x in columns:
            t = None if x is None else board.get((x, y))
            if t is None:
                row.append(" " * (width - 1) + (" " if x is None else "·"))
            elif colour:
                box = _BOLD_BOX if (x, y) in marked else ""
                row.append(f"  {box}{_ANSI[COLOUR_OF[t]]}{SHAPE_SYMBOLS[SHAPE_OF[t]]}{_RESET}")
            else:
                row.append(f" *{TILES[t].short}" if (x, y) in marked else f"  {TILES[t].short}")
        lines.append("".join(row).rstrip())
    if cut_x or cut_y:
        lines.append(f"({cut_note(not_shown(board, columns, rows))})")
    return "\n".join(lines)


def _shape(kind: int, cx: float, cy: float, r: float) -> list[tuple[str, Any]]:
    """The pieces of one shape, as (kind, args) for the drawing code."""
    if kind == 0:  # circle
        return [("circle", (cx, cy, r * 0.62))]
    if kind == 1:  # cross: a four-pointed star
        pts = []
        for i in range(8):
            a = math.pi / 4 * i + math.pi / 4
            rad = r * 0.78 if i % 2 == 0 else r * 0.22
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
        return [("poly", pts)]
    if kind == 2:  # diamond
        return [("poly", [(cx, cy - r * 0.78), (cx + r * 0.55, cy), (cx, cy + r * 0.78), (cx - r * 0.55, cy)])]
    if kind == 3:  # square
        s = r * 0.55
        return [("poly", [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)])]
    if kind == 4:  # star: an eight-pointed starburst
        pts = []
        for i in range(16):
            a = math.pi / 8 * i
            rad = r * 0.8 if i % 2 == 0 else r * 0.38
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
        return [("poly", pts)]
    # clover: four round leaves around a centre
    d = r * 0.3
    leaves = [("circle", (cx + dx, cy + dy, r * 0.3)) for dx, dy in ((d, 0), (-d, 0), (0, d), (0, -d))]
    return [*leaves, ("circle", (cx, cy, r * 0.22))]


_CELL = 0.42
"""A board picture's cell, in inches."""
_MOST = 40.0
"""A board picture's widest side, in inches, its cells made smaller to fit
(about 6,000 pixels at the PNG's 150 dpi: a picture of the widest board
shown takes seconds and a few hundred MiB, not a gigabyte)."""


def board_figure(
    board: Board,
    last: Sequence[Placement] = (),
    ghosts: Sequence[Placement] = (),
    title: str | None = None,
    ax: Any = None,
    open_cells: Sequence[Placement] = (),
) -> Any:
    """A drawing of ``board``; returns the matplotlib Figure.

    ``last`` tiles are outlined; ``ghosts`` (e.g. a missed Qwirkle) are drawn
    faint with a dashed outline on their empty cells; ``open_cells`` (the
    cells completing an open five, each with its missing tile) are ringed in
    red with the tile drawn small. Draws on ``ax`` when given. ``y`` grows
    downward, as in records. A board wider than :data:`MAX_SHOWN` columns or
    rows is cut, and the picture says how many tiles it does not draw.
    """
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle, FancyBboxPatch, Polygon

    layout = _layout(board, last, ghosts, open_cells)
    cells, marked, ghost_cells, ring_cells = layout.cells, layout.marked, layout.ghosts, layout.rings
    min_x, max_x, min_y, max_y = layout.bounds
    cols, rows = len(layout.columns), len(layout.lines)
    size = min(_CELL, _MOST / max(cols, rows))  # a cell's inches: a wide board is drawn smaller, not huge
    if ax is None:
        fig = Figure(figsize=(max(4.0, cols * size + 1.2), max(3.0, rows * size + 1.2)))
        ax = fig.add_subplot(1, 1, 1)
    else:
        fig = ax.figure
    ax.set_facecolor("#f4f1ea")

    def tile(x: int, y: int, t: int, alpha: float = 1.0, ghost: bool = False) -> None:
        pad = 0.06
        ax.add_patch(FancyBboxPatch(
            (x - 0.5 + pad, y - 0.5 + pad), 1 - 2 * pad, 1 - 2 * pad,
            boxstyle="round,pad=0,rounding_size=0.12",
            facecolor=TILE_FACE, alpha=0.35 if ghost else alpha,
            edgecolor="#c00000" if ghost else ("#ffd700" if (x, y) in marked else TILE_FACE),
            linewidth=2.2 if ghost or (x, y) in marked else 0.5,
            linestyle="--" if ghost else "-",
        ))
        colour = COLOUR_HEX[COLOUR_OF[t]]
        for kind, args in _shape(SHAPE_OF[t], x, y, 0.5):
            if kind == "circle":
                cx, cy, r = args
                ax.add_patch(Circle((cx, cy), r, facecolor=colour, edgecolor="none", alpha=0.45 if ghost else 1.0))
            else:
                ax.add_patch(Polygon(args, closed=True, facecolor=colour, edgecolor="none", alpha=0.45 if ghost else 1.0))

    for x, y, t in cells:
        tile(x, y, t)
    for x, y, t in ghost_cells:
        tile(x, y, t, ghost=True)
    for x, y, t in ring_cells:  # an open five's completing cell: a red ring, the missing tile small inside
        ax.add_patch(Circle((x, y), 0.44, facecolor="none", edgecolor="#d00000", linewidth=2.0, linestyle=":"))
        for kind, args in _shape(SHAPE_OF[t], x, y, 0.3):
            if kind == "circle":
                cx, cy, r = args
                ax.add_patch(Circle((cx, cy), r, facecolor=COLOUR_HEX[COLOUR_OF[t]], edgecolor="#1b1b1b", linewidth=0.6))
            else:
                ax.add_patch(Polygon(args, closed=True, facecolor=COLOUR_HEX[COLOUR_OF[t]], edgecolor="#1b1b1b",
                                     linewidth=0.6))
    ax.set_xlim(min_x - 0.6, max_x + 0.6)
    ax.set_ylim(max_y + 0.6, min_y - 0.6)  # y grows downward
    ax.set_aspect("equal")
    _label(ax, layout, size, title)
    with warnings.catch_warnings():  # a glyph missing from the font (a name's emoji): not the user's terminal's business
        warnings.simplefilter("ignore")
        fig.tight_layout()
    return fig


Cell = tuple[int, int, int]
"""A tile at a drawing position: x, y, tile."""


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where a board picture draws: the coordinates shown along each axis
    (``None``: a gap), whether each was cut, how many tiles are not drawn,
    and the tiles, the last move's cells, the ghosts and the ringed cells at
    their drawing positions (the coordinates themselves, unless gaps or a cut close them up)."""

    columns: list[int | None]
    lines: list[int | None]
    cut: tuple[bool, bool]
    hidden: int
    cells: list[Cell]
    marked: set[tuple[int, int]]
    ghosts: list[Cell]
    rings: list[Cell]

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        """The drawing positions' least and greatest x, then y."""
        first_x, first_y = self.columns[0] or 0, self.lines[0] or 0
        return first_x, first_x + len(self.columns) - 1, first_y, first_y + len(self.lines) - 1


def _layout(board: Board, last: Sequence[Placement], ghosts: Sequence[Placement], open_cells: Sequence[Placement]) -> _Layout:
    cells: list[Cell] = [(x, y, t) for (x, y), t in board.items()]
    ghost_cells = [(p.x, p.y, int(p.tile)) for p in ghosts]
    ring_cells = [(p.x, p.y, int(p.tile)) for p in open_cells]
    everything = cells + ghost_cells + ring_cells
    origin: tuple[list[int | None], bool] = ([0], False)  # an empty board: the one cell (0, 0)
    columns, cut_x = _axis(c[0] for c in everything) if everything else origin
    lines, cut_y = _axis(c[1] for c in everything) if everything else origin
    first_x, first_y = columns[0] or 0, lines[0] or 0
    at_x = {x: first_x + i for i, x in enumerate(columns) if x is not None}
    at_y = {y: first_y + i for i, y in enumerate(lines) if y is not None}
    hidden = not_shown(((x, y) for x, y, _ in everything), columns, lines) if cut_x or cut_y else 0

    def placed(found: list[Cell]) -> list[Cell]:
        return [(at_x[x], at_y[y], t) for x, y, t in found if x in at_x and y in at_y]

    marked = {(at_x[p.x], at_y[p.y]) for p in last if p.x in at_x and p.y in at_y}
    return _Layout(columns, lines, (cut_x, cut_y), hidden, placed(cells), marked, placed(ghost_cells), placed(ring_cells))


def _label(ax: Any, layout: _Layout, size: float, title: str | None) -> None:
    """The coordinates on the edges (``...`` for a gap or a cut), the note of the tiles not drawn, the title."""
    min_x, max_x, min_y, max_y = layout.bounds
    ax.set_xticks(range(min_x, max_x + 1))
    ax.set_yticks(range(min_y, max_y + 1))
    if None in layout.columns or layout.cut[0]:
        ax.set_xticklabels(["..." if x is None else str(x) for x in layout.columns])
    if None in layout.lines or layout.cut[1]:
        ax.set_yticklabels(["..." if y is None else str(y) for y in layout.lines])
    # labels shrink with the cells (72 points an inch), and stand on end when the cells are narrow
    ax.tick_params(labelsize=min(7.0, size * 72 * 0.5), length=0, top=True, labeltop=True, bottom=False,
                   labelbottom=False)
    if size < _CELL:
        ax.tick_params(axis="x", labelrotation=90)
    if layout.hidden:
        ax.set_xlabel(cut_note(layout.hidden), fontsize=8)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if title:  # a title may hold a file name: one clean line, taken literally
        ax.set_title(one_line(title), fontsize=10, parse_math=False)
