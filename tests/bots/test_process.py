"""Outside programs as players (qwirkle_tools.bots.process): the handshake, one answer a go, the
standard error's log, the memory limit, ``gameover``; every path ends the program's whole group."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from processes import BOTS, PY, gone, hostile

from qwirkle_tools.bots.match import Match, run, summarise
from qwirkle_tools.bots.process import LOG_CAP, BotError, ProcessBot, program
from qwirkle_tools.formats.jsontext import parse_json
from qwirkle_tools.formats.record import Record, from_data
from qwirkle_tools.play.engine import replay

pytestmark = pytest.mark.serial  # it sends signals or times processes: run alone (see the development page)

ROOT = Path(__file__).parents[2]


def records(lines: list[bytes]) -> list[Record]:
    return [from_data(parse_json(line)) for line in lines]


def forfeits(games: list[Record]) -> list[dict[str, object]]:
    return [r.result.extra["x-forfeit"] for r in games if r.result is not None and "x-forfeit" in r.result.extra]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_bot_that_never_says_qbpok_forfeits_every_game(jobs: int) -> None:
    token = f"qwirkle-test-noqbpok-{jobs}-{os.getpid()}"
    games = records(list(run(Match(hostile("noqbpok", token), "greedy", 4, seed=3, handshake_s=0.5), jobs=jobs)))
    assert len(games) == 4
    lost = forfeits(games)
    assert len(lost) == 4 and all(f["code"] == "timeout" and "qbpok" in str(f["reason"]) for f in lost), lost
    assert all(replay(r).findings == () for r in games)
    assert gone(token)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_second_bestmove_is_a_protocol_error_not_the_next_answer(jobs: int) -> None:
    games = records(list(run(Match(hostile("twice"), "greedy", 4, seed=3), jobs=jobs)))
    lost = forfeits(games)
    assert len(lost) == 4 and all(f["code"] == "protocol" and "one bestmove a go" in str(f["reason"]) for f in lost)
    assert all(replay(r).findings == () for r in games)  # (the stale answer was never played)


def test_the_log_of_standard_error_is_capped_per_game_and_marked(tmp_path: Path) -> None:
    logs = tmp_path / "m.jsonl"
    games = records(list(run(Match(hostile("stderr"), "greedy", 2, seed=3, logs=str(logs)))))
    assert forfeits(games) == []  # a chatty bot is no forfeit
    log = Path(f"{logs}.A.log").read_bytes()
    assert len(log) < 2 * (LOG_CAP + 10_000)  # it wrote 3 MiB a move, 40 MiB or more a game
    text = log.decode()
    assert re.findall(r"^--- game (\d), seat (\d) ---$", text, re.M) == [("0", "0"), ("1", "1")]
    assert len(re.findall(r"^\.\.\. cut: [\d,]+ more bytes of standard error in this part", text, re.M)) == 2
    assert text.count("=== ") == 1 and "a run of match games from the first game, player A" in text
    list(run(Match(hostile("stderr"), "greedy", 2, seed=4, logs=str(logs))))  # a second run: appended, marked
    assert Path(f"{logs}.A.log").read_text().count("=== ") == 2
    assert not Path(f"{logs}.B.log").exists()  # greedy writes no log


def test_every_bot_is_told_each_result(tmp_path: Path) -> None:
    told = tmp_path / "told.txt"
    games = records(list(run(Match(hostile("gameover", str(told)), "greedy", 4, seed=2))))
    results = [json.loads(line.split(" ", 1)[1]) for line in told.read_text().splitlines()]
    assert [r.result.to_data() for r in games if r.result is not None] == results
    illegal = tmp_path / "illegal.txt"
    lost = records(list(run(Match(hostile("illegal"), hostile("gameover", str(illegal)), 2, seed=2))))
    said = [json.loads(line.split(" ", 1)[1]) for line in illegal.read_text().splitlines()]
    assert [s["x-forfeit"] for s in said] == forfeits(lost) and all(s["end"] == "unfinished" for s in said)


def test_the_memory_limit_counts_what_a_bot_allocates_not_what_it_reserves(tmp_path: Path) -> None:
    games = records(list(run(Match(hostile("hog"), "greedy", 2, seed=3, memory_mb=256))))
    assert forfeits(games) == []  # 4 GiB refused (MemoryError in the bot), and Python runs in 256 MiB
    node = shutil.which("node")
    assert node is not None, "the tests need Node.js (a runtime that reserves address space)"
    bot = f"cmd:{node} {BOTS / 'nodebot.js'} {PY}"  # node reserves over 512 MiB of address space at start
    games = records(list(run(Match(bot, "greedy", 2, seed=3, memory_mb=256, movetime_ms=5_000))))
    assert forfeits(games) == [], forfeits(games)
    assert all(replay(r).findings == () for r in games)
    assert "node-moves-bot" in games[0].names


def test_a_command_with_an_unbalanced_quote_is_refused() -> None:
    with pytest.raises(BotError, match="cannot split the command: No closing quotation"):
        program("cmd:python 'bot.py")
    with pytest.raises(BotError, match="names no program"):
        ProcessBot("cmd:   ")


def test_a_bot_with_children_leaves_none_behind_with_jobs() -> None:
    token = f"qwirkle-test-spawn-jobs-{os.getpid()}"
    games = records(list(run(Match(hostile("spawn", token), "greedy", 6, seed=4), jobs=2)))
    assert len(games) == 6 and forfeits(games) == []
    assert gone(token)


def test_with_jobs_every_bot_started_is_told_quit(tmp_path: Path) -> None:
    spy = tmp_path / "spy.txt"
    games = records(list(run(Match(hostile("spy", str(spy)), "greedy", 8, seed=6), jobs=2)))
    assert summarise(games).games == 8
    lines = spy.read_text(encoding="utf-8").splitlines()
    started = lines.count("qbp")
    assert started >= 2 and lines.count("quit") == started  # the referee's (for the name) and each worker's


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_with_jobs_an_interrupted_match_tells_every_bot_quit(tmp_path: Path, sig: signal.Signals) -> None:
    spy = tmp_path / "spy.txt"
    referee = subprocess.Popen([PY, "-m", "qwirkle_tools", "match", hostile("spy", str(spy)), "greedy", "--games", "400",
                                "--jobs", "2", "-o", str(tmp_path / "m.jsonl")], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while (not spy.exists() or spy.read_text().count("go movetime") < 20) and time.monotonic() < deadline:
        time.sleep(0.05)
    referee.send_signal(sig)
    _, err = referee.communicate(timeout=60)
    assert referee.returncode in (130, 143), err
    deadline = time.monotonic() + 10  # (the workers end their bots as the referee goes)
    while time.monotonic() < deadline:
        lines = spy.read_text(encoding="utf-8").splitlines()
        if lines.count("quit") == lines.count("qbp"):
            break
        time.sleep(0.05)
    assert lines.count("qbp") >= 2 and lines.count("quit") == lines.count("qbp"), (lines.count("qbp"), lines.count("quit"))
