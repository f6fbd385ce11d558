"""The host process of ``--dask local`` (:func:`qwirkle_tools.corpus.connection._local`):
however the run ends, it leaves no process and no file behind."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from test_signals import dask_leftovers

pytest.importorskip("distributed")

ROOT = Path(__file__).parents[2]
SHM = Path("/dev/shm")

INTERRUPTED_WHILE_IT_CLOSES = textwrap.dedent("""
    import signal, subprocess, sys, threading, time

    hosts, closes = [], []

    class Recorded(subprocess.Popen):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            hosts.append(self)

    subprocess.Popen = Recorded
    from qwirkle_tools.corpus import connection

    close = connection._close

    def counted(process):
        closes.append(time.monotonic())
        close(process)

    connection._close = counted

    def interrupt(times):  # the main thread, while it waits for the host to close its cluster
        while hosts[0].poll() is None and not hosts[0].stdin.closed:
            time.sleep(0.001)
        print("host closing:", hosts[0].poll() is None, flush=True)
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
        if times == 2:  # again once the first was raised (the wait taken up again)
            while len(closes) < 2 and hosts[0].poll() is None:
                time.sleep(0.001)
            print("host still closing:", hosts[0].poll() is None, flush=True)
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    try:
        with connection._local(1) as address:
            print(address()[:6], flush=True)
            threading.Thread(target=interrupt, args=(int(sys.argv[1]),)).start()
    except KeyboardInterrupt:
        print("interrupted", "(killed)" if hosts[0].returncode < 0 else "(closed)", flush=True)
""")


def semaphores() -> set[str]:
    return {p.name for p in SHM.glob("sem.mp-*")} if SHM.is_dir() else set()


@pytest.mark.serial
@pytest.mark.parametrize("times", [1, 2])
def test_ctrl_c_while_the_local_cluster_closes_removes_it_all(tmp_path: Path, times: int) -> None:
    # Seen in CI: an interrupt during the wait for the host cut the clean-up short and left its folder.
    # Once, the host is let finish its close (a kill would leave its workers' semaphores); twice, it is killed.
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    before = semaphores()
    done = subprocess.run([sys.executable, "-c", INTERRUPTED_WHILE_IT_CLOSES, str(times)], capture_output=True,
                          text=True, timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                                                       "TMPDIR": str(tmp)})
    lines = done.stdout.splitlines()
    assert lines == ["tcp://", "host closing: True", "interrupted (closed)"] if times == 1 else \
        ["tcp://", "host closing: True", "host still closing: True", "interrupted (killed)"], done.stderr
    assert dask_leftovers(tmp)[0] == []  # the folder removed at once
    deadline = time.monotonic() + 15  # (killed workers are reaped by whoever adopted them)
    while dask_leftovers(tmp)[1] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert dask_leftovers(tmp) == ([], [])
    if times == 1:
        assert semaphores() <= before
