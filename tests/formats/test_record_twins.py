"""The record reader's twins, held equal.

:func:`qwirkle_tools.formats.record.read` has one careful reader (``_read``:
every field checked, with its pointer) and a fast twin for schema-valid data
(``_read_trusted``, the validator's hot path); the schema check has a walk of
the record's shape that finds floats where integers are due (``_floats``).
These tests hold the readers equal on every schema-valid record they make
(self-play games, the clean sample games, and both mutated in ways that stay
valid), and require the float walk to look at every place the schema wants an
integer, as read from the schema file itself.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from qwirkle_tools.core.tiles import BY_NAME
from qwirkle_tools.formats import record as rec
from qwirkle_tools.formats import schema
from qwirkle_tools.formats.jsontext import parse_json
from qwirkle_tools.play.game import Game

SAMPLES = Path(__file__).parents[2] / "sample_games"
TILE_NAMES = sorted(name for name in BY_NAME if "-" in name)


@cache
def played(players: int, seed: int) -> str:
    """A self-play game (random legal moves) as JSON text."""
    game = Game.deal(players, seed=seed)
    choose = random.Random(seed)
    while not game.is_over():
        game.push(choose.choice(game.legal_moves()))
    return json.dumps(game.record().to_data())


def typed(value: Any) -> Any:
    """``value`` with the type of every part spelt out (a Tile is not its
    name, ``1.0`` is not ``1``); any mapping counts as a mapping."""
    if isinstance(value, Mapping):
        return ("mapping", sorted((k, typed(v)) for k, v in value.items()))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, [(f.name, typed(getattr(value, f.name))) for f in dataclasses.fields(value)])
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, [typed(v) for v in value])
    return (type(value).__name__, value)


@cache
def clean_samples() -> tuple[str, ...]:
    """The sample games that pass the schema, as JSON text."""
    texts = []
    for path in sorted(SAMPLES.glob("*.json")):
        data = parse_json(path.read_bytes())
        if not schema.check(data):
            texts.append(json.dumps(data))
    return tuple(texts)


def test_some_sample_games_are_clean() -> None:
    assert len(clean_samples()) >= 3


def assert_twins_agree(data: Any) -> None:
    careful, _ = rec._read(data, lenient=False)
    fast = rec._read_trusted(data)
    assert fast == careful
    assert typed(fast) == typed(careful)
    assert rec.read(data, "trusted") == rec.read(data, "strict") == careful


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6)
x_keys = st.text("abcz-", min_size=1, max_size=6).map(lambda s: "x-" + s)
tile_names = st.sampled_from(TILE_NAMES)
placements = st.builds(lambda t, x, y: {"tile": t, "x": x, "y": y},
                       tile_names, st.integers(-10**6, 10**6), st.integers(-10**6, 10**6))
rules_objects = st.fixed_dictionaries({}, optional={k: st.integers(0, 100)
                                                   for k in ("lone_tile_score", "qwirkle_bonus", "end_bonus")})
setups = st.fixed_dictionaries({}, optional={
    "board": st.lists(placements, max_size=8),
    "bag": st.integers(0, 108) | st.lists(tile_names, max_size=20),
    "racks": st.lists(st.integers(0, 6) | st.lists(tile_names, max_size=6), min_size=2, max_size=6),
    "scores": st.lists(st.integers(0, 100_000), min_size=2, max_size=6),
}).flatmap(lambda d: st.dictionaries(x_keys, json_values, max_size=2).map(lambda x: {**d, **x}))


@st.composite
def mutated(draw: st.DrawFn, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` changed in ways a valid record may be written: a setup, a rules
    object, comments, ``x-`` fields, analysis, exchanges by count, fields left out."""
    data = copy.deepcopy(data)
    if draw(st.booleans()):
        data["rules"] = draw(rules_objects)
    if draw(st.booleans()):
        data["setup"] = draw(setups)
    for key in draw(st.lists(x_keys, max_size=2)):
        data[key] = draw(json_values)
    if draw(st.booleans()):
        data["analysis"] = draw(st.dictionaries(st.text(max_size=5), json_values, max_size=2))
    if draw(st.booleans()):
        data["meta"] = draw(st.dictionaries(st.text(max_size=5), st.text(max_size=5) | st.integers() | st.none(),
                                            max_size=3))
    for player in data["players"]:
        if draw(st.integers(0, 3)) == 0:
            player[draw(x_keys)] = draw(json_values)
    result = data.get("result")
    if result is not None:
        choice = draw(st.integers(0, 4))
        if choice == 0:
            del data["result"]
        elif choice == 1:
            result.pop("scores", None)
        elif choice == 2:
            result[draw(x_keys)] = draw(json_values)
    for turn in data["turns"]:
        change = draw(st.integers(0, 7))
        if change == 0:
            turn["comment"] = draw(st.text(max_size=20))
        elif change == 1:
            turn[draw(x_keys)] = draw(json_values)
        elif change == 2:
            turn.pop("rack", None)
            turn.pop("draw", None)
        elif change == 3 and turn["action"] == "exchange" and "tiles" in turn:
            turn["count"] = len(turn.pop("tiles"))
        elif change == 4 and turn["action"] == "place":
            turn.pop("score", None)
        elif change == 5:
            turn["analysis"] = {"best": draw(json_values)}
    return data


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_the_fast_reader_reads_every_valid_record_as_the_careful_one(drawn: st.DataObject) -> None:
    if drawn.draw(st.integers(0, 3)) == 0:
        text = drawn.draw(st.sampled_from(clean_samples()))
    else:
        text = played(drawn.draw(st.integers(2, 4)), drawn.draw(st.integers(0, 5)))
    data = json.loads(text)
    data["turns"] = data["turns"][: drawn.draw(st.integers(0, len(data["turns"])))]  # a game in progress too
    if drawn.draw(st.booleans()):
        data = drawn.draw(mutated(data))
    assume(not schema.check(data))
    assert_twins_agree(data)


@pytest.mark.parametrize("index", range(9))
def test_the_twins_agree_on_each_clean_sample_game(index: int) -> None:
    samples = clean_samples()
    if index >= len(samples):
        pytest.skip("fewer clean sample games")
    assert_twins_agree(json.loads(samples[index]))


def test_read_has_three_modes() -> None:
    data = json.loads(played(2, 3))
    assert rec.read(data) == rec.read(data, "trusted") == rec.from_data(data) == rec.from_data(data, trusted=True)
    record, turns = rec.read(data, "lenient")
    assert (record, turns) == rec.from_data_lenient(data) and record == rec.read(data)
    data["turns"][0]["player"] = 0.0
    with pytest.raises(rec.RecordError, match="expected an integer") as caught:
        rec.read(data, "strict")
    assert caught.value.pointer == "/turns/0/player"
    with pytest.raises(ValueError, match="unknown reading mode"):
        rec.read(data, "fast")  # type: ignore[call-overload]


# -- the integer places --------------------------------------------------------

def integer_places(node: Any, path: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """Every place (``*`` for any list index) where the schema wants an integer:
    ``"type": "integer"``, or an integer ``const`` or ``enum`` (JSON Schema takes
    ``1.0`` for ``1`` there too). Conditions (``if``, ``not``) state no type."""
    if not isinstance(node, dict):
        return set()
    out: set[tuple[str, ...]] = set()
    if "$ref" in node:
        name = node["$ref"].removeprefix("#/$defs/")
        out |= integer_places(schema.schema()["$defs"][name], path)
    types = node.get("type")
    if types == "integer" or (isinstance(types, list) and "integer" in types) or type(node.get("const")) is int \
            or any(type(v) is int for v in node.get("enum", ())):
        out.add(path)
    for key, sub in node.get("properties", {}).items():
        out |= integer_places(sub, (*path, key))
    for key in ("items", "additionalProperties"):
        out |= integer_places(node.get(key), (*path, "*"))
    for key in ("anyOf", "allOf", "oneOf"):
        for sub in node.get(key, ()):
            out |= integer_places(sub, path)
    for key in ("then", "else"):
        out |= integer_places(node.get(key), path)
    return out


def full_record() -> dict[str, Any]:
    """A record with an integer in every place the format has one."""
    return {
        "format": "qwirkle-record", "version": 1, "players": [{"name": "A"}, {"name": "B"}],
        "rules": {"lone_tile_score": 1, "qwirkle_bonus": 6, "end_bonus": 6},
        "setup": {"board": [{"tile": "red-circle", "x": 3, "y": 4}], "bag": 90, "racks": [6, 6], "scores": [2, 3]},
        "turns": [{"player": 0, "action": "place", "tiles": [{"tile": "red-square", "x": 4, "y": 4}], "score": 2},
                  {"player": 1, "action": "exchange", "count": 2, "score": 0}],
        "result": {"scores": [4, 3], "end": "unfinished"},
    }


def concrete(data: Any, place: tuple[str, ...], at: str = "") -> list[str]:
    """The pointers of the integers in ``data`` at ``place``."""
    if not place:
        return [at] if type(data) is int else []
    head, rest = place[0], place[1:]
    if head == "*":
        items = enumerate(data) if isinstance(data, list) else data.items() if isinstance(data, dict) else ()
        return [p for k, v in items for p in concrete(v, rest, f"{at}/{k}")]
    return concrete(data[head], rest, f"{at}/{head}") if isinstance(data, dict) and head in data else []


def set_at(data: Any, pointer: str, value: Any) -> None:
    *parents, last = pointer.split("/")[1:]
    for key in parents:
        data = data[int(key) if isinstance(data, list) else key]
    data[int(last) if isinstance(data, list) else last] = value


def test_the_schema_has_the_integer_places_it_is_known_for() -> None:
    places = integer_places(schema.schema())
    assert {("version",), ("turns", "*", "player"), ("turns", "*", "tiles", "*", "x"), ("setup", "bag"),
            ("result", "scores", "*")} <= places


@pytest.mark.parametrize("place", sorted(integer_places(schema.schema())), ids="/".join)
def test_the_float_walk_looks_wherever_the_schema_wants_an_integer(place: tuple[str, ...]) -> None:
    data = full_record()
    assert not schema.check(data)
    pointers = concrete(data, place)
    assert pointers, f"full_record() has no integer at {'/'.join(place)}: add one, and a float check to schema._floats"
    for pointer in pointers:
        broken = copy.deepcopy(data)
        set_at(broken, pointer, float(concrete_value(data, pointer)))
        assert pointer in {f.pointer for f in schema._floats(broken)}, f"schema._floats misses a float at {pointer}"
        assert pointer in {f.pointer for f in schema.check(broken)}


def concrete_value(data: Any, pointer: str) -> int:
    for key in pointer.split("/")[1:]:
        data = data[int(key) if isinstance(data, list) else key]
    assert type(data) is int
    return data
