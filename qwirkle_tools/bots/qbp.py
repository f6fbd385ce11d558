"""The Qwirkle bot protocol (QBP), version 1: its messages, and a bot that speaks it.

Lines of UTF-8 text, one message a line, over a bot's standard input and
output; the referee speaks first, and a bot ignores lines it does not know
(``docs/bots.md`` is the whole protocol)::

    referee                                   bot
    qbp                                       id name NAME / id author NAME / qbpok
    isready                                   readyok
    newgame players N seat S
    isready                                   readyok          (again before each position)
    position {"format": "qwirkle-record", ...}
    rack rc rd bs
    go movetime 1000                          info ... / bestmove rc@0,0 rd@1,0
    gameover {"scores": [41, 37], ...}        (nothing: the game is over)
    quit                                      (exits)

``position`` is the game so far as one line of the record format, holding
only what seat S may know (:meth:`~qwirkle_tools.play.game.SeatView.record`);
``bestmove`` is the notation's text of a move (:class:`~qwirkle_tools.core.move.Move`).

:func:`serve` is a bot: it answers a referee with a built-in policy
(``qwirkle bot --policy NAME``), so the toolkit's engines can play under any
referee that speaks QBP.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial

from ..core.errors import QwirkleError
from ..core.safetext import json_text
from ..core.tiles import parse_tiles
from ..formats.jsontext import JSON, parse_json
from ..formats.record import from_data
from ..play.game import Move, SeatView

VERSION = 1


def position_line(view: SeatView) -> str:
    """The ``position`` message for a seat's view: the record the seat may know, as one JSON line."""
    return "position " + json_text(view.record().to_data(), separators=(",", ":"))


def rack_line(view: SeatView) -> str:
    return "rack " + " ".join(t.short for t in view.rack)


def go_line(movetime_ms: int) -> str:
    return f"go movetime {movetime_ms}"


def newgame_line(players: int, seat: int) -> str:
    return f"newgame players {players} seat {seat}"


def gameover_line(result: Mapping[str, JSON]) -> str:
    """The ``gameover`` message: the game's result as the record format writes it (its scores,
    how it ended and, if a seat forfeited, ``x-forfeit`` with the seat, code and reason)."""
    return "gameover " + json_text(result, separators=(",", ":"))


def parse_bestmove(line: str) -> Move:
    """The move of a ``bestmove MOVE`` line.

    Raises:
        ValueError: the line is no ``bestmove``, or its move cannot be read.
    """
    word, _, rest = line.partition(" ")
    if word != "bestmove":
        raise ValueError(f"expected 'bestmove MOVE', got {line[:80]!r}")
    return Move.parse(rest)


@dataclass
class _Seat:
    players: int = 2
    seat: int = 0
    position: str | None = None
    rack: str = ""


def serve(choose: Callable[[SeatView, int], Move], lines: Iterable[str], say: Callable[[str], None],
          name: str, author: str = "qwirkle-tools", timed: Callable[[SeatView, int, int], Move] | None = None) -> None:
    """Answer a referee: read its ``lines``, ``say`` each reply (one line, no line end).

    ``choose(view, seed)`` picks the move; the seed is the turn's number, so
    the same game is played the same way. ``timed``, if given, is called
    instead when ``go`` gives a ``movetime`` (with it, in milliseconds). A message this bot cannot act on
    (a position that is not a record, a rack that is not tiles) is answered
    with ``info error ...`` and, on ``go``, with ``bestmove pass``: the
    referee then judges the move; the bot never stops on bad input. Returns
    on ``quit`` or at the end of the input.
    """
    state = _Seat()
    for raw in lines:
        words = raw.split()
        if not words:
            continue
        command = words[0]
        if command == "qbp":
            say(f"id name {name}")
            say(f"id author {author}")
            say("qbpok")
        elif command == "isready":
            say("readyok")
        elif command == "newgame":
            state = _Seat()
            try:
                state.players = int(words[words.index("players") + 1])
                state.seat = int(words[words.index("seat") + 1])
            except (ValueError, IndexError):
                say(f"info error cannot read {raw.strip()[:80]!r}")
        elif command == "position":
            state.position = raw.strip()[len("position"):].strip()
        elif command == "rack":
            state.rack = " ".join(words[1:])
        elif command == "go":
            movetime = _movetime(words)
            if timed is not None and movetime is not None:
                say(f"bestmove {_answer(partial(_timed, timed, movetime), state, say)}")
            else:
                say(f"bestmove {_answer(choose, state, say)}")
        elif command == "quit":
            return


def _timed(timed: Callable[[SeatView, int, int], Move], movetime: int, view: SeatView, seed: int) -> Move:
    return timed(view, seed, movetime)


def _movetime(words: list[str]) -> int | None:
    """The ``movetime`` of a ``go`` line's words (``None``: none given, or not a positive number)."""
    try:
        value = int(words[words.index("movetime") + 1])
    except (ValueError, IndexError):
        return None
    return value if value > 0 else None


def _answer(choose: Callable[[SeatView, int], Move], state: _Seat, say: Callable[[str], None]) -> Move:
    """The move for the position last given, or a pass (with ``info error``) where it cannot be read."""
    try:
        if state.position is None:
            raise ValueError("no position given before go")
        record = from_data(parse_json(state.position))
        view = SeatView.from_record(record, state.seat, parse_tiles(state.rack.split()))
        return choose(view, len(record.turns) + 1)
    except (ValueError, QwirkleError) as exc:  # (a Python player's forfeit: said, and a pass)
        say(f"info error {' '.join(str(exc).split())[:200]}")
        return Move.pass_turn()


__all__ = ["VERSION", "gameover_line", "go_line", "newgame_line", "parse_bestmove", "position_line", "rack_line", "serve"]
