"""Board pictures: a coloured text diagram for the terminal, and a drawing.

The drawing shows every tile as its real shape in its real colour on a dark
tile, with coordinates, the last move outlined and, optionally, "ghost"
tiles (a missed Qwirkle) drawn faint with a dashed outline, and open fives:
the empty cells where a line of five the last move left open would become a
Qwirkle, ringed in red with the missing tile drawn small inside, and a legend
of the colours and shapes with their letters. The colours are the one palette
(:mod:`qwirkle_tools.draw.palette`): a true red, orange, yellow, green, blue
and purple; the six shapes tell tiles apart where colours do not.

matplotlib is imported only inside the drawing functions (:func:`board_figure`, :func:`draw_legend`).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..core.board import Board, Placement
from ..core.errors import QwirkleError
from ..core.safetext import one_line
from ..core.tiles import COLOUR_CODES, COLOUR_OF, COLOURS, SHAPE_CODES, SHAPE_OF, SHAPES, TILES
from ..draw.extent import MAX_SHOWN as MAX_SHOWN  # (the pictures' bound, named here as before)
from ..draw.extent import Layout, axis, cut_note, layout, not_shown
from ..draw.palette import COLOUR_HEX, GHOST, LAST_MOVE, SHAPE_SYMBOLS, TABLE, TILE_FACE, ansi, shape_pieces
from ..play.engine import BOARD_UNKNOWN_WHY

if TYPE_CHECKING:
    from ..analysis.analyse import Analysis
    from ..play.engine import History

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
    from ..analysis.fives import open_five_risks, open_fives
    from ..analysis.recorded import recorded_missed_qwirkle

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
    from ..analysis.recorded import recorded_missed_qwirkle

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


def board_text(board: Board, last: Iterable[Placement] = (), colour: bool = True, truecolour: bool = True) -> str:
    """The board as text: a column per x, a row per y, coordinates on the edges.

    Each tile is its shape symbol, in its colour on the dark tile face when
    ``colour`` (24-bit colour when ``truecolour``, else the nearest of a
    256-colour terminal's: :func:`~qwirkle_tools.draw.palette.ansi`); without
    colour the two-letter short form is used, so the text stays readable.
    Tiles of the last move are shown reversed (with colour) or starred.
    Long runs of empty columns or rows are shown as one ``..`` (see
    :func:`~qwirkle_tools.draw.extent.axis`), and at most :data:`MAX_SHOWN` columns and rows; a last
    line says how many tiles that leaves out (:func:`cut_note`).
    """
    if not len(board):
        return "(empty board)"
    columns, cut_x = axis(x for x, _ in board)
    rows, cut_y = axis(y for _, y in board)
    face = ansi(TILE_FACE, truecolour, background=True)
    inks = [ansi(hex_colour, truecolour) for hex_colour in COLOUR_HEX]
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
                # the tile two characters wide (about square), so a light terminal shows yellow on it too
                row.append(f" {box}{face}{inks[COLOUR_OF[t]]} {SHAPE_SYMBOLS[SHAPE_OF[t]]}{_RESET}")
            else:
                row.append(f" *{TILES[t].short}" if (x, y) in marked else f"  {TILES[t].short}")
        lines.append("".join(row).rstrip())
    if cut_x or cut_y:
        lines.append(f"({cut_note(not_shown(board, columns, rows))})")
    return "\n".join(lines)


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
    red with the tile drawn small. Under the board, a legend of the colours
    and shapes with their letters (:func:`draw_legend`). Draws on ``ax`` when
    given, the board only (the caller places a legend with :func:`draw_legend`).
    ``y`` grows downward, as in records. A board wider than :data:`MAX_SHOWN`
    columns or rows is cut, and the picture says how many tiles it does not draw.
    """
    from matplotlib.figure import Figure

    shown = layout(board, last, ghosts, open_cells)
    min_x, max_x, min_y, max_y = shown.bounds
    cols, rows = len(shown.columns), len(shown.lines)
    size = min(_CELL, _MOST / max(cols, rows))  # a cell's inches: a wide board is drawn smaller, not huge
    if ax is None:
        height = max(3.0, rows * size + 1.2)
        fig = Figure(figsize=(max(_LEGEND_WIDTH, cols * size + 1.2), height + _LEGEND_HEIGHT))
        grid = fig.add_gridspec(2, 1, height_ratios=[height, _LEGEND_HEIGHT])
        ax = fig.add_subplot(grid[0])
        draw_legend(fig.add_subplot(grid[1]))
    else:
        fig = ax.figure
    ax.set_facecolor(TABLE)
    for x, y, t in shown.cells:
        _tile(ax, x, y, t, (x, y) in shown.marked)
    for x, y, t in shown.ghosts:
        _tile(ax, x, y, t, ghost=True)
    for x, y, t in shown.rings:  # an open five's completing cell: a red ring, the missing tile small inside
        _ring(ax, x, y, t)
    ax.set_xlim(min_x - 0.6, max_x + 0.6)
    ax.set_ylim(max_y + 0.6, min_y - 0.6)  # y grows downward
    ax.set_aspect("equal")
    _label(ax, shown, size, title)
    with warnings.catch_warnings():  # a glyph missing from the font (a name's emoji): not the user's terminal's business
        warnings.simplefilter("ignore")
        fig.tight_layout()
    return fig


_LEGEND_WIDTH = 7.5
"""The legend's width, in inches (the least width of a board picture)."""
_LEGEND_HEIGHT = 0.8
"""The legend's height, in inches."""


def _pieces(ax: Any, kind: int, x: float, y: float, r: float, colour: str, **style: Any) -> None:
    """Shape ``kind`` (:func:`~qwirkle_tools.draw.palette.shape_pieces`) on ``ax``, filled with ``colour``."""
    from matplotlib.patches import Circle, Polygon

    for what, args in shape_pieces(kind, x, y, r):
        if what == "circle":
            cx, cy, radius = args
            ax.add_patch(Circle((cx, cy), radius, facecolor=colour, **style))
        else:
            ax.add_patch(Polygon(args, closed=True, facecolor=colour, **style))


def _face(ax: Any, x: float, y: float, edge: str = TILE_FACE, width: float = 0.5, alpha: float = 1.0,
          dashed: bool = False) -> None:
    """The dark face of a tile on cell ``(x, y)``."""
    from matplotlib.patches import FancyBboxPatch

    pad = 0.06
    ax.add_patch(FancyBboxPatch((x - 0.5 + pad, y - 0.5 + pad), 1 - 2 * pad, 1 - 2 * pad,
                                boxstyle="round,pad=0,rounding_size=0.12", facecolor=TILE_FACE, alpha=alpha,
                                edgecolor=edge, linewidth=width, linestyle="--" if dashed else "-"))


def _tile(ax: Any, x: int, y: int, t: int, marked: bool = False, ghost: bool = False) -> None:
    """Tile ``t`` on cell ``(x, y)``: outlined in gold when ``marked``, faint and dashed when a ``ghost``."""
    if ghost:
        _face(ax, x, y, GHOST, 2.2, alpha=0.35, dashed=True)
    else:
        _face(ax, x, y, LAST_MOVE if marked else TILE_FACE, 2.2 if marked else 0.5)
    _pieces(ax, SHAPE_OF[t], x, y, 0.5, COLOUR_HEX[COLOUR_OF[t]], edgecolor="none", alpha=0.45 if ghost else 1.0)


def _ring(ax: Any, x: int, y: int, t: int) -> None:
    """An open five's completing cell ``(x, y)``: a dotted red ring, the missing tile ``t`` drawn small inside."""
    from matplotlib.patches import Circle

    ax.add_patch(Circle((x, y), 0.44, facecolor="none", edgecolor="#d00000", linewidth=2.0, linestyle=":"))
    _pieces(ax, SHAPE_OF[t], x, y, 0.3, COLOUR_HEX[COLOUR_OF[t]], edgecolor=TILE_FACE, linewidth=0.6)


_LEGEND_SHAPE = "#e8e8e8"
"""The legend draws the shapes in a light grey: a shape, not a colour."""


def draw_legend(ax: Any) -> Any:
    """The legend of a board picture on ``ax``: each colour (a swatch on the
    tile face) and each shape (light grey on the tile face) with its letter,
    the letters of the two-letter tiles (``rc``: red circle). Returns ``ax``."""
    from matplotlib.patches import FancyBboxPatch

    step = 4.0  # a column: the tile and its words (the longest, "d diamond", takes over two cells)
    for i in range(len(COLOURS)):
        x = i * step
        _face(ax, x, 0)
        ax.add_patch(FancyBboxPatch((x - 0.3, -0.3), 0.6, 0.6, boxstyle="round,pad=0,rounding_size=0.08",
                                    facecolor=COLOUR_HEX[i], edgecolor="none"))
        ax.text(x + 0.65, 0, f"{COLOUR_CODES[i]} {COLOURS[i]}", va="center", fontsize=7.5)
    for i in range(len(SHAPES)):
        x = i * step
        _face(ax, x, 1.2)
        _pieces(ax, i, x, 1.2, 0.5, _LEGEND_SHAPE, edgecolor="none")
        ax.text(x + 0.65, 1.2, f"{SHAPE_CODES[i]} {SHAPES[i]}", va="center", fontsize=7.5)
    ax.set_xlim(-0.6, (len(COLOURS) - 1) * step + 3.0)
    ax.set_ylim(1.8, -0.6)
    ax.set_aspect("equal")
    ax.set_axis_off()
    return ax


def _label(ax: Any, layout: Layout, size: float, title: str | None) -> None:
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
