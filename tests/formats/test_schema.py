"""The JSON Schema: the published copy, its messages, and engine agreement."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import game, place, simulated

from qwirkle_tools.formats import schema

ROOT = Path(__file__).parents[2]


def test_published_schema_is_the_packaged_one() -> None:
    published = json.loads((ROOT / "schemas" / schema.SCHEMA_FILE).read_text())
    assert published == schema.schema()
    assert published["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert published["$id"]


def test_schema_is_valid_2020_12() -> None:
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(schema.schema())


def messages(data: Any) -> list[tuple[str, str]]:
    return [(f.pointer, f.message) for f in schema.check(data)]


def test_errors_point_at_the_exact_place() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2), place(1, "rx@2,0", 3))
    data["turns"][1]["tiles"][0]["tile"] = "red-circel"
    data["turns"][1]["scroe"] = 3
    data["turns"][0]["tiles"][1]["x"] = "1"
    found = schema.check(data)
    assert [(f.pointer, f.turn) for f in found] == [
        ("/turns/0/tiles/1/x", 1), ("/turns/1", 2), ("/turns/1/tiles/0/tile", 2)]
    assert "unknown field 'scroe'" in found[1].message
    assert "unknown tile 'red-circel'" in found[2].message


def test_turns_are_told_apart_by_action() -> None:
    data = game(place(0, "rc@0,0", 1), {"player": 1, "action": "exchange"}, {"player": 0, "action": "place"},
                {"player": 1, "action": "pass", "tiles": ["red-circle"]},
                {"player": 0, "action": "place", "count": 2, "score": 1})
    assert messages(data) == [
        ("/turns/1", "an exchange needs its tiles, its count or its score"),
        ("/turns/2", "a place turn needs its tiles or its score"),
        ("/turns/3", "a pass turn takes no tiles"),
        ("/turns/4", "a place turn takes no count"),
    ]


def test_messages_stay_short() -> None:
    data = game(place(0, "rc@0,0", 1))
    data["turns"][0]["comment"] = ["x" * 5000]
    (message,) = [m for _, m in messages(data)]
    assert len(message) <= schema.MAX_MESSAGE


def _mutants(seed: int, count: int) -> list[Any]:
    """Records with random damage: dropped keys, changed types and values."""
    rng = random.Random(seed)
    base = simulated(2, 1)
    base["turns"] = base["turns"][:8]
    values: list[Any] = [None, True, -1, 0, 7, 10**7, 1.5, "", "red-circle", "jump", [], {}, ["red-circle"] * 7,
                         {"tile": "red-circle", "x": 0}, [{"tile": "red-circle", "x": 0, "y": 0}]]
    out = []
    for _ in range(count):
        data = copy.deepcopy(base)
        for _ in range(rng.randint(1, 3)):
            node: Any = data
            path: list[Any] = []
            while isinstance(node, (dict, list)) and node and rng.random() < 0.75:
                key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
                path.append((node, key))
                node = node[key]
            if not path:
                continue
            parent, key = path[-1]
            if isinstance(parent, dict) and rng.random() < 0.3:
                del parent[key]
            else:
                parent[key] = copy.deepcopy(rng.choice(values))
        out.append(data)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_fast_engine_agrees_with_the_reference(seed: int) -> None:
    fast = schema.fast_validator()
    assert fast is not None
    mutants = _mutants(seed, 60)
    verdicts = [(fast(m), schema.reference_is_valid(m)) for m in mutants]
    assert all(a == b for a, b in verdicts)
    # the mutants are not all alike: both verdicts occur
    assert {a for a, _ in verdicts} == {True, False}


def test_lists_too_long_or_short_are_counted_by_name() -> None:
    data = game(place(0, "rc@0,0 rs@1,0 rd@2,0 rx@3,0 rt@4,0 rl@5,0 rc@6,0", 7))
    data["players"] = data["players"][:1]
    data["turns"].append({"player": 1, "action": "pass", "draw": ["red-circle"]})
    assert messages(data) == [  # was: '[{"tile": "red-circle", ... is out of range (maxItems 6)'
        ("/players", "1 player; at least 2"),
        ("/turns/0/tiles", "7 tiles; at most 6"),
        ("/turns/1/draw", "1 tile; at most 0"),
    ]


def test_data_too_deep_to_check_is_a_finding_with_its_place() -> None:
    deep: Any = "x"
    for _ in range(5000):  # deeper than any JSON text the reader accepts (1,024)
        deep = [deep]
    data = game(place(0, "rc@0,0", 1))
    data["turns"][0]["comment"] = deep
    (finding,) = schema.check(data)
    assert (finding.pointer, finding.turn, finding.message) == ("/turns/0/comment", 1, "nested too deeply to check")
    within: Any = "x"
    for _ in range(1000):  # within what the reader accepts: checked, with the usual message (was: no place)
        within = [within]
    data["turns"][0]["comment"] = within
    (finding,) = schema.check(data)
    assert finding.pointer == "/turns/0/comment" and finding.message.startswith("expected a string, got [[[")


def test_the_limits_in_the_schema_are_the_code_s() -> None:
    from qwirkle_tools.core.board import COORD_LIMIT

    defs = schema.schema()["$defs"]
    assert schema.schema()["properties"]["turns"]["maxItems"] == schema.MAX_TURNS
    from qwirkle_tools.core.tiles import RACK_SIZE, TILE_COUNT  # the limits the notation and sheet readers stop at

    top = schema.schema()["properties"]
    assert top["players"]["maxItems"] == top["setup"]["properties"]["racks"]["maxItems"] == schema.MAX_PLAYERS
    assert top["setup"]["properties"]["board"]["maxItems"] == TILE_COUNT
    assert top["setup"]["properties"]["bag"]["anyOf"][0]["maxItems"] == TILE_COUNT
    assert defs["tiles"]["maxItems"] == RACK_SIZE
    for axis in ("x", "y"):
        assert defs["placement"]["properties"][axis]["minimum"] == -COORD_LIMIT
        assert defs["placement"]["properties"][axis]["maximum"] == COORD_LIMIT


def test_a_list_far_past_its_limit_is_one_finding_not_one_per_element() -> None:
    from qwirkle_tools.core.findings import MAX_FINDINGS

    # 5,000 unknown tiles in one turn: one finding for the length; the elements past the limit are not checked
    data = game({"player": 0, "action": "place", "tiles": [{"tile": "nope", "x": i, "y": 0} for i in range(5_000)]})
    found = schema.check(data)
    assert "5,000 tiles; at most 6" in [f.message for f in found]
    assert len(found) < 120 < MAX_FINDINGS  # one per element: 5,001
    bag = game(setup={"board": [], "bag": [1.5] * 5_000})
    assert [f.message for f in schema.check(bag) if f.pointer == "/setup/bag"] == [
        "expected a list of tiles or their number, got [1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1..."]
