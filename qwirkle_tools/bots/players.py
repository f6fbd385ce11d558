"""Players for matches: a built-in policy, a Python function, or an outside program speaking QBP.

A player is named by a *spec* (:func:`load`):

* ``greedy``, ``random``, ``lookahead``, ``equity``, ``sim``: a built-in policy
  (:mod:`qwirkle_tools.engines.policies`; ``sim`` is given the match's movetime);
* ``module:function`` or ``path/to/file.py:function``: a Python function
  that receives a :class:`~qwirkle_tools.play.game.SeatView` and returns a
  :class:`~qwirkle_tools.core.move.Move` or its text (it runs in the referee's
  process: trusted code; its time is not bounded);
* ``cmd:COMMAND ARGS``: an outside program in any language, spoken to in the
  Qwirkle bot protocol (:mod:`qwirkle_tools.bots.qbp`) over its standard input
  and output: untrusted, see :mod:`qwirkle_tools.bots.process`.

Whatever a player does wrong raises :class:`Forfeit` with the reason: the
player loses that game, and the match goes on.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..core.safetext import one_line
from ..engines.policies import BUILT_IN, POLICIES, TIMED, Policy, TimedPolicy
from ..formats.jsontext import JSON
from ..play.game import Move, MoveError, SeatView
from .process import GRACE_MS, HANDSHAKE_S, LOG_CAP, MAX_LINE, MAX_OUTPUT, MEMORY_MB, BotError, Forfeit, ProcessBot, program


class Bot(Protocol):
    """What the referee needs of a player."""

    spec: str

    @property
    def name(self) -> str: ...

    def start(self) -> None: ...

    def new_game(self, players: int, seat: int, title: str = "") -> None: ...

    def choose(self, view: SeatView, seed: int, movetime_ms: int) -> Move: ...

    def end_game(self, result: Mapping[str, JSON]) -> None: ...

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

    def new_game(self, players: int, seat: int, title: str = "") -> None:
        pass

    def end_game(self, result: Mapping[str, JSON]) -> None:
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

    An exception it raises (``sys.exit`` included), or an answer that is no
    move, forfeits the game. Its answer is played as its text is read
    (:meth:`Move.parse <qwirkle_tools.core.move.Move.parse>` of ``str(answer)``),
    as an outside program's would be: a ``Move`` built by hand that its own text
    does not give back is no move. Its time is not bounded (``qwirkle bot
    --player SPEC`` runs it as an outside program, whose time is)."""

    spec: str
    function: Callable[[SeatView], Any]

    @property
    def name(self) -> str:
        return self.spec

    def start(self) -> None:
        pass

    def new_game(self, players: int, seat: int, title: str = "") -> None:
        pass

    def choose(self, view: SeatView, seed: int, movetime_ms: int) -> Move:
        try:
            answer = self.function(view)
        except SystemExit as exc:  # (a BaseException: it must not end the match)
            raise Forfeit("error", f"{self.spec} called sys.exit({one_line(repr(exc.code), most=40)}) "
                                   "while choosing its move") from None
        except Exception as exc:  # the bot's own bug: it loses the game, the match goes on
            raise Forfeit("error", f"{self.spec} raised {type(exc).__name__}: {one_line(' '.join(str(exc).split()), most=200)}"
                          ) from None
        return answered(self.spec, answer)

    def end_game(self, result: Mapping[str, JSON]) -> None:
        pass

    def close(self) -> None:
        pass


def answered(spec: str, answer: object) -> Move:
    """The move a Python player's ``answer`` (a ``Move`` or its text) stands for, read from its text.

    Raises:
        Forfeit: (``garbage``) the answer is no move, or a ``Move`` whose text is not itself.
    """
    if not isinstance(answer, (Move, str)):
        raise Forfeit("garbage", f"{spec} answered a {type(answer).__name__}, not a Move or its text")
    try:
        text = answer if isinstance(answer, str) else str(answer)
        move = Move.parse(text)
        same = isinstance(answer, str) or move == answer
    except MoveError as exc:
        raise Forfeit("garbage", f"{spec} answered {exc}") from None
    except Exception as exc:  # a Move built by hand of things that are no tiles or cells
        raise Forfeit("garbage", f"{spec} answered a malformed Move ({type(exc).__name__} writing it)") from None
    if not same:
        raise Forfeit("garbage", f"{spec} answered a malformed Move (its fields are not the move "
                                 f"{one_line(text, most=80)!r} it writes)")
    return move


def load(spec: str, log: Path | None = None, memory_mb: int = MEMORY_MB, grace_ms: int = GRACE_MS,
         handshake_s: float = HANDSHAKE_S) -> Bot:
    """The player a spec names (see the module's notes).

    Raises:
        BotError: an unknown policy, a module or file that cannot be loaded, a
            function that is not there, an empty command.
    """
    if spec.startswith("cmd:"):
        program(spec)  # (a spec that names no program is told at once)
        return ProcessBot(spec, log, memory_mb, grace_ms, handshake_s)
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
    except SystemExit as exc:  # (a BaseException: it must not end the command in silence)
        raise BotError(f"{spec!r}: loading {where} called sys.exit({one_line(repr(exc.code), most=40)})") from None
    except Exception as exc:  # the bot's module failed to load: say so, as for any bad spec
        raise BotError(f"{spec!r}: cannot load {where}: {type(exc).__name__}: {one_line(str(exc), most=200)}") from None
    function = getattr(module, attribute, None)
    if not callable(function):
        raise BotError(f"{spec!r}: {where} has no function {attribute!r}")
    return FunctionBot(spec, function)


__all__ = ["GRACE_MS", "HANDSHAKE_S", "LOG_CAP", "MAX_LINE", "MAX_OUTPUT", "MEMORY_MB", "Bot", "BotError", "Forfeit",
           "FunctionBot", "PolicyBot", "ProcessBot", "answered", "load"]
