"""The endgame solver: exactness against a brute force, time, nodes per second, and greedy's loss.

    python benchmarks/bench_endgame.py                 # 50 positions of 2-8 tiles, the 6-against-6 ones, a table
    python benchmarks/bench_endgame.py --positions 10 --most 6 --check 6

Positions come from greedy self-play on seeds from ``--first-seed`` on: the
first moment of each game with the bag empty and at most ``--most`` tiles in
the two racks (and, for the second table, the moment the bag empties, six
tiles in each rack). Each is solved on one core (CPU time) with no budget; a
position with at most ``--check`` tiles is also searched by the tests' plain
minimax (``tests/brute_force.py``: every move of every line, a position met
again looked up, no pruning) and the proven value and the best move's value
must agree with it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the tests' brute force, the one referee
from brute_force import endgame, minimax  # noqa: E402

from qwirkle_tools.engines.endgame import solve  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--most", type=int, default=8, help="most tiles in the two racks")
    parser.add_argument("--check", type=int, default=8, help="brute-force the positions with at most this many tiles")
    parser.add_argument("--first-seed", type=int, default=10_000)
    parser.add_argument("--full", type=int, default=10, help="6-against-6 positions, solved with --budget")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds for each 6-against-6 position")
    ns = parser.parse_args(argv)
    sys.setrecursionlimit(10_000)
    rows: list[tuple[int, int, int, int, float, int, int | None, str]] = []
    seed, wrong, unproven = ns.first_seed, 0, 0
    print("| seed | tiles | value | nodes | CPU s | plies | greedy loses | brute force agrees |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    while len(rows) < ns.positions:
        game = endgame(seed, ns.most)
        seed += 1
        if game is None:
            continue
        tiles = sum(len(r) for r in game.racks)
        cpu = time.process_time()
        solution = solve(game, seconds=None)
        cpu = time.process_time() - cpu
        greedy = game.legal_moves()[0]
        loss = next((c.loss for c in solution.candidates if str(c.move) == str(greedy)), None)
        agree = ""
        if tiles <= ns.check:
            seen: dict[object, int] = {}
            truth = minimax(game, seen)
            points = game.push(solution.best)
            best = points - minimax(game, seen)
            game.pop()
            ok = solution.proven and solution.value == truth == best
            wrong += not ok
            agree = "yes" if ok else "NO"
        rows.append((seed - 1, tiles, solution.value, solution.nodes, cpu, solution.depth, loss, agree))
        r = rows[-1]  # printed as it comes: a brute force of eight tiles takes minutes
        print(f"| {r[0]} | {r[1]} | {r[2]:+d} | {r[3]:,} | {r[4]:.2f} | {r[5]} | {r[6] if r[6] is not None else '?'} | {r[7]} |",
              flush=True)
        unproven += not solution.proven
    nodes, cpu = sum(r[3] for r in rows), sum(r[4] for r in rows)
    ebf = [r[3] ** (1 / r[5]) for r in rows if r[5] > 1 and r[3] > 1]
    losses = [r[6] for r in rows if r[6] is not None]
    print(f"\n{len(rows)} positions of {min(r[1] for r in rows)}-{max(r[1] for r in rows)} tiles: {len(rows) - unproven} proven; "
          f"slowest {max(r[4] for r in rows):.2f} s, median {statistics.median(r[4] for r in rows):.2f} s CPU; "
          f"{nodes / cpu:,.0f} nodes/s; effective branching factor {statistics.median(ebf):.1f} (median); "
          f"greedy loses {statistics.mean(losses):.2f} points on average (worst {max(losses)}); "
          f"brute force disagrees: {wrong} of {sum(1 for r in rows if r[7])}")
    print(f"\n6 against 6, the moment the bag empties, {ns.budget:g} s each:")
    print("| seed | depth reached | proven | nodes | nodes/s |")
    print("| ---: | ---: | --- | ---: | ---: |")
    found, seed = 0, ns.first_seed
    while found < ns.full:
        game = endgame(seed, 12)
        seed += 1
        if game is None or [len(r) for r in game.racks] != [6, 6]:
            continue
        found += 1
        solution = solve(game, seconds=ns.budget)
        print(f"| {seed - 1} | {solution.depth} | {'yes' if solution.proven else 'no'} | {solution.nodes:,} | "
              f"{solution.nodes_per_second:,.0f} |")
    return 1 if wrong or unproven else 0


if __name__ == "__main__":
    sys.exit(main())
