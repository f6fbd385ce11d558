"""Notebook pictures: a Board, a game, a state and a replay show themselves
in Jupyter (``_repr_svg_``, ``_repr_html_``) as SVG drawn without matplotlib."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from qwirkle_tools import Board, Game, Placement, loads, replay
from qwirkle_tools.core.tiles import COLOUR_OF, COLOURS, SHAPES
from qwirkle_tools.draw.palette import COLOUR_HEX, GHOST, LAST_MOVE, TILE_FACE
from qwirkle_tools.draw.svg import board_svg

SAMPLES = Path(__file__).parents[2] / "sample_games"
SVG = "{http://www.w3.org/2000/svg}"
BOARD = Board.parse("""
    @-1,0
    rc rx ..
    .. bx gl
""")


def parsed(text: str) -> ET.Element:
    root = ET.fromstring(text)  # well-formed, or this raises
    assert root.tag == f"{SVG}svg"
    return root


def tiles(root: ET.Element, kind: str = "tile") -> dict[tuple[int, int], ET.Element]:
    return {(int(g.get("data-x", "")), int(g.get("data-y", ""))): g for g in root.iter(f"{SVG}g") if g.get("class") == kind}


def test_a_board_is_drawn_as_an_svg_of_its_tiles_in_their_colours() -> None:
    root = parsed(board_svg(BOARD))
    drawn = tiles(root)
    assert {cell: g.get("data-tile") for cell, g in drawn.items()} == {cell: str(t) for cell, t in BOARD.items()}
    for cell, g in drawn.items():
        face, *shape = list(g)
        assert face.get("fill") == TILE_FACE
        assert {piece.get("fill") for piece in shape} == {COLOUR_HEX[COLOUR_OF[BOARD[cell]]]}
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert {"-1", "0", "1"} <= set(texts)  # the coordinates on the edges
    assert [t for t in texts if t and t[1:2] == " "] == [f"{c[0]} {c}" for c in COLOURS] + \
        [f"{code} {s}" for code, s in zip("cxdstl", SHAPES)]  # the legend, each with its letter


def test_the_last_move_is_outlined_and_ghosts_are_faint_and_dashed() -> None:
    root = parsed(board_svg(BOARD, [Placement.parse("gl@1,1")], [Placement.parse("rl@1,0")], legend=False))
    drawn, ghosts = tiles(root), tiles(root, "ghost")
    assert [cell for cell, g in drawn.items() if g[0].get("stroke") == LAST_MOVE] == [(1, 1)]
    assert list(ghosts) == [(1, 0)] and ghosts[(1, 0)].get("data-tile") == "red-clover"
    assert ghosts[(1, 0)][0].get("stroke") == GHOST and ghosts[(1, 0)][0].get("stroke-dasharray")
    assert not [t for t in root.iter(f"{SVG}text") if t.text == "r red"]  # no legend


def test_far_apart_tiles_are_drawn_with_gaps_and_a_bounded_picture() -> None:
    board = Board.parse("rc rx").place([Placement.parse("bx@900000,-300"), Placement.parse("gl@40,1")])
    root = parsed(board_svg(board))
    assert len(tiles(root)) == 4 and float(root.get("width", "0")) < 1200
    assert ".." in [t.text for t in root.iter(f"{SVG}text")]  # a gap, marked


def test_a_caption_is_one_escaped_line() -> None:
    root = parsed(board_svg(BOARD, caption="Ana <b>&\nBen"))
    assert [t.text for t in root.iter(f"{SVG}text")][0] == "Ana <b>&\\nBen"  # the line break shown, as one_line does


def test_a_game_shows_its_board_its_last_move_and_who_is_to_move() -> None:
    game = Game.deal(["Ana", "Ben"], seed=1)
    move = max(game.legal_moves(), key=lambda m: len(m.tiles))
    game.push(move)
    root = parsed(game._repr_svg_())
    drawn = tiles(root)
    assert set(drawn) == set(game.board)
    assert {cell for cell, g in drawn.items() if g[0].get("stroke") == LAST_MOVE} == {(p.x, p.y) for p in move.tiles}
    mover, other = game.to_move, 1 - game.to_move  # (the seat who played first is the one with the largest group)
    assert game.scores[other] == move.score and game.scores[mover] == 0
    assert [t.text for t in root.iter(f"{SVG}text")][0] == \
        f"Ana {game.scores[0]} · Ben {game.scores[1]} · {game.names[mover]} to move"


def test_a_state_shows_its_board_or_nothing_where_the_board_is_not_known() -> None:
    history = replay(loads((SAMPLES / "complete-2p.json").read_bytes()))
    state = history.state(10)
    picture = state._repr_svg_()
    assert picture is not None and set(tiles(parsed(picture))) == set(state.board)
    sheet = replay(loads((SAMPLES / "score-sheet.json").read_bytes()))
    assert sheet.final is not None and sheet.final._repr_svg_() is None


def test_a_replay_shows_its_players_totals_and_final_board() -> None:
    history = replay(loads((SAMPLES / "complete-2p.json").read_bytes()))
    root = ET.fromstring(history._repr_html_())
    assert root.tag == "div"
    head = "".join(root.itertext()).split("r red")[0]
    assert head.startswith(f"Ana {history.totals[0]} · Ben {history.totals[1]} · 50 turns · end: out")
    picture = root.find(f"{SVG}svg")
    assert picture is not None and len(tiles(picture)) == len(history.final.board) == 105  # type: ignore[union-attr]


def test_a_replay_without_a_board_says_so_and_a_hostile_name_stays_text() -> None:
    data = (SAMPLES / "score-sheet.json").read_text(encoding="utf-8").replace('"Ana"', '"<script>x</script>"', 1)
    history = replay(loads(data))
    text = history._repr_html_()
    assert "<script>" not in text and "&lt;script&gt;" in text
    root = ET.fromstring(text)
    assert root.find(f"{SVG}svg") is None and "final board is not known" in "".join(root.itertext())


def test_the_pictures_do_not_import_matplotlib() -> None:
    code = ("import sys; from qwirkle_tools import Game; "
            "Game.deal(2)._repr_svg_(); print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
