"""Self-play: reproducible lines, and games that end even in a dead position."""

from __future__ import annotations

import json

from qwirkle_tools.analysis.validate import check_data
from qwirkle_tools.core.board import Placement
from qwirkle_tools.core.rules import playable_tile
from qwirkle_tools.core.tiles import COPIES, TILES
from qwirkle_tools.engines.selfplay import game_seed, simulate, simulate_line

DEAD = 100040602  # greedy play builds a 3x6 block of all 18 stars; nothing else can ever be placed


def test_a_dead_position_ends_the_game_blocked() -> None:
    data = simulate(2, DEAD, "greedy")
    assert data["result"]["end"] == "blocked"  # docs/rules.md: a dead position ends the game at once, no bonus
    assert len(data["turns"]) < 200  # it used to exchange until the 10,000-turn cap
    assert check_data(data)[1] == []
    cells = {}
    for turn in data["turns"]:
        for pl in turn.get("tiles", []) if turn["action"] == "place" else []:
            p = Placement.parse(f"{pl['tile']}@{pl['x']},{pl['y']}")
            cells[p.key] = int(p.tile)
    placed = sorted(cells.values())
    left = [t for t in range(len(TILES)) for _ in range(COPIES - placed.count(t))]
    assert playable_tile(cells, left) is None  # truly dead: no tile in the game fits


def test_simulate_line_is_game_i_of_the_seed() -> None:
    line = simulate_line(3, players=3, seed=11, policy="random")
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == simulate(3, game_seed(11, 3), "random")


def test_the_validator_knows_a_dead_position_ends_the_game() -> None:
    data = simulate(2, DEAD, "greedy")
    last = data["turns"][-1]
    after = {"player": 1 - last["player"], "action": "exchange", "count": 1}
    data["turns"].append(after)
    data["result"].pop("scores")
    assert [(f.code, f.turn) for f in check_data(data)[1]] == [("after-end", len(data["turns"]))]
    data["turns"].pop()
    data["result"]["end"] = "unfinished"
    found = check_data(data)[1]
    assert [f.code for f in found] == ["bad-end"] and "no tile left in the game fits anywhere" in found[0].message
