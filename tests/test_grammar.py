"""One grammar per text form: a placement, a tile and a coordinate are read alike by every
reader (the library's parse, the ``.qgn`` reader, the bot protocol, the command line's
``--rack``), the same spellings accepted and the same refused."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import run_cli

from qwirkle_tools.bots.qbp import parse_bestmove
from qwirkle_tools.core.board import Placement
from qwirkle_tools.core.move import Move
from qwirkle_tools.core.tiles import parse_tiles
from qwirkle_tools.formats.qgn.read import parse_qgn
from qwirkle_tools.formats.record import from_data

# a first move of two tiles, its second tile written each way
PLACEMENTS = {  # spelling of the second placement: does the grammar take it
    "rs@1,0": True, "red-square@1,0": True, "RS@1,0": True, "rs@1,-0": True, "rs@-1,0": True,
    "rs@+1,0": False, "rs@1_0,0": False, "rs@\u0661,0": False, "rs@\uff11,0": False, "rs@1.0,0": False,
    "rs@1,": False, "rs@,0": False, "rs@1;0": False, "rs1,0": False, "rz@1,0": False, "rs@0x1,0": False,
    "rs@1e0,0": False, "rs@" + "1" * 40 + ",0": False,
}
TILES = {"rs": True, "red-square": True, "RS": True, "rz": False, "r s": False, "rs2": False, "\uff52s": False}


def takes(read: Callable[[str], object], text: str) -> bool:
    """Whether ``read`` reads ``text`` (a reader refuses with a ValueError)."""
    try:
        read(text)
    except ValueError:
        return False
    return True


def qgn_takes(text: str) -> bool:
    """Whether the notation reads a game whose first turn is ``text``."""
    return not any(f.is_error for f in parse_qgn(f"Players: Ana, Ben\n\n1. Ana {text}\n").findings)


@pytest.mark.parametrize(("spelling", "taken"), PLACEMENTS.items())
def test_every_reader_takes_or_refuses_a_placement_alike(spelling: str, taken: bool) -> None:
    found = {"Placement.parse": takes(Placement.parse, spelling), "Move.parse": takes(Move.parse, f"rc@0,0 {spelling}"),
             ".qgn": qgn_takes(f"rc@0,0 {spelling}"), "QBP bestmove": takes(parse_bestmove, f"bestmove rc@0,0 {spelling}")}
    assert found == dict.fromkeys(found, taken), found


def test_a_placement_read_anywhere_is_the_same_placement() -> None:
    for spelling, taken in PLACEMENTS.items():
        if taken:
            one = Placement.parse(spelling)
            assert Move.parse(f"rc@0,0 {spelling}").tiles[1] == one
            assert parse_bestmove(f"bestmove rc@0,0 {spelling}").tiles[1] == one
            data = parse_qgn(f"Players: Ana, Ben\n\n1. Ana rc@0,0 {spelling}\n").data
            assert from_data(data).turns[0].tiles[1] == one  # type: ignore[index]


@pytest.mark.parametrize(("spelling", "taken"), TILES.items())
def test_every_reader_takes_or_refuses_a_tile_alike(spelling: str, taken: bool, tmp_path: Path) -> None:
    library = takes(lambda text: parse_tiles([text]), spelling)
    exchange = takes(Move.parse, f"exchange {spelling}")
    qgn = qgn_takes(f"{spelling}@0,0")
    sample = Path(__file__).parent.parent / "sample_games" / "296-295.json"
    code, _, _ = run_cli("moves", str(sample), "--turn", "3", "--rack", spelling, "--limit", "1")
    assert {"parse_tiles": library, "Move.parse exchange": exchange, ".qgn": qgn, "moves --rack": code == 0} == \
        dict.fromkeys(["parse_tiles", "Move.parse exchange", ".qgn", "moves --rack"], taken)
