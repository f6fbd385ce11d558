"""Players for matches: a built-in policy, a Python function, or an outside program speaking QBP.

A player is named by a *spec* (:func:`load`):

* ``greedy``, ``random``, ``lookahead``, ``sim``: a built-in policy
  (:mod:`qwirkle_tools.play.policies`; ``sim`` is given the match's movetime);
* ``module:function`` or ``path/to/file.py:function``: a Python function
  that receives a :class:`~qwirkle_tools.play.game.SeatView` and returns a
  :class:`~qwirkle_tools.play.move.Move` or its text (it runs in the referee's
  process: trusted code; its time is measured, not bounded);
* ``cmd:COMMAND ARGS``: an outside program in any language, spoken to in the
  Qwirkle bot protocol (:mod:`qwirkle_tools.bots.qbp`) over its standard input
  and output.

An outside program is untrusted: it is started without a shell, in a
process group of its own, with a memory limit and (on Linux) a signal that
kills it when the referee dies; its standard error goes to a log file; what
it prints is read as data that may be garbage, in bounded amounts, against
a deadline. Whatever it does wrong (answers late, exits, closes its output,
prints garbage or floods, plays an illegal move) raises :class:`Forfeit`
with the reason, and :meth:`ProcessBot.close` leaves no process of the
group behind.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import selectors
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

from ..core.errors import QwirkleError
from ..play.game import Move, MoveError, SeatView
from ..play.policies import BUILT_IN, POLICIES, TIMED, Policy, TimedPolicy
from .qbp import go_line, newgame_line, parse_bestmove, position_line, rack_line

GRACE_MS = 1_000
"""How late after ``movetime`` a ``bestmove`` may come before the bot forfeits."""
HANDSHAKE_S = 10.0
"""How long a bot may take to answer ``qbp`` (``qbpok``) and ``isready`` (``readyok``)."""
MEMORY_MB = 2_048
"""The default memory limit of a bot process (its address space), in MiB."""
MAX_LINE = 65_536
"""The longest line a bot may print, in bytes."""
MAX_OUTPUT = 1 << 20
"""The most a bot may print in answer to one message, in bytes (``info`` lines included)."""


class BotError(QwirkleError, ValueError):
    """A spec that names no player (the message says why)."""


class Forfeit(QwirkleError):
    """A bot that loses the game by forfeit: ``code`` is one of ``timeout``,
    ``exited``, ``garbage``, ``flood``, ``illegal``, ``error``; the message says what happened."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Bot(Protocol):
    """What the referee needs of a player."""

    spec: str

    @property
    def name(self) -> str: ...

    def start(self) -> None: ...

    def new_game(self, players: int, seat: int) -> None: ...

    def choose(self, view: SeatView, seed: int, movetime_ms: int) -> Move: ...

    def close(self) -> None: ...


@dataclass
class PolicyBot:
    """A built-in policy, in the referee's process; ``timed``, when given, is
    called instead, with the match's time per move."""

    spec: str
    policy: Policy
    timed: TimedPolicy | None = None

    @property
    def name(self) -> str:
        return self.spec

    def start(self) -> None:
        pass

    def new_game(self, players: int, seat: int) -> None:
        pass

    def choose(self, view: SeatView, seed: int, movetime_ms: int) -> Move:
        if self.timed is not None:
            return self.timed(view, seed, movetime_ms)
        return self.policy(view, seed)

    def close(self) -> None:
        pass


@dataclass
class FunctionBot:
    """A Python function ``f(view) -> Move | str``, in the referee's process.

    An exception it raises, or an answer that is no move, forfeits the game."""

    spec: str
    function: Callable[[SeatView], Any]

    @property
    def name(self) -> str:
        return self.spec.rpartition(":")[2]

    def start(self) -> None:
        pass

    def new_game(self, players: int, seat: int) -> None:
        pass

    def choose(self, view: SeatView, seed: int, movetime_ms: int) -> Move:
        try:
            answer = self.function(view)
        except Exception as exc:  # the bot's own bug: it loses the game, the match goes on
            raise Forfeit("error", f"{self.spec} raised {type(exc).__name__}: {' '.join(str(exc).split())[:200]}") from None
        if isinstance(answer, Move):
            return answer
        if isinstance(answer, str):
            try:
                return Move.parse(answer)
            except MoveError as exc:
                raise Forfeit("garbage", f"{self.spec} answered {exc}") from None
        raise Forfeit("garbage", f"{self.spec} answered a {type(answer).__name__}, not a Move or its text")

    def close(self) -> None:
        pass


class ProcessBot:
    """An outside program speaking QBP; started on the first game, and again after a forfeit."""

    def __init__(self, spec: str, log: Path | None = None, memory_mb: int = MEMORY_MB,
                 grace_ms: int = GRACE_MS) -> None:
        self.spec = spec
        self.argv = shlex.split(spec.removeprefix("cmd:"))
        if not self.argv:
            raise BotError(f"{spec!r} names no program: write cmd:COMMAND ARGS")
        self.log = log
        self.memory_mb = memory_mb
        self.grace_ms = grace_ms
        self.name = Path(self.argv[0]).name if len(self.argv) == 1 else " ".join(self.argv)[:60]
        self.author: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._spent = 0  # bytes read in answer to the current message
        self._named = False

    # -- the process -------------------------------------------------------------

    def _start(self) -> None:
        log: IO[bytes] | int = subprocess.DEVNULL
        if self.log is not None:
            log = open(self.log, "ab")  # noqa: SIM115 (closed below, once the child has it)
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, start_new_session=True,
                preexec_fn=_limits(self.memory_mb), close_fds=True)
        except OSError as exc:
            raise Forfeit("exited", f"{self.spec} could not be started: {exc.strerror or exc}") from None
        finally:
            if not isinstance(log, int):
                log.close()
        assert self._proc.stdout is not None and self._proc.stdin is not None
        os.set_blocking(self._proc.stdout.fileno(), False)
        os.set_blocking(self._proc.stdin.fileno(), False)
        self._buffer = b""
        deadline = time.monotonic() + HANDSHAKE_S
        self._spent = 0
        self._send("qbp", deadline)
        while True:
            line = self._line(deadline, "qbpok")
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

    def _ready(self, deadline: float) -> None:
        self._spent = 0
        self._send("isready", deadline)
        while self._line(deadline, "readyok") != "readyok":
            pass

    def close(self) -> None:
        """Say ``quit``, give the bot a moment, then kill its whole process group."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.poll() is None:
                try:
                    self._write(proc, b"quit\n", time.monotonic() + 0.2)
                except (Forfeit, OSError):
                    pass
                try:
                    proc.wait(0.5)
                except subprocess.TimeoutExpired:
                    pass
        finally:
            _kill_group(proc)
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    try:
                        stream.close()
                    except OSError:
                        pass

    # -- a game ------------------------------------------------------------------

    def start(self) -> None:
        """Start the program (and shake hands) unless it is running."""
        if self._proc is None or self._proc.poll() is not None:
            self.close()
            self._start()

    def new_game(self, players: int, seat: int) -> None:
        self.start()
        deadline = time.monotonic() + HANDSHAKE_S
        self._send(newgame_line(players, seat), deadline)
        self._ready(deadline)

    def choose(self, view: SeatView, seed: int, movetime_ms: int) -> Move:
        deadline = time.monotonic() + (movetime_ms + self.grace_ms) / 1000
        self._send(position_line(view), deadline)
        self._send(rack_line(view), deadline)
        self._send(go_line(movetime_ms), deadline)
        self._spent = 0
        while True:
            line = self._line(deadline, "bestmove")
            if line.startswith("bestmove"):
                try:
                    return parse_bestmove(line)
                except ValueError as exc:
                    raise Forfeit("garbage", f"{self.name} sent {' '.join(line.split())[:80]!r}: {exc}") from None

    # -- talking -----------------------------------------------------------------

    def _send(self, text: str, deadline: float) -> None:
        assert self._proc is not None
        self._write(self._proc, text.encode("utf-8") + b"\n", deadline)

    def _write(self, proc: subprocess.Popen[bytes], data: bytes, deadline: float) -> None:
        assert proc.stdin is not None
        view = memoryview(data)
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdin, selectors.EVENT_WRITE)
            while view:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise Forfeit("timeout", f"{self.name} did not read its input in time")
                try:
                    written = os.write(proc.stdin.fileno(), view)
                except BlockingIOError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    raise Forfeit("exited", f"{self.name} {self._gone()}") from None
                view = view[written:]

    def _line(self, deadline: float, waiting: str) -> str:
        """The next line the bot prints (stripped), by ``deadline``; at most :data:`MAX_LINE`
        bytes a line and :data:`MAX_OUTPUT` in answer to one message."""
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_LINE:
                    raise Forfeit("flood", f"{self.name} printed a line of more than {MAX_LINE:,} bytes "
                                           f"(waiting for {waiting})")
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
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
            return raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise Forfeit("garbage", f"{self.name} printed a line that is not UTF-8 (waiting for {waiting})") from None

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
    """What the child does before it runs the bot: a memory limit, and death with its parent."""
    def apply() -> None:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if sys.platform.startswith("linux"):
            import ctypes

            try:
                ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: gone if the referee dies
            except (OSError, AttributeError):
                pass
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


def load(spec: str, log: Path | None = None, memory_mb: int = MEMORY_MB, grace_ms: int = GRACE_MS) -> Bot:
    """The player a spec names (see the module's notes).

    Raises:
        BotError: an unknown policy, a module or file that cannot be loaded, a
            function that is not there, an empty command.
    """
    if spec.startswith("cmd:"):
        return ProcessBot(spec, log, memory_mb, grace_ms)
    if spec in BUILT_IN:
        return PolicyBot(spec, BUILT_IN[spec], TIMED.get(spec))
    where, colon, attribute = spec.rpartition(":")
    if not colon or not where or not attribute:
        raise BotError(f"unknown player {spec!r}: give a policy ({', '.join(POLICIES)}), "
                       "module:function, path/to/file.py:function or cmd:COMMAND")
    try:
        if where.endswith(".py"):
            path = Path(where)
            module_spec = importlib.util.spec_from_file_location(f"qwirkle_bot_{path.stem}", path)
            if module_spec is None or module_spec.loader is None or not path.is_file():
                raise BotError(f"{spec!r}: no Python file {where}")
            module = importlib.util.module_from_spec(module_spec)
            module_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
    except BotError:
        raise
    except Exception as exc:  # the bot's module failed to load: say so, as for any bad spec
        raise BotError(f"{spec!r}: cannot load {where}: {type(exc).__name__}: {exc}") from None
    function = getattr(module, attribute, None)
    if not callable(function):
        raise BotError(f"{spec!r}: {where} has no function {attribute!r}")
    return FunctionBot(spec, function)


__all__ = ["GRACE_MS", "HANDSHAKE_S", "MAX_LINE", "MAX_OUTPUT", "MEMORY_MB", "Bot", "BotError", "Forfeit",
           "FunctionBot", "PolicyBot", "ProcessBot", "load"]
