"""qwirkle-tools: check, re-score and study recorded games of Qwirkle, and play them.

The package import is light (no pandas, matplotlib or jsonschema): the public
names below are loaded on first use. The folders are the layers, each
building only on those before it (``tests/test_layers.py`` holds the rules):

* :mod:`~qwirkle_tools.core`: tiles, the board, lines, the rules, the move generator, findings;
* :mod:`~qwirkle_tools.formats`: JSON text, the schema, the record format, the notation, score sheets, sources;
* :mod:`~qwirkle_tools.play`: the game: a record's replay, the playable game;
* :mod:`~qwirkle_tools.engines`: the players by name, self-play, the look-ahead, equity, simulation, the endgame solver;
* :mod:`~qwirkle_tools.analysis`: the validator, re-scoring, best moves and points lost;
* :mod:`~qwirkle_tools.outputs`: charts, board pictures, the viewer, the report, conversion;
* :mod:`~qwirkle_tools.corpus`: rows, statistics, tables, the process pool, the Dask cluster;
* :mod:`~qwirkle_tools.bots`: the bot protocol, players, matches;
* :mod:`~qwirkle_tools.cli`: the ``qwirkle`` command.
"""

from __future__ import annotations

import sys

_noted: list[int] = []
"""The signals noted while the ``qwirkle`` command loads, for :mod:`qwirkle_tools.cli.launch` to end the run with."""


def _note(number: int, frame: object) -> None:
    _noted.append(number)


def _note_signals() -> tuple[object, object]:
    """Note SIGINT and SIGTERM from now on (in :data:`_noted`) rather than raise them
    where no handler would catch them: the command's first act, done here, at the
    package's first line (the console script's wrapper imports this package, then
    ``__main__``), and by ``__main__`` in any case. Returns the handlers it replaced."""
    try:  # the C module the interpreter loaded at its start: signal.py would first build its enums (2 ms)
        import _signal as signal  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # (not CPython)
        import signal

    return signal.signal(signal.SIGINT, _note), signal.signal(signal.SIGTERM, _note)


def _leave_signals(before: tuple[object, object]) -> None:
    """A library's import: the handlers put back as they were, and a signal noted meanwhile
    delivered now, as it would have been without us."""
    try:
        import _signal as signal  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # (not CPython)
        import signal

    for number, handler, default in ((signal.SIGINT, before[0], signal.default_int_handler),
                                     (signal.SIGTERM, before[1], signal.SIG_DFL)):
        signal.signal(number, handler if handler is not None else default)
    while _noted:
        signal.raise_signal(_noted.pop(0))


def _started_as_the_command() -> bool:
    """Whether this process is ``qwirkle`` starting: its console script, or ``python -m qwirkle_tools``
    (a library user's import leaves the signals alone)."""
    script = str(getattr(sys.modules.get("__main__"), "__file__", None) or "").replace("\\", "/").rsplit("/", 1)[-1]
    argv = list(getattr(sys, "orig_argv", ()))
    at = argv.index("-m") + 1 if "-m" in argv else 0
    return script in ("qwirkle", "qwirkle-script.py") or bool(at) and argv[at:at + 1] == ["qwirkle_tools"]


_before = _note_signals()  # first, then asked whether this is the command: no moment of our own is unguarded
if not _started_as_the_command():
    _leave_signals(_before)

from .version import __version__, pure_asked, run_the_source  # noqa: E402  (after the signals: nothing comes before them)

if pure_asked():  # QWIRKLE_PURE: the .py files run, not the compiled modules beside them
    run_the_source()

TYPE_CHECKING = False  # (typing itself is not imported: the command's start stays short)
if TYPE_CHECKING:  # the same names as PUBLIC (a test holds them equal), for type checkers
    from typing import Any

    from .analysis.facade import analyse, load, validate
    from .core.board import Board, Placement
    from .core.errors import QwirkleError
    from .core.findings import CODES, Finding
    from .core.move import Move, MoveError
    from .core.rules import Rules, ScoreBreakdown, Violation, judge
    from .core.tiles import Tile, TileError
    from .formats.record import Record, RecordError, Setup, Turn, dumps, from_data, loads
    from .play.engine import GameState, History, IllegalMoveError, TurnResult, replay
    from .play.game import Game, SeatView

PUBLIC = {
    "core.board": ("Board", "Placement"),
    "core.errors": ("QwirkleError",),
    "core.findings": ("CODES", "Finding"),
    "core.rules": ("Rules", "ScoreBreakdown", "Violation", "judge"),
    "core.tiles": ("Tile", "TileError"),
    "formats.record": ("Record", "RecordError", "Setup", "Turn", "dumps", "from_data", "loads"),
    "play.engine": ("GameState", "History", "IllegalMoveError", "TurnResult", "replay"),
    "play.game": ("Game", "SeatView"),
    "core.move": ("Move", "MoveError"),
    "analysis.facade": ("analyse", "load", "validate"),
}
"""The flat facade, ``from qwirkle_tools import Game``: each module and the names it gives."""

_HOME = {name: module for module, names in PUBLIC.items() for name in names}

__all__ = [  # for static tools; the same names as PUBLIC (a test holds them equal)
    "Board",
    "CODES",
    "Finding",
    "Game",
    "GameState",
    "History",
    "IllegalMoveError",
    "Move",
    "MoveError",
    "Placement",
    "QwirkleError",
    "Record",
    "RecordError",
    "Rules",
    "ScoreBreakdown",
    "SeatView",
    "Setup",
    "Tile",
    "TileError",
    "Turn",
    "TurnResult",
    "Violation",
    "__version__",
    "analyse",
    "dumps",
    "from_data",
    "judge",
    "load",
    "loads",
    "replay",
    "validate",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'qwirkle_tools' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f".{module}", __name__), name)
