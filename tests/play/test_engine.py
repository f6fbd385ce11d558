"""Replay: every bookkeeping finding on small records, and whole games."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from conftest import findings, game, place, run_on_the_pure_build, simulated

from qwirkle_tools.analysis.validate import check_data
from qwirkle_tools.core.tiles import COPIES, TILES, Tile
from qwirkle_tools.formats.record import from_data, placement_data
from qwirkle_tools.formats.schema import check as schema_check
from qwirkle_tools.play.engine import IllegalMoveError, Replay, check, replay


def states(data: dict[str, Any]) -> list[Any]:
    return [r.state for r in replay(from_data(data))]


# -- whole games ---------------------------------------------------------------

@pytest.mark.parametrize(("players", "seed", "policy"), [
    (2, 1, "greedy"), (2, 2, "random"), (3, 3, "greedy"), (4, 4, "random"), (6, 5, "greedy"),
])
def test_simulated_games_replay_clean_and_reproduce_their_scores(players: int, seed: int, policy: str) -> None:
    data = simulated(players, seed, policy)
    record = from_data(data)
    assert check(record) == []
    assert list(replay(record).totals) == data["result"]["scores"]
    results = list(replay(record))
    assert [r.points for r in results] == [t["score"] for t in data["turns"]]
    last = results[-1].state
    if data["result"]["end"] == "out":
        assert last.ended == "out" and last.bag == 0 and 0 in last.rack_sizes
    assert sum(len(t.get("tiles", ())) for t in data["turns"] if t["action"] == "place") == len(last.board)


def test_state_tracks_bag_racks_and_board() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2, rack="rc rs bd yx gl pt", draw="oc ox"))
    before = replay(from_data(data)).initial
    assert before.bag == 108 - 12 and before.rack_sizes == (6, 6) and before.racks == (None, None)
    after = states(data)[0]
    assert after.bag == 94
    assert [str(t) for t in after.racks[0] or ()] == ["blue-diamond", "yellow-cross", "green-clover",
                                                      "purple-star", "orange-circle", "orange-cross"]
    assert after.racks[1] is None and after.rack_sizes == (6, 6)
    assert after.scores == (2, 0) and len(after.board) == 2


def test_score_sheet_only_game_is_valid_and_totals_the_claims() -> None:
    data = game(place(0, score=3), {"player": 1, "action": "exchange", "count": 2},
                place(0, score=12), place(1, score=7), result={"scores": [15, 7]})
    assert findings(data) == []
    data["result"]["scores"] = [15, 8]
    assert findings(data) == [("result-mismatch", None)]


def test_turn_score_includes_end_bonus_when_player_goes_out() -> None:
    data = simulated(2, 7)
    last = data["turns"][-1]
    assert data["result"]["end"] == "out"
    last["score"] -= 6
    found = check_data(data)[1]
    assert [(f.code, f.turn, f.pointer) for f in found][:1] == [
        ("score-mismatch", len(data["turns"]), f"/turns/{len(data['turns']) - 1}/score")]
    assert "6(end)" in found[0].message


# -- placement findings come through with their pointer --------------------------

def test_placement_findings_carry_turn_and_pointer() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2), place(1, "bt@3,0 bx@3,1", 0))
    found = check_data(data)[1]
    assert [(f.code, f.turn, f.pointer) for f in found] == [("not-connected", 2, "/turns/1/tiles")]
    data = game(place(0, "rc@0,0 rs@1,0", 2), place(1, "bs@1,0", 2))
    assert [(f.code, f.pointer) for f in check_data(data)[1]] == [("cell-occupied", "/turns/1/tiles/0")]


def test_illegal_move_claimed_score_is_not_compared_but_counts() -> None:
    # red-circle, red-square, then a blue-cross on the row: mixed line of 3
    data = game(place(0, "rc@0,0 rs@1,0", 2), place(1, "bx@2,0", 99), result={"scores": [2, 3]})
    assert findings(data) == [("line-mixed", 2)]


def test_line_left_invalid_earlier_is_not_blamed_again() -> None:
    data = game(place(0, "rc@0,0 bx@1,0", 2), place(1, "rs@-1,0", 3))
    assert findings(data) == [("line-mixed", 1)]


# -- racks, draws, the bag --------------------------------------------------------

def test_tile_not_in_rack() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2, rack="rc rx bd yx gl pt"))
    found = check_data(data)[1]
    assert [(f.code, f.pointer) for f in found] == [("tile-not-in-rack", "/turns/0/tiles/1")]
    assert "red-square" in found[0].message


def test_rack_continuity() -> None:
    ok = game(place(0, "rc@0,0 rs@1,0", 2, rack="rc rs bd yx gl pt", draw="oc ox"),
              place(1, "rx@0,1", 2),
              place(0, "ox@-1,1", 2, rack="bd yx gl pt oc ox"))
    assert findings(ok) == []
    ok["turns"][2]["rack"] = ["blue-diamond", "yellow-cross", "green-clover", "purple-star", "red-star", "orange-cross"]
    assert findings(ok) == [("rack-mismatch", 3)]
    ok["turns"][2]["rack"] = ok["turns"][2]["rack"][1:]
    assert findings(ok) == [("rack-mismatch", 3)]


def test_draw_count() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2, rack="rc rs bd yx gl pt", draw="oc"))
    found = check_data(data)[1]
    assert [(f.code, f.pointer) for f in found] == [("draw-count", "/turns/0/draw")]
    data = game(place(0, "rc@0,0 rs@1,0", 2, draw="oc ox yd"))
    assert findings(data) == [("draw-count", 1)]


def test_tile_overused_across_setup_and_racks() -> None:
    setup = {"board": [{"tile": "red-circle", "x": 0, "y": y} for y in (0, 2, 4)]}
    data = game(place(0, "rs@1,0", 2, rack="rc rs bd yx gl pt"), setup=setup)
    assert findings(data) == [("tile-overused", 1)]
    data = game(place(0, "rc@1,0", 2), setup=setup)
    assert findings(data) == [("tile-overused", 1), ("duplicate-in-line", 1)]


def test_setup_lines_are_checked() -> None:
    setup = {"board": [{"tile": "red-circle", "x": 0, "y": 0}, {"tile": "blue-cross", "x": 1, "y": 0}]}
    assert findings(game(setup=setup)) == [("line-mixed", None)]


def test_exchange_rules() -> None:
    ok = game(place(0, "rc@0,0 rs@1,0", 2, rack="rc rs bd yx gl pt", draw="oc ox"),
              {"player": 1, "action": "exchange", "tiles": ["blue-star"], "draw": ["green-star"]},
              {"player": 0, "action": "exchange", "tiles": ["blue-diamond", "yellow-cross"], "draw": ["red-cross", "red-star"]},
              {"player": 1, "action": "exchange", "count": 3, "score": 0},
              place(0, "rx@2,0 rt@3,0", 4, rack="gl pt oc ox rx rt"))
    assert findings(ok) == []
    bad = game(place(0, "rc@0,0 rs@1,0", 2, rack="rc rs bd yx gl pt", draw="oc ox"),
               {"player": 1, "action": "exchange", "count": 2, "draw": ["green-star"]},
               {"player": 0, "action": "exchange", "tiles": ["red-circle"], "draw": ["red-cross"], "score": 1})
    assert findings(bad) == [("draw-count", 2), ("tile-not-in-rack", 3), ("score-mismatch", 3)]


def _near_end(data: dict[str, Any], bag_below: int) -> tuple[int, Any]:
    """The first turn whose bag before it holds fewer than ``bag_below`` tiles, with that state."""
    before = replay(from_data(data)).initial
    for i, r in enumerate(replay(from_data(data))):
        if before.bag is not None and before.bag < bag_below:
            return i, before
        before = r.state
    raise AssertionError("the bag never ran low")


def test_exchange_too_many() -> None:
    data = simulated(2, 3)
    i, before = _near_end(data, 6)
    assert 0 < before.bag < 6  # type: ignore[operator]
    turn = data["turns"][i]
    data["turns"][i:] = [{"player": turn["player"], "action": "exchange", "tiles": turn["rack"][:6]}]
    del data["result"]
    assert findings(data) == [("exchange-too-many", i + 1)]


def test_pass_is_illegal_with_tiles_in_bag_or_a_playable_rack() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2), {"player": 1, "action": "pass"})
    assert findings(data) == [("illegal-pass", 2)]
    data = simulated(2, 3)
    i, before = _near_end(data, 1)
    while data["turns"][i]["action"] != "place":
        i += 1
    turn = data["turns"][i]
    data["turns"][i:] = [{"player": turn["player"], "action": "pass", "rack": turn["rack"]}]
    del data["result"]
    found = check_data(data)[1]
    assert [(f.code, f.turn) for f in found] == [("illegal-pass", i + 1)]
    assert "could place" in found[0].message


def test_turn_order() -> None:
    # after a slip the order picks up from the seat that actually played
    data = game(place(0, "rc@0,0 rs@1,0", 2), place(0, "rt@2,0", 3), place(1, "rx@3,0", 4))
    assert findings(data) == [("turn-order", 2)]
    data = game(place(0, "rc@0,0 rs@1,0", 2), place(2, "rt@2,0", 3))
    found = check_data(data)[1]
    assert [(f.code, f.pointer) for f in found] == [("schema", "/turns/1/player")] or \
        [(f.code, f.pointer) for f in found] == [("turn-order", "/turns/1/player")]


def test_first_move_must_be_largest_group() -> None:
    data = game(place(0, "rc@0,0", 1, rack="rc rs rt bd yx gl"))
    assert findings(data) == [("first-move-not-largest", 1)]
    data = game(place(0, "rc@0,0 rs@1,0 rt@2,0", 3, rack="rc rs rt bd yx gl"))
    assert findings(data) == []


def test_wrong_starter_is_a_warning() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2, rack="rc rs bd yx gl pt"),
                place(1, "rx@2,0", 3, rack="rx ox yx gd bl pl"))
    found = check_data(data)[1]
    assert [(f.code, f.severity) for f in found] == [("wrong-starter", "warning")]


# -- the end ---------------------------------------------------------------------------

def test_after_end_and_bad_end() -> None:
    data = simulated(2, 7)
    data["turns"].append({"player": data["turns"][-2]["player"], "action": "pass"})
    assert findings(data) == [("after-end", len(data["turns"]))]
    data = simulated(2, 7)
    data["result"]["end"] = "blocked"
    assert findings(data) == [("bad-end", None)]
    data = simulated(2, 7)
    data["turns"].pop()
    data["result"]["end"] = "out"
    assert ("bad-end", None) in findings(data)


def test_blocked_claim_with_tiles_in_bag() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2), result={"end": "blocked"})
    assert findings(data) == [("bad-end", None)]


def test_result_scores_count_must_match_players() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2), result={"scores": [2, 0, 0]})
    assert findings(data) == [("result-mismatch", None)]


def test_unreadable_turn_does_not_stop_the_replay() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2), place(1, "rt@2,0", 3), place(0, "rx@3,0", 9))
    data["turns"][1]["rack"] = ["red-star", "bogus"]
    assert findings(data) == [("schema", 2), ("score-mismatch", 3)]
    # a turn whose placement is unreadable leaves the board unknown: later placements go unchecked
    data["turns"][1] = {"player": 1, "action": "place", "tiles": [{"tile": "bogus", "x": 2, "y": 0}]}
    assert findings(data) == [("schema", 2)]


def test_a_revealed_rack_is_checked_for_the_whole_time_it_was_held() -> None:
    # Ana sets a red circle aside and draws a red circle, so two were out of the bag;
    # Ben, who has not moved yet, then shows two more: four at once.
    data = game({"player": 0, "action": "exchange", "tiles": ["red-circle"], "draw": ["red-circle"],
                 "rack": ["red-circle", "red-square", "blue-star", "green-diamond", "yellow-cross", "purple-clover"]},
                {"player": 1, "action": "exchange", "tiles": ["orange-diamond"], "draw": ["blue-circle"],
                 "rack": ["red-circle", "red-circle", "orange-diamond", "blue-square", "yellow-clover", "green-clover"]})
    found = check_data(data)[1]
    assert ("tile-overused", 2) in [(f.code, f.turn) for f in found]
    assert next(f for f in found if f.code == "tile-overused").pointer == "/turns/1/rack/0"


def test_draws_refill_to_six_not_to_the_number_placed() -> None:
    # Ana draws one too few on turn 1 (5 tiles), then places 1 and must draw 2 to get back to 6
    data = game(place(0, "rc@0,0 rs@1,0", 2, rack="rc rs bd yx gl pt", draw="oc"),
                place(1, "rx@0,1", 2),
                place(0, "yx@-1,1", 2, rack="bd yx gl pt oc", draw="ox od"),
                place(1, "rd@0,2", 3))
    assert findings(data) == [("draw-count", 1)]


def test_exchange_with_tiles_and_a_different_count() -> None:
    data = game(place(0, "rc@0,0", 1), {"player": 1, "action": "exchange", "tiles": ["red-star", "red-cross"], "count": 5})
    assert findings(data) == [("exchange-count", 2)]


def test_the_opening_must_be_a_placement() -> None:
    data = game({"player": 0, "action": "exchange", "count": 2}, place(1, "rc@0,0", 1, rack="rc rs bd yx gl pt"))
    assert findings(data) == [("first-move-not-largest", 1), ("first-move-not-largest", 2)]


# -- strict and lenient play agree ------------------------------------------------

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



def strict_verdict(data: dict[str, Any]) -> Any:
    """The finding a strict game raises on the record (``None`` if it plays through)."""
    record = from_data(data)
    try:
        game = Replay.from_record(record, strict=True)
        for turn in record.turns:
            game.play(turn)
        game.finish(record)
    except IllegalMoveError as exc:
        return exc.finding
    return None


@pytest.mark.parametrize("seed", range(6))
def test_strict_play_refuses_exactly_what_lenient_play_reports_first(seed: int) -> None:
    rng = random.Random(seed)
    base = simulated(2 + seed % 3, 20 + seed, "greedy" if seed % 2 else "random")
    refused = 0
    for _ in range(80):
        data = mutate(base, rng)
        if schema_check(data):
            continue
        errors = [f for f in check(from_data(data)) if f.severity == "error"]
        verdict = strict_verdict(data)
        assert verdict == (errors[0] if errors else None), [str(f) for f in errors]
        refused += verdict is not None
    assert refused > 20  # the mutations do bite


def test_a_strict_game_is_left_as_it_was_before_a_refused_turn() -> None:
    data = simulated(2, 3)
    record = from_data(data)
    game = Replay.from_record(record, strict=True)
    for turn in record.turns[:5]:
        game.play(turn)
    before = game.state()
    bad = record.turns[5]._replace(score=(record.turns[5].score or 0) + 1)
    with pytest.raises(IllegalMoveError) as caught:
        game.play(bad)
    assert caught.value.finding.code == "score-mismatch"
    assert "turn 6" in str(caught.value) and "score-mismatch" in str(caught.value)
    assert game.state() == before and game.findings == []
    game.play(record.turns[5])  # the right turn still plays
    assert game.state().scores == replay(record).state(6).scores


def test_a_strict_game_refused_again_later_is_still_left_as_it_was() -> None:
    # the rebuild after a refusal replays every turn played so far, those before an earlier refusal too
    record = from_data(simulated(2, 3))
    game = Replay.from_record(record, strict=True)
    history = replay(record)
    for k in range(12):
        bad = record.turns[k]._replace(score=(record.turns[k].score or 0) + 1)
        with pytest.raises(IllegalMoveError):
            game.play(bad)
        assert game.state() == history.state(k)
        game.play(record.turns[k])
    assert game.state() == history.state(12) and game.findings == []


# -- positions that start mid-game ------------------------------------------------

def cut(data: dict[str, Any], k: int, bag: str | None = "count", racks: str | None = "tiles",
        scores: bool = True) -> dict[str, Any]:
    """The game from turn ``k + 1`` on, as a record starting from the position before it:
    the board, and as asked the bag (``"tiles"``, ``"count"``, ``None``: not stated), the
    racks (``"tiles"``, ``"sizes"``, ``None``) and the scores carried in."""
    history = replay(from_data(data))
    state = history.state(k)
    setup: dict[str, Any] = {"board": [placement_data(p) for p in state.board.placements()]}
    racks_now = state.racks
    assert all(r is not None for r in racks_now)
    if bag == "count":
        setup["bag"] = state.bag
    elif bag == "tiles":
        left = [COPIES] * 36
        for t in [*state.board.values(), *(t for r in racks_now for t in r or ())]:
            left[t] -= 1
        setup["bag"] = [str(TILES[t]) for t in range(36) for _ in range(left[t])]
        assert len(setup["bag"]) == state.bag
    if racks == "tiles":
        setup["racks"] = [[str(t) for t in r or ()] for r in racks_now]
    elif racks == "sizes":
        setup["racks"] = list(state.rack_sizes)
    if scores:
        setup["scores"] = list(state.scores)
    totals = list(history.totals)
    if not scores:
        totals = [a - b for a, b in zip(totals, state.scores)]
    return {**data, "setup": setup, "turns": data["turns"][k:], "result": {**data["result"], "scores": totals}}


def late(data: dict[str, Any]) -> int:
    """The first turn whose bag is empty and whose racks are not both full."""
    history = replay(from_data(data))
    for k in range(len(history)):
        state = history.state(k)
        if state.bag == 0 and sum(s or 0 for s in state.rack_sizes) < 12:
            return k
    raise AssertionError("no such turn")


@pytest.mark.parametrize(("bag", "racks", "scores"), [
    ("count", "tiles", True), ("tiles", "tiles", True), ("tiles", "sizes", False), (None, "sizes", True),
    ("count", None, True), (None, None, True),
])
def test_a_game_cut_mid_way_validates_clean_and_rescores_exactly(bag: str | None, racks: str | None,
                                                                 scores: bool) -> None:
    data = simulated(2, 9)
    for k in (10, 30):
        part = cut(data, k, bag, racks, scores)
        assert findings(part) == [], (k, bag, racks)
        history = replay(from_data(part))
        assert list(history.totals) == part["result"]["scores"]
        assert [r.points for r in history] == [t["score"] for t in part["turns"]]
        if scores:
            assert list(history.totals) == data["result"]["scores"]


def test_an_endgame_with_short_racks_and_no_bag_invents_nothing() -> None:
    # the old replay dealt min(6, what is left) to each seat and reported rack-mismatch, draw-count,
    # score-mismatch, result-mismatch and bad-end on this legal game
    data = simulated(2, 9)
    k = late(data)
    part = cut(data, k, bag=None, racks=None)
    assert findings(part) == []
    for turn in part["turns"]:  # without the racks too: the claim says who went out
        turn.pop("rack", None)
    assert findings(part) == []
    assert replay(from_data(part)).final.ended == "out"  # type: ignore[union-attr]
    part["turns"][-1]["score"] += 1
    assert [code for code, _ in findings(part)] == ["score-mismatch", "result-mismatch"]


def test_rack_sizes_follow_from_what_is_off_the_board() -> None:
    data = simulated(2, 9)
    k = late(data)
    part = cut(data, k, bag=None, racks=None)
    game_ = Replay.from_record(from_data(part), strict=False)
    sizes = replay(from_data(data)).state(k).rack_sizes
    assert game_.state().bag == 0 and game_.state().rack_sizes == (None, None)  # only the sum is known
    assert game_.rack_total == sum(s or 0 for s in sizes)
    early = cut(data, 10, bag=None, racks=None)
    state = Replay.from_record(from_data(early), strict=False).state()
    assert state.rack_sizes == (6, 6) and state.bag == replay(from_data(data)).state(10).bag


def test_a_tile_drawn_from_outside_a_listed_bag() -> None:
    data = simulated(2, 9)
    history = replay(from_data(data))
    k = next(k for k in range(len(history)) if 0 < (history.state(k).bag or 0) <= 20)
    part = cut(data, k, bag="tiles")
    listed = part["setup"]["bag"]
    drawn = next(i for i, t in enumerate(part["turns"]) if t.get("draw"))
    missing = next(str(t) for t in TILES if str(t) not in listed)
    part["turns"][drawn]["draw"][0] = missing
    codes = [code for code, _ in findings(part)]
    assert codes[0] == "not-in-bag"


@pytest.mark.parametrize(("change", "pointer"), [
    ({"racks": [["red-circle"], 6, 6]}, "/setup/racks"),
    ({"scores": [1, 2, 3]}, "/setup/scores"),
    ({"bag": 50}, "/setup/bag"),
    ({"bag": 20, "racks": [6, 3]}, "/setup/racks"),  # a short rack while the bag holds tiles
    ({"bag": 96, "racks": [6, 5]}, "/setup/bag"),  # 0 + 96 + 11 is not 108
])
def test_bad_setups(change: dict[str, Any], pointer: str) -> None:
    data = game(place(0, "rc@0,0", 1), setup={"board": [], **change})
    found = [f.pointer for f in check_data(data)[1] if f.code == "bad-setup"]
    assert pointer in found
    with pytest.raises(IllegalMoveError):
        Replay.from_record(from_data(data), strict=True)


def test_setup_scores_carry_into_the_result() -> None:
    data = game(place(0, "rc@0,0 rx@1,0", 2), result={"scores": [42, 40]},
                setup={"board": [], "scores": [40, 40]})
    assert findings(data) == []
    history = replay(from_data(data))
    assert history.initial.scores == (40, 40) and history.totals == (42, 40)
    assert history.lead_changes() == ()  # a tie at the start: the first sole leader is no change


def test_unseen_tiles_from_a_seats_point_of_view() -> None:
    data = game(place(0, "rc@0,0 rs@1,0", 2, rack="rc rs bd yx gl pt", draw="oc ox"))
    state = replay(from_data(data)).state(1)
    unseen = state.unseen(0)
    rc, bd, oc, ys = (int(Tile.parse(t)) for t in ("rc", "bd", "oc", "ys"))
    assert unseen[rc] == 2 and unseen[bd] == 2 and unseen[oc] == 2 and unseen[ys] == 3
    assert sum(unseen) == 108 - 2 - 6  # the board and Ana's rack
    assert sum(state.unseen(1)) == 108 - 2  # Ben knows only the board


def test_states_count_unreadable_turns_too() -> None:
    from qwirkle_tools.analysis.analyse import analyse
    from qwirkle_tools.formats.record import from_data_lenient

    data = simulated(2, 5)
    clean = replay(from_data(data))
    for k in (2, 9):
        data["turns"][k] = {"player": data["turns"][k]["player"], "action": "jump"}  # unreadable
    record, turns = from_data_lenient(data)
    assert record is not None and turns[2] is None and turns[9] is None
    history = replay(record, turns)
    assert len(history.turns) == len(data["turns"]) and len(history.results) == len(data["turns"]) - 2
    assert history.state(2).board == clean.state(2).board  # before the first unreadable turn: as played
    assert not history.state(3).board_known  # after it, the board is no longer known
    assert history.before(2) is history.state(2)
    assert history.known_rack(2) == (None, "unknown")
    judged = analyse(history)  # every readable turn, each against its own position
    assert [t.turn for t in judged.turns] == [r.index + 1 for r in history.results]
    assert 3 not in [t.turn for t in judged.turns] and 10 not in [t.turn for t in judged.turns]
    with pytest.raises(IndexError):
        history.state(len(data["turns"]) + 1)


# -- bounded cost: long rows, lists past the format's limits, many findings ----------------

def _walked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A counter of the tiles every line walk of the replay returns (its cost)."""
    import qwirkle_tools.core.lines as lines_module
    import qwirkle_tools.core.rules as rules_module
    import qwirkle_tools.play.replay as engine_module

    tiles = [0]
    walk = lines_module.walk

    def counted(*args: Any, **kwargs: Any) -> tuple[int, list[int]]:
        start, found = walk(*args, **kwargs)
        tiles[0] += len(found)
        return start, found

    monkeypatch.setattr(engine_module, "walk", counted)
    monkeypatch.setattr(rules_module, "walk", counted)
    return tiles


def _row(n: int, x0: int = 0) -> list[dict[str, Any]]:
    return [{"tile": str(TILES[i % 36]), "x": x0 + i, "y": 0} for i in range(n)]


def test_a_row_longer_than_the_rules_allow_is_not_walked_tile_by_tile(monkeypatch: pytest.MonkeyPatch,
                                                                      request: pytest.FixtureRequest) -> None:
    if run_on_the_pure_build(request):  # (the walks counted)
        return
    walked = _walked(monkeypatch)
    # 600 turns of 6 tiles each, all in one row (schema-valid, every move illegal): a row of 3,600 tiles
    turns = [{"player": i % 2, "action": "place", "tiles": _row(6, 6 * i), "draw": [str(t) for t in TILES[:6]]}
             for i in range(600)]
    found = check(from_data(game(*turns)))
    assert sum(f.code == "line-too-long" for f in found) == 1  # broken once, not blamed again
    assert walked[0] < 200 * 600  # a walk of the whole row each turn: over 2,000,000
    # and no state holds more than the game's 108 tiles (a board per turn of up to 3,600 tiles: 10^7 cells kept)
    history = replay(from_data(game(*turns)))
    assert max(len(r.state.board) for r in history if r.state is not None) <= 108
    assert [f.turn for f in history.findings if f.code == "too-many-tiles"] == [19]  # 18 turns of 6 make 108
    # a setup row of the most tiles the format allows: each line walked once
    walked[0] = 0
    found = check(from_data(game(setup={"board": _row(108)}), trusted=True))
    assert [f.code for f in found if f.code.startswith("line")] == ["line-too-long"]
    assert walked[0] < 20 * 108  # from every tile: 23,000


ROWS = 10_000  # far past every limit of the format (6 tiles a turn, 108 on a board or in a bag)


@pytest.mark.parametrize(("where", "data"), [
    ("/setup/board", game(setup={"board": _row(ROWS)})),
    ("/setup/bag", game(setup={"board": [], "bag": [str(TILES[i % 36]) for i in range(ROWS)]})),
    ("/setup/racks/1", game(setup={"board": [], "racks": [["red-circle"], [str(TILES[i % 36]) for i in range(ROWS)]]})),
    ("/turns/0/tiles", game({"player": 0, "action": "place", "tiles": _row(ROWS)})),
    ("/turns/0/tiles", game({"player": 0, "action": "place",
                             "tiles": [{"tile": str(TILES[i % 36]), "x": 0, "y": 0} for i in range(ROWS)]})),
    ("/turns/1/tiles", game(place(0, "rc@0,0"), {"player": 1, "action": "exchange",
                                                 "tiles": [str(TILES[i % 36]) for i in range(ROWS)]})),
    ("/turns/0/rack", game({**place(0, "rc@0,0"), "rack": [str(TILES[i % 36]) for i in range(ROWS)]})),
    ("/turns/0/draw", game({**place(0, "rc@0,0"), "draw": [str(TILES[i % 36]) for i in range(ROWS)]})),
])
def test_a_list_past_the_formats_limit_is_one_finding_and_not_read(where: str, data: dict[str, Any]) -> None:
    record = from_data(data, trusted=True)  # (not of the schema: as the lenient reader or a caller's code hands it on)
    found = check(record)
    assert [f.pointer for f in found if f.code == "too-many-tiles"] == [where]
    assert len(found) <= 3, found  # not one per tile: the list is not read
    assert f"{ROWS:,} tiles" in next(f.message for f in found if f.code == "too-many-tiles")
    with pytest.raises(IllegalMoveError, match="too-many-tiles"):  # strict: refused
        game_ = Replay.from_record(record, strict=True)
        for turn in record.turns:
            game_.play(turn)
    # the validator, over the schema and the replay: a few findings, the schema's naming the real length
    codes = [f.code for f in check_data(data)[1]]
    assert codes.count("too-many-tiles") == 1 and len(codes) <= 4, codes


def test_the_limits_are_the_schemas() -> None:
    from qwirkle_tools.core.tiles import RACK_SIZE, TILE_COUNT
    from qwirkle_tools.formats.schema import schema

    properties = schema()["properties"]
    setup = properties["setup"]["properties"]
    assert setup["board"]["maxItems"] == TILE_COUNT
    assert max(b.get("maxItems", 0) for b in setup["bag"]["anyOf"]) == TILE_COUNT
    defs = schema()["$defs"]
    assert {d["maxItems"] for d in _arrays(defs) if d["maxItems"]} == {RACK_SIZE}


def _arrays(node: Any) -> list[dict[str, Any]]:
    """Every array schema with a maxItems below ``node``."""
    found = []
    if isinstance(node, dict):
        if node.get("type") == "array" and "maxItems" in node or "maxItems" in node and len(node) == 1:
            found.append(node)
        for v in node.values():
            found.extend(_arrays(v))
    elif isinstance(node, list):
        for v in node:
            found.extend(_arrays(v))
    return found


def test_findings_are_capped_per_record_with_one_note(monkeypatch: pytest.MonkeyPatch) -> None:
    import qwirkle_tools.core.findings as findings_module
    import qwirkle_tools.play.state as engine_module
    from qwirkle_tools.core.findings import MAX_FINDINGS

    turns = [{"player": 0, "action": "pass"} for _ in range(MAX_FINDINGS + 500)]  # every one out of turn...
    found = check(from_data(game(*turns)))
    assert len(found) == MAX_FINDINGS  # the last a note
    with monkeypatch.context() as m:
        m.setattr(engine_module, "MAX_FINDINGS", 10**9)
        m.setattr(findings_module, "MAX_FINDINGS", 10**9)
        every = check(from_data(game(*turns)))
    assert found[:-1] == every[:MAX_FINDINGS - 1]
    assert found[-1].code == "too-many-findings" and found[-1].message.startswith(f"{len(every) - MAX_FINDINGS + 1:,} more")
    assert list(replay(from_data(game(*turns))).findings) == found
    # with the schema's findings too (a score as a string on every turn): still one note, counting them all
    for t in turns:
        t["score"] = "0"
    found = check_data(game(*turns))[1]
    assert len(found) == MAX_FINDINGS and found[-1].code == "too-many-findings"


def test_a_copy_and_a_rebuild_take_every_attribute_of_a_replay() -> None:
    from qwirkle_tools.play.replay import _STATE, Replay

    game = Replay(["Ana", "Ben"])
    kept = getattr(Replay, "__mypyc_attrs__", None)  # the compiled class's attributes; else the instance's
    assert set(_STATE) == (set(kept) if kept is not None else set(vars(game)))
    twin = game.copy()
    assert all(getattr(twin, name) == getattr(game, name) for name in _STATE if name not in ("notes", "ledger"))
