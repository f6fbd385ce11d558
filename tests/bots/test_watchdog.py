"""The watchdog (qwirkle_tools.bots.watchdog): a process group it was told of dies with the process that told it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest
from processes import gone, processes_with, wait_for

pytestmark = pytest.mark.serial  # it sends signals or times processes: run alone (see the development page)

STARTER = textwrap.dedent("""
    import os, subprocess, sys, time
    from qwirkle_tools.bots import watchdog
    token = sys.argv[1]
    # a group of two: a leader and a child of its own (what PR_SET_PDEATHSIG alone does not reach)
    leader = subprocess.Popen([sys.executable, "-c", f"import subprocess, sys, time; "
                               f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)  # {token}']); "
                               f"time.sleep(600)  # {token}"], start_new_session=True)
    watchdog.watch(leader.pid)
    if sys.argv[2] == "forget":
        watchdog.forget(leader.pid)
    print("ready", flush=True)
    time.sleep(600)
""")


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_watched_group_dies_with_the_process_that_started_it(how: signal.Signals) -> None:
    token = f"qwirkle-test-watchdog-{how}-{os.getpid()}"
    starter = subprocess.Popen([sys.executable, "-c", STARTER, token, "watch"], stdout=subprocess.PIPE, text=True)
    assert starter.stdout is not None and starter.stdout.readline() == "ready\n"
    wait_for(token, 2)
    starter.send_signal(how)
    starter.wait(10)
    assert gone(token), "the group outlived its starter"


def test_a_group_forgotten_is_left_alone() -> None:
    token = f"qwirkle-test-watchdog-forget-{os.getpid()}"
    starter = subprocess.Popen([sys.executable, "-c", STARTER, token, "forget"], stdout=subprocess.PIPE, text=True)
    assert starter.stdout is not None and starter.stdout.readline() == "ready\n"
    wait_for(token, 2)
    starter.kill()
    starter.wait(10)
    try:
        assert not gone(token, within=1.0)  # (told it was gone: not the watchdog's to kill)
    finally:
        for pid in processes_with(token):
            os.kill(pid, signal.SIGKILL)


REENTERED = textwrap.dedent("""
    import signal, subprocess, sys
    from qwirkle_tools.bots import watchdog
    leader = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    def stopped(number, frame):  # a --jobs worker's SIGTERM handler closes its bots: the watchdog forgets them
        watchdog.forget(leader.pid)
        print("forgotten", flush=True)
    signal.signal(signal.SIGTERM, stopped)
    watchdog.watch(leader.pid)
    with watchdog._DOG.lock:  # the signal lands while this thread tells the watchdog of a group
        signal.raise_signal(signal.SIGTERM)
    leader.kill()
""")


def test_a_group_forgotten_while_the_watchdog_is_told_of_one_does_not_deadlock() -> None:
    done = subprocess.run([sys.executable, "-c", REENTERED], capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout) == (0, "forgotten\n"), done.stderr
