"""The referee's watchdog: a small process that kills the bots' process groups
when the process that started them dies, however it dies (``kill -9`` included).

A bot is started in a process group of its own, and on Linux with a signal
that kills it when its parent dies (``PR_SET_PDEATHSIG``); but that signal
reaches the bot alone, not the processes the bot started. So each process
that starts bots (the referee, a ``--jobs`` worker, a Dask worker) starts
one watchdog beside them, in a session of its own (a Ctrl-C at the terminal
does not reach it), and tells it over a pipe each group it starts
(``+PGID``) and ends (``-PGID``). When the pipe's far end closes (the
process that started the bots is gone: it ended, was killed, crashed), the
watchdog kills every group it still knows and exits.

What is beyond its reach: a process that leaves its group (``setsid``,
``setpgid``) is no longer killed with the group, nor is a group that a
bot made itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

_WATCHDOG = r"""
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
groups = set()
try:
    for line in sys.stdin.buffer:
        try:
            group = int(line[1:])
        except ValueError:
            continue
        if line[:1] == b"+":
            groups.add(group)
        else:
            groups.discard(group)
finally:
    for group in groups:
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass
"""
"""The watchdog's program: the groups it is told of, killed once its input ends."""


class _Watchdog:
    """This process's watchdog, started with the first group it is to watch."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.owner = 0  # the process that started it (a forked child starts its own)
        self.lock = threading.RLock()  # (a SIGTERM handler may forget a group while this thread tells one)

    def tell(self, line: bytes, start: bool) -> None:
        with self.lock:
            if self.proc is None or self.owner != os.getpid() or self.proc.poll() is not None:
                if not start:
                    return
                self._start()
            assert self.proc is not None and self.proc.stdin is not None
            try:
                os.write(self.proc.stdin.fileno(), line)
            except OSError:  # it died (someone killed it): the next group starts another
                self.proc = None

    def _start(self) -> None:
        try:
            self.proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", _WATCHDOG], stdin=subprocess.PIPE,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                                         close_fds=True)
        except OSError:
            self.proc = None  # no watchdog: the bots still die with their parent (PR_SET_PDEATHSIG)
            return
        self.owner = os.getpid()

    def forked(self) -> None:
        """In a forked child: the parent's watchdog is the parent's (its pipe is closed here)."""
        proc, self.proc = self.proc, None
        self.lock = threading.RLock()  # (a SIGTERM handler may forget a group while this thread tells one)
        if proc is not None and proc.stdin is not None:
            try:
                proc.stdin.close()  # (this process's copy of the pipe: the parent's stays open)
            except OSError:
                pass
            proc.returncode = 0  # (never waited for here: it is not this process's child)


_DOG = _Watchdog()
os.register_at_fork(after_in_child=_DOG.forked)


def watch(group: int) -> None:
    """Have the watchdog kill process group ``group`` if this process dies before :func:`forget`."""
    _DOG.tell(b"+%d\n" % group, start=True)


def forget(group: int) -> None:
    """Group ``group`` is gone (it was killed): the watchdog no longer minds it."""
    _DOG.tell(b"-%d\n" % group, start=False)


__all__ = ["forget", "watch"]
