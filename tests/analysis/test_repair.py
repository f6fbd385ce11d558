"""Slips of the pen (qwirkle_tools.analysis.repair): each kind is one finding, the turns after are
checked as meant (a second slip later is still found), and the repair suggested is the original."""

from __future__ import annotations

import pytest
from slipped import KINDS, slipped

from qwirkle_tools.analysis import repair as repair_module
from qwirkle_tools.analysis.repair import REPLAYED_TURNS, REPLAYS, near_tiles
from qwirkle_tools.analysis.validate import check_source
from qwirkle_tools.formats.sources import Source


def findings(text: str) -> list[tuple[str, int | None, str]]:
    """Each finding's code, turn (a reader's warning: its turn's, from its pointer) and message."""
    found = check_source(Source("game.qgn", 0, text.encode())).findings
    return [(f.code, f.turn if f.turn is not None or not f.pointer.startswith("/turns/")
             else int(f.pointer.split("/")[2]) + 1, f.message) for f in found]


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_slip_is_one_finding_and_the_second_slip_is_still_found(kind: str) -> None:
    for g in range(3):
        game = slipped(kind, 77, g)
        assert game is not None
        found = findings(game.text)
        here = [f for f in found if f[1] == game.turn]
        assert len(here) == 1 and len(found) == 2, found
        assert [(code, turn) for code, turn, _ in found if turn == game.second] == [("score-mismatch", game.second)]
        code, _, message = here[0]
        expected = {"number": "turn-number", "renumber": "turn-number"}.get(kind, "slip")
        assert code == expected
        if kind in ("cell", "swap", "tile"):  # the original, or (two tiles on each other's cells) as good as it
            assert "did you mean" in message and game.original in message


def test_a_tile_misspelt_is_read_as_the_tiles_one_letter_away() -> None:
    assert [t.short for t in near_tiles("rz")] == ["rc", "rx", "rd", "rs", "rt", "rl"]
    assert [t.short for t in near_tiles("zs")] == ["rs", "os", "ys", "gs", "bs", "ps"]
    assert near_tiles("zz") == () and [t.short for t in near_tiles("grean-square")] == ["gs"]


def test_where_no_reading_helps_the_errors_stay_as_written() -> None:
    text = "Players: Ana, Ben\n1. Ana rc@0,0 rs@1,0 2\n2. Ben bt@9,9 2\n3. Ana ys@1,1 2\n"
    found = findings(text)
    assert [(code, turn) for code, turn, _ in found] == [("not-connected", 2)]  # far off: no tile a cell or two near


def test_the_search_is_bounded_on_a_game_of_many_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = repair_module.check
    monkeypatch.setattr(repair_module, "check", lambda *a: calls.append(1) or real(*a))
    lines = ["Players: Ana, Ben", "1. Ana rc@0,0 rs@1,0 2"]
    lines += [f"{n}. {'Ben' if n % 2 == 0 else 'Ana'} bt@{3 * n},{n} bx@{3 * n + 1},{n} 5" for n in range(2, 120)]
    found = findings("\n".join(lines) + "\n")
    assert len(calls) <= REPLAYS and len(found) > 100


def test_a_long_record_is_searched_within_its_bound_of_turns_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    replayed = []
    real = repair_module.check
    monkeypatch.setattr(repair_module, "check", lambda record, turns: replayed.append(len(turns)) or real(record, turns))
    lines = ["Players: Ana, Ben", "1. Ana rc@0,0 rs@1,0 2"]
    lines += [f"{n}. {'Ben' if n % 2 == 0 else 'Ana'} bt@{3 * n},{n} bx@{3 * n + 1},{n} 5" for n in range(2, 4000)]
    found = findings("\n".join(lines) + "\n")
    assert sum(replayed) <= REPLAYED_TURNS and len(found) > 500  # (the findings are capped at 1,000)
