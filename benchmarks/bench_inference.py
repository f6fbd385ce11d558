"""The inferred racks against the truth: self-play games of mixed skill, their racks stripped.

    python benchmarks/bench_inference.py [--games 60] [--seed 5000] [--jobs 2]

Each game is played by two of the built-in players (``greedy``, ``equity``, ``random``, in
every pairing, so that the players' skill differs from game to game and within one), then
analysed twice: with its racks (the truth: each turn's points lost against the best move of
the rack held) and with the racks and draws taken out, as a club records a game (each
turn's points lost inferred, :mod:`qwirkle_tools.analysis.inference`). Printed: per player
and game, the correlation of the inferred and the true points lost and the bias of the
total; per turn, the calibration of "a better move existed" (predicted, in bins, against
how often the truth had one); and the time the inference took. The inference was tuned
with ``--seed 100`` (and single games of seeds 1 to 4); the figures in docs/analysis.md are
of ``--seed 5000``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import product
from typing import Any

PLAYERS = ("greedy", "equity", "lookahead", "random")
PAIRS = list(product(PLAYERS, PLAYERS))


def strip(data: dict[str, Any]) -> dict[str, Any]:
    """The record as a club writes it: no racks, no draws (the moves and the scores stay)."""
    bare: dict[str, Any] = json.loads(json.dumps(data))
    for turn in bare["turns"]:
        turn.pop("rack", None)
        turn.pop("draw", None)
    bare.pop("setup", None)
    return bare


def one(game: int, seed: int) -> dict[str, Any]:
    """Game ``game``: each player's true and inferred points lost, and each inferred turn's
    predicted chance of a better move with whether the truth had one."""
    from qwirkle_tools import from_data
    from qwirkle_tools.analysis.analyse import analyse
    from qwirkle_tools.engines.selfplay import game_seed, simulate

    pair = PAIRS[game % len(PAIRS)]
    data = simulate(2, game_seed(seed, game), list(pair))  # type: ignore[arg-type]
    truth = analyse(from_data(data), endgames=False, inference=False)
    started = time.perf_counter()
    inferred = analyse(from_data(strip(data)), endgames=False)
    seconds = time.perf_counter() - started
    players = []
    turns = []
    for p, policy in enumerate(pair):
        true_loss = est = 0.0
        for real, guess in zip(truth.turns, inferred.turns):
            if real.player != p or guess.inferred is None or real.points_lost is None:
                continue
            true_loss += real.points_lost
            est += guess.inferred.expected_loss
            turns.append((guess.inferred.better, real.points_lost > 0))
        players.append({"policy": policy, "true": true_loss, "inferred": est})
    return {"players": players, "turns": turns, "seconds": seconds, "turn_count": len(inferred.turns)}


def pearson(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (sx * sy)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    with ProcessPoolExecutor(options.jobs) as pool:
        results = list(pool.map(one, range(options.games), [options.seed] * options.games))
    players = [p for r in results for p in r["players"]]
    true = [p["true"] for p in players]
    est = [p["inferred"] for p in players]
    print(f"{options.games} games (seed {options.seed}), {len(players)} player-games, pairs of {', '.join(PLAYERS)}")
    print(f"correlation of inferred and true points lost, per player and game: {pearson(est, true):.3f}")
    print(f"total: inferred {sum(est):.0f}, true {sum(true):.0f}, bias {sum(est) / sum(true) - 1:+.1%}")
    for policy in PLAYERS:
        mine = [p for p in players if p["policy"] == policy]
        t, e = sum(p["true"] for p in mine), sum(p["inferred"] for p in mine)
        print(f"  {policy:<7} {len(mine):>3} player-games: true {t / len(mine):6.1f} a game, inferred {e / len(mine):6.1f}")
    turns = [t for r in results for t in r["turns"]]
    print(f'"a better move existed", {len(turns)} turns: predicted (bin) against observed')
    print(f"  {'bin':<9} {'turns':>6} {'predicted':>10} {'observed':>9}")
    for low in range(10):
        inside = [(p, o) for p, o in turns if low / 10 <= p < (low + 1) / 10 or (low == 9 and p == 1.0)]
        if inside:
            predicted = sum(p for p, _ in inside) / len(inside)
            observed = sum(o for _, o in inside) / len(inside)
            print(f"  {low / 10:.1f}-{(low + 1) / 10:.1f}   {len(inside):>6} {predicted:>10.3f} {observed:>9.3f}")
    seconds = [r["seconds"] for r in results]
    per_turn = sum(seconds) / sum(r["turn_count"] for r in results)
    print(f"the analysis of a stripped game: {sum(seconds) / len(seconds):.2f} s on average, the slowest "
          f"{max(seconds):.2f} s ({1000 * per_turn:.0f} ms a turn; {options.jobs} processes)")


if __name__ == "__main__":
    main()
