"""qwirkle-tools: check, re-score and study recorded games of Qwirkle.

The package import is light (no pandas, matplotlib or jsonschema); the
modules are:

* :mod:`~qwirkle_tools.tiles`: tiles and their text forms;
* :mod:`~qwirkle_tools.board`: the board and placements;
* :mod:`~qwirkle_tools.lines`: what a line is, whether it is valid, what it scores;
* :mod:`~qwirkle_tools.rules`: legality and scoring of a placement;
* :mod:`~qwirkle_tools.movegen`: every legal move for a rack;
* :mod:`~qwirkle_tools.record`: the record format, load and dump;
* :mod:`~qwirkle_tools.engine`: the game state, strict and lenient play, replays;
* :mod:`~qwirkle_tools.game`: a game to play: deal, legal moves, push and pop;
* :mod:`~qwirkle_tools.validate`: files, folders and corpora to findings;
* :mod:`~qwirkle_tools.rescore`: per-turn score tables and corrected records;
* :mod:`~qwirkle_tools.simulate`: self-play games;
* :mod:`~qwirkle_tools.bots`, :mod:`~qwirkle_tools.qbp`, :mod:`~qwirkle_tools.match`: players,
  the bot protocol, matches.
"""

from __future__ import annotations

from .version import __version__

TYPE_CHECKING = False  # (typing itself is not imported: the command's start stays short)
if TYPE_CHECKING:
    from typing import Any

    from .board import Board, Placement
    from .engine import GameState, History, IllegalMoveError, TurnResult, replay
    from .errors import QwirkleError
    from .findings import CODES, Finding
    from .game import Game, Move, MoveError, SeatView
    from .record import Record, RecordError, Setup, Turn, dumps, from_data, loads
    from .rules import Rules, ScoreBreakdown, Violation, judge
    from .tiles import Tile, TileError

# The public names are loaded on first use, so that ``qwirkle --help`` pays
# only for what it needs.
_LAZY = {
    "Board": "board", "Placement": "board", "CODES": "findings", "Finding": "findings",
    "Record": "record", "RecordError": "record", "Setup": "record", "Turn": "record", "dumps": "record",
    "from_data": "record", "loads": "record", "Game": "game", "Move": "game", "MoveError": "game",
    "SeatView": "game", "GameState": "engine", "History": "engine",
    "IllegalMoveError": "engine", "TurnResult": "engine", "replay": "engine", "QwirkleError": "errors",
    "Rules": "rules", "ScoreBreakdown": "rules", "Violation": "rules", "judge": "rules",
    "Tile": "tiles", "TileError": "tiles",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'qwirkle_tools' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f".{module}", __name__), name)


__all__ = [
    "CODES",
    "Board",
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
    "dumps",
    "from_data",
    "judge",
    "loads",
    "replay",
]
