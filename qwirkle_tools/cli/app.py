"""The ``qwirkle`` command: a thin layer over the library.

:data:`app` is the Typer application with every command registered, in
the order of ``qwirkle --help``: each command module of this folder
registers its commands as it is imported, on the app of
:mod:`qwirkle_tools.cli.common` (the exit codes and the helpers every
command uses, also importable from here), and this module imports them:

* :mod:`~qwirkle_tools.cli.records`: validate, rescore, moves;
* :mod:`~qwirkle_tools.cli.corpora`: stats, simulate;
* :mod:`~qwirkle_tools.cli.study`: annotate, board, chart, view, report, endgame;
* :mod:`~qwirkle_tools.cli.conversion`: convert, schema;
* :mod:`~qwirkle_tools.cli.matches`: match, bot;
* :mod:`~qwirkle_tools.cli.tournaments`: tournament, ratings;
* :mod:`~qwirkle_tools.cli.club`: standings.

(The helpers live apart from this module so that a command module imports
them without importing the module that imports it: no cycle.)
"""

from .common import (
    DASK_HELP,
    EXIT_BUG,
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    PATHS_HELP,
    PLAYER_HELP,
    Engine,
    Format,
    _bar,
    _emit,
    _fail,
    _out,
    _record_target,
    _record_text,
    _refused,
    _target,
    _workers,
    _write,
    _wrote,
    app,
    command,
    silence_stdout,
)

# the commands register as their modules are imported: this order is the order of --help
# isort: off
from .records import moves, rescore, validate
from .corpora import TableFormat, simulate, stats
from .study import Kind, annotate, board, chart, endgame, report, view
from .conversion import convert, schema
from .matches import bot, match
from .tournaments import ratings, tournament
from .club import standings
# isort: on

__all__ = ["DASK_HELP", "EXIT_BUG", "EXIT_FINDINGS", "EXIT_OK", "EXIT_USAGE", "PATHS_HELP", "PLAYER_HELP", "Engine", "Format",
           "Kind", "TableFormat", "_bar", "_emit", "_fail", "_out", "_record_target", "_record_text", "_refused", "_target",
           "_workers", "_write", "_wrote", "annotate", "app", "board", "bot", "chart", "command", "convert", "endgame", "match",
           "moves",
           "ratings", "report", "rescore", "schema", "silence_stdout", "simulate", "standings", "stats", "tournament", "validate",
           "view"]
