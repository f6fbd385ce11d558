"""A club's standings over its recorded games: ``qwirkle standings``.

Per player, over the games given (any records the corpus runner reads: JSON,
``.jsonl``, ``.qgn``, score sheets): games, wins, the average score and
margin, Qwirkles, points lost where the analysis can tell them, and the
openskill rating of :mod:`qwirkle_tools.bots.ratings`.

* A player is known by the name recorded (a club's players are people; a
  record's bot spec is not used: ``qwirkle ratings`` rates bots), read as
  :func:`player_name` reads it: "Zoë" typed with a combining diaeresis is
  "Zoë", and "Ben " is "Ben". A game with one player in two seats (a game
  against oneself) is not counted: it is listed (:attr:`Standings.refused`)
  with a ``same-player`` finding, as ``qwirkle ratings`` skips it.
* Wins as the match code counts them (:func:`~qwirkle_tools.bots.match.standing`
  and :func:`~qwirkle_tools.bots.match.place_outcome`): 1 alone in first
  place, a half for a first place shared, a forfeit last whatever its score.
* The order (:data:`ORDER`): the win rate (wins per game), then the rating,
  then the games played, then the name: a club's table, where a player of few
  games is neither helped nor hurt by the count, and a tie goes to the
  stronger by the rating.
* The margin of a game is the player's score less the best other score
  (negative in a game lost).
* Qwirkles and points lost are read where the record tells them: a score
  sheet writes no tiles, so its Qwirkles are unknown, and points lost need
  the rack; a player with no game (or turn) that tells them has ``None``.
* The ratings take the games in the order they were played: by ``meta.date``
  (its first ten characters), games of one day in the order given (files in
  a folder by name, the lines of a ``.jsonl`` in order). A game without a
  readable date keeps its place after the dated game given before it.
* Dates are written ``YYYY-MM-DD`` (ASCII digits, :data:`DATE`), on every
  Python alike: no week date (``2026-W48-7``), no ``20261129``.
* ``since``: only games whose ``meta.date`` (its first ten characters, as
  YYYY-MM-DD) is that day or later; a game without a readable date is then
  left out, and counted in :attr:`Standings.undated`. Without ``since`` every
  game counts, dated or not.
* Invalid or unreadable records are left out and listed (:attr:`Standings.left_out`):
  their scores cannot be trusted.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..core.errors import QwirkleError
from ..core.findings import make
from ..core.safetext import csv_cell, one_line
from ..core.text import UNKNOWN, count, cut_apart
from ..corpus.rows import GameRows, run
from ..formats.jsontext import JSON
from .match import place_outcome, standing
from .ratings import Ranked, Rating, rate


class StandingsError(QwirkleError, ValueError):
    """Standings cannot be made: no game, or a bad date (exit code 2)."""


DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
"""The one grammar of a date, for ``--since`` and ``meta.date`` on every Python:
``YYYY-MM-DD`` in ASCII digits (``date.fromisoformat`` of Python 3.11 also takes
``2026-W48-7`` and ``20261129``, 3.10 neither)."""


def _day(text: str) -> dt.date | None:
    """The day ``text`` names by :data:`DATE`, or ``None`` (no such grammar, or no such day)."""
    found = DATE.fullmatch(text)
    if found is None:
        return None
    try:
        return dt.date(int(found[1]), int(found[2]), int(found[3]))
    except ValueError:  # 2026-02-30
        return None


def parse_date(text: str) -> dt.date:
    """A date as ``YYYY-MM-DD`` (:data:`DATE`).

    >>> parse_date("2026-11-29")
    datetime.date(2026, 11, 29)

    Raises:
        StandingsError: ``text`` is not such a date, quoting it.
    """
    day = _day(text)
    if day is None:
        raise StandingsError(f"--since: not a date like 2026-11-29: {one_line(text, 40)!r}")
    return day


def game_date(meta_date: object) -> dt.date | None:
    """The day a record's ``meta.date`` names (its first ten characters, by :data:`DATE`), or ``None``."""
    return _day(meta_date[:10]) if isinstance(meta_date, str) else None


def player_name(name: str) -> str:
    """A recorded name as the standings know the player: Unicode NFC, the spaces at its
    ends dropped and each run inside made one (a name of nothing but spaces is kept).

    >>> player_name("Zoe\u0308") == player_name("Zo\u00eb"), player_name(" Ben  Ek ")
    (True, 'Ben Ek')
    """
    return " ".join(unicodedata.normalize("NFC", name).split()) or name


@dataclass
class _Tally:
    games: int = 0
    wins: float = 0.0
    score: int = 0
    margin: int = 0
    qwirkles: int = 0
    qwirkle_games: int = 0  # games whose Qwirkles the record tells
    lost: int = 0
    analysed: int = 0  # turns whose points lost are known


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """One player's line. ``qwirkles`` is over the ``qwirkle_games`` whose tiles are
    written, ``points_lost`` over the ``analysed_turns`` whose rack is known; each
    ``None`` where no game tells it. ``rating`` is ``None`` when openskill rated no game of the player."""

    player: str
    games: int
    wins: float
    average_score: float
    average_margin: float
    qwirkles: int | None
    qwirkle_games: int
    points_lost: int | None
    analysed_turns: int
    rating: Rating | None

    @property
    def win_rate(self) -> float:
        """Wins per game (a shared first place a half)."""
        return self.wins / self.games

    @property
    def qwirkles_per_game(self) -> float | None:
        return None if self.qwirkles is None else self.qwirkles / self.qwirkle_games

    @property
    def lost_per_turn(self) -> float | None:
        return None if self.points_lost is None else self.points_lost / self.analysed_turns

    def to_data(self) -> dict[str, JSON]:
        r = self.rating
        per_game, per_turn = self.qwirkles_per_game, self.lost_per_turn
        return {"player": self.player, "games": self.games, "wins": self.wins, "win_rate": round(self.win_rate, 4),
                "average_score": round(self.average_score, 2), "average_margin": round(self.average_margin, 2),
                "qwirkles": self.qwirkles, "qwirkle_games": self.qwirkle_games,
                "qwirkles_per_game": None if per_game is None else round(per_game, 2),
                "points_lost": self.points_lost, "analysed_turns": self.analysed_turns,
                "points_lost_per_turn": None if per_turn is None else round(per_turn, 2),
                "rating": None if r is None else round(r.mu, 2), "sigma": None if r is None else round(r.sigma, 2),
                "low": None if r is None else round(r.low, 2), "high": None if r is None else round(r.high, 2)}


ORDER = "win rate, then rating, then games, then name"
"""The standings' order, first place first (see the module's notes)."""

CSV_COLUMNS = ("place", "player", "games", "wins", "win_rate", "average_score", "average_margin", "qwirkles", "qwirkle_games",
               "qwirkles_per_game", "points_lost", "analysed_turns", "points_lost_per_turn", "rating", "sigma",
               "low", "high")


@dataclass(frozen=True, slots=True)
class Standings:
    """The players, the first first (in the :data:`ORDER`), and what was left out."""

    players: tuple[PlayerStanding, ...]
    games: int
    first: dt.date | None
    last: dt.date | None
    since: dt.date | None = None
    undated: int = 0
    left_out: tuple[str, ...] = field(default=())
    rated: int = 0
    refused: tuple[str, ...] = field(default=())
    """The games not counted though valid, each a ``same-player`` finding's line (a game against oneself)."""

    def span(self) -> str:
        """The days of the dated games, as ``, FIRST to LAST`` (one day: ``, DAY``; none: empty)."""
        if self.first is None or self.last is None:
            return ""
        return f", {self.first.isoformat()}" + ("" if self.last == self.first else f" to {self.last.isoformat()}")

    def to_data(self) -> dict[str, JSON]:
        return {"games": self.games, "first_date": None if self.first is None else self.first.isoformat(),
                "last_date": None if self.last is None else self.last.isoformat(),
                "since": None if self.since is None else self.since.isoformat(), "undated_left_out": self.undated,
                "left_out": list(self.left_out), "refused": list(self.refused), "rated_games": self.rated,
                "ratings": "openskill Plackett-Luce, interval mu +- 1.96 sigma",
                "wins": "1 alone in first place, 0.5 sharing it", "order": ORDER,
                "players": [p.to_data() for p in self.players]}

    def csv(self) -> str:
        """One row per player (text cells one line and never a formula), missing figures empty."""
        import csv
        import io

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for place, p in enumerate(self.players, 1):
            data = p.to_data()
            writer.writerow([place, *("" if data[c] is None else csv_cell(data[c]) for c in CSV_COLUMNS[1:])])
        return out.getvalue()

    def text(self) -> str:
        """The standings as ``qwirkle standings`` prints them."""
        span = self.span()
        lines = [f"Standings: {count(self.games, 'game')}{span}, {count(len(self.players), 'player')}, by {ORDER} "
                 "(wins: a shared first place counts half; margin: own score less the best other)"]
        names = cut_apart([one_line(p.player) for p in self.players], 24)
        width = max(len("player"), *(len(n) for n in names))
        lines.append(f"  #  {'player':<{width}}  games  wins  win %  avg score  avg margin  Qwirkles/game  lost/turn"
                     "  rating  95% interval")
        for place, (p, name) in enumerate(zip(self.players, names), 1):
            q, lost = p.qwirkles_per_game, p.lost_per_turn
            r = p.rating
            rating = f"{UNKNOWN:>6}" if r is None else f"{r.mu:>6.1f}  {r.low:>5.1f} to {r.high:>5.1f}"
            lines.append(f"  {place:>1}  {name:<{width}}  {p.games:>5}  {p.wins:>4g}  {100 * p.win_rate:>5.1f}  "
                         f"{p.average_score:>9.1f}  "
                         f"{p.average_margin:>+10.1f}  {UNKNOWN if q is None else f'{q:.1f}':>13}  "
                         f"{UNKNOWN if lost is None else f'{lost:.2f}':>9}  {rating}".rstrip())
        if any(p.qwirkle_games < p.games for p in self.players):
            lines.append("Qwirkles/game: over the games whose tiles are written (a score sheet's are unknown)")
        lines.append("lost/turn: points lost per turn whose rack is known (n/a: none is)")
        lines.append(f"ratings: openskill Plackett-Luce over {count(self.rated, 'game')} in the order played "
                     "(interval mu +- 1.96 sigma)")
        if self.undated:
            lines.append(f"left out: {count(self.undated, 'game')} without a date (--since "
                         f"{self.since.isoformat() if self.since else ''})")
        for line in self.refused:
            lines.append(f"left out (one player in two seats): {line}")
        for line in self.left_out:
            lines.append(f"left out (invalid): {line}")
        return "\n".join(lines)


def standings(paths: Iterable[str | os.PathLike[str]], since: dt.date | None = None, jobs: int = 1) -> Standings:
    """The standings of the games under ``paths`` (see the module's notes).

    Raises:
        StandingsError: no game is left to stand on (none read, or none since ``since``).
        qwirkle_tools.formats.sources.InputError: a path cannot be read.
    """
    return tally(run(paths, analyse=True, jobs=jobs), since)


def tally(results: Iterable[GameRows], since: dt.date | None = None) -> Standings:
    """The standings of some :func:`qwirkle_tools.corpus.rows.run` results (analysed, for the points lost)."""
    tallies: dict[str, _Tally] = {}
    ranked: list[Ranked] = []
    played: list[dt.date] = []  # each ranked game's day, for the ratings' order (undated: the day before it)
    dates: list[dt.date] = []
    left_out: list[str] = []
    refused: list[str] = []
    undated = 0
    for rows in results:
        broken = rows.broken_line()
        game = rows.game
        if broken is not None or game is None:
            left_out.append(broken or rows.where)
            continue
        day = game_date(game.get("date"))
        if since is not None and (day is None or day < since):
            undated += day is None
            continue
        names, scores = game["_names"], game["_scores"]
        assert isinstance(names, tuple) and isinstance(scores, tuple)
        known = [player_name(str(n)) for n in names]
        twice = _twice(known)
        if twice is not None:
            refused.append(make("same-player", None, "/players", twice).line(rows.where))
            continue
        if day is not None:
            dates.append(day)
        played.append(day if day is not None else played[-1] if played else dt.date.min)
        forfeit = game["forfeit_seat"]
        places = standing(scores, forfeit if isinstance(forfeit, int) else None)
        ranked.append(Ranked(tuple(known), places))
        _add(tallies, rows, known, list(scores), places)
    if not ranked:
        why = f"no game since {since.isoformat()}" if since is not None else "no valid game"
        raise StandingsError(f"no standings: {why}" + (f" ({count(len(left_out), 'record')} left out as invalid)"
                                                       if left_out else "")
                             + (f" ({count(len(refused), 'game')} of one player in two seats)" if refused else ""))
    found = _ratings([ranked[i] for i in sorted(range(len(ranked)), key=played.__getitem__)])  # (a stable sort)
    players = [_line(name, t, found.get(name)) for name, t in tallies.items()]
    players.sort(key=_place)
    return Standings(tuple(players), len(ranked), min(dates, default=None), max(dates, default=None), since, undated,
                     tuple(left_out), len(ranked), tuple(refused))


def _place(p: PlayerStanding) -> tuple[float, float, int, str]:
    """The sort key of :data:`ORDER` (a player unrated last among equal win rates)."""
    return -p.win_rate, -(p.rating.mu if p.rating is not None else float("-inf")), -p.games, p.player


def _twice(names: list[str]) -> str | None:
    """Why a game's seats are not different players (a name in two seats), or ``None``."""
    seats: dict[str, int] = {}
    for seat, name in enumerate(names):
        if name in seats:
            return (f"{name} sits in seats {seats[name]} and {seat} (names compared after Unicode NFC and spaces): "
                    "a game against oneself is not counted")
        seats[name] = seat
    return None


def _add(tallies: dict[str, _Tally], rows: GameRows, names: list[str], scores: list[int],
         places: tuple[int, ...]) -> None:
    """One game's figures added to each of its players' tallies."""
    made: dict[int, int] = {}
    unknown: set[int] = set()  # seats with a placement whose tiles are not written (a score sheet)
    lost: dict[int, list[int]] = {}
    for t in rows.turns:
        seat, q, points = t["seat"], t["qwirkles"], t.get("points_lost")
        if not isinstance(seat, int) or not 0 <= seat < len(names):
            continue
        if isinstance(q, int):
            made[seat] = made.get(seat, 0) + q
        elif t["action"] == "place":
            unknown.add(seat)
        if t.get("best_score") is not None and isinstance(points, int):
            lost.setdefault(seat, []).append(points)
    for seat, name in enumerate(names):
        tally = tallies.setdefault(name, _Tally())
        others = [s for i, s in enumerate(scores) if i != seat]
        tally.games += 1
        tally.wins += place_outcome(places, seat)
        tally.score += scores[seat]
        tally.margin += scores[seat] - max(others, default=scores[seat])
        if seat not in unknown:
            tally.qwirkles += made.get(seat, 0)
            tally.qwirkle_games += 1
        tally.lost += sum(lost.get(seat, ()))
        tally.analysed += len(lost.get(seat, ()))


def _ratings(games: list[Ranked]) -> dict[str, Rating]:
    return {r.player: r for r in rate(games).ratings}


def _line(name: str, t: _Tally, rating: Rating | None) -> PlayerStanding:
    return PlayerStanding(name, t.games, t.wins, t.score / t.games, t.margin / t.games,
                          t.qwirkles if t.qwirkle_games else None, t.qwirkle_games,
                          t.lost if t.analysed else None, t.analysed, rating)


__all__ = ["CSV_COLUMNS", "DATE", "ORDER", "PlayerStanding", "Standings", "StandingsError", "game_date", "parse_date",
           "player_name", "standings", "tally"]
