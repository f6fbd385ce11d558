"""Board pictures: a coloured text diagram for the terminal, and a drawing.

The drawing shows every tile as its real shape in its real colour on a dark
tile, with coordinates, the last move outlined and, optionally, "ghost"
tiles (a missed Qwirkle) drawn faint with a dashed outline. The colours are
the Okabe-Ito palette, chosen to stay apart for colour-blind eyes; the six
shapes tell tiles apart even without colour.

matplotlib is imported only inside :func:`board_figure`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from .board import Board, Placement
from .tiles import TILES

# Okabe-Ito: red, orange, yellow, green, blue, purple
COLOUR_HEX = ("#D55E00", "#E69F00", "#F0E442", "#009E73", "#0072B2", "#CC79A7")
TILE_FACE = "#1b1b1b"
SHAPE_SYMBOLS = ("●", "✚", "◆", "■", "✸", "♣")
_ANSI = ("\x1b[38;5;196m", "\x1b[38;5;208m", "\x1b[38;5;226m", "\x1b[38;5;34m", "\x1b[38;5;33m", "\x1b[38;5;171m")
_RESET = "\x1b[0m"
_BOLD_BOX = "\x1b[7m"


def board_text(board: Board, last: Iterable[Placement] = (), colour: bool = True) -> str:
    """The board as text: a column per x, a row per y, coordinates on the edges.

    Each tile is its shape symbol, in its colour when ``colour``; without
    colour the two-letter short form is used, so the text stays readable.
    Tiles of the last move are shown reversed (with colour) or starred.
    """
    if not len(board):
        return "(empty board)"
    min_x, min_y, max_x, max_y = board.bounds()
    marked = {(p.x, p.y) for p in last}
    width = 3 if colour else 4
    lines = ["     " + "".join(f"{x:>{width}}" for x in range(min_x, max_x + 1))]
    for y in range(min_y, max_y + 1):
        row = [f"{y:>4} "]
        for x in range(min_x, max_x + 1):
            t = board.get((x, y))
            if t is None:
                row.append(" " * (width - 1) + "·")
            elif colour:
                box = _BOLD_BOX if (x, y) in marked else ""
                row.append(f"  {box}{_ANSI[t // 6]}{SHAPE_SYMBOLS[t % 6]}{_RESET}")
            else:
                row.append(f" *{TILES[t].short}" if (x, y) in marked else f"  {TILES[t].short}")
        lines.append("".join(row).rstrip())
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


def board_figure(
    board: Board,
    last: Sequence[Placement] = (),
    ghosts: Sequence[Placement] = (),
    title: str | None = None,
    ax: Any = None,
) -> Any:
    """A drawing of ``board``; returns the matplotlib Figure.

    ``last`` tiles are outlined; ``ghosts`` (e.g. a missed Qwirkle) are drawn
    faint with a dashed outline on their empty cells. Draws on ``ax`` when
    given. ``y`` grows downward, as in records.
    """
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle, FancyBboxPatch, Polygon

    cells: list[tuple[int, int, int]] = [(x, y, t) for (x, y), t in board.items()]
    ghost_cells = [(p.x, p.y, int(p.tile)) for p in ghosts]
    everything = cells + ghost_cells
    if everything:
        xs = [c[0] for c in everything]
        ys = [c[1] for c in everything]
        min_x, max_x, min_y, max_y = min(xs), max(xs), min(ys), max(ys)
    else:
        min_x = max_x = min_y = max_y = 0
    cols, rows = max_x - min_x + 1, max_y - min_y + 1
    if ax is None:
        size = 0.42
        fig = Figure(figsize=(max(4.0, cols * size + 1.2), max(3.0, rows * size + 1.2)))
        ax = fig.add_subplot(1, 1, 1)
    else:
        fig = ax.figure
    ax.set_facecolor("#f4f1ea")
    marked = {(p.x, p.y) for p in last}

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
        colour = COLOUR_HEX[t // 6]
        for kind, args in _shape(t % 6, x, y, 0.5):
            if kind == "circle":
                cx, cy, r = args
                ax.add_patch(Circle((cx, cy), r, facecolor=colour, edgecolor="none", alpha=0.45 if ghost else 1.0))
            else:
                ax.add_patch(Polygon(args, closed=True, facecolor=colour, edgecolor="none", alpha=0.45 if ghost else 1.0))

    for x, y, t in cells:
        tile(x, y, t)
    for x, y, t in ghost_cells:
        tile(x, y, t, ghost=True)
    ax.set_xlim(min_x - 0.6, max_x + 0.6)
    ax.set_ylim(max_y + 0.6, min_y - 0.6)  # y grows downward
    ax.set_aspect("equal")
    ax.set_xticks(range(min_x, max_x + 1))
    ax.set_yticks(range(min_y, max_y + 1))
    ax.tick_params(labelsize=7, length=0, top=True, labeltop=True, bottom=False, labelbottom=False)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig
