"""Fit the leave values (qwirkle_tools/data/leaves.json) by self-play.

    python tools/fit_leaves.py                                  # the shipped fit: 2 rounds of 1,500 games
    python tools/fit_leaves.py --games 300 --rounds 1 -o /tmp/leaves.json   # a quick look (seconds)
    python tools/fit_leaves.py --only duplicate,pair -o /tmp/dup-pair.json  # a model of some features only

Each round plays ``--games`` two-player games of self-play (deal ``i`` seeded
by ``game_seed(--seed, i)``, round ``r`` by ``--seed + r``): the first round
greedy against greedy, each later one the equity player with the previous
round's model in both seats (so the leaves it then keeps, exchanges
included, are in the data). Every placement and exchange with tiles left in
the bag after the draw is a sample: the leave's features
(:func:`qwirkle_tools.engines.leaves.features`, on the board before the move)
and the outcome, the points the mover scores on its next turn. The fit is
least squares of

    next-turn points = phase(bag) + scale(bag) * sum(weight * feature)

where ``phase`` is a nuisance constant per twelve tiles of bag (the game's
stage: later boards score more, whatever is kept; dropped after the fit, it
is the same for every move of a position) and ``scale`` the taper
(:meth:`Leaves.scale`), chosen from a grid by the smallest squared error.
The exchange constant is the mean residual of the exchange samples (their
next-turn points less what the fitted model says of their leaves). The same
seeds give the same file. Time: the shipped fit took 2 minutes of CPU (118 s:
about 0.02 s a greedy game, 0.05 s an equity game, one core) and 15 minutes
of wall time on a 2-core machine shared by eight busy engineers.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from qwirkle_tools.engines.leaves import FEATURES, ZERO, Leaves, Terms, features
from qwirkle_tools.engines.policies import PolicyName as Policy
from qwirkle_tools.engines.selfplay import game_seed, simulate
from qwirkle_tools.formats.record import from_data

TAPERS = (0.0, 6.0, 12.0, 24.0)
PHASE = 12  # tiles of bag per phase constant
BAG = 108 - 12  # the bag after a two-player deal
OUT = Path(__file__).resolve().parent.parent / "qwirkle_tools" / "data" / "leaves.json"

Sample = tuple[tuple[int, ...], int, float]  # (features, bag after the draw, next-turn points)


def samples(seed: int, games: int, model: Leaves | None) -> tuple[list[Sample], list[Sample]]:
    """The placement and the exchange samples of ``games`` games (greedy when ``model`` is None)."""
    policy: Policy = "greedy" if model is None else "equity"
    placed: list[Sample] = []
    exchanged: list[Sample] = []
    for i in range(games):
        record = from_data(simulate(2, game_seed(seed, i), policy, leaves=model))
        turns = record.turns
        cells: dict[int, int] = {}
        bag = BAG
        for j, turn in enumerate(turns):
            rack = [int(t) for t in turn.rack or ()]
            gone = [int(p.tile) for p in turn.tiles or ()] if turn.action == "place" else \
                [int(t) for t in turn.exchanged or ()]
            kept = list(rack)
            for t in gone:
                kept.remove(t)
            after = max(0, bag - len(gone)) if turn.action == "place" else bag
            later = turns[j + 2] if j + 2 < len(turns) else None
            if turn.action != "pass" and after > 0 and later is not None:
                sample = (features(kept, Terms.of(cells)), after, float(later.score or 0))
                (placed if turn.action == "place" else exchanged).append(sample)
            if turn.action == "place":
                for p in turn.tiles or ():
                    cells[p.key] = int(p.tile)
                bag = after
    return placed, exchanged


def design(rows: Sequence[Sample], taper: float, only: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """The least-squares matrix (phase indicators, then the scaled features kept) and the outcomes."""
    scale = Leaves(taper=taper).scale
    phases = BAG // PHASE + 1
    x = np.zeros((len(rows), phases + len(only)))
    y = np.zeros(len(rows))
    for r, (f, bag, points) in enumerate(rows):
        x[r, bag // PHASE] = 1.0
        s = scale(bag)
        for c, k in enumerate(only):
            x[r, phases + c] = s * f[k]
        y[r] = points
    return x, y


def fit(placed: list[Sample], exchanged: list[Sample], only: Sequence[int], source: str) -> tuple[Leaves, float]:
    """The model of least squared error over the tapers, and its error per sample."""
    best: tuple[float, Leaves] | None = None
    phases = BAG // PHASE + 1
    for taper in TAPERS:
        x, y = design(placed, taper, only)
        coef, *_ = np.linalg.lstsq(x, y, rcond=None)
        error = float(np.sum((x @ coef - y) ** 2)) / len(y)
        weights = [0.0] * len(FEATURES)
        for c, k in enumerate(only):
            weights[k] = round(float(coef[phases + c]), 3)
        model = Leaves(tuple(weights), taper, 0.0, source)
        exchange = 0.0
        if exchanged:
            xe, ye = design(exchanged, taper, only)
            exchange = float(np.mean(ye - xe @ coef))
        model = Leaves(tuple(weights), taper, round(exchange, 3), source)
        if best is None or error < best[0]:
            best = error, model
    assert best is not None
    return best[1], best[0]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1500, help="games per round")
    parser.add_argument("--rounds", type=int, default=2, help="rounds: greedy self-play, then equity self-play")
    parser.add_argument("--seed", type=int, default=1000, help="round r plays the games of seed SEED + r")
    parser.add_argument("--only", default="", help="fit these features only (comma-separated), the others 0")
    parser.add_argument("-o", "--output", type=Path, default=OUT)
    args = parser.parse_args(argv)
    names = [f for f in args.only.split(",") if f] or list(FEATURES)
    unknown = [f for f in names if f not in FEATURES]
    if unknown:
        print(f"fit_leaves: unknown feature {unknown[0]!r}: choose from {', '.join(FEATURES)}", file=sys.stderr)
        return 2
    only = [FEATURES.index(f) for f in names]
    model: Leaves | None = None
    for r in range(args.rounds):
        start = time.perf_counter()
        placed, exchanged = samples(args.seed + r, args.games, model)
        source = (f"tools/fit_leaves.py --games {args.games} --rounds {args.rounds} --seed {args.seed}"
                  + (f" --only {args.only}" if args.only else ""))
        model, error = fit(placed, exchanged, only, source)
        print(f"round {r + 1}: {len(placed):,} placements, {len(exchanged):,} exchanges, "
              f"mean squared error {error:.2f}, {time.perf_counter() - start:.0f} s: {json.dumps(model.to_data())}",
              file=sys.stderr)
    assert model is not None or args.rounds == 0
    text = json.dumps((model or ZERO).to_data(), indent=1) + "\n"
    tmp = args.output.with_name(args.output.name + ".tmp")
    tmp.write_text(text, "utf-8")
    tmp.replace(args.output)  # atomic: the shipped file is never half written
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
