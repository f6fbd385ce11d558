"""Write tests/golden/perft.txt: positions from self-play with their exact move counts.

    python tests/golden/make_perft.py [--check OLD_MOVEGEN.py]

Each entry is a board diagram (as ``Board.diagram`` writes it), the rack of
the player to move, and what ``movegen.generate`` finds: the number of legal
moves, the best score and the number of moves completing a Qwirkle. With
``--check``, every count is also computed by another implementation of the
generator (e.g. an earlier version from git history, a different algorithm)
and must agree; the counts here were checked so against the first,
start-cell-based generator (git show 4ddef23:qwirkle_tools/movegen.py).
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

from qwirkle_tools.core.board import Board, cell_key
from qwirkle_tools.core.movegen import generate
from qwirkle_tools.core.tiles import BY_NAME, TILES
from qwirkle_tools.engines.selfplay import simulate

HERE = Path(__file__).parent
POSITIONS = [(1, "random", 6), (1, "random", 18), (2, "greedy", 30), (3, "random", 40), (4, "greedy", 12),
             (5, "random", 24), (6, "greedy", 36), (7, "random", 44)]


def positions() -> list[tuple[str, Board, list[int]]]:
    out = []
    for seed, policy, turn in POSITIONS:
        game = simulate(2, seed, policy)  # type: ignore[arg-type]
        cells: dict[int, int] = {}
        for t in game["turns"][: turn - 1]:
            for p in t.get("tiles", ()) if t["action"] == "place" else ():
                cells[cell_key(p["x"], p["y"])] = BY_NAME[p["tile"]]
        rack = [BY_NAME[name] for name in game["turns"][turn - 1]["rack"]]
        out.append((f"seed {seed} {policy} turn {turn}", Board._wrap(cells), rack))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", type=Path, help="another movegen.py to cross-check every count with")
    args = parser.parse_args()
    other = None
    if args.check:
        spec = importlib.util.spec_from_file_location("qwirkle_tools._other_movegen", args.check)
        assert spec and spec.loader
        other = importlib.util.module_from_spec(spec)
        import sys

        sys.modules[spec.name] = other
        spec.loader.exec_module(other)
    entries = []
    for name, board, rack in positions():
        moves = generate(board, rack)
        count, best, qwirkles = len(moves), moves[0].score if moves else 0, sum(1 for m in moves if m.qwirkles)
        if other is not None:
            theirs = other.generate(board.cells, rack)
            assert {(frozenset(m.tiles), m.score, m.qwirkles) for m in theirs} == \
                {(frozenset(m.tiles), m.score, m.qwirkles) for m in moves}, name
        entries.append(f"# {name}\n{board.diagram()}\nrack {' '.join(TILES[t].short for t in rack)}\n"
                       f"moves {count} best {best} qwirkle-moves {qwirkles}\n")
    (HERE / "perft.txt").write_text("\n".join(entries))
    print(f"wrote {HERE / 'perft.txt'}: {len(entries)} positions")


if __name__ == "__main__":
    main()
