"""A match's results: each game's facts, the places and scores of its seats, and the summary with its intervals.

A game gives each seat a *standing* (:func:`standing`: the forfeiter last, the
others by score) and so an :func:`outcome` (1 alone on top, 0.5 sharing the
top, 0 otherwise) and :meth:`Played.points`, the share of the other seats it finished
ahead of (a tie counting half): for two players both are 1, 0.5 or 0.
:class:`Tally` folds the games into the summary as they come (so its counts
are a count of the records): wins, draws, losses and forfeits per player, the
score rate with a Wilson 95 % interval, the mean margin with a 95 % interval,
and the deals (A won every game of it, some, none).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from ..core.safetext import json_text, one_line
from ..core.text import count, cut_apart
from ..formats.jsontext import JSON, parse_json
from ..formats.record import Record, from_data
from ..play.seats import forfeit_seat, seat_bots
from .sprt import Sprt

SEAT_LABELS = ("A", "B", "C", "D", "E", "F")
"""The labels of a match's players, in the order they are given."""
Z95 = 1.959964


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
    reason: str = ""
    """Why the seat that forfeited did (``""``: nobody did)."""

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
        forfeit = record.result.extra.get("x-forfeit")
        reason = forfeit.get("reason") if isinstance(forfeit, dict) else None
        return cls(json_text(record.to_data(), separators=(",", ":")).encode("utf-8") + b"\n" if line is None else line,
                   labels, tuple(p.name for p in record.players), seat_bots(record.meta, n),
                   tuple(record.result.scores), forfeit_seat(record), pair if isinstance(pair, int) else -1,
                   reason if isinstance(reason, str) else "")

    @property
    def record(self) -> Record:
        return from_data(parse_json(self.line), trusted=True)

    def seat_of(self, label: str) -> int:
        return self.labels.index(label)

    def outcome(self, seat: int) -> float:
        return place_outcome(standing(self.scores, self.forfeit), seat)

    def points(self, seat: int) -> float:
        return place_points(standing(self.scores, self.forfeit), seat)



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
        self.reasons: dict[str, str] = {}  # each label's first forfeit

    def add(self, game: Played) -> None:
        n = len(game.labels)
        if self.size and n != self.size:
            raise ValueError(f"a match's games have one number of players: {n}, not {self.size}")
        self.size = n
        for seat, label in enumerate(game.labels):
            self.players.setdefault(label, Results(game.names[seat], str(game.specs[seat]))).add(game, seat)
        if game.forfeit is not None:
            self.reasons.setdefault(game.labels[game.forfeit], game.reason)
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

    def hopeless(self) -> list[tuple[str, str, int, str]]:
        """The players that forfeited every game they played: label, name, games, the first reason."""
        return [(label, r.name, r.counts[3], self.reasons.get(label, "")) for label, r in sorted(self.players.items())
                if r.counts[3] and r.counts[3] == sum(r.counts[:3])]

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
    """The summary of a match's records (as :func:`~qwirkle_tools.bots.match.run` writes them)."""
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


def shown_names(keys: Sequence[str], names: Sequence[str]) -> list[str]:
    """How to show players known by ``keys`` (their specs) and called ``names``: each
    by its name, but a name that two keys share with its key beside it, so that
    two players never look the same.

    >>> shown_names(["a.py:play", "b.py:play", "greedy"], ["play", "play", "greedy"])
    ['play (a.py:play)', 'play (b.py:play)', 'greedy']
    """
    keys_of: dict[str, set[str]] = {}
    for key, name in zip(keys, names):
        keys_of.setdefault(name, set()).add(key)
    return [name if len(keys_of[name]) == 1 or name == key else f"{name} ({key})" for key, name in zip(keys, names)]


def format_summary(summary: Summary, sprt: Sprt | None = None) -> str:
    """The summary as ``qwirkle match`` prints it."""
    shown = cut_apart([one_line(s.name) for s in summary.sides], 60)  # names a bot chose: never cut alike
    sides = [replace(s, name=name) for s, name in zip(summary.sides, shown)]
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


__all__ = ["SEAT_LABELS", "Z95", "Played", "Results", "Side", "Summary", "Tally", "format_summary", "mean_interval",
           "outcome", "place_outcome", "place_points", "shown_names", "standing", "summarise", "wilson"]
