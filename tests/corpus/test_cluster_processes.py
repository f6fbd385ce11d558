"""``--dask tcp://...`` against a scheduler and workers started as separate
processes (``dask scheduler``, ``dask worker``) on 127.0.0.1, as on a cluster
of machines: the output is that of ``--jobs``, and a killed worker process
loses nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from test_cluster import cli, collect, summary
from test_corpus import corpus

from qwirkle_tools.corpus import cluster
from qwirkle_tools.corpus.rows import run
from qwirkle_tools.engines.selfplay import simulate_line

distributed = pytest.importorskip("distributed")

DASK = Path(sys.executable).parent / "dask"
SAMPLES = Path(__file__).parents[2] / "sample_games"


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)  # dask's own way to shut down a worker or scheduler
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def processes(folder: Path, workers: int = 2) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """The address of a scheduler process and a worker command with ``workers``
    worker processes, and the scheduler's process; all stopped on the way out."""
    file = folder / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": folder}
    scheduler = subprocess.Popen([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                  "--scheduler-file", str(file)], **quiet)  # type: ignore[call-overload]
    worker = None
    try:
        deadline, address = time.monotonic() + 60, None
        while address is None and time.monotonic() < deadline:
            try:
                address = json.loads(file.read_text())["address"]
            except (OSError, ValueError, KeyError):  # not there yet, or half written
                time.sleep(0.1)
        assert address is not None, "the scheduler did not start"
        worker = subprocess.Popen([str(DASK), "worker", address, "--nworkers", str(workers), "--nthreads", "1",
                                   "--host", "127.0.0.1", "--no-dashboard"], **quiet)  # type: ignore[call-overload]
        with distributed.Client(address) as client:
            client.wait_for_workers(workers, timeout=60)
        yield address, scheduler
    finally:
        if worker is not None:
            stop(worker)
        stop(scheduler)


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A scheduler and a worker command with two worker processes, started as processes."""
    with processes(tmp_path_factory.mktemp("cluster")) as (address, _):
        yield address


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("games")
    lines = [simulate_line(i, 2, seed=11) for i in range(16)]
    lines[5] = b"[1, 2\n"
    (folder / "sim.jsonl").write_bytes(b"".join(lines))
    corpus(folder)
    return folder


@pytest.mark.parametrize("args", [("validate",), ("validate", "--format", "json"), ("stats", "--analyse")])
def test_separate_processes_give_the_output_of_jobs(address: str, games: Path, args: tuple[str, ...]) -> None:
    command, *rest = args
    local = cli(command, str(games), str(SAMPLES), *rest)[:2]
    assert cli(command, str(games), str(SAMPLES), *rest, "--dask", address)[:2] == local
    assert local[0] == 1


@pytest.mark.serial
def test_a_killed_worker_process_loses_nothing(address: str, games: Path) -> None:
    expected = list(run([games], analyse=True))
    blocks = cluster.stats([games], address, analyse=True, rows=True, block_bytes=6_000)
    it = iter(blocks)
    first = next(it)
    with distributed.Client(address) as client:
        killed = max(client.run(os.getpid).values())
        os.kill(killed, signal.SIGKILL)
        text, broken, rows = collect(cluster.Run(0, iter([first, *it])))
        client.wait_for_workers(2, timeout=60)
        assert killed not in client.run(os.getpid).values()  # it was killed, and replaced
    assert rows == expected and text == summary(expected).text()
    assert broken[0].startswith(f"{games / 'mixed.jsonl'}:2: json: ")


@pytest.mark.serial
def test_a_scheduler_killed_mid_run_is_one_line_and_exit_2(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_bytes(b"".join(simulate_line(i, 2, seed=3) for i in range(80)))
    with processes(tmp_path, workers=1) as (address, scheduler):
        run = subprocess.Popen([sys.executable, "-c", "from qwirkle_tools.cli.launch import main; main()", "stats",
                                str(corpus), "--analyse", "--dask", address, "--no-progress"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        with distributed.Client(address) as client:  # until the blocks are under way
            deadline = time.monotonic() + 60
            while not client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)):
                assert time.monotonic() < deadline and run.poll() is None, run.communicate()
                time.sleep(0.05)
        scheduler.kill()
        out, err = run.communicate(timeout=60)
    assert (run.returncode, out) == (2, ""), err
    assert err == f"qwirkle: the Dask scheduler at {address} went away\n"
