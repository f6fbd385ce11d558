"""Self-play: complete, legal games written as records with every rack and draw.

The same seed gives the same game. The policies are deliberately simple:
``greedy`` plays the highest-scoring move, ``random`` any legal move. A
player who cannot place exchanges the whole rack (as much of it as the bag
allows); with an empty bag they pass, and when nobody can place the game is
blocked and stops. A game in which no tile left (in the bag or any rack)
fits anywhere on the board can never end: it stops there, "unfinished".
"""

from __future__ import annotations

import random
from typing import Any, Literal

from .board import key_cell
from .movegen import best_move, generate_raw
from .record import FORMAT, VERSION
from .rules import DEFAULT_RULES, Rules, playable_tile
from .tiles import COPIES, RACK_SIZE, TILES, largest_group

Policy = Literal["greedy", "random"]


def simulate(
    players: int = 2, seed: int = 0, policy: Policy = "greedy", rules: Rules = DEFAULT_RULES
) -> dict[str, Any]:
    """One self-play game as record data (see :func:`qwirkle_tools.record.from_data`)."""
    if not 2 <= players <= 6:
        raise ValueError(f"players must be 2 to 6, not {players}")
    rng = random.Random(seed)
    bag = [t for t in range(len(TILES)) for _ in range(COPIES)]
    rng.shuffle(bag)
    racks = [[bag.pop() for _ in range(RACK_SIZE)] for _ in range(players)]
    # the largest group starts; on a tie the lower seat (the record just says who)
    p = max(range(players), key=lambda s: (largest_group(racks[s]), -s))
    cells: dict[int, int] = {}
    scores = [0] * players
    turns: list[dict[str, Any]] = []
    end = "unfinished"
    for _ in range(10_000):
        rack = racks[p]
        move = _choose(cells, rack, rules, policy, rng)
        turn: dict[str, Any] = {"player": p, "action": "place", "rack": [str(TILES[t]) for t in rack]}
        if move is not None:
            score, keys, tiles = move
            placed = []
            for key, t in zip(keys, tiles):
                cells[key] = t
                rack.remove(t)
                x, y = key_cell(key)
                placed.append({"tile": str(TILES[t]), "x": x, "y": y})
            drawn = [bag.pop() for _ in range(min(len(tiles), len(bag)))]
            rack.extend(drawn)
            points = score + (rules.end_bonus if not rack else 0)
            turn.update(tiles=placed, score=points, draw=[str(TILES[t]) for t in drawn])
            scores[p] += points
            turns.append(turn)
            if not rack:
                end = "out"
                break
        elif bag:
            if playable_tile(cells, bag + [t for r in racks for t in r]) is None:
                break  # a dead position: no tile left anywhere fits the board, so the game cannot end
            out = rack[: min(len(rack), len(bag))]
            drawn = [bag.pop() for _ in range(len(out))]
            for t in out:
                rack.remove(t)
            rack.extend(drawn)
            bag.extend(out)
            rng.shuffle(bag)
            turn.update(action="exchange", tiles=[str(TILES[t]) for t in out], score=0,
                        draw=[str(TILES[t]) for t in drawn])
            turns.append(turn)
        else:
            if not any(best_move(cells, r, rules) for r in racks):
                end = "blocked"
                break
            turn.update(action="pass", score=0)
            turns.append(turn)
        p = (p + 1) % players
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "meta": {"event": "self-play", "seed": seed, "policy": policy},
    }
    if rules != DEFAULT_RULES:
        record["rules"] = {"lone_tile_score": rules.lone_tile_score, "qwirkle_bonus": rules.qwirkle_bonus,
                           "end_bonus": rules.end_bonus}
    record.update(players=[{"name": f"Bot {i + 1}"} for i in range(players)], turns=turns,
                  result={"scores": scores, "end": end})
    return record


def simulate_line(index: int, players: int = 2, seed: int = 0, policy: Policy = "greedy") -> bytes:
    """Game ``index`` of a corpus made with ``seed``, as one compact JSON line."""
    import json

    data = simulate(players, game_seed(seed, index), policy)
    return (json.dumps(data, separators=(",", ":")) + "\n").encode("utf-8")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a corpus made with ``seed``: distinct
    corpora do not share games, and game i is the same however many are made."""
    return (seed * 1_000_003 + index) % (1 << 63)


def _choose(cells: dict[int, int], rack: list[int], rules: Rules, policy: Policy,
            rng: random.Random) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
    """The move to play, as (score, cell keys, tiles), or ``None`` if none is legal.

    Both policies generate every legal move: greedy takes the first (best)
    of :func:`~qwirkle_tools.movegen.generate`'s order, random any of them.
    """
    if policy == "greedy":
        best = best_move(cells, rack, rules, largest_first=not cells)
        if best is None:
            return None
        return best.score, tuple(p.key for p in best.tiles), tuple(p.tile for p in best.tiles)
    moves = generate_raw(cells, rack, rules, largest_first=not cells)
    if not moves:
        return None
    score, _, keys, tiles = moves[rng.randrange(len(moves))]
    return score, keys, tiles
