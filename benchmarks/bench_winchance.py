"""The win-chance model against the results: self-play games of mixed skill, each position's
predicted chance beside who went on to win.

    python benchmarks/bench_winchance.py [--games 600] [--seed 5100]        # the calibration
    python benchmarks/bench_winchance.py --fit [--games 600] [--seed 200]   # the fit of SCALE, OFFSET, TEMPO
    python benchmarks/bench_winchance.py --sim [--games 40] [--seed 5200]   # the simulation's chances

After every turn of two-player games between ``greedy``, ``equity`` and ``random`` (in every
pairing), the mover's chance (:func:`qwirkle_tools.analysis.winchance.win_chance` of their lead
and the tiles not on the board) against the result (a win 1, a draw half, a loss 0): in bins of
the chance, the mean predicted against the mean observed, and the log loss and Brier score
beside a model that knows nothing (0.5). ``--fit`` finds the SCALE, OFFSET and TEMPO of the least
log loss on a grid (the module's constants came from ``--fit --games 600 --seed 200``); the
calibration in docs/analysis.md is of ``--seed 5100``, games the fit never saw. ``--sim``: each
game analysed with ``--engine sim`` (:func:`qwirkle_tools.analysis.analyse.analyse`), the chance it
gives the move played (from its playouts; the solver's once the bag is empty) against the result,
beside the model's chance of the same positions.
"""

from __future__ import annotations

import argparse
import math
from itertools import product

PAIRS = list(product(("greedy", "equity", "random"), repeat=2))


def positions(games: int, seed: int) -> list[tuple[int, int, bool, float]]:
    """(the mover's lead after the turn, the tiles not on the board, whether the turn ended the
    game, the mover's result) for every turn of ``games`` games."""
    from qwirkle_tools import from_data
    from qwirkle_tools.engines.selfplay import game_seed, simulate
    from qwirkle_tools.play.history import replay

    found = []
    for g in range(games):
        history = replay(from_data(simulate(2, game_seed(seed, g), list(PAIRS[g % len(PAIRS)]))))  # type: ignore[arg-type]
        final = history.totals
        for i, turn in enumerate(history.turns):
            assert turn is not None
            p = turn.player
            after = history.state(i + 1)
            margin = final[p] - final[1 - p]
            found.append((after.scores[p] - after.scores[1 - p], 108 - len(after.board), after.ended is not None,
                          1.0 if margin > 0 else 0.5 if margin == 0 else 0.0))
    return found


def simulated(games: int, seed: int) -> tuple[list[tuple[float, float]], list[tuple[float, float]], float]:
    """(the simulation's chance, the result) and (the model's chance, the result) of every turn the
    simulation gave a chance, in ``games`` games, and the seconds the analyses took."""
    import time

    from qwirkle_tools import from_data
    from qwirkle_tools.analysis.analyse import analyse
    from qwirkle_tools.analysis.winchance import win_chance
    from qwirkle_tools.engines.selfplay import game_seed, simulate
    from qwirkle_tools.play.history import replay

    sim, model = [], []
    seconds = 0.0
    for g in range(games):
        history = replay(from_data(simulate(2, game_seed(seed, g), list(PAIRS[g % len(PAIRS)]))))  # type: ignore[arg-type]
        started = time.monotonic()
        analysis = analyse(history, "sim")
        seconds += time.monotonic() - started
        final = history.totals
        for t in analysis.turns:
            if t.win is None or t.win.source == "model":
                continue
            p = t.player
            after = history.state(t.turn)
            margin = final[p] - final[1 - p]
            result = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            sim.append((t.win.played, result))
            model.append((win_chance(after.scores[p] - after.scores[1 - p], 108 - len(after.board),
                                     after.ended is not None), result))
    return sim, model, seconds


def scored(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """The log loss and the Brier score of (predicted, result) pairs."""
    loss = -sum(r * math.log(min(max(p, 1e-9), 1 - 1e-9)) + (1 - r) * math.log(1 - min(max(p, 1e-9), 1 - 1e-9))
                for p, r in pairs) / len(pairs)
    return loss, sum((p - r) ** 2 for p, r in pairs) / len(pairs)


def bins(pairs: list[tuple[float, float]]) -> None:
    """The predicted and observed means in tenths of the chance."""
    print(f"  {'chance':<9} {'positions':>9} {'predicted':>10} {'observed':>9}")
    for low in range(10):
        inside = [(p, o) for p, o in pairs if low / 10 <= p < (low + 1) / 10 or (low == 9 and p == 1.0)]
        if inside:
            print(f"  {low / 10:.1f}-{(low + 1) / 10:.1f}   {len(inside):>9,} {sum(p for p, _ in inside) / len(inside):>10.3f} "
                  f"{sum(o for _, o in inside) / len(inside):>9.3f}")


def log_loss(rows: list[tuple[int, int, bool, float]], scale: float, offset: float, tempo: float) -> float:
    import qwirkle_tools.analysis.winchance as model

    model.SCALE, model.OFFSET, model.TEMPO = scale, offset, tempo
    total = 0.0
    for lead, tiles, over, result in rows:
        p = min(max(model.win_chance(lead, tiles, over), 1e-9), 1 - 1e-9)
        total -= result * math.log(p) + (1 - result) * math.log(1 - p)
    return total / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=5100)
    parser.add_argument("--fit", action="store_true", help="fit SCALE, OFFSET and TEMPO on these games")
    parser.add_argument("--sim", action="store_true", help="the chances of --engine sim (default: 40 games, seed 5200)")
    options = parser.parse_args()
    if options.sim:
        games = options.games if options.games != 600 else 40
        seed = options.seed if options.seed != 5100 else 5200
        sim, model, seconds = simulated(games, seed)
        print(f"{len(sim):,} positions of {games} games (seed {seed}) analysed with --engine sim in {seconds:.0f} s")
        for name, pairs in (("the simulation", sim), ("the model, same positions", model)):
            loss, brier = scored(pairs)
            print(f"{name}: log loss {loss:.4f}, Brier score {brier:.4f}")
            bins(pairs)
        return
    rows = positions(options.games, options.seed)
    if options.fit:
        coarse = [(s / 4, c, t) for s in range(2, 13) for c in (0, 6, 18, 36) for t in (0, 2, 4, 6, 8)]
        s0, c0, t0 = min(coarse, key=lambda g: log_loss(rows, *g))
        fine = [(s0 + ds / 16, c, t0 + dt / 2) for ds in range(-4, 5) for c in {max(0, c0 + dc) for dc in (-6, -3, 0, 3, 6)}
                for dt in range(-2, 3)]
        scale, offset, tempo = min(fine, key=lambda g: log_loss(rows, *g))
        print(f"{len(rows):,} positions of {options.games} games (seed {options.seed}): SCALE = {scale}, OFFSET = {offset}, "
              f"TEMPO = {tempo}, log loss {log_loss(rows, scale, offset, tempo):.4f}")
        return
    from qwirkle_tools.analysis.winchance import OFFSET, SCALE, TEMPO, win_chance

    loss = log_loss(rows, SCALE, OFFSET, TEMPO)
    predicted = [win_chance(lead, tiles, over) for lead, tiles, over, _ in rows]
    brier = sum((p - r[3]) ** 2 for p, r in zip(predicted, rows)) / len(rows)
    print(f"{len(rows):,} positions of {options.games} games (seed {options.seed}), SCALE {SCALE}, OFFSET {OFFSET}, "
          f"TEMPO {TEMPO}")
    print(f"log loss {loss:.4f} (knowing nothing: {math.log(2):.4f}); Brier score {brier:.4f} (knowing nothing: 0.25)")
    bins([(p, r[3]) for p, r in zip(predicted, rows)])


if __name__ == "__main__":
    main()
