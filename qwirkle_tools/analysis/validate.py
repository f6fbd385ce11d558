"""Validation of records in files, folders and ``.jsonl`` corpora.

The pipeline for one record: parse the JSON, check it against the schema,
read what can be read of it, replay it (:func:`qwirkle_tools.play.history.check`).
Every step reports findings instead of raising, so one broken record never
stops the others. Only a path that cannot be read at all raises
:class:`InputError` (the CLI's exit code 2).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from ..core.findings import MAX_FINDINGS, Finding, capped, placed
from ..core.safetext import json_text
from ..core.text import plural
from ..formats import record as rec
from ..formats import schema
from ..formats.jsontext import inexact_integers
from ..formats.record import Record, Turn
from ..formats.sources import (
    Source,
    read_source,
    source_data,
    sources,
)
from ..play.engine import History, replay
from ..play.engine import check as replay_check


@dataclass(frozen=True, slots=True)
class Report:
    """The findings for one record, the record when it could be read, and
    its replay when one was asked for (see :func:`check_data`)."""

    path: str
    index: int
    findings: tuple[Finding, ...]
    record: Record | None = None
    history: History | None = None

    @property
    def valid(self) -> bool:
        return not any(f.is_error for f in self.findings)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.index}" if self.index else self.path

    def to_data(self) -> dict[str, object]:
        return {
            "path": self.path,
            "index": self.index,
            "valid": self.valid,
            "findings": [f.to_data() for f in self.findings],
        }


@dataclass
class Tally:
    """Counts over the reports of a run: records, invalid ones, errors, warnings."""

    records: int = 0
    invalid: int = 0
    errors: int = 0
    warnings: int = 0

    def add(self, report: Report) -> None:
        self.records += 1
        self.invalid += not report.valid
        for f in report.findings:
            if f.is_error:
                self.errors += 1
            else:
                self.warnings += 1

    def merge(self, other: Tally) -> Tally:
        """The tally of both runs (associative and commutative: the counts add up)."""
        return Tally(self.records + other.records, self.invalid + other.invalid, self.errors + other.errors,
                     self.warnings + other.warnings)

    def to_data(self) -> dict[str, int]:
        return {"records": self.records, "valid": self.records - self.invalid, "invalid": self.invalid,
                "errors": self.errors, "warnings": self.warnings}

    def text(self) -> str:
        """``3 records: 2 valid, 1 invalid (2 errors, 0 warnings)``."""
        return (f"{self.records} {plural(self.records, 'record')}: {self.records - self.invalid} valid, {self.invalid} invalid "
                f"({self.errors} {plural(self.errors, 'error')}, {self.warnings} {plural(self.warnings, 'warning')})")


class Document:
    """The JSON document of a run's reports, written as they come:
    ``{"records": [REPORT, ...], "summary": TALLY}`` (a run cut short ends ``{"records": [...]}``).

    >>> document = Document()
    >>> print(document.start() + document.report(Report("a.json", 0, ())) + document.end(None), end="")
    {"records": [
      {"path": "a.json", "index": 0, "valid": true, "findings": []}
    ]}
    """

    def __init__(self) -> None:
        self.reports = 0

    def start(self) -> str:
        return '{"records": ['

    def report(self, report: Report) -> str:
        """One report, after a comma once one was written."""
        self.reports += 1
        return ("\n  " if self.reports == 1 else ",\n  ") + json_text(report.to_data())

    def end(self, summary: Tally | None) -> str:
        """The list's end, then ``summary`` (``None``: the run was cut short, no summary)."""
        return "\n]}\n" if summary is None else '\n], "summary": ' + json_text(summary.to_data()) + "}\n"


def check_data(data: object, keep_record: bool = True) -> tuple[Record | None, list[Finding]]:
    """Schema and replay findings for parsed JSON data, and the record read
    from it (``None`` when unreadable, or when not ``keep_record`` and clean)."""
    record, findings, _ = _check(data, None)
    return (record if keep_record or findings else None), findings


def _check(data: object, positions: bool | None,
           broken: frozenset[int] = frozenset()) -> tuple[Record | None, list[Finding], History | None]:
    """The record, every finding, and with ``positions`` not ``None`` the
    history of the one replay (keeping states or not). ``broken`` turns
    (of hand-written text, see :class:`~qwirkle_tools.formats.record.Parsed`) are
    replayed as unreadable."""
    findings = schema.check(data)
    turns: list[Turn | None] | None = None
    if not findings and not broken:
        return _replayed(rec.from_data(data, trusted=True), findings, None, positions)
    if isinstance(data, dict) and isinstance(data.get("turns"), list) and len(data["turns"]) > schema.MAX_TURNS:
        return None, findings, None  # beyond the limit: not replayed (millions of turns would take minutes)
    try:
        record, turns = rec.from_data_lenient(data)
    except rec.RecordError:
        return None, findings, None
    if record is None:
        return None, findings, None
    if broken:
        turns = [None if i in broken else t for i, t in enumerate(turns)]
    return _replayed(record, findings, turns, positions)


def _replayed(record: Record, findings: list[Finding], turns: list[Turn | None] | None,
              positions: bool | None) -> tuple[Record, list[Finding], History | None]:
    if positions is None:
        return record, capped(findings + replay_check(record, turns)), None
    history = replay(record, turns, positions)
    return record, capped(findings + list(history.findings)), history


def check_source(source: Source, keep_record: bool = True, exact: bool = False,
                 positions: bool | None = None) -> Report:
    """The report for one record's text (see :func:`check_data` for
    ``keep_record``, :func:`parse_source` for ``exact``). With ``positions``
    not ``None`` the record is replayed into a history, which the report
    keeps (with a state per turn if ``positions``), so that whoever needs
    the replay does not replay again."""
    read, data, problems, broken, places, guesses = read_source(source, exact)
    if not read:
        return Report(source.path, source.index, problems)
    record, findings, history = _check(data, positions, broken)
    if source.form == "qgn" and record is not None and len(problems) < MAX_FINDINGS and \
            (guesses or broken or any(f.is_error for f in findings)):  # hand-written: one finding a slip
        from .repair import read_as_meant

        record, findings, problems, history = read_as_meant(data, findings, problems, broken, guesses, positions, history)
    elif source.form == "csv" and record is not None and sum(f.code == "result-mismatch" for f in findings) > 1:
        from .sheetslips import sheet_slips

        findings = sheet_slips(record, findings, places)
    if source.form == "json" and not exact and findings and source.text is not None and \
            inexact_integers(source.text):
        # an integer beyond 64 bits, read as a float, may be what is wrong: read
        # it exactly, so that the findings are those of the exact reading
        _, data, _, _ = source_data(source, exact=True)
        record, findings, history = _check(data, positions)
    if len(problems) >= MAX_FINDINGS:  # the reader stopped at the cap: its note ends the record's findings
        findings = list(problems)
    else:  # the reader's, the schema's and the replay's (told where hand-written text has them), capped once more
        findings = capped([*problems, *placed(findings, places)])
    if not keep_record and not findings:
        record = None
    return Report(source.path, source.index, tuple(findings), record, history)


def as_meant(path: str | os.PathLike[str]) -> tuple[Record, tuple[Finding, ...]]:
    """The hand-written game in ``path`` as meant (each slip repaired) and its ``slip`` findings, for
    ``rescore --repair``.

    Raises:
        InputError: the path cannot be read, or holds a corpus.
        UnreadableRecord: a turn could not be read and no reading fits it, or the text is not a record.
    """
    from ..formats.sources import InputError, UnreadableRecord

    found = list(sources([path]))
    if len(found) != 1:
        raise InputError(f"{path}: holds {len(found)} records; --repair reads one game")
    source = found[0]
    where = str(path)
    if source.form != "qgn":
        raise InputError(f"{path}: --repair reads a game in the notation (.qgn); a record's or a score sheet's "
                         "slips are told by qwirkle validate, and fixed by hand")
    report = check_source(source, positions=True)
    history = report.history
    unread = [f for f in report.findings if f.is_error and f.code in ("qgn", "schema")]
    if report.record is None or history is None or unread or any(t is None for t in history.turns):
        raise UnreadableRecord(where, tuple(unread) or report.findings)
    record = replace(report.record, turns=tuple(t for t in history.turns if t is not None))
    return record, tuple(f for f in report.findings if f.code == "slip")


def validate(paths: Iterable[str | os.PathLike[str]], keep_records: bool = False) -> Iterator[Report]:
    """A report for every record under ``paths``, in order.

    Clean records are checked on a fast path that does not build the typed
    record; ``keep_records`` asks for every readable record to be kept.
    """
    for source in sources(paths):
        yield check_source(source, keep_records)
