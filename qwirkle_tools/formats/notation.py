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
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import chain
from typing import NamedTuple

from ..core.board import Placement
from ..core.findings import MAX_FINDINGS, STOPPED, Finding, excerpt, make, text_lines
from ..core.rules import RULE_KEYS
from ..core.safetext import json_text
from ..core.text import cut, ordinal
from ..core.tiles import BY_TEXT, RACK_SIZE, TILE_COUNT, Tile, format_tiles
from .jsontext import JSON, parse_json
from .record import Parsed, Record, Turn, placement_data
from .schema import MAX_PLAYERS, MAX_TURNS, PAST_MAX_TURNS

SUFFIX = ".qgn"

ENDS = ("out", "blocked", "unfinished")
RESERVED = ("players", "rules", "result", "setup-board", "setup-bag", "setup-racks", "setup-scores")
"""Header names that are not ``meta`` (compared in lower case)."""

_BARE_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_META_KEY = re.compile(r"[a-z][a-z0-9_-]*")
_TURN_START = re.compile(r"\s*([0-9]+)\.")
_INT = re.compile(r"-?[0-9]+")
_DIGITS = re.compile(r"[0-9]+")
_SPACE = re.compile(r"\s*")
_BLANKS = re.compile(r"[ \t]*")
_WORD = re.compile(r'[^\s"{]+')
_SCORES = re.compile(r"[0-9]+(?:-[0-9]+)*")
MAX_DIGITS = 15
"""Longest number read; a longer one is a mistake, not a score."""


class _Mistake(Exception):
    """A mistake at a column of the line being read."""

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

def tokens(line: str, start: int = 0) -> Iterator[Token]:
    """The tokens of ``line`` from index ``start``.

    >>> [t.text for t in tokens('1. "Ana Lee" rc@0,0 2 {well played}')]
    ['1.', 'Ana Lee', 'rc@0,0', '2', 'well played']
    """
    if '"' not in line and "{" not in line:  # words only: the common line, read at once
        for m in _WORD.finditer(line, start):
            yield Token(m.group(), m.start() + 1)
        return
    i, n = start, len(line)
    while True:
        i = _SPACE.match(line, i).end()  # type: ignore[union-attr]  # (matches always)
        if i >= n:
            return
        c = line[i]
        if c == '"':
            value, end = _quoted(line, i)
            yield Token(value, i + 1, "string")
            i = end
        elif c == "{":
            text, end = _comment(line, i)
            yield Token(text, i + 1, "comment")
            i = end
        else:
            j = _WORD.match(line, i).end()  # type: ignore[union-attr]  # (a character that starts a word)
            yield Token(line[i:j], i + 1)
            i = j


def _quoted(line: str, i: int) -> tuple[str, int]:
    """The text of the JSON string starting at ``i``, and the index after it."""
    end = _string_end(line, i)
    try:
        value = parse_json(line[i:end])
    except ValueError:
        raise _Mistake(i + 1, "a quoted text that is not a JSON string (escape \" and \\ with \\)") from None
    if not isinstance(value, str):
        raise _Mistake(i + 1, "a quoted text that is not a JSON string")
    return value, end


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_COMMENT_BODY = re.compile(r"[^\\}]*(?:\\.[^\\}]*)*", re.S)
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.?)", re.S)


def _string_end(line: str, i: int) -> int:
    m = _STRING.match(line, i)  # one pass of the regex engine: a quoted text may be megabytes long
    if m is None:
        raise _Mistake(i + 1, "a quoted text with no closing \"")
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
        raise _Mistake(start + m.start() + 1, "unknown escape in a comment (write \\\\, \\}, \\n, \\t or \\uXXXX)")

    text = _ESCAPE.sub(unescaped, body) if "\\" in body else body
    if end < len(line) and line[end] == "\\":  # a lone \ at the end of the line
        raise _Mistake(end + 1, "unknown escape in a comment (write \\\\, \\}, \\n, \\t or \\uXXXX)")
    if end >= len(line):
        raise _Mistake(i + 1, "a comment with no closing }")
    return text, end + 1


# -- reading -------------------------------------------------------------------

def parse_qgn(text: str) -> Parsed:
    """A game's record data from its notation, and every mistake in it.

    Never raises: each line that cannot be read is a ``qgn`` finding, and
    the rest of the text is still read. Lines end in LF, CRLF or a lone CR.
    The cost is bounded by the format's limits, not the text's size: the
    reading stops at the turn past :data:`~qwirkle_tools.formats.schema.MAX_TURNS`
    and after :data:`~qwirkle_tools.core.findings.MAX_FINDINGS` mistakes, each
    time with one finding that says so; a list longer than the format
    allows (tiles, racks, players, scores) is one mistake, and is not built.
    """
    reader = _Reader()
    for number, line in text_lines(text):
        if not reader.read_line(number, line):
            break
    return reader.parsed()


class _Reader:
    """The state of one reading: headers seen, players, turns, mistakes."""

    def __init__(self) -> None:
        self.data: dict[str, JSON] = {"format": "qwirkle-record", "version": 1}
        self.meta: dict[str, JSON] = {}
        self.setup: dict[str, JSON] = {}
        self.turns: list[dict[str, JSON]] = []
        self.broken: set[int] = set()
        self.findings: list[Finding] = []
        self.stopped = False
        self.seen: set[str] = set()
        self.names: list[str] | None = None
        self.seats: dict[str, list[int]] = {}  # each name, and the seats of that name ...
        self.folded: dict[str, list[int]] = {}  # ... and of that name in any case: a lookup a turn
        self.result: dict[str, JSON] | None = None

    def parsed(self) -> Parsed:
        data = self.data
        if self.meta:
            data["meta"] = self.meta
        data["players"] = data.pop("players", [])
        if self.setup:
            data["setup"] = {"board": self.setup.pop("board", []), **self.setup}
        data["turns"] = self.turns
        if self.result is not None:
            data["result"] = self.result
        if "players" not in self.seen:
            self.findings.insert(0, make("qgn", None, "/players", "no 'Players:' line: name the players in seat "
                                                                  "order, e.g. 'Players: Ana, Ben'"))
        return Parsed(data, tuple(self.findings), frozenset(self.broken))

    def mistake(self, number: int, line: str, column: int, message: str, pointer: str = "") -> None:
        if self.stopped:  # (the line that reached the cap may hold a second mistake)
            return
        self.findings.append(make("qgn", None, pointer, f"line {number}, column {column}: {message}",
                                  excerpt(line, column)))
        if len(self.findings) == MAX_FINDINGS - 1:  # the note is the last of the record's MAX_FINDINGS
            self.stop(number, line, column, STOPPED)

    def stop(self, number: int, line: str, column: int, message: str, pointer: str = "") -> None:
        """The reading ends here: one last finding says why."""
        if not self.stopped:
            self.stopped = True
            self.findings.append(make("qgn", None, pointer, f"line {number}, column {column}: {message}",
                                      excerpt(line, column)))

    def read_line(self, number: int, line: str) -> bool:
        """Reads a line that holds more than white space; whether to go on."""
        if _TURN_START.match(line):
            self.read_turn(number, line)
        else:
            try:
                self.read_header(line)
            except _Mistake as m:
                self.mistake(number, line, m.column, m.message)
        return not self.stopped

    # -- headers

    def read_header(self, line: str) -> None:
        start = len(line) - len(line.lstrip())
        if line[start] == '"':
            key, end = _quoted(line, start)
            name = None
        else:
            m = _BARE_KEY.match(line, start)
            if m is None:
                raise _Mistake(start + 1, "expected a turn like '12. Ana rc@0,0 4' or a header like "
                                          "'Event: Club night'")
            end = m.end()
            key = name = m.group().lower()
        colon = _BLANKS.match(line, end).end()  # type: ignore[union-attr]  # (matches always)
        if colon >= len(line) or line[colon] != ":":
            raise _Mistake(colon + 1, f"expected ':' after the header name {key!r} (or a turn like '12. Ana rc@0,0 4')")
        value_at = colon + 1
        value = line[value_at:].strip()
        column = _SPACE.match(line, value_at).end() + 1  # type: ignore[union-attr]
        if (name in self.seen) if name in RESERVED else (key in self.meta):
            raise _Mistake(start + 1, f"a second {key!r} header (each header is given once)")
        if name in RESERVED:
            self.seen.add(name)
        if name == "players":
            self.read_players(line, value_at)
        elif name == "rules":
            self.data["rules"] = self.read_rules(line, value_at)
        elif name == "result":
            self.result = self.read_result(line, value_at)
        elif name == "setup-board":
            self.setup["board"] = [placement_data(_placement(t))
                                   for t in _at_most(tokens(line, value_at), TILE_COUNT, "tiles on the board")]
        elif name == "setup-bag":
            self.setup["bag"] = self.read_tiles_or_count(
                _at_most(tokens(line, value_at), TILE_COUNT, "tiles in the bag"), TILE_COUNT, column)
        elif name == "setup-racks":
            self.setup["racks"] = self.read_racks(line, value_at)
        elif name == "setup-scores":
            self.setup["scores"] = _scores(value, column)
        else:
            self.meta[key] = _meta_value(value)

    def read_players(self, line: str, at: int) -> None:
        names: list[str] = []
        try:
            self.read_names(line, at, names)
        finally:  # the names read before a mistake are the players, so that the turns naming them are read
            self.data["players"] = [{"name": n} for n in names]
            self.names = names
            for seat, n in enumerate(names):
                self.seats.setdefault(n, []).append(seat)
                self.folded.setdefault(n.casefold(), []).append(seat)

    def read_names(self, line: str, at: int, names: list[str]) -> None:
        i = at  # split on commas; a quoted name may hold anything
        while True:
            i = _SPACE.match(line, i).end()  # type: ignore[union-attr]  # (matches always)
            if i >= len(line):
                if names:
                    raise _Mistake(i + 1, "expected a player's name after ','")
                return
            if len(names) == MAX_PLAYERS:
                raise _Mistake(i + 1, f"more than {MAX_PLAYERS} players")
            if line[i] == '"':
                name, j = _quoted(line, i)
                j = _SPACE.match(line, j).end()  # type: ignore[union-attr]
                if j < len(line) and line[j] != ",":
                    raise _Mistake(j + 1, "expected ',' between two players' names")
            else:
                j = line.find(",", i)
                j = len(line) if j < 0 else j
                name = line[i:j].strip()
                if not name:
                    raise _Mistake(i + 1, "expected a player's name before ','")
            names.append(name)
            if j >= len(line):
                return
            i = j + 1

    def read_rules(self, line: str, at: int) -> dict[str, JSON]:
        rules: dict[str, JSON] = {}
        for t in tokens(line, at):
            key, eq, value = t.text.partition("=")
            if t.kind != "word" or key not in RULE_KEYS or not eq:
                raise _Mistake(t.column, f"expected a rule like qwirkle_bonus=6 ({', '.join(RULE_KEYS)}), "
                                         f"got {t.shown()}")
            rules[key] = _number(value, t.column + len(key) + 1, "a whole number")
        return rules

    def read_result(self, line: str, at: int) -> dict[str, JSON]:
        result: dict[str, JSON] = {}
        for t in tokens(line, at):
            if t.kind == "word" and t.text in ENDS and "end" not in result:
                result["end"] = t.text
            elif t.kind == "word" and _SCORES.fullmatch(t.text) and "scores" not in result and "end" not in result:
                result["scores"] = _scores(t.text, t.column)
            else:
                raise _Mistake(t.column, f"expected the scores (like 296-295) and how the game ended "
                                         f"({', '.join(ENDS)}), got {t.shown()}")
        return result

    def read_tiles_or_count(self, parts: list[Token], most: int, column: int) -> JSON:
        if len(parts) == 1 and _INT.fullmatch(parts[0].text):
            return _number(parts[0].text, parts[0].column, "a number of tiles", most)
        if len(parts) == 1 and parts[0].text == "-":
            return []
        if not parts:
            raise _Mistake(column, "expected tiles, a number of tiles, or - for none")
        return [str(_tile(t)) for t in parts]

    def read_racks(self, line: str, at: int) -> list[JSON]:
        racks: list[JSON] = []
        group: list[Token] = []
        for t in chain(_racks_of(tokens(line, at), RACK_SIZE), [Token("|", len(line) + 1)]):
            if t.kind == "word" and t.text == "|":
                if not group:
                    raise _Mistake(t.column, "expected a rack (tiles, a size, or - for an empty rack) before '|'")
                if len(racks) == MAX_PLAYERS:
                    raise _Mistake(group[0].column, f"more than {MAX_PLAYERS} racks (one a seat)")
                racks.append(self.read_tiles_or_count(group, RACK_SIZE, t.column))
                group = []
            else:
                group.append(t)
        return racks

    # -- turns

    def read_turn(self, number: int, line: str) -> None:
        index = len(self.turns)
        if index == MAX_TURNS:
            at = _SPACE.match(line).end() + 1  # type: ignore[union-attr]  # (matches always)
            self.stop(number, line, at, PAST_MAX_TURNS, "/turns")
            return
        turn: dict[str, JSON] = {"player": 0, "action": "pass"}  # the stand-in, until the line is read
        self.turns.append(turn)
        pointer = f"/turns/{index}"
        try:
            read = _TurnReader(tokens(line), line)
            head = read.next()
            written = int(head.text[:-1]) if head.text.endswith(".") and _DIGITS.fullmatch(head.text[:-1]) and \
                len(head.text) <= MAX_DIGITS else None
            if written is None:
                raise _Mistake(head.column, f"expected a turn number like '{index + 1}.', got {head.shown()}")
            if written != index + 1:
                self.mistake(number, line, head.column,
                             f"turn {written} is the {ordinal(index + 1)} turn of the game: write '{index + 1}.'",
                             pointer)
            player = read.peek()
            if player is None:
                raise _Mistake(head.column + len(head.text), "expected the player (a name or a seat number) "
                                                             "after the turn number")
            turn["player"] = self.read_player(read.next())
            turn.update(read.turn())
        except _Mistake as m:
            self.broken.add(index)
            self.mistake(number, line, m.column, m.message, pointer)

    def read_player(self, t: Token) -> int:
        if t.kind == "word" and _DIGITS.fullmatch(t.text):
            seat = _number(t.text, t.column, "a seat number")
            if not 1 <= seat <= MAX_PLAYERS:
                raise _Mistake(t.column, f"seat {seat} does not exist: seats are numbered from 1 to {MAX_PLAYERS}")
            return seat - 1
        if t.kind == "comment":
            raise _Mistake(t.column, "expected the player (a name or a seat number), got a {comment}")
        if self.names is None:
            raise _Mistake(t.column, "a player's name before the 'Players:' line (name the players first, "
                                     "or write the seat number)")
        found = self.seats.get(t.text) or self.folded.get(t.text.casefold(), [])
        if len(found) == 1:
            return found[0]
        if found:
            raise _Mistake(t.column, f"{t.shown()} names more than one player: write the seat number")
        raise _Mistake(t.column, f"no player {t.shown()}: the players are {', '.join(map(repr, self.names))}")


class _TurnReader:
    """Reads the move, the score and the notes of a turn line, a token at a
    time (a line of a million tiles is never a list of them)."""

    def __init__(self, parts: Iterator[Token], line: str) -> None:
        self.parts = parts
        self.ahead = next(parts, None)
        self.end = len(line) + 1

    def peek(self) -> Token | None:
        return self.ahead

    def next(self) -> Token:
        t = self.ahead
        if t is None:
            raise _Mistake(self.end, "expected more on the line")  # (callers peek first)
        self.ahead = next(self.parts, None)
        return t

    def integer(self) -> int | None:
        t = self.peek()
        if t is not None and t.kind == "word" and _DIGITS.fullmatch(t.text):
            self.next()
            return _number(t.text, t.column, "a number")
        return None

    def turn(self) -> dict[str, JSON]:
        t = self.peek()
        if t is None:
            raise _Mistake(self.end, "expected the move: tiles like rc@0,0, '-' for tiles not recorded, "
                                     "'exchange' or 'pass'")
        turn: dict[str, JSON] = {}
        word = t.text if t.kind == "word" else ""
        if word == "-":
            self.next()
            turn["action"] = "place"
        elif word == "exchange":
            self.next()
            turn["action"] = "exchange"
            t = self.peek()
            if t is not None and t.kind == "word" and t.text == "-":  # tiles and count not recorded
                self.next()
                count = None
            else:
                count = self.integer()
            tiles = self.tiles("tiles exchanged")
            if tiles:
                turn["tiles"] = tiles
            if count is not None:
                turn["count"] = count
        elif word == "pass":
            self.next()
            turn["action"] = "pass"
        elif "@" in word:
            placed = [placement_data(_placement(t)) for t in self.run(_is_placement, "tiles placed in one turn")]
            turn["action"] = "place"
            turn["tiles"] = placed
        else:
            raise _Mistake(t.column, f"expected the move: tiles like rc@0,0, '-', 'exchange' or 'pass', "
                                     f"got {t.shown()}")
        score = self.integer()
        if score is not None:
            turn["score"] = score
        while (t := self.peek()) is not None:
            if t.kind == "comment" and "comment" not in turn:
                self.next()
                turn["comment"] = t.text
            elif t.kind == "word" and t.text in ("rack", "draw") and t.text not in turn:
                self.next()
                turn[t.text] = self.tiles("tiles in a rack" if t.text == "rack" else "tiles drawn")
            else:
                expected = "the score, then 'rack', 'draw' or a {comment}" if score is None and \
                    not ({"rack", "draw", "comment"} & turn.keys()) else "'rack', 'draw' or a {comment}"
                if t.kind == "comment":
                    raise _Mistake(t.column, "a second {comment} on the turn: a turn holds one (join the two)")
                if t.kind == "word" and t.text in ("rack", "draw", "comment"):
                    expected = f"one {t.text!r} on a turn"
                raise _Mistake(t.column, f"expected {expected}, got {t.shown()}")
        return turn

    def run(self, more: Callable[[Token], bool], what: str, most: int = RACK_SIZE) -> Iterator[Token]:
        """The tokens from here on that ``more`` accepts, at most ``most``: one
        more is a mistake there (the rest of a line of a million is not read)."""
        taken = 0
        while (t := self.peek()) is not None and more(t):
            if taken == most:
                raise _Mistake(t.column, f"more than {most} {what}")
            taken += 1
            yield self.next()

    def tiles(self, what: str) -> list[JSON]:
        return [str(_tile(t)) for t in self.run(_is_tile, what)]


def _is_placement(t: Token) -> bool:
    return t.kind == "word" and "@" in t.text


def _is_tile(t: Token) -> bool:
    return t.kind == "word" and not _DIGITS.fullmatch(t.text) and t.text not in ("rack", "draw")


def _at_most(parts: Iterator[Token], most: int, what: str) -> list[Token]:
    """The tokens of a header's value, at most ``most``: one more is a
    mistake there (``what`` they are)."""
    out: list[Token] = []
    for t in parts:
        if len(out) == most:
            raise _Mistake(t.column, f"more than {most} {what}")
        out.append(t)
    return out


def _racks_of(parts: Iterator[Token], most: int) -> Iterator[Token]:
    """The tokens of ``Setup-racks``, each rack (between ``|``) at most ``most`` tokens."""
    size = 0
    for t in parts:
        if t.kind == "word" and t.text == "|":
            size = 0
        elif size == most:
            raise _Mistake(t.column, f"more than {most} tiles in a rack")
        else:
            size += 1
        yield t


# -- small readers -------------------------------------------------------------

def _tile(t: Token) -> Tile:
    return _tile_at(t.text, t.column)


def _tile_at(text: str, column: int) -> Tile:
    found = BY_TEXT.get(text) or BY_TEXT.get(text.lower())
    if found is None:
        shown = cut(text, 30)
        raise _Mistake(column, f"expected a tile like rc or red-circle, got {shown!r}")
    return found


def _placement(t: Token) -> Placement:
    name, _, where = t.text.partition("@")
    tile = _tile_at(name, t.column)
    at = t.column + len(name) + 1
    x, comma, y = where.partition(",")
    if not comma:
        raise _Mistake(at, f"expected a cell like 0,-1 after '@', got {where!r}")
    return Placement(tile, _number(x, at, "a column (x)", signed=True),
                     _number(y, at + len(x) + 1, "a row (y)", signed=True))


def _number(text: str, column: int, what: str, most: int | None = None, signed: bool = False) -> int:
    if not (_INT if signed else _DIGITS).fullmatch(text):
        raise _Mistake(column, f"expected {what}, got {text!r}")
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Mistake(column, f"expected {what}, got a number of {len(text.lstrip('-'))} digits")
    value = int(text)
    if most is not None and value > most:
        raise _Mistake(column, f"{value} is more than {most}")
    return value


def _scores(text: str, column: int) -> list[JSON]:
    if not _SCORES.fullmatch(text):
        shown = cut(text, 30)
        raise _Mistake(column, f"expected scores like 296-295, got {shown!r}")
    if text.count("-") >= MAX_PLAYERS:
        raise _Mistake(column, f"more than {MAX_PLAYERS} scores (one a seat)")
    out: list[JSON] = []
    for part in text.split("-"):
        out.append(_number(part, column, "a score"))
        column += len(part) + 1
    return out


def _meta_value(value: str) -> JSON:
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


# -- writing -------------------------------------------------------------------

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
        if _plain(name) and not _DIGITS.fullmatch(name) and _WORD.fullmatch(name):  # one word, as tokens() reads it
            return name
        return json_text(name)
    return str(seat + 1)


def _key_text(key: str) -> str:
    if _META_KEY.fullmatch(key) and key not in RESERVED:
        return key[0].upper() + key[1:]
    return json_text(key)


def _value_text(value: JSON) -> str:
    if isinstance(value, str) and _plain(value) and _meta_value(value) == value:
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


__all__ = ["SUFFIX", "comment_text", "dropped", "format_qgn", "parse_qgn", "strip_dropped", "tokens"]
