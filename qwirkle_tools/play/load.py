"""One record file read and replayed: what the commands that study one game start from."""

from __future__ import annotations

import os

from ..formats.sources import read_record
from .engine import History, replay


def load_history(path: str | os.PathLike[str], positions: bool = True) -> History:
    """The record in the file at ``path`` (a ``.json`` record, a ``.qgn``
    game or a ``.csv`` score sheet, see :func:`~qwirkle_tools.formats.sources.read_record`)
    replayed once, leniently (see :func:`~qwirkle_tools.play.engine.replay`:
    ``positions=False`` keeps no state per turn). A record that replays with
    findings is still returned: its history holds them.

    Raises:
        qwirkle_tools.formats.sources.InputError: the path is missing, unreadable, or a ``.jsonl`` corpus.
        qwirkle_tools.formats.sources.UnreadableRecord: the text is not a record of the schema.
    """
    return replay(read_record(path), positions=positions)


__all__ = ["load_history"]
