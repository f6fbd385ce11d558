"""Score sheets from paper (``.csv``): a column per player, a row per round.

A club's sheet, typed into a spreadsheet: the first row holds the players'
names in seat order (the first column moved first), then one row per round,
each cell the points written for that turn. ``0``, ``-`` or ``x`` is a turn
that scored nothing, read as an exchange of tiles not recorded (or a pass at
the end: the sheet cannot tell). The last cell of the player who went out
includes the end bonus. Empty cells after the last turn end the game; an
empty cell before it is a mistake. An optional last row starting with
``total`` gives the claimed totals, checked like a record's result. Both
``,`` and ``;`` separate cells; a UTF-8 byte-order mark is skipped.

:func:`parse_sheet` reads a sheet into a score-sheet record's JSON data
(``place`` turns with a score and no tiles), with a ``sheet`` finding for
each mistake, placed by row and column; the rest is still read. Writing a
sheet is not done: a record holds more than a sheet can.
"""

from __future__ import annotations

import csv
import io
import re

from .findings import Finding, make
from .jsontext import JSON
from .record import Parsed

SUFFIX = ".csv"
NOTHING = ("0", "-", "x")
"""What a cell holds for a turn that scored nothing (case ignored)."""
TOTAL = ("total", "totals")
MAX_POINTS = 100_000

_POINTS = re.compile(r"[0-9]{1,15}")


def separator(text: str) -> str:
    """The cell separator of a sheet: ``;`` when its first row holds more of
    them than commas outside quoted cells (as spreadsheets write in many
    countries), else ``,``.

    >>> separator("Ana;Ben\\n4;6\\n"), separator('"Smith, John";"Doe, Jane"\\n'), separator("Dupont, Ana;Ben,Cy\\n")
    (';', ';', ',')
    """
    first = next((line for line in text.split("\n") if line.strip()), "")
    outside = "".join(part for i, part in enumerate(first.split('"')) if i % 2 == 0)  # "" inside quotes pairs up too
    return ";" if outside.count(";") > outside.count(",") else ","


def _column(n: int) -> str:
    """A spreadsheet's name for column ``n`` (1-based): A, B, ..., Z, AA."""
    name = ""
    while n:
        n, r = divmod(n - 1, 26)
        name = chr(65 + r) + name
    return name


def parse_sheet(text: str) -> Parsed:
    """A score-sheet record's data from a sheet's text, and every mistake in it.

    Never raises: each cell that cannot be read is a ``sheet`` finding
    (row and column as a spreadsheet numbers them), and its turn is kept as
    a stand-in that the replay treats as unreadable.
    """
    findings: list[Finding] = []

    def mistake(row: int, col: int, message: str, pointer: str = "") -> None:
        findings.append(make("sheet", None, pointer, f"row {row}, column {_column(col)}: {message}"))

    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator(text))
    rows: list[list[str]] = []
    try:
        for row in reader:
            rows.append([cell.strip() for cell in row])
    except csv.Error as exc:
        findings.append(make("sheet", None, "", f"line {reader.line_num} of the file: not a CSV table ({exc})"))
    while rows and not any(rows[-1]):
        rows.pop()
    if not rows:
        findings.append(make("sheet", None, "/players", "empty: the first row should hold the players' names"))
        return Parsed({}, tuple(findings))

    names = rows[0]
    while names and not names[-1]:
        names.pop()
    for col, name in enumerate(names, 1):
        if not name:
            mistake(1, col, "a player's name is empty (the first row holds the names, in seat order)",
                    f"/players/{col - 1}/name")
    n = len(names)
    data: dict[str, JSON] = {"format": "qwirkle-record", "version": 1,
                             "players": [{"name": name or f"seat {i + 1}"} for i, name in enumerate(names)]}

    def beyond(r: int, extra: list[str], first: int, what: str) -> None:
        for col, cell in enumerate(extra, first):
            if cell:
                mistake(r, col, f"a {what} beyond the last player's column ({n} players)")

    def padded(row: list[str]) -> list[str]:
        return row[:n] + [""] * (n - len(row))

    body = rows[1:]
    result: dict[str, JSON] | None = None
    if body and body[-1] and body[-1][0].lower().rstrip(":") in TOTAL:
        total_row = len(rows)
        totals: list[JSON] = []
        written = body.pop()[1:]
        for col, cell in enumerate(padded(written), 1):
            if _POINTS.fullmatch(cell) and int(cell) <= MAX_POINTS:
                totals.append(int(cell))
            else:
                mistake(total_row, col + 1, f"expected {names[col - 1]}'s total, a whole number; got {cell!r}",
                        f"/result/scores/{col - 1}")
        beyond(total_row, written[n:], n + 2, "total")
        if len(totals) == n:
            result = {"scores": totals}

    cells: list[tuple[int, int, str]] = []  # (row, column, text) in the order the turns were played
    for r, row in enumerate(body, 2):
        beyond(r, row[n:], n + 1, "cell")
        cells.extend((r, col, cell) for col, cell in enumerate(padded(row), 1))
    last = max((i for i, (_, _, cell) in enumerate(cells) if cell), default=-1)
    turns: list[JSON] = []
    broken: set[int] = set()
    for i, (r, col, cell) in enumerate(cells[:last + 1]):
        seat = col - 1
        pointer = f"/turns/{i}"
        if cell.lower() in NOTHING:
            turns.append({"player": seat, "action": "exchange", "score": 0})
            continue
        if _POINTS.fullmatch(cell) and int(cell) <= MAX_POINTS:
            turns.append({"player": seat, "action": "place", "score": int(cell)})
            continue
        if not cell:
            mistake(r, col, f"{names[seat]}'s cell is empty before the end of the game "
                            f"(write 0, - or x for a turn that scored nothing)", pointer)
        else:
            shown = cell if len(cell) <= 30 else cell[:27] + "..."
            mistake(r, col, f"expected {names[seat]}'s points for the turn (a whole number), "
                            f"or 0, - or x for a turn that scored nothing; got {shown!r}", pointer)
        broken.add(i)
        turns.append({"player": seat, "action": "pass"})  # a stand-in
    data["turns"] = turns
    if result is not None:
        data["result"] = result
    return Parsed(data, tuple(findings), frozenset(broken))


__all__ = ["NOTHING", "SUFFIX", "TOTAL", "parse_sheet", "separator"]
