"""Slipped games: self-play games written out as a club writes them (``.qgn``, by the project's own
writer, no racks), with one slip of the pen of a given kind and a second, independent one later
(a wrong score), for the tests of the repair (tests/analysis/test_repair.py) and its benchmark
(benchmarks/bench_slips.py).

Each kind changes one turn's line the way a pen does: ``cell`` (a tile written a cell off),
``swap`` (two tiles of a line swapped), ``tile`` (a tile misspelt: its shape letter a ``z``),
``coordinate`` (a cell's comma written as a semicolon), ``name`` (the other player's name),
``number`` (the turn's number left out), ``repeat`` (a line written twice), ``renumber`` (a turn
numbered as the one before it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from qwirkle_tools.engines.selfplay import game_seed, simulate
from qwirkle_tools.formats.qgn.write import format_qgn
from qwirkle_tools.formats.record import from_data

KINDS = ("cell", "swap", "tile", "coordinate", "name", "number", "repeat", "renumber")
NAMES = ("Ana", "Ben")


@dataclass(frozen=True)
class Slipped:
    """A game's text with its slips: the kind, the 1-based turn of the first slip and the line as it
    was (``original``: the move's tiles as written before the slip), and the turn of the second (a
    score 3 more than the move scored)."""

    kind: str
    text: str
    turn: int
    original: str
    second: int


def game_lines(seed: int, g: int) -> list[str]:
    """A two-player greedy-against-equity self-play game in the notation, racks and draws left out."""
    data = simulate(2, game_seed(seed, g), ["greedy", "equity"] if g % 2 else ["equity", "greedy"])
    for turn in data["turns"]:
        turn.pop("rack", None)
        turn.pop("draw", None)
    data.pop("setup", None)
    data["players"] = [{"name": n} for n in NAMES]
    return format_qgn(from_data(data)).splitlines()


def slipped(kind: str, seed: int, g: int) -> Slipped | None:
    """Game ``g`` of ``seed`` with a slip of ``kind`` on a turn drawn at random (among those it can
    be made on) and a wrong score at least four turns later; ``None`` if the game has no such turn."""
    rng = random.Random(f"{kind} {seed} {g}")
    lines = game_lines(seed, g)
    turns = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    if len(turns) < 12:
        return None
    places = [i for i in turns[2:-6] if "@" in lines[i] and (kind != "swap" or _swappable(lines[i]))]
    if not places:
        return None
    at = rng.choice(places)
    number = turns.index(at) + 1
    later = [i for i in turns[turns.index(at) + 4:-1] if "@" in lines[i]]
    if not later:
        return None
    second = rng.choice(later)
    head, _, rest = lines[second].partition(" ")
    words = rest.split()
    words[-1] = str(int(words[-1]) + 3)
    lines[second] = f"{head} {' '.join(words)}"
    original = " ".join(w for w in lines[at].split() if "@" in w)
    lines[at:at + 1] = _slip(kind, lines[at], rng)
    # a line written twice is the turn after it as read; the turns after it keep their numbers as meant
    return Slipped(kind, "\n".join(lines) + "\n", number + (kind == "repeat"), original, turns.index(second) + 1)


def _swappable(line: str) -> bool:
    tiles = [w.partition("@")[0] for w in line.split() if "@" in w]
    return len(set(tiles)) >= 2


def _slip(kind: str, line: str, rng: random.Random) -> list[str]:
    """The line (or lines) written with the slip."""
    head, _, rest = line.partition(" ")
    words = rest.split()
    placed = [k for k, w in enumerate(words) if "@" in w]
    if kind == "cell":
        k = rng.choice(placed)
        tile, _, cell = words[k].partition("@")
        x, y = map(int, cell.split(","))
        dx, dy = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
        words[k] = f"{tile}@{x + dx},{y + dy}"
    elif kind == "swap":
        pairs = [(a, b) for a in placed for b in placed if a < b and words[a][:2] != words[b][:2]]
        a, b = rng.choice(pairs)
        ta, _, ca = words[a].partition("@")
        tb, _, cb = words[b].partition("@")
        words[a], words[b] = f"{tb}@{ca}", f"{ta}@{cb}"
    elif kind == "tile":
        k = rng.choice(placed)
        words[k] = words[k][0] + "z" + words[k][2:]
    elif kind == "coordinate":
        k = rng.choice(placed)
        words[k] = words[k].replace(",", ";")
    elif kind == "name":
        words[0] = NAMES[1 - NAMES.index(words[0])]
    elif kind == "number":
        return [rest]
    elif kind == "repeat":
        return [line, line]
    elif kind == "renumber":
        head = f"{int(head[:-1]) - 1}."
    return [f"{head} {' '.join(words)}"]


__all__ = ["KINDS", "Slipped", "game_lines", "slipped"]
