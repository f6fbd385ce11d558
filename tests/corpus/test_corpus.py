"""Corpus rows and statistics: known games, broken lines, order over processes."""

from __future__ import annotations

import json
import math
import os
import random
import statistics
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import game, place, simulated

from qwirkle_tools.corpus.rows import GameRows, game_rows, ordered_map, run, total_bytes
from qwirkle_tools.corpus.stats import Stats, _Spread
from qwirkle_tools.formats.sources import InputError, Source

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "sample_games"


def rows_of(data: Any, analyse: bool = False) -> GameRows:
    return game_rows(Source("g.json", 0, json.dumps(data).encode()), analyse)


def test_the_296_295_game() -> None:
    r = game_rows(Source(str(SAMPLES / "296-295.json"), 0, (SAMPLES / "296-295.json").read_bytes()))
    g = r.game
    assert g is not None
    assert (g["score_0"], g["score_1"], g["winner"], g["winner_seat"], g["margin"]) == (295, 296, "Ben", 1, 1)
    assert (g["turns"], g["placements"], g["exchanges"], g["passes"]) == (64, 62, 2, 0)
    assert g["qwirkles"] == 16 and g["valid"] and g["end"] == "out"
    assert g["lead_changes"] == 1  # Ben trails from turn 1 and takes the lead on the last turn
    assert g["winner_position"] == 2 and g["first_seat"] == 0
    assert sum(t["qwirkles"] for t in r.turns if t["seat"] == 0) == 8
    last = [t for t in r.turns if t["seat"] == 1][-1]
    assert last["cumulative"] == 296 and last["turn"] == 64


def test_turn_rows_of_a_small_game() -> None:
    # Ana 2, Ben 2 (a tie), Ana 3 more, Ben a Qwirkle-free 4: leaders Ana, (tie), Ana, Ben
    data = game(place(0, "rc@0,0 rs@1,0", 2), place(1, "bc@0,1", 2), place(0, "rd@2,0", 3),
                place(1, "bs@1,1 bd@2,1", 7))
    r = rows_of(data)
    assert [(t["seat"], t["position"], t["player"], t["tiles"], t["score"], t["cumulative"]) for t in r.turns] == [
        (0, 1, "Ana", 2, 2, 2), (1, 2, "Ben", 1, 2, 2), (0, 1, "Ana", 1, 3, 5), (1, 2, "Ben", 2, 7, 9)]
    g = r.game
    assert g is not None
    assert g["lead_changes"] == 1 and g["winner"] == "Ben" and g["margin"] == 4 and g["valid"]
    assert g["player_2"] is None and g["score_2"] is None
    assert all(t["qwirkles"] == 0 for t in r.turns)
    assert "best_score" not in r.turns[0]


def test_a_tie_has_no_winner() -> None:
    g = rows_of(game(place(0, "rc@0,0 rs@1,0", 2), place(1, "bc@0,1", 2))).game
    assert g is not None
    assert g["tie"] and g["winner"] is None and g["winner_seat"] is None and g["margin"] == 0


def test_positions_follow_the_turn_order_not_the_seat() -> None:
    data = game(place(1, "rc@0,0 rs@1,0", 2), place(0, "bc@0,1", 2), place(1, "rd@2,0", 3))
    r = rows_of(data)
    assert [t["position"] for t in r.turns] == [1, 2, 1]
    assert r.game is not None and r.game["first_seat"] == 1 and r.game["winner_position"] == 1


def test_qwirkles_counted_per_turn() -> None:
    r = game_rows(Source("d", 0, (SAMPLES / "double-qwirkle.json").read_bytes()))
    by_turn = {t["turn"]: t["qwirkles"] for t in r.turns}
    assert by_turn[28] == 2  # the sample's double Qwirkle


def test_invalid_record_rows_use_replayed_scores() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 5), place(1, "bc@0,1", 2))
    r = rows_of(data)
    assert r.game is not None and not r.game["valid"] and r.game["errors"] == 1
    assert [(t["score"], t["claimed"]) for t in r.turns] == [(2, 5), (2, 2)]
    assert r.problem.startswith("turn 1: score-mismatch:")


def test_unreadable_record_has_no_game_row() -> None:
    r = game_rows(Source("c.jsonl", 3, b'{"format": '))
    assert r.game is None and r.turns == () and r.where == "c.jsonl:3"
    assert r.problem.startswith("json: line 1")
    assert r.finding_rows()[0]["code"] == "json"


def test_analysed_rows() -> None:
    r = rows_of(simulated(seed=4), analyse=True)
    assert all(t["rack"] == "recorded" for t in r.turns)
    assert all(t["points_lost"] == 0 for t in r.turns if t["action"] == "place")  # greedy self-play
    g = r.game
    assert g is not None and g["points_lost"] == 0
    assert g["missed_qwirkles"] == sum(t["missed_qwirkle"] for t in r.turns)


def test_records_with_errors_are_not_analysed() -> None:
    r = rows_of(game(place(0, "rc@0,0 rs@1,0", 5)), analyse=True)
    assert r.game is not None and r.game["points_lost"] is None and "best_score" not in r.turns[0]


def corpus(tmp_path: Path) -> Path:
    lines = (SAMPLES / "corpus-10.jsonl").read_bytes().splitlines(keepends=True)
    broken = [lines[0], b"not json\n", lines[1], b"\n", lines[2][: len(lines[2]) // 2] + b"\n",
              json.dumps(game(place(0, "rc@0,0 rs@1,0", 9))).encode() + b"\n", *lines[3:]]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"".join(broken))
    return path


def test_run_goes_on_past_broken_lines(tmp_path: Path) -> None:
    results = list(run([corpus(tmp_path)]))
    assert len(results) == 12  # the blank line is not a record
    assert [r.where.rsplit(":", 1)[1] for r in results if r.game is None] == ["2", "5"]
    invalid = [r for r in results if r.game is not None and not r.game["valid"]]
    assert [r.where.rsplit(":", 1)[1] for r in invalid] == ["6"]
    stats = Stats()
    for r in results:
        stats.add(r)
    assert (stats.records, stats.unreadable, stats.invalid) == (12, 2, 1)
    assert stats.code_games["json"] == 2 and stats.codes["score-mismatch"] == 1


def test_run_raises_on_a_missing_path(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        list(run([tmp_path / "nope.jsonl"]))


def test_stats_of_the_samples() -> None:
    stats = Stats()
    results = list(run([SAMPLES]))
    for r in results:
        stats.add(r)
    d = stats.to_data()
    games = [r.game for r in results if r.game is not None]
    assert d["games"] == len(games) == 21 and d["invalid"] == 5  # (club-night.qgn has a slip of the pen)
    scores = [g[f"score_{s}"] for g in games for s in range(2)]
    final = d["final_scores"]
    assert isinstance(final, dict)
    assert final["n"] == 42 and final["max"] == max(scores) and final["min"] == min(scores)
    assert final["mean"] == round(statistics.mean(scores), 2)
    rates = d["win_rate_by_position"]
    assert isinstance(rates, dict)
    wins_first = sum(1 for g in games if g["winner_position"] == 1)
    assert rates["2"]["win_rate"][0] == round(wins_first / 21, 4)
    assert "players" not in d and "Player" not in stats.text()


def test_stats_text_with_analysis() -> None:
    stats = Stats()
    for r in run([SAMPLES / "corpus-10.jsonl"], analyse=True):
        stats.add(r)
    text = stats.text()
    assert "Bot 1" in text and "missed Qwirkles" in text and "Cost of a missed Qwirkle" in text
    players = stats.to_data()["players"]
    assert isinstance(players, list) and {p["player"] for p in players} == {"Bot 1", "Bot 2"}
    assert sum(p["games"] for p in players) == 20


def test_spread_matches_the_statistics_module() -> None:
    rng = random.Random(5)
    values = [rng.randint(-50, 400) for _ in range(501)]
    s = _Spread()
    for v in values:
        s.add(v)
    d = s.summary()
    assert d is not None
    assert d["mean"] == round(statistics.mean(values), 2)
    assert math.isclose(d["sd"], round(statistics.stdev(values), 2))
    ordered = sorted(values)
    assert d["median"] == ordered[250] and d["min"] == ordered[0] and d["max"] == ordered[-1]
    assert d["q1"] == ordered[math.ceil(0.25 * 501) - 1]
    assert _Spread().summary() is None


def square(x: int) -> int:
    return x * x


def test_ordered_map_keeps_order_over_processes() -> None:
    assert list(ordered_map(square, range(100), jobs=2, batch=3)) == [x * x for x in range(100)]
    assert list(ordered_map(square, range(5), jobs=1)) == [0, 1, 4, 9, 16]


def test_ordered_map_streams() -> None:
    pulled = 0

    def items() -> Iterator[int]:
        nonlocal pulled
        for i in range(10_000):
            pulled += 1
            yield i

    first = next(iter(ordered_map(square, items(), jobs=2, batch=4)))
    assert first == 0
    assert pulled <= 4 * 3 * 2 + 4  # a few batches in flight, not the whole input


def test_total_bytes(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_bytes(b"x" * 10)
    (tmp_path / "b.jsonl").write_bytes(b"y" * 7)
    (tmp_path / "c.txt").write_bytes(b"z" * 100)
    assert total_bytes([tmp_path]) == 17


def test_a_record_without_players_gives_rows() -> None:
    r = rows_of({"format": "qwirkle-record", "version": 1, "players": [], "turns": [{"player": 0, "action": "pass"}]})
    assert r.game is not None and r.game["players"] == 0 and r.game["winner"] is None and not r.game["valid"]
    assert r.turns[0]["player"] is None and r.turns[0]["position"] is None
    stats = Stats()
    stats.add(r)
    assert "1 record: 1 game read (0 valid, 1 with errors)" in stats.text()


def test_a_record_with_too_many_players_is_summarised() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2), players=6)
    data["players"].append({"name": "Gus"})  # a 7th seat: a schema error, but readable
    r = rows_of(data)
    assert r.game is not None and r.game["players"] == 7 and not r.game["valid"]
    stats = Stats()
    stats.add(r)
    assert stats.scores.n == 7 and "Gus" in stats.players


@pytest.mark.serial
def test_a_run_abandoned_while_its_workers_send_large_answers_lets_the_interpreter_exit(tmp_path: Path) -> None:
    # a worker terminated in the middle of sending its answer left half a message in the pool's pipe,
    # and the pool's reader waited for the rest at the interpreter's exit, for ever (seen: CI's serial step)
    script = tmp_path / "abandon.py"
    script.write_text(
        "from qwirkle_tools.corpus.pool import ordered_map\n"
        "def big(i):\n"
        "    return b'x' * 20_000_000\n"
        "if __name__ == '__main__':\n"
        "    run = ordered_map(big, range(1000), jobs=2, batch=1)\n"
        "    next(run)\n"
        "    run.close()\n"
        "    print('closed', flush=True)\n", encoding="utf-8")
    for _ in range(3):
        proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
        assert (proc.returncode, proc.stdout) == (0, "closed\n"), proc.stderr
