"""Self-play: games between the built-in players, as records with every rack and draw.

A game is dealt by its seed (:meth:`~qwirkle_tools.play.game.Game.deal`); each seat's
player (a name of the one registry, :data:`~qwirkle_tools.engines.policies.BUILT_IN`)
chooses each move from its view, seeded by the game's seed and the turn, and
:meth:`~qwirkle_tools.play.game.Game.push` plays it. :func:`play_out` is the one loop
that plays games forward: a match (:mod:`qwirkle_tools.bots.match`) runs it with its
bots. The same seed gives the same game. It ends as the rules say (``docs/rules.md``):
a player goes out, or no tile left fits anywhere (blocked); players that only exchange
stop at :data:`~qwirkle_tools.formats.schema.MAX_TURNS` turns, unfinished.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ..core.rules import DEFAULT_RULES, Rules
from ..formats.schema import MAX_TURNS
from ..play.game import Game, Move, SeatView
from .leaves import Leaves
from .lookahead import DEFAULT, Settings
from .policies import BUILT_IN, POLICIES, PolicyName, equity, lookahead

Chooser = Callable[[SeatView, int], Move]
"""A seat's player in :func:`play_out`: the move for its view and a seed."""


def simulate(
    players: int = 2, seed: int = 0, policy: PolicyName | Sequence[PolicyName] = "greedy", rules: Rules = DEFAULT_RULES,
    settings: Settings = DEFAULT, leaves: Leaves | None = None,
) -> dict[str, Any]:
    """One self-play game as record data (see :func:`qwirkle_tools.formats.record.from_data`).

    ``policy``: one for every seat, or one per seat (seat 0 first).
    ``settings``: the look-ahead engine's, for its seats; ``leaves``: the equity
    player's leave model (``None``: the shipped one).
    """
    names = seat_policies(policy, players)
    game = Game.deal(players, seed, rules)
    play_out(game, [_chooser(name, settings, leaves) for name in names], seed)
    meta = {"event": "self-play", "seed": seed, "policy": policy if isinstance(policy, str) else ",".join(policy)}
    return game.record(meta).to_data()


def play_out(game: Game, players: Sequence[Chooser], seed: int, turns: int = MAX_TURNS) -> None:
    """Play ``game`` forward until it is over or holds ``turns`` turns: the seat to move's
    player chooses from its view, seeded by :func:`game_seed` of ``seed`` and the turn,
    and :meth:`~qwirkle_tools.play.game.Game.push` plays it.

    Raises:
        IllegalMoveError: a player chose a move the game refuses (the game is as before it).
    """
    while not game.is_over() and len(game) < turns:
        seat = game.to_move
        game.push(players[seat](game.view(seat), game_seed(seed, len(game))))


def _chooser(name: PolicyName, settings: Settings, leaves: Leaves | None) -> Chooser:
    if name == "lookahead" and settings is not DEFAULT:
        return partial(lookahead, settings=settings)
    if name == "equity" and leaves is not None:
        return partial(equity, leaves=leaves)
    return BUILT_IN[name]


def seat_policies(policy: PolicyName | Sequence[PolicyName], players: int) -> tuple[PolicyName, ...]:
    """The policy of each seat: one for all, or one per seat.

    Raises:
        ValueError: an unknown policy, or a list not of one per seat.
    """
    if not 2 <= players <= 6:
        raise ValueError(f"players must be 2 to 6, not {players}")
    chosen: tuple[str, ...] = (policy,) * players if isinstance(policy, str) else tuple(policy)
    unknown = [p for p in chosen if p not in POLICIES]
    if unknown:
        raise ValueError(f"unknown policy {unknown[0]!r}: choose from {', '.join(POLICIES)}")
    if len(chosen) != players:
        raise ValueError(f"give one policy, or one per seat: {players} for {players} players, not {len(chosen)}")
    return chosen  # type: ignore[return-value]


def simulate_line(index: int, players: int = 2, seed: int = 0, policy: PolicyName | Sequence[PolicyName] = "greedy") -> bytes:
    """Game ``index`` of a corpus made with ``seed``, as one compact JSON line."""
    import json

    data = simulate(players, game_seed(seed, index), policy)
    return (json.dumps(data, separators=(",", ":")) + "\n").encode("utf-8")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a corpus made with ``seed``: distinct
    corpora do not share games, and game i is the same however many are made."""
    return (seed * 1_000_003 + index) % (1 << 63)


__all__ = ["Chooser", "game_seed", "play_out", "seat_policies", "simulate", "simulate_line"]
