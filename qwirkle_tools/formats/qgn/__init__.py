"""The game notation (``.qgn``): a record as plain text, one turn per line.

People write it by hand at a club table and read it back; the toolkit reads
it wherever it reads a record. :func:`parse_qgn` reads it into the record's
JSON data (so that the schema check, the replay and every finding are those
of the JSON form) and :func:`format_qgn` writes a record as it; the two
round-trip every version-1 record except ``x-`` fields and machine
``analysis`` (:func:`dropped` lists what a record would lose). The grammar,
with examples, is in ``docs/notation.md``::

    Event: Club night
    Players: Ana, Ben
    1. Ana rc@0,0 rd@1,0 2 rack rc rd ys bx gd pt draw yd pt
    2. Ben rs@0,-1 rc@1,-1 6 {a fine start}
    3. Ana exchange yd pt 0
    4. Ben exchange 2
    5. Ana - 7
    6. Ben pass
    Result: 296-295 out

The reader is a small hand-written parser: each line is split into tokens
(words, JSON strings, ``{comments}``) that keep their column, and each kind
of line is read by its own function. A mistake is a ``qgn`` finding with
the line, the column and a caret under the place; the rest of the file is
still read, up to the limits (see :func:`parse_qgn`); a turn that cannot be
read is kept as a stand-in, so that the turns after it keep their numbers.
This module decides nothing about legality: that is the replay's.

It is in three parts: :mod:`~qwirkle_tools.formats.qgn.tokens` (the
tokens and the grammar both sides share), :mod:`~qwirkle_tools.formats.qgn.read`
and :mod:`~qwirkle_tools.formats.qgn.write`; this module gives their names.
"""

from __future__ import annotations

from .read import parse_qgn
from .tokens import ENDS as ENDS
from .tokens import MAX_DIGITS as MAX_DIGITS
from .tokens import RESERVED as RESERVED
from .tokens import Token as Token
from .tokens import tokens
from .write import comment_text, dropped, format_qgn, strip_dropped

SUFFIX = ".qgn"

__all__ = ["SUFFIX", "comment_text", "dropped", "format_qgn", "parse_qgn", "strip_dropped", "tokens"]
