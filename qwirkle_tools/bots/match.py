"""Matches: paired deals (rotated deals for 3 to 6 players), forfeits, the summary and its intervals, SPRT.

A match seats players ``A``, ``B`` (and ``C`` to ``F`` in a game of more than
two). Deal ``k`` (seeded by :func:`~qwirkle_tools.engines.selfplay.game_seed` of the
match seed and ``k``, as a corpus seeds its games; a policy's choice at a turn
likewise of the deal's seed and the turn) is played ``n`` times, once in each
rotation of the ``n`` seats, so each player plays each deal from every seat and
the luck of the deal cancels out: games ``nk`` to ``nk + n - 1``. For two
players that is a pair, games ``2k`` and ``2k + 1`` with the seats swapped.
Every game is a record that validates, with the players' names and, in
``meta``, the match's seed, the deal (``pair``), the game's index, the bot of
each seat, the label of each seat and the move time. A player who forfeits
(:class:`~qwirkle_tools.bots.players.Forfeit`) loses that game: it is recorded
up to there, ended ``unfinished``, with the reason in the result's ``x-forfeit``
(``{"seat": S, "code": ..., "reason": ...}``).

The results and the summary are :mod:`qwirkle_tools.bots.results`'s;
:class:`Sprt` is the sequential probability ratio test between two Elo
hypotheses (Wald's, on the games' results), tested after each deal of a
two-player match. A match that was interrupted is continued by
:func:`resumed` and ``run_games(..., done=...)``: the same deals, from the
first game not yet played.
"""

from __future__ import annotations

import atexit
import contextlib
import datetime as dt
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..core.errors import QwirkleError
from ..core.safetext import one_line
from ..engines.selfplay import Chooser, game_seed, play_out
from ..formats.jsontext import JSON, parse_json
from ..formats.record import Record, from_data
from ..formats.schema import MAX_TURNS
from ..play.engine import IllegalMoveError
from ..play.game import Game, Move, SeatView
from ..play.seats import bot_meta
from .players import GRACE_MS, HANDSHAKE_S, MEMORY_MB, Bot, Forfeit, load
from .process import append
from .results import (
    SEAT_LABELS,
    Z95,
    Played,
    Results,
    Side,
    Summary,
    Tally,
    format_summary,
    mean_interval,
    outcome,
    place_outcome,
    place_points,
    standing,
    summarise,
    wilson,
)
from .sprt import Sprt

LABELS = SEAT_LABELS[:2]
"""The labels of a two-player match."""


class ResumeError(QwirkleError, ValueError):
    """An output to resume that holds no games of this match (the message says which line, and why)."""


def play(bots: Sequence[Bot], names: Sequence[str], seed: int, movetime_ms: int,
         meta: dict[str, JSON] | None = None) -> Record:
    """One game between ``bots`` (seat order), dealt by ``seed``; its record.

    A bot's :class:`~qwirkle_tools.bots.players.Forfeit`, or a move the game refuses,
    ends the game: the result says who forfeited and why. A game that reaches
    :data:`~qwirkle_tools.formats.schema.MAX_TURNS` turns (the most a record
    holds: players that only exchange) stops there, unfinished. Each bot is told
    the result (``gameover``); the bots are not closed (a forfeiting process bot
    is, so the next game starts a fresh one).
    """
    game = Game.deal(list(names), seed=seed)
    forfeit: dict[str, JSON] | None = None
    seat = game.to_move
    number = (meta or {}).get("game")
    playing = False
    try:
        for seat, bot in enumerate(bots):
            bot.new_game(len(bots), seat, f"game {number}, seat {seat}" if number is not None else f"seat {seat}")
        chosen: list[Move] = []  # the last move a bot chose, for a refusal's reason

        def player(bot: Bot) -> Chooser:
            def choose(view: SeatView, turn_seed: int) -> Move:
                chosen[:] = [bot.choose(view, turn_seed, movetime_ms)]
                return chosen[0]
            return choose

        playing = True  # (from here a forfeit is the seat to move's)
        try:
            play_out(game, [player(bot) for bot in bots], seed, MAX_TURNS)
        except IllegalMoveError as error:
            seat = game.to_move
            raise Forfeit("illegal", f"{bots[seat].name} played {chosen[0]}: {error.finding.code}: "
                                     f"{error.finding.message}") from None
    except Forfeit as lost:
        if playing:
            seat = game.to_move
        forfeit = {"seat": seat, "code": lost.code, "reason": str(lost)}
    record = game.record({**(meta or {}), "movetime": movetime_ms})
    if forfeit is not None:
        assert record.result is not None
        extra = {**record.result.extra, "x-forfeit": forfeit}
        record = _with_result_extra(record, extra)
    assert record.result is not None
    result = record.result.to_data()
    for s, bot in enumerate(bots):
        bot.end_game(result)
        if forfeit is not None and s == forfeit["seat"]:
            bot.close()
    return record


def _with_result_extra(record: Record, extra: dict[str, JSON]) -> Record:
    assert record.result is not None
    return replace(record, result=replace(record.result, extra=extra))


def pair_names(a: Bot, b: Bot) -> tuple[str, str]:
    """The players' names in the records: the bots' names, told apart when they are the same."""
    first, second = seat_names([a, b])
    return first, second


def seat_names(bots: Sequence[Bot]) -> tuple[str, ...]:
    """The players' names in the records: the bots' names, a name that two bots
    share told apart by the label (``greedy (A)``, ``greedy (B)``)."""
    names = [bot.name for bot in bots]
    return tuple(f"{name} ({label})" if names.count(name) > 1 else name for name, label in zip(names, SEAT_LABELS))


@dataclass(frozen=True, slots=True)
class Match:
    """What a match plays: players ``a``, ``b`` and ``others`` (specs, see
    :func:`~qwirkle_tools.bots.players.load`; ``others`` are C, D, ... in games of
    more than two), ``games`` games from ``seed``, ``movetime_ms`` a move; ``logs`` is
    where the bots' standard error goes (``{logs}.A.log``, ``{logs}.B.log``, ...), none if ``None``;
    ``event`` and ``extra`` go into every record's ``meta`` (a tournament's round)."""

    a: str
    b: str
    games: int
    seed: int = 0
    movetime_ms: int = 1_000
    memory_mb: int = MEMORY_MB
    grace_ms: int = GRACE_MS
    logs: str | None = None
    others: tuple[str, ...] = ()
    event: str = "match"
    extra: tuple[tuple[str, int], ...] = ()
    handshake_s: float = HANDSHAKE_S

    def __post_init__(self) -> None:
        if len(self.specs) > len(SEAT_LABELS):
            raise ValueError(f"a game has 2 to {len(SEAT_LABELS)} players, not {len(self.specs)}")

    @property
    def specs(self) -> tuple[str, ...]:
        """Each player's spec, in label order (A, B, ...)."""
        return (self.a, self.b, *self.others)

    @property
    def labels(self) -> tuple[str, ...]:
        return SEAT_LABELS[: len(self.specs)]

    @property
    def deals(self) -> int:
        """How many deals the match plays (the last one perhaps not in every rotation)."""
        return -(-self.games // len(self.specs))

    def log(self, label: str) -> Path | None:
        """Where the standard error of player ``label``'s program goes (``None``: nowhere)."""
        return None if self.logs is None else Path(f"{self.logs}.{label}.log")

    def bots(self) -> tuple[Bot, ...]:
        return tuple(load(spec, self.log(label), self.memory_mb, self.grace_ms, self.handshake_s)
                     for spec, label in zip(self.specs, self.labels))

    def meta(self, pair: int, rotation: int) -> dict[str, JSON]:
        """The ``meta`` of the game of deal ``pair`` in seat rotation ``rotation`` (but its ``movetime``)."""
        n = len(self.specs)
        order = [(seat + rotation) % n for seat in range(n)]  # the player (by label) in each seat
        return {"event": self.event, **dict(self.extra), "seed": self.seed, "pair": pair, "game": n * pair + rotation,
                **bot_meta([self.specs[p] for p in order]),
                **{f"label-{s}": self.labels[p] for s, p in enumerate(order)}}


_BOTS: dict[Match, tuple[Bot, ...]] = {}
"""This process's bots, per match (a worker plays many deals with the same bots)."""


def _bots_of(match: Match) -> tuple[Bot, ...]:
    found = _BOTS.get(match)
    if found is None:
        found = _BOTS[match] = match.bots()
    return found


def close_bots() -> None:
    """Close every bot this process started (:func:`run` does it when the match ends)."""
    while _BOTS:
        _, bots = _BOTS.popitem()
        for bot in bots:
            bot.close()


atexit.register(close_bots)  # whatever ends the process: its bots go with it


def names_of(match: Match) -> tuple[str, ...]:
    """The players' names: each bot started once to learn its name (a program's ``id name``)."""
    bots = _bots_of(match)
    for bot in bots:
        try:
            bot.start()
        except Forfeit:
            pass  # it forfeits its games; its name stays the one its spec gives
    return seat_names(bots)


def play_pair(match: Match, names: tuple[str, ...], pair: int, first: int = 0) -> list[Played]:
    """The games of deal ``pair``, dealt alike, in every rotation of the seats from
    rotation ``first`` on (two players: the seats swapped)."""
    bots = _bots_of(match)
    n = len(bots)
    played = []
    for rotation in range(first, n):
        order = [(seat + rotation) % n for seat in range(n)]  # the player (by label) in each seat
        record = play([bots[p] for p in order], [names[p] for p in order], game_seed(match.seed, pair),
                      match.movetime_ms, match.meta(pair, rotation))
        played.append(Played.of(record))
    return played


def _play_deal(match: Match, names: tuple[str, ...], deal: tuple[int, int]) -> list[Played]:
    return play_pair(match, names, *deal)


def resumed(match: Match, lines: Iterable[bytes], first_line: int = 1) -> list[Played]:
    """The games that an interrupted run of ``match`` wrote (its output's whole lines, in
    order), checked to be that match's first games: each line a record whose ``meta``
    is the one :meth:`Match.meta` gives its game (seed, deal, players, labels, event)
    with the match's move time. ``first_line``: the number of the first line, for messages.

    Raises:
        ResumeError: a line that is no record, or whose game is not this match's next one,
            or more games than the match plays.
    """
    n = len(match.specs)
    found: list[Played] = []
    for i, line in enumerate(lines):
        where = f"line {first_line + i:,}"
        if i >= match.games:
            raise ResumeError(f"{where}: more games than the {match.games:,} this match plays (give a larger --games)")
        try:
            record = from_data(parse_json(line))
        except ValueError as exc:
            raise ResumeError(f"{where} is not a record: {one_line(str(exc), most=120)}") from None
        want = {**match.meta(i // n, i % n), "movetime": match.movetime_ms}
        wrong = next((key for key, value in want.items() if record.meta.get(key) != value), None)
        if wrong is not None or record.result is None or record.result.scores is None:
            said = "no result" if wrong is None else f"{wrong} {one_line(repr(record.meta.get(wrong)), most=60)}"
            raise ResumeError(f"{where}: its game has {said}, not this match's game {i:,} "
                              f"({'a result' if wrong is None else one_line(repr(want[wrong]), most=60)}): "
                              "resume with the players and options that began it")
        found.append(Played.of(record, b""))
    return found


def run_games(match: Match, jobs: int = 1, sprt: Sprt | None = None, dask: str | None = None,
              workers: int | None = None, done: Sequence[Played] = ()) -> Generator[Played, None, None]:
    """The games of a match, in order (the same for any ``jobs`` and on a cluster): deal
    ``k`` is games ``nk`` (A in seat 0) to ``nk + n - 1``; for two players, ``2k`` and
    ``2k + 1`` (B in seat 0). A ``games`` that is no multiple of ``n`` plays the last deal
    in its first rotations only. With ``sprt`` the match stops after the deal at which the
    test decides. With ``dask`` (an address, see :func:`qwirkle_tools.corpus.cluster.connect`;
    ``workers`` for a local one) the deals are played on the cluster's workers, each
    with bots of its own, closed after each deal. ``done``: the games an earlier run
    played (:func:`resumed`), which are not played again (the test counts them). Every
    bot process here is gone when the generator ends, however it ends; each ``--jobs``
    worker sends its bots ``quit`` as it ends.

    Raises:
        ValueError: ``sprt`` for more than two players.
        ResumeError: the bots' names are not those of the games ``done``.
        qwirkle_tools.corpus.cluster.ClusterError: the cluster cannot be reached or went away.
    """
    from contextlib import ExitStack
    from functools import partial

    from ..corpus.rows import ordered_map

    if sprt is not None and len(match.specs) != 2:
        raise ValueError("the sequential test is for two players")
    n = len(match.specs)
    points = sum(game.outcome(game.seat_of("A")) for game in done)  # A's, for the test
    played = len(done)
    if played >= match.games or (sprt is not None and played and sprt.decide_of(points, played) is not None):
        return
    with ExitStack() as stack:
        stack.callback(close_bots)
        _mark_logs(match, played)
        names = names_of(match)
        if done:
            _same_names(match, names, done[0])
        if jobs > 1 or dask is not None:
            close_bots()  # (the workers start their own)
        items = [(played // n, played % n), *((pair, 0) for pair in range(played // n + 1, match.deals))]
        if dask is not None:
            from ..corpus.cluster import connect, ordered

            client = stack.enter_context(connect(dask, workers))
            deals = ordered(client, partial(_play_closed, match, names), items)
        else:
            deals = ordered_map(partial(_play_deal, match, names), items, jobs, batch=1, worker_exit=close_bots)
        stack.callback(getattr(deals, "close"))  # noqa: B009  (a generator: the deals under way are cancelled first)
        for games in deals:
            for game in games[: match.games - played]:
                played += 1
                yield game
                points += game.outcome(game.seat_of("A"))
            if sprt is not None and sprt.decide_of(points, played) is not None:
                return


def _same_names(match: Match, names: tuple[str, ...], game: Played) -> None:
    """Refuse to resume games whose players had other names (another version of a bot, say)."""
    for label, name in zip(match.labels, names):
        before = game.names[game.seat_of(label)]
        if before != name:
            raise ResumeError(f"player {label} is {one_line(name, most=60)!r} now, but played the games so far as "
                              f"{one_line(before, most=60)!r}: resume with the same players")


def _mark_logs(match: Match, start: int) -> None:
    """Begin this run's part of each program's log with a line that says so."""
    if match.logs is None:
        return
    when = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    for spec, label in zip(match.specs, match.labels):
        log = match.log(label)
        if spec.startswith("cmd:") and log is not None:
            what = f"from game {start:,}" if start else "from the first game"
            append(log, f"=== {when}: a run of {match.event} games {what}, player {label}: "
                        f"{one_line(spec, most=200)} ===\n".encode())


def _play_closed(match: Match, names: tuple[str, ...], deal: tuple[int, int]) -> list[Played]:
    """:func:`play_pair` on a cluster's worker, which may live long: its bots go with the deal."""
    try:
        return play_pair(match, names, *deal)
    finally:
        close_bots()


def run(match: Match, jobs: int = 1, sprt: Sprt | None = None, dask: str | None = None) -> Iterator[bytes]:
    """The games of a match as JSON lines, in order (see :func:`run_games`)."""
    with contextlib.closing(run_games(match, jobs, sprt, dask)) as games:  # closed with this one: no bot left
        for game in games:
            yield game.line


__all__ = ["LABELS", "SEAT_LABELS", "Z95", "Match", "Played", "ResumeError", "Results", "Side", "Sprt", "Summary", "Tally",
           "close_bots", "format_summary", "mean_interval", "names_of", "outcome", "pair_names", "place_outcome",
           "place_points", "play", "play_pair", "resumed", "run", "run_games", "seat_names", "standing", "summarise",
           "wilson"]
