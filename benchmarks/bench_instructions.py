"""The compiled build against the pure one by instructions executed, which the machine's drift does not touch.

    python benchmarks/bench_instructions.py [--games 10] [--other /path/to/the/previous/tree]

Each task is a short script run twice on each build under Valgrind's cachegrind
(``valgrind --tool=cachegrind --cache-sim=no``: it counts the instructions a process
executes, the same from run to run): once to set the task up (the games played, the
positions reached), once to set it up and do it. The difference is the task's own
instructions; the speed-up printed is the pure build's over the compiled one's, and
with ``--other`` (a source tree, as for ``bench_releases.py``: first on ``PYTHONPATH``)
that tree's over the compiled build's.
Besides, ``qwirkle validate`` of a 1,000-game corpus against the standard library's
``json`` parsing the same file, whole process each (the goal's ratio, by instructions).

Instructions are not time (a cache miss costs more than an addition), but on this
shared 2-core machine, whose speed drifts by a third from minute to minute, they are
the measure that repeats; ``bench_builds.py`` gives the wall times. Needs ``valgrind``
on ``PATH`` (Debian's package); each task takes some seconds to a minute under it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_releases import byte_compiled  # noqa: E402  (no module compiled from its source at each start)

HERE = Path(__file__).resolve().parent.parent

GAMES = """
import sys
from qwirkle_tools import Game
games, work = int(sys.argv[1]), sys.argv[2] == "work"
played = []  # each game's positions: the placements listed there and the move played
for seed in range(games):
    game = Game.deal(2, seed=seed)
    line = []
    while not game.is_over():
        moves = game.legal_moves()
        line.append(([m for m in moves if m.action == "place"], moves[0]))
        game.push(moves[0])
    played.append(line)
"""

LEGAL_MOVES = GAMES + """
for seed, line in enumerate(played):  # the games again: with legal_moves() at each position, or without
    game = Game.deal(2, seed=seed)
    for _, move in line:
        if work:
            game.legal_moves()
        game.push(move)
"""

PUSH_POP = GAMES + """
for seed, line in enumerate(played):  # the games again: each placement pushed and popped at each position, or not
    game = Game.deal(2, seed=seed)
    for placements, move in line:
        if work:
            for m in placements:
                game.push(m)
                game.pop()
        game.push(move)
"""

ENDGAME = """
import sys
sys.path.append(TESTS)  # this tree's tests/brute_force.py: the same positions, whichever package runs
from brute_force import endgame
from qwirkle_tools.engines.endgame import solve
games = [g for g in (endgame(seed, 7) for seed in range(10000, 10000 + int(sys.argv[1]))) if g is not None]
if sys.argv[2] == "work":
    for game in games:
        solve(game, seconds=None)
""".replace("TESTS", repr(str(HERE / "tests")))

SIM = """
import sys
from qwirkle_tools import Game
from qwirkle_tools.engines import simulation
views = []
for seed in range(int(sys.argv[1]) // 3 + 1):  # positions after two greedy moves; sim by iterations (no clock)
    game = Game.deal(2, seed=seed)
    for _ in range(2):
        game.push(game.legal_moves()[0])
    views.append(game.view(game.to_move))
if sys.argv[2] == "work":
    for seed, view in enumerate(views):
        simulation.choose(view, seed=seed)
"""

JSON_PARSE = "import json, sys\nfor line in open(sys.argv[1], 'rb'):\n    json.loads(line)\n"


def instructions(args: list[str], pure: bool, tree: Path | None = None) -> int:
    """The instructions ``python ARGS`` executes (run in this tree), on the pure build or the installed one;
    ``tree``: that source tree's package instead (first on ``PYTHONPATH``)."""
    env = {k: v for k, v in os.environ.items() if k != "QWIRKLE_PURE"}
    if pure:
        env["QWIRKLE_PURE"] = "1"
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                               f"--cachegrind-out-file={Path(folder) / 'out'}", sys.executable, *args],
                              env=env, cwd=tree or HERE, capture_output=True, text=True, check=True)  # (-c: cwd first)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no count:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def own(script: list[str], pure: bool, tree: Path | None = None) -> int:
    """A task's own instructions: its script (and arguments) set up and done, less set up alone."""
    return (instructions(["-c", *script, "work"], pure, tree)
            - instructions(["-c", *script, "setup"], pure, tree))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games played for the game tasks, positions tried for the solver")
    parser.add_argument("--other", type=Path, help="another tree (the previous release's source) to compare with")
    options = parser.parse_args()
    other = None if options.other is None else options.other.resolve()
    if shutil.which("valgrind") is None:
        raise SystemExit("bench_instructions.py needs valgrind (apt-get install valgrind)")
    for tree in (HERE, other):
        if tree is not None:
            byte_compiled(tree)
    n = str(options.games)
    every = {"legal_moves()": LEGAL_MOVES, "push and pop of each placement": PUSH_POP,
             "endgame solver, exact": ENDGAME, "sim, by iterations": SIM}
    head = f"{'task':32} {'compiled (M)':>12} {'pure (M)':>9} {'speed-up':>8}"
    print(head + (f" {'other (M)':>10} {'speed-up':>8}" if other else ""))
    for name, script in every.items():
        compiled, pure = own([script, n], False), own([script, n], True)
        line = f"{name:32} {compiled / 1e6:12,.0f} {pure / 1e6:9,.0f} {pure / compiled:8.2f}"
        if other is not None:
            previous = own([script, n], True, other)
            line += f" {previous / 1e6:10,.0f} {previous / compiled:8.2f}"
        print(line)
    with tempfile.TemporaryDirectory() as folder:
        corpus = Path(folder) / "corpus.jsonl"
        subprocess.run([sys.executable, "-m", "qwirkle_tools", "simulate", "--games", "1000", "--seed", "3", "-o",
                        str(corpus)], check=True, cwd=HERE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        parse = instructions(["-c", JSON_PARSE, str(corpus)], False)
        validate = {pure: instructions(["-m", "qwirkle_tools", "validate", "-q", str(corpus)], pure) for pure in (False, True)}
    print(f"validate / stdlib json parse of the same 1,000 games, whole process: compiled {validate[False] / parse:.2f}, "
          f"pure {validate[True] / parse:.2f} (goal 1.25)")


if __name__ == "__main__":
    main()
