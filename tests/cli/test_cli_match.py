"""The match and bot commands: the summary, the records, bad players and options, QBP spoken by `qwirkle bot`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from qwirkle_tools.bots.qbp import position_line, rack_line
from qwirkle_tools.formats.record import from_data
from qwirkle_tools.play.engine import replay
from qwirkle_tools.play.game import Game, Move

PY = sys.executable
BOTS = Path(__file__).parents[1] / "programs"


def qwirkle(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "qwirkle_tools", *args], input=stdin, capture_output=True, text=True,
                          timeout=600, check=False)


def test_match_writes_records_and_prints_the_summary(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    proc = qwirkle("match", "greedy", "random", "--games", "4", "--seed", "3", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "4 games: greedy (A) against random (B)"
    assert any(line.startswith("greedy scores ") and "95% interval" in line for line in lines)
    games = [from_data(json.loads(line)) for line in out.read_text().splitlines()]
    assert len(games) == 4 and all(replay(g).findings == () for g in games)
    assert games[0].meta["bot-0"] == "greedy" and games[1].meta["bot-0"] == "random"
    data = qwirkle("match", "greedy", "random", "--games", "4", "--seed", "3", "-o", str(out), "--force",
                   "--format", "json")
    summary = json.loads(data.stdout)
    assert summary["games"] == 4 and summary["a"]["wins"] + summary["a"]["draws"] + summary["a"]["losses"] == 4
    assert summary["pairs"]["both_won"] + summary["pairs"]["split"] + summary["pairs"]["both_lost"] == 2
    again = qwirkle("match", "greedy", "random", "--games", "4", "-o", str(out))
    assert again.returncode == 2 and "already exists" in again.stderr


def test_bad_players_and_options_are_one_line_and_exit_2(tmp_path: Path) -> None:
    out = str(tmp_path / "m.jsonl")
    for args, message in [
        (["nobody", "greedy"], "unknown player 'nobody'"),
        (["greedy", "no_such_module_here:f"], "cannot load no_such_module_here"),
        (["greedy", f"{tmp_path}/missing.py:f"], "no Python file"),
        (["greedy", "cmd:"], "names no program"),
        (["greedy", "random", "--sprt", "10,0"], "ELO0 < ELO1"),
        (["greedy", "random", "--sprt", "x"], "two numbers"),
    ]:
        proc = qwirkle("match", *args, "--games", "2", "-o", out)
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.count("\n") == 1 and message in proc.stderr and "Traceback" not in proc.stderr
        assert not Path(out).exists()
    proc = qwirkle("match", "greedy", "random", "--games", "2", "-o", str(tmp_path / "m.json"))
    assert proc.returncode == 2 and "give a .jsonl file" in proc.stderr
    proc = qwirkle("bot", "--policy", "nope")
    assert proc.returncode == 2 and "unknown player 'nope'" in proc.stderr
    for args, message in [
        (["cmd:python 'unbalanced.py", "greedy"], "cannot split the command: No closing quotation"),
        ([f"{BOTS / 'exiting.py'}:play", "greedy"], "exiting.py called sys.exit(0)"),
        (["greedy", "random", "--force", "--resume"], "either --force or --resume"),
    ]:
        proc = qwirkle("match", *args, "--games", "2", "-o", out)
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.count("\n") == 1 and message in proc.stderr and "Traceback" not in proc.stderr
        assert not Path(out).exists()


def test_qwirkle_bot_speaks_the_protocol() -> None:
    game = Game.deal(2, seed=12)
    for _ in range(5):
        game.push(game.legal_moves()[0])
    view = game.view(game.to_move)
    session = "\n".join(["qbp", "isready", "some line the bot does not know", f"newgame players 2 seat {view.seat}",
                         position_line(view), rack_line(view), "go movetime 1000", "quit", "isready"]) + "\n"
    proc = qwirkle("bot", "--policy", "greedy", stdin=session)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:4] == ["id name qwirkle-tools greedy", "id author qwirkle-tools", "qbpok", "readyok"]
    assert lines[4].startswith("bestmove ") and len(lines) == 5  # nothing after quit
    move = Move.parse(lines[4][len("bestmove "):])
    assert move == game.legal_moves()[0]


def test_qwirkle_bot_answers_a_bad_position_with_a_pass_and_says_why() -> None:
    proc = qwirkle("bot", stdin="qbp\nnewgame players 2 seat 0\nposition {not json\nrack rc\ngo movetime 10\nquit\n")
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and lines[-1] == "bestmove pass"
    assert lines[-2].startswith("info error ")


def test_a_python_player_that_answers_no_move_or_exits_forfeits_and_the_match_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    for function, code, reason in [
        ("malformed", "garbage", "answered a malformed Move"),
        ("wrong_action", "garbage", "answered a malformed Move"),
        ("exits", "error", "called sys.exit(0) while choosing its move"),
    ]:
        proc = qwirkle("match", f"{BOTS / 'funcbot.py'}:{function}", "greedy", "--games", "2", "-o", str(out), "--force")
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
        games = [from_data(json.loads(line)) for line in out.read_text().splitlines()]
        assert len(games) == 2, (function, proc.stderr)
        for game in games:
            assert game.result is not None
            forfeit = game.result.extra["x-forfeit"]
            assert forfeit["code"] == code and reason in forfeit["reason"], forfeit
        assert proc.returncode == 2 and "forfeited every game it played (2)" in proc.stderr  # (it never played)
        assert proc.stdout.startswith("2 games: "), proc.stdout


def test_a_match_every_game_of_which_a_player_forfeits_exits_2(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    proc = qwirkle("match", "cmd:/no/such/program", "greedy", "--games", "4", "-o", str(out))
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[-1] == ("qwirkle: player A (program) forfeited every game it played (4); the first: "
                                            "cmd:/no/such/program could not be started: No such file or directory")
    assert len(out.read_text().splitlines()) == 4 and "4 games: program (A) against greedy (B)" in proc.stdout
    proc = qwirkle("tournament", "greedy", "random", "cmd:/no/such/program", "--games", "2", "-o", str(tmp_path / "t"))
    assert proc.returncode == 2 and "qwirkle: player cmd:/no/such/program (program) forfeited every game" in proc.stderr


def test_resume_plays_the_rest_of_the_same_match(tmp_path: Path) -> None:
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    args = ["greedy", "random", "--games", "12", "--seed", "4"]
    assert qwirkle("match", *args, "-o", str(whole)).returncode == 0
    lines = whole.read_bytes().splitlines(keepends=True)
    part.write_bytes(b"".join(lines[:5]) + lines[5][:40])  # as a run killed while it wrote its sixth game
    refused = qwirkle("match", *args, "-o", str(part))
    assert refused.returncode == 2 and "already exists (use --force to overwrite it, or --resume" in refused.stderr
    resumed = qwirkle("match", *args, "--resume", "-o", str(part))
    assert resumed.returncode == 0, resumed.stderr
    assert part.read_bytes() == whole.read_bytes()
    assert resumed.stdout == qwirkle("match", *args, "-o", str(whole), "--force").stdout  # the summary of all 12
    other = qwirkle("match", "greedy", "random", "--games", "12", "--seed", "5", "--resume", "-o", str(part))
    assert other.returncode == 2 and other.stderr.count("\n") == 1
    assert f"{part}: line 1: its game has seed 4, not this match's game 0 (5)" in other.stderr
    more = qwirkle("tournament", "greedy", "random", "lookahead", "--games", "2", "-o", str(tmp_path / "t.jsonl"))
    games = (tmp_path / "t.jsonl").read_bytes()
    (tmp_path / "t.jsonl").write_bytes(b"".join(games.splitlines(keepends=True)[:3]))
    again = qwirkle("tournament", "greedy", "random", "lookahead", "--games", "2", "--resume", "-o", str(tmp_path / "t.jsonl"))
    assert again.returncode == 0 and (tmp_path / "t.jsonl").read_bytes() == games and again.stdout == more.stdout
