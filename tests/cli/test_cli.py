"""The command line: output formats, exit codes, safe writing, help texts."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import endgame, place, simulated
from typer.testing import CliRunner

from qwirkle_tools.cli.app import app

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "sample_games"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_validate_valid_file_exits_0() -> None:
    code, out, _ = run("validate", str(SAMPLES / "complete-2p.json"))
    assert code == 0
    assert out.strip() == "1 record: 1 valid, 0 invalid (0 errors, 0 warnings)"


def test_validate_text_lines_name_file_turn_and_code() -> None:
    code, out, _ = run("validate", str(SAMPLES / "wrong-scores.json"))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"{SAMPLES / 'wrong-scores.json'}:turn 5: score-mismatch: Ana (seat 0) claims 7")
    assert lines[-1].startswith("1 record: 0 valid, 1 invalid (2 errors")


def test_validate_json_output(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    bad = simulated(2, 2)
    bad["turns"][0]["score"] += 1
    corpus.write_text(json.dumps(simulated(2, 1)) + "\n" + json.dumps(bad) + "\n")
    code, out, _ = run("validate", str(corpus), "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert [(r["index"], r["valid"]) for r in data["records"]] == [(1, True), (2, False)]
    finding = data["records"][1]["findings"][0]
    assert set(finding) == {"code", "severity", "turn", "pointer", "message"}
    assert finding["code"] == "score-mismatch" and finding["turn"] == 1 and finding["pointer"] == "/turns/0/score"
    assert data["summary"] == {"records": 2, "valid": 1, "invalid": 1, "errors": 1, "warnings": 0}


def test_validate_missing_path_exits_2(tmp_path: Path) -> None:
    code, out, err = run("validate", str(tmp_path / "nope.json"))
    assert code == 2 and "no such file or folder" in err


def test_warnings_alone_do_not_fail(tmp_path: Path) -> None:
    from conftest import game, place

    path = tmp_path / "w.json"
    path.write_text(json.dumps(game(place(0, "rc@0,0 rs@1,0", 2, rack="rc rs bd yx gl pt"),
                                    place(1, "rx@2,0", 3, rack="rx ox yx gd bl pl"))))
    code, out, _ = run("validate", str(path))
    assert code == 0 and "wrong-starter" in out


@pytest.mark.parametrize("command", [
    ["rescore"], ["moves", "--turn", "3", "-n", "1"], ["board", "--turn", "3"], ["annotate", "-o", "{out}/a.json"],
    ["convert", "-o", "{out}/c.json"], ["endgame", "--turn", "62", "--seconds", "0.2"], ["report", "-o", "{out}/report"],
    ["chart", "-o", "{out}/c.svg"], ["view", "-o", "{out}/v.html"],
])
def test_every_command_on_one_game_tells_a_slip_read_past_once(command: list[str], tmp_path: Path) -> None:
    text = (SAMPLES / "296-295.qgn").read_text(encoding="utf-8")
    game = tmp_path / "slip.qgn"
    game.write_text(text.replace("\n6. Ben ", "\n5. Ben ", 1), encoding="utf-8")  # turn 5 written twice
    name, *options = command
    code, _, err = run(name, str(game), *(o.format(out=tmp_path) for o in options))
    assert code == 0, err  # a warning does not fail
    told = [line for line in err.splitlines() if line.startswith("qwirkle: warning: ")]
    assert told == [f"qwirkle: warning: {game}: turn-number: line 12, column 1: a second turn 5: read as the 6th "
                    "turn of the game, in the order written (number it '6.')"]


def test_bad_option_exits_2() -> None:
    code, _, _ = run("validate", "--format", "xml", str(SAMPLES))
    assert code == 2


def test_rescore_table_and_json() -> None:
    assert run("rescore", str(SAMPLES / "complete-2p.json"))[0] == 0
    code, out, _ = run("rescore", str(SAMPLES / "wrong-scores.json"))
    assert code == 1  # scores differ
    marked = [line for line in out.splitlines() if " ! " in line]
    assert len(marked) == 2 and marked[0].split()[0] == "5"
    code, out, _ = run("rescore", str(SAMPLES / "wrong-scores.json"), "--format", "json")
    data = json.loads(out)
    assert [t["turn"] for t in data["turns"] if t["differs"]] == [5, 10]
    assert data["totals"] == data["turns"][-1]["totals"]


def test_rescore_writes_a_corrected_copy_safely(tmp_path: Path) -> None:
    src = tmp_path / "in.json"
    src.write_text((SAMPLES / "wrong-scores.json").read_text())
    before = src.read_text()
    out = tmp_path / "out.json"
    code, _, _ = run("rescore", str(src), "-o", str(out))
    assert code == 1 and src.read_text() == before
    code, stdout, _ = run("validate", str(out))
    assert code == 0, stdout
    assert run("rescore", str(out))[0] == 0
    # never over an existing file without --force, never over the input without --in-place
    assert run("rescore", str(src), "-o", str(out))[0] == 2
    assert run("rescore", str(src), "-o", str(out), "--force")[0] == 1
    assert run("rescore", str(src), "-o", str(src))[0] == 2
    assert src.read_text() == before
    os.chmod(src, 0o644)
    assert run("rescore", str(src), "--in-place")[0] == 1
    assert os.stat(src).st_mode & 0o777 == 0o644  # permissions kept
    assert run("validate", str(src))[0] == 0
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_rescore_repair_writes_the_game_as_meant_in_its_own_format(tmp_path: Path) -> None:
    game = ("Players: Ana, Ben\n1. Ana rc@0,0 rd@1,0 2\n2. Ben rs@0,1 rz@1,1 6\n"
            "3. Ana rx@2,0 3\n4. Ben rl@3,1 5\n")  # rz for rc, and a tile a cell off: rl@3,1 for rl@2,1
    src = tmp_path / "club.qgn"
    src.write_text(game)
    code, stdout, _ = run("rescore", str(src))  # without --repair: the misspelt tile is unreadable
    assert code == 1
    out = tmp_path / "meant.qgn"
    code, stdout, _ = run("rescore", str(src), "--repair", "-o", str(out))
    assert code == 1 and src.read_text() == game  # slips repaired: the input was wrong, and is left as it was
    lines = stdout.splitlines()
    assert lines[0].startswith(f"{src}:turn 2: slip: line 3, column 15: 'rz' is not a tile")
    assert "did you mean rs@0,1 rc@1,1" in lines[0] and lines[2] == "2 slips repaired"
    assert lines[1].startswith(f"{src}:turn 4: slip: a tile written a cell off? did you mean rl@2,1 ")
    written = out.read_text()
    assert "2. Ben rs@0,1 rc@1,1 6" in written and "4. Ben rl@2,1 5" in written
    assert run("validate", str(out))[0] == 0
    assert run("rescore", str(out), "--repair")[0] == 0  # nothing left to repair
    assert run("rescore", str(src), "--repair", "-o", str(out))[0] == 2  # never over a file without --force
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("Ana,Ben\n4,2\n8,12\ntotal,16,10\n")  # two cells swapped: told by validate, not rewritten
    code, _, err = run("rescore", str(sheet), "--repair", "-o", str(tmp_path / "s.json"))
    assert code == 2 and "--repair reads a game in the notation" in err and not (tmp_path / "s.json").exists()


def test_rescore_writes_through_links_and_refuses_devices(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text((SAMPLES / "wrong-scores.json").read_text())
    link = tmp_path / "link.json"
    link.symlink_to(real)
    assert run("rescore", str(link), "--in-place")[0] == 1
    assert link.is_symlink() and run("validate", str(real))[0] == 0
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    code, _, err = run("rescore", str(real), "-o", str(fifo), "--force")
    assert code == 2 and "not a regular file" in err
    assert run("validate", str(fifo))[0] == 2


def test_rescore_refuses_unreadable_records(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "qwirkle-record"')
    code, _, err = run("rescore", str(path))
    assert code == 1 and "json" in err
    assert run("rescore", str(SAMPLES / "corpus-10.jsonl"))[0] == 2


COMMANDS = sorted(c.name or c.callback.__name__ for c in app.registered_commands if c.callback is not None)


def test_the_list_of_commands_is_the_apps() -> None:
    assert set(COMMANDS) >= {"validate", "rescore", "moves", "simulate", "stats", "annotate", "board", "chart",
                             "report", "schema"}
    code, out, _ = run("--help")
    assert code == 0 and all(c in out for c in COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(command: str) -> None:
    code, out, _ = run(command, "--help")
    assert code == 0 and "Example:" in out and "qwirkle " + command in out


def test_installed_command_runs_without_traceback(tmp_path: Path) -> None:
    path = tmp_path / "trunc.json"
    path.write_bytes(b'{"format": "qwirkle-record", "players": [')
    proc = subprocess.run([sys.executable, "-m", "qwirkle_tools", "validate", str(path)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "trunc.json: json: line 1, column" in proc.stdout


def test_package_import_stays_light() -> None:
    code = ("import sys, qwirkle_tools.cli.app; "
            "print(sorted(m for m in ('pandas', 'matplotlib', 'jsonschema', 'qwirkle_tools.formats.record') "
            "if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"


def test_output_survives_a_terminal_that_cannot_show_a_name(tmp_path: Path) -> None:
    from conftest import game, place

    path = tmp_path / "zoe.json"
    data = game(place(0, "rc@0,0", 1), place(0, "rs@1,0", 2))
    data["players"][0]["name"] = "Zoë 🎲"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    proc = subprocess.run([sys.executable, "-m", "qwirkle_tools", "validate", str(path)],
                          capture_output=True, text=True, check=False, env=env)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "turn-order" in proc.stdout


def test_moves_lists_every_legal_move_best_first() -> None:
    from qwirkle_tools.core.board import Placement
    from qwirkle_tools.core.rules import judge
    from qwirkle_tools.formats.record import from_data
    from qwirkle_tools.play.engine import replay

    code, out, _ = run("moves", str(SAMPLES / "complete-2p.json"), "--turn", "12", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["turn"] == 12 and len(data["rack"]) == 6
    scores = [m["score"] for m in data["moves"]]
    assert scores == sorted(scores, reverse=True) and len(scores) > 1
    record = from_data(json.loads((SAMPLES / "complete-2p.json").read_text()))
    board = list(replay(record))[10].state.board
    played = record.turns[11]
    for m in data["moves"]:
        move = [Placement.parse(f"{t['tile']}@{t['x']},{t['y']}") for t in m["tiles"]]
        verdict = judge(board, move)
        assert verdict.legal and verdict.score.total == m["score"]
    assert played.tiles is not None
    assert sorted(map(str, played.tiles)) in [sorted(f"{t['tile']}@{t['x']},{t['y']}" for t in m["tiles"]) for m in data["moves"]]
    code, out, _ = run("moves", str(SAMPLES / "complete-2p.json"), "--turn", "1", "--rack", "rc rs bd", "-n", "3")
    assert code == 0 and out.splitlines()[0] == "turn 1: rack rc rs bd: 2 legal moves"
    assert run("moves", str(SAMPLES / "score-sheet.json"), "--turn", "5")[0] == 2
    assert run("moves", str(SAMPLES / "complete-2p.json"), "--turn", "999")[0] == 2
    assert run("moves", str(SAMPLES / "complete-2p.json"), "--turn", "3", "--rack", "zz")[0] == 2


def test_moves_ranks_the_move_going_out_by_its_end_bonus_as_rescore_does(tmp_path: Path) -> None:
    from test_analysis import GOING_OUT

    path = tmp_path / "end.json"
    path.write_text(json.dumps(endgame(GOING_OUT, "rc yc", 3, place(0, "yc@4,-1 rc@4,0", 12))))
    assert run("rescore", str(path))[0] == 0  # the claim of 12 is what the move going out scores
    code, out, _ = run("moves", str(path), "--turn", "1", "-n", "2")
    assert code == 0 and out.splitlines()[1:] == ["  12  yc@4,-1 rc@4,0  +6 end bonus", "  12  rc@4,0 yc@4,1  +6 end bonus"]
    code, out, _ = run("moves", str(path), "--turn", "1", "--format", "json")
    scores = [m["score"] for m in json.loads(out)["moves"]]
    assert code == 0 and scores[0] == 12 and scores == sorted(scores, reverse=True) and 8 in scores


def test_simulate_writes_reproducible_valid_corpora(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert run("simulate", "--games", "3", "--players", "3", "--seed", "4", "-o", str(a))[0] == 0
    assert run("simulate", "--games", "2", "--players", "3", "--seed", "4", "-o", str(b))[0] == 0
    assert a.read_text().splitlines()[:2] == b.read_text().splitlines()
    code, out, _ = run("validate", str(a))
    assert code == 0 and out.strip() == "3 records: 3 valid, 0 invalid (0 errors, 0 warnings)"
    assert run("simulate", "--games", "1", "-o", str(a))[0] == 2  # exists
    assert run("simulate", "--games", "1", "--policy", "random", "-o", str(a), "--force")[0] == 0


def test_annotate_prints_a_summary_and_writes_the_record(tmp_path: Path) -> None:
    out = tmp_path / "annotated.json"
    code, stdout, _ = run("annotate", str(SAMPLES / "complete-2p.json"), "-o", str(out))
    assert code == 0
    assert stdout.startswith("Ana: 197 points, accuracy")
    assert "qwirkle-gift" in stdout
    assert run("validate", str(out))[0] == 0
    first = out.read_text()
    assert run("annotate", str(out), "--in-place")[0] == 0
    assert out.read_text() == first
    code, stdout, _ = run("annotate", str(SAMPLES / "complete-2p.json"), "--format", "json")
    data = json.loads(stdout)
    assert data["tool"] == "qwirkle-tools" and len(data["turns"]) == 50 and data["players"][0]["name"] == "Ana"


def test_board_text_and_picture(tmp_path: Path) -> None:
    code, out, _ = run("board", str(SAMPLES / "complete-2p.json"), "--turn", "3", "--no-colour")  # before turn 3
    assert code == 0
    assert out.splitlines()[1].split() == ["-1", "*rs", "*rc"]
    png = tmp_path / "b.png"
    assert run("board", str(SAMPLES / "complete-2p.json"), "-o", str(png))[0] == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000
    svg = tmp_path / "b.svg"
    assert run("board", str(SAMPLES / "complete-2p.json"), "-t", "10", "-o", str(svg))[0] == 0
    assert "Ana - Ben: before turn 10" in svg.read_text() and "complete-2p" not in svg.read_text()
    assert run("board", str(SAMPLES / "complete-2p.json"), "-o", str(tmp_path / "b.gif"))[0] == 2
    assert run("board", str(SAMPLES / "score-sheet.json"))[0] == 2  # tiles unknown


def test_board_shows_a_missed_qwirkle_as_ghosts(tmp_path: Path) -> None:
    annotated = tmp_path / "a.json"
    assert run("annotate", str(SAMPLES / "weak-play.json"), "-o", str(annotated))[0] == 0
    svg = tmp_path / "g.svg"
    assert run("board", str(annotated), "--turn", "53", "-o", str(svg))[0] == 0
    assert "ghosts: a missed Qwirkle" in svg.read_text()


@pytest.mark.parametrize("kind", ["progression", "lead", "turns"])
def test_chart_kinds(tmp_path: Path, kind: str) -> None:
    svg = tmp_path / f"{kind}.svg"
    assert run("chart", str(SAMPLES / "complete-2p.json"), "--kind", kind, "-o", str(svg))[0] == 0
    assert "Ana 197 - 203 Ben" in svg.read_text()
    again = tmp_path / f"{kind}-2.svg"
    run("chart", str(SAMPLES / "complete-2p.json"), "--kind", kind, "-o", str(again))
    assert svg.read_bytes() == again.read_bytes()  # reproducible


def test_report_writes_every_part_and_prints_the_summary(tmp_path: Path) -> None:
    folder = tmp_path / "report"
    code, out, _ = run("report", str(SAMPLES / "wrong-scores.json"), "-o", str(folder))
    assert code == 1  # the record has errors; the report is still written
    names = {p.name for p in folder.iterdir()}
    assert names == {"annotated.json", "summary.txt", "turns.csv", "progression.png", "lead.png", "turns.png",
                     "win-chance.png", "board.png", "game.html"}
    assert (folder / "summary.txt").read_text() == out
    assert "invalid: 2 errors" in out and "2 claimed turn scores differ" in out
    rows = (folder / "turns.csv").read_text().splitlines()
    assert rows[0].startswith("turn,player,name,action,tiles,claimed,computed") and len(rows) == 51
    assert run("report", str(SAMPLES / "wrong-scores.json"), "-o", str(folder))[0] == 2  # exists
    assert run("report", str(SAMPLES / "complete-2p.json"), "-o", str(folder), "--force")[0] == 0


def test_view_writes_one_page_safely(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    code, _, err = run("view", str(SAMPLES / "296-295.json"), "-o", str(out))
    assert code == 0 and err.startswith("wrote ")
    html = out.read_text()
    assert html.startswith("<!DOCTYPE html>") and "296-295.json" in html and len(html.encode()) < 1_000_000
    assert run("view", str(SAMPLES / "296-295.json"), "-o", str(out))[0] == 2  # exists: kept without --force
    assert run("view", str(SAMPLES / "score-sheet.json"), "-o", str(out), "--force")[0] == 0
    assert '"board":false' in out.read_text()
    code, _, err = run("view", str(SAMPLES / "296-295.json"), "-o", str(tmp_path / "game.png"))
    assert code == 2 and "give an .html file" in err and not (tmp_path / "game.png").exists()
    code, _, err = run("view", str(tmp_path / "nope.json"), "-o", str(tmp_path / "x.html"))
    assert code == 2 and "nope.json" in err and not (tmp_path / "x.html").exists()


def test_report_on_a_bad_input_leaves_no_folder(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "qwirkle-record", "version": 1, "players": [')
    code, out, err = run("report", str(bad), "-o", str(tmp_path / "report"))
    assert code == 1 and "bad.json" in out + err  # an unreadable record is an invalid one
    assert not (tmp_path / "report").exists()


@pytest.mark.serial
def test_an_internal_error_is_one_line_and_exit_3(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import signal

    import qwirkle_tools.cli.app as cli
    from qwirkle_tools.cli.launch import main

    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    # main() takes SIGINT and SIGTERM over (and ignores them at its end): given back below

    def broken(**_: object) -> None:
        raise KeyError("oops")

    monkeypatch.setattr(cli, "app", broken)
    monkeypatch.delenv("QWIRKLE_DEBUG", raising=False)
    with pytest.raises(SystemExit) as exit_:
        main()
    assert exit_.value.code == 3
    err = capsys.readouterr().err
    assert err.startswith("qwirkle: internal error: KeyError: 'oops'\n") and "Traceback" not in err
    monkeypatch.setenv("QWIRKLE_DEBUG", "1")
    try:
        with pytest.raises(KeyError):
            main()
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)


# -- outputs the system refuses: exit 2, one line naming the output (hardening, third round: item 19) --

WRITERS = {
    "rescore": ["rescore", "{game}", "-o", "{out}.json"],
    "annotate": ["annotate", "{game}", "-o", "{out}.json"],
    "convert": ["convert", "{game}", "-o", "{out}.qgn"],
    "view": ["view", "{game}", "-o", "{out}.html"],
    "chart": ["chart", "{game}", "-o", "{out}.png"],
    "board": ["board", "{game}", "-o", "{out}.svg"],
    "report": ["report", "{game}", "-o", "{out}"],
    "simulate": ["simulate", "--games", "2", "-o", "{out}.jsonl"],
    "stats-csv": ["stats", "{game}", "--csv", "{out}", "--no-progress"],
    "stats-parquet": ["stats", "{game}", "--parquet", "{out}", "--no-progress"],
}
"""Every command that writes a file or a folder, with its output named ``{out}``."""


def refused(tmp_path: Path, writer: str, out: str) -> str:
    """Run ``writer`` into ``out`` (which the system refuses): exit 2, no traceback, one line
    of error (after any 'wrote' of an earlier file), nothing new left, the input untouched."""
    game = short_game(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    args = [a.format(game=game, out=out) for a in WRITERS[writer]]
    result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    errors = [line for line in result.stderr.splitlines() if not line.startswith("wrote ")]
    assert result.exit_code == 2 and len(errors) == 1 and errors[0].startswith("qwirkle: "), result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no temporary file, no folder it made
    assert game.read_bytes() == short_game(tmp_path).read_bytes()
    return errors[0]


def short_game(folder: Path) -> Path:
    """A short game (the first turns of one, a claim wrong), cheap to report on; made once."""
    game = folder / "game.json"
    if not game.exists():
        data = json.loads((SAMPLES / "wrong-scores.json").read_text())
        data["turns"] = data["turns"][:6]
        del data["result"]
        game.write_text(json.dumps(data))
    return game


@pytest.mark.parametrize("writer", WRITERS)
def test_an_output_in_proc_or_under_a_file_is_one_line_and_exit_2(tmp_path: Path, writer: str) -> None:
    if writer == "stats-parquet":
        pytest.importorskip("pyarrow")
    line = refused(tmp_path, writer, "/proc/qwirkle-out")
    assert "/proc" in line and ("No such file" in line or "denied" in line or "not permitted" in line), line
    (tmp_path / "file.txt").write_text("")
    line = refused(tmp_path, writer, str(tmp_path / "file.txt" / "out"))
    assert "file.txt" in line and ("not a folder" in line or "Not a directory" in line), line


@pytest.mark.parametrize(("where", "number"), [("write", errno.ENOSPC), ("fsync", errno.EIO),
                                               ("rename", errno.EACCES), ("create", errno.EROFS)])
@pytest.mark.parametrize("writer", WRITERS)
def test_every_output_the_system_refuses_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                writer: str, where: str, number: int) -> None:
    from test_fileio import refuse

    if writer == "stats-parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / "new" / "out" if writer.startswith("stats") else tmp_path / "out"  # a folder it makes
    if not writer.startswith("stats"):
        out.parent.mkdir(exist_ok=True)
    short_game(tmp_path)  # (before the system starts refusing)
    refuse(monkeypatch, where, number)
    line = refused(tmp_path, writer, str(out))
    assert str(out) in line and os.strerror(number) in line, line


@pytest.mark.parametrize("args", [["validate", "{samples}"], ["validate", "{game}", "--format", "json"],
                                  ["rescore", "{game}"], ["moves", "{game}", "--turn", "12"], ["--version"]])
@pytest.mark.parametrize("buffered", [True, False])
def test_standard_output_on_a_full_disk_is_one_line_and_exit_2(args: list[str], buffered: bool) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    argv = [a.format(samples=SAMPLES, game=SAMPLES / "complete-2p.json") for a in args]
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "qwirkle_tools", *argv], stdout=full, stderr=subprocess.PIPE,
                              text=True, check=False, env=env)
    assert proc.returncode == 2 and proc.stderr == "qwirkle: standard output: cannot write: No space left on device\n"


def launched(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``qwirkle ARGS...`` as the entry point runs it (the launcher's handling of click's errors)."""
    from qwirkle_tools.cli import launch

    monkeypatch.setattr(sys, "argv", ["qwirkle", *args])
    code = launch._command()
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _commands() -> list[str]:
    import typer.main

    return sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


USAGE_ERRORS = [
    (["validate"], "missing argument 'PATHS...' (try 'qwirkle validate --help')"),
    (["nosuch"], "no such command 'nosuch' (try 'qwirkle --help')"),
    (["validat", "x"], "no such command 'validat'. Did you mean 'validate'? (try 'qwirkle --help')"),
    (["moves", "x.json", "--turn", "abc"],
     "invalid value for '--turn' / '-t': 'abc' is not a valid integer (try 'qwirkle moves --help')"),
    (["validate", "--format", "xml", "x"],
     "invalid value for '--format' / '-f': 'xml' is not one of 'text', 'json' (try 'qwirkle validate --help')"),
    (["moves", "x.json", "--turn", "1", "extra"], "got unexpected extra argument (extra) (try 'qwirkle moves --help')"),
    (["standings", "--since"], "option '--since' requires an argument (try 'qwirkle --help')"),
]


@pytest.mark.parametrize(("args", "line"), USAGE_ERRORS)
def test_a_usage_error_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                   args: list[str], line: str) -> None:
    assert launched(monkeypatch, capsys, *args) == (2, "", f"qwirkle: {line}\n")


@pytest.mark.parametrize("command", _commands())
def test_every_commands_bad_option_is_one_line_with_its_help(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, err = launched(monkeypatch, capsys, command, "--no-such-option")
    assert (code, out) == (2, "") and err.count("\n") == 1, err
    assert err.startswith("qwirkle: no such option '--no-such-option'") and f"(try 'qwirkle {command} --help')" in err


def test_the_entry_point_says_a_usage_error_in_one_line() -> None:
    proc = subprocess.run([sys.executable, "-m", "qwirkle_tools", "validate"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        2, "", "qwirkle: missing argument 'PATHS...' (try 'python -m qwirkle_tools validate --help')\n")
