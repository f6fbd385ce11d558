"""The compiled build against the pure one, on one machine, taking turns; and validate against a JSON parse.

    python benchmarks/bench_builds.py [--rounds 3]

Each task runs as a whole process, once on each build in turn (the pure build is this
install with ``QWIRKLE_PURE=1``: the same ``.py`` files, run as they are), ``--rounds``
times; the best wall time of each is kept and the speed-up printed (pure time over
compiled time). Besides, ``qwirkle validate`` of the 1,000-game corpus against the
time the standard library's ``json`` takes to parse the same file (a fixed reference:
the machine's speed cancels), and ``qwirkle --help``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_releases import byte_compiled, tasks, timed  # noqa: E402  (the tasks both releases have, their timing)

HERE = Path(__file__).resolve().parent.parent

LEGAL_MOVES = """
from qwirkle_tools import Game
for seed in range(20):
    game = Game.deal(2, seed=seed)
    while not game.is_over():
        game.push(game.legal_moves()[0])
"""

ENDGAME = """
import sys
sys.path.insert(0, "tests")
from brute_force import endgame
from qwirkle_tools.engines.endgame import solve
for seed in range(10000, 10012):
    game = endgame(seed, 7)
    if game is not None:
        solve(game, seconds=None)
"""

SIM = """
from qwirkle_tools import Game
from qwirkle_tools.engines import simulation
for seed in range(4):
    game = Game.deal(2, seed=seed)
    for _ in range(6):
        game.push(simulation.choose(game.view(game.to_move), seed=seed))
"""

JSON_PARSE = "import json, sys\nfor line in open(sys.argv[1], 'rb'):\n    json.loads(line)\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    byte_compiled(HERE)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for games in (1000, 50):
            subprocess.run([sys.executable, "-m", "qwirkle_tools", "simulate", "--games", str(games), "--seed", "3",
                            "-o", str(work / f"corpus-{games}.jsonl")], check=True, cwd=HERE, stdout=subprocess.DEVNULL)
        every = {**tasks(work), "legal_moves(), 20 greedy games": ["-c", LEGAL_MOVES],
                 "endgame solver, 12 positions": ["-c", ENDGAME], "sim, 24 moves": ["-c", SIM],
                 "qwirkle --help": ["-m", "qwirkle_tools", "--help"]}
        print(f"{'task':32} {'compiled (s)':>12} {'pure (s)':>9} {'speed-up':>8}")
        best: dict[str, dict[bool, float]] = {}
        for name, args in every.items():
            best[name] = {False: float("inf"), True: float("inf")}
            for _ in range(options.rounds):  # taking turns: a drift of the machine's speed falls on both
                for pure in (False, True):
                    best[name][pure] = min(best[name][pure], timed(HERE, args, pure))
            compiled, pure_time = best[name][False], best[name][True]
            print(f"{name:32} {compiled:12.3f} {pure_time:9.3f} {pure_time / compiled:8.2f}")
        parse = min(timed(HERE, ["-c", JSON_PARSE, str(work / "corpus-1000.jsonl")]) for _ in range(options.rounds))
        validate = best["validate, 1,000 games"]
        print(f"stdlib json parse of the same 1,000 games: {parse:.3f} s; validate / parse: "
              f"compiled {validate[False] / parse:.2f}, pure {validate[True] / parse:.2f} (goal 1.25)")


if __name__ == "__main__":
    main()
