"""The game notation (.qgn): what people write parses, every record round-trips,
and each mistake is found at its line and column with the rest still read."""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import simulated
from fuzzing import hostile_text
from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine import cut
from test_record import records

from qwirkle_tools.analysis.validate import check_source
from qwirkle_tools.core.findings import MAX_FINDINGS, MAX_MESSAGE, STOPPED
from qwirkle_tools.core.rules import RULE_KEYS
from qwirkle_tools.formats.qgn import comment_text, dropped, format_qgn, parse_qgn, strip_dropped, tokens
from qwirkle_tools.formats.record import Record, dumps, from_data
from qwirkle_tools.formats.schema import MAX_TURNS
from qwirkle_tools.formats.sources import Source

SAMPLES = Path(__file__).parents[2] / "sample_games"

ISSUE_EXAMPLE = """\
Event: Club night
Date: 2026-11-29
Players: Ana, Ben
1. Ana rc@0,0 rd@1,0 2
2. Ben rs@0,-1 rc@1,-1 6
3. Ana exchange yd pt
4. Ben exchange 2
5. Ana - 7
6. Ben pass
Result: 296-295 out
"""


def read(text: str) -> dict[str, Any]:
    parsed = parse_qgn(text)
    assert parsed.findings == (), [f.message for f in parsed.findings]
    return parsed.data


def round_trip(record: Record) -> Record:
    parsed = parse_qgn(format_qgn(record))
    # a placement without a score, beside one with a score, is told (the writer writes what the record holds)
    assert all(f.code == "no-score" for f in parsed.findings) and parsed.broken == frozenset(), \
        [f.message for f in parsed.findings]
    return from_data(parsed.data)


def assert_round_trips(record: Record) -> None:
    back = round_trip(record)
    expected = strip_dropped(record)
    assert back == expected
    assert dumps(back) == dumps(expected)  # the JSON text too, key order and all


# -- what people write -------------------------------------------------------------

def test_the_example_of_the_issue_reads_as_a_record() -> None:
    data = read(ISSUE_EXAMPLE)
    assert data["meta"] == {"event": "Club night", "date": "2026-11-29"}
    assert data["players"] == [{"name": "Ana"}, {"name": "Ben"}]
    assert data["turns"] == [
        {"player": 0, "action": "place", "score": 2,
         "tiles": [{"tile": "red-circle", "x": 0, "y": 0}, {"tile": "red-diamond", "x": 1, "y": 0}]},
        {"player": 1, "action": "place", "score": 6,
         "tiles": [{"tile": "red-square", "x": 0, "y": -1}, {"tile": "red-circle", "x": 1, "y": -1}]},
        {"player": 0, "action": "exchange", "tiles": ["yellow-diamond", "purple-star"]},
        {"player": 1, "action": "exchange", "count": 2},
        {"player": 0, "action": "place", "score": 7},
        {"player": 1, "action": "pass"},
    ]
    assert data["result"] == {"scores": [296, 295], "end": "out"}
    from_data(data)  # of the schema


def test_long_tile_names_seats_and_names_in_any_case() -> None:
    data = read("Players: Ana, Ben Lee\n1. ana red-circle@0,0 Red-Square@0,1 2\n2. 2 pass\n3. \"Ben Lee\" - 4\n")
    assert [t["player"] for t in data["turns"]] == [0, 1, 1]
    assert data["turns"][0]["tiles"] == [{"tile": "red-circle", "x": 0, "y": 0}, {"tile": "red-square", "x": 0, "y": 1}]


def test_racks_draws_comments_and_setups() -> None:
    data = read("Players: Ana, Ben\n"
                "Rules: qwirkle_bonus=12\n"
                "Setup-board: rc@0,0 rs@1,0\n"
                "Setup-bag: 90\n"
                "Setup-racks: rx rd | 6\n"
                "Setup-scores: 10-3\n"
                "1. Ana rx@2,0 3 rack rx rd draw gc {a \\{quiet\\} start}\n"
                "2. Ben exchange 2 yd pt 0 rack yd pt gs gs bc bl draw\n")
    assert data["rules"] == {"qwirkle_bonus": 12}
    assert data["setup"] == {"board": [{"tile": "red-circle", "x": 0, "y": 0}, {"tile": "red-square", "x": 1, "y": 0}],
                             "bag": 90, "racks": [["red-cross", "red-diamond"], 6], "scores": [10, 3]}
    first, second = data["turns"]
    assert first["rack"] == ["red-cross", "red-diamond"] and first["draw"] == ["green-circle"]
    assert first["comment"] == "a {quiet} start"
    assert second == {"player": 1, "action": "exchange", "count": 2, "tiles": ["yellow-diamond", "purple-star"],
                      "score": 0, "rack": ["yellow-diamond", "purple-star", "green-square", "green-square",
                                           "blue-circle", "blue-clover"], "draw": []}


def test_header_values_keep_their_json_types() -> None:
    data = read('Players: Ana, Ben\nRound: 3\nRated: true\nNote: "3"\n"Club Name": Lyon, rue Merciere\n')
    assert data["meta"] == {"round": 3, "rated": True, "note": "3", "Club Name": "Lyon, rue Merciere"}


def test_comments_are_trimmed_unless_escaped() -> None:
    assert [t.text for t in tokens("{  well played  }")] == ["well played"]
    assert [t.text for t in tokens("{\\u0020well\\n played\\t}")] == [" well\n played\t"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_any_comment_survives(text: str) -> None:
    (token,) = tokens(comment_text(text))
    assert token.kind == "comment" and token.text == text


# -- round trips ---------------------------------------------------------------------

meta_values = st.one_of(st.text(max_size=12), st.integers(-10**15, 10**15), st.booleans(), st.none(),
                        st.floats(allow_nan=False, allow_infinity=False))


@settings(max_examples=200, deadline=None)
@given(records(), st.dictionaries(st.text(max_size=8), meta_values, max_size=4),
       st.none() | st.lists(st.sampled_from(RULE_KEYS), unique=True))
def test_every_record_round_trips_through_the_notation(data: dict[str, Any], meta: dict[str, Any],
                                                       named: list[str] | None) -> None:
    if meta:
        meta.pop("date", None)  # the schema limits its length
        data["meta"] = meta
    if named is not None:  # rules that name some switches, or none: written back as written
        data["rules"] = {k: v for k, v in data.get("rules", {"lone_tile_score": 1, "qwirkle_bonus": 12,
                                                            "end_bonus": 6}).items() if k in named}
    assert_round_trips(from_data(data))
    assert parse_qgn(format_qgn(from_data(data))).data.get("rules") == data.get("rules")
    assert from_data(data).to_data().get("rules") == data.get("rules")


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_every_sample_game_round_trips(path: Path) -> None:
    assert_round_trips(from_data(json.loads(path.read_text())))


COMMENTS = ["", "Nice!", "a {brace} and a \\ backslash", "two\nlines", "  spaces around  ", "\u202etxt.exe",
            "</script><!--", "tab\there", "emoji 🎲 and 日本語", "\x85 next line"]


def simulated_games() -> list[dict[str, Any]]:
    """200 self-play games, 2 to 6 players, with exchanges, comments, some
    passes and some cut into a setup with racks, bag and scores."""
    games = []
    for i in range(200):
        data = simulated(2 + i % 5, 300 + i, "greedy" if i % 3 else "random")
        rng = random.Random(i)
        for turn in data["turns"]:
            if rng.random() < 0.1:
                turn["comment"] = rng.choice(COMMENTS)
        n = len(data["players"])
        if i % 4 == 1 and len(data["turns"]) > 2 * n + 2:
            k = rng.randrange(n, len(data["turns"]) - 2)  # after every rack is known
            data = cut(data, k, bag=rng.choice(["count", "tiles", None]), racks=rng.choice(["tiles", "sizes", None]))
        if i % 10 == 3:  # a pass recorded (illegal with tiles in the bag: a finding in both forms)
            data["turns"].insert(1, {"player": 1, "action": "pass"})
        games.append(data)
    return games


@pytest.mark.slow
def test_simulated_games_round_trip_and_validate_alike() -> None:
    from qwirkle_tools.analysis.repair import errors

    kinds: set[str] = set()
    slips = 0
    for data in simulated_games():
        record = from_data(data)
        assert_round_trips(record)
        text = format_qgn(record)
        as_json = check_source(Source("game.json", 0, dumps(record).encode()))
        as_qgn = check_source(Source("game.qgn", 0, text.encode()))
        if as_json.valid:
            assert as_qgn.findings == as_json.findings
        else:  # a hand-written game's slips are looked for (qwirkle_tools.analysis.repair): one finding each
            assert 0 < errors(as_qgn.findings) <= errors(as_json.findings)
            slips += sum(f.code == "slip" for f in as_qgn.findings)
        kinds.update(t["action"] for t in data["turns"])
        kinds.update(k for t in data["turns"] for k in ("comment", "rack", "draw") if k in t)
        kinds.update(k for k in data.get("setup", {}))
    assert kinds >= {"place", "exchange", "pass", "comment", "rack", "draw", "board", "bag", "racks", "scores"}
    assert slips  # (the passes put in turn the order round: read as the player whose turn it is)


@pytest.mark.parametrize("name", ["mistakes.json", "bookkeeping.json", "illegal-moves.json", "wrong-scores.json",
                                  "score-sheet.json"])
def test_a_record_and_its_notation_get_the_same_findings(name: str) -> None:
    raw = (SAMPLES / name).read_bytes()
    as_json = check_source(Source(name, 0, raw))
    as_qgn = check_source(Source("game.qgn", 0, format_qgn(from_data(json.loads(raw))).encode()))
    assert bool(as_json.findings) == (name != "score-sheet.json")
    # the notation is hand-written: a slip is looked for, one finding that names the error as written
    # (qwirkle_tools.analysis.repair); the rest are the record's own
    slips = [f for f in as_qgn.findings if f.code == "slip"]
    assert all(any(f"as written: {g.code}, {g.message}" in f.message for g in as_json.findings) for f in slips)
    codes = Counter(f.code for f in as_json.findings)
    codes.subtract(f.code for f in as_qgn.findings if f.code != "slip")
    assert min(codes.values(), default=0) >= 0 and len(as_qgn.findings) <= len(as_json.findings)


def test_what_the_notation_cannot_hold_is_listed() -> None:
    data = simulated()
    data["x-engine"] = "v2"
    data["players"][0]["x-elo"] = 1500
    data["turns"][3]["x-clock"] = 12.5
    data["turns"][4]["analysis"] = {"best_score": 9}
    record = from_data(data)
    assert dropped(record) == ["/x-engine", "/players/0/x-elo", "/turns/3/x-clock", "/turns/4/analysis"]
    assert dropped(round_trip(record)) == []


def test_names_that_need_quotes_are_quoted() -> None:
    record = from_data({"format": "qwirkle-record", "version": 1,
                        "players": [{"name": "Smith, John"}, {"name": "12"}, {"name": " pad"}, {"name": "12"},
                                    {"name": "A{n}a"}],
                        "turns": [{"player": p, "action": "place", "score": 3} for p in range(5)]})
    text = format_qgn(record)
    assert 'Players: "Smith, John", 12, " pad", 12, A{n}a\n' in text
    assert '\n1. "Smith, John" - 3\n2. 2 - 3\n3. " pad" - 3\n4. 4 - 3\n5. "A{n}a" - 3\n' in text  # twins by seat
    assert_round_trips(record)


# -- mistakes ------------------------------------------------------------------------

HEAD = "Players: Ana, Ben\n"

BROKEN = [
    # (text, line, column, words in the message, turn left unread)
    (HEAD + "1. Ana rz@0,3 5\n", 2, 8, "expected a tile like rc or red-circle, got 'rz'", 0),
    (HEAD + "1. Ana rc@0;3 5\n", 2, 11, "expected a cell like 0,-1 after '@', got '0;3'", 0),
    (HEAD + "1. Ana rc@0,y 5\n", 2, 13, "expected a row (y), got 'y'", 0),
    (HEAD + "1. Bob rc@0,0 1\n", 2, 4, "no player 'Bob': the players are 'Ana', 'Ben'", 0),
    (HEAD + "1. Ana\n", 2, 7, "expected the move", 0),
    (HEAD + "1. Ana jump 3\n", 2, 8, "expected the move: tiles like rc@0,0, '-', 'exchange' or 'pass', got 'jump'", 0),
    (HEAD + "1. Ana rc@0,0 2 3\n", 2, 17, "expected 'rack', 'draw' or a {comment}, got '3'", 0),
    (HEAD + "1. Ana rc@0,0 1 rack rc rack rc\n", 2, 25, "expected one 'rack' on a turn", 0),
    (HEAD + "1. Ana rc@0,0 1 {a} {b}\n", 2, 21, "a second {comment} on the turn: a turn holds one (join the two)", 0),
    (HEAD + "1. Ana rc@0,0 1 {well played\n", 2, 17, "a comment with no closing }", 0),
    (HEAD + "1. Ana rc@0,0 1 {a \\q}\n", 2, 20, "unknown escape in a comment", 0),
    (HEAD + "1. Ana rc@0,0 99999999999999999999\n", 2, 15, "a number of 20 digits", 0),
    (HEAD + "1. Ana exchange zz 0\n", 2, 17, "expected a tile like rc or red-circle, got 'zz'", 0),
    (HEAD + "1. 7 pass\n", 2, 4, "seat 7 does not exist", 0),
    (HEAD + "1 Ana pass\n", 2, 1, "expected a turn like '12. Ana rc@0,0 4' or a header", None),
    ("1. Ana rc@0,0 1\n" + HEAD, 1, 4, "a player's name before the 'Players:' line", 0),
    (HEAD + "Event club night\n", 2, 7, "expected ':' after the header name 'event'", None),
    (HEAD + "Event: one\nevent: two\n", 3, 1, "a second 'event' header", None),
    ('Players: "Ana, Ben\n', 1, 10, 'a quoted text with no closing "', None),
    ("Players: Ana, , Ben\n", 1, 15, "expected a player's name before ','", None),
    (HEAD + "Result: 296-295 won\n", 2, 17, "expected the scores (like 296-295) and how the game ended", None),
    (HEAD + "Rules: bonus=12\n", 2, 8, "expected a rule like qwirkle_bonus=6", None),
    (HEAD + "Setup-racks: rc | | 6\n", 2, 19, "expected a rack (tiles, a size, or - for an empty rack) before '|'", None),
    (HEAD + "Setup-bag: 200\n", 2, 12, "200 is more than 108", None),
    ("Event: x\n", 0, 0, "no 'Players:' line", None),
]


@pytest.mark.parametrize(("text", "line", "column", "words", "turn"), BROKEN)
def test_each_mistake_is_placed_by_line_and_column(text: str, line: int, column: int, words: str,
                                                   turn: int | None) -> None:
    parsed = parse_qgn(text)
    (finding,) = parsed.findings
    assert finding.code == "qgn" and finding.severity == "error"
    if line:
        assert finding.message.startswith(f"line {line}, column {column}: "), finding.message
        shown, caret = finding.excerpt.split("\n")
        assert shown == text.split("\n")[line - 1] and caret == " " * (column - 1) + "^"
    assert words in finding.message, finding.message
    assert parsed.broken == (frozenset() if turn is None else {turn})


def test_the_rest_of_the_file_is_still_read() -> None:
    text = HEAD + "1. Ana rc@0,0 1\n2. Ben rz@0,1 2\n3. Ana rs@1,0 2\n4. Ben ??\nResult: 3-2\n"
    parsed = parse_qgn(text)
    assert [f.message.split(":")[0] for f in parsed.findings] == ["line 3, column 8", "line 5, column 8"]
    assert parsed.broken == {1, 3}
    assert len(parsed.data["turns"]) == 4 and parsed.data["turns"][2]["tiles"][0]["tile"] == "red-square"
    assert parsed.data["result"] == {"scores": [3, 2]}
    report = check_source(Source("game.qgn", 0, text.encode()))
    # the misspelt tile is looked for: every red tile but the circle fits, the first is read and the
    # turns after are checked (the reader's findings first, then the replay's)
    assert [f.code for f in report.findings] == ["qgn", "slip"]
    slip = report.findings[1]
    assert slip.message.startswith("line 3, column 8: 'rz' is not a tile: a tile misspelt? did you mean rx@0,1 (legal, "
                                   "and scores the 2 written)? (rd, rs, rt or rl would do as well there; rx is read)")
    assert slip.excerpt == parsed.findings[0].excerpt and slip.turn == 2
    later = check_source(Source("game.qgn", 0, (HEAD + "1. Ana rc@0,0 1\n2. Ben ??\n3. Ana rs@1,0 2\n4. Ben rs@2,0 2\n")
                                .encode()))
    assert [f.code for f in later.findings] == ["qgn", "unchecked"]  # the turns after an unread one: said once
    assert later.findings[1].message.startswith("turns 3-4 not checked: turn 2 could not be read")


def test_a_misnumbered_turn_is_a_warning_and_is_read() -> None:
    parsed = parse_qgn(HEAD + "1. Ana rc@0,0 1\n3. Ben rs@0,1 2\n")
    (finding,) = parsed.findings
    assert (finding.code, finding.severity) == ("turn-number", "warning")
    assert finding.message == ("line 3, column 1: turn 3 after turn 1 (no turn 2): read as the 2nd turn of the game, "
                               "in the order written (number it '2.')")
    assert parsed.broken == frozenset() and parsed.data["turns"][1]["tiles"][0]["tile"] == "red-square"


def test_text_that_is_not_utf8_is_one_finding() -> None:
    report = check_source(Source("game.qgn", 0, HEAD.encode() + b"1. Ana \xff\n"))
    (finding,) = report.findings
    assert finding.code == "qgn" and finding.message.startswith("line 2, column 8: not UTF-8")


TRICKY_NAMES = ["A{na", 'B"en', "1", "07", "-", "pass", "exchange", "rc@0,0", "Ana", "ana", "rack", "{x}", "a b",
                "Smith, John", "é", "²", "\\", "Result: 1-2"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(TRICKY_NAMES), hostile_text(max_size=20)), min_size=2, max_size=6))
def test_any_names_survive_in_the_header_and_the_turns(names: list[str]) -> None:
    record = from_data({"format": "qwirkle-record", "version": 1, "players": [{"name": n} for n in names],
                        "turns": [{"player": p, "action": "place", "score": p + 1} for p in range(len(names))]})
    assert_round_trips(record)


@pytest.mark.parametrize("doc", ["docs/club-players.md", "docs/notation.md"])
def test_the_documented_example_is_a_valid_game(doc: str) -> None:
    text = (SAMPLES.parent / doc).read_text()
    start = text.index("Event: Club night\nDate: 2026-11-29\nPlayers: Ana, Ben\n")
    example = text[start:text.index("```", start)]
    report = check_source(Source("example.qgn", 0, example.encode()))
    assert report.findings == () and len(parse_qgn(example).data["turns"]) == 6


# -- line ends ------------------------------------------------------------------------

@pytest.mark.parametrize("ends", [["\r"], ["\r\n"], ["\r", "\n", "\r\n"]], ids=["CR", "CRLF", "mixed"])
def test_every_kind_of_line_end_reads_alike(ends: list[str]) -> None:
    lines = ISSUE_EXAMPLE.split("\n")
    text = "".join(line + ends[i % len(ends)] for i, line in enumerate(lines))
    assert read(text) == read(ISSUE_EXAMPLE)


def test_a_stray_cr_ends_a_line_and_keeps_the_places_right() -> None:
    text = "Players: Ana, Ben\r1. Ana rc@0,0 1\r\n\r2. Ben zz@0,1 2\nResult: 1-0\n"
    parsed = parse_qgn(text)
    assert parsed.data["players"] == [{"name": "Ana"}, {"name": "Ben"}]  # was: a player "Ben\r1. Ana ..."
    assert len(parsed.data["turns"]) == 2 and parsed.data["result"] == {"scores": [1, 0]}
    (finding,) = parsed.findings
    assert finding.message == "line 4, column 8: expected a tile like rc or red-circle, got 'zz'"
    assert finding.excerpt == "2. Ben zz@0,1 2\n       ^"
    report = check_source(Source("game.qgn", 0, b"Players: Ana, Ben\r1. Ana rc@0,0 \xff\n"))
    assert report.findings[0].message.startswith("line 2, column 15: not UTF-8"), report.findings


# -- bounded cost: the text's size never decides the work --------------------------

@pytest.mark.serial
def test_a_comment_of_a_million_spaces_is_read_at_once() -> None:
    text = HEAD + "1. Ana pass {" + " " * 1_000_000 + "well\\t played " + " " * 1_000_000 + "}\n"
    start = time.perf_counter()
    parsed = parse_qgn(text)
    assert parsed.data["turns"][0]["comment"] == "well\t played"
    assert time.perf_counter() - start < 20  # a guard, not a benchmark: it took minutes (a list shift a space)


@pytest.mark.serial
def test_a_players_line_of_thousands_of_names_is_one_mistake() -> None:
    names = [f"P{i}" for i in range(5000)]
    text = f"Players: {', '.join(names)}\n" + "".join(f"{i + 1}. P{5 - i % 6} pass\n" for i in range(3000))
    start = time.perf_counter()
    parsed = parse_qgn(text)
    assert time.perf_counter() - start < 20  # a guard: it was quadratic (every turn walked every name)
    assert parsed.data["players"] == [{"name": n} for n in names[:6]]  # the names read, for the turns
    assert [f.message for f in parsed.findings] == [f"line 1, column {len('Players: P0, P1, P2, P3, P4, P5, ') + 1}: "
                                                    "more than 6 players"]
    assert [t["player"] for t in parsed.data["turns"][:7]] == [5, 4, 3, 2, 1, 0, 5]


def test_unreadable_lines_stop_at_the_cap_with_one_note() -> None:
    text = HEAD + "1. Ana pass\n" + "zz zz\n" * 200_000
    parsed = parse_qgn(text)
    assert len(parsed.findings) == MAX_FINDINGS  # the last a note; was: 200,000 findings (2,000,000: 677 MB)
    assert parsed.findings[-1].message == f"line {MAX_FINDINGS + 1}, column 4: {STOPPED}"
    report = check_source(Source("game.qgn", 0, text.encode()))
    assert sum(f.code == "qgn" for f in report.findings) == MAX_FINDINGS


def test_turns_past_the_limit_end_the_reading_with_one_finding() -> None:
    text = HEAD + "".join(f"{i + 1}. {('Ana', 'Ben')[i % 2]} pass\n" for i in range(MAX_TURNS + 500)) + "Result: 0-0\n"
    parsed = parse_qgn(text)
    assert len(parsed.data["turns"]) == MAX_TURNS and "result" not in parsed.data  # was: every turn built
    (finding,) = parsed.findings
    assert finding.pointer == "/turns" and finding.message == (
        f"line {MAX_TURNS + 2}, column 1: a turn past the 10,000th: a record holds at most 10,000 turns; "
        "the rest of the file is not read")


LONG_LISTS = [
    # (line, its number, the column of the first item past the limit, the message, the turn left unread)
    ("1. Ana " + "rc@0,0 " * 1000, 2, 8 + 7 * 6, "more than 6 tiles placed in one turn", 0),
    ("1. Ana rc@0,0 1 rack " + "rc " * 1000, 2, 22 + 3 * 6, "more than 6 tiles in a rack", 0),
    ("1. Ana pass draw " + "rc " * 1000, 2, 18 + 3 * 6, "more than 6 tiles drawn", 0),
    ("1. Ana exchange " + "rc " * 1000 + "0", 2, 17 + 3 * 6, "more than 6 tiles exchanged", 0),
    ("Setup-board: " + "rc@0,0 " * 1000, 2, 14 + 7 * 108, "more than 108 tiles on the board", None),
    ("Setup-bag: " + "rc " * 1000, 2, 12 + 3 * 108, "more than 108 tiles in the bag", None),
    ("Setup-racks: " + "rc " * 1000 + "| 6", 2, 14 + 3 * 6, "more than 6 tiles in a rack", None),
    ("Setup-racks: " + "6 | " * 1000 + "6", 2, 14 + 4 * 6, "more than 6 racks (one a seat)", None),
    ("Result: " + "-".join(["1"] * 1000) + " out", 2, 9, "more than 6 scores (one a seat)", None),
]


@pytest.mark.parametrize(("line", "number", "column", "words", "turn"), LONG_LISTS)
def test_a_list_longer_than_the_format_allows_is_one_mistake(line: str, number: int, column: int, words: str,
                                                              turn: int | None) -> None:
    parsed = parse_qgn(HEAD + line + "\n")
    (finding,) = parsed.findings  # was: none (the record took every tile, 1.2 million: 868 MB)
    assert finding.message == f"line {number}, column {column}: {words}"
    assert parsed.broken == (frozenset() if turn is None else {turn})
    assert len(finding.message) <= MAX_MESSAGE
