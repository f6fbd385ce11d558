"""pandas tables over games: one row per game, per turn and per finding.

The columns, their dtypes and meanings are those of
:data:`qwirkle_tools.corpus.rows.GAME_COLUMNS`, :data:`~qwirkle_tools.corpus.rows.TURN_COLUMNS`
and :data:`~qwirkle_tools.corpus.rows.FINDING_COLUMNS`; missing values are
``pd.NA`` (nullable integer, boolean and string dtypes), and every table has
every column, whether or not the games were analysed.

>>> t = load(["sample_games/complete-2p.json"])
>>> [int(v) for v in t.games.loc[0, ["players", "turns", "valid"]]]
[2, 50, 1]
>>> int(t.turns.groupby("seat")["score"].sum().max()) == int(t.games.loc[0, ["score_0", "score_1"]].max())
True

Tables hold every row in memory; for corpora too large for that, see
:class:`qwirkle_tools.corpus.stats.Stats` and ``qwirkle stats --csv``, which stream.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..core.safetext import csv_cell, one_line
from .rows import FINDING_COLUMNS, GAME_COLUMNS, TURN_COLUMNS, Column, GameRows, Row, run

if TYPE_CHECKING:
    import pandas as pd


class Tables(NamedTuple):
    games: pd.DataFrame
    turns: pd.DataFrame
    findings: pd.DataFrame


def frame(rows: Sequence[Row], columns: Sequence[Column]) -> pd.DataFrame:
    """A DataFrame of ``rows`` with exactly ``columns``, each of its dtype."""
    import pandas as pd

    names = [name for name, _, _ in columns]
    data = {name: [row.get(name) for row in rows] for name in names}
    return pd.DataFrame({name: pd.array(data[name], dtype=dtype) for name, dtype, _ in columns}, columns=names)


def tables(results: Iterable[GameRows]) -> Tables:
    """The three tables of some :func:`qwirkle_tools.corpus.rows.run` results."""
    games: list[Row] = []
    turns: list[Row] = []
    findings: list[Row] = []
    for r in results:
        if r.game is not None:
            games.append(r.game)
            turns.extend(r.turns)
        findings.extend(r.finding_rows())
    return Tables(frame(games, GAME_COLUMNS), frame(turns, TURN_COLUMNS), frame(findings, FINDING_COLUMNS))


def load(paths: Iterable[str | os.PathLike[str]], analyse: bool = False, jobs: int = 1) -> Tables:
    """The tables of every record under ``paths`` (files, folders, ``.jsonl``).

    Unreadable records have no game row; their findings are in the findings
    table. ``analyse`` fills the analysis columns of valid records.

    Raises:
        qwirkle_tools.formats.sources.InputError: a path cannot be read.
    """
    return tables(run(paths, analyse, jobs))


class TableWriter:
    """Writes the three tables to a folder as they are built, a chunk at a
    time, so memory stays flat: ``games``, ``turns`` and ``findings`` as
    ``.csv`` (UTF-8, a header row, empty cells for missing values; text
    cells one line and never a formula, see :func:`qwirkle_tools.core.safetext.csv_cell`)
    or as ``.parquet`` (needs pyarrow; text kept as it is). Each file is written under a temporary
    name and renamed by :meth:`close`; :meth:`discard` (or a :meth:`close` that fails or is
    interrupted) leaves no new file, and no folder it made: a folder it created is removed again,
    so a failed run leaves the disk as it found it (a table replaced with ``force`` stays replaced).

    Raises:
        qwirkle_tools.formats.fileio.OutputError: a table file exists (without ``force``); the system
            refuses to write (a full disk, a read-only file system), naming the file.
        ImportError: ``.parquet`` without pyarrow.
    """

    NAMES = ("games", "turns", "findings")

    def __init__(self, folder: str | os.PathLike[str], kind: str = "csv", force: bool = False,
                 chunk: int = 2_000, inputs: Sequence[str | os.PathLike[str]] = ()) -> None:
        from pathlib import Path

        from ..formats.fileio import AtomicFile, OutputError, check_output

        if kind == "parquet":
            import pyarrow  # noqa: F401  (fail before any work when it is missing)
        folder = Path(folder)
        if folder.exists() and not folder.is_dir():
            raise OutputError(f"{one_line(str(folder))}: not a folder")
        self.kind, self.chunk = kind, chunk
        self.files: list[AtomicFile] = []
        self.made: list[Path] = []  # the folders this writer created, outermost first
        self.new: list[Path] = []  # the tables put in place that were not there before
        self.closed = False
        self.writers: list[object] = [None, None, None]
        try:
            for missing in reversed([folder, *folder.parents]):
                if not missing.exists():
                    self.made.append(missing)  # (noted first: an interrupt right after mkdir still removes it)
                    missing.mkdir(exist_ok=True)
            # never a table written through a link to an input (the corpus), force or not
            targets = [check_output(folder / f"{name}.{kind}", inputs, force=force) for name in self.NAMES]
            self.files = [AtomicFile(t, replace=force) for t in targets]
        except BaseException as exc:
            self.discard()
            if isinstance(exc, OSError):
                raise OutputError(f"{one_line(str(folder))}: cannot create: {exc.strerror or exc}") from None
            raise
        self.paths = targets
        self.rows: list[list[Row]] = [[], [], []]
        self.games = 0
        self.started = [False, False, False]

    def add(self, result: GameRows) -> None:
        if result.game is not None:
            self.rows[0].append(result.game)
            self.rows[1].extend(result.turns)
        self.rows[2].extend(result.finding_rows())
        self.games += 1
        if self.games % self.chunk == 0:
            self._flush()

    def _flush(self) -> None:
        for i, columns in enumerate((GAME_COLUMNS, TURN_COLUMNS, FINDING_COLUMNS)):
            if not self.rows[i] and self.started[i]:
                continue
            df = frame(self.rows[i], columns)
            self.rows[i] = []
            try:
                self._append(i, df)
            except OSError as exc:  # a full disk, ...: say which table
                from ..formats.fileio import cannot_write

                raise cannot_write(self.paths[i], exc) from None
            self.started[i] = True

    def _append(self, i: int, df: pd.DataFrame) -> None:
        if self.kind == "csv":  # text cells made safe for a spreadsheet: one line, no formula
            safe = df.apply(lambda col: col.map(csv_cell, na_action="ignore") if col.dtype == "string" else col)
            with self.files[i].temp.open("a", encoding="utf-8", newline="") as handle:
                safe.to_csv(handle, header=not self.started[i], index=False, lineterminator="\n")
            return
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(df, preserve_index=False)
        if self.writers[i] is None:
            self.writers[i] = pq.ParquetWriter(self.files[i].temp, table.schema)
        writer = self.writers[i]
        assert isinstance(writer, pq.ParquetWriter)
        writer.write_table(table)

    def _close_writers(self) -> None:
        for w in self.writers:
            if w is not None:
                w.close()  # type: ignore[attr-defined]
        self.writers = [None, None, None]

    def close(self) -> None:
        """Write what is left and put the files in place (all three, or on
        any failure none that is new)."""
        try:
            self._flush()
            self._close_writers()
            for f in self.files:
                existed = f.target.exists()
                f.commit()
                if not existed:
                    self.new.append(f.target)
        except BaseException:
            self.discard()
            raise
        self.closed = True

    def discard(self) -> None:
        """Remove the temporary files, the tables this writer added and the
        folders it made; nothing is written. After a :meth:`close` that
        succeeded, nothing is removed."""
        if self.closed:
            return
        try:
            self._close_writers()
        finally:
            for f in self.files:
                f.discard()
            for path in self.new:
                path.unlink(missing_ok=True)
            for made in reversed(self.made):
                try:
                    made.rmdir()  # only if empty: never what someone put there meanwhile
                except OSError:
                    pass


def describe(columns: Sequence[Column]) -> str:
    """The columns as a Markdown table (for the docs)."""
    lines = ["| column | dtype | meaning |", "|---|---|---|"]
    lines += [f"| `{name}` | {dtype} | {text} |" for name, dtype, text in columns]
    return "\n".join(lines)


__all__ = ["TableWriter", "Tables", "describe", "frame", "load", "tables"]
