"""Tournaments: a round robin of matches, and the standings per bot.

A tournament of bots ``b0 ... bk`` with ``players`` seats a game plays one
:class:`~qwirkle_tools.bots.match.Match` (a *round*) for every combination of
that many bots, in the order :func:`itertools.combinations` gives them: for
two players every pair, on paired deals with the seats swapped; for three to
six, every deal in each rotation of the seats. Every round plays the same
deals (the tournament's seed), so no pairing is luckier than another. The
records are a match's, with ``event: "tournament"`` and the ``round`` in
their ``meta``. :class:`Standings` folds the games, as they come, into each
bot's games, wins, draws, losses, forfeits and score rate with its Wilson
95 % interval (see :mod:`qwirkle_tools.bots.match` for a game's score).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from ..core.safetext import count, one_line
from ..core.text import cut_apart
from ..formats.jsontext import JSON
from .match import SEAT_LABELS, Match, Played, Results, ResumeError, Side, run_games
from .match import resumed as match_resumed
from .players import GRACE_MS, MEMORY_MB
from .results import shown_names


@dataclass(frozen=True, slots=True)
class Tournament:
    """What a tournament plays: ``games`` games a round between ``bots`` (specs),
    ``players`` a game; the rest as for a :class:`~qwirkle_tools.bots.match.Match`
    (``logs``: each round's bots' standard error goes to ``{logs}.rR.A.log``, ...)."""

    bots: tuple[str, ...]
    games: int
    players: int = 2
    seed: int = 0
    movetime_ms: int = 1_000
    memory_mb: int = MEMORY_MB
    grace_ms: int = GRACE_MS
    logs: str | None = None

    def __post_init__(self) -> None:
        if not 2 <= self.players <= len(SEAT_LABELS):
            raise ValueError(f"--players: a game has 2 to {len(SEAT_LABELS)} players, not {self.players}")
        if len(self.bots) < self.players:
            raise ValueError(f"a tournament of {self.players}-player games needs at least {self.players} bots, "
                             f"not {len(self.bots)}")
        twice = next((b for i, b in enumerate(self.bots) if b in self.bots[:i]), None)
        if twice is not None:
            raise ValueError(f"bot {twice!r} is named twice (each bot plays once a round)")

    def rounds(self) -> list[Match]:
        """The matches, one a combination of bots."""
        return [Match(lineup[0], lineup[1], self.games, self.seed, self.movetime_ms, self.memory_mb, self.grace_ms,
                      None if self.logs is None else f"{self.logs}.r{r}", lineup[2:], "tournament", (("round", r),))
                for r, lineup in enumerate(combinations(self.bots, self.players))]

    @property
    def total(self) -> int:
        """How many games the tournament plays."""
        return self.games * math.comb(len(self.bots), self.players)


def run(tournament: Tournament, jobs: int = 1, done: Sequence[Sequence[Played]] = ()) -> Iterator[Played]:
    """Every game of every round, in order (the same for any ``jobs``), but those
    ``done`` (each round's games that an earlier run played: :func:`resumed`).
    Every bot process is gone when the generator ends, however it ends."""
    for r, match in enumerate(tournament.rounds()):
        yield from run_games(match, jobs, done=done[r] if r < len(done) else ())


def resumed(tournament: Tournament, lines: Iterable[bytes]) -> list[list[Played]]:
    """The games an interrupted run of ``tournament`` wrote (its output's whole lines), checked
    and split by round (see :func:`~qwirkle_tools.bots.match.resumed`).

    Raises:
        ResumeError: a line that is not the tournament's next game, or more games than it plays.
    """
    rounds = tournament.rounds()
    found: list[list[Played]] = []
    chunk: list[bytes] = []
    for i, line in enumerate(lines):
        if i >= tournament.total:
            raise ResumeError(f"line {i + 1:,}: more games than the {tournament.total:,} this tournament plays")
        chunk.append(line)
        if len(chunk) == tournament.games:
            found.append(match_resumed(rounds[len(found)], chunk, i + 2 - len(chunk)))
            chunk = []
    if chunk:
        found.append(match_resumed(rounds[len(found)], chunk, tournament.games * len(found) + 1))
    return found


class Standings:
    """The tournament's results per bot (by spec), folded one game at a time (:meth:`add`)."""

    def __init__(self) -> None:
        self.bots: dict[str, Results] = {}
        self.games = 0
        self.size = 0
        self.reasons: dict[str, str] = {}  # each bot's first forfeit

    def add(self, game: Played) -> None:
        self.games += 1
        self.size = len(game.labels)
        for seat, spec in enumerate(game.specs):
            key = str(spec)
            self.bots.setdefault(key, Results(game.names[seat].removesuffix(f" ({game.labels[seat]})"), key)).add(
                game, seat)
        if game.forfeit is not None:
            self.reasons.setdefault(str(game.specs[game.forfeit]), game.reason)

    def hopeless(self) -> list[tuple[str, str, int, str]]:
        """The bots that forfeited every game they played: spec, name, games, the first reason."""
        return [(spec, r.name, r.counts[3], self.reasons.get(spec, "")) for spec, r in self.bots.items()
                if r.counts[3] and r.counts[3] == sum(r.counts[:3])]

    def sides(self) -> list[Side]:
        """Each bot's results, the best score rate first (``label``: its place)."""
        ranked = sorted(self.bots.values(), key=lambda r: (-(r.points / max(1, sum(r.counts[:3]))), r.spec))
        return [r.side(str(place)) for place, r in enumerate(ranked, 1)]

    def to_data(self) -> dict[str, JSON]:
        return {"games": self.games, "players": self.size, "bots": [s.to_data() for s in self.sides()]}

    def text(self) -> str:
        """The standings as ``qwirkle tournament`` prints them."""
        sides = self.sides()
        lines = [f"{count(self.games, 'game')} of {self.size} players between {count(len(sides), 'bot')}; "
                 "score: the share of the others a bot finished ahead of (a draw counts half)"]
        names = cut_apart([one_line(n) for n in shown_names([s.spec for s in sides], [s.name for s in sides])], 40)
        width = max(len("bot"), *(len(n) for n in names)) if names else 3
        lines.append(f"  #  {'bot':<{width}}  games  wins  draws  losses  forfeits   score  95% interval")
        for side, name in zip(sides, names):
            low, high = side.interval
            lines.append(f"  {side.label:>1}  {name:<{width}}  {side.games:>5}  {side.wins:>4}  {side.draws:>5}  "
                         f"{side.losses:>6}  {side.forfeits:>8}  {side.rate:>6.1%}  {low:.1%} to {high:.1%}")
        return "\n".join(lines)


__all__ = ["Standings", "Tournament", "resumed", "run"]
