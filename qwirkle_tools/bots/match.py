"""Matches: paired deals (rotated deals for 3 to 6 players), forfeits, the summary and its intervals, SPRT.

A match seats players ``A``, ``B`` (and ``C`` to ``F`` in a game of more than
two). Deal ``k`` (seeded by :func:`~qwirkle_tools.play.simulate.game_seed` of the
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

A game gives each seat a *standing* (:func:`standing`: the forfeiter last, the
others by score) and so an :func:`outcome` (1 alone on top, 0.5 sharing the
top, 0 otherwise) and :meth:`Played.points`, the share of the other seats it finished
ahead of (a tie counting half): for two players both are 1, 0.5 or 0.
:class:`Tally` folds the games into the summary as they come (so its counts
are a count of the records): wins, draws, losses and forfeits per player, the
score rate with a Wilson 95 % interval, the mean margin with a 95 % interval,
and the deals (A won every game of it, some, none). :class:`Sprt` is the
sequential probability ratio test between two Elo hypotheses (Wald's, on the
games' results), tested after each deal of a two-player match.
"""

from __future__ import annotations

import atexit
import contextlib
import math
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.safetext import json_text, one_line
from ..core.text import count
from ..formats.jsontext import JSON, parse_json
from ..formats.record import Record, from_data
from ..play.engine import IllegalMoveError
from ..play.game import Game
from ..play.seats import bot_meta, forfeit_seat, seat_bots
from ..play.simulate import game_seed
from .players import GRACE_MS, MEMORY_MB, Bot, Forfeit, load
from .sprt import Sprt

SEAT_LABELS = ("A", "B", "C", "D", "E", "F")
"""The labels of a match's players, in the order they are given."""
LABELS = SEAT_LABELS[:2]
"""The labels of a two-player match."""
Z95 = 1.959964


def play(bots: Sequence[Bot], names: Sequence[str], seed: int, movetime_ms: int,
         meta: dict[str, JSON] | None = None) -> Record:
    """One game between ``bots`` (seat order), dealt by ``seed``; its record.

    A bot's :class:`~qwirkle_tools.bots.players.Forfeit`, or a move the game refuses,
    ends the game: the result says who forfeited and why. The bots are not
    closed (a forfeiting process bot is, so the next game starts a fresh one).
    """
    game = Game.deal(list(names), seed=seed)
    forfeit: dict[str, JSON] | None = None
    seat = game.to_move
    try:
        for seat, bot in enumerate(bots):
            bot.new_game(len(bots), seat)
        while not game.is_over():
            seat = game.to_move
            move = bots[seat].choose(game.view(seat), game_seed(seed, len(game)), movetime_ms)
            try:
                game.push(move)
            except IllegalMoveError as error:
                raise Forfeit("illegal", f"{bots[seat].name} played {move}: {error.finding.code}: "
                                         f"{error.finding.message}") from None
    except Forfeit as lost:
        forfeit = {"seat": seat, "code": lost.code, "reason": str(lost)}
        bots[seat].close()
    record = game.record({**(meta or {}), "movetime": movetime_ms})
    if forfeit is not None:
        assert record.result is not None
        extra = {**record.result.extra, "x-forfeit": forfeit}
        record = _with_result_extra(record, extra)
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

    def bots(self) -> tuple[Bot, ...]:
        return tuple(load(spec, None if self.logs is None else Path(f"{self.logs}.{label}.log"), self.memory_mb,
                          self.grace_ms) for spec, label in zip(self.specs, self.labels))


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


@dataclass(frozen=True, slots=True)
class Played:
    """One game of a match: its JSON line and the facts the summary needs, taken
    from its record once (where it was played) and handed on with it."""

    line: bytes
    labels: tuple[str, ...]
    names: tuple[str, ...]
    specs: tuple[str | None, ...]
    scores: tuple[int, ...]
    forfeit: int | None
    pair: int

    @classmethod
    def of(cls, record: Record, line: bytes | None = None) -> Played:
        """The facts of a match record (``line``: its text, made if not given; ``b""`` where no one needs it).

        Raises:
            ValueError: the record's meta has no labels A, B, ... one per seat.
        """
        n = len(record.players)
        labels = tuple(str(record.meta.get(f"label-{s}")) for s in range(n))
        if sorted(labels) != list(SEAT_LABELS[:n]):
            raise ValueError("not a match record: its meta has no label-0, label-1, ... (A, B, ...)")
        assert record.result is not None and record.result.scores is not None
        pair = record.meta.get("pair")
        return cls(json_text(record.to_data(), separators=(",", ":")).encode("utf-8") + b"\n" if line is None else line,
                   labels, tuple(p.name for p in record.players), seat_bots(record.meta, n),
                   tuple(record.result.scores), forfeit_seat(record), pair if isinstance(pair, int) else -1)

    @property
    def record(self) -> Record:
        return from_data(parse_json(self.line), trusted=True)

    def seat_of(self, label: str) -> int:
        return self.labels.index(label)

    def outcome(self, seat: int) -> float:
        return place_outcome(standing(self.scores, self.forfeit), seat)

    def points(self, seat: int) -> float:
        return place_points(standing(self.scores, self.forfeit), seat)


def play_pair(match: Match, names: tuple[str, ...], pair: int) -> list[Played]:
    """The games of deal ``pair``, dealt alike, in every rotation of the seats
    (two players: the seats swapped)."""
    bots = _bots_of(match)
    n = len(bots)
    played = []
    for rotation in range(n):
        order = [(seat + rotation) % n for seat in range(n)]  # the player (by label) in each seat
        labels = [match.labels[p] for p in order]
        meta: dict[str, JSON] = {
            "event": match.event, **dict(match.extra), "seed": match.seed, "pair": pair, "game": n * pair + rotation,
            **bot_meta([match.specs[p] for p in order]), **{f"label-{s}": label for s, label in enumerate(labels)},
        }
        record = play([bots[p] for p in order], [names[p] for p in order], game_seed(match.seed, pair),
                      match.movetime_ms, meta)
        played.append(Played.of(record))
    return played


def run_games(match: Match, jobs: int = 1, sprt: Sprt | None = None, dask: str | None = None,
              workers: int | None = None) -> Generator[Played, None, None]:
    """The games of a match, in order (the same for any ``jobs`` and on a cluster): deal
    ``k`` is games ``nk`` (A in seat 0) to ``nk + n - 1``; for two players, ``2k`` and
    ``2k + 1`` (B in seat 0). A ``games`` that is no multiple of ``n`` plays the last deal
    in its first rotations only. With ``sprt`` the match stops after the deal at which the
    test decides. With ``dask`` (an address, see :func:`qwirkle_tools.corpus.cluster.connect`;
    ``workers`` for a local one) the deals are played on the cluster's workers, each
    with bots of its own, closed after each deal. Every bot process here is gone when the
    generator ends, however it ends.

    Raises:
        ValueError: ``sprt`` for more than two players.
        qwirkle_tools.corpus.cluster.ClusterError: the cluster cannot be reached or went away.
    """
    from contextlib import ExitStack
    from functools import partial

    from ..corpus.rows import ordered_map

    if sprt is not None and len(match.specs) != 2:
        raise ValueError("the sequential test is for two players")
    with ExitStack() as stack:
        stack.callback(close_bots)
        names = names_of(match)
        if jobs > 1 or dask is not None:
            close_bots()  # (the workers start their own)
        if dask is not None:
            from ..corpus.cluster import connect, ordered

            client = stack.enter_context(connect(dask, workers))
            deals = ordered(client, partial(_play_closed, match, names), range(match.deals))
        else:
            deals = ordered_map(partial(play_pair, match, names), range(match.deals), jobs, batch=1)
        stack.callback(getattr(deals, "close"))  # noqa: B009  (a generator: the deals under way are cancelled first)
        points = 0.0  # A's, for the test
        played = 0
        for games in deals:
            for game in games[: match.games - played]:
                played += 1
                yield game
                points += game.outcome(game.seat_of("A"))
            if sprt is not None and sprt.decide_of(points, played) is not None:
                return


def _play_closed(match: Match, names: tuple[str, ...], pair: int) -> list[Played]:
    """:func:`play_pair` on a cluster's worker, which may live long: its bots go with the deal."""
    try:
        return play_pair(match, names, pair)
    finally:
        close_bots()


def run(match: Match, jobs: int = 1, sprt: Sprt | None = None, dask: str | None = None) -> Iterator[bytes]:
    """The games of a match as JSON lines, in order (see :func:`run_games`)."""
    with contextlib.closing(run_games(match, jobs, sprt, dask)) as games:  # closed with this one: no bot left
        for game in games:
            yield game.line


def standing(scores: Sequence[int], forfeit: int | None = None) -> tuple[int, ...]:
    """Each seat's place, 1 the first, seats that tie sharing it: a seat that
    forfeited comes last, the others by score.

    >>> standing([10, 30, 10]), standing([50, 20], forfeit=0)
    ((2, 1, 2), (2, 1))
    """
    keys = [(s != forfeit, score) for s, score in enumerate(scores)]
    return tuple(1 + sum(other > key for other in keys) for key in keys)


def place_outcome(places: Sequence[int], seat: int) -> float:
    """1 for a seat alone in first place, 0.5 for one sharing it, else 0 (``places`` as :func:`standing` gives)."""
    if places[seat] > 1:
        return 0.0
    return 1.0 if places.count(1) == 1 else 0.5


def place_points(places: Sequence[int], seat: int) -> float:
    """The share of the other seats that seat ``seat`` finished ahead of, a tie counting half."""
    others = len(places) - 1
    beaten = sum(1.0 if places[seat] < p else 0.5 if places[seat] == p else 0.0
                 for s, p in enumerate(places) if s != seat)
    return beaten / others if others else 0.0


def outcome(record: Record, seat: int) -> float:
    """What the game gave seat ``seat``: 1 a win, 0.5 a draw (the top shared), 0 a loss
    (a forfeit loses, whatever the scores)."""
    assert record.result is not None and record.result.scores is not None
    return place_outcome(standing(record.result.scores, forfeit_seat(record)), seat)


# -- the summary -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Side:
    """One player's results in a match (or a tournament): ``points`` is the sum of its games' :meth:`Played.points`."""

    label: str
    name: str
    spec: str
    wins: int
    draws: int
    losses: int
    forfeits: int
    points: float = 0.0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def rate(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The score rate's Wilson 95 % interval."""
        return wilson(self.points, self.games)

    def to_data(self) -> dict[str, JSON]:
        low, high = self.interval
        return {"label": self.label, "name": self.name, "spec": self.spec, "games": self.games, "wins": self.wins,
                "draws": self.draws, "losses": self.losses, "forfeits": self.forfeits, "points": self.points,
                "score_rate": {"value": self.rate, "low": low, "high": high}}


@dataclass
class Results:
    """What a player has so far: wins, draws, losses, forfeits and points."""

    name: str
    spec: str
    counts: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    points: float = 0.0

    def add(self, game: Played, seat: int) -> None:
        result = game.outcome(seat)
        self.counts[0 if result == 1 else 1 if result == 0.5 else 2] += 1
        self.counts[3] += game.forfeit == seat
        self.points += game.points(seat)

    def side(self, label: str) -> Side:
        wins, draws, losses, forfeits = self.counts
        return Side(label, self.name, self.spec, wins, draws, losses, forfeits, self.points)


@dataclass(frozen=True, slots=True)
class Summary:
    """A match's results as seen by player A (see the module's notes); ``others`` are
    players C, D, ... of a game of more than two, whose margin is A's score less the best other."""

    a: Side
    b: Side
    rate: float
    rate_low: float
    rate_high: float
    margin: float
    margin_low: float
    margin_high: float
    pairs_won: int
    pairs_split: int
    pairs_lost: int
    sprt: str | None = None
    llr: float | None = None
    others: tuple[Side, ...] = ()

    @property
    def games(self) -> int:
        return self.a.games

    @property
    def sides(self) -> tuple[Side, ...]:
        return (self.a, self.b, *self.others)

    def to_data(self) -> dict[str, JSON]:
        def side(s: Side) -> dict[str, JSON]:
            return {"label": s.label, "name": s.name, "spec": s.spec, "wins": s.wins, "draws": s.draws,
                    "losses": s.losses, "forfeits": s.forfeits}
        return {
            "games": self.games, "a": side(self.a), "b": side(self.b), "players": [s.to_data() for s in self.sides],
            "score_rate": {"value": self.rate, "low": self.rate_low, "high": self.rate_high},
            "margin": {"value": self.margin, "low": self.margin_low, "high": self.margin_high},
            "pairs": {"both_won": self.pairs_won, "split": self.pairs_split, "both_lost": self.pairs_lost},
            "sprt": None if self.sprt is None else {"verdict": self.sprt, "llr": self.llr},
        }


class Tally:
    """A match's summary, folded one game at a time (:meth:`add`) in constant memory:
    sums and counts, and the deals not yet complete."""

    def __init__(self) -> None:
        self.players: dict[str, Results] = {}
        self.games = 0
        self.a_points = 0.0
        self.margins = [0, 0]  # the sum of A's margins and of their squares (integers: exact)
        self.pending: dict[int, list[float]] = {}  # A's points in each deal not yet complete
        self.deals = [0, 0, 0]  # A won every game of it, some, none
        self.size = 0

    def add(self, game: Played) -> None:
        n = len(game.labels)
        if self.size and n != self.size:
            raise ValueError(f"a match's games have one number of players: {n}, not {self.size}")
        self.size = n
        for seat, label in enumerate(game.labels):
            self.players.setdefault(label, Results(game.names[seat], str(game.specs[seat]))).add(game, seat)
        seat_a = game.seat_of("A")
        points = game.points(seat_a)
        self.games += 1
        self.a_points += points
        margin = game.scores[seat_a] - max(s for seat, s in enumerate(game.scores) if seat != seat_a)
        self.margins[0] += margin
        self.margins[1] += margin * margin
        deal = self.pending.setdefault(game.pair, []) if game.pair >= 0 else []
        deal.append(points)
        if len(deal) == n:
            total = sum(deal)
            self.deals[0 if total == n else 2 if total == 0 else 1] += 1
            self.pending.pop(game.pair, None)

    def summary(self, sprt: Sprt | None = None) -> Summary:
        n = self.games
        low, high = wilson(self.a_points, n)
        mean, half = _mean_half(n, *self.margins)
        sides = [self.players.get(label, Results("", "")).side(label) for label in SEAT_LABELS[:max(self.size, 2)]]
        verdict = sprt.decide_of(self.a_points, n) if sprt is not None else None
        llr = sprt.llr_of(self.a_points, n) if sprt is not None else None
        won, split, lost = self.deals
        return Summary(sides[0], sides[1], self.a_points / n if n else 0.0, low, high, mean, mean - half,
                       mean + half, won, split, lost, verdict, llr, tuple(sides[2:]))


def summarise(records: Iterable[Record], sprt: Sprt | None = None) -> Summary:
    """The summary of a match's records (as :func:`run` writes them)."""
    tally = Tally()
    for record in records:
        tally.add(Played.of(record, b""))  # (the summary needs no text)
    return tally.summary(sprt)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); a draw counts half."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The mean and the half-width of its 95 % interval (normal approximation)."""
    return _mean_half(len(values), sum(values), sum(v * v for v in values), z)


def _mean_half(n: int, total: float, squares: float, z: float = Z95) -> tuple[float, float]:
    """:func:`mean_interval` of ``n`` values from their sum and the sum of their squares."""
    if n == 0:
        return 0.0, 0.0
    mean = total / n
    if n == 1:
        return mean, math.inf
    sd = math.sqrt(max(0.0, (n * squares - total * total) / (n * (n - 1))))
    return mean, z * sd / math.sqrt(n)


def format_summary(summary: Summary, sprt: Sprt | None = None) -> str:
    """The summary as ``qwirkle match`` prints it."""
    sides = [replace(s, name=one_line(s.name, most=60)) for s in summary.sides]  # names a bot chose
    a, b = sides[0], sides[1]
    many = len(sides) > 2
    if many:
        lines = [f"{count(summary.games, 'game')} of {len(sides)} players: "  # (a name may hold its label already)
                 + ", ".join(s.name if s.name.endswith(f"({s.label})") else f"{s.name} ({s.label})" for s in sides)]
    else:
        lines = [f"{count(summary.games, 'game')}: {a.name} (A) against {b.name} (B)"]
    width = max(*(len(s.name) for s in sides), 6)
    lines.append(f"  {'player':<{width}}  wins  draws  losses  forfeits" + ("   score  95% interval" if many else ""))
    for side in sides:
        low, high = side.interval
        lines.append(f"  {side.name:<{width}}  {side.wins:>4}  {side.draws:>5}  {side.losses:>6}  {side.forfeits:>8}"
                     + (f"  {side.rate:>6.1%}  {low:.1%} to {high:.1%}" if many else ""))
    if many:
        lines.append(f"{a.name} scores {summary.rate:.1%} (95% interval {summary.rate_low:.1%} to "
                     f"{summary.rate_high:.1%}; a game's score is the share of the others it finished ahead of)")
    else:
        lines.append(f"{a.name} scores {summary.rate:.1%} (95% interval {summary.rate_low:.1%} to "
                     f"{summary.rate_high:.1%}; a draw counts half)")
    if math.isfinite(summary.margin_low):
        against = " over the best other" if many else ""
        lines.append(f"mean margin {summary.margin:+.1f} points for {a.name}{against} "
                     f"(95% interval {summary.margin_low:+.1f} to {summary.margin_high:+.1f})")
    if many:
        lines.append(f"deals (the same deal from every seat): {a.name} won all {summary.pairs_won}, "
                     f"some {summary.pairs_split}, none {summary.pairs_lost}")
    else:
        lines.append(f"pairs (the same deal from both seats): {a.name} won both {summary.pairs_won}, "
                     f"split {summary.pairs_split}, lost both {summary.pairs_lost}")
    if sprt is not None and summary.llr is not None:
        low, high = sprt.bounds
        verdict = {"H1": f"H1: {a.name} is at least {sprt.elo1:g} Elo stronger",
                   "H0": f"H0: {a.name} is at most {sprt.elo0:g} Elo stronger",
                   None: "no verdict yet"}[summary.sprt]
        lines.append(f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g}: "
                     f"LLR {summary.llr:.2f} (bounds {low:.2f}, {high:.2f}): {verdict}")
    return "\n".join(lines)


__all__ = ["LABELS", "SEAT_LABELS", "Match", "Played", "Results", "Side", "Sprt", "Summary", "Tally", "close_bots",
           "format_summary", "mean_interval", "names_of", "outcome", "pair_names", "place_outcome", "place_points", "play",
           "play_pair", "run", "run_games", "seat_names", "standing", "summarise", "wilson"]
