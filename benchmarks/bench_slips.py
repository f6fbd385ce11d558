"""One slip, one finding: slipped games checked, by kind of slip.

    python benchmarks/bench_slips.py [--games 100] [--seed 4242]

Self-play games (greedy against equity, two players) written as a club writes them (the project's
own ``.qgn`` writer, no racks), each with one slip of the pen of a kind and a second, independent
slip later (a score 3 more than the move made): tests/slipped.py makes them. Each is validated as
``qwirkle validate`` does (:func:`qwirkle_tools.analysis.validate.check_source`) and counted:

- ``one finding``: the game's findings are exactly two, one at the slip's turn and the second
  slip's score-mismatch (every knock-on error gone, the second slip still found);
- ``not seen there``: no finding at the slip's turn (two tiles swapped that are legal and score
  the same show only when a later move meets them, or never);
- ``legal as written``: the slip made a game that is legal and scores as written (two tiles of a
  line swapped): nothing to find, the second slip the one finding (``one of the rest``: the share
  of one finding among the other games);
- ``original``: for a tile a cell off, two tiles swapped or a tile misspelt, the repair suggested
  is the move as it was before the slip.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


SUGGESTED = ("cell", "swap", "tile", "coordinate")
"""The kinds whose finding suggests the move meant."""


def main() -> None:
    from slipped import KINDS, slipped

    from qwirkle_tools.analysis.validate import check_source
    from qwirkle_tools.formats.sources import Source

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per kind of slip")
    parser.add_argument("--seed", type=int, default=4242)
    options = parser.parse_args()
    tally: Counter[tuple[str, str]] = Counter()
    seconds = 0.0
    for kind in KINDS:
        for g in range(options.games):
            game = slipped(kind, options.seed, g)
            if game is None:
                continue
            started = time.perf_counter()
            findings = check_source(Source("game.qgn", 0, game.text.encode())).findings
            seconds += time.perf_counter() - started
            here = [f for f in findings
                    if f.turn == game.turn or (f.turn is None and f.pointer.startswith(f"/turns/{game.turn - 1}"))]
            second = [f for f in findings if f.turn == game.second and f.code == "score-mismatch"]
            tally[kind, "games"] += 1
            tally[kind, "one"] += len(findings) == 2 and len(here) == 1 and len(second) == 1
            tally[kind, "unseen"] += not here
            tally[kind, "legal"] += len(findings) == 1 and len(second) == 1  # the slip made a legal game as written
            if kind in SUGGESTED:
                tally[kind, "suggested"] += bool(here) and here[0].code == "slip"
                tally[kind, "original"] += bool(here) and here[0].code == "slip" and game.original in here[0].message
    games = sum(tally[k, "games"] for k in KINDS)
    print(f"{games} slipped games (seed {options.seed}), validated in {seconds:.1f} s ({1000 * seconds / games:.1f} ms a game)")
    print(f"  {'slip':<10} {'games':>6} {'one finding':>12} {'not seen there':>15} {'legal as written':>17} "
          f"{'one of the rest':>16} {'original suggested':>19}")
    for kind in KINDS:
        n, legal = tally[kind, "games"], tally[kind, "legal"]
        original = f"{tally[kind, 'original']}/{tally[kind, 'suggested']}" if kind in SUGGESTED else "-"
        print(f"  {kind:<10} {n:>6} {100 * tally[kind, 'one'] / n:>11.1f}% {tally[kind, 'unseen']:>15} {legal:>17} "
              f"{100 * tally[kind, 'one'] / max(1, n - legal):>15.1f}% {original:>19}")
    one = sum(tally[k, "one"] for k in KINDS)
    legal = sum(tally[k, "legal"] for k in KINDS)
    print(f"  {'all':<10} {games:>6} {100 * one / games:>11.1f}% {'':>15} {legal:>17} {100 * one / (games - legal):>15.1f}%")


if __name__ == "__main__":
    main()
