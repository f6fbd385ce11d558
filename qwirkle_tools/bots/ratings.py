"""Ratings of players or bots from any recorded games, by the openskill library.

Each game ranks its seats by :func:`~qwirkle_tools.bots.match.standing` (a seat
that lost by forfeit last, the others by their replayed scores, ties sharing
a place); a seat is known by its bot (:func:`~qwirkle_tools.play.seats.seat_bots`:
a match's or tournament's spec, self-play's policy) and else by the player's
name. The ranks go, game by game in the order given, to openskill's
Plackett-Luce model (a Bayesian approximation of the Plackett-Luce model of
rankings, for any number of players a game), which keeps a rating ``mu`` and
its uncertainty ``sigma`` for each player; the interval is ``mu`` plus or minus
1.96 ``sigma``, about 95 %. ``p_next`` is the model's chance that a player
beats the one ranked next below it in a game of the two.

What is *not* done: a game where one player holds two seats (self-play of one
policy against itself) says nothing about anyone's strength and is skipped
(and counted); the updates are online, so the order of the games matters a
little (the same files in the same order give the same ratings).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..core.safetext import count, one_line
from ..core.text import cut_apart
from ..formats.jsontext import JSON
from .results import Z95, place_outcome, place_points, shown_names, standing

_LABELLED = re.compile(r" \([A-F]\)$")
"""The label a match adds to a name that two of its bots share (``greedy (A)``)."""


@dataclass(frozen=True, slots=True)
class Ranked:
    """One game as the ratings see it: who held each seat and each seat's place (1 the first)."""

    players: tuple[str, ...]
    places: tuple[int, ...]
    names: tuple[str, ...] = ()
    """What each seat's player is called (``()``: its key); a bot's name, where ``players`` has its spec."""

    @classmethod
    def of(cls, names: Sequence[str], bots: Sequence[str | None], scores: Sequence[int],
           forfeit: int | None = None) -> Ranked:
        """A game from its seats' names, bots (``None``: known by name), scores and forfeit."""
        return cls(tuple(bot if bot is not None else name for name, bot in zip(names, bots)),
                   standing(scores, forfeit),
                   tuple(_LABELLED.sub("", name) if bot is not None else name for name, bot in zip(names, bots)))


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating (``mu``, ``sigma``), games, wins (alone on top), points (shares of others beaten)."""

    player: str
    """The player's key: its bot's spec, or its name."""
    mu: float
    sigma: float
    games: int
    wins: int
    points: float
    p_next: float | None
    name: str = ""
    """What the player is called (a bot's name, where ``player`` is its spec)."""

    @property
    def low(self) -> float:
        return self.mu - Z95 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + Z95 * self.sigma

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.0

    def to_data(self) -> dict[str, JSON]:
        return {"player": self.player, "name": self.name or self.player, "rating": self.mu, "sigma": self.sigma,
                "low": self.low, "high": self.high,
                "games": self.games, "wins": self.wins, "score": self.score, "p_beats_next": self.p_next}


@dataclass(frozen=True, slots=True)
class Ratings:
    """The ratings, the best first, and the games rated and skipped."""

    ratings: tuple[Rating, ...]
    games: int
    skipped: int

    def to_data(self) -> dict[str, JSON]:
        return {"model": "openskill Plackett-Luce", "interval": "mu +- 1.96 sigma", "games": self.games,
                "skipped": self.skipped, "players": [r.to_data() for r in self.ratings]}

    def text(self) -> str:
        """The ratings as ``qwirkle ratings`` prints them."""
        lines = [f"{count(self.games, 'game')} rated (openskill Plackett-Luce; interval mu +- 1.96 sigma)"
                 + (f", {count(self.skipped, 'game')} skipped (one player in two seats)" if self.skipped else "")]
        names = cut_apart([one_line(n) for n in shown_names([r.player for r in self.ratings],
                                                              [r.name or r.player for r in self.ratings])], 40)
        width = max(len("player"), *(len(n) for n in names)) if names else 6
        lines.append(f"  #  {'player':<{width}}  rating  95% interval    games  wins   score  beats next")
        for place, (r, name) in enumerate(zip(self.ratings, names), 1):
            beats = "" if r.p_next is None else f"{r.p_next:>10.1%}"
            lines.append(f"  {place:>1}  {name:<{width}}  {r.mu:>6.1f}  {r.low:>5.1f} to {r.high:>5.1f}  "
                         f"{r.games:>5}  {r.wins:>4}  {r.score:>6.1%}  {beats}".rstrip())
        return "\n".join(lines)


def rate(games: Iterable[Ranked]) -> Ratings:
    """The ratings of the players of ``games``, in the order given (see the module's notes)."""
    from openskill.models import PlackettLuce, PlackettLuceRating  # (loaded by this command only)

    model = PlackettLuce()
    current: dict[str, PlackettLuceRating] = {}
    played: dict[str, list[float]] = {}  # games, wins, points
    called: dict[str, str] = {}  # each player's name, as its first game gives it
    rated = skipped = 0
    for game in games:
        if len(set(game.players)) < len(game.players):
            skipped += 1
            continue
        rated += 1
        teams = [[current.get(p) or model.rating(name=p)] for p in game.players]
        for p, [after] in zip(game.players, model.rate(teams, ranks=list(game.places))):
            current[p] = after
        for seat, p in enumerate(game.players):
            called.setdefault(p, game.names[seat] if game.names else p)
            tally = played.setdefault(p, [0, 0, 0.0])
            tally[0] += 1
            tally[1] += place_outcome(game.places, seat) == 1
            tally[2] += place_points(game.places, seat)
    order = sorted(current, key=lambda p: (-current[p].mu, current[p].sigma, p))
    ratings = []
    for i, p in enumerate(order):
        below = current[order[i + 1]] if i + 1 < len(order) else None
        chance = model.predict_win([[current[p]], [below]])[0] if below is not None else None
        games_, wins, points = played[p]
        ratings.append(Rating(p, current[p].mu, current[p].sigma, int(games_), int(wins), points,
                              None if chance is None or math.isnan(chance) else chance, called[p]))
    return Ratings(tuple(ratings), rated, skipped)


def recorded(paths: Sequence[str | os.PathLike[str]], jobs: int = 1) -> Iterator[Ranked]:
    """Each game of the records in ``paths`` (files, folders, corpora), in order, as
    :func:`rate` takes it: a seat known by the bot or policy the record's meta names,
    else by the player's name; a forfeit ranks last. ``jobs``: processes to read with.

    Raises:
        InputError: a path cannot be read, or a record is not valid (the message names it).
    """
    from ..corpus.rows import run
    from ..formats.sources import InputError, input_files

    for rows in run(input_files(paths), jobs=jobs):
        broken = rows.broken_line()
        if broken is not None or rows.game is None:
            raise InputError(f"cannot rate an invalid record (qwirkle validate lists every error): {broken}")
        game = rows.game
        names, scores = game["_names"], game["_scores"]
        assert isinstance(names, tuple) and isinstance(scores, tuple)
        bots = [game.get(f"bot_{s}") for s in range(len(names))]
        forfeit = game["forfeit_seat"]
        yield Ranked.of(names, [b if isinstance(b, str) else None for b in bots], scores,
                        forfeit if isinstance(forfeit, int) else None)


__all__ = ["Ranked", "Rating", "Ratings", "rate", "recorded"]
