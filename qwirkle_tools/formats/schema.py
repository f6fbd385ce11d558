"""The record's JSON Schema and the engines that check data against it.

``jsonschema`` is the reference engine: it writes the error messages.
``jsonschema-rs`` (compiled, about 100 times faster) is the fast path: when
it says a record is valid, that answer is used as it is; when it says
invalid, the reference engine is asked for the errors. A test checks that
both engines agree on valid and broken records alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from itertools import islice
from typing import Any

from ..core.findings import MAX_FINDINGS, MAX_MESSAGE, Finding, capped, make
from ..core.text import count, cut, plural
from .jsontext import deep_enough
from .native import signals_held

SCHEMA_FILE = "qwirkle-record.schema.json"


@cache
def schema() -> dict[str, Any]:
    """The record schema (JSON Schema 2020-12), as shipped in the package."""
    text = resources.files("qwirkle_tools").joinpath("schemas", SCHEMA_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def _reference() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(schema())


@cache
def fast_validator() -> Callable[[Any], bool] | None:
    """The compiled engine's ``is_valid``, or ``None`` when it is not installed."""
    with signals_held():  # its import runs Python code (decimal) from Rust too
        try:
            import jsonschema_rs
        except ImportError:  # pragma: no cover - installed with the package
            return None
        validator = jsonschema_rs.Draft202012Validator(schema())
    engine_is_valid = validator.is_valid

    def is_valid(data: Any) -> bool:
        with signals_held():
            return bool(engine_is_valid(data))

    return is_valid



def reference_is_valid(data: Any) -> bool:
    """The reference engine's verdict (slow; for tests and the fallback)."""
    with deep_enough():
        return bool(_reference().is_valid(data))


def pointer(path: Any) -> str:
    """A JSON pointer from a sequence of keys and indexes."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def turn_of(path: Any) -> int | None:
    """The 1-based turn a path lies in, if any."""
    parts = list(path)
    if len(parts) >= 2 and parts[0] == "turns" and isinstance(parts[1], int):
        return parts[1] + 1
    return None


def _message(error: Any, length: int | None = None) -> str:
    """``error`` in words; ``length``: the real length of a list cut for checking (see :func:`_cut`)."""
    v = error.validator
    inst = error.instance
    if v == "enum" and error.schema.get("description", "").startswith("A tile"):
        text = f"unknown tile {_short(inst)}: write colour-shape in lower case, e.g. red-circle"
    elif v == "required" and error.schema.get("required") == ["score"] and isinstance(inst, dict):
        text = ("an exchange needs its tiles, its count or its score" if inst.get("action") == "exchange"
                else "a place turn needs its tiles or its score")
    elif v == "not" and isinstance(inst, dict) and "action" in inst:
        fields = ["count"] if inst["action"] == "place" else [k for k in ("tiles", "count") if k in inst]
        text = f"a {inst['action']} turn takes no {' or '.join(fields)}"
    elif v == "additionalProperties" and isinstance(inst, dict):
        known = set(error.schema.get("properties", {}))
        extra = [k for k in inst if k not in known and not k.startswith("x-")]
        text = (f"unknown {plural(len(extra), 'field')} {', '.join(repr(k) for k in extra)} "
                "(fields of your own must start with x-)")
    elif v == "type":
        wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        text = f"expected {' or '.join(_TYPE_WORDS.get(str(w), str(w)) for w in wanted)}, got {_short(inst)}"
    elif v in ("maxItems", "minItems") and isinstance(inst, list):
        text = f"{_count(length or len(inst), error.path)}; {_BOUND[v]} {error.validator_value:,}"
    elif v in ("maxLength", "minLength") and isinstance(inst, str):
        text = f"a string of {len(inst):,} characters; {_BOUND[v]} {error.validator_value:,}"
    elif v == "anyOf" and error.path and error.path[-1] == "bag":
        text = f"expected a list of tiles or their number, got {_short(inst)}"
    elif v == "anyOf" and len(error.path) >= 2 and error.path[-2] == "racks":
        text = f"expected a rack (a list of tiles) or its size, got {_short(inst)}"
    elif v in ("maximum", "minimum"):
        text = f"{_short(inst)} is out of range ({v} {error.validator_value})"
    else:
        text = error.message
    text = " ".join(text.split())
    return cut(text, MAX_MESSAGE)


def _count(n: int, path: Any) -> str:
    """``7 tiles``, ``10,001 turns``: a list's length named after its field."""
    parts = list(path)
    keys = [p for p in parts if isinstance(p, str)]
    word = _ITEMS.get(keys[-1], "item") if keys else "item"
    if keys and keys[-1] == "racks" and isinstance(parts[-1], int):
        word = "tile"  # one rack of the setup's racks
    return count(n, word)


_ITEMS = {"turns": "turn", "players": "player", "tiles": "tile", "scores": "score", "board": "tile",
          "bag": "tile", "racks": "rack", "rack": "tile", "draw": "tile"}
_BOUND = {"maxItems": "at most", "minItems": "at least", "maxLength": "at most", "minLength": "at least"}
_TYPE_WORDS = {"object": "an object", "array": "a list", "string": "a string", "integer": "an integer",
               "number": "a number", "boolean": "true or false", "null": "null"}


def _short(value: Any) -> str:
    text = repr(value) if isinstance(value, str) else json.dumps(value, default=str)
    return cut(text, 60)


def check(data: Any) -> list[Finding]:
    """Every schema error in ``data`` as findings (code ``schema``), in path order.

    Besides the schema itself: a whole-number float (``1.0``, ``1e2``) where
    the format wants an integer is an error too. JSON Schema counts it as an
    integer, but a record is written by programs that know the difference,
    and the replay needs real integers. Beyond :data:`MAX_TURNS` turns, that
    is the one finding about the turns: they are not checked one by one.
    """
    fast = fast_validator()
    if fast is not None and fast(data):
        return _floats(data)
    turns = len(data["turns"]) if isinstance(data, dict) and isinstance(data.get("turns"), list) else 0
    if turns > MAX_TURNS:  # checking them all would take seconds and tell nothing new
        data = dict(data, turns=[])
    try:
        with deep_enough():  # the engine and the messages recurse into deep values
            lengths: dict[tuple[Any, ...], int] = {}
            data = _cut(data, (), lengths, _longest_list())
            errors = [(list(e.path), _message(e, lengths.get(tuple(e.path))))
                      for e in islice(_reference().iter_errors(data), MAX_FINDINGS + 1)]
    except RecursionError:  # deeper than any JSON text the reader accepts
        where = _deep_path(data)
        return [make("schema", turn_of(where), pointer(where), "nested too deeply to check")]
    if turns > MAX_TURNS:
        errors.append((["turns"], f"{turns:,} turns; at most {MAX_TURNS:,}"))
    errors.sort(key=lambda e: [(isinstance(p, str), p) for p in e[0]])
    found = [make("schema", turn_of(path), pointer(path), message) for path, message in errors]
    return capped(found + [f for f in _floats(data) if f.pointer not in {g.pointer for g in found}])


@cache
def _longest_list() -> int:
    """The longest list the schema allows below the record's turns (108: a
    board or a bag), read from its ``maxItems``."""
    limits: list[int] = []
    stack: list[Any] = [{k: v for k, v in schema().items() if k != "properties"},
                        {k: v for k, v in schema()["properties"].items() if k != "turns"},
                        schema()["properties"]["turns"].get("items", {})]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if type(node.get("maxItems")) is int:
                limits.append(node["maxItems"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return max(limits)


def _cut(value: Any, path: tuple[Any, ...], lengths: dict[tuple[Any, ...], int], longest: int) -> Any:
    """``value`` with every list below the turns that is longer than any the
    schema allows (``longest``) cut to one more than that, for checking: the
    one ``maxItems`` error says it is too long (with its real length, kept in
    ``lengths`` by path), and a million elements are not checked one by one."""
    if isinstance(value, dict):
        cut = {k: _cut(v, (*path, k), lengths, longest) for k, v in value.items()}
        return cut if any(cut[k] is not value[k] for k in value) else value
    if isinstance(value, list):
        if len(value) > longest + 1 and path != ("turns",):
            lengths[path] = len(value)
            value = value[: longest + 1]
        out = [_cut(v, (*path, i), lengths, longest) for i, v in enumerate(value)]
        return out if any(a is not b for a, b in zip(out, value)) else value
    return value


def _deep_path(data: Any, depth: int = 64) -> list[Any]:
    """The first three keys of a path into ``data`` nested ``depth`` deep (``[]`` if none)."""
    stack: list[tuple[Any, list[Any]]] = [(data, [])]
    while stack:
        node, path = stack.pop()
        if len(path) >= depth:
            return path[:3]
        if isinstance(node, dict):
            stack.extend((v, [*path, k]) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, [*path, i]) for i, v in enumerate(node))
    return []


MAX_TURNS = 10_000
"""Most turns in a record (the schema's ``maxItems``); beyond it, one finding and no replay."""
MAX_PLAYERS = 6
"""Most players in a record (the schema's ``maxItems``)."""
PAST_MAX_TURNS = f"a turn past the {MAX_TURNS:,}th: a record holds at most {MAX_TURNS:,} turns; the rest of the file " \
                 "is not read"
"""Where the notation and sheet readers stop (the finding's message, after its place)."""


def _floats(data: Any) -> list[Finding]:
    """Findings for floats in the places the format wants integers.

    A twin walk of the record's shape, kept apart from the readers on purpose:
    it runs only on what the schema passed, and folding it into the trusted
    reader would slow the validator's clean path. ``tests/formats/test_record_twins.py``
    derives every place the schema wants an integer from the schema itself and
    requires this walk to look there."""
    out: list[Finding] = []
    if not isinstance(data, dict):
        return out

    def bad(where: str, value: Any, turn: int | None = None) -> None:
        out.append(make("schema", turn, where, f"expected an integer, got {value!r}"))

    if type(data.get("version")) is float:
        bad("/version", data["version"])
    for part, keys in (("rules", ("lone_tile_score", "qwirkle_bonus", "end_bonus")),):
        section = data.get(part)
        if isinstance(section, dict):
            for k in keys:
                if type(section.get(k)) is float:
                    bad(f"/{part}/{k}", section[k])
    setup = data.get("setup")
    if isinstance(setup, dict):
        board = setup.get("board")
        if isinstance(board, list):
            for j, cell in enumerate(board):
                if isinstance(cell, dict):
                    for k in ("x", "y"):
                        if type(cell.get(k)) is float:
                            bad(f"/setup/board/{j}/{k}", cell[k])
        if type(setup.get("bag")) is float:
            bad("/setup/bag", setup["bag"])
        for k in ("racks", "scores"):
            values = setup.get(k)
            if isinstance(values, list):
                for j, v in enumerate(values):
                    if type(v) is float:
                        bad(f"/setup/{k}/{j}", v)
    turns = data.get("turns")
    for i, turn in enumerate(turns if isinstance(turns, list) else ()):
        if not isinstance(turn, dict):
            continue
        for k in ("player", "score", "count"):
            if type(turn.get(k)) is float:
                bad(f"/turns/{i}/{k}", turn[k], i + 1)
        tiles = turn.get("tiles")
        if isinstance(tiles, list):
            for j, cell in enumerate(tiles):
                if isinstance(cell, dict) and (type(cell.get("x")) is float or type(cell.get("y")) is float):
                    k = "x" if type(cell.get("x")) is float else "y"
                    bad(f"/turns/{i}/tiles/{j}/{k}", cell[k], i + 1)
    result = data.get("result")
    scores = result.get("scores") if isinstance(result, dict) else None
    if isinstance(scores, list):
        for j, v in enumerate(scores):
            if type(v) is float:
                bad(f"/result/scores/{j}", v)
    return out
