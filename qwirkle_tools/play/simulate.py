"""Self-play: complete, legal games written as records with every rack and draw.

The same seed gives the same game. ``greedy`` plays the highest-scoring
move, ``random`` any legal move, ``lookahead`` the move of highest score less
the next player's expected best reply (:mod:`qwirkle_tools.play.lookahead`, seeded
per game and turn), ``equity`` the move of highest score plus leave value, an exchange
included (:mod:`qwirkle_tools.play.equity`). Each seat may have its own policy (``("lookahead", "greedy")``). A
player who cannot place exchanges the whole rack (as much of it as the bag
allows); with an empty bag they pass. When nobody can ever place again (no
tile left in the bag or any rack fits anywhere on the board, a dead
position) the game is blocked and stops there, as RULES.md says.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

from ..core.board import Placement, key_cell
from ..core.movegen import best_move, generate_raw
from ..core.rules import DEFAULT_RULES, Rules, dead
from ..core.tiles import TILES
from ..formats.record import Player, Record, Result, Turn
from .engine import Game
from .equity import Exchange, ranked
from .leaves import Leaves
from .ledger import Dealer
from .lookahead import DEFAULT, Settings, choose

Policy = Literal["greedy", "random", "lookahead", "equity"]
POLICIES: tuple[Policy, ...] = ("greedy", "random", "lookahead", "equity")


def simulate(
    players: int = 2, seed: int = 0, policy: Policy | Sequence[Policy] = "greedy", rules: Rules = DEFAULT_RULES,
    settings: Settings = DEFAULT, leaves: Leaves | None = None,
) -> dict[str, Any]:
    """One self-play game as record data (see :func:`qwirkle_tools.formats.record.from_data`).

    ``policy``: one for every seat, or one per seat (seat 0 first).
    ``settings``: the look-ahead engine's, for its seats; ``leaves``: the equity
    player's leave model (``None``: the shipped one).
    Every turn is played through a strict :class:`~qwirkle_tools.play.engine.Game`,
    which scores it (end bonus included) and would refuse an illegal one.
    """
    if not 2 <= players <= 6:
        raise ValueError(f"players must be 2 to 6, not {players}")
    policies = seat_policies(policy, players)
    dealer, p = Dealer.deal(players, seed)  # the largest group starts; on a tie the lower seat (the record just says who)
    rng, bag, racks = dealer.rng, dealer.bag, dealer.racks  # (the dealer's own lists: read here, changed by the dealer)
    names = [f"Bot {i + 1}" for i in range(players)]
    game = Game(names, rules)
    cells = game.cells  # the engine's board, read by the move generator
    turns: list[Turn] = []
    end = "unfinished"
    for _ in range(10_000):
        rack = racks[p]
        held = tuple(TILES[t] for t in rack)
        out: list[int] | None = None  # the tiles the policy exchanges by choice
        if policies[p] == "equity":
            best = ranked(cells, rack, len(bag), rules, leaves, limit=1)
            chosen = best[0].move if best else None
            move = None
            if isinstance(chosen, Exchange):
                out = list(chosen.tiles)
            elif chosen is not None:
                move = chosen[0], chosen[2], chosen[3]
        elif policies[p] == "lookahead":
            pool = bag + [t for q, r in enumerate(racks) if q != p for t in r]  # what seat p has not seen
            nxt = racks[(p + 1) % players]
            found = choose(cells, rack, pool, len(nxt), len(bag), rules, game_seed(seed, len(turns)), settings)
            move = None if found is None else (found[0], found[2], found[3])
        else:
            move = _choose(cells, rack, rules, policies[p], rng)
        if move is not None:
            _, keys, tiles = move
            drawn = dealer.place(p, tiles)
            turn = Turn(p, "place", tiles=tuple(Placement(TILES[t], *key_cell(k)) for k, t in zip(keys, tiles)),
                        rack=held, draw=tuple(TILES[t] for t in drawn))
        elif bag:
            if dead(cells, bag + [t for r in racks for t in r]):
                end = "blocked"  # no tile left anywhere fits the board: the game ends at once
                break
            if out is None:
                out = rack[: min(len(rack), len(bag))]
            drawn = dealer.exchange(p, out)[0]
            turn = Turn(p, "exchange", exchanged=tuple(TILES[t] for t in out), rack=held,
                        draw=tuple(TILES[t] for t in drawn))
        else:
            if not any(best_move(cells, r, rules) for r in racks):
                end = "blocked"
                break
            turn = Turn(p, "pass", rack=held)
        points = game.play(turn, state=False).points
        turns.append(turn._replace(score=points))
        if game.ended == "out":
            end = "out"
            break
        p = (p + 1) % players
    record = Record(
        players=tuple(Player(name) for name in names), turns=tuple(turns), rules=rules,
        result=Result(tuple(game.totals), end),  # type: ignore[arg-type]
        meta={"event": "self-play", "seed": seed, "policy": policy if isinstance(policy, str) else ",".join(policy)},
    )
    return record.to_data()


def seat_policies(policy: Policy | Sequence[Policy], players: int) -> tuple[Policy, ...]:
    """The policy of each seat: one for all, or one per seat.

    Raises:
        ValueError: an unknown policy, or a list not of one per seat.
    """
    chosen: tuple[str, ...] = (policy,) * players if isinstance(policy, str) else tuple(policy)
    unknown = [p for p in chosen if p not in POLICIES]
    if unknown:
        raise ValueError(f"unknown policy {unknown[0]!r}: choose from {', '.join(POLICIES)}")
    if len(chosen) != players:
        raise ValueError(f"give one policy, or one per seat: {players} for {players} players, not {len(chosen)}")
    return chosen  # type: ignore[return-value]


def simulate_line(index: int, players: int = 2, seed: int = 0, policy: Policy | Sequence[Policy] = "greedy") -> bytes:
    """Game ``index`` of a corpus made with ``seed``, as one compact JSON line."""
    import json

    data = simulate(players, game_seed(seed, index), policy)
    return (json.dumps(data, separators=(",", ":")) + "\n").encode("utf-8")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a corpus made with ``seed``: distinct
    corpora do not share games, and game i is the same however many are made."""
    return (seed * 1_000_003 + index) % (1 << 63)


def _choose(cells: dict[int, int], rack: list[int], rules: Rules, policy: str,
            rng: random.Random) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
    """The move to play, as (score, cell keys, tiles), or ``None`` if none is legal.

    Both policies generate every legal move: greedy takes the first (best)
    of :func:`~qwirkle_tools.core.movegen.generate`'s order, random any of them.
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
