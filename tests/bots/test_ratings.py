"""Ratings (openskill's Plackett-Luce) from match, tournament, self-play and club records; bad input is one line, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from qwirkle_tools.bots.ratings import Ranked, rate

ROOT = Path(__file__).parents[2]
PY = sys.executable


def qwirkle(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "qwirkle_tools", *args], capture_output=True, text=True, timeout=600, check=False,
                          cwd=ROOT)


def test_greedy_is_rated_above_random_with_intervals_apart(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    assert qwirkle("match", "greedy", "random", "--games", "20", "--seed", "1", "-o", str(out)).returncode == 0
    proc = qwirkle("ratings", str(out), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    first, second = data["players"]
    assert (first["player"], second["player"]) == ("greedy", "random")
    assert first["low"] > second["high"]
    assert first["low"] == pytest.approx(first["rating"] - 1.959964 * first["sigma"])
    assert data["games"] == first["games"] == second["games"] == 20
    assert first["score"] + second["score"] == pytest.approx(1.0)
    assert first["p_beats_next"] > 0.5 and second["p_beats_next"] is None
    text = qwirkle("ratings", str(out))
    assert text.returncode == 0 and text.stdout.splitlines()[0].startswith("20 games rated")
    assert text.stdout.splitlines()[2].split()[:2] == ["1", "greedy"]


def test_self_play_policies_and_club_names_are_rated(tmp_path: Path) -> None:
    corpus = tmp_path / "s.jsonl"
    assert qwirkle("simulate", "--games", "4", "--policy", "greedy,random", "-o", str(corpus)).returncode == 0
    same = tmp_path / "same.jsonl"
    assert qwirkle("simulate", "--games", "2", "--policy", "greedy", "-o", str(same)).returncode == 0
    data = json.loads(qwirkle("ratings", str(corpus), str(same), "sample_games/complete-2p.json", "--format",
                              "json").stdout)
    players = {p["player"] for p in data["players"]}
    assert players == {"greedy", "random", "Ana", "Ben"}  # the policies from the meta, else the players' names
    assert data["games"] == 5 and data["skipped"] == 2  # greedy against itself says nothing


def test_a_forfeit_ranks_last_and_multiplayer_games_are_rated() -> None:
    games = [Ranked.of(["x", "y", "z"], ["a", "b", None], [10, 50, 30], forfeit=1) for _ in range(5)]
    found = rate(games)
    assert [r.player for r in found.ratings] == ["z", "a", "b"]
    assert [r.wins for r in found.ratings] == [5, 0, 0] and found.ratings[1].score == 0.5


def test_bad_inputs_are_one_line_and_exit_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n")
    for args, message in [
        ([str(tmp_path / "missing.jsonl")], "no such file"),
        ([str(broken)], "cannot rate an invalid record"),
        (["sample_games/wrong-scores.json"], "score-mismatch"),
    ]:
        proc = qwirkle("ratings", *args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.count("\n") == 1 and message in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("command", ["tournament", "ratings"])
def test_the_new_commands_have_help_with_an_example(command: str) -> None:
    proc = qwirkle(command, "--help")
    assert proc.returncode == 0 and "Example:" in proc.stdout and f"qwirkle {command}" in proc.stdout


def test_two_players_never_look_the_same_in_ratings_and_standings(tmp_path: Path) -> None:
    specs = []
    for version in ("1", "2"):  # two versions of one bot: the same function name, paths alike for 45 characters
        folder = tmp_path / f"a-folder-of-bots-with-a-long-name-version-{version}"
        folder.mkdir()
        (folder / "bot.py").write_text("def play(view):\n    return view.legal_moves()[-1 if VERSION else 0]\n"
                                       f"VERSION = {version == '1'}\n")
        specs.append(f"{folder / 'bot.py'}:play")
    out = tmp_path / "t.jsonl"
    tournament = subprocess.run([sys.executable, "-m", "qwirkle_tools", "tournament", *specs, "greedy", "--games", "2",
                                 "-o", str(out)], capture_output=True, text=True, check=False)
    assert tournament.returncode == 0, tournament.stderr
    rated = subprocess.run([sys.executable, "-m", "qwirkle_tools", "ratings", str(out)], capture_output=True, text=True,
                           check=False)
    assert rated.returncode == 0, rated.stderr
    for text in (tournament.stdout, rated.stdout):
        names = [line[5:].split("  ")[0] for line in text.splitlines()[2:]]
        assert len(set(names)) == 3 and any(n.endswith("-1/bot.py:play") for n in names), names
        assert all(len(n) <= 40 for n in names), names
