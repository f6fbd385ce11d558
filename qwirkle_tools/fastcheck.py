"""A fast yes-or-ask answer for fully recorded, clean games.

:func:`clean` reads schema-valid record data directly (no typed record) and
returns ``True`` only when :func:`qwirkle_tools.replay.check` would report
nothing. Whenever anything is unusual (a missing rack or draw, a setup, a
pass, a blocked end) or wrong, it returns ``False``, meaning "ask the full
replay", which then finds and explains the problem. So it can speed up the
common case but never change a verdict; a differential test holds it to that.

Self-play corpora and exports from programs record every rack and draw and
are almost always clean, which is where the speed matters.
"""

from __future__ import annotations

from typing import Any

from .board import Placement
from .rules import DEFAULT_RULES, Rules, quick_score
from .tiles import BY_NAME, COPIES, RACK_SIZE, TILE_COUNT, largest_group


def clean(data: dict[str, Any]) -> bool:
    """Whether a schema-valid record is certainly free of findings."""
    if "setup" in data:
        return False
    rules_data = data.get("rules")
    rules = DEFAULT_RULES if rules_data is None else Rules(**rules_data)
    end_bonus = rules.end_bonus
    n = len(data["players"])
    bag = TILE_COUNT - RACK_SIZE * n
    if bag < 0:
        return False
    racks: list[list[int] | None] = [None] * n
    opening: list[int] = [0] * n
    seen = [0] * 36
    peak = [0] * 36  # the most copies seen at once so far: opening racks were held all along
    cells: dict[int, int] = {}
    totals = [0] * n
    expected = -1
    starter = -1
    ended = False
    names = BY_NAME
    for turn in data["turns"]:
        if ended:
            return False
        p = turn["player"]
        if p >= n or (expected >= 0 and p != expected):
            return False
        expected = (p + 1) % n
        rack_names = turn.get("rack")
        if rack_names is None:
            return False
        rack: list[int] = [names[t] for t in rack_names]
        known = racks[p]
        if known is None:  # this player's first turn: the opening rack
            if len(rack) != RACK_SIZE:
                return False
            for t in rack:
                if peak[t] + rack.count(t) > COPIES:
                    return False
            for t in rack:
                seen[t] += 1
                if seen[t] > peak[t]:
                    peak[t] = seen[t]
            opening[p] = largest_group(rack)
            if starter < 0:
                starter = p
        elif sorted(known) != sorted(rack):
            return False
        draw_names = turn.get("draw")
        if draw_names is None:
            if bag:
                return False
            draw_names = ()
        draw = [names[t] for t in draw_names]
        action = turn["action"]
        score = turn.get("score")
        if action == "place":
            tiles = turn.get("tiles")
            if tiles is None:
                return False
            move = [Placement(names[d["tile"]], d["x"], d["y"]) for d in tiles]
            for pl in move:
                if pl.tile in rack:
                    rack.remove(pl.tile)
                else:
                    return False
            if not cells and p == starter and len(move) < opening[p]:
                return False
            points = quick_score(cells, move, rules)
            if points is None:
                return False
            for pl in move:
                cells[pl.key] = pl.tile
            if len(draw) != min(len(move), bag):
                return False
            bag -= len(draw)
            if not bag and not rack and not draw:
                points += end_bonus
                ended = True
        elif action == "exchange":
            out_names = turn.get("tiles")
            if out_names is None or len(out_names) > bag or len(draw) != len(out_names) or score:
                return False
            exchanged = [names[name] for name in out_names]
            for t in exchanged:
                if t in rack:
                    rack.remove(t)
                else:
                    return False
            points = 0
        else:
            return False
        if score is not None and score != points:
            return False
        for t in draw:  # drawn before any exchanged tile goes back
            seen[t] += 1
            if seen[t] > COPIES:
                return False
            if seen[t] > peak[t]:
                peak[t] = seen[t]
        if action == "exchange":
            for t in exchanged:
                seen[t] -= 1
        rack.extend(draw)
        racks[p] = rack
        totals[p] += points
    if starter >= 0 and all(r is not None for r in racks) and any(g > opening[starter] for g in opening):
        return False  # the starter had a smaller group: a warning
    result = data.get("result")
    if result is not None:
        scores = result.get("scores")
        if scores is not None and scores != totals:
            return False
        end = result.get("end")
        if end is not None and (end == "blocked" or (end == "out") != ended):
            return False
    return True
