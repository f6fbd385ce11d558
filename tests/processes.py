"""Helpers of the tests that start bots: a hostile bot's spec, and the processes left behind."""

from __future__ import annotations

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


def wait_for(token: str, count: int = 1, within: float = 60) -> None:
    """Wait until ``count`` processes hold ``token``."""
    deadline = time.monotonic() + within
    while len(processes_with(token)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(processes_with(token)) >= count, f"no {count} processes with {token} started"
