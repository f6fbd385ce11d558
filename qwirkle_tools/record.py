"""The game record (format ``qwirkle-record``, version 1): typed values, load, dump.

This module reads and writes records; it never decides legality (that is
:mod:`qwirkle_tools.rules` and :mod:`qwirkle_tools.replay`). ``from_data``
trusts data that passed the schema and raises :class:`RecordError` with a
JSON pointer otherwise; :func:`from_data_lenient` keeps whatever it can read.

Round trip: ``load(dump(r)) == r`` for every record, and keys the format
does not define (``x-...`` extensions, ``analysis``) are kept as they were.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, NamedTuple

from .board import COORD_LIMIT, Placement
from .rules import DEFAULT_RULES, Rules
from .tiles import BY_NAME, Tile

FORMAT = "qwirkle-record"
VERSION = 1

Action = Literal["place", "exchange", "pass"]
End = Literal["out", "blocked", "unfinished"]

JSON = Any


class RecordError(ValueError):
    """Data that is not a readable record; ``pointer`` says where."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(f"{pointer or '/'}: {message}")
        self.pointer = pointer
        self.reason = message


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    extra: Mapping[str, JSON] = field(default_factory=dict)


class Turn(NamedTuple):
    """One turn as recorded. Absent information is ``None``.

    ``tiles`` is the placement of a ``place`` turn (``None`` on a score-sheet
    turn); ``exchanged`` the tiles of an ``exchange`` whose tiles are known,
    ``count`` its size when only that is. (A named tuple, not a dataclass:
    corpora hold millions of turns, and tuples are built fastest.)
    """

    player: int
    action: Action
    tiles: tuple[Placement, ...] | None = None
    exchanged: tuple[Tile, ...] | None = None
    count: int | None = None  # type: ignore[assignment]  # (shadows tuple.count, on purpose)
    score: int | None = None
    rack: tuple[Tile, ...] | None = None
    draw: tuple[Tile, ...] | None = None
    comment: str | None = None
    extra: Mapping[str, JSON] = MappingProxyType({})

    @property
    def exchange_size(self) -> int | None:
        if self.exchanged is not None:
            return len(self.exchanged)
        return self.count

    def to_data(self) -> dict[str, JSON]:
        d: dict[str, JSON] = {"player": self.player, "action": self.action}
        if self.tiles is not None:
            d["tiles"] = [{"tile": str(p.tile), "x": p.x, "y": p.y} for p in self.tiles]
        if self.exchanged is not None:
            d["tiles"] = [str(t) for t in self.exchanged]
        if self.count is not None:
            d["count"] = self.count
        if self.score is not None:
            d["score"] = self.score
        if self.rack is not None:
            d["rack"] = [str(t) for t in self.rack]
        if self.draw is not None:
            d["draw"] = [str(t) for t in self.draw]
        if self.comment is not None:
            d["comment"] = self.comment
        d.update(self.extra)
        return d


@dataclass(frozen=True, slots=True)
class Result:
    scores: tuple[int, ...] | None = None
    end: End | None = None
    extra: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Record:
    """A whole game: players, optional starting board, turns, claimed result."""

    players: tuple[Player, ...]
    turns: tuple[Turn, ...]
    rules: Rules = DEFAULT_RULES
    setup: tuple[Placement, ...] = ()
    result: Result | None = None
    meta: Mapping[str, JSON] = field(default_factory=dict)
    extra: Mapping[str, JSON] = field(default_factory=dict)
    has_rules: bool = False
    has_setup: bool = False

    def to_data(self) -> dict[str, JSON]:
        """The record as JSON data, keys in the documented order."""
        d: dict[str, JSON] = {"format": FORMAT, "version": VERSION}
        if self.meta:
            d["meta"] = dict(self.meta)
        if self.has_rules or self.rules != DEFAULT_RULES:
            d["rules"] = {
                "lone_tile_score": self.rules.lone_tile_score,
                "qwirkle_bonus": self.rules.qwirkle_bonus,
                "end_bonus": self.rules.end_bonus,
            }
        d["players"] = [{"name": p.name, **p.extra} for p in self.players]
        if self.has_setup or self.setup:
            d["setup"] = {"board": [{"tile": str(p.tile), "x": p.x, "y": p.y} for p in self.setup]}
        d["turns"] = [t.to_data() for t in self.turns]
        if self.result is not None:
            r: dict[str, JSON] = {}
            if self.result.scores is not None:
                r["scores"] = list(self.result.scores)
            if self.result.end is not None:
                r["end"] = self.result.end
            r.update(self.result.extra)
            d["result"] = r
        d.update(self.extra)
        return d


# -- reading -----------------------------------------------------------------

_TURN_KEYS = frozenset({"player", "action", "tiles", "count", "score", "rack", "draw", "comment"})
_TOP_KEYS = frozenset({"format", "version", "meta", "rules", "players", "setup", "turns", "result"})


def _int(v: JSON, ptr: str, low: int = -(2**63), high: int = 2**63) -> int:
    if type(v) is not int:
        raise RecordError(f"expected an integer, got {_show(v)}", ptr)
    if not low <= v <= high:
        raise RecordError(f"{v} is out of range ({low} to {high})", ptr)
    return v


def _coord(v: JSON, ptr: str) -> int:
    return _int(v, ptr, -COORD_LIMIT, COORD_LIMIT)


def _tile(v: JSON, ptr: str) -> Tile:
    t = BY_NAME.get(v) if isinstance(v, str) else None
    if t is None:
        raise RecordError(f"unknown tile {_show(v)} (write colour-shape, e.g. red-circle)", ptr)
    return t


def _tiles(v: JSON, ptr: str) -> tuple[Tile, ...]:
    if not isinstance(v, list):
        raise RecordError(f"expected a list of tiles, got {_show(v)}", ptr)
    return tuple(_tile(t, f"{ptr}/{i}") for i, t in enumerate(v))


def _placements(v: JSON, ptr: str) -> tuple[Placement, ...]:
    if not isinstance(v, list):
        raise RecordError(f"expected a list of placements, got {_show(v)}", ptr)
    out = []
    for i, p in enumerate(v):
        if not isinstance(p, dict):
            raise RecordError(f"expected {{tile, x, y}}, got {_show(p)}", f"{ptr}/{i}")
        out.append(Placement(_tile(p.get("tile"), f"{ptr}/{i}/tile"),
                             _coord(p.get("x"), f"{ptr}/{i}/x"), _coord(p.get("y"), f"{ptr}/{i}/y")))
    return tuple(out)


def _show(v: JSON) -> str:
    text = json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def turn_from_data(d: JSON, ptr: str, lenient: bool = False) -> Turn:
    """A turn from JSON data; lenient drops unreadable optional fields."""
    if not isinstance(d, dict):
        raise RecordError(f"expected a turn object, got {_show(d)}", ptr)
    action = d.get("action")
    if action not in ("place", "exchange", "pass"):
        raise RecordError(f"unknown action {_show(action)}", f"{ptr}/action")
    player = _int(d.get("player"), f"{ptr}/player", 0, 5)

    def opt(key: str, read: Any) -> Any:
        if key not in d:
            return None
        try:
            return read(d[key], f"{ptr}/{key}")
        except RecordError:
            if lenient:
                return None
            raise

    tiles = exchanged = None
    if "tiles" in d:
        if action == "place":
            tiles = _placements(d["tiles"], f"{ptr}/tiles")
        else:
            exchanged = opt("tiles", _tiles)
    score = opt("score", _int)
    comment = d.get("comment")
    return Turn(
        player=player, action=action, tiles=tiles, exchanged=exchanged,
        count=opt("count", _int), score=score,
        rack=opt("rack", _tiles), draw=opt("draw", _tiles),
        comment=comment if isinstance(comment, str) else None,
        extra={k: v for k, v in d.items() if k not in _TURN_KEYS},
    )


def from_data(data: JSON, trusted: bool = False) -> Record:
    """A :class:`Record` from parsed JSON.

    The data is first checked against the schema, unless ``trusted`` says
    the caller already did (the validator does, to report every error).

    Raises:
        RecordError: the data is not a valid record; the first schema error,
            with its pointer.
    """
    if not trusted:
        from .schema import check

        errors = check(data)
        if errors:
            raise RecordError(errors[0].message, errors[0].pointer)
    try:
        return _read_trusted(data)
    except (KeyError, TypeError, AttributeError):  # not what the schema promised
        record, _ = _read(data, lenient=False)
        assert record is not None  # strict reading raises instead
        return record


_EMPTY: Mapping[str, JSON] = MappingProxyType({})


def _turn_trusted(d: dict[str, JSON]) -> Turn:
    action = d["action"]
    tiles = d.get("tiles")
    placements = exchanged = None
    if tiles is not None:
        if action == "place":
            placements = tuple([Placement(BY_NAME[t["tile"]], t["x"], t["y"]) for t in tiles])
        else:
            exchanged = tuple([BY_NAME[t] for t in tiles])
    rack = d.get("rack")
    draw = d.get("draw")
    extra = d.keys() - _TURN_KEYS
    return Turn(
        d["player"], action, placements, exchanged, d.get("count"), d.get("score"),
        None if rack is None else tuple([BY_NAME[t] for t in rack]),
        None if draw is None else tuple([BY_NAME[t] for t in draw]),
        d.get("comment"),
        {k: d[k] for k in d if k in extra} if extra else _EMPTY,
    )


def _read_trusted(data: dict[str, JSON]) -> Record:
    """The fast reader for schema-valid data; raises KeyError or TypeError otherwise."""
    players = tuple(Player(p["name"], {k: v for k, v in p.items() if k != "name"}) for p in data["players"])
    res = data.get("result")
    result = None
    if res is not None:
        scores = res.get("scores")
        result = Result(None if scores is None else tuple(scores), res.get("end"),
                        {k: v for k, v in res.items() if k not in ("scores", "end")})
    setup = data.get("setup")
    rules = data.get("rules")
    return Record(
        players=players,
        turns=tuple([_turn_trusted(t) for t in data["turns"]]),
        rules=DEFAULT_RULES if rules is None else Rules(**rules),
        setup=() if setup is None else tuple(
            Placement(BY_NAME[t["tile"]], t["x"], t["y"]) for t in setup.get("board", ())),
        result=result,
        meta=data.get("meta", _EMPTY),
        extra={k: v for k, v in data.items() if k not in _TOP_KEYS},
        has_rules=rules is not None,
        has_setup=setup is not None,
    )


def from_data_lenient(data: JSON) -> tuple[Record | None, list[Turn | None]]:
    """Whatever can be read: the record (``None`` if even its frame is
    unreadable) and its turns, each ``None`` where that turn is unreadable."""
    record, turns = _read(data, lenient=True)
    return record, turns


def _read(data: JSON, lenient: bool) -> tuple[Record | None, list[Turn | None]]:
    if not isinstance(data, dict):
        raise RecordError(f"expected a record object, got {_show(data)}")
    try:
        players_data = data.get("players")
        if not isinstance(players_data, list):
            raise RecordError("expected a list of players", "/players")
        players = []
        for i, p in enumerate(players_data):
            if not isinstance(p, dict) or not isinstance(p.get("name"), str):
                if not lenient:
                    raise RecordError("expected a player {name}", f"/players/{i}")
                players.append(Player(f"seat {i}"))  # the schema finding says what is wrong
                continue
            players.append(Player(p["name"], {k: v for k, v in p.items() if k != "name"}))
        rules_data = data.get("rules", {})
        settings = {}
        for k in ("lone_tile_score", "qwirkle_bonus", "end_bonus"):
            if isinstance(rules_data, dict) and k in rules_data:
                try:
                    settings[k] = _int(rules_data[k], f"/rules/{k}", 0, 100)
                except RecordError:
                    if not lenient:
                        raise
        rules = Rules(**settings)
        setup_data = data.get("setup", {})
        setup = _placements(setup_data.get("board", []), "/setup/board") if isinstance(setup_data, dict) else ()
        turns_data = data.get("turns")
        if not isinstance(turns_data, list):
            raise RecordError("expected a list of turns", "/turns")
    except RecordError:
        if lenient:
            return None, []
        raise
    turns: list[Turn | None] = []
    for i, t in enumerate(turns_data):
        try:
            turns.append(turn_from_data(t, f"/turns/{i}", lenient))
        except RecordError:
            if not lenient:
                raise
            turns.append(None)
    result = None
    res = data.get("result")
    if isinstance(res, dict):
        scores = res.get("scores")
        end = res.get("end")
        ok_scores = isinstance(scores, list) and all(type(s) is int for s in scores)
        if not lenient and scores is not None and not ok_scores:
            raise RecordError("expected a list of integer scores", "/result/scores")
        result = Result(
            tuple(scores) if ok_scores else None,  # type: ignore[arg-type]
            end if end in ("out", "blocked", "unfinished") else None,
            {k: v for k, v in res.items() if k not in ("scores", "end")},
        )
    record = Record(
        players=tuple(players),
        turns=tuple(t for t in turns if t is not None),
        rules=rules,
        setup=setup,
        result=result,
        meta=data.get("meta", {}) if isinstance(data.get("meta"), dict) else {},
        extra={k: v for k, v in data.items() if k not in _TOP_KEYS},
        has_rules="rules" in data,
        has_setup="setup" in data,
    )
    return record, turns


# -- text --------------------------------------------------------------------

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
    try:
        import orjson
    except ImportError:  # pragma: no cover - orjson is a dependency
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


def loads(text: str | bytes) -> Record:
    """A record from JSON text, checked against the schema (see :func:`from_data`)."""
    return from_data(parse_json(text))


def dumps(record: Record | Mapping[str, JSON]) -> str:
    """JSON text for a record, two-space indented, ending in a newline."""
    data = record.to_data() if isinstance(record, Record) else record
    with deep_enough():
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def tiles_data(tiles: Sequence[Placement]) -> list[dict[str, JSON]]:
    return [{"tile": str(p.tile), "x": p.x, "y": p.y} for p in tiles]
