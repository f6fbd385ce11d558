"""The games table's bot, seed and forfeit columns, and stats' wins by player and by bot or policy."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from qwirkle_tools.bots.match import Match, run, summarise
from qwirkle_tools.corpus.rows import run as rows
from qwirkle_tools.corpus.stats import Stats
from qwirkle_tools.engines.selfplay import game_seed
from qwirkle_tools.formats.jsontext import parse_json
from qwirkle_tools.formats.record import from_data

ROOT = Path(__file__).parents[2]
HOSTILE = Path(__file__).parents[1] / "programs" / "hostile.py"
PY = sys.executable


def test_the_games_table_names_each_seats_bot_and_the_seed(tmp_path: Path) -> None:
    match = tmp_path / "m.jsonl"
    match.write_bytes(b"".join(run(Match("greedy", "random", 2, seed=7))))
    corpus = tmp_path / "s.jsonl"
    subprocess.run([PY, "-m", "qwirkle_tools", "simulate", "--games", "1", "--players", "3", "--seed", "4",
                    "--policy", "random,greedy,lookahead", "-o", str(corpus)], check=True, capture_output=True)
    games = [r.game for r in rows([match, corpus, ROOT / "sample_games" / "complete-2p.json"])]
    assert all(g is not None for g in games)
    assert [(g["bot_0"], g["bot_1"], g["bot_2"], g["seed"]) for g in games if g is not None] == [
        ("greedy", "random", None, 7), ("random", "greedy", None, 7), ("random", "greedy", "lookahead", game_seed(4, 0)),
        (None, None, None, None)]
    assert all(g is not None and g["forfeit_seat"] is None for g in games)


def test_a_forfeit_is_in_the_table(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    out.write_bytes(b"".join(run(Match(f"cmd:{PY} {HOSTILE} exit", "greedy", 2, seed=1))))
    for line, found in zip(out.read_bytes().splitlines(), rows([out])):
        record = from_data(parse_json(line))
        seat = [record.meta[f"label-{s}"] for s in (0, 1)].index("A")
        assert found.game is not None and found.game["forfeit_seat"] == seat
        assert found.game["winner_seat"] == 1 - seat  # the forfeit loses, whatever the scores (even with no turn)
        assert not found.game["tie"]


def test_stats_counts_wins_by_player_and_by_bot(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    out.write_bytes(b"".join(run(Match("greedy", "random", 4, seed=2))))
    records = [from_data(parse_json(line)) for line in out.read_bytes().splitlines()]
    summary = summarise(records)
    proc = subprocess.run([PY, "-m", "qwirkle_tools", "stats", str(out), "--format", "json"], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert {b["name"]: (b["games"], b["wins"]) for b in data["wins_by_bot"]} == {
        "greedy": (4, summary.a.wins), "random": (4, summary.b.wins)}
    assert {p["name"]: (p["games"], p["wins"]) for p in data["wins_by_player"]} == {
        "greedy": (4, summary.a.wins), "random": (4, summary.b.wins)}
    text = subprocess.run([PY, "-m", "qwirkle_tools", "stats", str(out)], capture_output=True, text=True,
                          check=False).stdout
    assert "Wins by player" in text and "Wins by bot or policy" in text
    parts = [Stats() for _ in range(2)]
    for i, result in enumerate(rows([out])):
        parts[i % 2].add(result)
    whole = Stats()
    for result in rows([out]):
        whole.add(result)
    assert parts[0].merge(parts[1]).to_data() == whole.to_data()
