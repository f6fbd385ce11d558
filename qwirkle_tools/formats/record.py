"""The game record (format ``qwirkle-record``, version 1): typed values, load, dump.

This module reads and writes records; it never decides legality (that is
:mod:`qwirkle_tools.core.rules` and :mod:`qwirkle_tools.play.engine`). :func:`read`
is the one reader, in three modes: ``strict`` checks data against the schema
and raises :class:`RecordError` with a JSON pointer when it is not a record,
``lenient`` keeps whatever it can read, ``trusted`` reads data already checked
(``from_data`` and ``from_data_lenient`` are its old names). Each JSON form (a tile, a placement, a turn, a setup, a result) is
written here once and read here twice, on purpose: by the careful reader
and by its fast twin for schema-checked data (see :func:`read`).

Round trip: ``from_data(r.to_data()) == r`` for every record, and keys the
format does not define (``x-...`` extensions, ``analysis``) are kept as they
were.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, NamedTuple, overload

from ..core.board import COORD_LIMIT, Placement, format_move
from ..core.errors import QwirkleError
from ..core.findings import Finding
from ..core.pickling import Rebuilt, rebuilt
from ..core.rules import DEFAULT_RULES, RULE_KEYS, Rules
from ..core.safetext import json_text
from ..core.text import cut, plural
from ..core.tiles import BY_NAME, Tile, format_tiles
from .jsontext import EMPTY_OBJECT, JSON, deep_enough, parse_json

FORMAT = "qwirkle-record"
VERSION = 1

Action = Literal["place", "exchange", "pass"]
End = Literal["out", "blocked", "unfinished"]
Rack = tuple[Tile, ...]
"""A rack (or any handful of tiles), in the order recorded."""


class RecordError(QwirkleError, ValueError):
    """Data that is not a readable record; ``pointer`` says where."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(f"{pointer or '/'}: {message}")
        self.pointer = pointer
        self.reason = message


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    extra: Mapping[str, JSON] = field(default_factory=dict)

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


def placement_data(p: Placement) -> dict[str, JSON]:
    """A placement's JSON form: ``{"tile": "red-circle", "x": 0, "y": 0}``."""
    return {"tile": str(p.tile), "x": p.x, "y": p.y}


def placements_data(placements: Sequence[Placement]) -> list[dict[str, JSON]]:
    return [placement_data(p) for p in placements]


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
    exchanged: Rack | None = None
    count: int | None = None  # type: ignore[assignment]  # (shadows tuple.count, on purpose)
    score: int | None = None
    rack: Rack | None = None
    draw: Rack | None = None
    comment: str | None = None
    extra: Mapping[str, JSON] = EMPTY_OBJECT

    @property
    def exchange_size(self) -> int | None:
        if self.exchanged is not None:
            return len(self.exchanged)
        return self.count

    def to_data(self) -> dict[str, JSON]:
        d: dict[str, JSON] = {"player": self.player, "action": self.action}
        if self.tiles is not None:
            d["tiles"] = placements_data(self.tiles)
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


def turn_text(turn: Turn) -> str:
    """What a turn moved, in short: ``rc@0,0 rx@1,0``, ``rc bd`` or ``2 tiles``."""
    if turn.tiles is not None:
        return format_move(turn.tiles)
    if turn.exchanged is not None:
        return format_tiles(turn.exchanged)
    if turn.count is not None:
        return f"{turn.count} {plural(turn.count, 'tile')}"
    return ""


@dataclass(frozen=True, slots=True)
class Setup:
    """A position to start from instead of an empty table (docs/rules.md,
    "Positions that start mid-game").

    ``bag`` is the bag's tiles or just their number; ``racks`` one entry per
    seat, each the rack's tiles or its size; ``scores`` the points each seat
    carries in. ``None`` means the record does not say: the engine deduces
    what the rules imply and never invents the rest.
    """

    board: tuple[Placement, ...] = ()
    bag: Rack | int | None = None
    racks: tuple[Rack | int, ...] | None = None
    scores: tuple[int, ...] | None = None
    extra: Mapping[str, JSON] = field(default_factory=dict)

    def to_data(self) -> dict[str, JSON]:
        d: dict[str, JSON] = {"board": placements_data(self.board)}
        if self.bag is not None:
            d["bag"] = self.bag if isinstance(self.bag, int) else [str(t) for t in self.bag]
        if self.racks is not None:
            d["racks"] = [r if isinstance(r, int) else [str(t) for t in r] for r in self.racks]
        if self.scores is not None:
            d["scores"] = list(self.scores)
        d.update(self.extra)
        return d

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Result:
    scores: tuple[int, ...] | None = None
    end: End | None = None
    extra: Mapping[str, JSON] = field(default_factory=dict)

    def to_data(self) -> dict[str, JSON]:
        d: dict[str, JSON] = {}
        if self.scores is not None:
            d["scores"] = list(self.scores)
        if self.end is not None:
            d["end"] = self.end
        d.update(self.extra)
        return d

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Record:
    """A whole game: players, optional starting position, turns, claimed result."""

    players: tuple[Player, ...]
    turns: tuple[Turn, ...]
    rules: Rules = DEFAULT_RULES
    setup: Setup | None = None
    result: Result | None = None
    meta: Mapping[str, JSON] = field(default_factory=dict)
    extra: Mapping[str, JSON] = field(default_factory=dict)
    named_rules: tuple[str, ...] | None = None
    """The switches the record's ``rules`` object names, in the documented
    order (``None``: the record has no ``rules`` object), so that it is
    written back as it was written."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def has_rules(self) -> bool:
        return self.named_rules is not None

    def rules_data(self) -> dict[str, JSON] | None:
        """The ``rules`` object as written: the switches it named, and any
        other that differs from the default (``None``: no object)."""
        named = self.named_rules or ()
        keys = [k for k in RULE_KEYS if k in named or getattr(self.rules, k) != getattr(DEFAULT_RULES, k)]
        if self.named_rules is None and not keys:
            return None
        return {k: getattr(self.rules, k) for k in keys}

    def to_data(self) -> dict[str, JSON]:
        """The record as JSON data, keys in the documented order."""
        d: dict[str, JSON] = {"format": FORMAT, "version": VERSION}
        if self.meta:
            d["meta"] = dict(self.meta)
        rules = self.rules_data()
        if rules is not None:
            d["rules"] = rules
        d["players"] = [{"name": p.name, **p.extra} for p in self.players]
        if self.setup is not None:
            d["setup"] = self.setup.to_data()
        d["turns"] = [t.to_data() for t in self.turns]
        if self.result is not None:
            d["result"] = self.result.to_data()
        d.update(self.extra)
        return d

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


# -- reading -----------------------------------------------------------------

_TURN_KEYS: Final = frozenset({"player", "action", "tiles", "count", "score", "rack", "draw", "comment"})
_TOP_KEYS: Final = frozenset({"format", "version", "meta", "rules", "players", "setup", "turns", "result"})
_SETUP_KEYS: Final = frozenset({"board", "bag", "racks", "scores"})
_RESULT_KEYS: Final = frozenset({"scores", "end"})


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


def _tiles(v: JSON, ptr: str) -> Rack:
    if not isinstance(v, list):
        raise RecordError(f"expected a list of tiles, got {_show(v)}", ptr)
    return tuple(_tile(t, f"{ptr}/{i}") for i, t in enumerate(v))


def _tiles_or_count(v: JSON, ptr: str, high: int) -> Rack | int:
    return _int(v, ptr, 0, high) if type(v) is int else _tiles(v, ptr)


def _ints(v: JSON, ptr: str) -> tuple[int, ...]:
    if not isinstance(v, list):
        raise RecordError(f"expected a list of integers, got {_show(v)}", ptr)
    return tuple(_int(s, f"{ptr}/{i}", 0, 100_000) for i, s in enumerate(v))


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
    return cut(text, 60)


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


Mode = Literal["strict", "lenient", "trusted"]
"""How :func:`read` reads: see there."""


@overload
def read(data: JSON, mode: Literal["strict", "trusted"] = "strict") -> Record: ...
@overload
def read(data: JSON, mode: Literal["lenient"]) -> tuple[Record | None, list[Turn | None]]: ...
def read(data: JSON, mode: Mode = "strict") -> Record | tuple[Record | None, list[Turn | None]]:
    """A :class:`Record` from parsed JSON, in one of three modes.

    ``strict``: the data is checked against the schema (with its integer
    check, :func:`qwirkle_tools.formats.schema.check`) and read; the first
    schema error raises :class:`RecordError` with its pointer.
    ``trusted``: the caller already checked (the validator does, to report
    every error), so it is read at once.
    ``lenient``: whatever can be read, as ``(record, turns)``: the record
    (``None`` if even its frame is unreadable) and its turns, each ``None``
    where that turn is unreadable.

    Two readers do the work, on purpose: :func:`_read` reads field by field,
    checking each (the lenient mode, and the fallback below), and
    :func:`_read_trusted` is its fast twin for schema-valid data (the
    validator's hot path). ``tests/formats/test_record_twins.py`` holds them equal on
    every schema-valid record it makes.
    """
    if mode == "lenient":
        return _read(data, lenient=True)
    if mode == "strict":
        from .schema import check

        errors = check(data)
        if errors:
            raise RecordError(errors[0].message, errors[0].pointer)
    elif mode != "trusted":
        raise ValueError(f"unknown reading mode {mode!r} (strict, lenient or trusted)")
    try:
        return _read_trusted(data)
    except (KeyError, TypeError, AttributeError):  # not what the schema promised
        record, _ = _read(data, lenient=False)
        assert record is not None  # strict reading raises instead
        return record


def from_data(data: JSON, trusted: bool = False) -> Record:
    """``read(data, "trusted" if trusted else "strict")``: see :func:`read`."""
    return read(data, "trusted" if trusted else "strict")


_new_turn = tuple.__new__
_new_placement = tuple.__new__


def _turn_trusted(d: dict[str, Any]) -> Turn:
    names = BY_NAME  # (lists of names looked up in a dict: compiled, no bound method called through map)
    action = d["action"]
    tiles = d.get("tiles")
    placements = exchanged = None
    if tiles is not None:
        if action == "place":
            placements = tuple([_new_placement(Placement, (names[t["tile"]], t["x"], t["y"])) for t in tiles])
        else:
            exchanged = tuple([names[t] for t in tiles])
    rack = d.get("rack")
    draw = d.get("draw")
    return _new_turn(Turn, (
        d["player"], action, placements, exchanged, d.get("count"), d.get("score"),
        None if rack is None else tuple([names[t] for t in rack]),
        None if draw is None else tuple([names[t] for t in draw]),
        d.get("comment"),
        EMPTY_OBJECT if d.keys() <= _TURN_KEYS else {k: d[k] for k in d if k not in _TURN_KEYS},
    ))


def _setup_trusted(d: dict[str, JSON]) -> Setup:
    bag = d.get("bag")
    racks = d.get("racks")
    scores = d.get("scores")
    return Setup(
        board=tuple(Placement(BY_NAME[t["tile"]], t["x"], t["y"]) for t in d.get("board", ())),
        bag=bag if bag is None or type(bag) is int else tuple(BY_NAME[t] for t in bag),
        racks=None if racks is None else tuple(
            r if type(r) is int else tuple(BY_NAME[t] for t in r) for r in racks),
        scores=None if scores is None else tuple(scores),
        extra={k: v for k, v in d.items() if k not in _SETUP_KEYS},
    )


def _result_trusted(res: dict[str, JSON]) -> Result:
    scores = res.get("scores")
    return Result(None if scores is None else tuple(scores), res.get("end"),
                  {k: v for k, v in res.items() if k not in _RESULT_KEYS})


def _read_trusted(data: dict[str, JSON]) -> Record:
    """The fast twin of :func:`_read` (strict) for schema-valid data: no check,
    no pointer, the Turn and Placement tuples built directly, because the
    validator reads every record this way (``benchmarks/bench.py``'s validate
    row). On other data it may raise KeyError, TypeError or AttributeError, or
    return nonsense; ``tests/formats/test_record_twins.py`` holds the twins equal on
    schema-valid records."""
    players = tuple(Player(p["name"], {k: v for k, v in p.items() if k != "name"}) for p in data["players"])
    res = data.get("result")
    setup = data.get("setup")
    rules = data.get("rules")
    return Record(
        players=players,
        turns=tuple([_turn_trusted(t) for t in data["turns"]]),
        rules=DEFAULT_RULES if rules is None else Rules(**rules),
        setup=None if setup is None else _setup_trusted(setup),
        result=None if res is None else _result_trusted(res),
        meta=data.get("meta", EMPTY_OBJECT),
        extra={k: v for k, v in data.items() if k not in _TOP_KEYS},
        named_rules=None if rules is None else tuple(k for k in RULE_KEYS if k in rules),
    )


def from_data_lenient(data: JSON) -> tuple[Record | None, list[Turn | None]]:
    """``read(data, "lenient")``: see :func:`read`."""
    return read(data, "lenient")


def _setup(d: JSON, lenient: bool) -> Setup | None:
    """The setup, strictly or leniently (an unreadable field is left out)."""
    if not isinstance(d, dict):
        if lenient:
            return None
        raise RecordError(f"expected a setup object, got {_show(d)}", "/setup")

    def opt(key: str, read: Any) -> Any:
        if key not in d:
            return None
        try:
            return read(d[key], f"/setup/{key}")
        except RecordError:
            if lenient:
                return None
            raise

    def racks(v: JSON, ptr: str) -> tuple[Rack | int, ...]:
        if not isinstance(v, list):
            raise RecordError(f"expected a list of racks, got {_show(v)}", ptr)
        return tuple(_tiles_or_count(r, f"{ptr}/{i}", 6) for i, r in enumerate(v))

    board = opt("board", _placements)
    return Setup(
        board=board or (),
        bag=opt("bag", lambda v, ptr: _tiles_or_count(v, ptr, 108)),
        racks=opt("racks", racks),
        scores=opt("scores", _ints),
        extra={k: v for k, v in d.items() if k not in _SETUP_KEYS},
    )


def _read(data: JSON, lenient: bool) -> tuple[Record | None, list[Turn | None]]:
    """The careful reader: every field checked, with its pointer (strict) or
    dropped when unreadable (lenient); :func:`_read_trusted` is its fast twin."""
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
        for k in RULE_KEYS:
            if isinstance(rules_data, dict) and k in rules_data:
                try:
                    settings[k] = _int(rules_data[k], f"/rules/{k}", 0, 100)
                except RecordError:
                    if not lenient:
                        raise
        rules = Rules(**settings)
        setup = _setup(data["setup"], lenient) if "setup" in data else None
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
            {k: v for k, v in res.items() if k not in _RESULT_KEYS},
        )
    record = Record(
        players=tuple(players),
        turns=tuple(t for t in turns if t is not None),
        rules=rules,
        setup=setup,
        result=result,
        meta=data.get("meta", {}) if isinstance(data.get("meta"), dict) else {},
        extra={k: v for k, v in data.items() if k not in _TOP_KEYS},
        named_rules=tuple(k for k in RULE_KEYS if isinstance(rules_data, dict) and k in rules_data)
        if "rules" in data else None,
    )
    return record, turns


# -- text --------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Parsed:
    """A record's data read from hand-written text (a ``.qgn`` game, a score
    sheet), as the JSON form holds it, with what could not be read.

    ``findings`` place each mistake by line (or row) and column; ``broken``
    holds the (0-based) turns whose line could not be read: ``data`` keeps
    a stand-in for each, so that the turns after keep their numbers, and the
    replay treats them as unreadable. ``places`` tells where some values
    were written (``/result/scores/1``: ``row 12, column C``), so that a
    finding of the replay on them can say so (see :func:`~qwirkle_tools.core.findings.placed`).
    """

    data: dict[str, JSON]
    findings: tuple[Finding, ...] = ()
    broken: frozenset[int] = frozenset()
    places: Mapping[str, str] = field(default_factory=dict)
    guesses: Mapping[int, tuple[dict[str, JSON], tuple[tuple[int, int, int, str], ...]]] = field(default_factory=dict)
    """For a broken placement turn whose only mistake is a tile the reader cannot name at a cell it
    can (``rz@1,-1``): the turn's data without those tiles, and for each its index among the
    tiles, its cell and the text written (the validator looks for the tile meant)."""

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


def loads(text: str | bytes) -> Record:
    """A record from JSON text, checked against the schema (see :func:`from_data`)."""
    return from_data(parse_json(text))


def dumps(record: Record | Mapping[str, JSON]) -> str:
    """JSON text for a record, two-space indented, ending in a newline; the
    characters a terminal or an editor acts on (C1 controls, bidi controls)
    written as escapes (see :func:`qwirkle_tools.core.safetext.json_text`)."""
    data = record.to_data() if isinstance(record, Record) else record
    with deep_enough():
        return json_text(data, indent=2) + "\n"


__all__ = ["FORMAT", "VERSION", "Action", "End", "Mode", "Parsed", "Player", "Rack", "Record", "RecordError", "Result", "Setup",
           "Turn", "dumps", "from_data", "from_data_lenient", "loads", "placement_data", "placements_data",
           "read", "turn_from_data", "turn_text"]
