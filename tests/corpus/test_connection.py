"""The host process of ``--dask local`` (:func:`qwirkle_tools.corpus.connection._local`):
however the run ends, it leaves no process and no file behind."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_signals import dask_leftovers

pytest.importorskip("distributed")

ROOT = Path(__file__).parents[2]

INTERRUPTED_WHILE_IT_CLOSES = textwrap.dedent("""
    import os, signal, subprocess, threading, time

    hosts = []

    class Recorded(subprocess.Popen):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            hosts.append(self)

    subprocess.Popen = Recorded
    from qwirkle_tools.corpus import connection

    def interrupt_once_the_host_is_asked_to_close():
        while not hosts[0].stdin.closed:
            time.sleep(0.001)
        print("host closing:", hosts[0].poll() is None, flush=True)
        os.kill(os.getpid(), signal.SIGINT)

    try:
        with connection._local(1) as address:
            print(address()[:6], flush=True)
            threading.Thread(target=interrupt_once_the_host_is_asked_to_close, daemon=True).start()
    except KeyboardInterrupt:
        print("interrupted", flush=True)
""")


@pytest.mark.serial
def test_ctrl_c_while_the_local_cluster_closes_still_removes_it_all(tmp_path: Path) -> None:
    # Seen in CI: an interrupt during the wait for the host cut the clean-up short and left its folder
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    done = subprocess.run([sys.executable, "-c", INTERRUPTED_WHILE_IT_CLOSES], capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp)})
    assert done.stdout.splitlines() == ["tcp://", "host closing: True", "interrupted"], done.stderr
    assert dask_leftovers(tmp) == ([], [])  # at once: the host and its workers were killed and reaped
