"""The fast path never changes a verdict: clean() is True only when check() finds nothing."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from conftest import simulated

from qwirkle_tools.fastcheck import clean
from qwirkle_tools.record import from_data
from qwirkle_tools.replay import check
from qwirkle_tools.schema import check as schema_check
from qwirkle_tools.schema import fast_validator
from qwirkle_tools.tiles import TILES

NAMES = [str(t) for t in TILES]


def mutate(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One small, schema-valid slip of the kind people and buggy bots make."""
    data = copy.deepcopy(data)
    turns = data["turns"]
    i = rng.randrange(len(turns))
    turn = turns[i]
    kind = rng.randrange(14)
    if kind == 0 and "score" in turn:
        turn["score"] += rng.choice([-1, 1, 6])
    elif kind == 1 and turn.get("rack"):
        turn["rack"][rng.randrange(len(turn["rack"]))] = rng.choice(NAMES)
    elif kind == 2 and turn.get("draw"):
        turn["draw"][rng.randrange(len(turn["draw"]))] = rng.choice(NAMES)
    elif kind == 3 and turn["action"] == "place":
        cell = rng.choice(turn["tiles"])
        cell[rng.choice(["x", "y"])] += rng.choice([-1, 1])
    elif kind == 4 and turn["action"] == "place":
        rng.choice(turn["tiles"])["tile"] = rng.choice(NAMES)
    elif kind == 5:
        del turns[i]
    elif kind == 6:
        turns.insert(i, {"player": turn["player"], "action": "pass"})
    elif kind == 7 and turn.get("draw"):
        turn["draw"].pop()
    elif kind == 8:
        data["result"]["scores"][rng.randrange(len(data["players"]))] += 1
    elif kind == 9:
        data["result"]["end"] = rng.choice(["out", "blocked", "unfinished"])
    elif kind == 10 and i + 1 < len(turns):
        turns[i], turns[i + 1] = turns[i + 1], turns[i]
    elif kind == 11 and turn["action"] == "exchange":
        turn["tiles"].append(rng.choice(NAMES))
    elif kind == 12 and turn["action"] == "place":
        rng.choice(turn["tiles"])[rng.choice(["x", "y"])] *= 1.0
    elif kind == 13:
        turn[rng.choice(["player", "score"])] *= 1.0
    return data


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_clean_games_take_the_fast_path(players: int, seed: int) -> None:
    data = simulated(players, seed, "random")
    assert clean(data) and check(from_data(data)) == []


@pytest.mark.parametrize("seed", range(6))
def test_fast_path_agrees_with_the_full_replay(seed: int) -> None:
    rng = random.Random(seed)
    base = simulated(2 + seed % 3, 20 + seed, "greedy" if seed % 2 else "random")
    flagged = 0
    for _ in range(80):
        data = mutate(base, rng)
        if not fast_validator()(data):  # type: ignore[misc]
            continue
        full = schema_check(data) or check(from_data(data))
        if clean(data):
            assert full == [], [str(f) for f in full]
        else:
            flagged += 1
    assert flagged > 20  # the mutations do bite


def test_fast_path_declines_what_it_does_not_cover() -> None:
    data = simulated(2, 11)
    sheet = copy.deepcopy(data)
    for turn in sheet["turns"]:
        turn.pop("rack", None)
    assert not clean(sheet) and check(from_data(sheet)) == []
    data["setup"] = {"board": []}
    assert not clean(data)
