"""Benchmarks: validation and replay throughput, and command start-up times.

    python benchmarks/bench.py [--games 1000] [--repeat 3]

Makes (once, then reuses) a corpus of self-play 2-player games with every
rack and draw recorded, in ``benchmarks/out/``; then measures, on one core:

* validate: JSON text to findings (parse, schema, read, replay), games/s;
* the same split into its stages (parse, schema, read, replay), us/game;
* validate the same games written in the notation (.qgn): read + schema + replay, games/s;
* the notation alone: write (format_qgn) and read (parse_qgn), us/game;
* rescore: replay with full score breakdowns, games/s;
* greedy self-play (full move generation every turn) and analysis, games/s;
* wall time of ``qwirkle --help``, ``qwirkle validate FILE`` and ``qwirkle
  view`` (with the size of the page it writes), and of a bare ``python -c
  pass`` for comparison, ms (median of several runs).

Numbers go to stdout as a table; paste them into ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).parent
OUT = HERE / "out"


def corpus(games: int) -> Path:
    """The benchmark corpus, made on first use (seeded, so always the same)."""
    path = OUT / f"corpus-{games}.jsonl"
    if path.exists():
        return path
    import orjson

    from qwirkle_tools.engines.selfplay import simulate

    OUT.mkdir(exist_ok=True)
    tmp = path.with_suffix(".tmp")
    start = time.perf_counter()
    with tmp.open("wb") as f:
        for seed in range(games):
            f.write(orjson.dumps(simulate(2, seed, "greedy" if seed % 2 else "random")) + b"\n")
    tmp.replace(path)
    print(f"made {path} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return path


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def command_ms(args: list[str], runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def view_rows(qwirkle: list[str]) -> list[tuple[str, str]]:
    """``qwirkle view`` on the 296-295 sample: wall time per command and the page's size."""
    import tempfile

    game = str(HERE.parent / "sample_games" / "296-295.json")
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "game.html")
        ms = command_ms([*qwirkle, "view", game, "-o", out, "--force"])
        size = Path(out).stat().st_size
    from qwirkle_tools.formats.record import loads
    from qwirkle_tools.outputs.viewer import page
    from qwirkle_tools.play.engine import replay

    record = loads(Path(game).read_bytes())
    inside = best_of(7, lambda: page(replay(record)))
    return [("qwirkle view 296-295.json -o game.html", f"{ms:.0f} ms"),
            ("  of which the page (replay, analysis, HTML)", f"{1000 * inside:.0f} ms"),
            ("  the page it writes", f"{size / 1000:,.1f} kB")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sims", type=int, default=40, help="games for the self-play and analysis rows")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})  # one core, as the targets say

    import orjson

    from qwirkle_tools.analysis.rescore import rescore
    from qwirkle_tools.analysis.validate import check_source
    from qwirkle_tools.formats import schema
    from qwirkle_tools.formats.record import from_data
    from qwirkle_tools.formats.sources import Source
    from qwirkle_tools.play.engine import check

    path = corpus(args.games)
    lines = path.read_bytes().splitlines()
    n = len(lines)
    turns = sum(len(orjson.loads(line)["turns"]) for line in lines) / n
    sources = [Source(str(path), i + 1, line) for i, line in enumerate(lines)]
    reports = [check_source(s) for s in sources]
    assert all(r.valid and not r.findings for r in reports), "the corpus must be valid"

    import gc

    rows: list[tuple[str, str]] = []
    t = best_of(args.repeat, lambda: [check_source(s, keep_record=False) for s in sources])
    rows.append(("validate: parse + schema + read + replay", f"{n / t:,.0f} games/s"))
    data = [orjson.loads(line) for line in lines]
    records = [from_data(d, trusted=True) for d in data]
    fast = schema.fast_validator()
    assert fast is not None
    gc.freeze()  # the stage rows time work on 1,000 records held at once; keep the
    gc.disable()  # collector's passes over them out of the attribution
    for name, fn in [
        ("  parse JSON (orjson)", lambda: [orjson.loads(line) for line in lines]),
        ("  schema (jsonschema-rs)", lambda: [fast(d) for d in data]),
        ("  read into typed records", lambda: [from_data(d, trusted=True) for d in data]),
        ("  replay and check (engine.check)", lambda: [check(r) for r in records]),
    ]:
        rows.append((name, f"{1e6 * best_of(args.repeat, fn) / n:,.0f} us/game"))
    gc.enable()
    from qwirkle_tools.formats.qgn import format_qgn, parse_qgn

    texts = [format_qgn(r) for r in records]
    qgn_sources = [Source("game.qgn", 0, t.encode()) for t in texts]
    assert all(not check_source(s).findings for s in qgn_sources[:50]), "the notation must read back clean"
    t = best_of(args.repeat, lambda: [check_source(s, keep_record=False) for s in qgn_sources])
    rows.append(("validate .qgn: read notation + schema + replay", f"{n / t:,.0f} games/s"))
    rows.append(("  write the notation (format_qgn)",
                 f"{1e6 * best_of(args.repeat, lambda: [format_qgn(r) for r in records]) / n:,.0f} us/game"))
    rows.append(("  read the notation (parse_qgn)",
                 f"{1e6 * best_of(args.repeat, lambda: [parse_qgn(t) for t in texts]) / n:,.0f} us/game"))
    few = records[: max(1, n // 10)]
    t = best_of(args.repeat, lambda: [rescore(r) for r in few])
    rows.append(("rescore (full breakdowns)", f"{len(few) / t:,.0f} games/s"))
    from qwirkle_tools.analysis.analyse import analyse
    from qwirkle_tools.engines.selfplay import simulate

    t = best_of(1, lambda: [simulate(2, seed, "greedy") for seed in range(args.sims)])
    rows.append(("self-play, greedy, 2 players (full move generation)", f"{args.sims / t:,.1f} games/s"))
    few = records[: args.sims]
    t = best_of(1, lambda: [analyse(r) for r in few])
    rows.append(("annotate: analyse games with racks", f"{len(few) / t:,.1f} games/s"))
    few_data = data[:20]
    t = best_of(1, lambda: [schema.reference_is_valid(d) for d in few_data])
    rows.append(("for scale: schema (jsonschema, reference)", f"{len(few_data) / t:,.0f} games/s"))

    # the command installed beside this interpreter (a venv's bin need not be on PATH)
    installed = Path(sys.executable).parent / "qwirkle"
    qwirkle = [str(installed)] if installed.exists() else [sys.executable, "-m", "qwirkle_tools"]
    sample = str(HERE.parent / "sample_games" / "complete-2p.json")
    rows.append(("python -c pass", f"{command_ms([sys.executable, '-c', 'pass']):.0f} ms"))
    rows.append(("qwirkle --help", f"{command_ms([*qwirkle, '--help']):.0f} ms"))
    rows.append(("qwirkle validate complete-2p.json", f"{command_ms([*qwirkle, 'validate', sample]):.0f} ms"))
    rows.extend(view_rows(qwirkle))

    print(f"corpus: {n} games, {turns:.1f} turns per game, racks and draws recorded; one core")
    width = max(len(a) for a, _ in rows)
    for a, b in rows:
        print(f"{a:<{width}}  {b:>16}")


if __name__ == "__main__":
    main()
