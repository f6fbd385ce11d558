"""One runner for corpora: the checks of ``validate``, the rows of ``stats``
and self-play, each behind one call (:func:`check`, :func:`summarise`,
:func:`play`) that runs in this process, over ``jobs`` processes
(:func:`qwirkle_tools.corpus.pool.ordered_map`) or, given a Dask
``address``, on a cluster (:mod:`qwirkle_tools.corpus.cluster`, imported
only then; ``local`` starts one of ``jobs`` workers, or one per core).

Each call checks its inputs at once (the paths are walked once, and a
missing one is an :class:`~qwirkle_tools.formats.sources.InputError`
before any work) and returns a :class:`Run`: its parts in corpus order,
the same wherever they ran (a record each here, a block of records on a
cluster), and the summary folded from them as they come. Closing a run
stops the work under way (the processes, the cluster's blocks).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from ..analysis.validate import Report, Tally
from ..formats.sources import input_files, is_url
from .pool import ordered_map
from .rows import GameRows, reports, run
from .stats import Stats

if TYPE_CHECKING:
    from ..engines.policies import PolicyName as Policy
    from .cluster import Input

P = TypeVar("P")
S = TypeVar("S")
Paths = Iterable[str | os.PathLike[str]]


@dataclass(frozen=True, slots=True)
class Checked:
    """A part of a :func:`check` run: the reports to show (every one, or
    those with findings only), and the records and bytes it covers."""

    reports: tuple[Report, ...]
    records: int
    size: int


@dataclass(frozen=True, slots=True)
class Summarised:
    """A part of a :func:`summarise` run: the lines listing its broken
    records (see :meth:`~qwirkle_tools.corpus.rows.GameRows.broken_line`),
    its rows (when asked for), and the records and bytes it covers."""

    broken: tuple[str, ...]
    rows: tuple[GameRows, ...]
    records: int
    size: int


@dataclass(frozen=True, slots=True)
class Played:
    """A part of a :func:`play` run: ``games`` games as ``.jsonl`` lines."""

    lines: bytes
    games: int


class Run(Generic[P, S]):
    """A run's parts in corpus order (iterate it once), with ``size``, the
    total of the parts' sizes (bytes of input, or games: for a progress
    bar), ``files``, the local record files it reads (for the checks of an
    output), and ``summary``, folded as the parts come (complete once they
    are all read). :meth:`close` stops the work under way."""

    def __init__(self, size: int, summary: S, feed: Callable[[Run[P, S]], Generator[P, None, None]],
                 files: tuple[Path, ...] = ()) -> None:
        self.size, self.summary, self.files = size, summary, files
        self._parts = feed(self)  # (a generator: nothing runs until the first part is asked for)

    def __iter__(self) -> Iterator[P]:
        return self._parts

    def close(self) -> None:
        self._parts.close()


def dask_workers(address: str | None, jobs: int) -> int | None:
    """The worker processes of ``--dask local``: ``jobs`` when more than one, else one per core (``None``)."""
    return jobs if address is not None and jobs > 1 else None


def check(paths: Paths, every: bool = False, jobs: int = 1, dask: str | None = None) -> Run[Checked, Tally]:
    """Validate every record under ``paths``: the reports in order (those
    with findings, or ``every`` one) and their :class:`~qwirkle_tools.analysis.validate.Tally`.

    Raises:
        qwirkle_tools.formats.sources.InputError: a path cannot be read (now, or while running).
        qwirkle_tools.corpus.connection.ClusterError: see :func:`qwirkle_tools.corpus.cluster.validate`.
    """
    if dask is not None:
        from . import cluster

        blocks = cluster.validate(paths, dask, every=every, workers=dask_workers(dask, jobs))

        def merged(done: Run[Checked, Tally]) -> Generator[Checked, None, None]:
            with _closing(blocks):
                for block in blocks:
                    done.summary = done.summary.merge(block.tally)
                    yield Checked(block.reports, block.records, block.size)

        return Run(blocks.size, Tally(), merged, _local(blocks.inputs))
    files = input_files(paths)

    def each(done: Run[Checked, Tally]) -> Generator[Checked, None, None]:
        with _closing(found := reports(files, jobs)):
            for report, size in found:
                done.summary.add(report)
                yield Checked((report,) if every or report.findings else (), 1, size)

    return Run(_size(files), Tally(), each, tuple(files))


def summarise(paths: Paths, analyse: bool = False, rows: bool = False, jobs: int = 1,
              dask: str | None = None) -> Run[Summarised, Stats]:
    """The :class:`~qwirkle_tools.corpus.stats.Stats` of every record under
    ``paths`` (with ``analyse``, of their analysis too), the lines listing
    the broken ones in order, and with ``rows`` every record's rows.

    Raises:
        qwirkle_tools.formats.sources.InputError: a path cannot be read (now, or while running).
        qwirkle_tools.corpus.connection.ClusterError: see :func:`qwirkle_tools.corpus.cluster.stats`.
    """
    if dask is not None:
        from . import cluster

        blocks = cluster.stats(paths, dask, analyse, rows=rows, workers=dask_workers(dask, jobs))

        def merged(done: Run[Summarised, Stats]) -> Generator[Summarised, None, None]:
            with _closing(blocks):
                for block in blocks:
                    done.summary = done.summary.merge(block.stats)
                    yield Summarised(block.broken, block.rows or (), block.records, block.size)

        return Run(blocks.size, Stats(), merged, _local(blocks.inputs))
    files = input_files(paths)

    def each(done: Run[Summarised, Stats]) -> Generator[Summarised, None, None]:
        with _closing(found := run(files, analyse, jobs)):
            for result in found:
                done.summary.add(result)
                broken = result.broken_line()
                yield Summarised(() if broken is None else (broken,), (result,) if rows else (), 1, result.size)

    return Run(_size(files), Stats(), each, tuple(files))


def play(games: int, players: int = 2, seed: int = 0, policy: Policy | tuple[Policy, ...] = "greedy",
         jobs: int = 1, dask: str | None = None) -> Run[Played, int]:
    """Games ``0 .. games-1`` of self-play with ``seed`` as ``.jsonl``
    lines, in order, the same wherever they are played (see
    :func:`qwirkle_tools.engines.selfplay.simulate_line`); the summary counts the games.

    Raises:
        qwirkle_tools.corpus.connection.ClusterError: see :func:`qwirkle_tools.corpus.cluster.simulate`.
    """
    if dask is not None:
        from . import cluster

        blocks = cluster.simulate(games, dask, players, seed, policy, workers=dask_workers(dask, jobs))

        def merged(done: Run[Played, int]) -> Generator[Played, None, None]:
            with _closing(blocks):
                for lines in blocks:
                    count = lines.count(b"\n")
                    done.summary += count
                    yield Played(lines, count)

        return Run(games, 0, merged)
    from ..engines.selfplay import simulate_line

    def each(done: Run[Played, int]) -> Generator[Played, None, None]:
        with _closing(found := ordered_map(partial(simulate_line, players=players, seed=seed, policy=policy),
                                           range(games), jobs)):
            for line in found:
                done.summary += 1
                yield Played(line, 1)

    return Run(games, 0, each)


@contextmanager
def _closing(parts: object) -> Iterator[None]:
    """Closes ``parts`` on the way out (a generator, a cluster's run), so the
    processes or blocks under it stop with the run that reads it."""
    try:
        yield
    finally:
        close = getattr(parts, "close", None)
        if close is not None:
            close()


def _size(files: Iterable[Path]) -> int:
    return sum(f.stat().st_size for f in files)


def _local(found: Iterable[Input]) -> tuple[Path, ...]:
    """The local files among a cluster run's inputs (the workers open the others by URL)."""
    return tuple(Path(f.name) for f in found if not is_url(f.location))


__all__ = ["Checked", "Played", "Run", "Summarised", "check", "dask_workers", "play", "summarise"]
