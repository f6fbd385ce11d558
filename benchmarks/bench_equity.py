"""The static equity player against greedy play, through the match runner, and its speed.

    python benchmarks/bench_equity.py match [--games 200] [--seed 31] [--jobs 1] [--leaves FILE ...]
    python benchmarks/bench_equity.py speed [--games 30]

``match`` plays ``qwirkle match equity greedy --games N --seed S`` (the
library call: paired deals, the seats swapped) and prints one row: the
equity player's wins, draws and losses, its score rate with the Wilson 95 %
interval, the mean margin and the time per game, for the shipped leave
model; or, given ``--leaves`` files (models written by ``tools/fit_leaves.py``),
one row for each, played on the same deals. The figure of ``docs/analysis.md``:
``match --games 1000 --seed 31`` (seeds 1000 and 1001 fit the shipped model;
the deals of seed 31 were used neither to fit nor to tune it).

``speed`` measures, on one core's CPU time, positions per second of the move
generator alone and of the equity ranking (the best move only, and every
move ranked) over the positions of greedy self-play games.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from qwirkle_tools.bots.match import Match, Tally, run_games
from qwirkle_tools.core.movegen import generate_raw
from qwirkle_tools.engines.equity import equity, ranked
from qwirkle_tools.engines.leaves import Leaves, default
from qwirkle_tools.engines.policies import BUILT_IN
from qwirkle_tools.engines.selfplay import game_seed, simulate
from qwirkle_tools.formats.record import from_data
from qwirkle_tools.play.game import Move, SeatView


def match(games: int, seed: int, jobs: int, leaves: Path | None) -> str:
    spec = "equity"
    if leaves is not None:  # a model of one's own, as a policy the runner knows by name
        model = Leaves.from_data(json.loads(leaves.read_text("utf-8")))

        def chosen(view: SeatView, seed: int = 0) -> Move:
            return equity(view, seed, model)

        spec = f"equity-{leaves.stem}"
        BUILT_IN[spec] = chosen  # (the runner's players are looked up there; forked workers see it too)
    start = time.perf_counter()
    tally = Tally()
    for game in run_games(Match(spec, "greedy", games, seed), jobs):
        tally.add(game)
    seconds = time.perf_counter() - start
    s = tally.summary()
    return (f"| {leaves or 'shipped'} | {s.games} | {s.a.wins}-{s.a.draws}-{s.a.losses} | {100 * s.rate:.1f} % | "
            f"{100 * s.rate_low:.1f}-{100 * s.rate_high:.1f} % | {s.margin:+.1f} | {1000 * seconds / s.games:.0f} ms |")


def speed(games: int) -> list[str]:
    default()
    positions: list[tuple[dict[int, int], list[int], int]] = []
    for i in range(games):
        record = from_data(simulate(2, game_seed(55, i), "greedy"))
        cells: dict[int, int] = {}
        bag = 96
        for turn in record.turns:
            positions.append((dict(cells), [int(t) for t in turn.rack or ()], bag))
            if turn.action == "place":
                for p in turn.tiles or ():
                    cells[p.key] = int(p.tile)
                bag = max(0, bag - len(turn.tiles or ()))
    rows = [f"{len(positions):,} positions of {games} greedy self-play games, CPU time, best of 3",
            "| work | positions/s | ms each |", "| --- | ---: | ---: |"]
    work: list[tuple[str, Callable[[dict[int, int], list[int], int], object]]] = [
        ("move generation alone", lambda c, r, b: generate_raw(c, r, largest_first=not c)),
        ("equity: the best move", lambda c, r, b: ranked(c, r, b, limit=1)),
        ("equity: every move ranked", lambda c, r, b: ranked(c, r, b))]
    for name, f in work:
        best = float("inf")
        for _ in range(3):
            t = time.process_time()
            for c, r, b in positions:
                f(c, r, b)
            best = min(best, time.process_time() - t)
        rows.append(f"| {name} | {len(positions) / best:,.0f} | {1000 * best / len(positions):.2f} |")
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The equity player against greedy, and its speed.")
    parser.add_argument("what", choices=("match", "speed"))
    parser.add_argument("--games", type=int, default=None, help="games (match: 200, speed: 30)")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--leaves", type=Path, action="append", default=[], help="a model file: a row (repeat it)")
    args = parser.parse_args(argv)
    if args.what == "speed":
        print("\n".join(speed(args.games or 30)))
        return
    print("| leaves | games | won-drawn-lost | score rate | 95 % interval | margin | per game |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for leaves in args.leaves or [None]:
        print(match(args.games or 200, args.seed, args.jobs, leaves), flush=True)


if __name__ == "__main__":
    main()
