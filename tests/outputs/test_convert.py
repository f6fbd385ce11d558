"""``qwirkle convert`` and the hand-written forms at the command line: every
command reads a .qgn game and a .csv score sheet, mistakes come with a caret."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli import run

from qwirkle_tools.formats.record import dumps, from_data

SAMPLES = Path(__file__).parents[2] / "sample_games"


def test_json_to_notation_and_back_gives_the_same_bytes(tmp_path: Path) -> None:
    qgn, back = tmp_path / "game.qgn", tmp_path / "back.json"
    assert run("convert", str(SAMPLES / "296-295.json"), "-o", str(qgn))[0] == 0
    assert qgn.read_text() == (SAMPLES / "296-295.qgn").read_text()
    assert run("convert", str(qgn), "-o", str(back))[0] == 0
    assert back.read_text() == dumps(from_data(json.loads((SAMPLES / "296-295.json").read_text())))


def test_a_score_sheet_becomes_a_record(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    code, _, err = run("convert", str(SAMPLES / "296-295-sheet.csv"), "-o", str(out))
    assert code == 0 and "wrote" in err
    data = json.loads(out.read_text())
    assert len(data["turns"]) == 64 and data["result"] == {"scores": [295, 296]}
    assert run("validate", str(out))[0] == 0


def test_corpora_convert_line_by_line(tmp_path: Path) -> None:
    out = tmp_path / "copy.jsonl"
    assert run("convert", str(SAMPLES / "corpus-10.jsonl"), "-o", str(out))[0] == 0
    lines = out.read_text().splitlines()
    originals = (SAMPLES / "corpus-10.jsonl").read_text().splitlines()
    assert [from_data(json.loads(a)) for a in lines] == [from_data(json.loads(b)) for b in originals]
    code, _, err = run("convert", str(SAMPLES / "corpus-10.jsonl"), "-o", str(tmp_path / "one.qgn"))
    assert code == 2 and "holds 10 records; a .qgn file holds one" in err
    assert not (tmp_path / "one.qgn").exists()


def test_what_is_left_out_is_said(tmp_path: Path) -> None:
    data = json.loads((SAMPLES / "complete-2p.json").read_text())
    data["x-club"] = "Lyon"
    src = tmp_path / "in.json"
    src.write_text(json.dumps(data))
    code, _, err = run("convert", str(src), "-o", str(tmp_path / "out.qgn"))
    assert code == 0 and "note:" in err and "/x-club left out" in err


@pytest.mark.parametrize(("args", "words"), [
    (["game.txt", "-o", "out.json"], "cannot tell the input form from the name: use one of .json, .jsonl, .qgn, .csv"),
    (["game.qgn", "-o", "out.csv"], "out.csv: a score sheet (.csv) is read, never written: use one of .json, .jsonl, .qgn"),
    (["game.qgn", "-o", "out.txt"], "cannot tell the output form from the name: use one of .json, .jsonl, .qgn"),
    (["missing.qgn", "-o", "out.json"], "no such file"),
    (["game.qgn", "-o", "game.qgn"], "refusing to overwrite the input file\n"),  # (convert has no --in-place)
    (["game.qgn", "-o", "taken.json"], "exists"),
])
def test_conversions_that_cannot_run_exit_2(tmp_path: Path, args: list[str], words: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.qgn").write_text((SAMPLES / "296-295.qgn").read_text())
    (tmp_path / "game.txt").write_text("")
    (tmp_path / "taken.json").write_text("{}")
    code, _, err = run("convert", *args)
    assert code == 2 and words in err, err
    assert (tmp_path / "taken.json").read_text() == "{}"


BROKEN = "Players: Ana, Ben\n1. Ana rc@0,0 zz@1,0 2\n2. Ben rs@0,1 2\n"  # (no tile is one letter from zz)


def test_a_mistake_is_shown_with_a_caret(tmp_path: Path) -> None:
    path = tmp_path / "game.qgn"
    path.write_text(BROKEN)
    code, out, _ = run("validate", str(path))
    assert code == 1
    assert out.splitlines()[:3] == [
        f"{path}: qgn: line 2, column 15: expected a tile like rc or red-circle, got 'zz'",
        "    1. Ana rc@0,0 zz@1,0 2",
        "                  ^",
    ]
    code, out, _ = run("validate", str(path), "--format", "json")
    finding = json.loads(out)["records"][0]["findings"][0]
    assert finding["excerpt"] == "1. Ana rc@0,0 zz@1,0 2\n              ^" and finding["pointer"] == "/turns/0"
    code, _, err = run("convert", str(path), "-o", str(tmp_path / "out.json"))  # every other command refuses it
    assert code == 1 and "    1. Ana rc@0,0 zz@1,0 2" in err and "not a readable record" in err
    assert run("chart", str(path), "-o", str(tmp_path / "c.png"))[0] == 1
    assert not (tmp_path / "out.json").exists()


def test_every_command_reads_the_hand_written_forms(tmp_path: Path) -> None:
    for name in ("296-295.qgn", "296-295-sheet.csv"):
        path = SAMPLES / name
        assert run("validate", str(path))[0] == 0
        assert run("rescore", str(path))[0] == 0
        assert run("annotate", str(path), "-o", str(tmp_path / f"{name}.json"))[0] == 0
        assert run("chart", str(path), "-o", str(tmp_path / f"{name}.svg"))[0] == 0
        assert run("stats", str(path))[0] == 0
    code, out, _ = run("board", str(SAMPLES / "296-295.qgn"), "--no-colour")
    assert code == 0 and "rc" in out


def test_folders_are_searched_for_games_in_the_notation(tmp_path: Path) -> None:
    (tmp_path / "a.qgn").write_text(BROKEN)
    (tmp_path / "b.json").write_text((SAMPLES / "complete-2p.json").read_text())
    (tmp_path / "turns.csv").write_text("not,a,sheet\n")  # a table beside the games is not a score sheet
    code, out, _ = run("validate", str(tmp_path))
    assert code == 1 and out.splitlines()[-1] == "2 records: 1 valid, 1 invalid (1 error, 1 warning)"  # (turn 2 unchecked)


# -- written back in the form it was read in (hardening, third round: issue 19, item 1) -----------

CLUB = """Event: Club night
Players: Ana, Ben

1. Ana red-circle@0,0 rd@1,0 2 {a \\{fine\\} start}
2. Ben rs@0,-1 rc@1,-1 7 {Ben starts a column}

3. Ana exchange yd pt
4. Ben exchange 2
5. Ana - 7
Result: 9-7 unfinished
"""
"""A hand-typed game: long and short tiles, blank lines, comments, a wrong claim (turn 2 scores 6)."""


def club_files(folder: Path) -> dict[str, Path]:
    """The same kinds of input, one of each form: a record, a game, a score sheet, a corpus."""
    paths = {form: folder / f"club{form}" for form in (".json", ".qgn", ".csv", ".jsonl")}
    paths[".json"].write_text((SAMPLES / "wrong-scores.json").read_text())
    paths[".qgn"].write_text(CLUB)
    paths[".csv"].write_text((SAMPLES / "296-295-sheet.csv").read_text())
    paths[".jsonl"].write_text((SAMPLES / "corpus-10.jsonl").read_text())
    return paths


def expected(path: Path, annotate: bool = False) -> object:
    """What writing ``path``'s record back must give: the corrected record (rescore), or
    the annotated record's data (annotate), read back the way it is read by every command."""
    from qwirkle_tools.analysis.analyse import analyse
    from qwirkle_tools.analysis.annotation import annotated
    from qwirkle_tools.analysis.rescore import corrected
    from qwirkle_tools.formats.sources import read_record
    from qwirkle_tools.play.engine import replay

    history = replay(read_record(path))
    return from_data(annotated(history, analyse(history))) if annotate else corrected(history)


def reads_back(path: Path) -> object:
    """The one record in ``path``, read in the form its name says, and checked: the file is
    that form (a .qgn file is the notation, with no mistake; .jsonl one record a line)."""
    from qwirkle_tools.formats.qgn import parse_qgn
    from qwirkle_tools.formats.sources import read_records

    text = path.read_text()
    if path.suffix == ".qgn":
        assert not text.lstrip().startswith("{") and parse_qgn(text).findings == ()
    if path.suffix == ".jsonl":
        assert len(text.splitlines()) == 1 and json.loads(text)
    (record,) = read_records(path)
    assert run("validate", str(path))[0] in (0, 1)  # readable: findings at most, never a refusal
    return record


@pytest.mark.parametrize("form", [".json", ".qgn"])
def test_rescore_in_place_writes_the_form_it_read(tmp_path: Path, form: str) -> None:
    path = club_files(tmp_path)[form]
    want = expected(path)
    code, _, err = run("rescore", str(path), "--in-place")
    assert code == 1 and "wrote" in err, err  # a claim differed, and was corrected
    assert reads_back(path) == want
    assert run("rescore", str(path))[0] == 0


def test_a_game_rewritten_in_place_keeps_its_comments_and_every_field(tmp_path: Path) -> None:
    path = club_files(tmp_path)[".qgn"]
    assert run("rescore", str(path), "--in-place")[0] == 1
    text = path.read_text()
    assert "{a \\{fine\\} start}" in text and "{Ben starts a column}" in text  # comments, escapes and all
    assert "Event: Club night" in text and "2. Ben rs@0,-1 rc@1,-1 6 " in text  # the claim corrected
    assert "red-circle" not in text and "\n\n3." not in text  # the layout is the writer's (docs/notation.md)


@pytest.mark.parametrize("command", ["rescore", "annotate"])
@pytest.mark.parametrize("form", [".csv", ".jsonl"])
def test_in_place_never_rewrites_a_sheet_or_a_corpus(tmp_path: Path, command: str, form: str) -> None:
    path = club_files(tmp_path)[form]
    before = path.read_bytes()
    code, out, err = run(command, str(path), "--in-place")
    assert code == 2 and len(err.strip().splitlines()) == 1 and out == "", err
    words = "a score sheet is never rewritten (--in-place); write the corrected record beside it with -o club.qgn" \
        if form == ".csv" and command == "rescore" else "score sheet" if form == ".csv" else "not a .jsonl corpus"
    assert words in err, err
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"club{f}" for f in (".json", ".qgn", ".csv", ".jsonl"))


def test_annotate_in_place_keeps_a_game_in_the_notation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import qwirkle_tools.analysis.analyse

    path = club_files(tmp_path)[".qgn"]
    monkeypatch.setattr(qwirkle_tools.analysis.analyse, "analyse", None)  # refused before any analysis is made
    code, out, err = run("annotate", str(path), "--in-place")
    assert code == 2 and out == "" and path.read_text() == CLUB
    assert err == "qwirkle: club.qgn: the notation cannot hold the analysis; write the annotated record as JSON " \
                  "(-o club.json)\n"


def test_annotate_in_place_rewrites_a_record_as_json(tmp_path: Path) -> None:
    path = club_files(tmp_path)[".json"]
    want = expected(path, annotate=True)
    assert run("annotate", str(path), "--in-place")[0] == 0
    assert reads_back(path) == want


@pytest.mark.parametrize("source", [".json", ".qgn", ".csv"])
@pytest.mark.parametrize("target", [".json", ".qgn", ".jsonl"])
def test_rescore_output_takes_the_form_of_its_name(tmp_path: Path, source: str, target: str) -> None:
    path = club_files(tmp_path)[source]
    want = expected(path)
    out = tmp_path / f"fixed{target}"
    code, _, err = run("rescore", str(path), "-o", str(out))
    assert code in (0, 1) and "wrote" in err, err
    assert reads_back(out) == want


@pytest.mark.parametrize("source", [".json", ".qgn", ".csv"])
@pytest.mark.parametrize("target", [".json", ".jsonl"])
def test_annotate_output_takes_the_form_of_its_name(tmp_path: Path, source: str, target: str) -> None:
    path = club_files(tmp_path)[source]
    out = tmp_path / f"annotated{target}"
    assert run("annotate", str(path), "-o", str(out))[0] == 0
    assert reads_back(out) == expected(path, annotate=True)


@pytest.mark.parametrize(("args", "words"), [
    (["annotate", "{qgn}", "-o", "a.qgn"], "a.qgn: the notation cannot hold the analysis"),
    (["annotate", "{json}", "-o", "a.csv"], "a.csv: a score sheet (.csv) is read, never written"),
    (["rescore", "{qgn}", "-o", "a.csv"], "a.csv: a score sheet (.csv) is read, never written"),
    (["rescore", "{json}", "-o", "a.txt"], "a.txt: cannot tell the output form from the name"),
    (["rescore", "{extra}", "-o", "a.qgn"], "a.qgn: the notation cannot hold /x-club"),
    (["rescore", "{annotated}", "-o", "a.qgn"], "a.qgn: the notation cannot hold /analysis, /turns/0/analysis"),
    (["simulate", "--games", "2", "-o", "a.json"], "a.json: simulate writes a corpus, one record a line"),
    (["simulate", "--games", "1", "-o", "a.qgn"], "a.qgn: simulate writes a corpus"),
])
def test_a_form_that_cannot_hold_the_output_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       args: list[str], words: str) -> None:
    monkeypatch.chdir(tmp_path)
    paths = club_files(tmp_path)
    data = json.loads(paths[".json"].read_text())
    (tmp_path / "extra.json").write_text(json.dumps({**data, "x-club": "Lyon"}))
    assert run("annotate", str(paths[".json"]), "-o", "annotated.json")[0] == 0
    names = {"qgn": paths[".qgn"], "json": paths[".json"], "extra": "extra.json", "annotated": "annotated.json"}
    code, out, err = run(*[a.format(**names) for a in args])
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / args[-1]).exists() and out == ""  # nothing written, not even the table
