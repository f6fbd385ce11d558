"""Corpus work on a Dask cluster: validation, statistics, tables and self-play
spread over the processes of one machine or of many.

Needs the ``dask`` extra (``pip install 'qwirkle-tools[dask]'``: dask and
distributed); nothing here imports them until a run starts. A run:

1. checks every input before any work (a missing file is an
   :class:`~qwirkle_tools.formats.sources.InputError`, the CLI's exit 2);
2. connects to a scheduler (``tcp://HOST:PORT``, ``tls://HOST:PORT``) once
   its handshake came within :data:`TIMEOUT`, or with :data:`LOCAL` starts
   a ``LocalCluster`` of worker processes on this machine, in a host
   process of its own (both in :mod:`qwirkle_tools.corpus.connection`);
3. cuts each ``.jsonl`` corpus into blocks of lines (byte ranges; the
   workers count the newlines of each range first, so every block knows
   the number of its first line) and groups the files of folders into
   blocks of files;
4. runs each block on a worker with the same per-record code as
   ``--jobs`` (:func:`qwirkle_tools.corpus.rows.game_rows`,
   :func:`qwirkle_tools.corpus.rows.report`, :func:`qwirkle_tools.engines.selfplay.simulate_line`)
   and yields the blocks' results in corpus order, a few blocks ahead per
   worker, so the summaries merged from them, the listings and the tables
   are the same as with ``--jobs``.

Faults: a block is retried on another worker when its worker dies (Dask
reschedules it) or when it raises; a record whose check raises on a worker
becomes an ``internal`` finding instead of failing its block. Closing a
run's iterator (an interrupt, an error) cancels the blocks under way and
closes the cluster it started. Every failure to reach or speak to a
scheduler, and a scheduler lost during a run, is a :class:`ClusterError`;
Dask's logging is off during a run (nothing prints from the library).

Paths: every worker opens the inputs itself, so a local path must name the
same file on every worker's machine (a shared file system); a URL of a
scheme in :data:`URL_SCHEMES` (``s3://``, ``gs://``, ``file://``...; a member
of an archive, ``zip://NAME::s3://...``) is opened with fsspec, which needs
the package for that scheme on every worker (s3fs, gcsfs: not dependencies
of this package); other schemes are refused (:func:`check_url`). The tables are written by the client, from the rows the
blocks send back; they are not written by the workers.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Generic, TypeVar

from ..analysis.validate import Report, Tally
from ..core.errors import QwirkleError
from ..core.findings import Finding
from ..core.safetext import one_line
from ..engines.policies import PolicyName as Policy
from ..engines.selfplay import simulate_line
from ..formats.sources import (
    RECORD_SUFFIXES,
    InputError,
    Source,
    block_sources,
    count_lines,
    is_url,
    open_input,
    record_files,
)
from .connection import (  # (TIMEOUT and the rest kept here too: the names of release 0.1)
    CLOSE_TIMEOUT,
    LOCAL,
    MAX_HANDSHAKE,
    SCHEMES,
    START_TIMEOUT,
    TIMEOUT,
    Address,
    Client,
    ClusterError,
    connect,
    handshake,
    scheduler_address,
)
from .rows import GameRows, game_rows
from .rows import report as check_report
from .stats import Stats

RETRIES = 3
"""Times a block that raised is tried again (a dead worker's blocks are rescheduled by Dask anyway)."""
MIN_BLOCK = 64 * 1024
MAX_BLOCK = 32 * 1024 * 1024
FILES_PER_BLOCK = 32
GAMES_PER_BLOCK = 64

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Input:
    """A record file: ``name`` as shown in messages, ``location`` where the
    workers open it (an absolute path or a URL), its size in bytes."""

    name: str
    location: str
    size: int

    @property
    def corpus(self) -> bool:
        # the name as given, as validate.sources reads it (a chained URL's first part: the archive's member)
        return self.name.split("::")[0].lower().endswith(".jsonl")


@dataclass(frozen=True, slots=True)
class Block:
    """Lines ``[start, end)`` (in bytes) of a ``.jsonl`` corpus whose first
    line is ``first_line``, or some whole ``.json`` ``files`` (or a ``.jsonl`` corpus
    that holds no record, as one file)."""

    name: str = ""
    location: str = ""
    start: int = 0
    end: int = 0
    first_line: int = 1
    files: tuple[Input, ...] = ()

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files) if self.files else self.end - self.start

    def sources(self) -> Iterator[Source]:
        """The block's records, as :func:`qwirkle_tools.formats.sources.sources` gives them.

        Raises:
            InputError: an input cannot be read (whatever its file system raised).
        """
        if not self.files:
            with _reading(self.name):
                yield from block_sources(self.name, self.location, self.start, self.end, self.first_line)
            return
        from ..formats.sources import MAX_FILE_BYTES

        for f in self.files:
            if f.corpus:  # a corpus of blank lines (plan() puts no other among files), as sources() gives it
                yield Source(f.name, 0, b"", f.size)
                continue
            if f.size > MAX_FILE_BYTES:
                yield Source(f.name, 0, None, f.size)
                continue
            with _reading(f.name), open_input(f.location) as handle:
                text = handle.read()
            yield Source(f.name, 0, text, f.size)


@contextmanager
def _reading(name: str) -> Iterator[None]:
    """Any error of reading input ``name`` as an :class:`InputError` naming it:
    fsspec's file systems raise their own kinds, not only ``OSError`` (a zip
    member's ``BadZipFile``, ``zlib.error``, an HTTP client's errors)."""
    try:
        yield
    except QwirkleError:
        raise
    except OSError as exc:
        raise InputError(f"{one_line(name)}: cannot read: {exc.strerror or exc}") from None
    except Exception as exc:
        raise InputError(f"{one_line(name)}: cannot read: {type(exc).__name__}: {exc}") from None


@dataclass(frozen=True, slots=True)
class StatsBlock:
    """What a block gives ``stats``: its summary, the lines listing its
    broken records, its rows (when tables are written), its records and bytes."""

    stats: Stats
    broken: tuple[str, ...]
    rows: tuple[GameRows, ...] | None
    records: int
    size: int


@dataclass(frozen=True, slots=True)
class ValidateBlock:
    """What a block gives ``validate``: its tally and reports (every one, or
    those with findings only), its records and bytes."""

    tally: Tally
    reports: tuple[Report, ...]
    records: int
    size: int


@dataclass
class Run(Generic[R]):
    """A run's results, block by block in corpus order; ``size`` is the total
    of what the blocks count in ``size`` (bytes of input, or games), for a
    progress bar; ``inputs``, the record files the run reads (none for
    self-play). Closing it cancels the blocks under way."""

    size: int
    blocks: Iterator[R]
    inputs: tuple[Input, ...] = ()

    def __iter__(self) -> Iterator[R]:
        return self.blocks

    def close(self) -> None:
        close = getattr(self.blocks, "close", None)
        if close is not None:
            close()


# -- inputs ---------------------------------------------------------------------

def inputs(paths: Iterable[str | os.PathLike[str]]) -> list[Input]:
    """Every record file under ``paths``, folders walked, in the order of
    :func:`qwirkle_tools.formats.sources.input_files`; local paths made absolute
    for the workers, URLs listed with fsspec.

    Raises:
        InputError: a path is missing, unreadable, or a folder with no records.
    """
    found: list[Input] = []
    for p in paths:
        if is_url(p) or "::" in os.fspath(p) and "://" in os.fspath(p):  # a URL, or a chain of them
            found.extend(_url_inputs(os.fspath(p)))
            continue
        for f in record_files(Path(p)):
            found.append(Input(str(f), str(f.absolute()), f.stat().st_size))
    return found


URL_SCHEMES = ("file", "s3", "s3a", "gs", "gcs", "az", "abfs", "abfss", "http", "https")
"""The URL schemes the inputs may have: files and object stores a user names
(each needs its fsspec package: s3fs, gcsfs, adlfs, aiohttp)."""
ARCHIVE_SCHEMES = ("zip", "tar")
"""The schemes that may come before ``::`` in a chained URL: a member of an archive the rest names."""


def check_url(url: str) -> None:
    """Refuse a URL whose scheme is not one a user would mean for a record:
    ``reference://`` reads byte ranges of files the URL does not name,
    ``memory://`` is each worker's own, caches write on the workers. A chained
    URL may only read a member of an archive: ``zip://NAME::file://ARCHIVE``.

    >>> check_url("zip://games.jsonl::s3://bucket/games.zip")
    >>> check_url("reference://")
    Traceback (most recent call last):
    qwirkle_tools.formats.sources.InputError: reference://: reference:// URLs are not accepted (...)

    Raises:
        InputError: a scheme not in :data:`URL_SCHEMES`, or a chain that is
            not archives then one of them.
    """
    *wrappers, target = [part.partition("://")[0].lower() for part in url.split("::")]
    bad = [w for w in wrappers if w not in ARCHIVE_SCHEMES] + ([target] if target not in URL_SCHEMES else [])
    if bad:
        raise InputError(f"{one_line(url)}: {one_line(bad[0])}:// URLs are not accepted (give file://, s3://, gs://, "
                         "az:// or http(s):// URLs, or zip:// or tar:// of one)")


def _url_inputs(url: str) -> list[Input]:
    check_url(url)
    try:
        import fsspec
    except ImportError:
        raise InputError(f"{one_line(url)}: a URL needs fsspec (it comes with dask)") from None
    head, chained, tail = url.partition("::")

    def member(name: str) -> str:  # a file of a folder, as a URL the workers open
        if not chained:
            return str(fs.unstrip_protocol(name))
        return f"{head.partition('://')[0]}://{name}::{tail}"  # the chain kept: the archive is the rest

    try:
        fs, path = fsspec.core.url_to_fs(url)
        if fs.isdir(path):
            names = sorted(p for p in fs.find(path) if p.lower().endswith(RECORD_SUFFIXES)
                           and not p.rsplit("/", 1)[-1].startswith("."))
            if not names:
                raise InputError(f"{one_line(url)}: no .json, .jsonl or .qgn records in this folder")
            return [Input(member(n), member(n), int(fs.size(n))) for n in names]
        if not fs.isfile(path):
            raise InputError(f"{one_line(url)}: no such file or folder")
        return [Input(url, url, int(fs.size(path)))]
    except (ImportError, ValueError) as exc:  # no package for the scheme, a bad URL
        raise InputError(f"{one_line(url)}: cannot open: {exc}") from None
    except OSError as exc:
        raise InputError(f"{one_line(url)}: cannot read: {exc.strerror or exc}") from None


def ordered(client: Client, fn: Callable[[T], R], items: Iterable[T], ahead: int | None = None) -> Iterator[R]:
    """``map(fn, items)`` on the cluster, in order, with at most ``ahead``
    blocks under way (default: four per worker thread).

    A block that raises is tried :data:`RETRIES` more times, and its error
    then raised here once; closing the iterator cancels the blocks under way.

    Raises:
        ClusterError: a block killed its workers too often, or the scheduler
            went away (its connection lost: Dask cancels every block).
    """
    import importlib

    killed: type[Exception] = importlib.import_module("distributed").KilledWorker
    pending: deque[Any] = deque()
    try:
        ahead = ahead or 4 * max(sum(client.nthreads().values()), 1)
        for item in items:
            pending.append(client.submit(fn, item, retries=RETRIES, pure=False))
            if len(pending) >= ahead:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    except killed as exc:
        raise ClusterError(f"a block killed its workers too often: {exc}") from None
    except Exception as exc:
        if _gone(client, exc):
            pending.clear()  # Dask cancelled them, and there is nobody to tell
            raise ClusterError(f"the Dask scheduler at {one_line(str(client.scheduler.address))} went away") from None
        raise
    finally:
        if pending and client.status == "running":
            client.cancel(list(pending))


def _gone(client: Client, exc: Exception) -> bool:
    """Whether ``exc`` says the client lost its scheduler (a block's own error says nothing of the kind)."""
    return getattr(exc, "reason", None) == "scheduler-connection-lost" or client.status != "running"


def plan(client: Client, found: Sequence[Input], block_bytes: int | None = None) -> list[Block]:
    """The blocks of the inputs: byte ranges of corpora, groups of files.

    The workers count each range's newlines (one pass over the corpus), so
    each block knows its first line's number.

    Raises:
        InputError: the only input is a corpus of blank lines, or an input cannot be read.
    """
    threads = max(sum(client.nthreads().values()), 1)
    total = sum(f.size for f in found)
    step = block_bytes or min(max(total // (32 * threads), MIN_BLOCK), MAX_BLOCK)
    ranges = [(f, start, min(start + step, f.size)) for f in found if f.corpus for start in range(0, f.size, step)]
    counts = dict(zip(ranges, ordered(client, _count, [(f.location, a, b) for f, a, b in ranges])))
    blocks: list[Block] = []
    files: list[Input] = []
    for f in found:
        if not f.corpus:
            files.append(f)
            if len(files) == FILES_PER_BLOCK:
                blocks.append(Block(files=tuple(files)))
                files = []
            continue
        if files:
            blocks.append(Block(files=tuple(files)))
            files = []
        line, content, cut, mark = 1, False, False, len(blocks)
        for start in range(0, f.size, step):
            end = min(start + step, f.size)
            newlines, some, last = counts[(f, start, end)]
            # ``line`` is the number of the line holding byte ``start``; when that
            # byte is inside a line, the block before owns the line and this
            # block's first record is the next one
            if newlines or not cut:  # else every byte is inside a line the block before reads: no work here
                blocks.append(Block(f.name, f.location, start, end, line + cut))
            line += newlines
            content = content or some
            cut = not last
        if not content and len(found) == 1:
            raise InputError(f"{f.name}: no records in this corpus (every line is blank)")
        if not content:  # one source, as sources() gives it: an empty-file finding in its place
            del blocks[mark:]
            blocks.append(Block(files=(f,)))
    if files:
        blocks.append(Block(files=tuple(files)))
    return blocks


def _count(item: tuple[str, int, int]) -> tuple[int, bool, bool]:
    location, start, end = item
    with _reading(location):
        return count_lines(location, start, end)


# -- the work of a block ------------------------------------------------------

def _guarded(fn: Callable[[Source], T], fail: Callable[[Source, Finding], T], source: Source) -> T:
    """``fn(source)``; if it raises, ``fail`` with an ``internal`` finding
    naming the exception, so one record never loses its block."""
    try:
        return fn(source)
    except Exception as exc:  # a bug on one record: report it as the record's finding
        from ..core.findings import make

        return fail(source, make("internal", None, "", f"the check failed: {type(exc).__name__}: {exc}"))


def _failed_rows(source: Source, finding: Finding) -> GameRows:
    size = len(source.text) if source.text is not None else source.size
    return GameRows(f"{source.path}:{source.index}" if source.index else source.path, size, None, (), (finding,))


def _failed_report(source: Source, finding: Finding) -> Report:
    return Report(source.path, source.index, (finding,))


def stats_block(block: Block, analyse: bool = False, rows: bool = False,
                fn: Callable[[Source], GameRows] | None = None) -> StatsBlock:
    """Run ``stats``' per-record code (:func:`~qwirkle_tools.corpus.rows.game_rows`) over a block."""
    one = fn or partial(game_rows, analyse=analyse)
    summary, broken, kept, records = Stats(), [], [], 0
    for source in block.sources():
        result = _guarded(one, _failed_rows, source)
        records += 1
        summary.add(result)
        line = result.broken_line()
        if line is not None:
            broken.append(line)
        if rows:
            kept.append(result)
    return StatsBlock(summary, tuple(broken), tuple(kept) if rows else None, records, block.size)


def validate_block(block: Block, every: bool = False, fn: Callable[[Source], Report] | None = None) -> ValidateBlock:
    """Run ``validate``'s per-record code (:func:`~qwirkle_tools.corpus.rows.report`) over a block;
    the reports of clean records are kept only if ``every``."""
    one = fn or check_report
    tally, kept, records = Tally(), [], 0
    for source in block.sources():
        found = _guarded(one, _failed_report, source)
        records += 1
        tally.add(found)
        if every or found.findings:
            kept.append(found)
    return ValidateBlock(tally, tuple(kept), records, block.size)


def simulate_block(games: range, players: int = 2, seed: int = 0,
                   policy: Policy | tuple[Policy, ...] = "greedy") -> bytes:
    """Games ``games`` of a corpus made with ``seed``, as ``.jsonl`` lines
    (see :func:`~qwirkle_tools.engines.selfplay.simulate_line`)."""
    return b"".join(simulate_line(i, players, seed, policy) for i in games)


# -- runs -----------------------------------------------------------------------

def _run(address: str, workers: int | None, make: Callable[[Client], Iterator[R]], security: Any = None) -> Iterator[R]:
    with connect(address, workers, TIMEOUT, security) as client:  # (this module's TIMEOUT, read now: a test sets it)
        try:
            yield from make(client)
        except QwirkleError:
            raise
        except Exception as exc:  # the scheduler lost while planning (ordered() says so for the blocks)
            if _gone(client, exc):
                raise ClusterError(f"the Dask scheduler at {one_line(str(client.scheduler.address))} went away") from None
            raise


def stats(paths: Iterable[str | os.PathLike[str]], address: str, analyse: bool = False, rows: bool = False,
          workers: int | None = None, block_bytes: int | None = None, security: Any = None) -> Run[StatsBlock]:
    """``stats`` on a cluster: a :class:`StatsBlock` per block, in corpus order.

    Merge the blocks' ``stats`` with :meth:`~qwirkle_tools.corpus.stats.Stats.merge`;
    their ``broken`` lines and ``rows`` in order are those of
    :func:`qwirkle_tools.corpus.rows.run`. The inputs are checked now, before
    any work; the cluster is reached when the first block is asked for.

    ``security``: see :func:`connect`.

    Raises:
        InputError: a path cannot be read (now, or while running).
        ClusterError: see :func:`connect` and :func:`ordered`.
    """
    found = inputs(paths)
    work = partial(stats_block, analyse=analyse, rows=rows)
    return Run(sum(f.size for f in found),
               _run(address, workers, lambda client: ordered(client, work, plan(client, found, block_bytes)), security),
               tuple(found))


def validate(paths: Iterable[str | os.PathLike[str]], address: str, every: bool = False,
             workers: int | None = None, block_bytes: int | None = None, security: Any = None) -> Run[ValidateBlock]:
    """``validate`` on a cluster: a :class:`ValidateBlock` per block, in
    corpus order (see :func:`stats`); ``every`` keeps the reports of clean records too."""
    found = inputs(paths)
    work = partial(validate_block, every=every)
    return Run(sum(f.size for f in found),
               _run(address, workers, lambda client: ordered(client, work, plan(client, found, block_bytes)), security),
               tuple(found))


def simulate(games: int, address: str, players: int = 2, seed: int = 0, policy: Policy | tuple[Policy, ...] = "greedy",
             workers: int | None = None, block: int = GAMES_PER_BLOCK, security: Any = None) -> Run[bytes]:
    """Self-play on a cluster: the ``.jsonl`` lines of games ``0 .. games-1``
    in order, ``block`` games per block; the same games as a local run with
    the same seed (every game has its own seed, :func:`~qwirkle_tools.engines.selfplay.game_seed`)."""
    work = partial(simulate_block, players=players, seed=seed, policy=policy)
    chunks = [range(i, min(i + block, games)) for i in range(0, games, block)]
    return Run(games, _run(address, workers, lambda client: ordered(client, work, chunks), security))


__all__ = ["ARCHIVE_SCHEMES", "CLOSE_TIMEOUT", "LOCAL", "MAX_HANDSHAKE", "SCHEMES", "START_TIMEOUT", "TIMEOUT", "URL_SCHEMES",
           "Address", "Block", "Client", "ClusterError", "Input", "Run", "StatsBlock", "ValidateBlock", "check_url", "connect",
           "handshake", "inputs", "ordered", "plan", "scheduler_address", "simulate", "simulate_block", "stats",
           "stats_block", "validate", "validate_block"]
