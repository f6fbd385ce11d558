"""Regenerate the sample games in this folder: ``python sample_games/make_samples.py``.

Every sample is made from a seeded self-play game or written out below, so
the files are reproducible; ``tests/test_samples.py`` pins what the
validator finds in each, and ``README.md`` here describes them. Two are
stored once, not made here: ``weak-play.json`` and ``corpus-10.jsonl`` hold
games of random play by the self-play of release 0.1 (whose random player drew
from the dealer's generator; today's draws from the turn's seed, as every player
does), kept as they were because the guides quote them; ``mistakes.json`` is
made from the stored ``weak-play.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from qwirkle_tools.engines.selfplay import simulate
from qwirkle_tools.formats.sources import read_record

HERE = Path(__file__).parent
GAME_296_295 = Path(__file__).parent / "296-295.qgn"
WEAK_PLAY = Path(__file__).parent / "weak-play.json"
"""Stored once (see the module's notes)."""
"""The one copy of the 296-295 game (``tools/search_296_295.py`` finds it); its record and its sheet are made from it."""


def _named(game: dict[str, Any], event: str) -> dict[str, Any]:
    game["meta"] = {"event": event, "site": "Lyon", "date": "2026-11-29",
                    "comment": f"self-play, seed {game['meta']['seed']}, {game['meta']['policy']} policy"}
    game["players"] = [{"name": "Ana"}, {"name": "Ben"}]
    return game


def complete() -> dict[str, Any]:
    """A whole legal game, every rack and draw recorded, two exchanges."""
    return _named(simulate(2, 36, "greedy"), "Club night")


def weak_play() -> dict[str, Any]:
    """A whole legal game where both players pick moves at random: much to analyse (stored once)."""
    game: dict[str, Any] = json.loads(WEAK_PLAY.read_text(encoding="utf-8"))
    return game


def double_qwirkle() -> dict[str, Any]:
    """A whole legal game in which turn 28 completes two lines of six with one move."""
    game = _named(simulate(2, 8, "greedy"), "Club night, a double Qwirkle")
    game["turns"][27]["comment"] = "a double Qwirkle!"
    return game


def mistakes() -> dict[str, Any]:
    """``weak_play`` with a wrong score and an illegal move; its missed Qwirkles stay."""
    game = weak_play()
    game["meta"]["event"] = "Club night, beginners' mistakes"
    game["turns"][9]["score"] += 3
    game["turns"][9]["comment"] = "added 3 too many"
    moved = game["turns"][65]["tiles"][0]
    moved["y"] += 1  # the purple circle lands beside tiles it does not match
    game["turns"][65]["comment"] = "nobody noticed the purple circle did not fit"
    return game


def score_sheet() -> dict[str, Any]:
    """The same kind of game as a paper score sheet keeps it: scores only."""
    game = _named(simulate(2, 29, "greedy"), "Club night, paper sheet")
    for turn in game["turns"]:
        for key in ("tiles", "rack", "draw"):
            turn.pop(key, None)
        if turn["action"] == "exchange":
            turn["count"] = 6  # the sheet notes an exchange, not its tiles
            turn.pop("score", None)
    return game


def wrong_scores() -> dict[str, Any]:
    """Two adding-up slips: a turn written 2 too high, and the result copied from the sheet."""
    game = complete()
    game["meta"]["event"] = "Club night, scoring slips"
    turn = game["turns"][4]
    turn["score"] += 2
    turn["comment"] = "written 2 too high"
    game["result"]["scores"][turn["player"]] += 2
    game["turns"][9]["score"] = 0  # a forgotten score, written as 0
    return game


def bookkeeping() -> dict[str, Any]:
    """Rack and bag slips in a complete game."""
    game = complete()
    game["meta"]["event"] = "Club night, bookkeeping slips"
    turns = game["turns"]
    # turn 3: one tile too few drawn
    turns[2]["draw"] = turns[2]["draw"][:-1]
    turns[2]["comment"] = "forgot to draw a tile"
    # turn 8: plays a tile that is not in the rack
    turns[7]["tiles"][0]["tile"] = _absent(turns[7]["rack"])
    # turns 12 and 13: both players pass while the bag is full (they must exchange instead)
    player = turns[11]["player"]
    turns[11:11] = [{"player": player, "action": "pass", "comment": "passed"},
                    {"player": 1 - player, "action": "pass"}]
    return game


def _absent(rack: list[str]) -> str:
    for name in ("purple-clover", "blue-star", "green-square", "yellow-diamond"):
        if name not in rack:
            return name
    raise AssertionError("rack holds every candidate")


def illegal_moves() -> dict[str, Any]:
    """A short hand-written game where every second move breaks a placement rule."""
    def place(player: int, *tiles: str, score: int) -> dict[str, Any]:
        cells = []
        for t in tiles:
            name, _, where = t.partition("@")
            x, y = where.split(",")
            cells.append({"tile": name, "x": int(x), "y": int(y)})
        return {"player": player, "action": "place", "tiles": cells, "score": score}

    return {
        "format": "qwirkle-record", "version": 1,
        "meta": {"event": "Illegal moves", "comment": "hand-written; positions in the sample README"},
        "players": [{"name": "Ana"}, {"name": "Ben"}],
        "turns": [
            place(0, "red-circle@0,0", "red-square@1,0", "red-star@2,0", score=3),
            place(1, "blue-circle@0,1", "green-circle@0,2", score=3),
            # gap: (4,0) left empty between red-cross at 3,0 and red-clover at 5,0
            place(0, "red-cross@3,0", "red-clover@5,0", score=5),
            # line-mixed twice: yellow-diamond at (1,1) makes the row blue-circle, yellow-diamond
            # and the column red-square, yellow-diamond
            place(1, "yellow-diamond@1,1", score=4),
            # not-in-line: tiles on a diagonal
            place(0, "purple-circle@0,3", "orange-circle@1,4", score=2),
            # duplicate-in-line: a second red-circle at the end of the red row
            place(1, "red-circle@-1,0", score=7),
            # not-connected: far from every tile
            place(0, "blue-star@10,10", "blue-cross@11,10", score=2),
            # cell-occupied: on the red-square
            place(1, "green-square@1,0", score=3),
        ],
        "result": {"scores": [12, 17], "end": "unfinished"},
    }


def game_296_295() -> dict[str, Any]:
    return read_record(GAME_296_295).to_data()


SAMPLES = {
    "complete-2p.json": complete,
    "296-295.json": game_296_295,
    "mistakes.json": mistakes,
    "double-qwirkle.json": double_qwirkle,
    "score-sheet.json": score_sheet,
    "wrong-scores.json": wrong_scores,
    "bookkeeping.json": bookkeeping,
    "illegal-moves.json": illegal_moves,
}


def sheet_296_295() -> str:
    """The 296-295 game as a club's paper score sheet: a column per player,
    a row per round, ``-`` for an exchange, the totals in the last row."""
    game = game_296_295()
    names = [p["name"] for p in game["players"]]
    cells = ["-" if t["action"] != "place" else str(t["score"]) for t in game["turns"]]
    rows = [names] + [cells[i:i + len(names)] for i in range(0, len(cells), len(names))]
    rows.append(["total", *map(str, game["result"]["scores"])])
    return "".join(",".join(row) + "\n" for row in rows)


CLUB_NIGHT = """\
Event: Club night
Date: 2026-11-29
Players: Ana, Ben
1. Ana rc@0,0 rd@1,0 2
2. Ben rs@0,-1 rz@1,-1 6 {Ben starts a column}
3. Ana exchange yd pt
4. Ben exchange 2
5. Ana - 7
6. Ben pass
Result: 9-6 unfinished
"""
"""The README's club game in the notation, with one slip of the pen (``rz``: no such tile)."""

TEXTS = {
    "club-night.qgn": lambda: CLUB_NIGHT,
    "296-295-sheet.csv": sheet_296_295,
}


def main() -> None:
    for name, write in TEXTS.items():
        (HERE / name).write_text(write(), encoding="utf-8")
        print(f"wrote {HERE / name}")
    for name, make in SAMPLES.items():
        (HERE / name).write_text(json.dumps(make(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {HERE / name}")


if __name__ == "__main__":
    main()
