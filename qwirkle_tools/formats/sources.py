"""Reading records: files, folders, ``.jsonl`` corpora and URLs to record texts, and a record's
text (JSON, the notation, a score sheet) to its data."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import BinaryIO, NamedTuple

from ..core.errors import QwirkleError
from ..core.findings import Finding, capped, line_and_column, make, placed
from . import record as rec
from . import schema
from .jsontext import JSON, parse_json
from .record import Parsed, Record

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest ``.json`` file or ``.jsonl`` line read as one record."""
RECORD_SUFFIXES = (".json", ".jsonl", ".qgn")
"""What a folder is searched for: records, corpora and games in the notation.
A score sheet (``.csv``) is read when named, never looked for (a folder of
reports holds tables that are not score sheets)."""


class InputError(QwirkleError):
    """A path that cannot be read: missing, unreadable, or holding no records."""


@dataclass(frozen=True, slots=True)
class Source:
    """One record's text and where it came from.

    ``index`` is the 1-based line of a ``.jsonl`` corpus, 0 for a plain file.
    ``text`` is ``None`` for a file too large to read (``size`` says how large).
    """

    path: str
    index: int
    text: bytes | None
    size: int = 0

    @property
    def empty_corpus(self) -> bool:
        """Whether this is a ``.jsonl`` corpus as a whole (``index`` 0) that holds no record."""
        return not self.index and self.path.split("::")[0].lower().endswith(".jsonl") and \
            self.text is not None and not self.text.strip()

    @property
    def form(self) -> str:
        """How the text is written: ``qgn`` (the notation), ``csv`` (a score
        sheet) or ``json``, from the file's name (a chained URL's first part:
        ``zip://game.qgn::s3://b/games.zip`` is notation)."""
        if not self.index:
            name = self.path.split("::")[0].lower()
            if name.endswith(".qgn"):
                return "qgn"
            if name.endswith(".csv"):
                return "csv"
        return "json"


def parse_source(text: bytes, exact: bool = False) -> tuple[object, Finding | None]:
    """The JSON value of a record's text, or a ``json`` finding saying what is wrong.

    ``exact``: see :func:`qwirkle_tools.formats.record.parse_json`.
    """
    if text.startswith(b"\xef\xbb\xbf"):
        text = text[3:]  # a UTF-8 byte-order mark, as some editors write
    if len(text) > MAX_FILE_BYTES:
        return None, make("too-large", None, "",
                          f"{len(text):,} bytes; the limit is {MAX_FILE_BYTES:,}")
    if not text or text.isspace():
        return None, make("json", None, "", "empty: no JSON value")
    try:
        return parse_json(text, exact), None
    except json.JSONDecodeError as exc:
        return None, make("json", None, "", f"line {exc.lineno}, column {exc.colno}: {exc.msg}")
    except (ValueError, RecursionError) as exc:  # e.g. nesting deeper than the parser allows
        return None, make("json", None, "", f"unreadable JSON: {exc}")


def parse_written(text: bytes, form: str) -> Parsed:
    """The record data of a game's notation (``form`` ``qgn``) or a score
    sheet (``csv``), with a finding for each mistake (see
    :func:`qwirkle_tools.formats.qgn.parse_qgn`, :func:`qwirkle_tools.formats.sheets.parse_sheet`)."""
    code = "qgn" if form == "qgn" else "sheet"
    if text.startswith(b"\xef\xbb\xbf"):
        text = text[3:]
    try:
        decoded = text.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = line_and_column(text[:exc.start].decode("utf-8"))  # lines as the readers count them
        where = f"line {line}" if form == "qgn" else f"line {line} of the file"
        return Parsed({}, (make(code, None, "", f"{where}, column {column}: not UTF-8 (byte {text[exc.start]:#04x}); "
                                               "save the file as UTF-8"),))
    if form == "qgn":
        from .qgn import parse_qgn

        return parse_qgn(decoded)
    from .sheets import parse_sheet

    return parse_sheet(decoded)


EMPTY_GUESSES: Mapping[int, tuple[dict[str, JSON], tuple[tuple[int, int, int, str], ...]]] = MappingProxyType({})


class Read(NamedTuple):
    """What reading a record's text gives (see :func:`read_source`)."""

    read: bool
    data: object
    findings: tuple[Finding, ...]
    broken: frozenset[int]
    places: Mapping[str, str]
    guesses: Mapping[int, tuple[dict[str, JSON], tuple[tuple[int, int, int, str], ...]]] = EMPTY_GUESSES


def read_source(source: Source, exact: bool) -> Read:
    """Whether a record's text could be read into data at all (JSON, a game
    in the notation, a score sheet), the data, the findings of reading it
    (a mistake in hand-written text leaves the rest readable), the turns
    left unread and where values were written (see :class:`~qwirkle_tools.formats.record.Parsed`)."""
    if source.text is None:
        return Read(False, None, (make("too-large", None, "", f"{source.size:,} bytes; the limit is {MAX_FILE_BYTES:,}"),),
                    frozenset(), {})
    if source.empty_corpus:
        return Read(False, None, (make("empty-file", None, "", "holds no record (every line is blank)"),), frozenset(), {})
    if source.form != "json":
        parsed = parse_written(source.text, source.form)
        return Read(bool(parsed.data), parsed.data, parsed.findings, parsed.broken, parsed.places, parsed.guesses)
    data, problem = parse_source(source.text, exact)
    if problem is not None:
        return Read(False, None, (problem,), frozenset(), {})
    return Read(True, data, (), frozenset(), {})


def source_data(source: Source, exact: bool) -> tuple[bool, object, tuple[Finding, ...], frozenset[int]]:
    """:func:`read_source` without the places."""
    read, data, findings, broken, _, _ = read_source(source, exact)
    return read, data, findings, broken


def record_files(path: Path) -> list[Path]:
    """The record files a path names: itself, or the ``.json``, ``.jsonl``
    and ``.qgn`` files in a folder."""
    if path.is_dir():
        found = sorted(
            p for p in path.rglob("*")
            if p.suffix.lower() in RECORD_SUFFIXES and p.is_file() and not p.name.startswith(".")
        )
        if not found:
            raise InputError(f"{path}: no .json, .jsonl or .qgn records in this folder")
        return found
    if path.is_file():
        return [path]
    if path.exists():  # a device, a pipe: reading it could block or never end
        raise InputError(f"{path}: not a regular file")
    raise InputError(f"{path}: no such file or folder")


def input_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Every record file under ``paths``, folders walked, in order.

    Raises:
        InputError: a path is missing, unreadable, or a folder with no records.
    """
    return [f for p in paths for f in record_files(Path(p))]


def sources(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Source]:
    """Every record text under ``paths``, streamed (a corpus line at a time).

    All paths are checked first, so a missing one fails before any work. A
    ``.jsonl`` corpus with no record is one source in its place, the corpus
    as a whole (:attr:`Source.empty_corpus`: an ``empty-file`` finding),
    unless it is the whole input.

    Raises:
        InputError: a path is missing, unreadable, or a folder with no records;
            the only file is a corpus with no record.
    """
    files = input_files(paths)
    for f in files:
        name = str(f)
        try:
            if f.suffix.lower() == ".jsonl":
                records = 0
                with f.open("rb") as handle:
                    for number, (line, size) in enumerate(_lines(handle), 1):
                        if line is None or line.strip():
                            records += 1
                            yield Source(name, number, line, size)
                if not records and len(files) == 1:
                    raise InputError(f"{name}: no records in this corpus (every line is blank)")
                if not records:
                    yield Source(name, 0, b"", f.stat().st_size)
            else:
                size = f.stat().st_size
                yield Source(name, 0, None if size > MAX_FILE_BYTES else f.read_bytes(), size)
        except OSError as exc:
            raise InputError(f"{name}: cannot read: {exc.strerror or exc}") from None


def _lines(handle: BinaryIO) -> Iterator[tuple[bytes | None, int]]:
    """Each line and its size; ``None`` for a line over :data:`MAX_FILE_BYTES`,
    which is skipped without being held in memory."""
    while line := handle.readline(MAX_FILE_BYTES + 1):
        size = len(line)
        if size <= MAX_FILE_BYTES or line.endswith(b"\n"):
            yield line, size
            continue
        while not line.endswith(b"\n") and (line := handle.readline(1 << 20)):
            size += len(line)
        yield None, size - line.endswith(b"\n")


def is_url(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a URL with a scheme (``s3://...``), to be opened with fsspec.

    >>> is_url("s3://bucket/corpus.jsonl"), is_url("corpus.jsonl"), is_url("C:/games"), is_url("a b://c")
    (True, False, False, False)
    """
    text = os.fspath(path)
    scheme, sep, _ = text.partition("://")
    return bool(sep) and scheme.replace("+", "").replace("-", "").isalnum() and len(scheme) > 1


def open_input(location: str) -> BinaryIO:
    """A local file or an fsspec URL, opened for binary reading.

    A URL needs fsspec and the package for its scheme (s3fs, gcsfs...);
    none of them is a dependency of this package.

    Raises:
        OSError: the file cannot be opened.
        ImportError: a URL without fsspec.
    """
    if is_url(location):
        import weakref

        import fsspec

        opened = fsspec.open(location, "rb")
        handle: BinaryIO = opened.open()
        # kept while the file is: collected, the OpenFile (or its file system) closes
        # the outer file of a chained URL, a zip's archive, under the member being read
        weakref.finalize(handle, opened.close)
        return handle
    return open(location, "rb")  # the caller closes it


def count_lines(location: str, start: int, end: int) -> tuple[int, bool, bool]:
    """The newlines in bytes ``[start, end)`` of a file, whether any of those
    bytes is not blank (a corpus of blank lines holds no record), and
    whether the last of them is a newline (so the next range starts a line)."""
    newlines, content, last = 0, False, False
    with open_input(location) as handle:
        handle.seek(start)
        left = end - start
        while left > 0 and (chunk := handle.read(min(left, 1 << 20))):
            left -= len(chunk)
            newlines += chunk.count(b"\n")
            content = content or bool(chunk.strip())
            last = chunk.endswith(b"\n")
    return newlines, content, last


def block_sources(name: str, location: str, start: int, end: int, first_line: int) -> Iterator[Source]:
    """The records of a ``.jsonl`` corpus whose lines start in bytes ``[start, end)``.

    ``start`` must be a line start or a byte inside the line before it: a
    line that begins before ``start`` belongs to the block before, so blocks
    cut at any byte cover every line once. ``first_line`` is the 1-based
    number of the first line starting at or after ``start``, so the records'
    places are those :func:`sources` gives. ``location`` is where to open
    the file (an absolute path or a URL), ``name`` how to show it.

    Raises:
        InputError: the file cannot be read.
    """
    try:
        with open_input(location) as handle:
            if start > 0:
                handle.seek(start - 1)
                if handle.read(1) != b"\n":  # inside a line: it belongs to the block before,
                    # which reads it; skip to its end, but not past ``end``: a long line is read once
                    while (part := handle.readline(min(1 << 20, max(end - handle.tell(), 1)))) \
                            and not part.endswith(b"\n") and handle.tell() < end:
                        pass
            number = first_line
            lines = _lines(handle)
            while handle.tell() < end:
                item = next(lines, None)
                if item is None:
                    break
                line, size = item
                if line is None or line.strip():
                    yield Source(name, number, line, size)
                number += 1
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror or exc}") from None


class UnreadableRecord(QwirkleError):
    """A record too broken to work with (not JSON, or not of the schema):
    :attr:`findings` say what is wrong and where."""

    exit_code = 1

    def __init__(self, where: str, findings: tuple[Finding, ...]) -> None:
        super().__init__(f"{where}: not a readable record; fix the errors above first")
        self.where = where
        self.findings = findings

    @property
    def details(self) -> tuple[str, ...]:
        """Each finding's line, and under it the excerpt of a mistake in hand-written text."""
        return tuple(line for f in self.findings for line in f.lines(self.where))


def read_record(path: str | os.PathLike[str]) -> Record:
    """The one record in a file (a ``.json`` record, a ``.qgn`` game, a
    ``.csv`` score sheet), read exactly (it may be written back) and checked
    against the schema, not replayed (whoever uses it replays it once, with
    :func:`qwirkle_tools.play.engine.replay`). The warnings of reading
    hand-written text are left out: :func:`load_record` keeps them.

    Raises:
        InputError: the path is missing, unreadable, or a ``.jsonl`` corpus.
        UnreadableRecord: the text is not JSON, has a mistake, or is not of the schema.
    """
    return load_record(path).record


@dataclass(frozen=True, slots=True)
class Loaded:
    """A record read from a file, with the warnings of reading it (slips
    in hand-written text read past, see :func:`~qwirkle_tools.formats.qgn.parse_qgn`)
    and where its values were written (see :class:`~qwirkle_tools.formats.record.Parsed`)."""

    record: Record
    warnings: tuple[Finding, ...] = ()
    places: Mapping[str, str] = field(default_factory=dict)

    def told(self, replayed: Iterable[Finding]) -> list[Finding]:
        """What a command that draws the record (a chart, a page) tells of
        it: the warnings of reading it, and the replay's findings on the
        totals it draws (``result-mismatch``: a claimed total the turns do
        not add up to), each told where it was written."""
        return self.with_warnings(f for f in replayed if f.code == "result-mismatch")

    def with_warnings(self, findings: Iterable[Finding]) -> list[Finding]:
        """The warnings of reading the record, then ``findings``, each told where it was written."""
        return [*self.warnings, *placed(findings, self.places)]


def load_record(path: str | os.PathLike[str]) -> Loaded:
    """The one record in a file, as :func:`read_record` reads it, with the
    warnings of reading it and the places of its values.

    Raises:
        InputError, UnreadableRecord: as :func:`read_record`.
    """
    found = list(sources([path]))
    if len(found) != 1 or found[0].index:
        raise InputError(f"{path}: expected a file holding one record, not a .jsonl corpus")
    return _read(found[0])


def load_game(path: str | os.PathLike[str], game: int | None = None) -> Loaded:
    """One game of a file, read as :func:`load_record` reads it: the record of a
    file of one (game 1), or the game numbered ``game`` of a ``.jsonl`` corpus (a
    match's output: one record a line, numbered from 1, blank lines not counted),
    read up to that game only. A corpus of one game needs no number.

    Raises:
        InputError: as :func:`read_record`, a ``game`` the file does not hold,
            or a corpus of several games and no ``game``.
        UnreadableRecord: as :func:`read_record` (that game's text only).
    """
    if game is not None and game < 1:
        raise InputError(f"--game {game}: the games of a file are numbered from 1")
    wanted = game or 1
    found, held = None, 0
    texts = sources([path])
    for source in texts:
        held += 1
        if held == wanted:
            found = source
            if game is not None or not source.index:  # (no number: a corpus must hold no other game)
                break
        elif held > wanted:
            held += sum(1 for _ in texts)  # (each line read and let go: the count for the message)
            raise InputError(f"{path} holds {held:,} games (a .jsonl corpus): choose one with --game N (1 to {held:,})")
    if found is None:
        raise InputError(f"--game {game}: {path} holds {held:,} {'game' if held == 1 else 'games'} (1 to {held:,})")
    return _read(found)


def read_records(path: str | os.PathLike[str]) -> list[Record]:
    """Every record in a file: the one of a record, a game or a score
    sheet, each line of a ``.jsonl`` corpus; read as :func:`read_record` does.

    Raises:
        InputError: the path is missing or unreadable.
        UnreadableRecord: the first record that cannot be read.
    """
    return [one.record for one in load_records(path)]


def load_records(path: str | os.PathLike[str]) -> list[Loaded]:
    """Every record in a file, as :func:`read_records` reads them, each with the warnings of reading it.

    Raises:
        InputError, UnreadableRecord: as :func:`read_records`.
    """
    return [_read(source) for source in sources([path])]


def _read(source: Source) -> Loaded:
    where = f"{source.path}:{source.index}" if source.index else source.path
    _, data, problems, _, places, _ = read_source(source, exact=True)
    if any(f.is_error for f in problems):  # (a slip read past, a warning, leaves the record readable)
        raise UnreadableRecord(where, tuple(capped(list(problems))))
    findings = schema.check(data)
    if findings:
        raise UnreadableRecord(where, tuple(findings))
    return Loaded(rec.from_data(data, trusted=True), problems, places)
