"""Reading the notation (``.qgn``, :mod:`~qwirkle_tools.formats.qgn`):
:func:`parse_qgn` and the readers of each kind of line.

Each line is split into tokens (:func:`~qwirkle_tools.formats.qgn.tokens.tokens`)
and read by its own function. A mistake is a ``qgn`` finding with the line,
the column and a caret under the place; the rest of the file is still read,
up to the limits; a turn that cannot be read is kept as a stand-in, so that
the turns after it keep their numbers. Nothing here decides legality.

A slip the reader can read past is one warning, and the rest is read as
meant: a turn numbered out of sequence (the turns are counted as written,
and the lines after it are not told again), two turns on one line, the
players' names without commas, a header or a player's name close to a
known one ("did you mean"), a placement without a score (while other turns
have one: the validator computes it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import chain

from ...core.board import Placement
from ...core.findings import MAX_FINDINGS, STOPPED, Finding, capped, excerpt, make, text_lines
from ...core.rules import RULE_KEYS
from ...core.text import cut, ordinal
from ...core.tiles import BY_TEXT, RACK_SIZE, TILE_COUNT, Tile
from ..jsontext import JSON
from ..record import Parsed, placement_data
from ..schema import MAX_PLAYERS, MAX_TURNS, PAST_MAX_TURNS
from .slips import header_slip, misspelt, names_near, number_slip, spaced_names, unnumbered, unscored
from .tokens import (
    BARE_KEY,
    BLANKS,
    DIGITS,
    ENDS,
    INT,
    MAX_DIGITS,
    RESERVED,
    SCORES,
    SPACE,
    TURN_START,
    Mistake,
    Token,
    is_turn_number,
    meta_value,
    quoted,
    tokens,
)

LOOKED_AT = 64
"""The most free headers of a game looked at for a misspelt reserved one (a
game has a dozen; each look costs what the reading of a few lines does, and
a file may hold millions of headers)."""


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
        self.guesses: dict[int, tuple[dict[str, JSON], tuple[tuple[int, int, int, str], ...]]] = {}
        self.findings: list[Finding] = []
        self.stopped = False
        self.seen: set[str] = set()
        self.names: list[str] | None = None
        self.seats: dict[str, list[int]] = {}  # each name, and the seats of that name ...
        self.folded: dict[str, list[int]] = {}  # ... and of that name in any case: a lookup a turn
        self.result: dict[str, JSON] | None = None
        self.at = (0, "")  # the line being read, and its number: where a warning is
        self.written: int | None = None  # the number written on the last turn
        self.looked = 0  # free headers looked at for a slip of the pen
        self.scored = False  # whether a turn has a score
        self.unscored: list[tuple[int, Finding]] = []  # placements without one, and where their warnings go

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
        if self.scored and self.unscored:  # the other turns have scores: these lack one
            merged = _merged(self.findings, self.unscored)
            if len(merged) > MAX_FINDINGS:  # (counted only once a score was seen): the note stays last
                merged = [*merged[:MAX_FINDINGS - 1], merged[-1]] if self.stopped else capped(merged)
            self.findings = merged
        if "players" not in self.seen:
            self.findings.insert(0, make("qgn", None, "/players", "no 'Players:' line: name the players in seat "
                                                                  "order, e.g. 'Players: Ana, Ben'"))
        return Parsed(data, tuple(self.findings), frozenset(self.broken), guesses=self.guesses)

    def mistake(self, number: int, line: str, column: int, message: str, pointer: str = "", code: str = "qgn") -> None:
        if self.stopped:  # (the line that reached the cap may hold a second mistake)
            return
        self.findings.append(make(code, None, pointer, f"line {number}, column {column}: {message}",
                                  excerpt(line, column)))
        self.count_one(number, line, column)

    def warn(self, code: str, column: int, message: str, pointer: str = "") -> None:
        """A slip read past, on the line being read (a warning ``code``)."""
        self.mistake(*self.at, column, message, pointer, code)

    def count_one(self, number: int, line: str, column: int) -> None:
        # the warnings held back count too, once they are known to be told: the note is the last of MAX_FINDINGS
        if len(self.findings) + (len(self.unscored) if self.scored else 0) >= MAX_FINDINGS - 1:
            self.stop(number, line, column, STOPPED)

    def stop(self, number: int, line: str, column: int, message: str, pointer: str = "") -> None:
        """The reading ends here: one last finding says why."""
        if not self.stopped:
            self.stopped = True
            self.findings.append(make("qgn", None, pointer, f"line {number}, column {column}: {message}",
                                      excerpt(line, column)))

    def read_line(self, number: int, line: str) -> bool:
        """Reads a line that holds more than white space; whether to go on."""
        self.at = (number, line)
        if TURN_START.match(line) or (self.names is not None and unnumbered(line, self.folded)):
            start: int | None = 0
            plain = '"' not in line and "{" not in line
            while start is not None and not self.stopped:  # (a second turn on the line starts at ``start``)
                start = self.read_turn(number, line, start, plain)
        else:
            try:
                self.read_header(line)
            except Mistake as m:
                self.mistake(number, line, m.column, m.message)
        return not self.stopped

    # -- headers

    def read_header(self, line: str) -> None:
        start = len(line) - len(line.lstrip())
        if line[start] == '"':
            key, end = quoted(line, start)
            name = None
        else:
            m = BARE_KEY.match(line, start)
            if m is None:
                raise Mistake(start + 1, "expected a turn like '12. Ana rc@0,0 4' or a header like "
                                          "'Event: Club night'")
            end = m.end()
            key = name = m.group().lower()
            slip = None
            if name not in RESERVED and self.looked < LOOKED_AT:
                self.looked += 1
                slip = header_slip(name, self.seen)
            if slip is not None:
                name = slip[0]
                self.warn("header-misspelt", start + 1, slip[1])
        colon = BLANKS.match(line, end).end()  # type: ignore[union-attr]  # (matches always)
        if colon >= len(line) or line[colon] != ":":
            raise Mistake(colon + 1, f"expected ':' after the header name {key!r} (or a turn like '12. Ana rc@0,0 4')")
        value_at = colon + 1
        value = line[value_at:].strip()
        column = SPACE.match(line, value_at).end() + 1  # type: ignore[union-attr]
        if (name in self.seen) if name in RESERVED else (key in self.meta):
            raise Mistake(start + 1, f"a second {key!r} header (each header is given once)")
        if name in RESERVED:
            self.seen.add(name)
        if name == "players":
            self.read_players(line, value_at)
        elif name == "rules":
            self.data["rules"] = _rules(line, value_at)
        elif name == "result":
            self.result = _result(line, value_at)
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
            self.meta[key] = meta_value(value)

    def read_players(self, line: str, at: int) -> None:
        names: list[str] = []
        try:
            slip = spaced_names(line, at)
            if slip is None:
                self.read_names(line, at, names)
            else:
                names.extend(slip[0])
                self.warn("names-without-commas", slip[1], slip[2], "/players")
        finally:  # the names read before a mistake are the players, so that the turns naming them are read
            self.data["players"] = [{"name": n} for n in names]
            self.names = names
            for seat, n in enumerate(names):
                self.seats.setdefault(n, []).append(seat)
                self.folded.setdefault(n.casefold(), []).append(seat)

    def read_names(self, line: str, at: int, names: list[str]) -> None:
        i = at  # split on commas; a quoted name may hold anything
        while True:
            i = SPACE.match(line, i).end()  # type: ignore[union-attr]  # (matches always)
            if i >= len(line):
                if names:
                    raise Mistake(i + 1, "expected a player's name after ','")
                return
            if len(names) == MAX_PLAYERS:
                raise Mistake(i + 1, f"more than {MAX_PLAYERS} players")
            if line[i] == '"':
                name, j = quoted(line, i)
                j = SPACE.match(line, j).end()  # type: ignore[union-attr]
                if j < len(line) and line[j] != ",":
                    raise Mistake(j + 1, "expected ',' between two players' names")
            else:
                j = line.find(",", i)
                j = len(line) if j < 0 else j
                name = line[i:j].strip()
                if not name:
                    raise Mistake(i + 1, "expected a player's name before ','")
            names.append(name)
            if j >= len(line):
                return
            i = j + 1

    def read_tiles_or_count(self, parts: list[Token], most: int, column: int) -> JSON:
        if len(parts) == 1 and INT.fullmatch(parts[0].text):
            return _number(parts[0].text, parts[0].column, "a number of tiles", most)
        if len(parts) == 1 and parts[0].text == "-":
            return []
        if not parts:
            raise Mistake(column, "expected tiles, a number of tiles, or - for none")
        return [str(_tile(t)) for t in parts]

    def read_racks(self, line: str, at: int) -> list[JSON]:
        racks: list[JSON] = []
        group: list[Token] = []
        for t in chain(_racks_of(tokens(line, at), RACK_SIZE), [Token("|", len(line) + 1)]):
            if t.kind == "word" and t.text == "|":
                if not group:
                    raise Mistake(t.column, "expected a rack (tiles, a size, or - for an empty rack) before '|'")
                if len(racks) == MAX_PLAYERS:
                    raise Mistake(group[0].column, f"more than {MAX_PLAYERS} racks (one a seat)")
                racks.append(self.read_tiles_or_count(group, RACK_SIZE, t.column))
                group = []
            else:
                group.append(t)
        return racks

    # -- turns

    def read_turn(self, number: int, line: str, start: int, plain: bool) -> int | None:
        """Reads the turn that starts at index ``start`` of the line; where a
        second turn on the line starts, if one does."""
        index = len(self.turns)
        if index == MAX_TURNS:
            at = SPACE.match(line, start).end() + 1  # type: ignore[union-attr]  # (matches always)
            self.stop(number, line, at, PAST_MAX_TURNS, "/turns")
            return None
        turn: dict[str, JSON] = {"player": 0, "action": "pass"}  # the stand-in, until the line is read
        self.turns.append(turn)
        pointer = f"/turns/{index}"
        try:
            read = _TurnReader(tokens(line, start, plain), line)
            head = read.peek()
            if head is not None and head.kind == "word" and head.text.casefold() in self.folded:  # the number left out
                self.warn("turn-number", head.column, f"a turn without its number: read as the {ordinal(index + 1)} "
                                                      f"turn of the game (number it '{index + 1}.')", pointer)
                self.written = index + 1 if self.written is None else self.written + 1  # (the next is in sequence)
            else:
                head = read.next()
                written = int(head.text[:-1]) if head.text.endswith(".") and DIGITS.fullmatch(head.text[:-1]) and \
                    len(head.text) <= MAX_DIGITS else None
                if written is None:
                    raise Mistake(head.column, f"expected a turn number like '{index + 1}.', got {head.shown()}")
                last, self.written = self.written, written  # the next turn's number is checked against this one
                if written != index + 1 and (last is None or written != last + 1):  # (see number_slip)
                    self.warn("turn-number", head.column, number_slip(written, last, index), pointer)
            player = read.peek()
            if player is None or head is None:
                raise Mistake(len(line) + 1 if head is None else head.column + len(head.text),
                              "expected the player (a name or a seat number) after the turn number")
            turn["player"] = self.read_player(read.next())
            turn.update(read.turn())
            if read.unknown:  # the turn as read, less the tiles it cannot name: the validator may find them
                self.guesses[index] = (dict(turn), tuple((i, x, y, text) for i, x, y, text, _ in read.unknown))
                turn.clear()
                turn.update({"player": 0, "action": "pass"})  # (the data keep the stand-in)
                raise read.unknown[0][4]
            if not self.scored or "score" not in turn:  # (the common turn, scored after another, costs one test)
                self.check_score(turn, read.unscored_at, index)
            second = read.peek()  # only a turn number is left unread by read.turn()
            if second is not None:
                self.warn("two-turns", second.column, f"a second turn on the line: read as the "
                                                      f"{ordinal(index + 2)} turn (write each turn on a line of its own)",
                          f"/turns/{index + 1}")
                return second.column - 1
        except Mistake as m:
            self.broken.add(index)
            self.mistake(number, line, m.column, m.message, pointer)
        return None

    def check_score(self, turn: dict[str, JSON], column: int, index: int) -> None:
        """A placement without a score is a warning, when another placement
        has one (a game written without scores is not told each turn); the
        validator computes the score."""
        if turn["action"] != "place":  # (an exchange's 0, a pass's, may go unwritten in any game)
            return
        if "score" in turn:
            self.scored = True
        elif not self.stopped:
            number, line = self.at
            self.unscored.append((len(self.findings), make(
                "no-score", None, f"/turns/{index}/score",
                f"line {number}, column {column}: {unscored(index)}", excerpt(line, column))))
            self.count_one(number, line, column)

    def read_player(self, t: Token) -> int:
        if t.kind == "word" and DIGITS.fullmatch(t.text):
            seat = _number(t.text, t.column, "a seat number")
            if not 1 <= seat <= MAX_PLAYERS:
                raise Mistake(t.column, f"seat {seat} does not exist: seats are numbered from 1 to {MAX_PLAYERS}")
            return seat - 1
        if t.kind == "comment":
            raise Mistake(t.column, "expected the player (a name or a seat number), got a {comment}")
        if self.names is None:
            raise Mistake(t.column, "a player's name before the 'Players:' line (name the players first, "
                                     "or write the seat number)")
        found = self.seats.get(t.text) or self.folded.get(t.text.casefold(), [])
        if len(found) == 1:
            return found[0]
        if found:
            raise Mistake(t.column, f"{t.shown()} names more than one player: write the seat number")
        meant = names_near(t.text, self.names)
        if len(meant) == 1 and len(self.folded[meant[0].casefold()]) == 1:
            self.warn("name-misspelt", t.column, f"no player {t.shown()}: did you mean {meant[0]!r}? "
                                                 f"(read as {meant[0]}'s turn)",
                      f"/turns/{len(self.turns) - 1}/player")
            return self.folded[meant[0].casefold()][0]
        guess = f"; did you mean {' or '.join(map(repr, meant))}?" if meant else ""
        raise Mistake(t.column, f"no player {t.shown()}: the players are {', '.join(map(repr, self.names))}{guess}")


class _TurnReader:
    """Reads the move, the score and the notes of a turn line, a token at a
    time (a line of a million tiles is never a list of them)."""

    def __init__(self, parts: Iterator[Token], line: str) -> None:
        self.parts = parts
        self.ahead = next(parts, None)
        self.end = len(line) + 1
        self.unscored_at = 0  # where the score would be written, when it is not
        self.unknown: list[tuple[int, int, int, str, Mistake]] = []  # a tile not named: its index, cell, text

    def peek(self) -> Token | None:
        return self.ahead

    def next(self) -> Token:
        t = self.ahead
        if t is None:
            raise Mistake(self.end, "expected more on the line")  # (callers peek first)
        self.ahead = next(self.parts, None)
        return t

    def integer(self) -> int | None:
        t = self.peek()
        if t is not None and t.kind == "word" and DIGITS.fullmatch(t.text):
            self.next()
            return _number(t.text, t.column, "a number")
        return None

    def turn(self) -> dict[str, JSON]:
        t = self.peek()
        if t is None:
            raise Mistake(self.end, "expected the move: tiles like rc@0,0, '-' for tiles not recorded, "
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
            placed = []
            for i, t in enumerate(self.run(_is_placement, "tiles placed in one turn")):
                try:
                    placed.append(placement_data(_placement(t)))
                except Mistake as m:  # a tile it cannot name at a cell it can: read on, and tell (see read_turn)
                    cell = misspelt(t.text)
                    if cell is None:
                        raise
                    self.unknown.append((i, *cell, m))
            turn["action"] = "place"
            turn["tiles"] = placed
        else:
            raise Mistake(t.column, f"expected the move: tiles like rc@0,0, '-', 'exchange' or 'pass', "
                                     f"got {t.shown()}")
        score = self.integer()
        if score is not None:
            turn["score"] = score
        else:
            self.unscored_at = self.end if (t := self.peek()) is None else t.column
        # a second turn on the line is read apart (a word ending in "." is rare: the cheap test first)
        while (t := self.peek()) is not None and (t.text[-1:] != "." or not is_turn_number(t)):
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
                    raise Mistake(t.column, "a second {comment} on the turn: a turn holds one (join the two)")
                if t.kind == "word" and t.text in ("rack", "draw", "comment"):
                    expected = f"one {t.text!r} on a turn"
                raise Mistake(t.column, f"expected {expected}, got {t.shown()}")
        return turn

    def run(self, more: Callable[[Token], bool], what: str, most: int = RACK_SIZE) -> Iterator[Token]:
        """The tokens from here on that ``more`` accepts, at most ``most``: one
        more is a mistake there (the rest of a line of a million is not read)."""
        taken = 0
        while (t := self.peek()) is not None and more(t):
            if taken == most:
                raise Mistake(t.column, f"more than {most} {what}")
            taken += 1
            yield self.next()

    def tiles(self, what: str) -> list[JSON]:
        return [str(_tile(t)) for t in self.run(_is_tile, what)]


def _is_placement(t: Token) -> bool:
    return t.kind == "word" and "@" in t.text


def _is_tile(t: Token) -> bool:
    return t.kind == "word" and not _NUMBER.fullmatch(t.text) and t.text not in ("rack", "draw")


_NUMBER = re.compile(r"[0-9]+\.?")  # a number ends the tiles, and so does the next turn's number ("12.")


def _merged(findings: list[Finding], held: list[tuple[int, Finding]]) -> list[Finding]:
    """``findings`` with each ``held`` one put back where it was found (its
    index in ``findings`` then), so that the findings stay in line order."""
    out: list[Finding] = []
    pos = 0
    for index, finding in held:
        out.extend(findings[pos:index])
        out.append(finding)
        pos = index
    out.extend(findings[pos:])
    return out


def _at_most(parts: Iterator[Token], most: int, what: str) -> list[Token]:
    """The tokens of a header's value, at most ``most``: one more is a
    mistake there (``what`` they are)."""
    out: list[Token] = []
    for t in parts:
        if len(out) == most:
            raise Mistake(t.column, f"more than {most} {what}")
        out.append(t)
    return out


def _racks_of(parts: Iterator[Token], most: int) -> Iterator[Token]:
    """The tokens of ``Setup-racks``, each rack (between ``|``) at most ``most`` tokens."""
    size = 0
    for t in parts:
        if t.kind == "word" and t.text == "|":
            size = 0
        elif size == most:
            raise Mistake(t.column, f"more than {most} tiles in a rack")
        else:
            size += 1
        yield t


# -- small readers -------------------------------------------------------------

def _rules(line: str, at: int) -> dict[str, JSON]:
    rules: dict[str, JSON] = {}
    for t in tokens(line, at):
        key, eq, value = t.text.partition("=")
        if t.kind != "word" or key not in RULE_KEYS or not eq:
            raise Mistake(t.column, f"expected a rule like qwirkle_bonus=6 ({', '.join(RULE_KEYS)}), "
                                     f"got {t.shown()}")
        rules[key] = _number(value, t.column + len(key) + 1, "a whole number")
    return rules


def _result(line: str, at: int) -> dict[str, JSON]:
    result: dict[str, JSON] = {}
    for t in tokens(line, at):
        if t.kind == "word" and t.text in ENDS and "end" not in result:
            result["end"] = t.text
        elif t.kind == "word" and SCORES.fullmatch(t.text) and "scores" not in result and "end" not in result:
            result["scores"] = _scores(t.text, t.column)
        else:
            raise Mistake(t.column, f"expected the scores (like 296-295) and how the game ended "
                                     f"({', '.join(ENDS)}), got {t.shown()}")
    return result


def _tile(t: Token) -> Tile:
    return _tile_at(t.text, t.column)


def _tile_at(text: str, column: int) -> Tile:
    found = BY_TEXT.get(text) or BY_TEXT.get(text.lower())
    if found is None:
        shown = cut(text, 30)
        raise Mistake(column, f"expected a tile like rc or red-circle, got {shown!r}")
    return found


def _placement(t: Token) -> Placement:
    name, _, where = t.text.partition("@")
    tile = _tile_at(name, t.column)
    at = t.column + len(name) + 1
    x, comma, y = where.partition(",")
    if not comma:
        raise Mistake(at, f"expected a cell like 0,-1 after '@', got {where!r}")
    return Placement(tile, _number(x, at, "a column (x)", signed=True),
                     _number(y, at + len(x) + 1, "a row (y)", signed=True))


def _number(text: str, column: int, what: str, most: int | None = None, signed: bool = False) -> int:
    if not (INT if signed else DIGITS).fullmatch(text):
        raise Mistake(column, f"expected {what}, got {text!r}")
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise Mistake(column, f"expected {what}, got a number of {len(text.lstrip('-'))} digits")
    value = int(text)
    if most is not None and value > most:
        raise Mistake(column, f"{value} is more than {most}")
    return value


def _scores(text: str, column: int) -> list[JSON]:
    if not SCORES.fullmatch(text):
        shown = cut(text, 30)
        raise Mistake(column, f"expected scores like 296-295, got {shown!r}")
    if text.count("-") >= MAX_PLAYERS:
        raise Mistake(column, f"more than {MAX_PLAYERS} scores (one a seat)")
    out: list[JSON] = []
    for part in text.split("-"):
        out.append(_number(part, column, "a score"))
        column += len(part) + 1
    return out

