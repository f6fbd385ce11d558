"""``qwirkle convert``: records from one written form to another.

Read: a ``.json`` record, a ``.jsonl`` corpus (every record), a ``.qgn``
game in the notation, a ``.csv`` score sheet. Written: ``.json`` (one
record), ``.jsonl`` (every record, one a line) or ``.qgn`` (one game). Each
record is read strictly (a mistake or a schema error stops the conversion,
with every finding); what the target cannot hold is listed, never silently
lost. Writing the file is the caller's business.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .errors import QwirkleError
from .jsontext import deep_enough
from .notation import dropped, format_qgn
from .record import dumps
from .safetext import json_text
from .validate import read_records

READS = (".json", ".jsonl", ".qgn", ".csv")
WRITES = (".json", ".jsonl", ".qgn")


class ConvertError(QwirkleError):
    """A conversion that cannot be made: an unknown form, or several records for a one-record form."""


@dataclass(frozen=True, slots=True)
class Conversion:
    """The converted text, how many records it holds, and what was left out
    (JSON pointers; prefixed ``LINE:`` for a corpus's record)."""

    text: str
    records: int
    dropped: tuple[str, ...] = ()


def _suffix(path: str | os.PathLike[str], allowed: tuple[str, ...], role: str) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in allowed:
        raise ConvertError(f"{Path(path).name}: cannot tell the {role} form from the name: "
                           f"use one of {', '.join(allowed)}")
    return suffix


def convert(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> Conversion:
    """The records of ``source`` written in the form ``target``'s name asks for.

    Raises:
        ConvertError: a form that is not read or written, or a corpus of
            several records for a ``.json`` or ``.qgn`` target.
        InputError, UnreadableRecord: see :func:`qwirkle_tools.validate.read_records`.
    """
    _suffix(source, READS, "input")
    form = _suffix(target, WRITES, "output")
    records = read_records(source)
    if form == ".jsonl":
        with deep_enough():
            text = "".join(json_text(r.to_data()) + "\n" for r in records)
        return Conversion(text, len(records))
    if len(records) != 1:
        raise ConvertError(f"{Path(source).name} holds {len(records)} records; a {form} file holds one "
                           "(write a .jsonl corpus instead)")
    (record,) = records
    if form == ".json":
        return Conversion(dumps(record), 1)
    return Conversion(format_qgn(record), 1, tuple(dropped(record)))


__all__ = ["READS", "WRITES", "ConvertError", "Conversion", "convert"]
