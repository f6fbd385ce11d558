"""Helpers of the tests that start bots: a hostile bot's spec, and the processes left behind."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

BOTS = Path(__file__).parent / "programs"
PY = sys.executable


def hostile(mode: str, token: str = "") -> str:
    """The spec of ``tests/programs/hostile.py`` in ``mode`` (``token`` marks its processes)."""
    return f"cmd:{PY} {BOTS / 'hostile.py'} {mode} {token}".rstrip()


def processes_with(token: str) -> list[int]:
    """The processes whose command line holds ``token``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if token.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def gone(token: str, within: float = 10) -> bool:
    """Whether no process holds ``token`` (a killed process may take a moment to go)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not processes_with(token):
            time.sleep(0.05)  # twice, a moment apart: a process in the middle of an exec shows no command line
            if not processes_with(token):
                return True
        time.sleep(0.05)
    return processes_with(token) == []


def wait_for(token: str, count: int = 1, within: float = 60, alive: subprocess.Popen[str] | None = None) -> None:
    """Wait until ``count`` processes hold ``token``.

    With ``alive`` (a process started with its stderr piped, and with ``-X faulthandler``), fail at once if it
    ends first; if the wait runs out, abort it (its Python stacks go to its stderr) and show the process table:
    either way the failure shows its code and stderr.
    """
    start = time.monotonic()
    deadline = start + within
    while True:  # one count decides: counted again, a count seen may have fallen back (a referee with --jobs
        found = len(processes_with(token))  # closes the bot it asked for its name before its workers start theirs)
        if found >= count:
            return
        if time.monotonic() >= deadline or (alive is not None and alive.poll() is not None):
            break
        time.sleep(0.05)
    said = f"within {within:g} s (after {time.monotonic() - start:.1f} s)"
    if alive is not None:
        if alive.poll() is None:
            said += f", so it was aborted; the processes then:\n{process_table()}"
            alive.send_signal(signal.SIGABRT)  # (faulthandler prints every thread's stack)
            try:
                alive.wait(10)
            except subprocess.TimeoutExpired:
                alive.kill()
        else:
            said = "when the process it waited on ended"
        said += f" (code {alive.wait()}), saying:\n{alive.communicate()[1]}"
    raise AssertionError(f"{found}, not {count}, processes with {token} {said}")


def process_table() -> str:
    """Every process (read from /proc: ``ps`` may be missing): its id, parent, group, state, where it waits in
    the kernel, and its command line."""
    rows = []
    for entry in sorted((e for e in Path("/proc").iterdir() if e.name.isdigit()), key=lambda e: int(e.name)):
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()  # state, ppid, pgrp, ...
            wchan = (entry / "wchan").read_text() if (entry / "wchan").exists() else "?"
            args = " ".join((entry / "cmdline").read_bytes().decode(errors="replace").split())
        except (OSError, ValueError):
            continue
        if args:  # (not a kernel thread)
            rows.append(f"{entry.name:>7} {fields[1]:>7} {fields[2]:>7} {fields[0]} {wchan or '-':<24} {args[:160]}")
    return "\n".join(["    pid    ppid    pgid S wchan                    args", *rows])
