"""Board pictures: the text diagram and the drawing."""

from __future__ import annotations

import subprocess
import sys

from qwirkle_tools.core.board import Board, Placement
from qwirkle_tools.outputs.pictures import COLOUR_HEX, SHAPE_SYMBOLS, board_figure, board_text

BOARD = Board.parse("""
    @-1,0
    rc rx ..
    .. bx gl
""")


def test_text_diagram_without_colour_shows_short_forms_on_their_cells() -> None:
    text = board_text(BOARD, [Placement.parse("gl@1,1")], colour=False)
    lines = text.splitlines()
    assert lines[0].split() == ["-1", "0", "1"]
    assert lines[1].split() == ["0", "rc", "rx", "·"]
    assert lines[2].split() == ["1", "·", "bx", "*gl"]


def test_text_diagram_in_colour_uses_shapes_and_colours() -> None:
    text = board_text(BOARD, colour=True)
    assert SHAPE_SYMBOLS[0] in text and SHAPE_SYMBOLS[5] in text and "\x1b[" in text
    assert board_text(Board(), colour=True) == "(empty board)"


def test_drawing_has_a_tile_and_a_shape_per_cell_and_faint_ghosts() -> None:
    from matplotlib.patches import Circle, FancyBboxPatch, Polygon

    fig = board_figure(BOARD, [Placement.parse("gl@1,1")], [Placement.parse("rl@1,0")], title="t")
    ax = fig.axes[0]
    tiles = [p for p in ax.patches if isinstance(p, FancyBboxPatch)]
    assert len(tiles) == 5  # four tiles and a ghost
    dashed = [p for p in tiles if p.get_linestyle() == "--"]
    assert len(dashed) == 1
    colours = {tuple(round(c, 3) for c in p.get_facecolor()[:3]) for p in ax.patches if isinstance(p, (Circle, Polygon))}
    assert len(colours) == 3  # red (the ghost too), blue, green
    assert ax.get_title() == "t"
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # y grows downward


def test_palette_has_six_distinct_colours() -> None:
    assert len(set(COLOUR_HEX)) == 6


def test_pictures_module_does_not_import_matplotlib() -> None:
    code = "import sys, qwirkle_tools.outputs.pictures; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_far_apart_tiles_are_drawn_with_gaps_not_thousands_of_columns() -> None:
    # an illegal move stays on the board, so tiles may lie up to 2,000,000 cells apart: it hung
    board = Board.parse("rc rx").place([Placement.parse("bx@5000,-300"), Placement.parse("gl@40,1")])
    text = board_text(board, colour=False)
    assert len(text) < 500
    lines = text.splitlines()
    assert lines[0].split() == ["0", "1", "..", "40", "..", "5000"]
    assert lines[1].split() == ["-300", "·", "·", "·", "bx"]
    assert lines[2] == "  .."
    fig = board_figure(board, ghosts=[Placement.parse("bl@400,0")])
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == ["0", "1", "...", "40", "...", "400", "...", "5000"]


def test_a_board_beyond_the_shown_size_is_cut_and_says_how_many_tiles_are_not_drawn() -> None:
    from matplotlib.patches import FancyBboxPatch

    from qwirkle_tools.outputs.pictures import MAX_SHOWN

    board = Board().place([Placement.parse(f"rc@{2 * i},{i}") for i in range(MAX_SHOWN)])
    lines = board_text(board, colour=False).splitlines()
    drawn = (MAX_SHOWN + 1) // 2  # the columns: a tile's, a gap, a tile's, ...
    note = f"{MAX_SHOWN - drawn} tiles not drawn: only the first {MAX_SHOWN} columns and rows are shown"
    assert len(lines) == MAX_SHOWN + 2 and lines[-1] == f"({note})"
    assert len(lines[0].split()) == MAX_SHOWN and sum(line.count("rc") for line in lines) == drawn
    ax = board_figure(board).axes[0]
    assert len([p for p in ax.patches if isinstance(p, FancyBboxPatch)]) == drawn and ax.get_xlabel() == note


def test_every_tile_of_a_game_is_drawn_however_far_apart() -> None:
    from matplotlib.patches import FancyBboxPatch

    for apart in (2, 4, 5, 1_000):  # 108 tiles, none touching: as a setup may give them
        board = Board().place([Placement.parse(f"rc@{apart * i},{apart * i}") for i in range(108)])
        lines = board_text(board, colour=False).splitlines()
        assert sum(line.count("rc") for line in lines) == 108 and "not drawn" not in lines[-1]
    fig = board_figure(board)  # (one drawing: a few seconds)
    ax = fig.axes[0]
    assert len([p for p in ax.patches if isinstance(p, FancyBboxPatch)]) == 108 and ax.get_xlabel() == ""
    assert max(fig.get_size_inches()) <= 42  # the cells shrink: about 6,000 pixels at most, not 14,000


def test_a_board_picture_has_a_legend_of_colours_and_shapes_with_their_letters() -> None:
    from matplotlib.figure import Figure

    from qwirkle_tools.core.tiles import COLOURS, SHAPES

    fig = board_figure(BOARD)
    board_ax, legend_ax = fig.axes
    words = [t.get_text() for t in legend_ax.texts]
    assert words == [f"{c[0]} {c}" for c in COLOURS] + [f"{code} {s}" for code, s in zip("cxdstl", SHAPES)]
    assert not board_ax.texts
    ax = Figure().add_subplot(1, 1, 1)
    assert board_figure(BOARD, ax=ax).axes == [ax]  # a caller's axes: the board only
