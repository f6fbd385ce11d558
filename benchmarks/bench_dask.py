"""Benchmark of ``--dask`` against ``--jobs``: games per second of ``qwirkle stats``.

    python benchmarks/bench_dask.py [--games 100000] [--corpus PATH] [--repeat 3] [--workers 2]

Runs ``qwirkle stats CORPUS`` as a user would with ``--jobs 1``, ``--jobs N``
and ``--dask local --jobs N`` (a ``LocalCluster`` of N worker processes,
started and closed inside each run, so its start-up is counted), each
``--repeat`` times in turn, and reports the best wall time of each (the
machine may be shared: the best run is the one least disturbed), games per
second, and Dask's overhead against ``--jobs N``. The corpus is
``--corpus``, or one made (once) like bench_stats.py's with ``qwirkle
simulate --seed 100`` in ``benchmarks/out/``. Every run's output is
compared with the first: they must be the same.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_stats import corpus, qwirkle  # noqa: E402


def measure(args: list[str]) -> tuple[float, bytes]:
    """Wall seconds and the output of one run."""
    start = time.perf_counter()
    proc = subprocess.run(args, capture_output=True)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        sys.exit(f"{' '.join(args)} failed: {proc.stderr.decode()}")
    return wall, proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--corpus", type=Path, default=None, help="a .jsonl corpus (default: made with --games)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--analyse", action="store_true")
    ns = parser.parse_args()
    path = ns.corpus or corpus(ns.games)
    with path.open("rb") as f:
        games = sum(1 for line in f if line.strip())
    n = ns.workers
    settings = {"--jobs 1": ["--jobs", "1"], f"--jobs {n}": ["--jobs", str(n)],
                f"--dask local --jobs {n}": ["--dask", "local", "--jobs", str(n)]}
    extra = ["--analyse"] if ns.analyse else []
    best: dict[str, float] = {}
    first: bytes | None = None
    for round in range(ns.repeat):
        for name, options in settings.items():
            wall, out = measure([qwirkle(), "stats", str(path), "--no-progress", *extra, *options])
            if first is None:
                first = out
            elif out != first:
                sys.exit(f"{name}: the output differs from the first run's")
            best[name] = min(best.get(name, wall), wall)
            print(f"round {round + 1}: {name:<24} {wall:8.1f} s", file=sys.stderr, flush=True)
    print(f"{games:,} games{' (--analyse)' if ns.analyse else ''}, best of {ns.repeat}")
    print(f"{'options':<24} {'wall s':>8} {'games/s':>9}")
    for name, wall in best.items():
        print(f"{name:<24} {wall:>8.1f} {games / wall:>9,.0f}")
    jobs, dask = best[f"--jobs {n}"], best[f"--dask local --jobs {n}"]
    print(f"Dask's overhead against --jobs {n}: {(dask - jobs) / jobs:+.1%} of the wall time")


if __name__ == "__main__":
    main()
