"""Matches: paired deals, records that validate, forfeits of hostile bots, the summary, SPRT."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from processes import BOTS, PY, gone, hostile, wait_for

from qwirkle_tools.bots.match import Match, ResumeError, Sprt, format_summary, outcome, resumed, run, run_games, summarise, wilson
from qwirkle_tools.formats.jsontext import parse_json
from qwirkle_tools.formats.record import Record, from_data
from qwirkle_tools.play.engine import replay

ROOT = Path(__file__).parents[2]


def records(lines: list[bytes]) -> list[Record]:
    return [from_data(parse_json(line)) for line in lines]


def assert_pairs_dealt_alike(games: list[Record]) -> None:
    for first, second in zip(games[::2], games[1::2]):
        assert first.meta["pair"] == second.meta["pair"]
        assert first.names == tuple(reversed(second.names))
        assert first.turns[0].player == second.turns[0].player  # the same racks by seat: the same starter
        assert first.turns[0].rack == second.turns[0].rack


def assert_summary_counts_the_records(games: list[Record]) -> None:
    summary = summarise(games)
    wins_a = sum(outcome(r, [r.meta[f"label-{s}"] for s in (0, 1)].index("A")) == 1 for r in games)
    wins_b = sum(outcome(r, [r.meta[f"label-{s}"] for s in (0, 1)].index("B")) == 1 for r in games)
    forfeits = [r.result.extra["x-forfeit"] for r in games if r.result is not None and "x-forfeit" in r.result.extra]
    assert summary.games == len(games)
    assert (summary.a.wins, summary.b.wins) == (wins_a, wins_b)
    assert summary.a.wins + summary.a.draws + summary.a.losses == len(games)
    assert summary.a.forfeits + summary.b.forfeits == len(forfeits)


@pytest.mark.slow
def test_the_example_bot_plays_greedy_on_paired_deals(tmp_path: Path) -> None:
    example = f"cmd:{PY} {ROOT / 'examples' / 'moves_bot.py'}"
    games = records(list(run(Match(example, "greedy", 2, seed=5, logs=str(tmp_path / "m")))))
    assert len(games) == 2 and all(replay(r).findings == () for r in games)
    assert "moves-bot" in games[0].names
    assert all("x-forfeit" not in r.result.extra for r in games if r.result is not None)
    assert_pairs_dealt_alike(games)
    assert_summary_counts_the_records(games)


def test_a_function_bot_plays_the_lookahead_engine() -> None:
    spec = f"{BOTS / 'funcbot.py'}:weakest"
    games = records(list(run(Match(spec, "lookahead", 4, seed=2))))
    assert [r.meta["game"] for r in games] == [0, 1, 2, 3]
    assert all(replay(r).findings == () for r in games)
    assert_pairs_dealt_alike(games)
    assert_summary_counts_the_records(games)
    summary = summarise(games)
    assert summary.b.wins == 4  # the weakest placement every turn loses to the engine


def test_the_same_seed_gives_the_same_games_with_any_jobs() -> None:
    one = list(run(Match("greedy", "random", 6, seed=9)))
    two = list(run(Match("greedy", "random", 6, seed=9), jobs=2))
    assert one == two
    other = list(run(Match("greedy", "random", 6, seed=10)))
    assert other != one


def test_an_odd_number_of_games_plays_the_last_pair_once() -> None:
    games = records(list(run(Match("greedy", "random", 3, seed=1))))
    assert [r.meta["game"] for r in games] == [0, 1, 2]


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize(("function", "code", "reason"), [
    ("broken", "error", "RuntimeError: this bot has a bug"),
    ("malformed", "garbage", "answered a malformed Move (AttributeError writing it)"),
    ("wrong_action", "garbage", "answered a malformed Move (its fields are not the move 'pass' it writes)"),
    ("exits", "error", "called sys.exit(0) while choosing its move"),
])
def test_a_python_player_that_fails_forfeits_each_game(function: str, code: str, reason: str, jobs: int) -> None:
    games = records(list(run(Match(f"{BOTS / 'funcbot.py'}:{function}", "greedy", 4), jobs=jobs)))
    assert len(games) == 4
    for r in games:
        assert r.result is not None
        forfeit = r.result.extra["x-forfeit"]
        assert forfeit["code"] == code and reason in forfeit["reason"], forfeit
        assert replay(r).findings == ()


def test_a_function_that_answers_text() -> None:
    text = records(list(run(Match(f"{BOTS / 'funcbot.py'}:as_text", "random", 2))))
    assert all("x-forfeit" not in r.result.extra for r in text if r.result is not None)


@pytest.mark.parametrize(("mode", "code", "reason"), [
    ("sleep", "timeout", "sent no bestmove in time"),
    ("exit", "exited", "exited with code 3"),
    ("garbage", "garbage", "not UTF-8"),
    ("nonsense", "garbage", "bad move 'zz@1,two'"),
    ("illegal", "illegal", "played rc@500,500: "),
    ("flood", "flood", "printed more than 1,048,576 bytes"),
    ("longline", "flood", "a line of more than 65,536 bytes"),
])
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_hostile_bot_forfeits_each_game_and_the_match_goes_on(mode: str, code: str, reason: str, jobs: int) -> None:
    token = f"qwirkle-test-{mode}-{jobs}-{os.getpid()}"
    games = records(list(run(Match(hostile(mode, token), "greedy", 4, seed=3, movetime_ms=100, grace_ms=300), jobs=jobs)))
    assert len(games) == 4
    for r in games:
        assert r.result is not None and r.result.end == "unfinished"
        forfeit = r.result.extra["x-forfeit"]
        assert forfeit["code"] == code and reason in forfeit["reason"], forfeit
        assert r.meta[f"label-{forfeit['seat']}"] == "A"
        assert replay(r).findings == ()
    summary = summarise(games)
    assert (summary.a.forfeits, summary.a.losses, summary.b.wins) == (4, 4, 4)
    assert gone(token)


def test_a_bot_that_ignores_quit_and_its_children_are_gone_when_the_match_ends() -> None:
    for mode in ("deaf", "spawn"):
        token = f"qwirkle-test-{mode}-{os.getpid()}"
        games = records(list(run(Match(hostile(mode, token), "greedy", 2, seed=4))))
        assert all("x-forfeit" not in r.result.extra for r in games if r.result is not None)
        assert all(replay(r).findings == () for r in games)
        assert gone(token)


def test_a_bot_learns_nothing_hidden_through_the_protocol(tmp_path: Path) -> None:
    spy = tmp_path / "spy.txt"
    games = records(list(run(Match(hostile("spy", str(spy)), "greedy", 2, seed=6))))
    lines = spy.read_text(encoding="utf-8").splitlines()
    positions = [json.loads(line[len("position "):]) for line in lines if line.startswith("position ")]
    racks = [line.split()[1:] for line in lines if line.startswith("rack ")]
    seats = [int(line.split()[-1]) for line in lines if line.startswith("newgame")]
    assert len(positions) == len(racks) > 20 and len(seats) == 2
    game_of = [0] * len(positions)
    boundary = next(i for i in range(1, len(positions)) if len(positions[i]["turns"]) < len(positions[i - 1]["turns"]))
    for i in range(boundary, len(positions)):
        game_of[i] = 1
    for position, rack, g in zip(positions, racks, game_of):
        seat = seats[g]
        assert "result" not in position and "setup" not in position
        for turn in position["turns"]:
            if turn["player"] != seat:
                assert "rack" not in turn and "draw" not in turn, turn
                if turn["action"] == "exchange":
                    assert "tiles" not in turn
        full = games[g].turns[len(position["turns"])]
        assert full.player == seat and [t.short for t in full.rack or ()] == rack


@pytest.mark.serial
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_referee_interrupted_or_killed_leaves_no_bot_and_keeps_the_finished_games(tmp_path: Path, jobs: str) -> None:
    for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -9)):
        token = f"qwirkle-test-killed-{jobs}-{sig}-{os.getpid()}"  # the bot's child holds it too
        out = tmp_path / f"m{sig}.jsonl"
        referee = subprocess.Popen([PY, "-X", "faulthandler", "-m", "qwirkle_tools", "match", hostile("spawn", token),
                                    "greedy", "--games", "5000", "--jobs", jobs, "-o", str(out)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for(token, 2, alive=referee)  # the referee and its bot
        deadline = time.monotonic() + 60
        while (not out.exists() or out.read_bytes().count(b"\n") < 2) and time.monotonic() < deadline:
            time.sleep(0.05)  # some games finished, others under way
        referee.send_signal(sig)
        _, err = referee.communicate(timeout=60)
        assert referee.returncode == code, err
        if sig != signal.SIGKILL:
            assert err.strip().splitlines()[-1] in ("qwirkle: interrupted", "qwirkle: terminated"), err
            assert "Traceback" not in err
        assert gone(token), f"{sig.name}, --jobs {jobs}: the bot's group outlived the referee"
        kept = records([line.encode() for line in out.read_text().splitlines()])  # every line a whole game
        assert len(kept) >= 1 and [r.meta["game"] for r in kept] == list(range(len(kept)))
        if sig != signal.SIGKILL:
            assert f"keeps the {len(kept):,} games finished" in err
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(f"m{sig}.")) == \
            [f"m{sig}.jsonl", f"m{sig}.jsonl.A.log"]  # no temporary file


def test_an_interrupted_match_resumed_gives_the_same_games(tmp_path: Path) -> None:
    whole = list(run(Match("greedy", "random", 9, seed=5)))
    match = Match("greedy", "random", 9, seed=5)
    for cut in (0, 3, 4, 8, 9):  # within a deal, at its end, all of them
        done = resumed(match, whole[:cut])
        rest = [game.line for game in run_games(match, done=done)]
        assert whole[:cut] + rest == whole, cut
    three = Match("greedy", "random", 7, seed=5, others=("greedy",))
    everything = list(run(three))
    assert everything[:4] + [g.line for g in run_games(three, done=resumed(three, everything[:4]))] == everything
    with pytest.raises(ResumeError, match="line 1: its game has seed 5, not this match's game 0 \\(6\\)"):
        resumed(Match("greedy", "random", 9, seed=6), whole[:2])
    with pytest.raises(ResumeError, match="line 1: its game has bot-0 'greedy', not this match's game 0 \\('random'\\)"):
        resumed(Match("random", "greedy", 9, seed=5), whole[:1])
    with pytest.raises(ResumeError, match="line 2: its game has game 0, not this match's game 1 \\(1\\)"):
        resumed(match, [whole[0], whole[0]])
    with pytest.raises(ResumeError, match="line 3 is not a record"):
        resumed(match, [*whole[:2], b"{not json\n"])
    with pytest.raises(ResumeError, match="more games than the 2"):
        resumed(Match("greedy", "random", 2, seed=5), whole[:3])


def test_the_summary_and_its_intervals() -> None:
    games = records(list(run(Match("greedy", "random", 8, seed=1))))
    summary = summarise(games)
    assert summary.a.name == "greedy" and summary.b.name == "random"
    assert summary.pairs_won + summary.pairs_split + summary.pairs_lost == 4
    assert summary.rate_low <= summary.rate <= summary.rate_high
    assert summary.margin_low <= summary.margin <= summary.margin_high
    text = format_summary(summary)
    assert text.splitlines()[0] == "8 games: greedy (A) against random (B)"
    assert "95% interval" in text
    assert summarise(records(list(run(Match("greedy", "greedy", 2))))).a.name == "greedy (A)"


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_sprt_decides_and_stops_the_match() -> None:
    test = Sprt(0, 200)
    assert test.decide([1.0] * 40) == "H1" and test.decide([0.0] * 40) == "H0" and test.decide([1.0, 0.0]) is None
    low, high = test.bounds
    assert low == pytest.approx(-2.944, abs=1e-3) and high == pytest.approx(2.944, abs=1e-3)
    games = list(run(Match("greedy", "random", 200, seed=1), sprt=Sprt(0, 200)))
    assert 2 <= len(games) < 200 and len(games) % 2 == 0
    with pytest.raises(ValueError, match="ELO0 < ELO1"):
        Sprt(10, 0)
    with pytest.raises(ValueError, match="two numbers"):
        Sprt.parse("ten")


def test_the_summary_shows_a_bots_name_as_one_clean_line() -> None:
    from dataclasses import replace

    games = records(list(run(Match("greedy", "random", 2, seed=1))))
    summary = summarise(games)
    named = replace(summary, a=replace(summary.a, name="evil\x1b[2J\nbot"))  # a name a program chose: `id name ...`
    text = format_summary(named)
    assert "\x1b" not in text and "evil\\x1b[2J\\nbot" in text.splitlines()[0]
    assert len(text.splitlines()) == len(format_summary(summary).splitlines())
