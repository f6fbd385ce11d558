"""Golden move counts ("perft") for mid-game positions, from tests/golden/perft.txt."""

from __future__ import annotations

from pathlib import Path

import pytest

from qwirkle_tools.core.board import Board
from qwirkle_tools.core.movegen import generate
from qwirkle_tools.core.tiles import parse_tiles

GOLDEN = Path(__file__).parents[1] / "golden" / "perft.txt"


def entries() -> list[tuple[str, str, str, int, int, int]]:
    out = []
    for block in GOLDEN.read_text().strip().split("\n\n"):
        lines = block.strip().splitlines()
        name = lines[0].lstrip("# ")
        rack = lines[-2].removeprefix("rack ")
        _, count, _, best, _, qwirkles = lines[-1].split()
        out.append((name, "\n".join(lines[1:-2]), rack, int(count), int(best), int(qwirkles)))
    return out


@pytest.mark.parametrize(("name", "diagram", "rack", "count", "best", "qwirkles"), entries(), ids=[e[0] for e in entries()])
def test_golden_counts(name: str, diagram: str, rack: str, count: int, best: int, qwirkles: int) -> None:
    moves = generate(Board.parse(diagram), [int(t) for t in parse_tiles(rack)])
    assert (len(moves), moves[0].score, sum(1 for m in moves if m.qwirkles)) == (count, best, qwirkles)


def test_golden_file_has_positions_with_qwirkles() -> None:
    assert len(entries()) >= 8 and any(e[5] for e in entries())
