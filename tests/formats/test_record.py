"""Record reading and writing: typed values, round trips, errors with pointers."""

from __future__ import annotations

import json

import pytest
from conftest import game, place, simulated
from hypothesis import given, settings
from hypothesis import strategies as st

from qwirkle_tools.core.tiles import TILES, Tile
from qwirkle_tools.formats.record import RecordError, dumps, from_data, from_data_lenient, loads


def test_reads_every_field() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2, rack="rc rs bd yx gl pt", draw="oc ox"),
                {"player": 1, "action": "exchange", "tiles": ["blue-star"], "draw": ["green-star"], "comment": "meh"},
                {"player": 0, "action": "exchange", "count": 2, "x-clock": 31},
                result={"scores": [2, 0], "end": "unfinished"}, meta={"event": "Club night"},
                rules={"lone_tile_score": 0, "qwirkle_bonus": 6, "end_bonus": 6},
                setup={"board": []})
    record = from_data(data)
    first, second, third = record.turns
    assert [str(p) for p in first.tiles or ()] == ["red-circle@0,0", "red-square@1,0"]
    assert first.rack is not None and first.rack[0] is Tile.parse("rc")
    assert second.exchanged == (Tile.parse("bt"),) and second.comment == "meh" and second.exchange_size == 1
    assert third.count == 2 and third.exchange_size == 2 and third.extra == {"x-clock": 31}
    assert record.rules.lone_tile_score == 0
    assert record.result is not None and record.result.scores == (2, 0) and record.result.end == "unfinished"
    assert record.meta == {"event": "Club night"}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_dump_then_load_gives_the_same_record(seed: int) -> None:
    data = simulated(3, seed, "random")
    record = from_data(data)
    assert loads(dumps(record)) == record
    # and the data itself survives, key for key
    assert json.loads(dumps(record)) == data


def test_extensions_and_analysis_survive_a_round_trip() -> None:
    data = game(place(0, "rc@0,0", 1), **{"x-source": {"app": "bot"}, "analysis": {"tool": "t"}})
    data["players"][0]["x-elo"] = 1500
    assert json.loads(dumps(from_data(data))) == data


def test_strict_reading_names_the_first_problem() -> None:
    data = game(place(0, "rc@0,0", 1))
    data["turns"][0]["tiles"][0]["tile"] = "red-circel"
    with pytest.raises(RecordError) as info:
        from_data(data)
    assert info.value.pointer == "/turns/0/tiles/0/tile"
    assert "red-circel" in str(info.value)
    with pytest.raises(RecordError):
        loads("[]")


def test_lenient_reading_keeps_the_readable_turns() -> None:
    data = game(place(0, "rc@0,0", 1), {"player": 1, "action": "jump"}, place(0, "rs@1,0", 2))
    record, turns = from_data_lenient(data)
    assert record is not None
    assert [t is None for t in turns] == [False, True, False]


names = st.sampled_from(["red", "orange", "yellow", "green", "blue", "purple"])
shapes = st.sampled_from(["circle", "cross", "diamond", "square", "star", "clover"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(names, shapes, st.integers(-10**6, 10**6), st.integers(-10**6, 10**6)), min_size=1, max_size=6),
       st.integers(0, 500), st.text(max_size=30))
def test_round_trip_property(tiles: list[tuple[str, str, int, int]], score: int, comment: str) -> None:
    turn = {"player": 0, "action": "place", "tiles": [{"tile": f"{c}-{s}", "x": x, "y": y} for c, s, x, y in tiles],
            "score": score, "comment": comment}
    data = game(turn)
    record = from_data(data)
    assert loads(dumps(record)) == record
    assert json.loads(dumps(record)) == data


# -- whole records: every field, every turn kind, setups, extensions ------------------------

tile_names = st.sampled_from([str(t) for t in TILES])
extensions = st.dictionaries(st.from_regex(r"x-[a-z]{1,6}", fullmatch=True),
                             st.one_of(st.integers(-5, 5), st.text(max_size=5), st.booleans(), st.none()), max_size=2)
placements = st.lists(st.fixed_dictionaries({"tile": tile_names, "x": st.integers(-10**6, 10**6),
                                             "y": st.integers(-10**6, 10**6)}), min_size=1, max_size=6)
racks = st.lists(tile_names, max_size=6)


@st.composite
def turns(draw: st.DrawFn, players: int) -> dict[str, object]:
    turn: dict[str, object] = {"player": draw(st.integers(0, players - 1))}
    kind = draw(st.sampled_from(["place", "sheet", "exchange", "exchange-count", "exchange-both", "exchange-sheet",
                                 "pass"]))
    if kind == "place":
        turn.update(action="place", tiles=draw(placements))
    elif kind == "sheet":
        turn.update(action="place", score=draw(st.integers(0, 100_000)))
    elif kind == "exchange":
        turn.update(action="exchange", tiles=draw(st.lists(tile_names, min_size=1, max_size=6)))
    elif kind == "exchange-count":
        turn.update(action="exchange", count=draw(st.integers(1, 6)))
    elif kind == "exchange-both":
        tiles = draw(st.lists(tile_names, min_size=1, max_size=6))
        turn.update(action="exchange", tiles=tiles, count=len(tiles))
    elif kind == "exchange-sheet":  # a score sheet's 0: neither tiles nor count
        turn.update(action="exchange", score=0)
    else:
        turn.update(action="pass")
    if kind not in ("sheet", "exchange-sheet") and draw(st.booleans()):
        turn["score"] = draw(st.integers(0, 100_000))
    for key in ("rack", "draw"):
        if draw(st.booleans()) and not (key == "draw" and kind == "pass"):
            turn[key] = draw(racks)
    if draw(st.booleans()):
        turn["comment"] = draw(st.text(max_size=20))
    turn.update(draw(extensions))
    return turn


@st.composite
def records(draw: st.DrawFn) -> dict[str, object]:
    n = draw(st.integers(2, 6))
    data: dict[str, object] = {"format": "qwirkle-record", "version": 1}
    if draw(st.booleans()):
        data["meta"] = {"event": draw(st.text(max_size=10)), "round": draw(st.integers(1, 9))}
    if draw(st.booleans()):
        data["rules"] = {"lone_tile_score": draw(st.integers(0, 100)), "qwirkle_bonus": draw(st.integers(0, 100)),
                         "end_bonus": draw(st.integers(0, 100))}
    data["players"] = [{"name": draw(st.text(min_size=1, max_size=12)), **draw(extensions)} for _ in range(n)]
    if draw(st.booleans()):
        setup: dict[str, object] = {"board": draw(st.lists(placements.map(lambda p: p[0]), max_size=5))}
        if draw(st.booleans()):
            setup["bag"] = draw(st.one_of(st.integers(0, 108), st.lists(tile_names, max_size=10)))
        if draw(st.booleans()):
            setup["racks"] = [draw(st.one_of(st.integers(0, 6), racks)) for _ in range(n)]
        if draw(st.booleans()):
            setup["scores"] = [draw(st.integers(0, 100_000)) for _ in range(n)]
        setup.update(draw(extensions))
        data["setup"] = setup
    data["turns"] = draw(st.lists(turns(n), max_size=6))
    if draw(st.booleans()):
        result: dict[str, object] = {}
        if draw(st.booleans()):
            result["scores"] = [draw(st.integers(0, 100_000)) for _ in range(n)]
        if draw(st.booleans()):
            result["end"] = draw(st.sampled_from(["out", "blocked", "unfinished"]))
        result.update(draw(extensions))
        data["result"] = result
    data.update(draw(extensions))
    return data


@settings(max_examples=200, deadline=None)
@given(records())
def test_every_record_round_trips_through_data_and_text(data: dict[str, object]) -> None:
    record = from_data(data)  # the strategy writes only schema-valid records
    assert json.loads(dumps(record)) == data
    assert from_data(record.to_data()) == record
    assert loads(dumps(record)) == record
    lenient, _ = from_data_lenient(data)
    assert lenient == record  # both readers read a valid record alike


def test_setup_fields_are_read_as_values() -> None:
    data = game(place(0, "rc@0,0", 1), setup={"board": [{"tile": "blue-star", "x": 5, "y": 5}], "bag": 10,
                                              "racks": [["red-square", "red-cross"], 3], "scores": [40, 52]})
    setup = from_data(data).setup
    assert setup is not None and setup.bag == 10 and setup.scores == (40, 52)
    assert setup.racks == ((Tile.parse("rs"), Tile.parse("rx")), 3)
    assert [str(p) for p in setup.board] == ["blue-star@5,5"]
    data["setup"]["bag"] = ["green-clover"]
    assert from_data(data).setup.bag == (Tile.parse("gl"),)  # type: ignore[union-attr]


@pytest.mark.parametrize(("setup", "pointer", "words"), [
    ({"board": [], "bag": -1}, "/setup/bag", "list of tiles or their number"),
    ({"board": [], "bag": ["red-circel"]}, "/setup/bag", "list of tiles or their number"),
    ({"board": [], "racks": [7, 1]}, "/setup/racks/0", "rack (a list of tiles) or its size"),
    ({"board": [], "scores": [1]}, "/setup/scores", "1 score; at least 2"),
    ({"board": [], "racks": 3}, "/setup/racks", "expected a list"),
])
def test_bad_setup_fields_are_schema_errors_with_pointers(setup: dict[str, object], pointer: str, words: str) -> None:
    with pytest.raises(RecordError) as info:
        from_data(game(place(0, "rc@0,0", 1), setup=setup))
    assert info.value.pointer == pointer and words in str(info.value)


def test_a_record_pickles_and_copies_as_itself() -> None:
    # its turns' empty extras are one shared read-only mapping, which pickles as itself (a mappingproxy did not)
    import copy
    import pickle

    from qwirkle_tools.formats.jsontext import EMPTY_OBJECT

    record = from_data(simulated(3))
    assert record.turns[0].extra is EMPTY_OBJECT and not record.turns[0].extra
    for twin in (pickle.loads(pickle.dumps(record)), copy.deepcopy(record), copy.copy(record)):
        assert twin == record and twin.to_data() == record.to_data()
        assert twin.turns[0].extra is EMPTY_OBJECT
    with pytest.raises(TypeError):
        EMPTY_OBJECT["x"] = 1  # type: ignore[index]
