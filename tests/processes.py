"""Helpers of the tests that start bots: a hostile bot's spec, and the processes left behind."""

from __future__ import annotations

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
    while processes_with(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    return processes_with(token) == []


def wait_for(token: str, count: int = 1, within: float = 60, alive: subprocess.Popen[str] | None = None) -> None:
    """Wait until ``count`` processes hold ``token``.

    With ``alive`` (a process started with its stderr piped), fail at once if it ends first, and kill it if the
    wait fails: either way the failure shows its code and stderr.
    """
    deadline = time.monotonic() + within
    while len(processes_with(token)) < count and time.monotonic() < deadline:
        if alive is not None and alive.poll() is not None:
            break
        time.sleep(0.05)
    found = len(processes_with(token))
    if found >= count:
        return
    said = f"within {within:g} s"
    if alive is not None:
        if alive.poll() is None:
            alive.kill()
            said += ", so it was killed"
        else:
            said = "when the process it waited on ended"
        said += f" (code {alive.wait()}), saying:\n{alive.communicate()[1]}"
    raise AssertionError(f"{found}, not {count}, processes with {token} {said}")
