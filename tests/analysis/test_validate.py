"""Validation of files, folders and corpora, including broken input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import game, place, simulated

from qwirkle_tools.analysis.validate import check_data, validate
from qwirkle_tools.formats.sources import MAX_FILE_BYTES, InputError, parse_source


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data))
    return path


def codes(paths: list[Path]) -> list[tuple[str, int, list[str]]]:
    return [(Path(r.path).name, r.index, [f.code for f in r.findings]) for r in validate(paths)]


def test_files_folders_and_corpora(tmp_path: Path) -> None:
    good = simulated(2, 1)
    bad = simulated(2, 2)
    bad["turns"][3]["score"] += 1
    write(tmp_path / "a.json", good)
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub" / "b.json", bad)
    (tmp_path / "notes.txt").write_text("not a record")
    (tmp_path / "c.jsonl").write_text(json.dumps(good) + "\n\n" + "{oops\n" + json.dumps(bad) + "\n")
    assert codes([tmp_path]) == [
        ("a.json", 0, []),
        ("c.jsonl", 1, []),
        ("c.jsonl", 3, ["json"]),
        ("c.jsonl", 4, ["score-mismatch"]),
        ("b.json", 0, ["score-mismatch"]),
    ]


def test_reports_know_their_place_and_validity(tmp_path: Path) -> None:
    bad = simulated(2, 2)
    bad["turns"][3]["score"] += 1
    (report,) = validate([write(tmp_path / "b.json", bad)])
    assert not report.valid and report.where.endswith("b.json")
    data = report.to_data()
    assert data["valid"] is False and data["index"] == 0
    assert data["findings"] == [{"code": "score-mismatch", "severity": "error", "turn": 4,
                                 "pointer": "/turns/3/score", "message": report.findings[0].message}]


@pytest.mark.parametrize(("text", "expected"), [
    (b"", "empty"),
    (b"   \n", "empty"),
    (b'{"format": ', "line 1, column"),
    (b'{"a": 1,\n "b": }', "line 2, column"),
    (b"\xff\xfe{}", "column"),
    (b'{"a": NaN}', "line 1"),
    (b'{"a": Infinity}', "line 1"),
    (b"[" * 5000 + b"]" * 5000, ""),
    (b'{"a": 123456789012345678901234567890}', ""),
])
def test_broken_json_is_a_finding_not_a_crash(text: bytes, expected: str) -> None:
    data, problem = parse_source(text)
    if problem is None:  # some parsers take big numbers: then the schema speaks
        assert check_data(data)[1][0].code == "schema"
    else:
        assert problem.code == "json" and expected in problem.message


def test_byte_order_mark_is_accepted() -> None:
    data, problem = parse_source(b"\xef\xbb\xbf" + json.dumps(game(place(0, "rc@0,0", 1))).encode())
    assert problem is None and check_data(data)[1] == []


def test_too_large_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import qwirkle_tools.formats.sources as v

    monkeypatch.setattr(v, "MAX_FILE_BYTES", 100)
    path = write(tmp_path / "big.json", simulated(2, 1))
    (report,) = validate([path])
    assert [f.code for f in report.findings] == ["too-large"]
    assert MAX_FILE_BYTES == 64 * 1024 * 1024


def test_missing_paths_and_empty_folders_stop_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        list(validate([tmp_path / "nope.json"]))
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no .json, .jsonl or .qgn records"):
        list(validate([tmp_path / "empty"]))


def test_wrong_types_everywhere_never_raise() -> None:
    from qwirkle_tools.formats.schema import reference_is_valid

    base = game(place(0, "rc@0,0 rs@1,0", 2, rack="rc rs bd yx gl pt", draw="oc ox"), result={"scores": [2, 0]})
    assert check_data(base)[1] == []
    for key in ["players", "turns", "result", "setup", "rules", "meta", "format"]:
        for value in [None, 1, "x", [], {}, [1], [{}], {"board": 3}, {"scores": "x"}]:
            data = dict(base)
            data[key] = value
            record, found = check_data(data)
            if not reference_is_valid(data):
                assert found[0].code == "schema"
    for field in ["player", "action", "tiles", "score", "rack", "draw", "count"]:
        for value in [None, -1, 99, "x", [], [None], [{"tile": 1}], {"x": 1}, 10**12]:
            data = json.loads(json.dumps(base))
            data["turns"][0][field] = value
            check_data(data)  # must not raise


def test_whole_number_floats_are_schema_errors_not_crashes() -> None:
    for path, value in [(("turns", 0, "tiles", 0, "x"), 0.0), (("turns", 0, "player"), 0.0),
                        (("turns", 0, "score"), 2.0), (("result", "scores", 1), 0.0)]:
        data = game(place(0, "rc@0,0 rs@1,0", 2), result={"scores": [2, 0]})
        node: Any = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        found = check_data(data)[1]
        assert found[0].code == "schema" and found[0].message == f"expected an integer, got {value!r}"


def test_far_apart_tiles_give_a_short_message() -> None:
    data = game(place(0, "rc@-1000000,0 rs@1000000,0", 2))
    (finding,) = check_data(data)[1]
    assert finding.code == "gap" and len(finding.message) < 120


def test_out_of_range_values_after_a_schema_error_are_not_replayed() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2), place(1, "bs@1,1", 2))
    data["turns"][1]["tiles"][0]["y"] = 4194304  # would alias another cell if replayed
    data["turns"][0]["player"] = -5
    codes = [f.code for f in check_data(data)[1]]
    assert codes and set(codes) == {"schema"}


def test_deep_nesting_is_a_finding() -> None:
    data = game(place(0, "rc@0,0", 1))
    deep: Any = []
    for _ in range(1000):
        deep = [deep]
    data["turns"][0]["comment"] = deep
    found = check_data(data)[1]
    assert found and found[0].code == "schema"


def test_names_cannot_forge_finding_lines() -> None:
    data = game(place(0, "rc@0,0", 1), place(0, "rs@1,0", 2))
    data["players"][0]["name"] = "A\nother.json:turn 9: fake-code: injected" + "x" * 500
    found = check_data(data)[1]
    assert found and all("\n" not in f.message and len(f.message) <= 300 for f in found)


def test_blank_corpus_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "blank.jsonl").write_text("\n  \n")
    with pytest.raises(InputError, match="no records"):
        list(validate([tmp_path / "blank.jsonl"]))


def test_custom_rules_are_written_into_simulated_records() -> None:
    from qwirkle_tools.core.rules import Rules
    from qwirkle_tools.engines.selfplay import simulate

    data = simulate(2, 3, rules=Rules(2, 3, 10))
    assert data["rules"] == {"lone_tile_score": 2, "qwirkle_bonus": 3, "end_bonus": 10}
    assert check_data(data)[1] == []


# -- limits: a clear finding, never exhaustion (regressions found by fuzzing) --

def test_too_many_turns_is_one_finding_and_no_replay() -> None:
    from qwirkle_tools.formats.schema import MAX_TURNS

    data = game(*[{"player": i % 2, "action": "pass"} for i in range(2 * MAX_TURNS)])
    record, found = check_data(data)  # was: 19,999 findings of a replay of every turn
    assert record is None
    assert [(f.code, f.pointer, f.message) for f in found] == [("schema", "/turns", "20,000 turns; at most 10,000")]


def test_a_corpus_line_over_the_limit_is_not_held_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import qwirkle_tools.analysis.validate as check
    import qwirkle_tools.formats.sources as v

    monkeypatch.setattr(v, "MAX_FILE_BYTES", 200)
    good = json.dumps(game(place(0, "rc@0,0", 1)), separators=(",", ":")).encode()
    assert len(good) < 200
    (tmp_path / "c.jsonl").write_bytes(good + b"\n" + b" " * 5000 + good + b"\n" + good)
    found = list(v.sources([tmp_path / "c.jsonl"]))
    assert [(s.index, s.text is None, s.size) for s in found] == [(1, False, len(good) + 1), (2, True, 5000 + len(good)),
                                                                   (3, False, len(good))]
    assert [f.code for f in check.check_source(found[1]).findings] == ["too-large"]


def test_big_integers_are_quoted_as_written_in_every_reading_mode() -> None:
    from qwirkle_tools.analysis.validate import check_source
    from qwirkle_tools.formats.sources import Source

    data = game(place(0, "rc@0,0 rs@1,0", 2))
    data["turns"][0]["score"] = 10**30  # orjson reads it as 1e+30: the message said "1e+30"
    text = json.dumps(data).encode()
    loose, exact = check_source(Source("r.json", 0, text)), check_source(Source("r.json", 0, text), exact=True)
    assert [f.message for f in loose.findings] == [f.message for f in exact.findings] == [
        f"{10**30} is out of range (maximum 100000)"]


def test_every_path_caps_a_records_findings_with_one_note(tmp_path: Path) -> None:
    from qwirkle_tools.core.findings import MAX_FINDINGS, STOPPED
    from qwirkle_tools.formats.sources import UnreadableRecord, read_record

    # a game in the notation with 1,500 unreadable turn lines: its reader's findings, capped as the replay's are
    lines = ["Players: Ana, Ben", ""] + [f"{i}. Ana zz@0,0 2" for i in range(1, 1_501)]
    path = tmp_path / "many.qgn"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (report,) = validate([path])
    assert len(report.findings) == MAX_FINDINGS  # the reader stops there, its note the last
    assert report.findings[-1].code == "qgn" and report.findings[-1].message.endswith(STOPPED)
    with pytest.raises(UnreadableRecord) as refused:
        read_record(path)
    assert len(refused.value.findings) == MAX_FINDINGS
