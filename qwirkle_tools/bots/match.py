"""Matches between two players: paired deals, forfeits, the summary and its intervals, SPRT.

Games ``2k`` and ``2k + 1`` form pair ``k``: dealt alike (the same bag
order, seeded by :func:`~qwirkle_tools.play.simulate.game_seed` of the match seed and ``k``,
as a corpus seeds its games; a policy's choice at a turn likewise of the
deal's seed and the turn), with the seats swapped, so each player plays
each deal from both seats and the luck of the deal cancels out.
Every game is a record that validates, with the players' names and, in
``meta``, the match's seed, the pair, the game's index, the bot of each seat
and the move time. A player who forfeits (:class:`~qwirkle_tools.bots.players.Forfeit`)
loses that game: it is recorded up to there, ended ``unfinished``, with the
reason in the result's ``x-forfeit`` (``{"seat": S, "code": ..., "reason": ...}``).

:func:`summarise` reads the records back (so its counts are a count of the
records): wins, draws, losses and forfeits per player, the score rate with
a Wilson 95 % interval, the mean margin with a 95 % interval, and the pairs
(both won, split, both lost). :class:`Sprt` is the sequential probability
ratio test between two Elo hypotheses (Wald's, on the games' results),
tested after each pair.
"""

from __future__ import annotations

import atexit
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..core.safetext import json_text, one_line
from ..core.text import count
from ..formats.jsontext import JSON, parse_json
from ..formats.record import Record, from_data
from ..play.engine import IllegalMoveError
from ..play.game import Game
from ..play.simulate import game_seed
from .players import GRACE_MS, MEMORY_MB, Bot, Forfeit, load

LABELS = ("A", "B")
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
    if a.name == b.name:
        return f"{a.name} (A)", f"{b.name} (B)"
    return a.name, b.name


@dataclass(frozen=True, slots=True)
class Match:
    """What a match plays: players ``a`` and ``b`` (specs, see :func:`~qwirkle_tools.bots.players.load`),
    ``games`` games from ``seed``, ``movetime_ms`` a move; ``logs`` is where the bots'
    standard error goes (``{logs}.A.log``, ``{logs}.B.log``), none if ``None``."""

    a: str
    b: str
    games: int
    seed: int = 0
    movetime_ms: int = 1_000
    memory_mb: int = MEMORY_MB
    grace_ms: int = GRACE_MS
    logs: str | None = None

    def bots(self) -> tuple[Bot, Bot]:
        return tuple(load(spec, None if self.logs is None else Path(f"{self.logs}.{label}.log"), self.memory_mb,
                          self.grace_ms) for spec, label in ((self.a, "A"), (self.b, "B")))  # type: ignore[return-value]


_BOTS: dict[Match, tuple[Bot, Bot]] = {}
"""This process's bots, per match (a worker plays many pairs with the same bots)."""


def _bots_of(match: Match) -> tuple[Bot, Bot]:
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


def names_of(match: Match) -> tuple[str, str]:
    """The players' names: each bot started once to learn its name (a program's ``id name``)."""
    a, b = _bots_of(match)
    for bot in (a, b):
        try:
            bot.start()
        except Forfeit:
            pass  # it forfeits its games; its name stays the one its spec gives
    return pair_names(a, b)


def play_pair(match: Match, names: tuple[str, str], pair: int) -> list[bytes]:
    """The two games of pair ``pair`` as JSON lines (dealt alike, the seats swapped)."""
    a, b = _bots_of(match)
    bots = {"A": a, "B": b}
    specs = {"A": match.a, "B": match.b}
    lines = []
    for swapped in (False, True):
        labels = ("B", "A") if swapped else ("A", "B")
        meta: dict[str, JSON] = {
            "event": "match", "seed": match.seed, "pair": pair, "game": 2 * pair + swapped,
            **{f"bot-{s}": specs[label] for s, label in enumerate(labels)},
            **{f"label-{s}": label for s, label in enumerate(labels)},
        }
        record = play([bots[label] for label in labels], [names[LABELS.index(label)] for label in labels],
                      game_seed(match.seed, pair), match.movetime_ms, meta)
        lines.append(json_text(record.to_data(), separators=(",", ":")).encode("utf-8") + b"\n")
    return lines


def run(match: Match, jobs: int = 1, sprt: Sprt | None = None) -> Iterator[bytes]:
    """The games of a match as JSON lines, in order (the same for any ``jobs``): pair ``k``
    is games ``2k`` (A in seat 0) and ``2k + 1`` (B in seat 0). An odd ``games`` plays the
    last pair's first game only. With ``sprt`` the match stops after the pair at which the
    test decides. Every bot process is gone when the generator ends, however it ends."""
    from functools import partial

    from ..corpus.rows import ordered_map

    try:
        names = names_of(match)
        if jobs > 1:
            close_bots()  # (the workers start their own)
        pairs = range((match.games + 1) // 2)
        results: list[float] = []
        played = 0
        for lines in ordered_map(partial(play_pair, match, names), pairs, jobs, batch=1):
            for line in lines[: match.games - played]:
                played += 1
                yield line
                if sprt is not None:
                    record = from_data(parse_json(line), trusted=True)
                    results.append(outcome(record, [record.meta.get(f"label-{s}") for s in (0, 1)].index("A")))
            if sprt is not None and sprt.decide(results) is not None:
                return
    finally:
        close_bots()


def outcome(record: Record, seat: int) -> float:
    """What the game gave seat ``seat``: 1 a win, 0.5 a draw, 0 a loss (a forfeit loses, whatever the scores)."""
    assert record.result is not None and record.result.scores is not None
    forfeit = record.result.extra.get("x-forfeit")
    if isinstance(forfeit, dict):
        return 0.0 if forfeit.get("seat") == seat else 1.0
    scores = record.result.scores
    mine, best = scores[seat], max(s for p, s in enumerate(scores) if p != seat)
    return 1.0 if mine > best else 0.5 if mine == best else 0.0


# -- the summary -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Side:
    """One player's results in a match."""

    label: str
    name: str
    spec: str
    wins: int
    draws: int
    losses: int
    forfeits: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


@dataclass(frozen=True, slots=True)
class Summary:
    """A match's results as seen by player A (see the module's notes)."""

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
    @property
    def games(self) -> int:
        return self.a.games

    def to_data(self) -> dict[str, JSON]:
        def side(s: Side) -> dict[str, JSON]:
            return {"label": s.label, "name": s.name, "spec": s.spec, "wins": s.wins, "draws": s.draws,
                    "losses": s.losses, "forfeits": s.forfeits}
        return {
            "games": self.games, "a": side(self.a), "b": side(self.b),
            "score_rate": {"value": self.rate, "low": self.rate_low, "high": self.rate_high},
            "margin": {"value": self.margin, "low": self.margin_low, "high": self.margin_high},
            "pairs": {"both_won": self.pairs_won, "split": self.pairs_split, "both_lost": self.pairs_lost},
            "sprt": None if self.sprt is None else {"verdict": self.sprt, "llr": self.llr},
        }


def summarise(records: Iterable[Record], sprt: Sprt | None = None) -> Summary:
    """The summary of a match's records (as :func:`run` writes them)."""
    a_points: list[float] = []
    margins: list[float] = []
    by_pair: dict[int, list[float]] = {}
    tally = {label: [0, 0, 0, 0] for label in LABELS}  # wins, draws, losses, forfeits
    who: dict[str, tuple[str, str]] = {}
    for record in records:
        seats = [str(record.meta.get(f"label-{s}")) for s in range(len(record.players))]
        if sorted(seats) != sorted(LABELS):
            raise ValueError("not a match record: its meta has no label-0 and label-1 (A and B)")
        for s, label in enumerate(seats):
            who.setdefault(label, (record.players[s].name, str(record.meta.get(f"bot-{s}"))))
            result = outcome(record, s)
            tally[label][0 if result == 1 else 1 if result == 0.5 else 2] += 1
        forfeit = record.result.extra.get("x-forfeit") if record.result is not None else None
        if isinstance(forfeit, dict) and isinstance(forfeit.get("seat"), int):
            tally[seats[forfeit["seat"]]][3] += 1
        seat_a = seats.index("A")
        points = outcome(record, seat_a)
        a_points.append(points)
        assert record.result is not None and record.result.scores is not None
        margins.append(record.result.scores[seat_a] - record.result.scores[1 - seat_a])
        by_pair.setdefault(int(record.meta.get("pair", len(by_pair))), []).append(points)
    n = len(a_points)
    low, high = wilson(sum(a_points), n)
    mean, half = mean_interval(margins)
    pairs = [sum(p) for p in by_pair.values() if len(p) == 2]
    sides = [Side(label, *who.get(label, ("", "")), *tally[label]) for label in LABELS]
    verdict = sprt.decide(a_points) if sprt is not None else None
    return Summary(sides[0], sides[1], sum(a_points) / n if n else 0.0, low, high, mean, mean - half, mean + half,
                   sum(1 for p in pairs if p == 2), sum(1 for p in pairs if 0 < p < 2), sum(1 for p in pairs if p == 0),
                   verdict, sprt.llr(a_points) if sprt is not None else None)


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
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, math.inf
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, z * sd / math.sqrt(n)


@dataclass(frozen=True, slots=True)
class Sprt:
    """The sequential probability ratio test of H0: A is ``elo0`` stronger than B,
    against H1: ``elo1`` (logistic Elo), with error rates ``alpha`` and ``beta``.

    Wald's test on each game's result ``r`` (1 a win, 0.5 a draw, 0 a loss):
    the log-likelihood ratio adds ``r log(s1 / s0) + (1 - r) log((1 - s1) / (1 - s0))``
    a game, ``s0`` and ``s1`` being the expected scores of the two hypotheses
    (a draw counts as half a win and half a loss); it decides once it leaves
    ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``. It needs no estimate of
    the results' variance, so a short run of equal results does not decide early.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"--sprt ELO0,ELO1 needs ELO0 < ELO1, not {self.elo0:g},{self.elo1:g}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("alpha and beta must be between 0 and 0.5")

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """Read ``ELO0,ELO1`` (``--sprt 0,10``)."""
        try:
            elo0, elo1 = (float(part) for part in text.split(","))
        except ValueError:
            raise ValueError(f"--sprt takes ELO0,ELO1 (two numbers, e.g. 0,10), not {text!r}") from None
        return cls(elo0, elo1)

    def llr(self, results: Sequence[float]) -> float:
        """The log-likelihood ratio of H1 to H0 over the games' results (1, 0.5, 0)."""
        s0, s1 = _expected(self.elo0), _expected(self.elo1)
        win, loss = math.log(s1 / s0), math.log((1 - s1) / (1 - s0))
        return sum(r * win + (1 - r) * loss for r in results)

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def decide(self, results: Sequence[float]) -> str | None:
        """``"H1"`` (A is at least ``elo1`` stronger), ``"H0"`` (at most ``elo0``) or ``None`` (go on)."""
        llr = self.llr(results)
        low, high = self.bounds
        return "H1" if llr >= high else "H0" if llr <= low else None


def _expected(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def format_summary(summary: Summary, sprt: Sprt | None = None) -> str:
    """The summary as ``qwirkle match`` prints it."""
    a, b = (replace(s, name=one_line(s.name, most=60)) for s in (summary.a, summary.b))  # names a bot chose
    lines = [f"{count(summary.games, 'game')}: {a.name} (A) against {b.name} (B)"]
    width = max(len(a.name), len(b.name), 6)
    lines.append(f"  {'player':<{width}}  wins  draws  losses  forfeits")
    for side in (a, b):
        lines.append(f"  {side.name:<{width}}  {side.wins:>4}  {side.draws:>5}  {side.losses:>6}  {side.forfeits:>8}")
    lines.append(f"{a.name} scores {summary.rate:.1%} (95% interval {summary.rate_low:.1%} to {summary.rate_high:.1%}; "
                 "a draw counts half)")
    if math.isfinite(summary.margin_low):
        lines.append(f"mean margin {summary.margin:+.1f} points for {a.name} "
                     f"(95% interval {summary.margin_low:+.1f} to {summary.margin_high:+.1f})")
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


__all__ = ["LABELS", "Match", "Side", "Sprt", "Summary", "close_bots", "format_summary",
           "mean_interval", "names_of", "outcome", "pair_names", "play", "play_pair", "run", "summarise", "wilson"]
