"""Matches of 3 to 6 players and tournaments: rotated deals, records that validate, standings that count the records."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

from qwirkle_tools.bots.match import Match, Played, Tally, run_games, standing
from qwirkle_tools.bots.tournament import Standings, Tournament, run
from qwirkle_tools.formats.record import Record, from_data
from qwirkle_tools.play.engine import replay

BOTS = Path(__file__).parents[1] / "programs"
FUNCBOT = f"{BOTS / 'funcbot.py'}:weakest"
PY = sys.executable


def qwirkle(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "qwirkle_tools", *args], capture_output=True, text=True, timeout=600, check=False)


def assert_deals_rotated(games: list[Record], n: int) -> None:
    """Each deal's games: the same racks by seat, each label once in each seat."""
    for start in range(0, len(games) - n + 1, n):
        deal = games[start:start + n]
        assert {g.meta["pair"] for g in deal} == {deal[0].meta["pair"]}
        assert all(g.turns[0].player == deal[0].turns[0].player and g.turns[0].rack == deal[0].turns[0].rack for g in deal)
        for seat in range(n):
            assert sorted(g.meta[f"label-{seat}"] for g in deal) == [chr(ord("A") + i) for i in range(n)]


def test_standing_ranks_a_forfeit_last_and_shares_ties() -> None:
    assert standing([10, 30, 10]) == (2, 1, 2)
    assert standing([50, 20, 40], forfeit=0) == (3, 2, 1)
    assert standing([7, 7]) == (1, 1)


def test_a_three_player_match_plays_each_deal_in_every_rotation() -> None:
    games = list(run_games(Match("greedy", "random", 7, seed=4, others=(FUNCBOT,))))
    records = [g.record for g in games]
    assert [r.meta["game"] for r in records] == list(range(7)) and len(records[0].players) == 3
    assert all(replay(r).findings == () for r in records)
    assert_deals_rotated(records, 3)
    assert records[6].meta["pair"] == 2 and records[6].meta["label-0"] == "A"  # the last deal's first rotation only
    tally = Tally()
    for game in games:
        tally.add(game)
    summary = tally.summary()
    assert [s.label for s in summary.sides] == ["A", "B", "C"]
    for side in summary.sides:
        seat = [g.seat_of(side.label) for g in games]
        assert side.wins == sum(g.outcome(s) == 1 for g, s in zip(games, seat))
        assert side.games == 7 and side.points == pytest.approx(sum(g.points(s) for g, s in zip(games, seat)))
    assert sum(s.points for s in summary.sides) == pytest.approx(7 * 3 / 2)  # every pair of seats shares a point
    assert summary.a.wins == 7  # greedy beats a random player and the weakest placement


def test_a_three_bot_tournament(tmp_path: Path) -> None:
    bots = ("greedy", "random", FUNCBOT)
    tournament = Tournament(bots, 4, seed=3)
    games = list(run(tournament))
    records = [g.record for g in games]
    assert len(records) == tournament.total == 12
    assert all(replay(r).findings == () for r in records)
    assert [r.meta["round"] for r in records] == [0] * 4 + [1] * 4 + [2] * 4
    assert all(r.meta["event"] == "tournament" for r in records)
    for r, lineup in zip(range(3), combinations(bots, 2)):
        mine = records[4 * r: 4 * r + 4]
        assert_deals_rotated(mine, 2)
        assert {r.meta["bot-0"] for r in mine} == set(lineup)
    assert records[0].turns[0].rack == records[4].turns[0].rack  # every round plays the same deals
    standings = Standings()
    for game in games:
        standings.add(game)
    by_spec = {s.spec: s for s in standings.sides()}
    for spec in bots:
        seats = [(g, g.specs.index(spec)) for g in games if spec in g.specs]
        assert by_spec[spec].games == len(seats) == 8
        assert by_spec[spec].wins == sum(g.outcome(s) == 1 for g, s in seats)
        assert by_spec[spec].forfeits == sum(g.forfeit == s for g, s in seats)
    assert [s.spec for s in standings.sides()][0] == "greedy"


def test_a_four_player_tournament_plays_every_combination() -> None:
    tournament = Tournament(("greedy", "random", FUNCBOT, f"{BOTS / 'funcbot.py'}:as_text"), 4, players=4)
    games = list(run(tournament))
    assert len(games) == 4 and len(games[0].labels) == 4
    assert_deals_rotated([g.record for g in games], 4)
    assert all(replay(g.record).findings == () for g in games)


def test_a_played_game_keeps_its_facts() -> None:
    game = next(run_games(Match("greedy", "random", 1, seed=2)))
    assert Played.of(game.record) == game
    with pytest.raises(ValueError, match="not a match record"):
        Played.of(from_data({**json.loads(game.line), "meta": {}}))


def test_bad_tournaments_are_refused() -> None:
    with pytest.raises(ValueError, match="named twice"):
        Tournament(("greedy", "greedy"), 2)
    with pytest.raises(ValueError, match="at least 3 bots"):
        Tournament(("greedy", "random"), 2, players=3)


def test_the_tournament_command(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    proc = qwirkle("tournament", "greedy", "random", FUNCBOT, "--games", "2", "--seed", "1", "-o", str(out),
                   "--format", "json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    lines = out.read_text().splitlines()
    assert data["games"] == len(lines) == 6 and [b["spec"] for b in data["bots"]][0] == "greedy"
    assert sum(b["wins"] + b["draws"] + b["losses"] for b in data["bots"]) == 12
    text = qwirkle("tournament", "greedy", "random", "--games", "2", "-o", str(out), "--force")
    assert text.returncode == 0 and text.stdout.splitlines()[0].startswith("2 games of 2 players between 2 bots")
    for args, message in [
        (["greedy", "greedy"], "named twice"),
        (["greedy", "random", "--players", "3"], "at least 3 bots"),
        (["greedy", "nobody"], "unknown player 'nobody'"),
    ]:
        bad = qwirkle("tournament", *args, "-o", str(tmp_path / "bad.jsonl"))
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and message in bad.stderr, bad.stderr
        assert not (tmp_path / "bad.jsonl").exists()


def test_match_with_more_players(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    proc = qwirkle("match", "greedy", "random", "--players", "3", "--games", "3", "-o", str(out), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    records = [from_data(json.loads(line)) for line in out.read_text().splitlines()]
    assert [p["label"] for p in summary["players"]] == ["A", "B", "C"]
    assert all(sorted(r.meta[f"bot-{s}"] for s in range(3)) == ["greedy", "random", "random"] for r in records)
    assert all(replay(r).findings == () for r in records)
    wins = 0
    for r in records:
        assert r.result is not None and r.result.scores is not None
        a = [r.meta[f"label-{s}"] for s in range(3)].index("A")
        wins += all(r.result.scores[a] > score for s, score in enumerate(r.result.scores) if s != a)
    assert summary["players"][0]["wins"] == wins
    bad = qwirkle("match", "greedy", "random", "--players", "3", "--sprt", "0,10", "-o", str(out), "--force")
    assert bad.returncode == 2 and "for two players" in bad.stderr


def test_a_tournament_into_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    proc = qwirkle("tournament", "greedy", "random", "--games", "2", "-o", str(folder), "--no-progress",
                   "--format", "json")
    assert proc.returncode == 0, proc.stderr
    games = [from_data(json.loads(line)) for line in (folder / "games.jsonl").read_text().splitlines()]
    assert len(games) == 2 and all(not replay(g).findings for g in games)
    assert {row["games"] for row in json.loads(proc.stdout)["bots"]} == {2}
    again = qwirkle("tournament", "greedy", "random", "--games", "2", "-o", str(folder), "--no-progress")
    assert again.returncode == 2 and "already exists" in again.stderr  # nothing overwritten unless asked
    (tmp_path / "file").write_text("x")
    for where, said in [(tmp_path / "file", "not a folder"), (tmp_path / "no" / "such", "cannot make the folder")]:
        proc = qwirkle("tournament", "greedy", "random", "--games", "2", "-o", str(where), "--no-progress")
        assert proc.returncode == 2 and said in proc.stderr and len(proc.stderr.splitlines()) == 1, proc.stderr
