"""Writing the notation (``.qgn``, :mod:`~qwirkle_tools.formats.qgn`):
:func:`format_qgn`, and what a record loses on the way (:func:`dropped`).

Every text is written so that the reader gives it back exactly: names,
keys and values are quoted as JSON strings where the bare form would read
otherwise, comments escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...core.safetext import json_text
from ...core.tiles import Tile, format_tiles
from ..jsontext import JSON
from ..record import Record, Turn
from .tokens import DIGITS, META_KEY, RESERVED, WORD, meta_value, near_reserved


def format_qgn(record: Record) -> str:
    """A record in the notation, one header or turn per line, ending in a
    newline; :func:`parse_qgn` reads it back to the same record, less what
    :func:`dropped` lists."""
    lines: list[str] = []
    for key, value in record.meta.items():
        lines.append(f"{_key_text(key)}: {_value_text(value)}")
    lines.append("Players: " + ", ".join(_name_text(n) for n in record.names))
    rules = record.rules_data()
    if rules is not None:  # the switches as the record names them, no more
        lines.append(f"Rules: {' '.join(f'{k}={v}' for k, v in rules.items())}".rstrip())
    setup = record.setup
    if setup is not None:
        lines.append(f"Setup-board: {' '.join(p.short for p in setup.board)}".rstrip())
        if setup.bag is not None:
            lines.append(f"Setup-bag: {_tiles_or_count_text(setup.bag)}")
        if setup.racks is not None:
            lines.append("Setup-racks: " + " | ".join(_tiles_or_count_text(r) for r in setup.racks))
        if setup.scores is not None:
            lines.append("Setup-scores: " + "-".join(map(str, setup.scores)))
    lines.append("")
    for i, turn in enumerate(record.turns):
        lines.append(f"{i + 1}. {_player_text(record.names, turn.player)} {_turn_text(turn)}")
    if record.result is not None:
        parts = []
        if record.result.scores is not None:
            parts.append("-".join(map(str, record.result.scores)))
        if record.result.end is not None:
            parts.append(record.result.end)
        lines.append(f"Result: {' '.join(parts)}".rstrip())
    return "\n".join(lines) + "\n"


def _turn_text(turn: Turn) -> str:
    parts: list[str] = []
    if turn.action == "place":
        parts.append(" ".join(p.short for p in turn.tiles) if turn.tiles else "-")
    elif turn.action == "exchange":
        parts.append("exchange")
        if turn.count is not None:
            parts.append(str(turn.count))
        if turn.exchanged:
            parts.append(format_tiles(turn.exchanged))
        if turn.count is None and not turn.exchanged:
            parts.append("-")  # a score sheet's 0: tiles and count not recorded
    else:
        parts.append("pass")
    if turn.score is not None:
        parts.append(str(turn.score))
    if turn.rack is not None:
        parts.append(" ".join(["rack", *(t.short for t in turn.rack)]))
    if turn.draw is not None:
        parts.append(" ".join(["draw", *(t.short for t in turn.draw)]))
    if turn.comment is not None:
        parts.append(comment_text(turn.comment))
    return " ".join(parts)


def comment_text(text: str) -> str:
    """A comment as the notation writes it: in braces, with ``\\``, braces,
    line breaks, characters that are not printable, and spaces at either end
    escaped (so that the reader gives back exactly ``text``).

    >>> comment_text("a {fine} move")
    '{a \\\\{fine\\\\} move}'
    """
    out = []
    last = len(text) - 1
    for i, c in enumerate(text):
        if c in "\\{}":
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        elif not c.isprintable() or (c.isspace() and (i == 0 or i == last)):
            out.append(f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}")
        else:
            out.append(c)
    return "{" + "".join(out) + "}"


def _tiles_or_count_text(value: Sequence[Tile] | int) -> str:
    if isinstance(value, int):
        return str(value)
    return format_tiles(value) if value else "-"


def _plain(text: str) -> bool:
    """Whether ``text`` can be written as it is, without quotes."""
    return bool(text) and text == text.strip() and text.isprintable() and not text.startswith(("\"", "{"))


def _name_text(name: str) -> str:
    return name if _plain(name) and "," not in name else json_text(name)


def _player_text(names: Sequence[str], seat: int) -> str:
    if seat < len(names) and names.count(names[seat]) == 1 and \
            sum(n.casefold() == names[seat].casefold() for n in names) == 1:
        name = names[seat]
        if _plain(name) and not DIGITS.fullmatch(name) and WORD.fullmatch(name):  # one word, as tokens() reads it
            return name
        return json_text(name)
    return str(seat + 1)


def _key_text(key: str) -> str:
    if META_KEY.fullmatch(key) and key not in RESERVED and not near_reserved(key):  # ("player" would read as "Players")
        return key[0].upper() + key[1:]
    return json_text(key)


def _value_text(value: JSON) -> str:
    if isinstance(value, str) and _plain(value) and meta_value(value) == value:
        return value
    return json_text(value)


def dropped(record: Record) -> list[str]:
    """What the notation cannot hold of ``record``, as JSON pointers:
    ``x-`` fields and machine ``analysis``, wherever they are."""
    out = [f"/{k}" for k in record.extra]
    out += [f"/players/{i}/{k}" for i, p in enumerate(record.players) for k in p.extra]
    if record.setup is not None:
        out += [f"/setup/{k}" for k in record.setup.extra]
    out += [f"/turns/{i}/{k}" for i, t in enumerate(record.turns) for k in t.extra]
    if record.result is not None:
        out += [f"/result/{k}" for k in record.result.extra]
    return out


def strip_dropped(record: Record) -> Record:
    """``record`` without what :func:`dropped` lists: what a round trip
    through the notation gives back."""
    from dataclasses import replace

    empty: Mapping[str, JSON] = {}
    return replace(
        record,
        players=tuple(replace(p, extra={}) for p in record.players),
        setup=None if record.setup is None else replace(record.setup, extra={}),
        turns=tuple(t._replace(extra=empty) for t in record.turns),
        result=None if record.result is None else replace(record.result, extra={}),
        extra={},
    )


__all__ = ["comment_text", "dropped", "format_qgn", "strip_dropped"]
