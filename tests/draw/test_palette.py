"""The one palette: six colours a player names at a glance, apart from one
another on the dark tile, also for the commonest colour-vision deficiencies,
and the same in the pictures, the viewer and the terminal.

The colour science is coloraide's (CIEDE2000, the CVD simulations, WCAG contrast), not ours.
"""

from __future__ import annotations

import itertools
import re
from importlib import resources

import pytest

from qwirkle_tools.core.board import Board
from qwirkle_tools.core.tiles import COLOURS
from qwirkle_tools.draw.palette import (
    COLOUR_HEX,
    MIN_CONTRAST,
    MIN_DIFFERENCE,
    MIN_DIFFERENCE_CVD,
    MIN_DIFFERENCE_TRITAN,
    TILE_FACE,
    ansi,
    rgb,
    xterm_colour,
)

coloraide = pytest.importorskip("coloraide")
Color = coloraide.Color

HUES = {"red": (15, 35), "orange": (45, 70), "yellow": (90, 115), "green": (130, 160), "blue": (235, 270),
        "purple": (285, 320)}
"""The OKLCh hue (degrees) of each colour as a player names it: pure red is at 29, orange (#ff8000) at 56,
yellow at 110, green at 142, blue at 264, violet (#8000ff) at 293; pink and magenta lie past 325, brown
and amber between orange and yellow."""


def pairs(colours: list[object]) -> list[tuple[float, str]]:
    return [(a.delta_e(b, method="2000"), f"{COLOURS[i]}/{COLOURS[j]}")  # type: ignore[attr-defined]
            for (i, a), (j, b) in itertools.combinations(enumerate(colours), 2)]


def test_each_colour_is_the_colour_it_is_named() -> None:
    for name, hex_colour in zip(COLOURS, COLOUR_HEX):
        lightness, chroma, hue = Color(hex_colour).convert("oklch").coords()
        low, high = HUES[name]
        assert low <= hue <= high, f"{name} {hex_colour}: hue {hue:.0f}, not {low} to {high}"
        assert chroma >= 0.12, f"{name} {hex_colour} is greyish (chroma {chroma:.3f})"


def test_every_two_colours_differ_clearly() -> None:
    worst = min(pairs([Color(h) for h in COLOUR_HEX]))
    assert worst[0] >= MIN_DIFFERENCE, worst


@pytest.mark.parametrize("method", ["brettel", "vienot", "machado"])
@pytest.mark.parametrize("deficiency", ["protan", "deutan", "tritan"])
def test_every_two_colours_differ_under_a_colour_vision_deficiency(deficiency: str, method: str) -> None:
    seen = [Color(h).filter(deficiency, method=method).fit("srgb") for h in COLOUR_HEX]
    worst = min(pairs(seen))
    assert worst[0] >= (MIN_DIFFERENCE_TRITAN if deficiency == "tritan" else MIN_DIFFERENCE_CVD), worst


def test_each_colour_stands_out_on_the_tile() -> None:
    for name, hex_colour in zip(COLOURS, COLOUR_HEX):
        contrast = Color(hex_colour).contrast(TILE_FACE)
        assert contrast >= MIN_CONTRAST, f"{name} {hex_colour}: contrast {contrast:.2f} on {TILE_FACE}"


def test_the_old_palette_fails_the_naming_test() -> None:
    # the Okabe-Ito colours drawn before: red read as orange, purple as pink (the test can fail)
    old = dict(zip(COLOURS, ("#D55E00", "#E69F00", "#F0E442", "#009E73", "#0072B2", "#CC79A7")))
    hue = {name: Color(h).convert("oklch").coords()[2] for name, h in old.items()}
    assert not HUES["red"][0] <= hue["red"] <= HUES["red"][1]
    assert not HUES["purple"][0] <= hue["purple"] <= HUES["purple"][1]


def test_the_terminal_colours_are_the_palette_or_its_nearest_of_256() -> None:
    assert ansi(COLOUR_HEX[0]) == "\x1b[38;2;{};{};{}m".format(*rgb(COLOUR_HEX[0]))
    assert ansi(TILE_FACE, background=True) == "\x1b[48;2;27;27;27m"
    for hex_colour in COLOUR_HEX:
        n = xterm_colour(hex_colour)
        assert ansi(hex_colour, truecolour=False) == f"\x1b[38;5;{n}m"
        cube = n - 16
        nearest = tuple((0, 95, 135, 175, 215, 255)[v] for v in (cube // 36, cube // 6 % 6, cube % 6))
        # the fallback is the colour a player would name the same: close, by CIEDE2000
        assert 16 <= n <= 231 and Color(hex_colour).delta_e(Color("srgb", [c / 255 for c in nearest]), method="2000") < 10
    assert len({xterm_colour(h) for h in COLOUR_HEX}) == 6


def test_the_terminal_diagram_draws_each_colour_from_the_palette() -> None:
    from qwirkle_tools.outputs.pictures import board_text

    board = Board.parse("rc oc yc gc bc pc")
    for truecolour in (True, False):
        text = board_text(board, colour=True, truecolour=truecolour)
        for hex_colour in COLOUR_HEX:
            assert ansi(TILE_FACE, truecolour, background=True) + ansi(hex_colour, truecolour) + " ●" in text


def test_the_board_picture_fills_each_tile_with_its_palette_colour() -> None:
    from matplotlib.colors import to_hex
    from matplotlib.patches import Circle

    from qwirkle_tools.outputs.pictures import board_figure

    fig = board_figure(Board.parse("rc oc yc gc bc pc"))
    discs = sorted((p.center[0], to_hex(p.get_facecolor())) for p in fig.axes[0].patches if isinstance(p, Circle))
    assert [h for _, h in discs] == [h.lower() for h in COLOUR_HEX]


def test_the_viewer_has_no_copy_of_the_tile_colours() -> None:
    # the page takes them from its data (page_data's "colours": the palette, held by test_viewer)
    web = resources.files("qwirkle_tools") / "web"
    found = {name: re.findall(r"#[0-9a-fA-F]{6}\b", (web / name).read_text(encoding="utf-8"))
             for name in ("viewer.css", "viewer.js", "viewer.html")}
    palette = {h.lower() for h in (*COLOUR_HEX, TILE_FACE)}
    assert {name: [h for h in hexes if h.lower() in palette] for name, hexes in found.items()} == \
        {"viewer.css": [], "viewer.js": [], "viewer.html": []}
