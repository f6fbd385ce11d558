"""Slips of the pen (qwirkle_tools.analysis.repair): each kind is one finding, the turns after are
checked as meant (a second slip later is still found), and the repair suggested is the original."""

from __future__ import annotations

import pytest
from slipped import KINDS, game_lines, slipped

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
        if kind in ("cell", "swap", "tile", "coordinate"):  # the original, or (two tiles on each other's cells) as good as it
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


def edited(changes: dict[int, str], repeat: int | None = None) -> str:
    """A game of the generator (game_lines(77, 0)) with the lines of some turns written otherwise, and
    the line of turn ``repeat`` written twice."""
    lines = game_lines(77, 0)
    out = []
    for line in lines:
        number = line.split(".")[0]
        turn = int(number) if number.isdigit() else None
        out.append(changes.get(turn, line) if turn is not None else line)
        if turn is not None and turn == repeat:
            out.append(line)
    return "\n".join(out) + "\n"


def test_a_plain_error_before_a_slip_does_not_stop_the_search() -> None:
    line = next(x for x in game_lines(77, 0) if x.startswith("10. "))
    tiles = [w for w in line.split() if "@" in w]
    tile, _, cell = tiles[1].partition("@")
    x, y = map(int, cell.split(","))
    five = next(x for x in game_lines(77, 0) if x.startswith("5. ")).split()
    wrong = " ".join([*five[:-1], str(int(five[-1]) + 1)])  # turn 5: a wrong score, no slip explains it
    off = line.replace(tiles[1], f"{tile}@{x},{y + 1}")  # turn 10: a tile a cell off
    misspelt = line.replace(tiles[1], f"{tile[0]}z@{cell}")  # or misspelt
    for ten in (off, misspelt):
        found = findings(edited({5: wrong, 10: ten}))
        assert [(code, turn) for code, turn, _ in found] == [("score-mismatch", 5), ("slip", 10)], found


def test_a_line_written_twice_then_a_misspelt_tile_are_two_slips_at_their_lines() -> None:
    line = next(x for x in game_lines(77, 0) if x.startswith("10. "))
    tiles = [w for w in line.split() if "@" in w]
    found = findings(edited({10: line.replace(tiles[1], tiles[1][0] + "z" + tiles[1][2:])}, repeat=7))
    assert [(code, turn) for code, turn, _ in found] == [("slip", 8), ("slip", 10)], found
    assert "repeats turn 7" in found[0][2] and "is not a tile" in found[1][2]


def test_readings_as_good_are_named_and_an_unscored_turn_is_not_guessed() -> None:
    (slip,) = findings("Players: Ana, Ben\n1. Ana rc@0,0 rx@1,0 2\n2. Ben rs@0,3 2\n")
    assert slip[0] == "slip" and "did you mean rs@0,1 (legal, and scores the 2 written)? (or rs@1,1, as good" in slip[2]
    # no score written and several cells as good: nothing says which was meant, the error is told as it is
    assert [code for code, _, _ in findings("Players: Ana, Ben\n1. Ana rc@0,0 rx@1,0\n2. Ben rs@0,2\n3. Ana rd@2,0\n")] \
        == ["not-connected"]


def test_a_first_turn_without_its_number_is_read() -> None:
    found = findings("Players: Ana, Ben\nAna rc@0,0 rx@1,0 2\n2. Ben rs@0,1 2\n")
    assert [(code, turn) for code, turn, _ in found] == [("turn-number", 1)]


def test_a_cell_miswritten_is_read_as_its_two_numbers() -> None:
    found = findings("Players: Ana, Ben\n1. Ana rc@0,0 rd@1,0 2\n2. Ben rs@0,1 rc@1;1 6\n3. Ana rx@2,0 3\n4. Ben rl@2,1 6\n")
    assert [(code, turn) for code, turn, _ in found] == [("slip", 2), ("score-mismatch", 4)]
    assert found[0][2].startswith("line 3, column 18: '1;1' is not a cell: a cell miswritten? did you mean rs@0,1 rc@1,1")
