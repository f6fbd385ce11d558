"""Forgiving hand entry in the notation (.qgn): one slip of the pen is one
finding at its line and column, and the rest of the game is read as meant."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from qwirkle_tools.analysis.validate import check_source
from qwirkle_tools.core.findings import MAX_FINDINGS, STOPPED, Finding
from qwirkle_tools.formats.qgn import format_qgn, parse_qgn
from qwirkle_tools.formats.qgn import read as notation_read
from qwirkle_tools.formats.qgn import slips as notation_slips
from qwirkle_tools.formats.record import Record, from_data
from qwirkle_tools.formats.sources import Source

GAME = (Path(__file__).parents[2] / "sample_games" / "296-295.qgn").read_text(encoding="utf-8")
"""A legal game of 64 turns, every score, rack and draw written: a slip in it is the only finding."""


def renumbered(text: str, number: object) -> str:
    """``text`` with each turn's number ``n`` written as ``number(n)``."""
    return re.sub(r"(?m)^([0-9]+)\.", lambda m: f"{number(int(m[1]))}.", text)  # type: ignore[operator]


def line_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def one_slip(text: str) -> tuple[Finding, Record]:
    """The one finding of a game with one slip, and the record read from it,
    checked to be the 296-295 game: the later turns are there, and valid."""
    report = check_source(Source("game.qgn", 0, text.encode()), keep_record=True)
    assert len(report.findings) == 1, [f.message for f in report.findings]
    assert report.record is not None
    assert len(report.record.turns) == 64
    return report.findings[0], report.record


def original() -> Record:
    return from_data(parse_qgn(GAME).data)


def assert_at(finding: Finding, code: str, line: int, column: int, words: str, text: str) -> None:
    assert (finding.code, finding.severity) == (code, "warning")
    assert finding.message.startswith(f"line {line}, column {column}: "), finding.message
    assert words in finding.message, finding.message
    shown, caret = finding.excerpt.split("\n")
    if not shown.startswith("..."):  # (a long line is shown around the place)
        assert text.splitlines()[line - 1].startswith(shown) and caret == " " * (column - 1) + "^"


def test_the_game_has_no_finding_as_written() -> None:
    assert check_source(Source("game.qgn", 0, GAME.encode())).findings == ()


def test_a_turn_number_left_out_is_one_finding_at_the_line_after() -> None:
    text = renumbered(GAME, lambda n: n + (n >= 3))  # turns 1, 2, 4, 5, ... 65 (was: 62 errors, one a line)
    finding, record = one_slip(text)
    assert_at(finding, "turn-number", line_of(text, "4. "), 1,
              "turn 4 after turn 2 (no turn 3): read as the 3rd turn of the game, in the order written (number it '3.')",
              text)
    assert record.turns == original().turns


def test_a_turn_number_written_twice_is_one_finding() -> None:
    text = renumbered(GAME, lambda n: n - (n >= 11))  # turns 1 ... 10, 10, 11, ... 63
    finding, record = one_slip(text)
    assert_at(finding, "turn-number", line_of(GAME, "11. "), 1, "a second turn 10: read as the 11th turn", text)
    assert record.turns == original().turns


def test_one_turn_number_miswritten_is_one_finding() -> None:
    text = renumbered(GAME, lambda n: 5 if n == 6 else n)  # turns 1 ... 5, 5, 7, 8, ...: the next is not told again
    finding, record = one_slip(text)
    assert_at(finding, "turn-number", line_of(GAME, "6. "), 1, "a second turn 5: read as the 6th turn", text)
    assert record.turns == original().turns


def test_two_turns_on_one_line_are_both_read() -> None:
    text = GAME.replace("\n4. Ben", " 4. Ben")
    finding, record = one_slip(text)
    line = line_of(text, "3. Ana")
    assert_at(finding, "two-turns", line, text.splitlines()[line - 1].index("4. Ben") + 1,
              "a second turn on the line: read as the 4th turn", text)
    assert record.turns == original().turns


def test_two_turns_on_a_line_after_a_turn_with_only_its_move() -> None:
    line = "1. Ana rc@0,0 1 2. Ben pass 3. Ana exchange rc 4. Ben rd@1,0"
    parsed = parse_qgn(f"Players: Ana, Ben\n{line}\n5. Ana pass\n")
    assert [(f.code, f.message.split(":")[0]) for f in parsed.findings] == [
        ("two-turns", f"line 2, column {line.index('2.') + 1}"), ("two-turns", f"line 2, column {line.index('3.') + 1}"),
        ("two-turns", f"line 2, column {line.index('4.') + 1}"), ("no-score", f"line 2, column {len(line) + 1}")]
    assert [(t["player"], t["action"]) for t in parsed.data["turns"]] == [(0, "place"), (1, "pass"), (0, "exchange"),
                                                                          (1, "place"), (0, "pass")]
    assert parsed.data["turns"][2]["tiles"] == ["red-circle"]  # the next turn's number is not a tile exchanged


def test_players_without_commas_are_read_as_a_word_each() -> None:
    text = GAME.replace("Players: Ana, Ben", "Players: Ana Ben")  # was: 64 errors, every turn naming a player
    finding, record = one_slip(text)
    assert_at(finding, "names-without-commas", line_of(text, "Players:"), 14, "read as 2 players, 'Ana', 'Ben'", text)
    assert record.names == ("Ana", "Ben") and record.turns == original().turns


def test_one_name_with_a_space_and_quoted_names_are_not_split() -> None:
    assert parse_qgn('Players: "Ana Lee" "Ben"\n').findings[0].code == "qgn"  # quotes: the commas are needed
    parsed = parse_qgn("Players: Ana Lee, Ben\n")
    assert parsed.findings == () and parsed.data["players"] == [{"name": "Ana Lee"}, {"name": "Ben"}]


@pytest.mark.parametrize(("written", "meant"), [("Player", "Players"), ("players", None), ("PLAYRES", "Players")])
def test_a_misspelt_header_is_read_as_the_header_meant(written: str, meant: str | None) -> None:
    text = GAME.replace("Players:", f"{written}:")  # was: 65 errors ("Player" was a meta header)
    if meant is None:  # the case of a header's name does not matter
        assert check_source(Source("game.qgn", 0, text.encode())).findings == ()
        return
    finding, record = one_slip(text)
    assert_at(finding, "header-misspelt", line_of(text, written), 1, f"did you mean {meant!r}? (read as {meant}:)", text)
    assert record.names == ("Ana", "Ben") and record.turns == original().turns and record.meta == original().meta


def test_a_header_close_to_one_already_given_is_meta() -> None:
    parsed = parse_qgn("Players: Ana, Ben\nPlayer: the elder\n")
    assert parsed.findings == () and parsed.data["meta"] == {"player": "the elder"}


def test_a_meta_key_close_to_a_header_is_written_quoted_and_reads_back() -> None:
    record = from_data({**parse_qgn("Players: Ana, Ben\n").data, "meta": {"player": "x", "rule": "y", "event": "z"}})
    text = format_qgn(record)
    assert '"player": x' in text and '"rule": y' in text and "Event: z" in text
    parsed = parse_qgn(text)
    assert parsed.findings == () and parsed.data["meta"] == {"player": "x", "rule": "y", "event": "z"}


def test_a_misspelt_name_in_a_turn_is_read_as_the_player_meant() -> None:
    text = GAME.replace("\n7. Ana ", "\n7. Anna ")
    finding, record = one_slip(text)
    assert_at(finding, "name-misspelt", line_of(text, "7. Anna"), 4, "no player 'Anna': did you mean 'Ana'?", text)
    assert finding.pointer == "/turns/6/player"
    assert record.turns == original().turns


@pytest.mark.parametrize(("players", "name", "words"), [
    ("Ann, Ana", "Anna", "no player 'Anna': the players are 'Ann', 'Ana'; did you mean 'Ann' or 'Ana'?"),
    ("Ana, Ben", "Bob", "no player 'Bob': the players are 'Ana', 'Ben'"),
])
def test_a_name_close_to_two_players_or_to_none_is_a_mistake(players: str, name: str, words: str) -> None:
    (finding,) = parse_qgn(f"Players: {players}\n1. {name} rc@0,0 1\n").findings
    assert finding.code == "qgn" and finding.message == f"line 2, column 4: {words}"


def test_a_placement_without_a_score_is_a_warning_and_is_scored() -> None:
    text = GAME.replace("\n5. Ana rc@3,-1 6 rack", "\n5. Ana rc@3,-1 rack")  # was: accepted silently
    finding, record = one_slip(text)
    assert_at(finding, "no-score", line_of(text, "5. Ana"), 16, "the 5th turn has no score: the validator computes it",
              text)
    assert finding.pointer == "/turns/4/score" and record.turns[4].score is None
    assert [t for i, t in enumerate(record.turns) if i != 4] == [t for i, t in enumerate(original().turns) if i != 4]


def test_a_game_written_without_scores_is_not_told_each_turn() -> None:
    text = re.sub(r"(?m)^([0-9]+\. \S+ (?:\S+@\S+ )+)[0-9]+ ", r"\1", GAME)  # every placement's score left out
    report = check_source(Source("game.qgn", 0, text.encode()), keep_record=True)
    assert report.findings == () and report.record is not None
    assert sum(t.score is None for t in report.record.turns) > 50


def test_warnings_held_back_keep_the_findings_in_line_order() -> None:
    parsed = parse_qgn("Players: Ana, Ben\n1. Ana rc@0,0\n2. Bne rd@1,0\n3. Ana rs@2,0 3\n")
    assert [(f.code, f.message.split(",")[0]) for f in parsed.findings] == [
        ("no-score", "line 2"), ("name-misspelt", "line 3"), ("no-score", "line 3")]


def test_a_long_game_without_scores_is_read_to_the_end() -> None:
    lines = "".join(f"{i + 1}. {'Ana' if i % 2 == 0 else 'Ben'} -\n" for i in range(3000))
    parsed = parse_qgn("Players: Ana, Ben\n" + lines)
    assert parsed.findings == () and len(parsed.data["turns"]) == 3000


def test_placements_without_scores_are_capped_as_every_finding_is() -> None:
    lines = "".join(f"{i + 1}. {'Ana' if i % 2 == 0 else 'Ben'} -\n" for i in range(3000))
    parsed = parse_qgn("Players: Ana, Ben\n" + lines + "3001. Ana - 4\n")  # the score comes last: all read, then capped
    assert len(parsed.findings) == MAX_FINDINGS and len(parsed.data["turns"]) == 3001
    assert {f.code for f in parsed.findings[:-1]} == {"no-score"} and parsed.findings[-1].code == "too-many-findings"
    assert parsed.findings[-1].message.startswith("2,001 more findings not listed")
    parsed = parse_qgn("Players: Ana, Ben\n1. Ana - 4\n" + lines[len("1. Ana -\n"):])  # a score first: the reading stops
    assert len(parsed.findings) == MAX_FINDINGS and parsed.findings[-1].message.endswith(STOPPED)
    assert len(parsed.data["turns"]) == MAX_FINDINGS


@pytest.mark.serial
def test_a_line_of_a_million_turns_is_looked_at_once_not_once_a_turn() -> None:
    def seconds(turns: int) -> float:
        text = "Players: Ana, Ben\n" + "1. Ana pass " * turns + "\n"
        start = time.perf_counter()
        parsed = parse_qgn(text)
        assert len(parsed.findings) == MAX_FINDINGS and parsed.findings[-1].message.endswith(STOPPED)  # 500 turns read
        return time.perf_counter() - start

    short, long = min(seconds(1_000) for _ in range(3)), min(seconds(1_000_000) for _ in range(3))
    assert long < 20 * short + 0.05, (short, long)  # was: each of the 500 turns looked over the whole line (x70 here)


def test_millions_of_free_headers_are_not_each_looked_at_for_a_slip(monkeypatch: pytest.MonkeyPatch) -> None:
    looks = []

    def counted(name: str, given: set[str]) -> tuple[str, str] | None:
        looks.append(name)
        return notation_slips.header_slip(name, given)

    monkeypatch.setattr(notation_read, "header_slip", counted)
    parsed = parse_qgn("Players: Ana, Ben\n" + "".join(f"player{i}: v\n" for i in range(10_000)) + "Rule: x\n")
    assert parsed.findings == () and len(parsed.data["meta"]) == 10_001  # the last slip is past the looks: meta
    assert len(looks) == notation_read.LOOKED_AT  # (a look costs a few lines' reading: 10,000 cost 8 times the reading)
    assert [f.code for f in parse_qgn("Event: x\nPlayr: Ana, Ben\n").findings] == ["header-misspelt"]
