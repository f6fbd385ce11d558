"""Calls into compiled extensions (orjson, jsonschema-rs) made safe from signals.

Python runs a signal handler between bytecodes; an extension written in Rust
that runs Python code of its own (an import, a callback) can have Ctrl-C
raised inside that code, and turns the exception into a panic with its own
text on stderr. :func:`signals_held` holds SIGINT and SIGTERM back while such
an extension runs: they arrive, as usual, as soon as it returns.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for the block (in the main thread; elsewhere
    Python does not deliver them anyway)."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


__all__ = ["signals_held"]
