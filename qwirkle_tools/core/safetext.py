"""Text from a record (names, comments, file names) made safe for where it is shown.

A record may hold any text: escape sequences that drive a terminal, a line
break that forges an output line, bidirectional overrides that reorder what
a reader sees, a leading ``=`` that a spreadsheet runs as a formula. Every
output passes such text through one of these:

* :func:`one_line` for a terminal, a text file or a picture: one line, every
  character that is not printable shown as an escape (``\\x1b``, ``\\n``,
  ``\\u202e``), which also leaves only characters XML 1.0 allows (for SVG);
* :func:`json_text` for JSON: every character that is not printable (C1
  controls, DEL, line separators, bidi controls, ...) escaped as ``\\uXXXX``
  too (JSON itself escapes only C0);
* :func:`csv_cell` for a CSV cell: :func:`one_line`, and text that starts
  like a formula (``=``, ``+``, ``-``, ``@``, tab, CR) prefixed with ``'``, as
  OWASP advises; numbers stay numbers.

    >>> one_line("Ana\\nBen: 999 points")
    'Ana\\\\nBen: 999 points'
    >>> csv_cell("=HYPERLINK(\\"x\\")")
    '\\'=HYPERLINK("x")'
"""

from __future__ import annotations

import json
from typing import Any

from .text import ELLIPSIS, count, cut, ordinal

_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(c: str) -> str:
    code = ord(c)
    if c in _SHORT:
        return _SHORT[c]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def one_line(text: str, most: int | None = None) -> str:
    """``text`` as one printable line: each character that is not printable
    (a control, a format character such as U+200B, a line break) shown as an
    escape, so two names that differ only there read differently. With
    ``most``, at most that many characters, cut with ``...`` (never inside
    an escape).

    >>> one_line("Ana\\x07"), one_line("Ana\\u200b"), one_line("Ana Ben", most=6)
    ('Ana\\\\x07', 'Ana\\\\u200b', 'Ana...')
    """
    if text.isprintable():
        return text if most is None else cut(text, most)
    pieces = [c if c.isprintable() else _escape(c) for c in text]
    if most is None or sum(map(len, pieces)) <= most:
        return "".join(pieces)
    kept, room = [], most - len(ELLIPSIS)
    for piece in pieces:
        room -= len(piece)
        if room < 0:
            break
        kept.append(piece)
    return "".join(kept) + ELLIPSIS


def _json_escape(c: str) -> str:
    code = ord(c)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # JSON writes a character beyond the BMP as a surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def json_text(data: Any, **options: Any) -> str:
    """``json.dumps(data, ensure_ascii=False, **options)``, with every
    character that is not printable escaped (JSON itself escapes only C0):
    C1 controls, DEL, bidi controls, line separators, noncharacters. Letters
    of every script stay as they are."""
    text = json.dumps(data, ensure_ascii=False, **options)
    if text.isascii() and "\x7f" not in text:
        return text
    return "".join(c if c.isprintable() or c == "\n" else _json_escape(c) for c in text)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A value made safe for a CSV cell: text as :func:`one_line`, and
    prefixed with ``'`` if it starts like a formula; anything else as it is."""
    if not isinstance(value, str):
        return value
    if value.startswith(_FORMULA_START):
        value = "'" + value
    return one_line(value)


__all__ = ["count", "csv_cell", "json_text", "one_line", "ordinal"]
"""(``count`` and ``ordinal`` live in :mod:`qwirkle_tools.core.text`; release 0.1 gave them here.)"""
