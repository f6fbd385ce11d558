"""Shared builders for records in tests."""

from __future__ import annotations

import atexit
import copy
import os
import shutil
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from qwirkle_tools.analysis.validate import check_data
from qwirkle_tools.engines.selfplay import simulate

# The tests mirror the package's folders (tests/core for qwirkle_tools/core, ...); a test module may use
# another folder's helpers (``from test_cli import run``): every folder is importable, as pytest's own
# "prepend" mode makes a module's folder, and the names of the test modules are unique.
for _folder in sorted(Path(__file__).parent.iterdir()):
    if _folder.is_dir() and next(_folder.glob("test_*.py"), None) is not None and str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

# the scratch space of every Dask scheduler and worker the tests start (here or as child processes)
# in a folder of this run, removed at its end, not /tmp/dask-scratch-space
_DASK_SCRATCH = tempfile.mkdtemp(prefix="qwirkle-tests-dask-")
os.environ.setdefault("DASK_TEMPORARY_DIRECTORY", _DASK_SCRATCH)
atexit.register(shutil.rmtree, _DASK_SCRATCH, True)


def place(player: int, tiles: str = "", score: int | None = None, rack: str | None = None,
          draw: str | None = None) -> dict[str, Any]:
    """A place turn; tiles as ``"rc@0,0 rs@1,0"``, racks and draws as ``"rc rs"``."""
    from qwirkle_tools.core.board import Placement
    from qwirkle_tools.core.tiles import parse_tiles

    turn: dict[str, Any] = {"player": player, "action": "place"}
    if tiles:
        turn["tiles"] = [{"tile": str(p.tile), "x": p.x, "y": p.y} for p in map(Placement.parse, tiles.split())]
    if score is not None:
        turn["score"] = score
    if rack is not None:
        turn["rack"] = [str(t) for t in parse_tiles(rack)]
    if draw is not None:
        turn["draw"] = [str(t) for t in parse_tiles(draw)]
    return turn


def game(*turns: dict[str, Any], players: int = 2, **extra: Any) -> dict[str, Any]:
    """A record around ``turns``; ``extra`` adds top-level fields (setup, result, rules)."""
    return {"format": "qwirkle-record", "version": 1,
            "players": [{"name": n} for n in ["Ana", "Ben", "Cy", "Di", "Ed", "Flo"][:players]],
            "turns": list(turns), **extra}


def findings(data: Any) -> list[tuple[str, int | None]]:
    """``(code, turn)`` of every finding, in order."""
    return [(f.code, f.turn) for f in check_data(data)[1]]


def endgame(board: str, rack: str, others: int, *turns: dict[str, Any]) -> dict[str, Any]:
    """A two-player record from a position with the bag empty: ``board`` (as
    ``"rc@0,0 rs@1,0"``) near the origin, Ana holding ``rack``, Ben ``others``
    tiles, and every other tile of the game isolated far away (a setup holds
    all 108)."""
    from qwirkle_tools.core.board import Placement
    from qwirkle_tools.core.tiles import TILES, parse_tiles

    placed = [Placement.parse(s) for s in board.split()]
    left = [t for t in range(36) for _ in range(3)]
    for t in [int(p.tile) for p in placed] + [int(t) for t in parse_tiles(rack)]:
        left.remove(t)
    cells = [{"tile": str(p.tile), "x": p.x, "y": p.y} for p in placed]
    cells += [{"tile": str(TILES[t]), "x": 20 + 2 * (i % 10), "y": 2 * (i // 10)} for i, t in enumerate(left[others:])]
    return game(*turns, setup={"board": cells, "bag": 0,
                               "racks": [[str(t) for t in parse_tiles(rack)], others]})


def play(seed: int, turns: int) -> tuple[dict[int, int], list[int]]:
    """The cells after ``turns`` random legal turns of one rack dealt by the
    ledger's dealer (a shuffled bag), and the bag left.

    Half the time the best move is played, so lines grow long and Qwirkles occur.
    """
    from qwirkle_tools.core.movegen import generate
    from qwirkle_tools.play.ledger import Dealer

    dealer, _ = Dealer.deal(1, seed)
    rng, rack = dealer.rng, dealer.racks[0]
    cells: dict[int, int] = {}
    for _ in range(turns):
        moves = generate(cells, rack)
        if not moves:  # exchange the rack, as much of it as the bag allows
            if dealer.bag:
                dealer.exchange(0, rack[:len(dealer.bag)])
            continue
        move = moves[0] if rng.random() < 0.5 else rng.choice(moves)
        for p in move.tiles:
            cells[p.key] = p.tile
        dealer.place(0, [int(p.tile) for p in move.tiles])
    return cells, dealer.bag


@cache
def _simulated(players: int, seed: int, policy: str) -> dict[str, Any]:
    return simulate(players, seed, policy)  # type: ignore[arg-type]


def simulated(players: int = 2, seed: int = 1, policy: str = "greedy") -> dict[str, Any]:
    """A fresh copy of a cached self-play game."""
    return copy.deepcopy(_simulated(players, seed, policy))


@pytest.fixture
def sim() -> dict[str, Any]:
    return simulated()


def crowded(tiles: int = 80, gap: int = 4, seed: int = 5) -> dict[str, Any]:
    """A legal position whose six-circle rack has hundreds of thousands of legal
    moves: ``tiles`` isolated tiles on a grid, ``gap`` cells apart."""
    import random

    from qwirkle_tools.core.tiles import TILES, parse_tiles

    rng = random.Random(seed)
    bag = [t for t in range(36) for _ in range(3)]
    for t in parse_tiles(CIRCLES):
        bag.remove(int(t))
    rng.shuffle(bag)
    cells = [(x, y) for x in range(0, 10 * gap, gap) for y in range(0, 10 * gap, gap)][:tiles]
    return {"board": [{"tile": str(TILES[bag.pop()]), "x": x, "y": y} for x, y in cells]}


CIRCLES = "rc oc yc gc bc pc"


def crowded_endgame(first: str = "rc oc yc gc bc rc", second: str = "rs os ys gs bs rs", gap: int = 7,
                    seed: int = 5) -> dict[str, Any]:
    """A legal two-player record from a position with the bag empty whose racks have hundreds of
    thousands of moves each (139,536 for these, 978,336 for six circles): every other tile isolated
    on a grid, ``gap`` cells apart (a large board with many open cells). By default neither rack can
    go out in one move (a duplicate), so a search must look deeper than one ply."""
    import random

    from qwirkle_tools.core.tiles import TILES, parse_tiles

    rng = random.Random(seed)
    racks = [[int(t) for t in parse_tiles(r)] for r in (first, second)]
    bag = [t for t in range(36) for _ in range(3)]
    for t in racks[0] + racks[1]:
        bag.remove(t)
    rng.shuffle(bag)
    cells = [(x, y) for x in range(0, 10 * gap, gap) for y in range(0, 10 * gap, gap)][:len(bag)]
    board = [{"tile": str(TILES[bag.pop()]), "x": x, "y": y} for x, y in cells]
    return game(setup={"board": board, "bag": 0, "racks": [[str(TILES[t]) for t in r] for r in racks]})


def run_cli(*args: str) -> tuple[int, str, str]:
    """``qwirkle ARGS...`` run in this process: its exit code, standard output and standard
    error; a command that crashes (an exception other than its exit) fails the test."""
    from typer.testing import CliRunner

    from qwirkle_tools.cli.app import app

    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def compiled_build() -> bool:
    """Whether this process runs the compiled build (see ``qwirkle_tools.version``)."""
    from qwirkle_tools.version import build

    return build().startswith("compiled")


def run_on_the_pure_build(request: pytest.FixtureRequest) -> bool:
    """For a test that spies on a module's functions or subclasses its classes, which a compiled
    module does not allow (its calls are bound in C): on the compiled build the test is run
    again, whole, in a child process on the pure build (``QWIRKLE_PURE=1``) and must pass
    there; returns whether it was (the caller then returns). On the pure build: ``False``."""
    import subprocess

    if not compiled_build():
        return False
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                           request.node.nodeid], cwd=request.config.rootpath, capture_output=True, text=True,
                          env={**os.environ, "QWIRKLE_PURE": "1"}, check=False)
    assert done.returncode == 0 and " passed" in done.stdout, done.stdout[-4000:] + done.stderr[-2000:]
    return True
