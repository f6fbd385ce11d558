"""``--turn N`` means one position in every command: the one turn N is played in (the board before it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli as run

from qwirkle_tools.formats.sources import read_record

SAMPLES = Path(__file__).parents[2] / "sample_games"
GAME = SAMPLES / "complete-2p.json"


def board_cells(n: int) -> dict[tuple[int, int], str]:
    """The tiles ``qwirkle board --turn n`` shows, by cell, read off its text diagram."""
    code, out, err = run("board", str(GAME), "--turn", str(n), "--no-colour")
    assert code == 0, err
    header, *rows = out.splitlines()
    xs = [int(x) for x in header.split()]
    cells = {}
    for row in rows:
        y, *marks = row.split()
        for x, mark in zip(xs, marks):
            if mark != "·":
                cells[(x, int(y))] = mark.lstrip("*")
    return cells


@pytest.mark.parametrize("n", [2, 9, 30, 50])
def test_board_and_moves_show_the_same_position(n: int) -> None:
    record = read_record(GAME)
    played = record.turns[n - 1]
    before, after = board_cells(n), board_cells(n + 1)
    placed = {(p.x, p.y) for p in played.tiles or ()}
    assert placed and not placed & set(before) and placed <= set(after)  # turn n's tiles: not yet on board --turn n
    code, out, _ = run("moves", str(GAME), "--turn", str(n), "--format", "json")
    listed = json.loads(out)
    assert code == 0 and listed["turn"] == n
    moves = [{(t["x"], t["y"], t["tile"]) for t in m["tiles"]} for m in listed["moves"]]
    assert all(not {(x, y) for x, y, _ in m} & set(before) for m in moves)  # every move goes on empty cells of it
    assert {(p.x, p.y, str(p.tile)) for p in played.tiles or ()} in moves  # and the move played is one of them


def test_both_helps_say_what_turn_means() -> None:
    for command in ("board", "moves", "endgame"):
        code, out, _ = run(command, "--help")
        assert code == 0 and "position turn N is played in" in " ".join(out.split()), command


def test_the_same_range_in_both() -> None:
    last = len(read_record(GAME).turns) + 1
    for command in ("board", "moves"):
        assert run(command, str(GAME), "--turn", str(last + 1))[0] == 2
        code, _, err = run(command, str(GAME), "--turn", "0")
        assert code == 2 and f"--turn must be 1 to {last}" in err
    code, default, _ = run("board", str(GAME), "--no-colour")
    assert code == 0 and default == run("board", str(GAME), "--turn", str(last), "--no-colour")[1]
