"""``qwirkle convert`` and the hand-written forms at the command line: every
command reads a .qgn game and a .csv score sheet, mistakes come with a caret."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli import run

from qwirkle_tools.record import dumps, from_data

SAMPLES = Path(__file__).parent.parent / "sample_games"


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
    (["game.qgn", "-o", "out.csv"], "cannot tell the output form from the name: use one of .json, .jsonl, .qgn"),
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


BROKEN = "Players: Ana, Ben\n1. Ana rc@0,0 rz@1,0 2\n2. Ben rs@0,1 2\n"


def test_a_mistake_is_shown_with_a_caret(tmp_path: Path) -> None:
    path = tmp_path / "game.qgn"
    path.write_text(BROKEN)
    code, out, _ = run("validate", str(path))
    assert code == 1
    assert out.splitlines()[:3] == [
        f"{path}: qgn: line 2, column 15: expected a tile like rc or red-circle, got 'rz'",
        "    1. Ana rc@0,0 rz@1,0 2",
        "                  ^",
    ]
    code, out, _ = run("validate", str(path), "--format", "json")
    finding = json.loads(out)["records"][0]["findings"][0]
    assert finding["excerpt"] == "1. Ana rc@0,0 rz@1,0 2\n              ^" and finding["pointer"] == "/turns/0"
    code, _, err = run("convert", str(path), "-o", str(tmp_path / "out.json"))  # every other command refuses it
    assert code == 1 and "    1. Ana rc@0,0 rz@1,0 2" in err and "not a readable record" in err
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
    assert code == 1 and out.splitlines()[-1] == "2 records: 1 valid, 1 invalid (1 error, 0 warnings)"
