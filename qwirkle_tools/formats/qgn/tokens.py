"""The notation's words: the tokens of a line, the shared grammar, a mistake.

What both the reader (:mod:`~qwirkle_tools.formats.qgn.read`) and the
writer (:mod:`~qwirkle_tools.formats.qgn.write`) of the notation
(:mod:`~qwirkle_tools.formats.qgn`) must agree on, so that a written
record reads back the same: how a line splits into tokens, which header
names are reserved, what a header's value is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from difflib import get_close_matches
from typing import NamedTuple

from ...core.board import INTEGER
from ...core.board import MAX_DIGITS as MAX_DIGITS
from ...core.text import cut
from ..jsontext import JSON, parse_json

ENDS = ("out", "blocked", "unfinished")
RESERVED = ("players", "rules", "result", "setup-board", "setup-bag", "setup-racks", "setup-scores")
"""Header names that are not ``meta`` (compared in lower case)."""

# the grammar's pieces: what the reader matches, and the writer checks a bare text against
BARE_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
META_KEY = re.compile(r"[a-z][a-z0-9_-]*")
TURN_START = re.compile(r"\s*([0-9]+)\.")
INT = INTEGER  # a coordinate's grammar, the core's (Placement.parse and Move.parse read it too)
DIGITS = re.compile(r"[0-9]+")
SPACE = re.compile(r"\s*")
BLANKS = re.compile(r"[ \t]*")
WORD = re.compile(r'[^\s"{]+')
SCORES = re.compile(r"[0-9]+(?:-[0-9]+)*")


class Mistake(Exception):
    """A mistake at a column of the line being read (the reader turns it
    into a ``qgn`` finding; it never leaves :func:`~qwirkle_tools.formats.qgn.parse_qgn`)."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message


class Token(NamedTuple):
    """A piece of a line: a word, a JSON string (``quoted``) or a
    ``{comment}``, its text (decoded), and its 1-based column."""

    text: str
    column: int
    kind: str = "word"  # "word", "string" or "comment"

    def shown(self) -> str:
        text = cut(self.text, 30)
        return repr(text) if self.kind != "comment" else "a {comment}"


# -- tokens ------------------------------------------------------------------

def tokens(line: str, start: int = 0, plain: bool | None = None) -> Iterator[Token]:
    """The tokens of ``line`` from index ``start``; ``plain``: whether the
    line is known to hold no ``"`` and no ``{`` (looked for when ``None``:
    a reader of several turns on one long line looks once).

    >>> [t.text for t in tokens('1. "Ana Lee" rc@0,0 2 {well played}')]
    ['1.', 'Ana Lee', 'rc@0,0', '2', 'well played']
    """
    if plain is None:
        plain = '"' not in line and "{" not in line
    if plain:  # words only: the common line, read at once
        for m in WORD.finditer(line, start):
            yield Token(m.group(), m.start() + 1)
        return
    i, n = start, len(line)
    while True:
        i = SPACE.match(line, i).end()  # type: ignore[union-attr]  # (matches always)
        if i >= n:
            return
        c = line[i]
        if c == '"':
            value, end = quoted(line, i)
            yield Token(value, i + 1, "string")
            i = end
        elif c == "{":
            text, end = _comment(line, i)
            yield Token(text, i + 1, "comment")
            i = end
        else:
            j = WORD.match(line, i).end()  # type: ignore[union-attr]  # (a character that starts a word)
            yield Token(line[i:j], i + 1)
            i = j


def quoted(line: str, i: int) -> tuple[str, int]:
    """The text of the JSON string starting at ``i``, and the index after it."""
    end = _string_end(line, i)
    try:
        value = parse_json(line[i:end])
    except ValueError:
        raise Mistake(i + 1, "a quoted text that is not a JSON string (escape \" and \\ with \\)") from None
    if not isinstance(value, str):
        raise Mistake(i + 1, "a quoted text that is not a JSON string")
    return value, end


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_COMMENT_BODY = re.compile(r"[^\\}]*(?:\\.[^\\}]*)*", re.S)
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.?)", re.S)


def _string_end(line: str, i: int) -> int:
    m = _STRING.match(line, i)  # one pass of the regex engine: a quoted text may be megabytes long
    if m is None:
        raise Mistake(i + 1, "a quoted text with no closing \"")
    return m.end()


_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "{": "{", "}": "}"}


def _comment(line: str, i: int) -> tuple[str, int]:
    """A ``{comment}`` starting at ``i``: its text and the index after it.
    Spaces at either end are not part of the text unless escaped.

    Linear in the comment's length: the body is found in one match, trimmed
    as written (an escape never starts or ends in a space), then its escapes
    are replaced in one pass."""
    end = _COMMENT_BODY.match(line, i + 1).end()  # type: ignore[union-attr]  # (matches always)
    body = line[i + 1:end]
    start = i + 1 + len(body) - len(body.lstrip())
    body = body.strip()

    def unescaped(m: re.Match[str]) -> str:
        e = m.group(1)
        if e in _ESCAPES:
            return _ESCAPES[e]
        if len(e) > 1 and not 0xD800 <= int(e[1:], 16) < 0xE000 and int(e[1:], 16) < 0x110000:
            return chr(int(e[1:], 16))
        raise Mistake(start + m.start() + 1, "unknown escape in a comment (write \\\\, \\}, \\n, \\t or \\uXXXX)")

    text = _ESCAPE.sub(unescaped, body) if "\\" in body else body
    if end < len(line) and line[end] == "\\":  # a lone \ at the end of the line
        raise Mistake(end + 1, "unknown escape in a comment (write \\\\, \\}, \\n, \\t or \\uXXXX)")
    if end >= len(line):
        raise Mistake(i + 1, "a comment with no closing }")
    return text, end + 1



def is_turn_number(t: Token) -> bool:
    """Whether ``t`` starts a turn (``12.``): a second turn on a line, where
    the first one's score, rack or comment could be."""
    return t.kind == "word" and len(t.text) > 1 and t.text[-1] == "." and DIGITS.fullmatch(t.text, 0, len(t.text) - 1) \
        is not None


NEAR_LENGTH = 40
"""Longest text looked at for a "did you mean": a close match costs the
product of the lengths, and a header or a name may be megabytes long."""


def near(text: str, choices: Iterable[str], cutoff: float) -> list[str]:
    """The ``choices`` close to ``text`` (in any case), closest first: what a
    slip of the pen may have meant. Texts longer than :data:`NEAR_LENGTH` are
    never close.

    >>> near("Player", RESERVED, 0.8), near("Anna", ["Ana", "Ben"], 0.6), near("Event", RESERVED, 0.8)
    (['players'], ['Ana'], [])
    """
    if len(text) > NEAR_LENGTH:
        return []
    folded = {c.casefold(): c for c in choices if len(c) <= NEAR_LENGTH}
    return [folded[c] for c in get_close_matches(text.casefold(), folded, n=3, cutoff=cutoff)]


HEADER_CUTOFF = 0.8
"""How close a header's name must be to a reserved one to be read as it
(``Player`` is 0.92 from ``players``, ``Place`` 0.67)."""


def near_reserved(key: str) -> bool:
    """Whether a ``meta`` key would be read as a misspelt reserved header
    (the writer quotes it, so that it reads back as ``meta``)."""
    return key not in RESERVED and bool(near(key, RESERVED, HEADER_CUTOFF))


def meta_value(value: str) -> JSON:
    """A header's value: a JSON scalar as written (``3``, ``true``,
    ``"quoted text"``), else the text itself."""
    if value[:1] in '"-0123456789tfn':
        try:
            parsed = parse_json(value, exact=True)
        except ValueError:
            return value
        if parsed is None or isinstance(parsed, (str, int, float, bool)):
            return parsed
    return value


__all__ = ["BARE_KEY", "BLANKS", "DIGITS", "ENDS", "HEADER_CUTOFF", "INT", "MAX_DIGITS", "META_KEY", "NEAR_LENGTH", "RESERVED",
           "SCORES", "SPACE", "TURN_START", "WORD", "Mistake", "Token", "is_turn_number", "meta_value", "near", "near_reserved",
           "quoted", "tokens"]
