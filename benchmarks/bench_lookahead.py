"""The look-ahead engine against greedy play, and the speed of ``annotate --engine lookahead``.

    python benchmarks/bench_lookahead.py match [--games 400] [--seed 1] [-K 4] [-S 6] [--jobs 1]
    python benchmarks/bench_lookahead.py speed [--games 40]

``match`` plays two-player games of self-play: games 2j and 2j+1 are dealt
from the same seed with the seats swapped (the engine in seat 0, then in
seat 1), so each engine plays each deal from both seats. It prints the
engine's wins, draws and losses, its win rate (a draw counts half) with a
95 % Wilson interval, and the mean margin (engine's score less greedy's).
Each ``-K``/``-S`` pair given (repeat the options: ``-K 2 -K 4``) is one row.

``speed`` measures, on one core, games per second of the greedy analysis and
of the look-ahead analysis (default settings), over self-play greedy games of
66 to 74 turns: by CPU time (what one core does, even on a shared machine)
and by wall time.
Paste the tables into ``docs/analysis.md``.
"""

from __future__ import annotations

import argparse
import time
from multiprocessing import Pool

from qwirkle_tools.bots.match import wilson
from qwirkle_tools.engines.lookahead import Settings
from qwirkle_tools.engines.policies import PolicyName as Policy
from qwirkle_tools.engines.selfplay import game_seed, simulate
from qwirkle_tools.formats.record import Record


def one_game(args: tuple[int, int, int, int, float]) -> tuple[int, int]:
    """Game ``index`` of the match: (engine's score, greedy's score)."""
    index, seed, k, s, keep = args
    seat = index % 2  # the engine's seat: swapped every other game
    policies: tuple[Policy, Policy] = ("lookahead", "greedy") if seat == 0 else ("greedy", "lookahead")
    data = simulate(2, game_seed(seed, index // 2), policies, settings=Settings(k, s, keep))
    scores = data["result"]["scores"]
    return scores[seat], scores[1 - seat]


def match(games: int, seed: int, k: int, s: int, keep: float, jobs: int) -> str:
    start = time.perf_counter()
    work = [(i, seed, k, s, keep) for i in range(games)]
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(one_game, work, chunksize=4)
    else:
        results = [one_game(w) for w in work]
    seconds = time.perf_counter() - start
    wins = sum(1 for a, b in results if a > b)
    draws = sum(1 for a, b in results if a == b)
    losses = games - wins - draws
    rate = (wins + draws / 2) / games
    low, high = wilson(wins + draws / 2, games)
    margin = sum(a - b for a, b in results) / games
    return (f"| {k} | {s} | {keep:g} | {games} | {wins}-{draws}-{losses} | {100 * rate:.1f} % | "
            f"{100 * low:.1f}-{100 * high:.1f} % | {margin:+.1f} | {seconds:.0f} s |")


def speed(games: int) -> str:
    from qwirkle_tools.analysis.analyse import analyse
    from qwirkle_tools.formats.record import from_data
    from qwirkle_tools.play.engine import replay

    records: list[Record] = []
    seed = 0
    while len(records) < games:
        data = simulate(2, game_seed(70, seed), "greedy")
        seed += 1
        if 66 <= len(data["turns"]) <= 74:
            records.append(from_data(data))
    histories = [replay(r) for r in records]
    turns = sum(len(r.turns) for r in records) / len(records)
    rows = [f"{games} two-player games of {turns:.1f} turns on average (greedy self-play)"]
    rows.append("| analysis | games/s (CPU time) | ms/game (CPU) | games/s (wall) |")
    rows.append("| --- | ---: | ---: | ---: |")
    for engine in ("greedy", "lookahead"):
        wall, cpu = time.perf_counter(), time.process_time()
        for h in histories:
            analyse(h, engine=engine)
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
        rows.append(f"| `annotate --engine {engine}` | {games / cpu:.1f} | {1000 * cpu / games:.0f} | {games / wall:.1f} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("match", "speed"))
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-K", type=int, action="append", help="candidates (repeatable)")
    parser.add_argument("-S", type=int, action="append", help="samples (repeatable, paired with -K)")
    parser.add_argument("--keep", type=float, action="append", help="weight of the tiles kept (repeatable, paired)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if args.what == "speed":
        print(speed(args.games or 40))
        return
    ks = args.K or [Settings().candidates]
    ss = args.S or [Settings().samples] * len(ks)
    if len(ss) == 1 and len(ks) > 1:
        ss = ss * len(ks)
    keeps = args.keep or [Settings().keep]
    if len(keeps) == 1 and len(ks) > 1:
        keeps = keeps * len(ks)
    print("| K | S | keep | games | won-drawn-lost | win rate | 95 % interval (Wilson) | mean margin | time |")
    print("| ---: | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: |")
    for k, s, keep in zip(ks, ss, keeps, strict=True):
        print(match(args.games or 400, args.seed, k, s, keep, args.jobs), flush=True)


if __name__ == "__main__":
    main()
