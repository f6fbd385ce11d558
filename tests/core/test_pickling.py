"""Every value class of a compiled module pickles and copies as itself, in the build that runs."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path
from typing import Any

import pytest

from qwirkle_tools import Game, loads, replay
from qwirkle_tools.analysis.analyse import analyse
from qwirkle_tools.core.board import Board
from qwirkle_tools.core.movegen import Cutoff
from qwirkle_tools.core.pickling import rebuilt
from qwirkle_tools.core.rules import DEFAULT_RULES, Rules, judge
from qwirkle_tools.engines import lookahead, simulation
from qwirkle_tools.engines.leaves import default

SAMPLES = Path(__file__).parent.parent.parent / "sample_games"


def values() -> dict[str, Any]:
    game = Game.deal(3, seed=4)
    move = game.legal_moves()[0]
    history = replay(loads((SAMPLES / "296-295.json").read_bytes()))
    return {"rules": Rules(qwirkle_bonus=12), "move": move, "board": game.board, "view": game.view(1),
            "judgement": judge(Board(), list(move.tiles)), "breakdown": judge(Board(), list(move.tiles)).score,
            "history": history, "state": history.initial, "turn": list(history)[3], "game": game,
            "sim settings": simulation.Settings(iterations=7), "lookahead settings": lookahead.Settings(),
            "cutoff": Cutoff(most=5), "leaves": default(), "analysis": analyse(history.record)}


@pytest.mark.parametrize("name", sorted(values()))
def test_a_value_pickles_and_copies_as_itself(name: str) -> None:
    value = values()[name]
    for twin in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value), copy.copy(value)):
        assert type(twin) is type(value)
        if name == "game":  # (a game compares by identity: its position, and that it plays on alike)
            assert (twin.board, twin.racks, twin.scores, twin.legal_moves()) == (value.board, value.racks, value.scores,
                                                                                 value.legal_moves())
        elif name == "history":
            assert [repr(turn) for turn in twin] == [repr(turn) for turn in value]
        else:
            assert repr(twin) == repr(value)
        if name not in ("game", "history", "turn", "cutoff", "analysis"):  # (those compare by identity)
            assert twin == value


def test_rebuilt_gives_the_class_and_every_field() -> None:
    assert rebuilt(DEFAULT_RULES)[0] is Rules
    assert rebuilt(DEFAULT_RULES)[0](*rebuilt(DEFAULT_RULES)[1]) == DEFAULT_RULES
