"""Reaching a Dask scheduler, or starting a cluster on this machine, for
the runs of :mod:`qwirkle_tools.corpus.cluster`.

:func:`connect` gives a client: of the scheduler at ``tcp://HOST:PORT`` or
``tls://HOST:PORT`` once its handshake came within :data:`TIMEOUT`
(:func:`handshake`: Dask's own timeout covers the connect only), or with
:data:`LOCAL` of a ``LocalCluster`` of worker processes started by a host
process of its own (:func:`_local`, ``python -m qwirkle_tools.corpus.connection``).
Needs the ``dask`` extra; nothing here imports it until a run starts.
"""

from __future__ import annotations

import contextlib
import os
import ssl
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import QwirkleError
from ..core.safetext import one_line
from ..core.text import count
from ..formats.fileio import scratch_folder
from ..formats.native import signals_held

Client = Any
"""A ``distributed.Client`` (typed loosely: distributed's API is not fully typed)."""

LOCAL = "local"
"""The address that starts a ``LocalCluster`` on this machine."""
SCHEMES = ("tcp", "tls")
"""The schemes of scheduler addresses this tool speaks to (not Dask's ``ucx``, ``ws``, ``inproc``)."""
TIMEOUT = 10.0
"""Seconds to reach a scheduler and hear its handshake."""
MAX_HANDSHAKE = 64 * 1024
"""Bytes a scheduler's handshake may claim (Dask's is under 100)."""
START_TIMEOUT = 120.0
"""Seconds ``--dask local`` waits for its cluster to start."""
CLOSE_TIMEOUT = 30.0
"""Seconds the host of ``--dask local`` has to close its cluster before it is killed."""

class ClusterError(QwirkleError):
    """The cluster cannot be used: dask missing, no scheduler at the address,
    or a block that kept killing its workers."""



@dataclass(frozen=True, slots=True)
class Address:
    """A scheduler's address: ``scheme`` (``tcp`` or ``tls``), host and port."""

    scheme: str
    host: str
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host  # an IPv6 address
        return f"{self.scheme}://{host}:{self.port}"


def scheduler_address(text: str) -> Address:
    """The scheduler address ``text`` names: ``tcp://HOST:PORT``, ``tls://HOST:PORT``,
    or ``HOST:PORT`` (tcp, as Dask reads it).

    >>> str(scheduler_address("tcp://10.0.0.5:8786")), str(scheduler_address("host1:8786"))
    ('tcp://10.0.0.5:8786', 'tcp://host1:8786')

    Raises:
        ClusterError: another scheme (Dask's ``ucx``, ``ws`` and ``inproc`` are
            not supported here), or no host or port.
    """
    from urllib.parse import urlsplit

    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    scheme = scheme.lower()
    usage = "give local, tcp://HOST:PORT or tls://HOST:PORT"
    if scheme not in SCHEMES:
        raise ClusterError(f"{one_line(text)}: not a scheduler address this tool can use ({usage})")
    try:
        parts = urlsplit(f"{scheme}://{rest}")
        host, port, extra = parts.hostname, parts.port, parts.path.strip("/") or parts.query or parts.fragment
    except ValueError:  # a port that is not a number, or out of range
        host, port, extra = None, None, ""
    if not host or port is None or extra:
        raise ClusterError(f"{one_line(text)}: not a scheduler address ({usage})")
    return Address(scheme, host, port)


def _hello() -> bytes:
    """A client's handshake, framed as Dask's TCP comm frames a message: the
    total size, the count of frames, each frame's size, then the one frame
    (a msgpack map)."""
    import importlib
    import pickle
    import struct
    import sys

    msgpack: Any = importlib.import_module("msgpack")  # a dependency of distributed
    frame: bytes = msgpack.packb({"compression": None, "python": tuple(sys.version_info[:3]),
                                  "pickle-protocol": pickle.HIGHEST_PROTOCOL})
    prelude = struct.pack("QQ", 1, len(frame))
    return struct.pack("Q", len(prelude) + len(frame)) + prelude + frame


def _is_handshake(body: bytes) -> bool:
    """Whether ``body`` (a message after its size) is a Dask handshake: frames
    whose first is a msgpack map naming the peer's Python."""
    import importlib
    import struct

    msgpack: Any = importlib.import_module("msgpack")
    if len(body) < 16:
        return False
    (frames,) = struct.unpack_from("Q", body)
    if not 1 <= frames <= (len(body) - 8) // 8:
        return False
    (first,) = struct.unpack_from("Q", body, 8)
    start = 8 + 8 * frames
    try:
        data = msgpack.unpackb(body[start:start + first], raw=False, strict_map_key=False)
    except Exception:  # msgpack's errors are of several kinds: any of them means "not a handshake"
        return False
    return isinstance(data, dict) and "python" in data


def handshake(address: Address, context: ssl.SSLContext | None = None, timeout: float | None = None) -> None:
    """Hear the handshake of the scheduler at ``address`` before Dask does:
    within ``timeout`` seconds in all (default :data:`TIMEOUT`; Dask's own
    timeout covers the connect only, then it waits for ever) and at most
    :data:`MAX_HANDSHAKE` bytes (Dask allocates whatever size a first frame
    claims, 2^62 bytes included). It sends a client's handshake first, so a
    scheduler logs nothing, and an HTTP server answers. It does not keep the
    connection; Dask makes its own.

    Raises:
        ClusterError: nobody listens, the endpoint stays silent, closes, or
            answers with something that is not a Dask handshake.
    """
    import socket
    import struct
    import time

    timeout = TIMEOUT if timeout is None else timeout
    shown = str(address)
    deadline = time.monotonic() + timeout

    def receive(sock: socket.socket, size: int) -> bytes:
        data = b""
        while len(data) < size:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            sock.settimeout(left)
            part = sock.recv(min(size - len(data), 1 << 16))
            if not part:
                said = f"after {count(len(data), 'byte')}" if data else "without a word"
                raise ClusterError(f"{shown} is not a Dask scheduler: it closed the connection {said}")
            data += part
        return data

    def not_dask(answer: bytes) -> ClusterError:
        line = answer.split(b"\n")[0].strip()
        text = line.decode("ascii")[:60] if line.isascii() and line.decode("ascii").isprintable() else repr(answer[:24])
        return ClusterError(f"{shown} is not a Dask scheduler: it answered {one_line(text)}")

    try:
        with socket.create_connection((address.host, address.port), timeout=timeout) as raw:
            sock = context.wrap_socket(raw, server_hostname=address.host) if context is not None else raw
            with sock:
                sock.sendall(_hello())
                if context is None:
                    with contextlib.suppress(OSError):  # (a peer that closed at once: said below)
                        sock.shutdown(socket.SHUT_WR)  # an HTTP server answers once the request ends
                head = receive(sock, 8)
                (size,) = struct.unpack("Q", head)
                if not 16 <= size <= MAX_HANDSHAKE:
                    sock.settimeout(0.2)
                    try:
                        head += sock.recv(52)
                    except OSError:
                        pass
                    raise not_dask(head)
                body = receive(sock, size)
                if not _is_handshake(body):
                    raise not_dask(head + body)
    except TimeoutError:
        raise ClusterError(f"the Dask scheduler at {shown} did not answer within {timeout:g} s "
                           "(a silent port, or not a Dask scheduler)") from None
    except ssl.SSLError as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {shown}: TLS failed: {exc.reason or exc}") from None
    except OSError as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {shown}: {exc.strerror or exc}") from None


@contextmanager
def _quiet() -> Iterator[None]:
    """Logging off while a run talks to Dask: its log lines (a reconnect's
    traceback, a closed comm) would print on stderr, and what went wrong
    reaches the caller as an error instead; nothing prints from the library."""
    import logging

    before = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(before)


@contextmanager
def connect(address: str, workers: int | None = None, timeout: float | None = None,
            security: Any = None) -> Iterator[Client]:
    """A client of the scheduler at ``address`` (``tcp://HOST:PORT`` or
    ``tls://HOST:PORT``), or with :data:`LOCAL` of a new ``LocalCluster`` of
    ``workers`` processes (default: one per core), one thread each, bound to
    127.0.0.1 with no dashboard, run by a process of its own (see
    :func:`_local`). ``timeout``: seconds to reach the scheduler and hear its
    handshake (default :data:`TIMEOUT`). ``security``: a
    ``distributed.Security`` for ``tls://``; without one, Dask's
    configuration (``distributed.comm.tls.*``) gives the certificates. What
    it started is closed on the way out, and Dask's logging is off meanwhile.

    Raises:
        ClusterError: dask is not installed, the address is not one this tool
            can use, or no scheduler answers there as a scheduler does.
    """
    import importlib
    import importlib.util

    if importlib.util.find_spec("distributed") is None:
        raise ClusterError("--dask needs dask and distributed: pip install 'qwirkle-tools[dask]'")
    timeout = TIMEOUT if timeout is None else timeout
    with _quiet(), contextlib.ExitStack() as stack:
        if address == LOCAL:
            host = stack.enter_context(_local(workers or os.cpu_count() or 1))
            distributed: Any = importlib.import_module("distributed")  # meanwhile the host starts its cluster
            where = host()
            security = None
        else:
            distributed = importlib.import_module("distributed")
            at = scheduler_address(address)
            context = None
            if at.scheme == "tls":
                try:
                    security = security if security is not None else distributed.Security()
                    context = security.get_connection_args("client")["ssl_context"]
                except (OSError, ValueError, TypeError) as exc:  # a missing or bad certificate file
                    raise ClusterError(f"cannot use TLS for {at}: {exc}") from None
                if context is None:
                    raise ClusterError(f"{at}: TLS needs certificates: set Dask's distributed.comm.tls.ca-file, "
                                       "distributed.comm.tls.client.cert and .key (see docs/bot-authors.md)")
            handshake(at, context, timeout)
            where = str(at)
        try:
            client = distributed.Client(where, timeout=timeout, security=security)
        except Exception as exc:  # anything the endpoint makes Dask raise: no scheduler to work with
            raise ClusterError(f"cannot reach the Dask scheduler at {one_line(where)}: "
                               f"{one_line(str(exc) or type(exc).__name__)[:200]}") from None
        stack.callback(client.close)
        yield client


@contextmanager
def _local(workers: int) -> Iterator[Callable[[], str]]:
    """A function that waits for the address (so the caller can work while
    the cluster starts) of a ``LocalCluster`` of ``workers`` processes started by a
    process of its own (``python -m qwirkle_tools.corpus.connection``, :func:`_host`),
    in its own session and with its own temporary folder, removed at the end.

    Why a process: Dask's start cannot be interrupted cleanly (a Ctrl-C half
    way leaves workers, semaphores and folders that nobody closes), and
    workers share the terminal's Ctrl-C. The host ignores SIGINT, which its
    workers inherit from birth; it closes its cluster when its stdin ends
    (this process closing it, or dying), and is killed, with its workers,
    if it does not within :data:`CLOSE_TIMEOUT` seconds (see :func:`_stop`).
    The folder is removed in every case.

    Raises:
        ClusterError: the cluster did not start (the host's last line says why).
    """
    import select
    import subprocess
    import sys

    with scratch_folder("qwirkle-dask-") as folder:
        log = folder / "host.log"
        process = None
        try:
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(
                [str(Path(__file__).parents[2]), *filter(None, [os.environ.get("PYTHONPATH")])])}
            with open(log, "wb") as errors:
                process = subprocess.Popen(
                    [sys.executable, "-m", __name__, str(workers), str(folder)], stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE, stderr=errors, env=env, start_new_session=True)

            def address() -> str:
                assert process is not None and process.stdout is not None
                ready, _, _ = select.select([process.stdout], [], [], START_TIMEOUT)
                line = process.stdout.readline().decode("utf-8", "replace").strip() if ready else ""
                if not line.startswith(("tcp://", "tls://")):
                    last = next((t for t in reversed(log.read_text("utf-8", "replace").splitlines()) if t.strip()), "")
                    why = line or last or f"no answer within {START_TIMEOUT:g} s"
                    raise ClusterError(f"the local Dask cluster did not start: {one_line(why)[:200]}")
                return line

            yield address
        finally:
            if process is not None:
                _stop(process)


def _stop(process: Any) -> None:
    """End the host process: its stdin closed, and :data:`CLOSE_TIMEOUT`
    seconds to close its cluster, else killed with its process group (its
    workers). An interrupt meanwhile (Ctrl-C as the run ends) is raised once
    the host is gone, and does not cut its close short: a kill then would
    leave the workers' semaphores in ``/dev/shm``. A second one does."""
    try:
        _close(process)
    except BaseException:
        try:
            _close(process)
        except BaseException:
            _kill(process)
        raise
    finally:
        if process.stdout is not None:
            process.stdout.close()


def _close(process: Any) -> None:
    """The host's stdin closed (it then closes its cluster), and the host waited for, or killed."""
    import subprocess

    try:
        process.stdin.close()
    except OSError:
        pass
    try:
        process.wait(CLOSE_TIMEOUT)
    except subprocess.TimeoutExpired:
        _kill(process)


def _kill(process: Any) -> None:
    """The host and its workers (its process group) killed, and the host reaped; no interrupt in between."""
    import signal

    with signals_held():
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass
        process.wait()


def _host(workers: int, folder: str) -> None:
    """The host of ``--dask local`` (see :func:`_local`): start a
    ``LocalCluster`` of ``workers`` processes with its temporary files in
    ``folder``, print its address, and close it when stdin ends."""
    import importlib
    import logging
    import signal
    import sys
    import warnings

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the client's to handle; inherited by the workers

    def stop(number: int, frame: object) -> None:
        raise SystemExit(0)  # the cluster is closed on the way out

    signal.signal(signal.SIGTERM, stop)
    dask: Any = importlib.import_module("dask")
    distributed: Any = importlib.import_module("distributed")
    with dask.config.set({"temporary-directory": folder}), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "port 8787 is in use" (of the health checks): a free one is taken
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      dashboard_address=None, silence_logs=logging.CRITICAL,
                                      local_directory=folder) as cluster:
            sys.stdout.write(cluster.scheduler_address + "\n")
            sys.stdout.flush()
            try:
                sys.stdin.buffer.read()  # until the client closes it, or dies
            except (OSError, ValueError):
                pass


__all__ = ["CLOSE_TIMEOUT", "LOCAL", "MAX_HANDSHAKE", "SCHEMES", "START_TIMEOUT", "TIMEOUT", "Address", "Client",
           "ClusterError", "connect", "handshake", "scheduler_address"]


if __name__ == "__main__":  # the host of --dask local: python -m qwirkle_tools.corpus.connection WORKERS FOLDER
    import sys

    _host(int(sys.argv[1]), sys.argv[2])
