"""Damaged records for the fuzz tests: hypothesis strategies and run lengths.

:func:`damaged_files` takes a bundled sample game (``sample_games/*.json``
or a line of ``corpus-10.jsonl``), damages its data (turns dropped,
duplicated or reordered; tiles, coordinates, scores, counts, players and
actions changed; keys removed or added; values of the wrong type, huge
numbers, deep nesting, very long strings), writes it as JSON text and then
may damage the text too (truncated, a byte-order mark, invalid UTF-8,
``NaN`` and ``Infinity``, duplicate keys, flipped, inserted or deleted
bytes, trailing garbage). :func:`damaged_data` stops at the data.

Run lengths: short by default, derandomized and with no example database,
so that CI runs the same cases every time. ``QWIRKLE_FUZZ=long`` runs
``QWIRKLE_FUZZ_EXAMPLES`` cases per test (default 2000), drawn afresh on
every run.
"""

from __future__ import annotations

import copy
import json
import os
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "sample_games"

LONG = os.environ.get("QWIRKLE_FUZZ", "").lower() == "long"
LONG_EXAMPLES = int(os.environ.get("QWIRKLE_FUZZ_EXAMPLES", "2000"))


def fuzz_settings(short: int) -> settings:
    """``short`` cases by default; in a long run, ``LONG_EXAMPLES`` random ones."""
    return settings(
        max_examples=LONG_EXAMPLES if LONG else short,
        deadline=None,
        derandomize=not LONG,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=LONG,
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],  # no slow "explain"
    )


CASES: Counter[str] = Counter()


def tried() -> None:
    """Count a case for the running test (see :func:`report_cases`)."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "?").rpartition("::")[2].split(" ")[0]
    CASES[test] += 1


@pytest.fixture(autouse=True)
def report_cases(request: pytest.FixtureRequest) -> Iterator[None]:
    """In a long run, print how many cases each test tried and how long it took.

    A test module uses it by naming it: ``report_cases = fuzzing.report_cases``.
    """
    start = time.perf_counter()
    yield
    if LONG:  # shown even when pytest captures output
        name = request.node.name
        capture = request.config.pluginmanager.get_plugin("capturemanager")
        with capture.global_and_fixture_disabled() if capture is not None else nullcontext():
            print(f"\n{name}: {CASES[name]} cases in {time.perf_counter() - start:.0f} s", flush=True)


def _bases() -> list[tuple[str, Any]]:
    out = [(p.name, json.loads(p.read_text("utf-8"))) for p in sorted(SAMPLES.glob("*.json"))]
    lines = (SAMPLES / "corpus-10.jsonl").read_text("utf-8").splitlines()
    out += [(f"corpus-10.jsonl:{i}", json.loads(line)) for i, line in enumerate(lines, 1) if line.strip()]
    return out


BASES = _bases()

# -- values ------------------------------------------------------------------

# A raw token: a string that serialize() replaces, quotes and all, by its text,
# for what Python's json module cannot write (NaN, deep nesting, long numbers).
_RAW = "\x00raw:"
_RAW_TEXT = re.compile(r'"\\u0000raw:(.*?)\\u0000"')


def raw(text: str) -> str:
    return f"{_RAW}{text}\x00"


def deep(depth: int, kind: str = "list") -> str:
    if kind == "list":
        return raw("[" * depth + "]" * depth)
    if kind == "mixed":
        return raw('{"a":[' * (depth // 2) + "1" + "]}" * (depth // 2))
    return raw('{"a":' * depth + "1" + "}" * depth)


RAW_NUMBERS = [raw(t) for t in ("NaN", "Infinity", "-Infinity", "1e400", "-1e999", "1" + "0" * 400, "-" + "9" * 330,
                                "1" + "0" * 5000, "-0", "1E2", "1e-400", "0.0", "100000.0", "12345678901234567890123")]
RAW_STRINGS = [raw(t) for t in ('"\\ud800"', '"a\\udfffb"', '"\\u0000"', '"red-circle\\u0000"', '"\\ud83c\\udfb2"')]
HUGE_INTS = [10**30, -(10**30), 2**63, 2**64, -(2**63) - 1, 2**53 + 1, 10**100, -(10**300)]
COORDS = [0, 1, -1, 3, 1_000_000, -1_000_000, 1_000_001, -1_000_001, 4194304, -4194304, 2097152, 0.0, 1.5, -0.0,
          "3", None, True, 999_999, -999_999, 500_000, 10**30]
SCORES = [0, 1, 5, 12, 100_000, 100_001, -1, 0.0, 2.0, 1.5, "12", None, False, 10**30, 2**64]
COUNTS = [0, 1, 3, 6, 7, -1, 2.0, "2", None, True]
PLAYERS = [0, 1, 2, 5, 6, -1, 1.0, "0", None, False]
ACTIONS = ["place", "exchange", "pass", "Place", "", "jump", None, 1, ["place"]]
TILE_TEXTS = ["red-circle", "purple-clover", "blue-star", "orange-square", "rc", "Red-Circle", "red-circel", "red circle",
              " red-circle", "", "red-circle\n", "red-", "-circle", "🎲", None, 1, ["red-circle"], {"tile": "red-circle"}]
ANY_VALUES: list[Any] = [None, True, False, 0, -1, 7, 10**7, 1.5, 1e300, "", "x", "red-circle", "place", [], {}, [None],
                         [{}], {"tile": "red-circle", "x": 0}, ["red-circle"] * 7, [{"tile": "red-circle", "x": 0, "y": 0}],
                         {"player": 0, "action": "pass"}, {"scores": "x"}, {"board": 3}]
KEYS = ["format", "version", "players", "turns", "meta", "rules", "setup", "result", "analysis", "player", "action",
        "tiles", "count", "score", "rack", "draw", "comment", "name", "tile", "x", "y", "board", "scores", "end",
        "scroe", "x-ext", "x-", "", "X-upper", "lone_tile_score", "qwirkle_bonus", "end_bonus"]
LONG_LENGTHS = [300, 10_001, 100_000, 1_000_000]


@st.composite
def long_text(draw: st.DrawFn) -> str:
    char = draw(st.sampled_from(["x", "é", "🎲", "\n", "\\", '"', " ", "\u202e", "\x7f"]))
    return char * draw(st.sampled_from(LONG_LENGTHS))


def values() -> st.SearchStrategy[Any]:
    """A replacement value of any kind, harmless or nasty."""
    return st.one_of(
        st.sampled_from(ANY_VALUES), st.sampled_from(HUGE_INTS), st.sampled_from(RAW_NUMBERS),
        st.sampled_from(RAW_STRINGS), long_text(),
        st.builds(deep, st.sampled_from([2, 50, 500, 1000, 1023, 1024, 1025, 5000]),
                  st.sampled_from(["list", "object", "mixed"])),
        st.text(max_size=20), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
    )


# -- damage to the data ------------------------------------------------------

Data = Any
Op = Callable[[st.DrawFn, Data], Data]


def _turns(data: Data) -> list[Any] | None:
    turns = data.get("turns") if isinstance(data, dict) else None
    return turns if isinstance(turns, list) and turns else None


def _pick_turn(draw: st.DrawFn, data: Data) -> dict[str, Any] | None:
    turns = _turns(data)
    if turns is None:
        return None
    turn = turns[draw(st.integers(0, len(turns) - 1))]
    return turn if isinstance(turn, dict) else None


def _placements(data: Data) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for turn in _turns(data) or ():
        if isinstance(turn, dict) and isinstance(turn.get("tiles"), list):
            found += [p for p in turn["tiles"] if isinstance(p, dict)]
    setup = data.get("setup") if isinstance(data, dict) else None
    if isinstance(setup, dict) and isinstance(setup.get("board"), list):
        found += [p for p in setup["board"] if isinstance(p, dict)]
    return found


def _tile_lists(data: Data) -> list[list[Any]]:
    found = []
    for turn in _turns(data) or ():
        if isinstance(turn, dict):
            for key in ("rack", "draw", "tiles"):
                value = turn.get(key)
                if isinstance(value, list) and value and not isinstance(value[0], dict):
                    found.append(value)
    return found


def _walk(draw: st.DrawFn, data: Data) -> list[tuple[Any, Any]]:
    """A random path into the data, as (container, key) pairs (maybe empty)."""
    path: list[tuple[Any, Any]] = []
    node = data
    while isinstance(node, (dict, list)) and node and draw(st.integers(0, 3)) > 0:
        key = draw(st.sampled_from(list(node))) if isinstance(node, dict) else draw(st.integers(0, len(node) - 1))
        path.append((node, key))
        node = node[key]
    return path


def drop_turn(draw: st.DrawFn, data: Data) -> Data:
    turns = _turns(data)
    if turns:
        del turns[draw(st.integers(0, len(turns) - 1))]
    return data


def duplicate_turn(draw: st.DrawFn, data: Data) -> Data:
    turns = _turns(data)
    if turns:
        i = draw(st.integers(0, len(turns) - 1))
        turns.insert(draw(st.integers(0, len(turns))), copy.deepcopy(turns[i]))
    return data


def reorder_turns(draw: st.DrawFn, data: Data) -> Data:
    turns = _turns(data)
    if turns and len(turns) > 1:
        how = draw(st.sampled_from(["swap", "reverse", "shuffle", "move"]))
        i, j = sorted(draw(st.lists(st.integers(0, len(turns) - 1), min_size=2, max_size=2)))
        if how == "swap":
            turns[i], turns[j] = turns[j], turns[i]
        elif how == "reverse":
            turns[i:j + 1] = turns[i:j + 1][::-1]
        elif how == "shuffle":
            draw(st.randoms(use_true_random=False)).shuffle(turns)
        else:
            turns.insert(j, turns.pop(i))
    return data


def truncate_turns(draw: st.DrawFn, data: Data) -> Data:
    turns = _turns(data)
    if turns:
        del turns[draw(st.integers(0, len(turns))):]
    return data


def set_tile(draw: st.DrawFn, data: Data) -> Data:
    value = draw(st.sampled_from(TILE_TEXTS))
    placements, lists = _placements(data), _tile_lists(data)
    if placements and draw(st.booleans()):
        draw(st.sampled_from(placements))["tile"] = value
    elif lists:
        tiles = draw(st.sampled_from(lists))
        tiles[draw(st.integers(0, len(tiles) - 1))] = value
    return data


def set_coordinate(draw: st.DrawFn, data: Data) -> Data:
    placements = _placements(data)
    if placements:
        cell = draw(st.sampled_from(placements))
        cell[draw(st.sampled_from(["x", "y"]))] = draw(st.one_of(st.sampled_from(COORDS), st.integers(-8, 8)))
    return data


def set_score(draw: st.DrawFn, data: Data) -> Data:
    value = draw(st.one_of(st.sampled_from(SCORES), st.integers(0, 60)))
    result = data.get("result") if isinstance(data, dict) else None
    if isinstance(result, dict) and isinstance(result.get("scores"), list) and result["scores"] and draw(st.booleans()):
        result["scores"][draw(st.integers(0, len(result["scores"]) - 1))] = value
    elif (turn := _pick_turn(draw, data)) is not None:
        turn["score"] = value
    return data


def set_count(draw: st.DrawFn, data: Data) -> Data:
    turn = _pick_turn(draw, data)
    if turn is not None:
        turn["count"] = draw(st.sampled_from(COUNTS))
        if draw(st.booleans()):
            turn.pop("tiles", None)
    return data


def set_player(draw: st.DrawFn, data: Data) -> Data:
    turn = _pick_turn(draw, data)
    if turn is not None:
        turn["player"] = draw(st.sampled_from(PLAYERS))
    return data


def set_action(draw: st.DrawFn, data: Data) -> Data:
    turn = _pick_turn(draw, data)
    if turn is not None:
        turn["action"] = draw(st.sampled_from(ACTIONS))
    return data


def set_players(draw: st.DrawFn, data: Data) -> Data:
    if isinstance(data, dict):
        n = draw(st.sampled_from([0, 1, 3, 6, 7]))
        name = draw(st.one_of(st.sampled_from(["Ana", "", " ", "A\nB", "Zoë 🎲", None, 7]), long_text()))
        data["players"] = [{"name": f"P{i}"} for i in range(n)] + ([{"name": name}] if draw(st.booleans()) else [])
    return data


def remove_key(draw: st.DrawFn, data: Data) -> Data:
    path = _walk(draw, data)
    node = path[-1][0] if path else data
    if isinstance(node, dict) and node:
        del node[draw(st.sampled_from(sorted(node)))]
    return data


def add_key(draw: st.DrawFn, data: Data) -> Data:
    path = _walk(draw, data)
    node = path[-1][0] if path else data
    if isinstance(node, dict):
        node[draw(st.one_of(st.sampled_from(KEYS), long_text()))] = draw(values())
    return data


def replace_value(draw: st.DrawFn, data: Data) -> Data:
    path = _walk(draw, data)
    if not path:
        return draw(values())
    parent, key = path[-1]
    parent[key] = draw(values())
    return data


def set_long_string(draw: st.DrawFn, data: Data) -> Data:
    text = draw(long_text())
    where = draw(st.sampled_from(["name", "comment", "meta", "tile", "action", "key"]))
    turn = _pick_turn(draw, data)
    if where == "name" and isinstance(data, dict) and isinstance(data.get("players"), list) and data["players"]:
        if isinstance(data["players"][0], dict):
            data["players"][0]["name"] = text
    elif where == "meta" and isinstance(data, dict):
        data["meta"] = {"event": text}
    elif where == "key" and isinstance(data, dict):
        data["x-" + text] = 1
    elif turn is not None:
        if where == "tile" and isinstance(turn.get("tiles"), list) and turn["tiles"] and isinstance(turn["tiles"][0], dict):
            turn["tiles"][0]["tile"] = text
        else:
            turn["comment" if where in ("comment", "tile") else "action"] = text
    return data


def nest_deeply(draw: st.DrawFn, data: Data) -> Data:
    depth = draw(st.sampled_from([100, 500, 900, 1000, 1022, 1023, 1024, 1025, 3000]))
    value = deep(depth, draw(st.sampled_from(["list", "object", "mixed"])))
    where = draw(st.sampled_from(["x-top", "comment", "meta", "analysis", "turn-x", "anywhere"]))
    turn = _pick_turn(draw, data)
    if where == "anywhere" or not isinstance(data, dict):
        return _put(draw, data, value)
    if where == "x-top":
        data["x-deep"] = value
    elif where == "meta":
        data["meta"] = {"deep": value}
    elif turn is not None:
        key = {"comment": "comment", "analysis": "analysis", "turn-x": "x-deep"}[where]
        turn[key] = {"deep": value} if key == "analysis" else value
    return data


def _put(draw: st.DrawFn, data: Data, value: Any) -> Data:
    path = _walk(draw, data)
    if not path:
        return value
    parent, key = path[-1]
    parent[key] = value
    return data


def huge_number(draw: st.DrawFn, data: Data) -> Data:
    value = draw(st.one_of(st.sampled_from(HUGE_INTS), st.sampled_from(RAW_NUMBERS)))
    where = draw(st.sampled_from(["coordinate", "score", "player", "count", "x-ext", "anywhere", "rules", "version"]))
    turn = _pick_turn(draw, data)
    placements = _placements(data)
    if where == "coordinate" and placements:
        draw(st.sampled_from(placements))[draw(st.sampled_from(["x", "y"]))] = value
    elif where in ("score", "player", "count") and turn is not None:
        turn[where] = value
    elif where == "x-ext" and isinstance(data, dict):
        data["x-big"] = value
    elif where == "rules" and isinstance(data, dict):
        data["rules"] = {"lone_tile_score": 1, "qwirkle_bonus": value, "end_bonus": 6}
    elif where == "version" and isinstance(data, dict):
        data["version"] = value
    else:
        data = _put(draw, data, value)
    return data


def add_analysis(draw: st.DrawFn, data: Data) -> Data:
    """A machine analysis of the user's own making: ghosts and points lost of any kind."""
    turn = _pick_turn(draw, data)
    if turn is None:
        return data
    tile = draw(st.sampled_from(TILE_TEXTS))
    x, y = draw(st.sampled_from(COORDS + HUGE_INTS)), draw(st.sampled_from(COORDS))
    turn["analysis"] = {
        "points_lost": draw(st.one_of(st.sampled_from(SCORES + HUGE_INTS), st.integers(-5, 30))),
        "missed_qwirkle": draw(st.sampled_from([
            {"tiles": [{"tile": tile, "x": x, "y": y}]}, {"tiles": "x"}, {"tiles": [tile]}, [], None,
            {"tiles": [{"tile": tile, "x": x, "y": y}] * 7}])),
    }
    return data


def add_setup(draw: st.DrawFn, data: Data) -> Data:
    if isinstance(data, dict):
        tiles = draw(st.lists(st.tuples(st.sampled_from(TILE_TEXTS[:4]), st.sampled_from(COORDS[:12]),
                                        st.integers(-3, 3)), max_size=4))
        data["setup"] = {"board": [{"tile": t, "x": x, "y": y} for t, x, y in tiles]}
    return data


def set_result(draw: st.DrawFn, data: Data) -> Data:
    if isinstance(data, dict):
        scores = draw(st.lists(st.one_of(st.integers(0, 400), st.sampled_from(SCORES)), max_size=7))
        data["result"] = {"scores": scores, "end": draw(st.sampled_from(["out", "blocked", "unfinished", "won", None]))}
    return data


def sprawl(draw: st.DrawFn, data: Data) -> Data:
    """Tiles far apart, each coordinate within the format's range."""
    placements = _placements(data)
    for cell in draw(st.lists(st.sampled_from(placements), max_size=3)) if placements else ():
        cell["x"] = draw(st.sampled_from([1_000_000, -1_000_000, 999_999, 5000, -300, 120]))
        cell["y"] = draw(st.sampled_from([1_000_000, -1_000_000, 0, 7000, 250, -120]))
    return data


def oversize_list(draw: st.DrawFn, data: Data) -> Data:
    """A list of tiles far past the format's limit (6 a turn, 108 on a board or
    in a bag): a turn's tiles, rack or draw, an exchange, or the setup's board,
    bag or a rack, of hundreds or thousands of elements."""
    if not isinstance(data, dict):
        return data
    n = draw(st.sampled_from([7, 109, 500, 3_000]))
    tiles = [TILE_TEXTS[i % 4] for i in range(n)]
    where = draw(st.sampled_from(["place", "exchange", "rack", "draw", "board", "bag", "racks"]))
    turn = _pick_turn(draw, data)
    if where in ("place", "exchange", "rack", "draw") and turn is not None:
        if where == "place":
            x0 = draw(st.sampled_from([0, 1, -50]))
            same = draw(st.booleans())  # every tile on one cell, or all in one row
            turn.update(action="place", tiles=[{"tile": t, "x": x0 if same else x0 + i, "y": 0} for i, t in enumerate(tiles)])
        elif where == "exchange":
            turn.update(action="exchange", tiles=tiles)
        else:
            turn[where] = tiles
    else:
        setup = data.setdefault("setup", {"board": []}) if isinstance(data.get("setup", {}), dict) else {}
        if where == "board":
            setup["board"] = [{"tile": t, "x": i, "y": 0} for i, t in enumerate(tiles)]
        elif where == "bag":
            setup["bag"] = tiles
        else:
            setup["racks"] = [tiles, 6]
    return data


def long_row(draw: st.DrawFn, data: Data) -> Data:
    """The turns' placements moved into one row, each turn continuing it: a
    row that grows far past 6 tiles (every move illegal, each within the format)."""
    x = draw(st.sampled_from([0, -3, 999_000]))
    for turn in _turns(data) or ():
        if isinstance(turn, dict) and isinstance(turn.get("tiles"), list):
            for cell in turn["tiles"]:
                if isinstance(cell, dict):
                    cell["x"], cell["y"] = x, 0
                    x += 1
    return data


DATA_OPS: list[Op] = [drop_turn, duplicate_turn, reorder_turns, truncate_turns, set_tile, set_coordinate, set_score,
                      set_count, set_player, set_action, set_players, remove_key, add_key, replace_value,
                      set_long_string, nest_deeply, huge_number, add_analysis, add_setup, set_result, sprawl,
                      oversize_list, long_row]
COST_OPS: list[Op] = [oversize_list, long_row]
"""The damage that once cost the replay n^2 or n findings (lists past the limits, long rows)."""


@st.composite
def damaged_data(draw: st.DrawFn, max_ops: int = 3, ops: Sequence[Op] | None = None) -> tuple[str, Data]:
    """A sample record with one to ``max_ops`` kinds of damage (raw tokens still in it),
    drawn from ``ops`` (default :data:`DATA_OPS`)."""
    name, base = draw(st.sampled_from(BASES))
    data = copy.deepcopy(base)
    if draw(st.integers(0, 3)) == 0:  # short games keep the slow commands fast
        turns = _turns(data)
        if turns:
            del turns[draw(st.integers(1, 12)):]
    chosen = draw(st.lists(st.sampled_from(list(ops or DATA_OPS)), min_size=1, max_size=max_ops))
    for op in chosen:
        data = op(draw, data)
    return f"{name} [{', '.join(op.__name__ for op in chosen)}]", data


def serialize(data: Data, ensure_ascii: bool = True, indent: int | None = None) -> bytes:
    text = json.dumps(data, ensure_ascii=ensure_ascii, indent=indent)
    return _RAW_TEXT.sub(lambda m: m.group(1), text).encode("utf-8", "surrogatepass")


def has_raw(data: Data) -> bool:
    return "\\u0000raw:" in json.dumps(data)


# -- damage to the text ------------------------------------------------------

BAD_UTF8 = [b"\xff", b"\xfe", b"\x80", b"\xc3\x28", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82"]
NUMBER_TOKENS = [b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1e999", b"1" + b"0" * 400, b"1" + b"0" * 5000,
                 b"nan", b"inf", b"0x10", b"+1", b"01", b"1.", b".5", b"1e", b"-", b"1_000"]
WHOLE_FILES = [b"", b" \n", b"\n\n", b"null", b"[]", b"{}", b'"qwirkle"', b"0", b"true", b"[" * 100_000,
               b'{"a":' * 3000, b"1" + b"0" * 5000, b"\xef\xbb\xbf", b"\x00" * 10, "é".encode("latin-1"),
               b'{"format": "qwirkle-record", "version": 1}', b"\xef\xbb\xbf\xef\xbb\xbf{}", b"{" * 1025 + b"}" * 1025]


def _truncate(draw: st.DrawFn, raw_: bytes) -> bytes:
    return raw_[:draw(st.integers(0, len(raw_)))]


def _bom(draw: st.DrawFn, raw_: bytes) -> bytes:
    how = draw(st.sampled_from(["utf8", "twice", "utf16", "utf16-nobom", "middle"]))
    if how == "utf8":
        return b"\xef\xbb\xbf" + raw_
    if how == "twice":
        return b"\xef\xbb\xbf\xef\xbb\xbf" + raw_
    if how == "middle":
        i = draw(st.integers(0, len(raw_)))
        return raw_[:i] + b"\xef\xbb\xbf" + raw_[i:]
    text = raw_.decode("utf-8", "replace")
    return text.encode("utf-16") if how == "utf16" else text.encode("utf-16-le")


def _invalid_utf8(draw: st.DrawFn, raw_: bytes) -> bytes:
    quotes = [m.end() for m in re.finditer(rb'"', raw_)]
    i = draw(st.sampled_from(quotes)) if quotes and draw(st.booleans()) else draw(st.integers(0, len(raw_)))
    return raw_[:i] + draw(st.sampled_from(BAD_UTF8)) + raw_[i:]


def _number_token(draw: st.DrawFn, raw_: bytes) -> bytes:
    numbers = list(re.finditer(rb"(?<=[:\[,\s])-?\d+(?:\.\d+)?", raw_))
    if not numbers:
        return raw_
    m = draw(st.sampled_from(numbers))
    return raw_[:m.start()] + draw(st.sampled_from(NUMBER_TOKENS)) + raw_[m.end():]


def _duplicate_key(draw: st.DrawFn, raw_: bytes) -> bytes:
    value = draw(st.sampled_from([b"null", b"1", b'"x"', b"[]", b"{}", b'"qwirkle-record"', b"0", b'"pass"']))
    keys = list(re.finditer(rb'"([A-Za-z_-]{1,20})"\s*:', raw_))
    if keys and draw(st.booleans()):
        m = draw(st.sampled_from(keys))  # before the original: the original wins
        return raw_[:m.start()] + b'"' + m.group(1) + b'": ' + value + b", " + raw_[m.start():]
    end = raw_.rfind(b"}")  # after everything: the copy wins
    key = draw(st.sampled_from([b"format", b"version", b"players", b"turns", b"result", b"x-a"]))
    return raw_[:end] + b', "' + key + b'": ' + value + raw_[end:] if end > 0 else raw_


def _flip(draw: st.DrawFn, raw_: bytes) -> bytes:
    out = bytearray(raw_)
    for _ in range(draw(st.integers(1, 4))):
        if out:
            i = draw(st.integers(0, len(out) - 1))
            out[i] ^= draw(st.integers(1, 255))
    return bytes(out)


def _insert(draw: st.DrawFn, raw_: bytes) -> bytes:
    i = draw(st.integers(0, len(raw_)))
    return raw_[:i] + draw(st.binary(min_size=1, max_size=8)) + raw_[i:]


def _delete(draw: st.DrawFn, raw_: bytes) -> bytes:
    i = draw(st.integers(0, len(raw_)))
    return raw_[:i] + raw_[i + draw(st.integers(1, 40)):]


def _trailing(draw: st.DrawFn, raw_: bytes) -> bytes:
    return raw_ + draw(st.sampled_from([b"x", b"{}", b"\x00", b"\n{}", b" \n", b"]", b"}", b",", b"\r\n\r\n"]))


def _whole(draw: st.DrawFn, raw_: bytes) -> bytes:
    return draw(st.sampled_from(WHOLE_FILES))


def _nul_in_string(draw: st.DrawFn, raw_: bytes) -> bytes:
    quotes = [m.end() for m in re.finditer(rb'"', raw_)]
    if not quotes:
        return raw_
    i = draw(st.sampled_from(quotes))
    return raw_[:i] + draw(st.sampled_from([b"\\u0000", b"\x00", b"\\ud800", b"\t", b"\\x41", b"\\"])) + raw_[i:]


def _crlf(draw: st.DrawFn, raw_: bytes) -> bytes:
    return raw_.replace(b"\n", b"\r\n")


BYTE_OPS: list[Callable[[st.DrawFn, bytes], bytes]] = [
    _truncate, _bom, _invalid_utf8, _number_token, _duplicate_key, _flip, _insert, _delete, _trailing, _whole,
    _nul_in_string, _crlf]


@st.composite
def damaged_files(draw: st.DrawFn, byte_damage: bool = True) -> tuple[str, bytes]:
    """A description of the damage and the bytes of a damaged record file
    (damaged as text too, in about half the cases, with ``byte_damage``)."""
    name, data = draw(damaged_data())
    raw_ = serialize(data, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 2])))
    ops = draw(st.lists(st.sampled_from(BYTE_OPS), max_size=2)) if byte_damage and draw(st.booleans()) else []
    for op in ops:
        raw_ = op(draw, raw_)
    return name + (f" + bytes [{', '.join(op.__name__.strip('_') for op in ops)}]" if ops else ""), raw_


# -- hostile names and paths ----------------------------------------------------------------

_NASTY = ["\x1b[2J", "\x1b]0;title\x07", "\r", "\n", "\x08", "\x00", "\x7f", "\x9b", "\u202e", "\u2066", "\u2028",
          "\x0b", "\ufffe", "\U000e0001", "\u200b", "=", "+", "-", "@", "\t", "=HYPERLINK(\"x\")", "Ben: 999 points", "</script>",
          "$\\frac{1}{2}$", "%s", "{}", ",", ";", "\"", "'", "é", "汉字", "🂡"]


@st.composite
def hostile_text(draw: st.DrawFn, min_size: int = 1, max_size: int = 60) -> str:
    """Text a hostile record or a user's folder may hold: escapes, controls,
    line breaks, bidi overrides, formula starts, characters XML forbids."""
    parts = draw(st.lists(st.one_of(st.sampled_from(_NASTY), st.text(max_size=6)), min_size=1, max_size=8))
    text = "".join(parts)[:max_size]
    return text if len(text) >= min_size else text + "x" * (min_size - len(text))


@st.composite
def hostile_file_name(draw: st.DrawFn) -> str:
    """A file name (no ``/`` or NUL, not ``.`` or ``..``) made of hostile text, ending in ``.json``."""
    text = draw(hostile_text(max_size=40)).replace("/", "_").replace("\x00", "_")
    return (text or "x") + ".json"


# -- hostile endpoints: what --dask tcp://127.0.0.1:PORT may find there -------------------------

ENDPOINT = r"""
import json, socket, sys, threading, time
spec = json.loads(sys.argv[1])
first, then = bytes.fromhex(spec["first"]), spec["then"]
server = socket.create_server(("127.0.0.1", 0))
print(server.getsockname()[1], flush=True)
def serve(conn):
    try:
        if spec["wait"]:  # speak only once spoken to, as an HTTP server does
            conn.recv(65536)
        for i in range(0, len(first), 1 if spec["drip"] else len(first) or 1):
            conn.sendall(first[i:i + 1] if spec["drip"] else first)
            time.sleep(spec["drip"])
        if then == "close":
            conn.close()
        else:
            time.sleep(3600)
    except OSError:
        pass
while True:
    conn, _ = server.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
"""
"""A listener on 127.0.0.1 (its port on the first line of its output) that
answers every connection as its JSON spec says: ``first`` (hex bytes) sent at
once, after the peer spoke (``wait``), or a byte at a time (``drip`` seconds
apart), then ``hang`` or ``close``."""


def _frame_claims() -> st.SearchStrategy[bytes]:
    import struct

    sizes = st.sampled_from([0, 1, 8, 15, 16, 17, 64 * 1024 + 1, 2**32, 2**62, 2**64 - 1])
    return st.builds(lambda n, tail: struct.pack("Q", n) + tail, sizes, st.binary(max_size=40))


def _with_handshake(tail: bytes) -> bytes:
    from qwirkle_tools.corpus.connection import _hello  # a handshake, framed as a scheduler frames its own

    return _hello() + tail


ANSWERS = {  # what a port that is not a (working) scheduler says first
    "nothing": st.just(b""),
    "garbage": st.binary(min_size=1, max_size=200),
    "a frame size": _frame_claims(),
    "HTTP": st.sampled_from([b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
                             b"HTTP/1.0 200 OK\r\n\r\n<html>dashboard</html>"]),
    "a TLS alert": st.just(bytes.fromhex("15030300020250")),
    "a handshake, then garbage": st.one_of(st.binary(max_size=60), _frame_claims()).map(_with_handshake),
}


@st.composite
def hostile_endpoints(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A kind of answer and the spec of an :data:`ENDPOINT` that gives it."""
    kind = draw(st.sampled_from(sorted(ANSWERS)))
    first = draw(ANSWERS[kind])
    drip = draw(st.sampled_from([0, 0, 0, 0.3])) if len(first) <= 8 else 0  # slow: a byte every 0.3 s
    spec = {"first": first.hex(), "wait": draw(st.booleans()), "drip": drip,
            "then": draw(st.sampled_from(["hang", "close"]))}
    return kind, spec


@contextmanager
def endpoint(spec: dict[str, Any]) -> Iterator[str]:
    """The address of a running :data:`ENDPOINT` process for ``spec``, stopped on the way out."""
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-c", ENDPOINT, json.dumps(spec)], stdout=subprocess.PIPE)
    try:
        assert process.stdout is not None
        yield f"tcp://127.0.0.1:{int(process.stdout.readline())}"
    finally:
        process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()


# -- hand-written forms: the notation and score sheets ---------------------------------------

_WRITTEN_PIECES = ["@", ",", ".", "-", "{", "}", "\"", "\\", " ", "\n", "|", ";", ":", "=", "rc", "zz", "red-circle",
                   "99999999999999999999", "exchange", "pass", "rack", "draw", "Result:", "Players:", "Setup-racks:",
                   "Rules: qwirkle_bonus=", "total", "x", "0", "\t", "\r", "\u202e", "é", "1.", "\\u00", "\\U0011ffff",
                   "\"\\ud800\"", "-1", "@0,", "Ana", "Bot 1", "\ufeff", "\x00", "\u2028"]


def _qgn_bases() -> list[tuple[str, str]]:
    from qwirkle_tools.formats.qgn import format_qgn
    from qwirkle_tools.formats.record import from_data

    out = []
    for name in ("296-295.json", "illegal-moves.json", "score-sheet.json", "bookkeeping.json"):
        text = format_qgn(from_data(json.loads((SAMPLES / name).read_text())))
        lines = text.split("\n")
        out.append((name, "\n".join(lines[:24] + lines[-2:])))  # the headers, some turns, the result
    return out


def _sheet_bases() -> list[tuple[str, str]]:
    out = [("296-295-sheet.csv", (SAMPLES / "296-295-sheet.csv").read_text())]
    data = json.loads((SAMPLES / "score-sheet.json").read_text())
    cells = [str(t.get("score", "-")) for t in data["turns"]]
    out.append(("score-sheet.json as ;", "Ana;Ben\n" + "".join(f"{a};{b}\n" for a, b in zip(cells[::2], cells[1::2]))))
    return out


LINE_ENDS = ["\r", "\r\n", "\n"]
HUGE = [1_000, 100_000, 1_000_000]


def _line_ends(draw: st.DrawFn, text: str) -> str:
    """Every line end, or some, made a CR, a CRLF or an LF (old Mac editors, Windows, a stray CR)."""
    pieces = text.split("\n")
    if draw(st.booleans()):
        end = draw(st.sampled_from(LINE_ENDS))
        return end.join(pieces)
    rng = draw(st.randoms(use_true_random=False))
    return "".join(p + rng.choice(LINE_ENDS) for p in pieces[:-1]) + pieces[-1]


def _huge_piece(draw: st.DrawFn, form: str, text: str) -> str:
    """A comment, a header or a name of up to a million characters: spaces (a comment's
    leading spaces were removed one at a time), names by the thousand, a long value."""
    size = draw(st.sampled_from(HUGE))
    lines = text.split("\n")
    if form == "csv":
        lines[0] = draw(st.sampled_from([",".join(f"P{i}" for i in range(size // 10)),
                                         " " * size + "Ana,Ben", '"' + "x\n" * (size // 100) + '",Ben']))
        return "\n".join(lines)
    piece = draw(st.sampled_from([
        "{" + " " * size + "x" + " " * size + "}", "{" + "\\n" * (size // 2) + "}", "{" + "\\" * 3,
        "Players: " + ", ".join(f"P{i}" for i in range(size // 10)), "Event: " + "x" * size,
        "Players: " + " " * size + "Ana, Ben", "\"" + "x" * size + "\": 1", "Result: " + "-".join(["1"] * (size // 10)),
    ]))
    i = draw(st.integers(0, len(lines) - 1))
    if piece.startswith("{"):
        lines[i] += " " + piece
    else:
        lines.insert(i, piece)
    return "\n".join(lines)


def _long_row(draw: st.DrawFn, form: str, text: str) -> str:
    """A row past the format's limits: a turn of thousands of tiles, a rack or a bag of thousands,
    a sheet row of thousands of cells, or thousands of rows or turn lines."""
    size = draw(st.sampled_from(HUGE[:2]))
    lines = text.split("\n")
    if form == "csv":
        piece = draw(st.sampled_from(["4," * size, ",x" * size, "\n".join(["1,2"] * (size // 10)), "\n" * size + "3,3"]))
        lines.insert(draw(st.integers(1, len(lines))), piece)
        return "\n".join(lines)
    piece = draw(st.sampled_from(["rc@0,0 " * size, "rc " * size, "exchange " + "rc " * size + "0", "6 | " * size]))
    how = draw(st.sampled_from(["turn", "rack", "header", "turns"]))
    if how == "turns":
        lines += [f"{i + 1}. 1 pass" for i in range(size // 5)]
    elif how == "header":
        lines.insert(0, draw(st.sampled_from(["Setup-board: ", "Setup-bag: ", "Setup-racks: "])) + piece)
    else:
        lines.append(f"99. 1 {piece}" if how == "turn" else f"99. 1 pass rack {piece}")
    return "\n".join(lines)


@st.composite
def damaged_written(draw: st.DrawFn, form: str) -> tuple[str, bytes]:
    """A description and the bytes of a damaged game in the notation
    (``form`` ``qgn``) or score sheet (``csv``): hostile names, pieces of
    the grammar put, removed, repeated or swapped, line ends of every kind,
    huge comments, headers and names, rows past the format's limits, and
    byte damage."""
    name, text = draw(st.sampled_from(_qgn_bases() if form == "qgn" else _sheet_bases()))
    done = []
    for damage in (_huge_piece, _long_row):
        if draw(st.integers(0, 5)) == 0:
            text = damage(draw, form, text)
            done.append(damage.__name__.strip("_").replace("_", " "))
    if draw(st.booleans()):
        hostile = draw(hostile_text(max_size=20))
        text = text.replace("Ana", hostile, 1) if form == "csv" else \
            text.replace("Players: ", f"Players: {json.dumps(hostile)}, ", 1)
        done.append("hostile name")
    for _ in range(draw(st.integers(0, 4))):
        how = draw(st.sampled_from(["put", "remove", "repeat line", "swap lines", "cut"]))
        i = draw(st.integers(0, len(text)))
        if how == "put":
            text = text[:i] + draw(st.sampled_from(_WRITTEN_PIECES)) + text[i:]
        elif how == "remove":
            text = text[:i] + text[i + draw(st.integers(1, 12)):]
        elif how == "cut":
            text = text[:i]
        else:
            lines = text.split("\n")
            a, b = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            if how == "repeat line":
                lines.insert(b, lines[a])
            else:
                lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        done.append(how)
    if draw(st.integers(0, 3)) == 0:
        text = _line_ends(draw, text)
        done.append("line ends")
    raw_ = text.encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 3)) == 0:
        op = draw(st.sampled_from([_truncate, _bom, _invalid_utf8, _flip, _insert, _crlf]))
        raw_ = op(draw, raw_)
        done.append(op.__name__.strip("_"))
    return f"{name} [{', '.join(done)}]", raw_
