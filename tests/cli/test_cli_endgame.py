"""``qwirkle endgame``: the solver's answer printed, and bad input refused in one line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from brute_force import after, minimax

from qwirkle_tools import loads
from qwirkle_tools.engines.endgame import position

ROOT = Path(__file__).parents[2]
GAME = ROOT / "sample_games" / "296-295.json"


def qwirkle(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "qwirkle_tools", *args], capture_output=True, text=True, timeout=300)


def test_the_json_answer_is_the_brute_forces() -> None:
    proc = qwirkle("endgame", str(GAME), "--turn", "62", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    game, played = position(loads(GAME.read_text(encoding="utf-8")), 62)
    seen: dict[object, int] = {}
    truth = minimax(game, seen)
    assert data["turn"] == 62 and data["proven"] and data["value"] == truth
    assert data["played"] == {"move": str(played), "loss": truth - after(game, played, seen)}
    lead = game.scores[game.to_move] - game.scores[1 - game.to_move]
    margin = lead + truth
    result = {"outcome": "win" if margin > 0 else "draw" if margin == 0 else "loss", "margin": margin}
    assert data["candidates"][0] == {"move": data["line"][0], "value": truth, "loss": 0, "result": result}
    assert data["result"] == result


def test_a_search_out_of_time_says_how_deep_it_went() -> None:
    proc = qwirkle("endgame", str(GAME), "--seconds", "0.3")  # where the bag empties: 6 tiles against 6
    assert proc.returncode == 0, proc.stderr
    # (on a loaded machine the time may also cut the move generation: "...below; not every move ...")
    assert re.search(r"\((proven|searched \d+ pl(y|ies) deep, greedy play below)[);]", proc.stdout), proc.stdout
    assert "played: " in proc.stdout


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    for args, said in [
        (["endgame", str(GAME), "--turn", "99"], "--turn 99: the record has 64 turns"),
        (["endgame", str(GAME), "--turn", "10"], "the bag still holds"),
        (["endgame", str(ROOT / "sample_games" / "score-sheet.json")], "the bag does not empty"),
        (["endgame", str(tmp_path / "missing.json")], "missing.json"),
    ]:
        proc = qwirkle(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stdout == "" and len(proc.stderr.splitlines()) == 1 and said in proc.stderr, proc.stderr


def test_a_time_that_is_no_number_is_refused_at_once() -> None:
    # a range lets nan through (it compares false); nan or inf seconds would search without end
    for value in ("nan", "inf", "1e400"):
        proc = qwirkle("endgame", str(GAME), "--seconds", value)
        assert proc.returncode == 2 and proc.stdout == "", proc.stderr
        assert "is not a number of seconds" in proc.stderr and "Traceback" not in proc.stderr


def test_a_players_name_is_shown_safe(tmp_path: Path) -> None:
    data = json.loads(GAME.read_text(encoding="utf-8"))
    data["players"][0]["name"] = "Ana\x1b[2J\nBen"
    path = tmp_path / "names.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    proc = qwirkle("endgame", str(path), "--turn", "63")
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout and "Ana\\x1b[2J\\nBen" in proc.stdout


def test_a_wrong_claimed_score_is_told_and_the_board_decides(tmp_path: Path) -> None:
    # a claimed score is not the board: moves and board work on such a record, and so does endgame
    data = json.loads(GAME.read_text(encoding="utf-8"))
    data["turns"][2]["score"] += 1
    data.pop("result", None)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(data), encoding="utf-8")
    told = qwirkle("endgame", str(wrong), "--turn", "62", "--format", "json")
    right = qwirkle("endgame", str(GAME), "--turn", "62", "--format", "json")
    assert told.returncode == 0, told.stderr
    assert told.stderr.splitlines() == [f"qwirkle: warning: {wrong}:turn 3: score-mismatch: Ana (seat 0) claims 5, "
                                        "the turn scores 2+2 = 4"]
    keep = ("value", "proven", "line", "candidates", "played")
    assert {k: json.loads(told.stdout)[k] for k in keep} == {k: json.loads(right.stdout)[k] for k in keep}


@pytest.mark.serial
def test_a_crowded_board_keeps_the_time_and_memory_budget(tmp_path: Path) -> None:
    # a legal bag-empty position whose racks have 139,536 (or 978,336) moves, a second or more of work
    # a generation: --seconds 1 took minutes and 900 MB; the command must end within 3 s, under 300 MiB
    from conftest import CIRCLES, crowded_endgame

    # the command's wall time and peak memory, measured by a process of their own (RUSAGE_CHILDREN: its child only)
    measure = ("import json, resource, subprocess, sys, time; t = time.monotonic(); "
               "p = subprocess.run([sys.executable, '-m', 'qwirkle_tools', *sys.argv[1:]], capture_output=True, text=True); "
               "print(json.dumps([time.monotonic() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
               "p.returncode, p.stdout, p.stderr]))")
    for name, data in [("duplicates", crowded_endgame()), ("circles", crowded_endgame(CIRCLES, "rs os ys gs bs ps"))]:
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        proc = subprocess.run([sys.executable, "-c", measure, "endgame", str(path), "--seconds", "1", "--format", "json"],
                              capture_output=True, text=True, timeout=300)
        seconds, rss_kib, returncode, out, err = json.loads(proc.stdout)
        assert returncode == 0, err
        assert seconds < 3.0 and rss_kib < 300 * 1024, (name, seconds, rss_kib)
        answer = json.loads(out)
        assert answer["cut"] and not answer["proven"] and answer["line"] and answer["candidates"], answer
