"""Corpus work on Dask (``--dask``): the same output as ``--jobs``, mergeable
summaries, blocks of lines, faults and cancelling.

One ``LocalCluster`` of two worker processes serves the whole module (start-up
is slow); the tests that use a scheduler and workers started as separate
processes are in ``test_cluster_processes.py``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from functools import reduce
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli_stats import run as cli
from test_corpus import corpus

from qwirkle_tools.analysis.validate import Report, Tally
from qwirkle_tools.corpus import cluster
from qwirkle_tools.corpus.rows import GameRows, game_rows, report, run
from qwirkle_tools.corpus.stats import Stats
from qwirkle_tools.engines.selfplay import simulate_line
from qwirkle_tools.formats.sources import Source, sources

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "sample_games"




@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A LocalCluster of two worker processes, one thread each, on 127.0.0.1, its
    scratch space in a temporary folder of the test run (not /tmp/dask-scratch-space)."""
    import dask

    scratch = str(tmp_path_factory.mktemp("dask"))
    with dask.config.set({"temporary-directory": scratch}), distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None,
            silence_logs=50, local_directory=scratch) as local:
        yield local.scheduler_address


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder: a simulated corpus with broken lines (bad JSON, a blank line,
    schema-invalid, an illegal game, a cut line at the end), the mixed corpus
    of test_corpus, and the sample games."""
    folder = tmp_path_factory.mktemp("games")
    lines = [simulate_line(i, 2 + i % 3, seed=5) for i in range(24)]
    lines[3] = b"{not json\n"
    lines[7] = b"\n"
    lines[11] = b'{"format": "qwirkle-record", "version": 1, "players": [], "turns": 5}\n'
    illegal = json.loads(lines[15])
    illegal["turns"][2]["score"] = illegal["turns"][2].get("score", 0) + 1  # a wrong claim: an error
    lines[15] = (json.dumps(illegal) + "\n").encode()
    (folder / "a-sim.jsonl").write_bytes(b"".join(lines) + lines[0][:100])  # the last line cut short
    corpus(folder)  # mixed.jsonl
    for sample in sorted(SAMPLES.glob("*.json")):
        (folder / f"z-{sample.name}").write_bytes(sample.read_bytes())
    return folder


# -- mergeable summaries ----------------------------------------------------------

def pool() -> list[GameRows]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        mixed = corpus(Path(tmp))
        return list(run([mixed, SAMPLES])) + list(run([SAMPLES / "corpus-10.jsonl"], analyse=True))


POOL = pool()


def summary(rows: list[GameRows]) -> Stats:
    stats = Stats()
    for r in rows:
        stats.add(r)
    return stats


parts = st.lists(st.lists(st.sampled_from(POOL), max_size=6), min_size=1, max_size=5)


@settings(max_examples=60, deadline=None)
@given(parts)
def test_merging_the_parts_gives_the_whole(chunks: list[list[GameRows]]) -> None:
    whole = summary([r for chunk in chunks for r in chunk])
    merged = reduce(Stats.merge, [summary(c) for c in chunks], Stats())
    assert merged == whole
    assert merged.text() == whole.text() and merged.to_data() == whole.to_data()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(POOL), max_size=5), st.lists(st.sampled_from(POOL), max_size=5),
       st.lists(st.sampled_from(POOL), max_size=5))
def test_merge_is_associative_and_commutative(a: list[GameRows], b: list[GameRows], c: list[GameRows]) -> None:
    x, y, z = summary(a), summary(b), summary(c)
    assert x.merge(y).merge(z) == x.merge(y.merge(z))
    assert x.merge(y) == y.merge(x)
    assert Stats().merge(x) == x
    assert x == summary(a)  # merging changes neither part


@given(st.lists(st.tuples(*[st.integers(0, 50)] * 4), max_size=6))
def test_tallies_merge(counts: list[tuple[int, int, int, int]]) -> None:
    tallies = [Tally(*c) for c in counts]
    merged = reduce(Tally.merge, tallies, Tally())
    assert merged.to_data()["records"] == sum(c[0] for c in counts)
    assert merged.errors == sum(c[2] for c in counts) and merged.warnings == sum(c[3] for c in counts)


def test_a_record_that_fails_on_a_worker_is_a_finding(games: Path) -> None:
    def fragile(source: Source) -> GameRows:
        if source.index == 2:
            raise MemoryError("out of memory")
        return game_rows(source)

    found = cluster.inputs([games / "a-sim.jsonl"])[0]
    block = cluster.Block(found.name, found.location, 0, found.size, 1)
    result = cluster.stats_block(block, fn=fragile)
    assert result.records == 24 and result.stats.codes["internal"] == 1
    assert result.broken[0] == f"{games / 'a-sim.jsonl'}:2: internal: the check failed: MemoryError: out of memory"

    def fragile_report(source: Source) -> Report:
        if source.index == 2:
            raise RecursionError("too deep")
        return report(source)

    checked = cluster.validate_block(block, fn=fragile_report)
    assert checked.records == 24 and checked.tally.invalid == 5  # the 4 broken lines and line 2
    assert [f.code for f in checked.reports[0].findings] == ["internal"] and checked.reports[0].index == 2


# -- blocks of lines --------------------------------------------------------------

@pytest.mark.parametrize("step", [997, 14_000, 50_000, 10**9])
def test_blocks_cover_every_line_once_with_its_number(address: str, games: Path, step: int) -> None:
    found = cluster.inputs([games])
    with distributed.Client(address) as client:
        blocks = cluster.plan(client, found, step)
    assert [s for b in blocks for s in b.sources()] == list(sources([games]))
    assert len(blocks) > 3 if step < 20_000 else True


def test_a_corpus_of_blank_lines_fails_before_any_work(address: str, tmp_path: Path) -> None:
    (tmp_path / "blank.jsonl").write_bytes(b"\n  \n\n")
    code, out, err = cli("stats", str(tmp_path / "blank.jsonl"), "--dask", address)
    assert (code, out) == (2, "") and "no records in this corpus" in err


# -- the same answer everywhere -------------------------------------------------

def three_ways(address: str, *args: str) -> list[tuple[int, str]]:
    """The exit code and output of a command with --jobs 1, --jobs 2 and --dask."""
    runs = [args + ("--jobs", "1"), args + ("--jobs", "2"), args + ("--dask", address)]
    return [cli(*a)[:2] for a in runs]


@pytest.mark.parametrize("args", [(), ("--format", "json"), ("--quiet",)])
def test_validate_gives_the_same_output_three_ways(address: str, games: Path, args: tuple[str, ...]) -> None:
    outputs = three_ways(address, "validate", str(games), *args)
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0][0] == 1 and "records" in outputs[0][1]


@pytest.mark.parametrize("args", [(), ("--analyse",), ("--analyse", "--format", "json")])
def test_stats_gives_the_same_output_three_ways(address: str, games: Path, args: tuple[str, ...]) -> None:
    outputs = three_ways(address, "stats", str(games), *args)
    assert outputs[0] == outputs[1] == outputs[2]
    code, out = outputs[0]
    assert code == 1
    if "json" not in args:  # the broken records are listed, in corpus order
        listed = [line.split(":")[1] for line in out.splitlines() if line.startswith(str(games / "a-sim.jsonl"))]
        assert listed == ["4", "12", "16", "25"]


def test_stats_tables_are_the_same_three_ways(address: str, games: Path, tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    csv, parquet = [], []
    for i, how in enumerate([("--jobs", "1"), ("--jobs", "2"), ("--dask", address)]):
        code, _, _ = cli("stats", str(games), "--analyse", "--csv", str(tmp_path / f"csv{i}"), *how)
        assert code == 1
        csv.append({p.name: p.read_bytes() for p in (tmp_path / f"csv{i}").iterdir()})
        cli("stats", str(games), "--parquet", str(tmp_path / f"pq{i}"), *how)
        parquet.append({name: pd.read_parquet(tmp_path / f"pq{i}" / f"{name}.parquet") for name in ("games", "turns")})
    assert csv[0] == csv[1] == csv[2] and csv[0]["turns.csv"].count(b"\n") > 1000
    for name in ("games", "turns"):
        pd.testing.assert_frame_equal(parquet[0][name], parquet[2][name])


def test_simulate_gives_the_same_games_on_the_cluster(address: str, tmp_path: Path) -> None:
    cli("simulate", "--games", "70", "--players", "3", "--seed", "9", "-o", str(tmp_path / "local.jsonl"))
    code, _, _ = cli("simulate", "--games", "70", "--players", "3", "--seed", "9", "--dask", address,
                     "-o", str(tmp_path / "dask.jsonl"))
    assert code == 0
    assert (tmp_path / "local.jsonl").read_bytes() == (tmp_path / "dask.jsonl").read_bytes()


def test_fsspec_urls_are_read_on_the_workers(address: str, games: Path) -> None:
    path = games / "a-sim.jsonl"
    _, local, _ = cli("stats", str(path))
    code, remote, _ = cli("stats", path.as_uri(), "--dask", address)
    assert code == 1
    assert remote.replace(path.as_uri(), str(path)) == local
    _, local, _ = cli("validate", str(games))
    code, remote, _ = cli("validate", games.as_uri(), "--dask", address)  # a folder
    assert code == 1 and remote.replace(games.as_uri(), str(games)) == local
    code, _, err = cli("validate", (games / "nope").as_uri(), "--dask", address)
    assert code == 2 and err == f"qwirkle: {(games / 'nope').as_uri()}: no such file or folder\n"


# -- faults -----------------------------------------------------------------------

def test_a_missing_file_fails_before_the_cluster_is_reached(games: Path) -> None:
    for command in ("stats", "validate"):
        code, out, err = cli(command, str(games), str(games / "nope.jsonl"), "--dask", "tcp://127.0.0.1:9")
        assert (code, out) == (2, "")
        assert err == f"qwirkle: {games / 'nope.jsonl'}: no such file or folder\n"


def test_no_scheduler_at_the_address_is_a_cluster_error() -> None:
    with pytest.raises(cluster.ClusterError, match="^cannot reach the Dask scheduler at tcp://127.0.0.1:9: "):
        with cluster.connect("tcp://127.0.0.1:9", timeout=0.5):
            pass


def collect(blocks: cluster.Run[cluster.StatsBlock]) -> tuple[str, list[str], list[GameRows]]:
    merged, broken, rows = Stats(), [], []
    for block in blocks:
        merged = merged.merge(block.stats)
        broken.extend(block.broken)
        rows.extend(block.rows or ())
    return merged.text(), broken, rows


@pytest.mark.serial
def test_a_worker_killed_mid_run_loses_nothing(address: str, games: Path) -> None:
    expected = list(run([games], analyse=True))
    blocks = cluster.stats([games], address, analyse=True, rows=True, block_bytes=8_000)
    it = iter(blocks)
    first = next(it)  # the run is under way, blocks queued on both workers
    with distributed.Client(address) as client:
        pids = client.run(os.getpid)
        killed = sorted(pids.values())[0]
        os.kill(killed, signal.SIGKILL)
        text, broken, rows = collect(cluster.Run(0, iter([first, *it])))
        client.wait_for_workers(2, timeout=60)
        assert killed not in client.run(os.getpid).values()  # killed, and replaced by the nanny for the next tests
    assert rows == expected
    assert broken == [line for r in expected if (line := r.broken_line()) is not None]
    assert text == summary(expected).text()


@pytest.mark.serial
def test_closing_a_run_cancels_its_work(address: str, games: Path) -> None:
    blocks = cluster.stats([games], address, analyse=True, block_bytes=4_000)
    next(iter(blocks))
    blocks.close()
    with distributed.Client(address) as client:
        deadline = time.monotonic() + 20
        while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) == 0


def test_dask_local_starts_and_closes_its_own_cluster(games: Path) -> None:
    path = str(games / "mixed.jsonl")
    assert cli("stats", path, "--dask", "local", "--jobs", "2")[:2] == cli("stats", path)[:2]


def test_plain_commands_never_import_dask(games: Path) -> None:
    code = ("import sys\n"
            "from qwirkle_tools.cli.launch import main\n"
            "for argv in (['--help'], ['validate', sys.argv[1]], ['stats', sys.argv[1], '--jobs', '2']):\n"
            "    sys.argv = ['qwirkle', *argv]\n"
            "    try:\n"
            "        main()\n"
            "    except SystemExit:\n"
            "        pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed', 'fsspec')))\n")
    proc = subprocess.run([sys.executable, "-c", code, str(games / "mixed.jsonl")], capture_output=True, text=True)
    assert proc.stdout.splitlines()[-1] == "[]"


# -- URLs and long lines ------------------------------------------------------------

def test_a_member_of_a_zip_archive_reads_as_the_file(address: str, games: Path, tmp_path: Path) -> None:
    import zipfile

    archive = tmp_path / "games.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(games / "a-sim.jsonl", "in/a-sim.jsonl")
        z.write(games / "z-complete-2p.json", "in/z-complete-2p.json")
    _, local, _ = cli("stats", str(games / "a-sim.jsonl"))
    url = f"zip://in/a-sim.jsonl::{archive.as_uri()}"
    code, remote, err = cli("stats", url, "--dask", address)
    assert code == 1 and remote.replace(url, str(games / "a-sim.jsonl")) == local, err
    code, remote, _ = cli("validate", f"zip://in::{archive.as_uri()}", "--dask", address)  # a folder of the archive
    assert code == 1 and f"zip://in/a-sim.jsonl::{archive.as_uri()}:4: json: " in remote
    _, both, _ = cli("validate", str(games / "a-sim.jsonl"), str(games / "z-complete-2p.json"))
    assert remote.splitlines()[-1] == both.splitlines()[-1]


class Counting:
    """A binary file that counts the bytes read from it in ``total``."""

    def __init__(self, handle: Any, total: list[int]) -> None:
        self.handle, self.total = handle, total

    def read(self, size: int = -1) -> bytes:
        data: bytes = self.handle.read(size)
        self.total[0] += len(data)
        return data

    def readline(self, size: int = -1) -> bytes:
        data: bytes = self.handle.readline(size)
        self.total[0] += len(data)
        return data

    def seek(self, offset: int) -> int:
        return int(self.handle.seek(offset))

    def tell(self) -> int:
        return int(self.handle.tell())

    def __enter__(self) -> Counting:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()


def test_a_long_line_is_read_once_by_the_block_that_owns_it(games: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from qwirkle_tools.formats import sources as reading

    head = (games / "a-sim.jsonl").read_bytes().split(b"\n")[0] + b"\n"
    path = tmp_path / "long.jsonl"
    path.write_bytes(head + b'{"x": "' + b"a" * 3_000_000 + b'"}\n' + head)
    read = [0]
    opened = reading.open_input
    monkeypatch.setattr(reading, "open_input", lambda location: Counting(opened(location), read))
    size, step = path.stat().st_size, 50_000
    starts = range(0, size, step)
    records = [s for start in starts for s in reading.block_sources(str(path), str(path), start, min(start + step, size), 1)]
    assert [len(r.text or b"") for r in records] == [len(head), 3_000_010, len(head)]
    # each byte at most twice: read by the block that owns its line, skipped by the block it falls in (and
    # plan() gives no block to a range inside a line); not once per block up to the line's end
    assert read[0] <= 2 * size + len(starts)


def test_plan_gives_no_block_to_a_range_inside_a_line(address: str, tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    path.write_bytes(b'{"x": "' + b"a" * 1_000_000 + b'"}\n' + b"{}\n" * 10)
    with distributed.Client(address) as client:
        blocks = cluster.plan(client, cluster.inputs([path]), 100_000)
    assert [(b.start, b.first_line) for b in blocks] == [(0, 1), (1_000_000, 2)]


def test_an_empty_corpus_beside_other_inputs_is_one_finding_in_its_place(address: str, tmp_path: Path) -> None:
    for sample in ("complete-2p.json", "296-295.json"):
        (tmp_path / sample).write_bytes((SAMPLES / sample).read_bytes())
    (tmp_path / "b-blank.jsonl").write_bytes(b"\n  \n\n")
    (tmp_path / "c-empty.jsonl").write_bytes(b"")
    found = cluster.inputs([tmp_path])
    with distributed.Client(address) as client:
        blocks = cluster.plan(client, found, 997)
    assert [s for b in blocks for s in b.sources()] == list(sources([tmp_path]))
    for command in ("validate", "stats"):
        runs = three_ways(address, command, str(tmp_path))
        assert runs[0] == runs[1] == runs[2], runs
        code, out = runs[0]
        assert code == 1 and f"{tmp_path / 'b-blank.jsonl'}: empty-file: holds no record" in out
        assert f"{tmp_path / 'c-empty.jsonl'}: empty-file: holds no record" in out
        assert "4 records" in out
