"""Score sheets from paper (``.csv``): a column per player, a row per round.

A club's sheet, typed into a spreadsheet: the first row holds the players'
names in seat order (the first column moved first), then one row per round,
each cell the points written for that turn. ``0``, ``-`` or ``x`` is a turn
that scored nothing, read as an exchange of tiles not recorded (or a pass at
the end: the sheet cannot tell). The last cell of the player who went out
includes the end bonus. Empty cells after the last turn end the game; an
empty cell before it is a mistake. A first column headed ``Round``, ``#``
or ``Turn`` holds the round numbers, not a player (its cells are not read).
An optional last row starting with ``total`` gives the claimed totals, in
the players' columns when there is a round column, else one column to the
right of them (the first cell is the word), checked like a record's result:
a total the cells do not add up to is a ``result-mismatch`` that names its
row and column (:attr:`~qwirkle_tools.formats.record.Parsed.places`). Both
``,`` and ``;`` separate cells; a UTF-8 byte-order mark is skipped.

:func:`parse_sheet` reads a sheet into a score-sheet record's JSON data
(``place`` turns with a score and no tiles), with a ``sheet`` finding for
each mistake, placed by row and column; the rest is still read (up to the
limits, see :func:`parse_sheet`). Writing a
sheet is not done: a record holds more than a sheet can.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator

from ..core.findings import MAX_FINDINGS, STOPPED, Finding, line_ends, make, text_lines
from ..core.text import cut
from .jsontext import JSON
from .record import Parsed
from .schema import MAX_PLAYERS, MAX_TURNS, PAST_MAX_TURNS

SUFFIX = ".csv"
NOTHING = ("0", "-", "x")
"""What a cell holds for a turn that scored nothing (case ignored)."""
TOTAL = ("total", "totals")
ROUND = ("round", "rounds", "#", "turn", "turns", "rnd", "no", "nr")
"""What heads a first column of round numbers (case, a last ``.`` or ``:`` ignored)."""
MAX_POINTS = 100_000

_POINTS = re.compile(r"[0-9]{1,15}")
_FIRST_ROW = re.compile(r'(?:[^"\r\n]+|"[^"]*"?)*')
_QUOTED = re.compile(r'"[^"]*"?')
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def separator(text: str) -> str:
    """The cell separator of a sheet: ``;`` when its first row holds more of
    them than commas outside quoted cells (as spreadsheets write in many
    countries), else ``,``. The first row is the first line with text, read
    as CSV reads it: a quoted cell may hold a line break.

    >>> separator("Ana;Ben\\n4;6\\n"), separator('"Smith, John";"Doe, Jane"\\n'), separator("Dupont, Ana;Ben,Cy\\n")
    (';', ';', ',')
    >>> separator('"Smith,\\nJohn";Ben\\n1;2\\n')
    ';'
    """
    first = next(text_lines(text), (0, ""))[1]
    start = text.find(first) if first else 0  # where that line starts (the first occurrence is the line)
    row = _FIRST_ROW.match(text, start).group()  # type: ignore[union-attr]  # (matches always)
    outside = _QUOTED.sub("", row)  # "" inside quotes pairs up too
    return ";" if outside.count(";") > outside.count(",") else ","


def _column(n: int) -> str:
    """A spreadsheet's name for column ``n`` (1-based): A, B, ..., Z, AA."""
    name = ""
    while n:
        n, r = divmod(n - 1, 26)
        name = chr(65 + r) + name
    return name


class _Stop(Exception):
    """The reading of a sheet ends here (a finding says why)."""


def parse_sheet(text: str) -> Parsed:
    """A score-sheet record's data from a sheet's text, and every mistake in it.

    Never raises: each cell that cannot be read is a ``sheet`` finding
    (row and column as a spreadsheet numbers them), and its turn is kept as
    a stand-in that the replay treats as unreadable. Rows end in LF, CRLF or
    a lone CR. The cost is bounded by the format's limits, not the sheet's
    size: rows are read one at a time, and the reading stops at the turn
    past :data:`~qwirkle_tools.formats.schema.MAX_TURNS` and after
    :data:`~qwirkle_tools.core.findings.MAX_FINDINGS` mistakes, each time with one
    finding that says so; names past the most players a game has are one
    mistake.
    """
    sheet = _Sheet()
    try:
        sheet.read(_rows(text, separator(text), sheet))
    except _Stop:
        pass
    if not sheet.started:
        return Parsed({}, tuple(sheet.findings))
    data: dict[str, JSON] = {"format": "qwirkle-record", "version": 1,
                             "players": [{"name": name or f"seat {i + 1}"} for i, name in enumerate(sheet.names)],
                             "turns": sheet.turns}
    if sheet.result is not None:
        data["result"] = sheet.result
    return Parsed(data, tuple(sheet.findings), frozenset(sheet.broken), sheet.places)


def _rows(text: str, delimiter: str, sheet: _Sheet) -> Iterator[tuple[int, list[str]]]:
    """Each row as CSV reads it, with its number (1-based, as a spreadsheet
    numbers it); rows without text may be left out (the numbers say so).
    A text that is not CSV ends the rows with a finding."""
    lines = _Lines(text, delimiter)
    reader = csv.reader(lines, delimiter=delimiter)
    try:
        for number, row in enumerate(reader, 1):
            lines.rows = number
            yield number + lines.skipped, row
    except csv.Error as exc:
        sheet.findings.append(make("sheet", None, "", f"line {reader.line_num + lines.skipped} of the file: "
                                                      f"not a CSV table ({exc})"))


class _Lines:
    """The lines of a sheet for :mod:`csv`, each with its end; a run of lines
    without text (only spaces and separators) between two rows is skipped
    at once and counted in :attr:`skipped`: millions of blank rows cost no
    more than one. Inside a quoted cell (CSV asks for the next line before
    it has given a row) nothing is skipped: the lines are the cell's text."""

    def __init__(self, text: str, delimiter: str) -> None:
        self.text = text
        self.blank = re.compile(f"[ \\t\\r\\n{re.escape(delimiter)}]*")  # one class: no regex stack a line
        self.skipped = 0  # rows left out
        self.rows = 0  # rows CSV has given (set by the reader of the rows)
        self.parts = self.lines()

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        return next(self.parts)

    def lines(self) -> Iterator[str]:
        text, pos, n = self.text, 0, len(self.text)
        outside = True  # whether the last line ended a row
        while True:
            if outside:  # skip to the end of the last line without text that follows
                blank = self.blank.match(text, pos).end()  # type: ignore[union-attr]  # (matches always)
                blank = max(text.rfind("\n", pos, blank), text.rfind("\r", pos, blank), pos - 1) + 1
                self.skipped += line_ends(text, pos, blank)
                pos = blank
            if pos >= n:
                return
            end = _LINE.match(text, pos).end()  # type: ignore[union-attr]
            rows = self.rows
            yield text[pos:end]
            pos = end
            outside = self.rows != rows  # CSV gave a row before it asked for this line


class _Sheet:
    """The state of one reading: the names, the turns so far, the mistakes."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.started = False  # whether a row with text was read
        self.names: list[str] = []
        self.turns: list[JSON] = []
        self.broken: set[int] = set()
        self.result: dict[str, JSON] | None = None
        self.cells = 0  # cells read so far: the turns, and the empty cells since the last
        self.empty: list[tuple[int, int]] = []  # (row, seat) of the empty cells since the last filled one
        self.first = 0  # the index of the first player's column: 1 after a column of round numbers
        self.places: dict[str, str] = {}  # where each total is written

    def mistake(self, row: int, col: int, message: str, pointer: str = "") -> None:
        self.findings.append(make("sheet", None, pointer, f"row {row}, column {_column(col)}: {message}"))
        if len(self.findings) == MAX_FINDINGS - 1:  # the note is the last of the record's MAX_FINDINGS
            self.stop(row, col, STOPPED)

    def stop(self, row: int, col: int, message: str, pointer: str = "") -> None:
        self.findings.append(make("sheet", None, pointer, f"row {row}, column {_column(col)}: {message}"))
        raise _Stop

    def read(self, rows: Iterator[tuple[int, list[str]]]) -> None:
        """Reads the rows: the first with text holds the names; each later row
        with text is read once the next is seen (the last may be the totals),
        and the rows without text between them as rounds of empty cells."""
        pending: tuple[int, list[str]] | None = None  # the last row with text, not read yet
        blank = (0, 0)  # the rows without text since it: the first, and how many
        last = 0  # the number of the last row seen (rows between were left out: without text)
        for r, row in rows:
            if r > last + 1:
                blank = (blank[0] or last + 1, blank[1] + r - last - 1)
            last = r
            if not _has_text(row):
                blank = (blank[0] or r, blank[1] + 1)
                continue
            if not self.started:
                self.start(r, row)
            else:
                if pending is not None:
                    self.read_round(*pending)
                self.read_blank_rounds(*blank)
                pending = (r, row)
            blank = (0, 0)
        if not self.started:
            self.findings.append(make("sheet", None, "/players", "empty: the first row should hold the players' names"))
        elif pending is not None:
            r, row = pending
            if row[0].strip().lower().rstrip(":") in TOTAL:
                self.read_totals(r, row)
            else:
                self.read_round(r, row)

    def start(self, r: int, row: list[str]) -> None:
        self.started = True
        self.read_names(r, row)

    def read_names(self, r: int, row: list[str]) -> None:
        n = len(row)
        while n and not row[n - 1].strip():
            n -= 1
        if n > 2 and row[0].strip().lower().rstrip(".:") in ROUND:
            self.first = 1  # a column of round numbers, then (at least two) players
        first = self.first
        if n - first > MAX_PLAYERS:
            self.mistake(r, first + MAX_PLAYERS + 1, f"{n - first:,} names: a game has at most {MAX_PLAYERS} players "
                                                     f"(the first row holds the names, in seat order)")
            n = first + MAX_PLAYERS
        self.names = [cell.strip() for cell in row[first:n]]
        for seat, name in enumerate(self.names):
            if not name:
                self.mistake(r, first + seat + 1, "a player's name is empty (the first row holds the names, in seat order)",
                             f"/players/{seat}/name")

    def beyond(self, r: int, row: list[str], first: int, what: str) -> None:
        if not _has_text(row, first):
            return
        for col in range(first, len(row)):
            if row[col].strip():
                self.mistake(r, col + 1, f"a {what} beyond the last player's column ({len(self.names)} players)")

    def read_round(self, r: int, row: list[str]) -> None:
        n, first = len(self.names), self.first
        for seat in range(n):
            cell = row[first + seat].strip() if first + seat < len(row) else ""
            if cell:
                self.read_cell(r, seat, cell)
            else:
                self.read_empty(r, seat)
        self.beyond(r, row, first + n, "cell")

    def read_blank_rounds(self, first: int, count: int) -> None:
        """Rows without text, between two with text: their cells are empty."""
        n = len(self.names)
        for r in range(first, first + count):
            if self.cells >= MAX_TURNS:  # past the limit, only counted: the next filled cell ends the reading
                self.cells += (first + count - r) * n
                return
            for seat in range(n):
                self.read_empty(r, seat)

    def read_empty(self, r: int, seat: int) -> None:
        if self.cells < MAX_TURNS:  # (past the limit, the next filled cell ends the reading)
            self.empty.append((r, seat))
        self.cells += 1

    def read_cell(self, r: int, seat: int, cell: str) -> None:
        for er, es in self.empty:  # an empty cell before this one: a mistake, and an unreadable turn
            self.broken.add(len(self.turns))
            self.turns.append({"player": es, "action": "pass"})  # a stand-in
            self.mistake(er, self.first + es + 1, f"{self.names[es]}'s cell is empty before the end of the game "
                                                  f"(write 0, - or x for a turn that scored nothing)",
                         f"/turns/{len(self.turns) - 1}")
        self.empty.clear()
        if self.cells >= MAX_TURNS:
            self.stop(r, self.first + seat + 1, PAST_MAX_TURNS, "/turns")
        self.cells += 1
        self.turns.append(self.turn(r, seat, cell))

    def turn(self, r: int, seat: int, cell: str) -> JSON:
        col = self.first + seat + 1
        if cell.lower() in NOTHING:
            return {"player": seat, "action": "exchange", "score": 0}
        if _POINTS.fullmatch(cell) and int(cell) <= MAX_POINTS:
            return {"player": seat, "action": "place", "score": int(cell)}
        shown = cut(cell, 30)
        self.broken.add(len(self.turns))
        self.mistake(r, col, f"expected {self.names[seat]}'s points for the turn (a whole number), "
                             f"or 0, - or x for a turn that scored nothing; got {shown!r}", f"/turns/{len(self.turns)}")
        return {"player": seat, "action": "pass"}  # a stand-in

    def read_totals(self, r: int, row: list[str]) -> None:
        n = len(self.names)
        totals: list[JSON] = []
        for col in range(1, n + 1):
            cell = row[col].strip() if col < len(row) else ""
            if _POINTS.fullmatch(cell) and int(cell) <= MAX_POINTS:
                totals.append(int(cell))
                self.places[f"/result/scores/{col - 1}"] = f"row {r}, column {_column(col + 1)}"
            else:
                self.mistake(r, col + 1, f"expected {self.names[col - 1]}'s total, a whole number; got {cell!r}",
                             f"/result/scores/{col - 1}")
        self.beyond(r, row, n + 1, "total")
        if len(totals) == n:
            self.result = {"scores": totals}


def _has_text(row: list[str], first: int = 0) -> bool:
    """Whether any cell of ``row`` from ``first`` on holds more than spaces
    (at C speed, without a copy of the row: it may hold millions of cells)."""
    joined = "".join(row)
    rest = joined[sum(len(cell) for cell in row[:first]):]
    return bool(rest) and not rest.isspace()


__all__ = ["NOTHING", "ROUND", "SUFFIX", "TOTAL", "parse_sheet", "separator"]
