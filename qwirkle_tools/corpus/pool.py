"""The process pool of the corpus runs: ``map`` over several processes, in
order, with bounded memory (:func:`ordered_map`); the workers leave Ctrl-C
to this process and end when it is gone."""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future

T = TypeVar("T")
R = TypeVar("R")


def _each(fn: Callable[[T], R], batch: list[T]) -> list[R]:
    return [fn(x) for x in batch]


def ordered_map(fn: Callable[[T], R], items: Iterable[T], jobs: int = 1, batch: int = 16,
                worker_exit: Callable[[], None] | None = None) -> Iterator[R]:
    """``map(fn, items)`` over ``jobs`` processes, in order, with bounded memory.

    At most a few batches per process are in flight, so a corpus of any size
    is streamed; ``fn`` must be picklable (a module-level function, or a
    :func:`functools.partial` of one). The workers leave Ctrl-C to this
    process (which stops them when the run is interrupted or abandoned) and
    exit by themselves within a second or so if this process dies.
    ``worker_exit`` (picklable too), if given, is called in each worker as it
    ends, however it ends but ``kill -9``: when the pool shuts down, when it
    is stopped (SIGTERM), when this process is gone (a matches' workers close
    their bots so).
    """
    if jobs <= 1:
        _settled()
        yield from map(fn, items)
        return
    it = iter(items)
    from concurrent.futures import ProcessPoolExecutor  # (a run of one process needs none of it)

    pending: deque[Future[list[R]]] = deque()
    pool = ProcessPoolExecutor(jobs, initializer=_worker_start, initargs=(os.getpid(), worker_exit))
    finished = False
    try:
        while chunk := list(islice(it, batch)):
            pending.append(pool.submit(_each, fn, chunk))
            if len(pending) >= 3 * jobs:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
        finished = True
    finally:
        if finished:
            pool.shutdown()
        else:  # interrupted or abandoned: the batches under way are not waited for
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
            # a worker ended while it sent an answer leaves half a message in the pool's pipe: with this
            # process's copy of the pipe's writing end closed, the pool's reader meets the pipe's end
            # once the workers are gone, rather than waiting for the rest (and the interpreter's exit with it)
            writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
            if writer is not None:
                writer.close()
            pool.shutdown(wait=False)  # (its futures fail with the pool; nobody waits for them)


def _settled() -> None:
    """The modules loaded, their objects are left out of the collector's passes from now on
    (``gc.freeze``): a corpus run makes millions of short-lived objects, and each full pass
    would walk every module's objects again (validate and self-play 9 to 13 % faster)."""
    import gc

    gc.freeze()


def _worker_start(parent: int, worker_exit: Callable[[], None] | None = None) -> None:
    """In each worker: Ctrl-C is the parent's to handle; SIGTERM ends the
    worker (after ``worker_exit``); and a thread ends it when the parent is
    gone (``kill -9``), by a SIGTERM of its own."""
    import signal
    import threading
    import time

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if worker_exit is None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    else:
        from multiprocessing.util import Finalize

        Finalize(None, worker_exit, exitpriority=100)  # (run as the worker ends its work normally)

        def ended(number: int, frame: object) -> None:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)  # (once)
            try:
                worker_exit()
            finally:
                os._exit(128 + number)

        signal.signal(signal.SIGTERM, ended)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        if worker_exit is None:
            os._exit(1)
        os.kill(os.getpid(), signal.SIGTERM)  # the main thread ends the worker, as if it were stopped
        time.sleep(5)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    _settled()


__all__ = ["ordered_map"]
