"""A fast yes-or-ask answer for fully recorded, clean games.

:func:`clean` reads record data that passed the schema engine directly (no
typed record) and returns ``True`` only when the full check (schema,
including its integer rule, then :func:`qwirkle_tools.replay.check`) would
report nothing. Whenever anything is unusual (a missing rack or draw, a
setup, a pass, a blocked end, a float where an integer is due) or wrong, it
returns ``False``, meaning "ask the full check", which then finds and
explains the problem. So it speeds up the common case but never changes a
verdict; a differential test holds it to that.

Self-play corpora and exports from programs record every rack and draw and
are almost always clean, which is where the speed matters. The scoring here
works on bit masks (one bit per tile): a line is valid when its tiles are
distinct (as many bits as tiles) and all within one colour's or one
shape's mask.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .board import _SHIFT, STEP_X, STEP_Y
from .rules import DEFAULT_RULES, LINE_MAX
from .tiles import BY_NAME, COPIES, RACK_SIZE, TILE_COUNT, largest_group

_COLOUR_MASK = [sum(1 << (c * 6 + s) for s in range(6)) for c in range(6)]
_SHAPE_MASK = [sum(1 << (c * 6 + s) for c in range(6)) for s in range(6)]
_FULL = (1 << 36) - 1
# for each tile: the tiles outside its colour, and outside its shape
_NOT_COLOUR = [_FULL & ~_COLOUR_MASK[t // 6] for t in range(36)]
_NOT_SHAPE = [_FULL & ~_SHAPE_MASK[t % 6] for t in range(36)]


def _through(get: Callable[[int], int | None], key: int, step: int, t: int, bonus: int) -> int:
    """The points of the board line along ``step`` through tile ``t`` on empty
    ``key`` (0 for a lone tile), or -1 if that line is invalid."""
    mask = 1 << t
    length = 1
    k = key - step
    u = get(k)
    while u is not None:
        mask |= 1 << u
        length += 1
        k -= step
        u = get(k)
    k = key + step
    u = get(k)
    while u is not None:
        mask |= 1 << u
        length += 1
        k += step
        u = get(k)
    if length == 1:
        return 0
    if length > LINE_MAX or mask.bit_count() != length or (mask & _NOT_COLOUR[t] and mask & _NOT_SHAPE[t]):
        return -1
    return length + (bonus if length == LINE_MAX else 0)


def _score(cells: dict[int, int], keys: list[int], tiles: list[int], step: int, bonus: int, lone: int) -> int:
    """The score of a legal placement along ``step`` (its row or column), or
    -1 if it breaks any rule."""
    n = len(keys)
    get = cells.get
    if n == 1:
        key = keys[0]
        t = tiles[0]
        if key in cells:
            return -1
        total = 0
        for step in (STEP_X, STEP_Y):
            points = _through(get, key, step, t, bonus)
            if points < 0:
                return -1
            total += points
        if not total:
            return -1 if cells else lone
        return total
    cross = STEP_Y if step == STEP_X else STEP_X
    new = dict(zip(keys, tiles))
    if len(new) != n:
        return -1
    for k in keys:
        if k in cells:
            return -1
    lo, hi = min(keys), max(keys)
    k = lo
    while k - step in cells:
        k -= step
    mask = 0
    length = 0
    first = tiles[0]
    while True:
        u = get(k)
        if u is None:
            u = new.get(k)
            if u is None:
                break
        mask |= 1 << u
        length += 1
        k += step
    if k <= hi or length > LINE_MAX or mask.bit_count() != length or (
            mask & _NOT_COLOUR[first] and mask & _NOT_SHAPE[first]):
        return -1
    total = length + (bonus if length == LINE_MAX else 0)
    touched = length > n
    for key, t in new.items():
        points = _through(get, key, cross, t, bonus)
        if points < 0:
            return -1
        if points:
            touched = True
            total += points
    if cells and not touched:
        return -1
    return total


def clean(data: dict[str, Any]) -> bool:
    """Whether a record that passed the schema engine is certainly free of findings."""
    try:
        return _clean(data)
    except (KeyError, TypeError, ValueError):  # not the shape this path reads: ask the full check
        return False


def _ints(*values: Any) -> bool:
    return all(type(v) is int for v in values)


def _clean(data: dict[str, Any]) -> bool:
    if "setup" in data or type(data["version"]) is not int:
        return False
    rules = data.get("rules")
    if rules is None:
        lone, bonus, end_bonus = DEFAULT_RULES.lone_tile_score, DEFAULT_RULES.qwirkle_bonus, DEFAULT_RULES.end_bonus
    else:
        lone = rules.get("lone_tile_score", DEFAULT_RULES.lone_tile_score)
        bonus = rules.get("qwirkle_bonus", DEFAULT_RULES.qwirkle_bonus)
        end_bonus = rules.get("end_bonus", DEFAULT_RULES.end_bonus)
        if not _ints(lone, bonus, end_bonus):
            return False
    n = len(data["players"])
    bag = TILE_COUNT - RACK_SIZE * n
    if bag < 0:
        return False
    racks: list[list[int] | None] = [None] * n
    opening = [0] * n
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
        if type(p) is not int or p >= n or (expected >= 0 and p != expected):
            return False
        expected = (p + 1) % n
        rack: list[int] = [names[t] for t in turn["rack"]]
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
        if score is not None and type(score) is not int:
            return False
        if action == "place":
            placed = turn["tiles"]
            keys: list[int] = []
            tiles: list[int] = []
            x0, y0 = placed[0]["x"], placed[0]["y"]
            same_x = same_y = True
            for d in placed:
                x, y = d["x"], d["y"]
                if type(x) is not int or type(y) is not int:
                    return False
                same_x = same_x and x == x0
                same_y = same_y and y == y0
                keys.append((x << _SHIFT) + y)
                t = names[d["tile"]]
                tiles.append(t)
                if t in rack:
                    rack.remove(t)
                else:
                    return False
            if not cells and len(tiles) < largest_group(rack + tiles):
                return False
            if not (same_x or same_y):
                return False
            points = _score(cells, keys, tiles, STEP_X if same_y else STEP_Y, bonus, lone)
            if points < 0:
                return False
            for k, t in zip(keys, tiles):
                cells[k] = t
            if len(draw) != min(len(tiles), bag):
                return False
            bag -= len(draw)
            if not bag and not rack and not draw:
                points += end_bonus
                ended = True
        elif action == "exchange":
            out_names = turn["tiles"]
            count = turn.get("count")
            if not cells or (count is not None and (type(count) is not int or count != len(out_names))) \
                    or len(out_names) > bag or len(draw) != len(out_names) or score:
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
        if scores is not None and (scores != totals or not _ints(*scores)):
            return False
        end = result.get("end")
        if end is not None and (end == "blocked" or (end == "out") != ended):
            return False
    return True
