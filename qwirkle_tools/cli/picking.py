"""Which game of a file a command reads: ``--game N``, the N-th record of a ``.jsonl``
file (a match's output holds many, one record a line), for ``view``, ``board``,
``moves`` and ``endgame``."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import _warn

if TYPE_CHECKING:
    from ..formats.sources import Loaded
    from ..play.history import History

GAME_HELP = ("The game to read from a .jsonl file (one record a line, as match writes): 1 is the first line's "
             "game (blank lines not counted). Needed when the file holds more than one game.")
GameOption = Annotated[int | None, typer.Option("--game", "-g", metavar="N", help=GAME_HELP, show_default=False)]
"""The ``--game`` option, as each command declares it."""


def read_game(file: Path, game: int | None) -> "Loaded":
    """Game ``game`` of ``file`` (see :func:`~qwirkle_tools.formats.sources.load_game`), the
    warnings of reading it told at once."""
    from ..formats.sources import load_game

    loaded = load_game(file, game)
    _warn(str(file), loaded.warnings)
    return loaded


def game_history(file: Path, game: int | None) -> "History":
    """Game ``game`` of ``file`` (see :func:`read_game`) replayed once, leniently."""
    from ..play.engine import replay

    return replay(read_game(file, game).record)
