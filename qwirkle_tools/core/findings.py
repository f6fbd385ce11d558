"""Findings: what the validator reports, each with a stable code and a place.

:data:`CODES` is the complete, documented list; the table of the docs' finding codes page
(``docs/findings.md``) follows it and a test keeps the two in step.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Literal

from .safetext import one_line

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in a record.

    ``turn`` is 1-based (``None`` for the record as a whole); ``pointer`` is
    the JSON pointer of the offending value (``/turns/11/tiles/2``).
    ``excerpt``, for a mistake in hand-written text (a ``.qgn`` game or a
    score sheet), is the line in question and a caret under the place
    (see :func:`excerpt`); empty otherwise.
    """

    code: str
    severity: Severity
    turn: int | None
    pointer: str
    message: str
    excerpt: str = ""

    @property
    def is_error(self) -> bool:
        """Whether the finding makes the record invalid (a warning does not)."""
        return self.severity == "error"

    def __str__(self) -> str:
        where = f"turn {self.turn}: " if self.turn is not None else ""
        return f"{where}{self.code}: {self.message}"

    def line(self, where: str) -> str:
        """The finding as a line of ``qwirkle validate``: ``FILE[:LINE]:turn N: CODE: MESSAGE``
        (``FILE: CODE: MESSAGE`` for the record as a whole); :func:`parse_line` reads it back.
        The place (a file name found in a folder, say) is shown as one clean line."""
        turn = f"turn {self.turn}: " if self.turn is not None else " "
        return f"{one_line(where)}:{turn}{self.code}: {self.message}"

    def lines(self, where: str) -> list[str]:
        """The finding's :meth:`line`, and under it, indented, its excerpt
        (the line of hand-written text and a caret), as ``validate`` prints it."""
        return [self.line(where), *(f"    {line}" for line in self.excerpt.splitlines())]

    def to_data(self) -> dict[str, object]:
        data: dict[str, object] = {
            "code": self.code,
            "severity": self.severity,
            "turn": self.turn,
            "pointer": self.pointer,
            "message": self.message,
        }
        if self.excerpt:
            data["excerpt"] = self.excerpt
        return data


CODES: dict[str, tuple[Severity, str]] = {
    # reading
    "json": ("error", "The file or line is not JSON (with line and column), is empty, or is not UTF-8."),
    "too-large": ("error", "The file or line is larger than the reader accepts (see Limits)."),
    "empty-file": ("error", "A .jsonl corpus among the inputs holds no record (every line is blank): told in its "
                            "place, as an empty .json file is, and the other inputs read (a corpus that is the whole "
                            "input is exit 2, nothing to read)."),
    "qgn": ("error", "A game in the notation (.qgn) has a line that cannot be read (with line, column and a caret)."),
    "sheet": ("error", "A score sheet (.csv) has a cell that cannot be read, or an empty cell before the end "
                       "(with row and column)."),
    # slips in hand-written text that the reader reads past, as meant (with line, column and a caret)
    "turn-number": ("warning", "A turn of a .qgn game is numbered out of sequence (a number left out or written twice): "
                               "the turns are counted as written, and only the line that breaks the sequence is told."),
    "two-turns": ("warning", "A line of a .qgn game holds a second turn (its number after the first turn's move): "
                             "both are read."),
    "names-without-commas": ("warning", "The 'Players:' line of a .qgn game names the players without commas: "
                                        "each word is read as a name (a game has two players or more)."),
    "header-misspelt": ("warning", "A header of a .qgn game is close to a known one not given ('Player:' for "
                                   "'Players:'): read as that one, with a \"did you mean\"."),
    "name-misspelt": ("warning", "A turn of a .qgn game names no player, but one name is close to it: read as that "
                                 "player's turn, with a \"did you mean\"."),
    "no-score": ("warning", "A placement in a .qgn game has no score while other turns have one: the validator "
                            "computes it."),
    "schema": ("error", "The record breaks the JSON Schema; the pointer names the value."),
    # placement
    "empty-move": ("error", "A placement with no tiles."),
    "not-in-line": ("error", "The tiles placed in one turn are not all in one row or one column."),
    "gap": ("error", "The tiles placed leave an empty cell between them."),
    "not-connected": ("error", "No placed tile touches a tile on the board (after the first move)."),
    "cell-occupied": ("error", "A tile is placed on a cell that already holds one."),
    "cell-repeated": ("error", "The same move places two tiles on one cell."),
    "line-mixed": ("error", "A line shares neither one colour nor one shape."),
    "duplicate-in-line": ("error", "A line holds the same tile twice."),
    "line-too-long": ("error", "A line is longer than 6 tiles."),
    "too-many-tiles": ("error", "A list of tiles (a setup's board or bag, a rack, a turn's tiles or draw) is longer "
                                "than the format allows (108, or 6), or a turn would put more than 108 tiles on the "
                                "board: the replay does not read it, and what it would tell is then unknown."),
    # tiles and racks
    "tile-overused": ("error", "More than 3 copies of a tile are on the board, in known racks and in a listed bag."),
    "not-in-bag": ("error", "A tile drawn is not in the bag the setup lists (while every draw since is recorded)."),
    "tile-not-in-rack": ("error", "A tile placed or exchanged is not in the player's known rack."),
    "rack-mismatch": ("error", "The recorded rack differs from the previous rack less the tiles played plus the tiles drawn."),
    "draw-count": ("error", "The number of tiles drawn does not refill the rack to 6 (or empty the bag)."),
    "exchange-too-many": ("error", "An exchange of more tiles than the bag holds."),
    "exchange-count": ("error", "An exchange lists its tiles and a count that disagree."),
    "illegal-pass": ("error", "A pass while the bag has tiles, or while the player could place a tile."),
    "turn-order": ("error", "The turn is not the next seat's, or names a seat that does not exist."),
    "first-move-not-largest": ("error", "The first move is not a placement of the player's largest group."),
    "wrong-starter": ("warning", "Another player's opening rack held a larger group than the starter's."),
    "same-player": ("warning", "Two seats of a game have one player's name (compared after Unicode NFC and spaces): "
                               "qwirkle standings lists the game and does not count it (a game against oneself)."),
    # a position that starts mid-game
    "bad-setup": ("error", "The setup's bag, racks and scores do not fit the game: not one rack or score per seat, "
                           "board, bag and racks not holding the 108 tiles, or a short rack while the bag holds tiles."),
    # scores and the end
    "score-mismatch": ("error", "A turn's claimed score differs from the computed one (breakdown in the message)."),
    "result-mismatch": ("error", "The result's scores differ from the totals of the turns, or name the wrong number of players."),
    "bad-end": ("error", "The result's end (out, blocked, unfinished) contradicts the replay."),
    "after-end": ("error", "A turn recorded after the game ended: a player went out, or no tile left fits anywhere."),
    # slips of the pen
    "slip": ("error", "A slip of the pen in a hand-written game (a tile a cell off, two tiles swapped, a tile "
                      "misspelt, the other player's name, a turn written twice), found where one reading near what "
                      "was written is legal, scores what was written and leaves fewer errors: the finding says "
                      "\"did you mean\" and the error as written, and the turns after are checked as meant; on a "
                      "score sheet, totals off the way two swapped cells or a row left out make them."),
    "unchecked": ("warning", "Turns of a hand-written game that could not be checked: a turn before them could not "
                             "be read, so the board after it is not known (said once, with the turns)."),
    # the checker
    "too-many-findings": ("warning", "The record has more findings than are listed (see Limits): the first are "
                                     "listed, then this note with the number left out."),
    "internal": ("error", "The check itself failed on this record on a Dask worker (a bug: please report it); "
                          "the message names the exception."),
}


MAX_FINDINGS = 1_000
"""The most findings listed for one record, a last note included (a broken
record of 10,000 turns could have hundreds of thousands): the replay and the
schema check end with a ``too-many-findings`` note of how many more there
were; the readers of hand-written text stop reading there (:data:`STOPPED`)."""


def capped(findings: list[Finding], more: int = 0) -> list[Finding]:
    """``findings`` cut to :data:`MAX_FINDINGS`, with a note of how many were
    left out (``more``: those not even kept by whoever made them). The one
    place a record's findings are capped: the replay, the schema check and
    the readers of hand-written text all end here."""
    notes = [f for f in findings if f.code == "too-many-findings"]
    if notes:  # capped before (the replay's, then with the schema's): count what each note left out
        more += sum(int(f.message.split(" ", 1)[0].replace(",", "")) for f in notes)
        findings = [f for f in findings if f.code != "too-many-findings"]
    if len(findings) <= MAX_FINDINGS and not more:
        return findings
    kept = MAX_FINDINGS - 1  # and the note: MAX_FINDINGS in all
    left = len(findings) - kept + more
    return [*findings[:kept],
            make("too-many-findings", None, "", f"{left:,} more findings not listed (at most {MAX_FINDINGS:,} a record)")]


def placed(findings: Iterable[Finding], places: Mapping[str, str]) -> list[Finding]:
    """``findings``, each whose pointer names a value of hand-written text
    that ``places`` knows the place of (``/result/scores/1``: ``row 12,
    column C``) told there: the place starts its message.

        >>> found = make("result-mismatch", None, "/result/scores/1", "the result gives Ben 12, the turns add up to 11")
        >>> placed([found], {"/result/scores/1": "row 4, column C"})[0].message
        'row 4, column C: the result gives Ben 12, the turns add up to 11'
    """
    if not places:
        return list(findings)
    return [replace(f, message=one_line(f"{places[f.pointer]}: {f.message}", MAX_MESSAGE)) if f.pointer in places else f
            for f in findings]


MAX_MESSAGE = 300
"""Longest message, in characters; longer ones are cut with ``...``."""


_AFTER_PLACE = re.compile(r"(?:turn ([0-9]+): | )([a-z]+(?:-[a-z]+)*): (.*)", re.S)


def parse_line(text: str) -> tuple[str, Finding]:
    """The place and the finding of a line that :meth:`Finding.line` wrote.

    The line does not hold the JSON pointer, so the finding's is empty. The
    place is everything before the first ``:turn N: CODE:`` or ``: CODE:``
    (and a space) that names a known code.

        >>> where, finding = parse_line("game.json:turn 5: score-mismatch: Ana (seat 0) claims 7")
        >>> where, finding.turn, finding.code
        ('game.json', 5, 'score-mismatch')

    Raises:
        ValueError: the text is not such a line.
    """
    colon = text.find(":")
    while colon >= 0:
        m = _AFTER_PLACE.fullmatch(text, colon + 1)
        if m is not None and m[2] in CODES:
            return text[:colon], make(m[2], int(m[1]) if m[1] else None, "", m[3])
        colon = text.find(":", colon + 1)
    raise ValueError(f"not a finding line: {text[:80]!r}")


def make(code: str, turn: int | None, pointer: str, message: str, excerpt: str = "") -> Finding:
    """A finding with the severity its code has in :data:`CODES`.

    The message is made one line of at most :data:`MAX_MESSAGE` characters
    by :func:`~qwirkle_tools.core.safetext.one_line`: names from a record may hold
    line breaks, controls and invisible characters, shown as escapes, so
    that two names that differ only there do not look the same.
    """
    return Finding(code, CODES[code][0], turn, pointer, one_line(message, MAX_MESSAGE), excerpt)


EXCERPT_WIDTH = 72
"""Widest excerpt line; a longer line is shown around the place, cut with ``...``."""


def excerpt(text: str, column: int) -> str:
    """The line ``text`` and a caret under ``column`` (1-based, in characters),
    as two lines; each character that is not printable is shown as an escape
    (:func:`~qwirkle_tools.core.safetext.one_line`), and the caret stays under its place.

        >>> print(excerpt("3. Ana rz@0,0 2", 8))
        3. Ana rz@0,0 2
               ^
        >>> print(excerpt("Players: Ana\\x07, Ben", 13))
        Players: Ana\\x07, Ben
                    ^
    """
    at = max(0, min(column - 1, len(text)))
    head = tail = ""
    if len(text) > EXCERPT_WIDTH:  # cut before the characters are looked at: a line may be megabytes long
        start = max(0, min(at - EXCERPT_WIDTH // 2, len(text) - EXCERPT_WIDTH))
        end = start + EXCERPT_WIDTH
        head, tail = ("..." if start else ""), ("..." if end < len(text) else "")
        text = text[start:end]
        at -= start
    # a character that is not printable shows as its escape, and the caret moves along with it
    return f"{head}{one_line(text)}{tail}\n{' ' * (len(head) + len(one_line(text[:at])))}^"


# -- hand-written text: its lines, and a bound on its mistakes ---------------------------

LINE_END = re.compile(r"\r\n|\r|\n")
"""Where a line of hand-written text ends: LF, CRLF or a lone CR, in any mix
(old Mac editors end lines with a CR; a stray one ends a line for any editor)."""
_BLANK = re.compile(r"\s*")  # one class: no regex stack a line


def text_lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines of ``text`` that hold more than white space, each with its
    number (1-based, lines ending as :data:`LINE_END` says). A run of blank
    lines is skipped at once, not looked at line by line.

        >>> list(text_lines("a\\r\\n \\r\\rb"))
        [(1, 'a'), (4, 'b')]
    """
    number, pos, n = 1, 0, len(text)  # pos: where line ``number`` starts
    while True:
        blank = _BLANK.match(text, pos).end()  # type: ignore[union-attr]  # (matches always)
        if blank >= n:
            return
        if blank > pos:  # to the start of the line that holds text
            start = max(text.rfind("\n", pos, blank), text.rfind("\r", pos, blank)) + 1
            if start > pos:
                number += line_ends(text, pos, start)
                pos = start
        end = LINE_END.search(text, blank)
        yield number, text[pos:n if end is None else end.start()]
        if end is None:
            return
        pos = end.end()
        number += 1


def line_ends(text: str, start: int, end: int) -> int:
    """How many lines end in ``text[start:end]`` (a CRLF is one end)."""
    return text.count("\n", start, end) + text.count("\r", start, end) - text.count("\r\n", start, end)


def line_and_column(text: str) -> tuple[int, int]:
    """The line and column (1-based, lines as :func:`text_lines` counts them)
    of the character that follows ``text``.

        >>> line_and_column("Players: Ana\\r1. A"), line_and_column("")
        ((2, 5), (1, 1))
    """
    start = max(text.rfind("\n"), text.rfind("\r")) + 1
    return line_ends(text, 0, len(text)) + 1, len(text) - start + 1


STOPPED = f"{MAX_FINDINGS:,} findings, the most a record lists: the rest of the file is not read (fix these first)"
