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
from pathlib import Path

import pytest
from test_cluster import cli, collect, summary
from test_corpus import corpus

from qwirkle_tools import cluster
from qwirkle_tools.corpus import run
from qwirkle_tools.simulate import simulate_line

distributed = pytest.importorskip("distributed")

DASK = Path(sys.executable).parent / "dask"
SAMPLES = Path(__file__).parent.parent / "sample_games"


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)  # dask's own way to shut down a worker or scheduler
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A scheduler and a worker command with two worker processes, started as processes."""
    folder = tmp_path_factory.mktemp("cluster")
    file = folder / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": folder}
    scheduler = subprocess.Popen([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                  "--scheduler-file", str(file)], **quiet)  # type: ignore[call-overload]
    workers = None
    try:
        deadline, address = time.monotonic() + 60, None
        while address is None and time.monotonic() < deadline:
            try:
                address = json.loads(file.read_text())["address"]
            except (OSError, ValueError, KeyError):  # not there yet, or half written
                time.sleep(0.1)
        assert address is not None, "the scheduler did not start"
        workers = subprocess.Popen([str(DASK), "worker", address, "--nworkers", "2", "--nthreads", "1",
                                    "--host", "127.0.0.1", "--no-dashboard"], **quiet)  # type: ignore[call-overload]
        with distributed.Client(address) as client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        if workers is not None:
            stop(workers)
        stop(scheduler)


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
