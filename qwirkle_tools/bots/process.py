"""An outside program that plays over the Qwirkle bot protocol (QBP): started, spoken to, ended.

An outside program is untrusted. It is started without a shell, in a process
group of its own, with a memory limit, a signal that kills it when the
referee dies (Linux) and a :mod:`~qwirkle_tools.bots.watchdog` that kills its
whole group then; what it prints is read as data that may be garbage, in
bounded amounts, against a deadline; its standard error is read as it comes
and written to its log a game at a time, at most :data:`LOG_CAP` bytes a
game. Whatever it does wrong (answers late or out of turn, exits, closes its
output, prints garbage or floods) raises
:class:`~qwirkle_tools.bots.players.Forfeit` with the reason, and
:meth:`ProcessBot.close` leaves no process of its group behind.
"""

from __future__ import annotations

import os
import selectors
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from ..core.errors import QwirkleError
from ..core.safetext import one_line
from ..formats.jsontext import JSON
from ..play.game import Move, SeatView
from . import watchdog
from .qbp import gameover_line, go_line, newgame_line, parse_bestmove, position_line, rack_line

GRACE_MS = 1_000
"""How late after ``movetime`` a ``bestmove`` may come before the bot forfeits."""
HANDSHAKE_S = 10.0
"""How long a bot may take to answer ``qbp`` (``qbpok``) and each ``isready`` (``readyok``)."""
MEMORY_MB = 2_048
"""The default memory limit of a bot process (what it may allocate: ``RLIMIT_DATA``), in MiB."""
MAX_LINE = 65_536
"""The longest line a bot may print, in bytes."""
MAX_OUTPUT = 1 << 20
"""The most a bot may print in answer to one message, in bytes (``info`` lines included)."""
LOG_CAP = 1 << 20
"""The most of a bot's standard error kept in its log for one game, in bytes (the rest is counted, not kept)."""
QUIT_S = 0.5
"""How long a bot has to exit after ``quit`` before its process group is killed."""


class Forfeit(QwirkleError):
    """A bot that loses the game by forfeit: ``code`` is one of ``timeout``,
    ``exited``, ``garbage``, ``flood``, ``protocol``, ``illegal``, ``error``; the message says what happened."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class BotError(QwirkleError, ValueError):
    """A spec that names no player (the message says why)."""


def program(spec: str) -> list[str]:
    """The program and arguments of a ``cmd:`` spec, split as a shell splits words.

    Raises:
        BotError: an unbalanced quote, or no program.
    """
    try:
        argv = shlex.split(spec.removeprefix("cmd:"))
    except ValueError as exc:
        raise BotError(f"{one_line(spec, most=80)}: cannot split the command: {exc}") from None
    if not argv:
        raise BotError(f"{one_line(spec, most=80)} names no program: write cmd:COMMAND ARGS")
    return argv


class Stderr:
    """A bot's standard error: read as it comes (so the bot never blocks on it), and
    written to ``log`` a part at a time (:meth:`part`: a game, or what the bot wrote
    between games), at most :data:`LOG_CAP` bytes a part, then one line saying how much
    was cut. A game's part is written even if empty (its heading marks the game); any
    other part only if the bot wrote something in it."""

    def __init__(self, fd: int, log: Path) -> None:
        self.fd = fd
        self.log = log
        self.title = "the handshake"
        self.game = False  # the part under way is a game's
        self.kept = bytearray()
        self.cut = 0
        self.open = True

    def read(self) -> None:
        """Read what the bot has written so far (never waits)."""
        while self.open:
            try:
                chunk = os.read(self.fd, 65_536)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self.open = False
                return
            room = LOG_CAP - len(self.kept)
            self.kept += chunk[:max(0, room)]
            self.cut += max(0, len(chunk) - max(0, room))

    def part(self, title: str, game: bool = False) -> None:
        """Write what was read under the part under way, and begin a new one."""
        self.read()
        self.write()
        self.title, self.game = title, game

    def write(self) -> None:
        """Append the part to the log in one write (whole, beside other processes' parts)."""
        if not self.game and not self.kept and not self.cut:
            return
        text = bytearray(f"--- {self.title} ---\n".encode())
        text += self.kept
        if self.kept and not self.kept.endswith(b"\n"):
            text += b"\n"
        if self.cut:
            text += f"... cut: {self.cut:,} more bytes of standard error in this part not kept " \
                    f"(at most {LOG_CAP:,} a part)\n".encode()
        self.kept.clear()
        self.cut = 0
        self.game = False
        append(self.log, bytes(text))


def append(path: Path, data: bytes) -> None:
    """Append ``data`` to the file ``path`` in one write (a log: a failure to write it is not the match's)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    except OSError:
        return
    try:
        os.write(fd, data)
    except OSError:
        pass
    finally:
        os.close(fd)


class ProcessBot:
    """An outside program speaking QBP; started on the first game, and again after a forfeit."""

    def __init__(self, spec: str, log: Path | None = None, memory_mb: int = MEMORY_MB,
                 grace_ms: int = GRACE_MS, handshake_s: float = HANDSHAKE_S) -> None:
        self.spec = spec
        self.argv = program(spec)
        self.log = log
        self.memory_mb = memory_mb
        self.grace_ms = grace_ms
        self.handshake_s = handshake_s
        self.name = Path(self.argv[0]).name if len(self.argv) == 1 else " ".join(self.argv)
        self.author: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: Stderr | None = None
        self._buffer = b""
        self._spent = 0  # bytes read in answer to the current message
        self._named = False
        self._shaken = False  # the handshake done: qbpok and readyok

    # -- the process -------------------------------------------------------------

    def _start(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL if self.log is None else subprocess.PIPE, start_new_session=True,
                preexec_fn=_limits(self.memory_mb), close_fds=True)
        except (OSError, ValueError) as exc:
            raise Forfeit("exited", f"{self.spec} could not be started: "
                                    f"{getattr(exc, 'strerror', None) or exc}") from None
        watchdog.watch(self._proc.pid)
        assert self._proc.stdout is not None and self._proc.stdin is not None
        for stream in (self._proc.stdout, self._proc.stdin, self._proc.stderr):
            if stream is not None:
                os.set_blocking(stream.fileno(), False)
        if self._proc.stderr is not None and self.log is not None:
            self._stderr = Stderr(self._proc.stderr.fileno(), self.log)
        self._buffer = b""
        deadline = time.monotonic() + self.handshake_s
        self._spent = 0
        self._send("qbp", deadline)
        while True:
            line = self._line(deadline, "qbpok (the handshake)")
            if line == "qbpok":
                break
            word, _, rest = line.partition(" ")
            if word == "id":
                key, _, value = rest.partition(" ")
                if key == "name" and value.strip() and not self._named:
                    self.name = " ".join(value.split())[:60]
                elif key == "author" and value.strip():
                    self.author = " ".join(value.split())[:60]
        self._named = True
        self._ready(deadline)
        self._shaken = True

    def _ready(self, deadline: float) -> None:
        self._spent = 0
        self._send("isready", deadline)
        while self._line(deadline, "readyok") != "readyok":
            pass

    def close(self) -> None:
        """Say ``quit``, give the bot a moment, then kill its whole process group."""
        proc, self._proc = self._proc, None
        self._shaken = False
        if proc is None:
            return
        try:
            if proc.poll() is None:
                try:
                    self._write(proc, b"quit\n", time.monotonic() + 0.2)
                except (Forfeit, OSError):
                    pass
                try:
                    proc.wait(QUIT_S)
                except subprocess.TimeoutExpired:
                    pass
        finally:
            _kill_group(proc)
            watchdog.forget(proc.pid)
            if self._stderr is not None:
                if self._stderr.game:
                    self._stderr.title += " (not finished: the program was ended)"
                self._stderr.part("")
                self._stderr = None
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                if stream is not None:
                    try:
                        stream.close()
                    except OSError:
                        pass

    # -- a game ------------------------------------------------------------------

    def start(self) -> None:
        """Start the program and shake hands, unless it runs and has shaken hands.

        Raises:
            Forfeit: it could not be started, or did not shake hands (it is ended then).
        """
        if self._proc is None or self._proc.poll() is not None or not self._shaken:
            self.close()
            try:
                self._start()
            except Forfeit:
                self.close()
                raise

    def new_game(self, players: int, seat: int, title: str = "") -> None:
        self.start()
        if self._stderr is not None:
            self._stderr.part(title or f"a game in seat {seat}", game=True)
        deadline = time.monotonic() + self.handshake_s
        self._send(newgame_line(players, seat), deadline)
        self._ready(deadline)

    def choose(self, view: SeatView, seed: int, movetime_ms: int) -> Move:
        self._ready(time.monotonic() + self.handshake_s)  # every earlier answer read: one bestmove a go
        deadline = time.monotonic() + (movetime_ms + self.grace_ms) / 1000
        self._send(position_line(view), deadline)
        self._send(rack_line(view), deadline)
        self._spent = 0
        self._send(go_line(movetime_ms), deadline)
        while True:
            line = self._line(deadline, "bestmove", answer=True)
            if line.startswith("bestmove"):
                try:
                    return parse_bestmove(line)
                except ValueError as exc:
                    raise Forfeit("garbage", f"{self.name} sent {one_line(' '.join(line.split()), most=80)!r}: "
                                             f"{exc}") from None

    def end_game(self, result: Mapping[str, JSON]) -> None:
        """Tell the bot the game is over (``gameover RESULT``), if it runs: a courtesy, never a forfeit."""
        if self._stderr is not None and self._stderr.game:
            self._stderr.part(f"after {self._stderr.title}")  # (what it writes on gameover, or on quit)
        if self._proc is None or self._proc.poll() is not None:
            return
        try:
            self._send(gameover_line(result), time.monotonic() + 0.2)
        except (Forfeit, OSError):
            self.close()  # it stopped reading: the next game starts a fresh one

    # -- talking -----------------------------------------------------------------

    def _send(self, text: str, deadline: float) -> None:
        assert self._proc is not None
        self._write(self._proc, text.encode("utf-8") + b"\n", deadline)

    def _write(self, proc: subprocess.Popen[bytes], data: bytes, deadline: float) -> None:
        assert proc.stdin is not None
        view = memoryview(data)
        while view:
            if not self._wait(proc.stdin.fileno(), selectors.EVENT_WRITE, deadline):
                raise Forfeit("timeout", f"{self.name} did not read its input in time")
            try:
                written = os.write(proc.stdin.fileno(), view)
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise Forfeit("exited", f"{self.name} {self._gone()}") from None
            view = view[written:]

    def _wait(self, fd: int, event: int, deadline: float) -> bool:
        """Wait until ``fd`` is ready for ``event`` (True) or the deadline passes (False),
        reading the bot's standard error meanwhile."""
        errors = self._stderr if self._stderr is not None and self._stderr.open else None
        with selectors.DefaultSelector() as sel:
            sel.register(fd, event)
            if errors is not None:
                sel.register(errors.fd, selectors.EVENT_READ)
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                ready = sel.select(left)
                if errors is not None and any(key.fd == errors.fd for key, _ in ready):
                    errors.read()
                    if not errors.open:
                        sel.unregister(errors.fd)
                        errors = None
                if any(key.fd == fd for key, _ in ready):
                    return True

    def _line(self, deadline: float, waiting: str, answer: bool = False) -> str:
        """The next line the bot prints (stripped), by ``deadline``; at most :data:`MAX_LINE`
        bytes a line and :data:`MAX_OUTPUT` in answer to one message. A ``bestmove``
        is read only as the ``answer`` to a ``go``: at any other time it is a protocol error."""
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_LINE:
                raise Forfeit("flood", f"{self.name} printed a line of more than {MAX_LINE:,} bytes "
                                       f"(waiting for {waiting})")
            if not self._wait(fd, selectors.EVENT_READ, deadline):
                raise Forfeit("timeout", f"{self.name} sent no {waiting} in time")
            try:
                chunk = os.read(fd, 65_536)
            except BlockingIOError:
                continue
            if not chunk:
                raise Forfeit("exited", f"{self.name} {self._gone()} (waiting for {waiting})")
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\n")
        self._spent += len(raw) + 1
        if self._spent > MAX_OUTPUT or len(raw) > MAX_LINE:
            raise Forfeit("flood", f"{self.name} printed more than {MAX_OUTPUT:,} bytes (waiting for {waiting})")
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise Forfeit("garbage", f"{self.name} printed a line that is not UTF-8 (waiting for {waiting})") from None
        if not answer and line.split(" ", 1)[0] == "bestmove":
            raise Forfeit("protocol", f"{self.name} sent {one_line(line, most=60)!r} with no go to answer "
                                      f"(waiting for {waiting}): one bestmove a go")
        return line

    def _gone(self) -> str:
        assert self._proc is not None
        try:
            code = self._proc.wait(0.2)
        except subprocess.TimeoutExpired:
            return "closed its output"
        if code < 0:
            try:
                return f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"was killed by signal {-code}"
        return f"exited with code {code}"


def _limits(memory_mb: int) -> Callable[[], None]:
    """What the child does before it runs the bot: a memory limit, and death with its parent.
    Everything it needs is imported and looked up here, in the parent: the child of a process
    with threads (a ``--jobs`` worker's) must not import between its fork and its exec."""
    import resource

    parent = os.getpid()
    limit = memory_mb * 1024 * 1024
    prctl: Callable[[int, int], object] | None = None
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            prctl = ctypes.CDLL(None).prctl
        except (OSError, AttributeError):
            pass

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
        if sys.platform.startswith("linux"):
            if prctl is not None:
                prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: gone if the referee dies
            if os.getppid() != parent:  # it died before that was set
                os._exit(1)
    return apply


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the bot's process group (the bot and anything it started) and reap the bot."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        pass


__all__ = ["GRACE_MS", "HANDSHAKE_S", "LOG_CAP", "MAX_LINE", "MAX_OUTPUT", "MEMORY_MB", "BotError", "Forfeit",
           "ProcessBot", "program"]
