"""Benchmark of ``qwirkle stats``: games per second and peak memory.

    python benchmarks/bench_stats.py [--games 10000] [--jobs 1 2] [--analyse-games 10000]
    python benchmarks/bench_stats.py --memory 100000

Makes (once) a corpus of greedy self-play games with ``qwirkle simulate
--seed 100`` in ``benchmarks/out/`` (game i of a seed is the same whatever
--games says, so the 10,000-game corpus is the first tenth of the
100,000-game one). Then runs ``qwirkle stats`` on it as a user would, once
per setting, and reports the wall time, games per second, and the peak
resident memory of the whole process tree (the main process and its
workers together, sampled every 50 ms from /proc).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
OUT = HERE / "out"


def corpus(games: int) -> Path:
    path = OUT / f"stats-{games}.jsonl"
    if path.exists():
        return path
    OUT.mkdir(exist_ok=True)
    bigger = sorted((p for p in OUT.glob("stats-*.jsonl") if int(p.stem.split("-")[1]) > games),
                    key=lambda p: int(p.stem.split("-")[1]))
    if bigger:  # the first games of a larger corpus are the same games
        with bigger[0].open("rb") as src, path.open("wb") as dst:
            for i, line in enumerate(src):
                if i == games:
                    break
                dst.write(line)
        return path
    start = time.perf_counter()
    subprocess.run([qwirkle(), "simulate", "--games", str(games), "--seed", "100", "--jobs", "2",
                    "--no-progress", "-o", str(path)], check=True)
    print(f"made {path} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return path


def qwirkle() -> str:
    found = shutil.which("qwirkle", path=str(Path(sys.executable).parent)) or shutil.which("qwirkle")
    if found is None:
        sys.exit("qwirkle is not installed (pip install -e .)")
    return found


def tree_rss(pid: int) -> int:
    """Resident memory of ``pid`` and its descendants, in KiB."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            children = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            continue
        todo.extend(int(c) for c in children)
    return total


def measure(args: list[str]) -> tuple[float, int]:
    """Wall seconds and peak tree memory (KiB) of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.05)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        sys.exit(f"{' '.join(args)} failed: {proc.stderr.read().decode() if proc.stderr else ''}")
    return wall, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--analyse-games", type=int, default=None, help="corpus size for --analyse (default: --games)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--memory", type=int, default=None, help="only the memory run, on a corpus this large (jobs 2)")
    ns = parser.parse_args()
    print(f"{'corpus':>10} {'options':<22} {'wall s':>8} {'games/s':>9} {'peak MiB':>9}")
    plan: list[tuple[int, list[str], int]]
    if ns.memory:
        plan = [(ns.memory, [], 2), (ns.memory, [], 1)]
    else:
        plan = [(ns.games, [], j) for j in ns.jobs]
        plan += [(ns.analyse_games or ns.games, ["--analyse"], j) for j in ns.jobs]
    for games, extra, jobs in plan:
        path = corpus(games)
        wall, peak = measure([qwirkle(), "stats", str(path), "--no-progress", "--jobs", str(jobs), *extra])
        options = " ".join([*extra, f"--jobs {jobs}"])
        print(f"{games:>10,} {options:<22} {wall:>8.1f} {games / wall:>9,.0f} {peak / 1024:>9.0f}", flush=True)


if __name__ == "__main__":
    main()
