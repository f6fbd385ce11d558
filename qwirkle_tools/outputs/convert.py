"""Records from one written form to another, and the one place that
decides the form a record is written in.

Read: a ``.json`` record, a ``.jsonl`` corpus (every record), a ``.qgn``
game in the notation, a ``.csv`` score sheet. Written: ``.json`` (one
record), ``.jsonl`` (every record, one a line) or ``.qgn`` (one game); a
score sheet is read, never written. Every command that writes a record
asks :func:`output_form` which form (from the output's name, or for
``--in-place`` the form the input was read in) and :func:`written` for the
text, so a ``.qgn`` file always holds the notation. Each record is read
strictly (a mistake or a schema error stops the conversion, with every
finding); what the target cannot hold is refused, or for ``convert`` listed,
never silently lost. Writing the file is the caller's business.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..core.errors import QwirkleError
from ..core.findings import Finding
from ..core.safetext import json_text, one_line
from ..formats.jsontext import JSON, deep_enough
from ..formats.qgn import dropped, format_qgn
from ..formats.record import Record, dumps, from_data
from ..formats.sources import Source, load_records

READS = (".json", ".jsonl", ".qgn", ".csv")
WRITES = (".json", ".jsonl", ".qgn")


class ConvertError(QwirkleError):
    """A conversion that cannot be made: an unknown form, several records
    for a one-record form, or what the form cannot hold."""


@dataclass(frozen=True, slots=True)
class Conversion:
    """The converted text, how many records it holds, and what was left out
    (JSON pointers; prefixed ``LINE:`` for a corpus's record)."""

    text: str
    records: int
    dropped: tuple[str, ...] = ()
    warnings: tuple[Finding, ...] = ()
    """The warnings of reading the source (slips in hand-written text read past)."""


def _suffix(path: str | os.PathLike[str], allowed: tuple[str, ...], role: str) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in allowed:
        raise ConvertError(f"{one_line(Path(path).name)}: cannot tell the {role} form from the name: "
                           f"use one of {', '.join(allowed)}")
    return suffix


def output_form(target: str | os.PathLike[str], source: str | os.PathLike[str] | None = None,
                analysis: bool = False) -> str:
    """The form (``.json``, ``.jsonl`` or ``.qgn``) a record is written in at
    ``target``: from its name, or, for a rewrite in place (``source`` given,
    the file read), the form ``source`` was read in (a ``.qgn`` game stays
    notation; any other name but ``.csv`` was read as JSON). ``analysis``:
    what is written holds machine analysis, which the notation cannot hold.

    Raises:
        ConvertError: a score sheet (``.csv``), which is read and never
            written (in place or not); a name of no written form; the
            notation for analysis.
    """
    name = one_line(Path(target).name)
    if source is not None:
        form = Source(os.fspath(source), 0, None).form  # the reader's own choice, so read and write agree
        if form == "csv":
            stem = one_line(Path(source).stem)
            raise ConvertError(f"{name}: a score sheet is never rewritten (--in-place); write the corrected "
                               f"record beside it with -o {stem}.qgn or -o {stem}.json")
        suffix = ".qgn" if form == "qgn" else ".json"
    elif Path(target).suffix.lower() == ".csv":
        raise ConvertError(f"{name}: a score sheet (.csv) is read, never written: use one of {', '.join(WRITES)}")
    else:
        suffix = _suffix(target, WRITES, "output")
    if analysis and suffix == ".qgn":
        raise ConvertError(f"{name}: the notation cannot hold the analysis; write the annotated record "
                           f"as JSON (-o {one_line(Path(target).stem)}.json)")
    return suffix


def written(records: Sequence[Record | Mapping[str, JSON]], form: str, name: str = "",
            lossy: bool = False) -> Conversion:
    """The text of ``records`` in ``form`` (see :func:`output_form`): a
    ``.json`` or ``.qgn`` file holds one record, a ``.jsonl`` corpus one a
    line. What the notation cannot hold (``x-`` fields, analysis, see
    :func:`qwirkle_tools.formats.qgn.dropped`) is refused, or with ``lossy``
    left out and listed in :attr:`Conversion.dropped`. ``name``, the
    output's, starts the messages.

    Raises:
        ConvertError: several records for a one-record form; what the
            notation cannot hold, without ``lossy``.
    """
    if form == ".jsonl":
        with deep_enough():
            text = "".join(json_text(r.to_data() if isinstance(r, Record) else r) + "\n" for r in records)
        return Conversion(text, len(records))
    where = f"{one_line(name)}: " if name else ""
    if len(records) != 1:
        raise ConvertError(f"{where}{len(records)} records; a {form} file holds one (write a .jsonl corpus instead)")
    (one,) = records
    if form == ".json":
        return Conversion(dumps(one), 1)
    record = one if isinstance(one, Record) else from_data(dict(one), trusted=True)
    left_out = tuple(dropped(record))
    if left_out and not lossy:
        shown = ", ".join(left_out[:3]) + (f" and {len(left_out) - 3} more" if len(left_out) > 3 else "")
        raise ConvertError(f"{where}the notation cannot hold {shown} (x- fields and analysis): "
                           "write a .json record, or convert it, which leaves them out")
    return Conversion(format_qgn(record), 1, left_out)


def convert(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> Conversion:
    """The records of ``source`` written in the form ``target``'s name asks
    for; what the notation cannot hold is left out and listed.

    Raises:
        ConvertError: a form that is not read or written, or a corpus of
            several records for a ``.json`` or ``.qgn`` target.
        InputError, UnreadableRecord: see :func:`qwirkle_tools.formats.sources.read_records`.
    """
    _suffix(source, READS, "input")
    form = output_form(target)
    loaded = load_records(source)
    if form != ".jsonl" and len(loaded) != 1:
        raise ConvertError(f"{one_line(Path(source).name)} holds {len(loaded)} records; a {form} file holds one "
                           "(write a .jsonl corpus instead)")
    done = written([one.record for one in loaded], form, lossy=True)
    return replace(done, warnings=tuple(w for one in loaded for w in one.warnings))


__all__ = ["READS", "WRITES", "ConvertError", "Conversion", "convert", "output_form", "written"]
