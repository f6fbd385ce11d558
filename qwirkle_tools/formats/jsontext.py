"""JSON text: reading it exactly and safely, as records and corpus lines need.

:func:`parse_json` reads with orjson (fast) and gives the same verdict as
the standard library on every text; :func:`deep_enough` makes room on the
stack for values nested as deep as the reader accepts. Nothing here knows
about records.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from typing import Any

from .native import signals_held

JSON = Any


class _EmptyObject(Mapping[str, JSON]):
    """The read-only empty JSON object of a turn or record with no extra keys: one
    object, shared, that pickles and copies as itself (a ``mappingproxy`` does
    neither, and took every record, turn and playable game with it)."""

    __slots__ = ()

    def __getitem__(self, key: str) -> JSON:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "{}"

    def __reduce__(self) -> str:
        return "EMPTY_OBJECT"  # (pickle and copy: this module's one instance)


EMPTY_OBJECT: Mapping[str, JSON] = _EmptyObject()


MAX_DEPTH = 1024
"""Deepest nesting of arrays and objects read (orjson's limit, held in both reading modes)."""

_LONG_DIGITS = re.compile(rb"\d{20}")  # an integer orjson may read as a float
_HUGE_DIGITS = re.compile(rb"\d{300,}")  # an integer beyond a float: orjson refuses it
_TOO_MANY_DIGITS = re.compile(rb"\d{4301,}")  # beyond the interpreter's int conversion limit


def parse_json(text: str | bytes, exact: bool = False) -> JSON:
    """Parse JSON text, with orjson when it is installed.

    Both modes give the same verdict: what orjson refuses is refused
    (malformed text, invalid UTF-8 or escaped lone surrogates, ``NaN`` and
    ``Infinity``, a float beyond the range of a double, nesting deeper than
    :data:`MAX_DEPTH`), except integers too large for a double, which are
    read exactly (up to 4,300 digits). ``exact`` keeps every integer exact
    (orjson reads those beyond 64 bits as floats) for records that will be
    written back; it reads with the standard library where that matters.

    Raises:
        json.JSONDecodeError (a ``ValueError``) with line and column.
    """
    raw = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    orjson = _orjson()
    if orjson is None:  # pragma: no cover - orjson is a dependency
        return _parse_exact(raw)
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        if not _HUGE_DIGITS.search(raw):
            raise _explained(raw, exc.msg, exc.doc, exc.pos) from None
        # every check but the huge integers (blanked out, positions kept), then read them exactly
        masked = _HUGE_DIGITS.sub(lambda m: b"0" + b" " * (len(m[0]) - 1), raw)
        try:
            orjson.loads(masked)
        except orjson.JSONDecodeError as exc2:
            raise _explained(raw, exc2.msg, raw.decode("utf-8", "replace"), exc2.pos) from None
        return _parse_exact(raw)
    if exact and inexact_integers(raw):
        return _parse_exact(raw)
    return data


@cache
def _orjson() -> Any:
    """orjson, imported with the signals held (its start runs Python code from
    Rust; see :mod:`qwirkle_tools.formats.native`), or ``None`` when it is missing."""
    with signals_held():
        try:
            import orjson
        except ImportError:  # pragma: no cover - orjson is a dependency
            return None
    return orjson


def inexact_integers(text: bytes) -> bool:
    """Whether the text may hold an integer that orjson reads as a float
    (one beyond 64 bits: a run of 20 digits). Costs about a parse."""
    return _LONG_DIGITS.search(text) is not None


def _explained(raw: bytes, msg: str, doc: str, pos: int) -> json.JSONDecodeError:
    """orjson's error, with a plainer message and, for bad UTF-8, the true place."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as bad:  # orjson puts these at line 1, column 1
        text = raw[:bad.start].decode("utf-8")
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            return json.JSONDecodeError("UTF-16 text (it starts with a UTF-16 byte-order mark); records are UTF-8", text, 0)
        return json.JSONDecodeError(f"not UTF-8 (byte 0x{raw[bad.start]:02x})", text, len(text))
    if "depth" in msg:
        msg = f"nested deeper than {MAX_DEPTH:,} levels (arrays and objects)"
    elif "infinity" in msg and (number := re.match(r"-?[0-9.eE+-]+", doc[pos:pos + 40])):
        msg = f"{number[0]} is too large for a number (at most about 1.8e308)"
    else:
        word = re.match(r"-?(?:NaN|Infinity)", doc[pos:pos + 9])
        if word:
            msg = f"{word[0]} is not JSON (write a number, or null)"
    return json.JSONDecodeError(msg, doc, pos)


def _parse_exact(raw: bytes) -> JSON:
    """The standard library's reading (every integer exact), with room for deep nesting."""
    try:
        with deep_enough():
            return json.loads(raw, parse_constant=_no_constant)
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer of more digits than the interpreter converts
        long = _TOO_MANY_DIGITS.search(raw)
        if long is None:
            raise
        doc = raw.decode("utf-8", "replace")
        pos = len(raw[:long.start()].decode("utf-8", "replace"))
        raise json.JSONDecodeError(f"a number of {len(long[0]):,} digits (at most 4,300)", doc, pos) from None


@contextmanager
def deep_enough(depth: int = MAX_DEPTH) -> Iterator[None]:
    """Room on the interpreter's stack for JSON data nested ``depth`` deep.

    The standard json module, ``repr`` and the reference schema engine
    recurse once or twice per level; the default limit (1,000 calls) is
    less than :data:`MAX_DEPTH`. Not for threads with small stacks.
    """
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, old + 3 * depth))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


__all__ = ["JSON", "MAX_DEPTH", "deep_enough", "inexact_integers", "parse_json"]
