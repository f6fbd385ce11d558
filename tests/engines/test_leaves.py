"""Leave values: the features of kept tiles on hand-built boards, the bag's taper, the shipped model."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from qwirkle_tools.core.board import Placement
from qwirkle_tools.core.tiles import parse_tiles
from qwirkle_tools.engines.leaves import FEATURES, ZERO, Leaves, Terms, default, features


def cells_of(text: str) -> dict[int, int]:
    return {p.key: int(p.tile) for p in map(Placement.parse, text.split())}


def tiles(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text.split())]


def only(**weights: float) -> Leaves:
    return Leaves(tuple(weights.get(f, 0.0) for f in FEATURES))


FIVE_REDS = cells_of("rc@0,0 rx@1,0 rd@2,0 rs@3,0 rt@4,0")  # a row of five reds: the red clover makes it a Qwirkle
EMPTY_BOARD: dict[int, int] = {}


def named(kept: str, cells: dict[int, int]) -> dict[str, int]:
    return dict(zip(FEATURES, features(tiles(kept), Terms.of(cells))))


def test_features_count_duplicates_pairs_and_kept_tiles() -> None:
    f = named("rc rc rx bs", EMPTY_BOARD)
    # rc twice (one duplicate); rc-rx share red, rc-bs and rx-bs share nothing
    assert (f["kept"], f["duplicate"], f["pair"], f["five"], f["dead"]) == (4, 1, 1, 0, 0)
    assert named("bc bx bd", EMPTY_BOARD)["pair"] == 3  # three blues: every pair shares the colour
    assert named("", EMPTY_BOARD) == dict.fromkeys(FEATURES, 0)


def test_a_kept_tile_that_completes_an_open_five_counts_once() -> None:
    assert named("rl rl bs", FIVE_REDS)["five"] == 1  # the red clover (twice: counted once) fits the five's ends
    assert named("bs gs", FIVE_REDS)["five"] == 0
    closed = FIVE_REDS | cells_of("rl@5,0")  # made six: no five is left open
    assert named("rl", closed)["five"] == 0


def test_a_kept_tile_no_empty_cell_accepts_is_dead() -> None:
    one = cells_of("rc@0,0")
    assert named("rc bs gc", one)["dead"] == 2  # rc: a second red circle may not join; bs shares nothing with rc
    assert named("rx bc", one)["dead"] == 0


def test_a_leave_with_a_duplicate_is_valued_below_the_same_leave_without_it() -> None:
    model = default()
    board = cells_of("gc@0,0 gx@1,0")
    assert model.value(tiles("rc rc bs"), board, 40) < model.value(tiles("rc yd bs"), board, 40)
    assert model.value(tiles("rc rc"), board, 40) < model.value(tiles("rc rx"), board, 40)


def test_the_shipped_model_likes_pairs_and_open_fives_and_dislikes_dead_tiles() -> None:
    model = default()
    assert model.value(tiles("rc rx"), EMPTY_BOARD, 40) > model.value(tiles("rc bx"), EMPTY_BOARD, 40)
    assert model.value(tiles("rl bs"), FIVE_REDS, 40) > model.value(tiles("bl bs"), FIVE_REDS, 40)
    one = cells_of("rc@0,0")
    assert model.value(tiles("bs"), one, 40) < model.value(tiles("rs"), one, 40)


def test_the_leave_counts_less_as_the_bag_empties_and_nothing_once_it_is_empty() -> None:
    model = Leaves(only(duplicate=-4.0).weights, taper=8.0)
    kept = tiles("rc rc")
    assert model.value(kept, EMPTY_BOARD, 20) == -4.0
    assert model.value(kept, EMPTY_BOARD, 4) == -2.0
    assert model.value(kept, EMPTY_BOARD, 0) == 0.0
    assert Leaves(model.weights).value(kept, EMPTY_BOARD, 1) == -4.0  # taper 0: in full while any tile is left
    assert default().value(kept, FIVE_REDS, 0) == 0.0


def test_one_boards_valuer_agrees_with_value() -> None:
    model = default()
    valued = model.on(FIVE_REDS)
    for kept in ("", "rl", "rc rc bs", "rl gs gx yd", "bs bs bs bl bx"):
        for bag in (0, 3, 50):
            assert valued(tiles(kept), bag) == pytest.approx(model.value(tiles(kept), FIVE_REDS, bag))
    assert ZERO.value(tiles("rc rc bs"), FIVE_REDS, 50) == 0.0


def test_the_model_reads_back_what_it_writes_and_refuses_a_bad_file() -> None:
    model = Leaves((1.0, -2.0, 0.5, 3.0, -1.0), taper=6.0, exchange=-4.0, source="test")
    assert Leaves.from_data(json.loads(json.dumps(model.to_data()))) == model
    with pytest.raises(ValueError, match="names the features"):
        Leaves.from_data({"features": {"kept": 1.0}})
    with pytest.raises(ValueError, match="numbers"):
        Leaves.from_data({"features": dict.fromkeys(FEATURES, "x")})
    with pytest.raises(ValueError, match="weights"):
        Leaves((1.0,))
    with pytest.raises(ValueError, match="taper"):
        Leaves(taper=-1.0)


def test_the_default_model_is_read_once_from_the_package_data() -> None:
    assert default() is default()
    assert default() != ZERO and default().source.startswith("tools/fit_leaves.py")


def test_the_fitting_script_is_reproducible_and_writes_a_model(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[2] / "tools" / "fit_leaves.py"
    outs = [tmp_path / "a.json", tmp_path / "b.json"]
    for out in outs:
        done = subprocess.run([sys.executable, str(script), "--games", "6", "--rounds", "2", "--seed", "3", "-o", str(out)],
                              capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
    assert outs[0].read_bytes() == outs[1].read_bytes()
    model = Leaves.from_data(json.loads(outs[0].read_text()))
    assert model != ZERO and "--seed 3" in model.source
    bad = subprocess.run([sys.executable, str(script), "--only", "dupes", "-o", str(tmp_path / "c.json")],
                         capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and "unknown feature 'dupes'" in bad.stderr and not (tmp_path / "c.json").exists()
