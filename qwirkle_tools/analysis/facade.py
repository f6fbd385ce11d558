"""Load, validate, analyse: the three steps most uses of the library begin with, by short
names (``from qwirkle_tools import load, validate, analyse``), over the one pipeline the
commands use (the text parsed, checked against the schema, read into a record, replayed once).

>>> from qwirkle_tools import analyse, load, validate
>>> record = load("sample_games/296-295.qgn")
>>> validate(record).valid, len(record.turns)
(True, 64)
>>> analyse(record).players[0].name
'Ana'
"""

from __future__ import annotations

import os

from ..formats.record import Record
from ..formats.sources import read_record
from ..play.engine import replay
from .analyse import Analysis, Engine
from .analyse import analyse as analyse_history
from .validate import Report
from .validate import validate as validate_paths


def load(path: str | os.PathLike[str]) -> Record:
    """The record in a file: a ``.json`` record, a ``.qgn`` game or a ``.csv`` score sheet
    (:func:`~qwirkle_tools.formats.sources.read_record`).

    Raises:
        InputError: the path is missing, unreadable, or a ``.jsonl`` corpus of many games.
        UnreadableRecord: the text has a mistake, or is not a record of the schema.
    """
    return read_record(path)


def validate(game: Record | str | os.PathLike[str]) -> Report:
    """The findings of one record, or of the one record in a file (its mistakes of reading
    and of the schema too, as ``qwirkle validate`` reports them): ``.valid`` when none is an
    error. For a corpus, :func:`~qwirkle_tools.analysis.validate.validate` gives a report a record.

    Raises:
        InputError: the path is missing or unreadable, or a corpus of more than one record.
    """
    if isinstance(game, Record):
        history = replay(game)
        return Report("", 0, tuple(history.findings), game, history)
    reports = list(validate_paths([game], keep_records=True))
    if len(reports) != 1:
        from ..formats.sources import InputError

        raise InputError(f"{game} holds {len(reports):,} records: validate each (qwirkle_tools.analysis.validate.validate)")
    return reports[0]


def analyse(game: Record | str | os.PathLike[str], engine: Engine = "greedy") -> Analysis:
    """The analysis of a record, or of the record in a file (see
    :func:`~qwirkle_tools.analysis.analyse.analyse`: best moves, points lost, Qwirkles missed).

    Raises:
        InputError, UnreadableRecord: as :func:`load`.
    """
    return analyse_history(game if isinstance(game, Record) else load(game), engine)


__all__ = ["analyse", "load", "validate"]
