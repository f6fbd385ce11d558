"""Who played each seat of a game the toolkit played, as its record's ``meta`` says.

A match or tournament (:mod:`qwirkle_tools.bots.match`) writes ``bot-S``, the
spec of seat ``S``'s player (``greedy``, ``mybot.py:play``, ``cmd:...``); a
self-play corpus (:mod:`qwirkle_tools.engines.selfplay`) writes ``policy``, one
policy for every seat or one per seat, comma-separated. :func:`bot_meta` and
:func:`seat_bots` are the pair that writes and reads these keys, so the
tables, the statistics and the ratings read them in one way; :func:`forfeit_seat`
reads who lost a match's game by forfeit. A record that
has neither (a club's game) names no bot: its players are known by name only.

>>> seat_bots(bot_meta(["greedy", "cmd:./mybot"]), 2)
('greedy', 'cmd:./mybot')
>>> seat_bots({"event": "self-play", "policy": "lookahead,greedy"}, 2)
('lookahead', 'greedy')
>>> seat_bots({"policy": "greedy"}, 3)
('greedy', 'greedy', 'greedy')
>>> seat_bots({}, 2)
(None, None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..formats.jsontext import JSON
from ..formats.record import Record


def bot_meta(specs: Sequence[str]) -> dict[str, JSON]:
    """The ``meta`` keys that name each seat's player: ``bot-0``, ``bot-1``, ..."""
    return {f"bot-{seat}": spec for seat, spec in enumerate(specs)}


def seat_bots(meta: Mapping[str, JSON], players: int) -> tuple[str | None, ...]:
    """Each seat's bot or policy from ``meta`` (``None`` where it names none): a match's
    ``bot-S``, else self-play's ``policy``. Values that are not text name nothing."""
    found: list[str | None] = []
    policy = meta.get("policy")
    policies = policy.split(",") if isinstance(policy, str) and policy else []
    if len(policies) == 1:
        policies *= players
    for seat in range(players):
        bot = meta.get(f"bot-{seat}")
        if isinstance(bot, str):
            found.append(bot)
        else:
            found.append(policies[seat] if len(policies) == players else None)
    return tuple(found)


def forfeit_seat(record: Record) -> int | None:
    """The seat that lost the game by forfeit (a match's ``x-forfeit`` in the result), if any."""
    forfeit = record.result.extra.get("x-forfeit") if record.result is not None else None
    seat = forfeit.get("seat") if isinstance(forfeit, dict) else None
    return seat if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(record.players) else None


__all__ = ["bot_meta", "forfeit_seat", "seat_bots"]
