"""The built-in players: a move for what one seat may know (a :class:`~qwirkle_tools.play.game.SeatView`).

* ``greedy``: the legal placement that scores most (end bonus included);
* ``random``: any legal placement, uniformly;
* ``lookahead``: the look-ahead engine's placement (:mod:`qwirkle_tools.engines.lookahead`);
* ``equity``: the move of highest score plus leave value, exchanges included (:mod:`qwirkle_tools.engines.equity`);
* ``sim``: the simulation engine's placement (:mod:`qwirkle_tools.engines.simulation`).

The three searches keep a time per move when one is given (:data:`TIMED`: a match's
``--movetime``), their move generations included; in a real game they take a small
part of it, so the time decides nothing there (only a pathological board makes it bite).

A player with no legal placement exchanges its whole rack (as much of it as
the bag allows); with the bag empty it passes. Each choice is seeded (the
``seed`` a game and turn give), so a policy plays the same game twice.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal

from ..core.board import Placement, key_cell
from ..core.tiles import TILES, each_copy
from ..play.game import Move, SeatView
from .equity import equity
from .lookahead import DEFAULT, Settings, choose
from .simulation import DEFAULT as SIM_DEFAULT
from .simulation import Settings as SimSettings
from .simulation import choose as sim_choose

PolicyName = Literal["greedy", "random", "lookahead", "equity", "sim"]
POLICIES: tuple[PolicyName, ...] = ("greedy", "random", "lookahead", "equity", "sim")

Policy = Callable[[SeatView, int], Move]
"""A policy: the move for a seat's view and a seed."""
TimedPolicy = Callable[[SeatView, int, int], Move]
"""A policy that also takes a time per move, in milliseconds (a match's ``--movetime``)."""


def greedy(view: SeatView, seed: int = 0) -> Move:
    """The first of :meth:`SeatView.legal_moves`: the highest score, end bonus included; with
    no placement, the :func:`fallback` (every player's: the whole rack exchanged, as much of it
    as the bag allows, else a pass)."""
    if view.over or view.seat != view.to_move:
        raise ValueError(f"seat {view.seat} has no move: it is seat {view.to_move}'s turn, or the game is over")
    best = view.best_placement()
    return best if best is not None else fallback(view)


def random_placement(view: SeatView, seed: int = 0) -> Move:
    """A legal placement chosen uniformly by ``seed``, else the fallback."""
    moves = view.legal_moves()
    placements = [m for m in moves if m.action == "place"]
    if placements:
        return placements[random.Random(seed).randrange(len(placements))]
    return fallback(view)


def lookahead(view: SeatView, seed: int = 0, settings: Settings = DEFAULT, movetime_ms: int | None = None) -> Move:
    """The look-ahead engine's placement (the next player's rack sampled by ``seed``), else the
    fallback; within ``movetime_ms`` when given."""
    cells = view.board.cells
    pool = each_copy(view.unseen)
    following = view.rack_sizes[(view.seat + 1) % len(view.rack_sizes)]
    found = choose(dict(cells), list(view.rack), pool, following, view.bag, view.rules, seed, settings, movetime_ms)
    if found is None:
        return fallback(view)
    score, _, keys, tiles = found
    return Move.place((Placement(TILES[t], *key_cell(k)) for k, t in zip(keys, tiles)), score)


def sim(view: SeatView, seed: int = 0, movetime_ms: int | None = None, settings: SimSettings = SIM_DEFAULT) -> Move:
    """The simulation engine's placement (racks and draws sampled by ``seed``), else the fallback.

    Its budget: :data:`~qwirkle_tools.engines.simulation.ITERATIONS` iterations (with
    statistical stopping) and, when ``movetime_ms`` is given, at most that time
    (a time budget makes the choice depend on the machine's speed)."""
    found = sim_choose(view, seed, movetime_ms, settings)
    return fallback(view) if found is None else found


def fallback(view: SeatView) -> Move:
    """With no placement: exchange the whole rack, as much of it as the bag allows; else pass."""
    if view.bag:
        return Move.exchange(view.rack[: min(len(view.rack), view.bag)])
    return Move.pass_turn()


def timed_lookahead(view: SeatView, seed: int, movetime_ms: int) -> Move:
    """:func:`lookahead` within ``movetime_ms``."""
    return lookahead(view, seed, movetime_ms=movetime_ms)


def timed_equity(view: SeatView, seed: int, movetime_ms: int) -> Move:
    """:func:`~qwirkle_tools.engines.equity.equity` within ``movetime_ms``."""
    return equity(view, seed, movetime_ms=movetime_ms)


BUILT_IN: dict[str, Policy] = {"greedy": greedy, "random": random_placement, "lookahead": lookahead, "equity": equity,
                               "sim": sim}
TIMED: dict[str, TimedPolicy] = {"lookahead": timed_lookahead, "equity": timed_equity, "sim": sim}
"""The built-in policies that take a match's time per move (the others ignore it)."""


def policy(name: str) -> Policy:
    """The built-in policy called ``name``.

    Raises:
        ValueError: no such policy; the message lists them.
    """
    found = BUILT_IN.get(name)
    if found is None:
        raise ValueError(f"unknown policy {name!r}: choose from {', '.join(POLICIES)}")
    return found


__all__ = ["BUILT_IN", "POLICIES", "TIMED", "Policy", "PolicyName", "TimedPolicy", "equity", "fallback", "greedy",
           "lookahead", "policy", "random_placement", "sim", "timed_equity", "timed_lookahead"]
