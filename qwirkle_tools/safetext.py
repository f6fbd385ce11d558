"""Text from a record (names, comments, file names) made safe for where it is shown.

A record may hold any text: escape sequences that drive a terminal, a line
break that forges an output line, bidirectional overrides that reorder what
a reader sees, a leading ``=`` that a spreadsheet runs as a formula. Every
output passes such text through one of these:

* :func:`one_line` for a terminal, a text file or a picture: one line, every
  character that is not printable shown as an escape (``\\x1b``, ``\\n``,
  ``\\u202e``), which also leaves only characters XML 1.0 allows (for SVG);
* :func:`json_text` for JSON: C1 controls, DEL, line separators and bidi
  controls escaped as ``\\uXXXX`` too (JSON itself escapes only C0);
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
import re
from typing import Any

_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(c: str) -> str:
    code = ord(c)
    if c in _SHORT:
        return _SHORT[c]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def one_line(text: str) -> str:
    """``text`` as one printable line (non-printable characters as escapes)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escape(c) for c in text)


_JSON_UNSAFE = re.compile("[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def json_text(data: Any, **options: Any) -> str:
    """``json.dumps(data, ensure_ascii=False, **options)``, with the characters
    that JSON leaves raw but a terminal or an editor acts on escaped."""
    text = json.dumps(data, ensure_ascii=False, **options)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A value made safe for a CSV cell: text as :func:`one_line`, and
    prefixed with ``'`` if it starts like a formula; anything else as it is."""
    if not isinstance(value, str):
        return value
    if value.startswith(_FORMULA_START):
        value = "'" + value
    return one_line(value)


def count(n: int, word: str) -> str:
    """``1 tile``, ``2 tiles``, ``0 tiles``: a number and a regular noun.

        >>> count(1, "gift"), count(3, "tile")
        ('1 gift', '3 tiles')
    """
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


__all__ = ["count", "csv_cell", "json_text", "one_line"]
