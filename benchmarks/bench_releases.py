"""This tree against another (the previous release), on one machine, taking turns.

    python benchmarks/bench_releases.py --other /path/to/the/previous/tree [--rounds 5]

Each task runs as a whole process (``python -m qwirkle_tools ...`` or a short script),
once for each tree in turn, ``--rounds`` times; the best wall time of each is kept and
the ratio printed (below 1.00: this tree is faster). The trees are source folders (a
``git archive`` of a tag, unpacked): each is put first on ``PYTHONPATH``, so both run
with this environment's packages. The tasks use only what both releases have: the
command line and the facade's names.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

PUSH_POP = """
from qwirkle_tools import Game
for seed in range(20):
    game = Game.deal(2, seed=seed)
    while not game.is_over():
        game.push(game.legal_moves()[0])
    for _ in range(3):
        played = []
        while len(game):
            played.append(game.pop())
        for move in reversed(played):
            game.push(move)
"""

ANALYSE = """
import sys
from qwirkle_tools import loads
from qwirkle_tools.analysis.analyse import analyse
for line in open(sys.argv[1], encoding="utf-8"):
    analyse(loads(line))
"""


def tasks(work: Path) -> dict[str, list[str]]:
    """Each task's command (after ``python``), its files in ``work``."""
    return {
        "validate, 1,000 games": ["-m", "qwirkle_tools", "validate", "-q", str(work / "corpus-1000.jsonl")],
        "self-play, 200 greedy games": ["-m", "qwirkle_tools", "simulate", "--games", "200", "--seed", "7",
                                        "-o", str(work / "out.jsonl"), "--force"],
        "greedy analysis, 50 games": ["-c", ANALYSE, str(work / "corpus-50.jsonl")],
        "push and pop, 20 games": ["-c", PUSH_POP],
    }


def byte_compiled(tree: Path) -> None:
    """Write the bytecode of ``tree``'s package beforehand, as an install does: a process started with
    ``PYTHONDONTWRITEBYTECODE`` set (some shells and containers set it) would otherwise compile every
    module it imports from its source, at every start (a fifth of ``qwirkle validate``'s own)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "qwirkle_tools")], check=True,
                   stdout=subprocess.DEVNULL)


def timed(tree: Path, args: list[str], pure: bool = False) -> float:
    """The wall time of ``python ARGS`` run in ``tree`` (first on ``PYTHONPATH``); ``pure``: on the
    pure build (``QWIRKLE_PURE=1``), else on the tree's compiled modules where it has them."""
    env = {k: v for k, v in os.environ.items() if k != "QWIRKLE_PURE"}
    env["PYTHONPATH"] = str(tree)
    if pure:
        env["QWIRKLE_PURE"] = "1"
    started = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   cwd=tree)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path, required=True, help="the other tree (the previous release's source)")
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    for tree in (HERE, options.other.resolve()):
        byte_compiled(tree)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for games in (1000, 50):  # the same corpus for both trees, made by this one
            subprocess.run([sys.executable, "-m", "qwirkle_tools", "simulate", "--games", str(games), "--seed", "3",
                            "-o", str(work / f"corpus-{games}.jsonl")], check=True, cwd=HERE,
                           env={**os.environ, "PYTHONPATH": str(HERE)}, stdout=subprocess.DEVNULL)
        print(f"{'task':30} {'this (s)':>9} {'other (s)':>10} {'ratio':>6}")
        for name, args in tasks(work).items():
            best = {"this": float("inf"), "other": float("inf")}
            for _ in range(options.rounds):  # taking turns: a drift of the machine's speed falls on both
                best["this"] = min(best["this"], timed(HERE, args))
                best["other"] = min(best["other"], timed(options.other.resolve(), args))
            print(f"{name:30} {best['this']:9.2f} {best['other']:10.2f} {best['this'] / best['other']:6.2f}")


if __name__ == "__main__":
    main()
