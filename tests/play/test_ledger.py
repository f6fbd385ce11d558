"""The ledger: racks, bag and tiles in sight, the turn rules that depend on them, and the dealer."""

from __future__ import annotations

import random

import pytest

from qwirkle_tools.core.board import Placement
from qwirkle_tools.core.tiles import COPIES, RACK_SIZE, TILES, largest_group, parse_tiles
from qwirkle_tools.play.ledger import Dealer, Ledger, Problem, exchange_problem, opening_problem, pass_problem
from qwirkle_tools.play.state import Notes


def tiles(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text)]


def code(problem: Problem | None) -> str | None:
    return None if problem is None else problem.code


def cells(text: str) -> dict[int, int]:
    return {p.key: int(p.tile) for p in map(Placement.parse, text.split())}


@pytest.mark.parametrize(("bag", "board", "rack", "expected"), [
    (3, "rc@0,0", "rs", "illegal-pass"),  # tiles in the bag: exchange instead
    (0, "rc@0,0", "rs", "illegal-pass"),  # rs fits beside rc
    (0, "rc@0,0", "gs", None),  # nothing fits
    (None, "rc@0,0", "rs", None),  # the bag's count not known: not judged
    (0, None, "rs", None),  # the board not known: not judged
    (0, "rc@0,0", None, None),  # the rack not known: not judged
])
def test_a_pass_is_judged_as_far_as_bag_board_and_rack_are_known(bag: int | None, board: str | None, rack: str | None,
                                                                 expected: str | None) -> None:
    problem = pass_problem("Ana", bag, None if board is None else cells(board), None if rack is None else tiles(rack))
    assert (problem.code if problem else None) == expected
    if problem is not None and bag == 0:
        assert "could place red-square at" in problem.message


def test_the_opening_and_exchange_rules() -> None:
    rack = tiles("rc rs rd gc bc yx")  # a group of 3: the red ones (and the circles)
    assert opening_problem("Ana", "place", 3, rack) is None
    short = opening_problem("Ana", "place", 2, rack)
    assert short is not None and short.code == "first-move-not-largest" and short.where == "/tiles"
    assert "holds a group of 3" in short.message
    assert opening_problem("Ana", "place", 1, None) is None  # the rack not known: not judged
    for action in ("pass", "exchange"):
        problem = opening_problem("Ana", action, 0, rack)
        assert problem is not None and problem.where == "/action"
    assert exchange_problem("Ana", 3, 3) is None and exchange_problem("Ana", 3, None) is None
    too_many = exchange_problem("Ana", 4, 3, "/count")
    assert too_many is not None and (too_many.code, too_many.where) == ("exchange-too-many", "/count")


def test_the_ledger_gives_its_problems_as_findings_and_carries_on() -> None:
    notes = Notes()
    ledger = Ledger(["Ana (seat 0)", "Ben (seat 1)"], notes)
    ledger.known[0], ledger.size[0] = tiles("rc rs rd gc bc yx"), RACK_SIZE
    unknown = ledger.take(3, "/turns/2", 0, tiles("rc pc"), "places")
    assert unknown == tiles("pc")  # not in the rack: newly seen, and reported
    assert [(f.code, f.turn, f.pointer) for f in notes.kept] == [("tile-not-in-rack", 3, "/turns/2/tiles/1")]
    assert notes.error is notes.kept[0]
    assert ledger.size[0] == RACK_SIZE - 2 and sorted(ledger.known[0]) == sorted(tiles("rs rd gc bc yx"))


def test_a_deal_holds_every_tile_and_the_largest_group_starts() -> None:
    for seed in range(20):
        dealer, starter = Dealer.deal(3, seed)
        assert all(len(r) == RACK_SIZE for r in dealer.racks)
        assert sorted(dealer.left()) == sorted(t for t in range(len(TILES)) for _ in range(COPIES))
        groups = [largest_group(r) for r in dealer.racks]
        assert groups[starter] == max(groups) and groups.index(max(groups)) == starter
        assert Dealer.deal(3, seed)[0].racks == dealer.racks  # the same seed deals the same game


def test_the_dealer_takes_a_placement_and_an_exchange_back_exactly() -> None:
    dealer, _ = Dealer.deal(2, 11)
    start = ([list(r) for r in dealer.racks], list(dealer.bag), dealer.rng.getstate())
    held = list(dealer.racks[0])
    drawn = dealer.place(0, held[:2])
    assert len(drawn) == 2 and len(dealer.bag) == len(start[1]) - 2 and len(dealer.racks[0]) == RACK_SIZE
    dealer.undo_place(0, held, len(drawn))
    assert ([list(r) for r in dealer.racks], dealer.bag, dealer.rng.getstate()) == start
    new, bag, rng = dealer.exchange(1, dealer.racks[1][:3])
    assert len(new) == 3 and len(dealer.bag) == len(start[1]) and dealer.bag != start[1]
    dealer.undo_exchange(1, start[0][1], bag, rng)
    assert ([list(r) for r in dealer.racks], dealer.bag, dealer.rng.getstate()) == start


def test_the_dealer_refuses_what_the_rack_or_the_bag_does_not_allow() -> None:
    dealer = Dealer([tiles("rc rs rd gc bc yx"), tiles("pc ps pd px pt pl")], tiles("oc os"), random.Random(1))
    board = cells("gs@0,0")
    assert code(dealer.refusal("Ana", 0, "place", tiles("rc rs"), {})) == "first-move-not-largest"
    assert code(dealer.refusal("Ana", 0, "place", tiles("pc"), board)) == "tile-not-in-rack"
    assert code(dealer.refusal("Ana", 0, "exchange", tiles("rc rs rd"), board)) == "exchange-too-many"
    assert dealer.refusal("Ana", 0, "exchange", tiles("rc rs"), board) is None
    assert code(dealer.refusal("Ana", 0, "pass", [], board)) == "illegal-pass"
    assert code(dealer.refusal("Ana", 0, "pass", [], {})) == "first-move-not-largest"
