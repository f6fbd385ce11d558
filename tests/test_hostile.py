"""Hostile names and paths: nothing lost, nothing injected, in every command that writes or prints."""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import simulated
from typer.testing import CliRunner

from qwirkle_tools.cli.app import app

runner = CliRunner()

EVIL = ["\x1b]0;pwned\x07\x1b[2J=cmd|' /C calc'!A0\nBen: 999 points\r", "+\u202eBen\x9b\x7f\x00\x0b\x08@sum"]


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def evil_game(tmp_path: Path, name: str = "g.json") -> Path:
    data = copy.deepcopy(simulated(2, 5))
    data["players"] = [{"name": n} for n in EVIL]
    data["turns"][3]["score"] += 1  # a finding, so that names reach the finding lines too
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def assert_clean(text: str) -> None:
    for line in text.splitlines():
        assert line.isprintable(), repr(line)
        assert line.strip() != "Ben: 999 points"


# -- data loss --------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["rescore", "{src}", "-o", "{dst}"], ["annotate", "{src}", "-o", "{dst}"], ["board", "{src}", "-o", "{dst}"],
    ["chart", "{src}", "-o", "{dst}"], ["simulate", "--games", "1", "-o", "{dst}"], ["view", "{src}", "-o", "{dst}"],
])
def test_a_path_through_a_missing_folder_never_overwrites(tmp_path: Path, command: list[str]) -> None:
    src = evil_game(tmp_path, "game.json")
    victim = tmp_path / {"board": "victim.png", "chart": "victim.png", "view": "victim.html"}.get(command[0], "victim.json")
    victim.write_bytes(b"precious")
    before = src.read_bytes()
    args = [a.format(src=src, dst=tmp_path / "missing" / ".." / victim.name) for a in command]
    code, _, err = run(*args, "--force")
    assert code == 2 and "does not exist" in err
    assert victim.read_bytes() == b"precious" and src.read_bytes() == before


def test_report_through_a_missing_folder_is_refused(tmp_path: Path) -> None:
    src = evil_game(tmp_path)
    code, _, err = run("report", str(src), "-o", str(tmp_path / "missing" / ".." / "x" / "r"))
    assert code == 2 and "does not exist" in err


def test_tables_never_write_through_a_link_to_the_corpus(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps(simulated(2, 1)) + "\n")
    before = corpus.read_bytes()
    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / "games.csv").symlink_to(corpus)
    code, _, err = run("stats", str(corpus), "--csv", str(tables), "--force", "--no-progress")
    assert code == 2 and "input file" in err
    assert corpus.read_bytes() == before


def test_in_place_keeps_a_read_only_file(tmp_path: Path) -> None:
    src = evil_game(tmp_path)
    src.chmod(0o444)
    before = src.read_bytes()
    code, _, err = run("rescore", str(src), "--in-place")
    assert code == 2 and "read-only" in err and src.read_bytes() == before
    code, _, _ = run("rescore", str(src), "--in-place", "--force")
    assert code in (0, 1) and src.read_bytes() != before


def test_a_report_replaces_a_report_whole_and_nothing_else(tmp_path: Path) -> None:
    src = evil_game(tmp_path)
    out = tmp_path / "r"
    assert run("report", str(src), "-o", str(out))[0] == 1
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    assert run("report", str(src), "-o", str(out))[0] == 2  # no --force: kept
    sheet = Path(__file__).parent.parent / "sample_games" / "score-sheet.json"
    assert run("report", str(sheet), "-o", str(out), "--force")[0] == 0
    assert "board.png" not in {p.name for p in out.iterdir()} and {p.name for p in out.iterdir()} < set(first)
    (out / "notes.txt").write_text("mine")
    code, _, err = run("report", str(src), "-o", str(out), "--force")
    assert code == 2 and "other files" in err and (out / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json", "r"]


# -- injection through names ------------------------------------------------------------------

def test_names_reach_every_text_output_as_one_clean_line(tmp_path: Path) -> None:
    src = evil_game(tmp_path)
    for args in (["validate", str(src)], ["rescore", str(src)], ["annotate", str(src)],
                 ["stats", str(src), "--analyse", "--no-progress"], ["report", str(src), "-o", str(tmp_path / "r")]):
        code, out, err = run(*args)
        assert code in (0, 1), (args, err)
        assert_clean(out)
        assert_clean(err)
    assert_clean((tmp_path / "r" / "summary.txt").read_text())
    assert "\\x1b]0;pwned" in (tmp_path / "r" / "summary.txt").read_text()  # shown, escaped


def test_names_that_differ_only_in_invisible_characters_are_told_apart_wherever_printed(tmp_path: Path) -> None:
    data = copy.deepcopy(simulated(2, 5))
    data["players"] = [{"name": "Ana\x07"}, {"name": "Ana\u200b"}]  # a bell; a zero-width space
    data["turns"][0]["score"] += 1
    data["turns"][1]["score"] += 1  # a finding naming each
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    code, out, _ = run("validate", str(path))
    assert code == 1
    lines = out.splitlines()
    assert "score-mismatch: Ana\\x07 (seat 0) claims" in lines[0] and "score-mismatch: Ana\\u200b (seat 1) claims" in lines[1]
    for args in (["rescore", str(path)], ["annotate", str(path)]):
        code, out, err = run(*args)
        assert "Ana\\x07" in out + err and "Ana\\u200b" in out + err, args
    # the notation's and a sheet's excerpts show them too, the caret under its place
    from qwirkle_tools.core.findings import excerpt

    assert excerpt("Players: Ana\x07, Ana\u200b", 19).splitlines() == ["Players: Ana\\x07, Ana\\u200b", " " * 21 + "^"]


def test_json_outputs_escape_c1_controls_del_and_bidi(tmp_path: Path) -> None:
    src = evil_game(tmp_path)
    for args in (["rescore", str(src), "--format", "json"], ["annotate", str(src), "--format", "json"],
                 ["stats", str(src), "--format", "json", "--analyse", "--no-progress"]):
        _, out, _ = run(*args)
        assert not any(ch in out for ch in "\u202e\x9b\x7f"), args
        json.loads(out)  # still JSON, the names intact once read
    assert run("annotate", str(src), "-o", str(tmp_path / "a.json"))[0] == 0
    written = (tmp_path / "a.json").read_text()
    assert "\u202e" not in written and json.loads(written)["players"][1]["name"] == EVIL[1]


def test_csv_tables_read_back_row_for_row_with_no_formula(tmp_path: Path) -> None:
    import pandas as pd

    src = evil_game(tmp_path)
    turns = len(json.loads(src.read_text())["turns"])
    assert run("stats", str(src), "--csv", str(tmp_path / "t"), "--no-progress")[0] == 1
    games = pd.read_csv(tmp_path / "t" / "games.csv", dtype=str, keep_default_na=False)
    assert len(games) == 1 and len(pd.read_csv(tmp_path / "t" / "turns.csv")) == turns
    for name in (games.loc[0, "player_0"], games.loc[0, "player_1"]):
        assert name.isprintable() and not name.startswith(("=", "+", "-", "@"))
    assert games.loc[0, "player_1"].startswith("'+")  # a formula's start, neutralised
    assert run("report", str(src), "-o", str(tmp_path / "r"))[0] == 1
    table = pd.read_csv(tmp_path / "r" / "turns.csv", dtype=str, keep_default_na=False)
    assert len(table) == turns
    assert all(not str(v).startswith(("=", "+", "-", "@")) for v in table["name"])
    assert [c for c in table.columns if c.startswith("total")] == [c for c in table.columns if "total" in c]


def test_svg_charts_are_well_formed_xml(tmp_path: Path) -> None:
    src = evil_game(tmp_path)
    for kind in ("progression", "lead", "turns"):
        out = tmp_path / f"{kind}.svg"
        code, _, err = run("chart", str(src), "--kind", kind, "-o", str(out))
        assert code == 0 and "Warning" not in err
        ET.parse(out)
    assert run("board", str(src), "-o", str(tmp_path / "b.svg"))[0] == 0
    ET.parse(tmp_path / "b.svg")


def test_file_names_found_in_a_folder_are_shown_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "evil\x1b[2J\nBen: 999.json").write_text("{")
    code, out, _ = run("validate", str(folder))
    assert code == 1 and "evil\\x1b[2J\\nBen: 999.json: json:" in out
    assert_clean(out)


def test_wording_of_counts(tmp_path: Path) -> None:
    from conftest import game, place

    path = tmp_path / "one.json"
    path.write_text(json.dumps(game(place(0, "rc@0,0", 1, rack="rc rx bd yx gl pt"))))
    code, out, _ = run("validate", str(path))
    assert "opens with 1 tile," in out
    _, out, _ = run("annotate", str(path))
    assert "Ana: 1 point, accuracy 50.0% over 1 turn, 1 point lost, 0 Qwirkles made" in out


# -- cost of legal but pathological records ------------------------------------------------

def test_moves_refuses_a_rack_the_game_cannot_hold() -> None:
    game = str(Path(__file__).parent.parent / "sample_games" / "complete-2p.json")
    code, _, err = run("moves", game, "--turn", "3", "--rack", "rc rx rd rs rt rl bc")
    assert code == 2 and "at most 6 tiles" in err
    code, _, err = run("moves", game, "--turn", "3", "--rack", "rc rc rc rc")
    assert code == 2 and "4 red-circle" in err


def test_moves_on_a_crowded_board_is_bounded(tmp_path: Path) -> None:
    from conftest import CIRCLES, crowded, game

    path = tmp_path / "crowded.json"
    path.write_text(json.dumps(game(setup=crowded())))
    code, _, err = run("moves", str(path), "--turn", "1", "--rack", CIRCLES)
    assert code == 2 and "too many to list" in err
    smaller = tmp_path / "smaller.json"
    smaller.write_text(json.dumps(game(setup=crowded(tiles=12))))
    code, out, _ = run("moves", str(smaller), "--turn", "1", "--rack", CIRCLES, "--format", "json")
    assert code == 0 and len(json.loads(out)["moves"]) > 1000  # streamed, and still one JSON document


def test_a_long_record_is_charted_in_spans(tmp_path: Path) -> None:
    from conftest import game, place

    from qwirkle_tools.formats.record import from_data
    from qwirkle_tools.outputs import charts

    record = from_data(game(*[place(i % 2, score=i % 7 + 1) for i in range(3000)]))
    fig = charts.turns(record)
    bars = [p for p in fig.axes[0].patches]
    assert len(bars) <= 2 * charts.MAX_BARS
    assert sum(b.get_height() for b in bars) == sum(i % 7 + 1 for i in range(3000))
    assert "Points per 20 turns" in fig.axes[0].get_title()


def test_dollars_and_escapes_in_names_are_not_mathtext(tmp_path: Path) -> None:
    # found by the long fuzz run: "$\x1f" and "$" put "$\x1f ... $" in a title, which matplotlib parsed as maths
    data = copy.deepcopy(simulated(2, 5))
    data["players"] = [{"name": "$\x1f"}, {"name": "$"}]
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    assert run("report", str(path), "-o", str(tmp_path / "r"))[0] == 0
    assert run("chart", str(path), "--kind", "lead", "-o", str(tmp_path / "l.svg"))[0] == 0
    assert "$\\x1f" in (tmp_path / "l.svg").read_text()


def test_a_glyph_missing_from_the_font_warns_nobody(tmp_path: Path) -> None:
    data = copy.deepcopy(simulated(2, 5))
    data["players"] = [{"name": "Ana 👍🇺"}, {"name": "Ben 𡈊"}]
    path = tmp_path / "g 👍.json"
    path.write_text(json.dumps(data))
    import os
    import subprocess
    import sys

    root = Path(__file__).parent.parent
    for args in (["board", str(path), "-o", str(tmp_path / "b.png")], ["report", str(path), "-o", str(tmp_path / "r")],
                 ["chart", str(path), "-o", str(tmp_path / "c.png")]):
        # a real process: in-process, pytest would catch the warnings before they reached stderr
        proc = subprocess.run([sys.executable, "-m", "qwirkle_tools", *args], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(root)}, check=False)
        assert proc.returncode == 0 and "Warning" not in proc.stderr, proc.stderr
