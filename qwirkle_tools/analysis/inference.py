"""Inferred racks: what a turn whose rack was not recorded probably lost, over racks drawn
to fit the record.

A club's record tells the tiles each turn placed, never the rest of the rack. The rest is
drawn here, :data:`SAMPLES` times a turn, from the tiles the record leaves unaccounted for
(not on the board, not placed, not in a rack the record tells), and each rack drawn is
weighted by how well it fits what the record shows after the turn:

* with the bag empty, the player draws nothing more: every tile they place later was in
  the rack (it is drawn with them in it);
* else the next placement of the same player came from what the rack kept and what it
  drew: a rack is weighted by the chance that its draw supplied the rest (the draw taken
  as uniform from the tiles unaccounted for);
* and by a player model: the player picks each legal move with a chance that grows with
  its score, ``exp(sharpness * score)`` (a softmax; sharpness 0 picks at random, a large one
  always the best). Each player's sharpness is the one that makes the moves they played
  most likely over the whole game (a grid, :data:`SHARPNESS`).

With each player's sharpness known, a chain of :data:`SAMPLES` racks drawn from the posterior itself
(Metropolis: a tile of the rest swapped at a time) follows, from the likeliest rack of the first draw:
where the move played was the best only for a few poor racks, the chain finds them.

Per turn: the expected points lost (the best score of a rack less the score played,
averaged with the weights), the chance that a better move existed, and the move most often
best. Everything here is inferred, never a fact, and said so with its sample size. The
draws are seeded by the turn: the same record gives the same inference. The figures are
checked against the truth of self-play games, their racks stripped
(``benchmarks/bench_inference.py``; docs/analysis.md gives the figures).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..core.board import as_cells
from ..core.move import Move
from ..core.movegen import TooManyMoves, generate_found
from ..core.rules import Rules
from ..core.tiles import RACK_SIZE, each_copy
from ..play.engine import History
from .moves import move_data, move_scores
from .verdicts import raw_move

SAMPLES = 100
"""The racks drawn for a turn."""
SHARPNESS = (0.0, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 8.0)
"""The player model's sharpness tried for each player (points to the power of e)."""
MOVES_PER_TURN = 50_000
"""The legal moves the racks drawn for one turn may have in all: past it, no more racks are drawn for
the turn (a crowded board; the figures say over how many racks they are). A club game's turn has
about 5,000 (50 a rack)."""
MOVES_PER_RECORD = 1_000_000
"""The legal moves the racks drawn for one record may have in all (about 3 s): past it, the turns
after are not inferred."""


@dataclass(frozen=True, slots=True)
class Inferred:
    """What a turn probably lost, over ``samples`` racks drawn to fit the record: the expected
    points lost, the chance a better move existed (``better``), the move most often best and
    how often (``likely``, ``share``), and the player model's ``sharpness`` (see the module)."""

    samples: int
    expected_loss: float
    better: float
    likely: Move | None
    share: float
    sharpness: float

    def text(self) -> str:
        """``inferred over 100 racks: 4.2 points lost expected, a better move in 63 % (most often rs@2,1, 41 %)``."""
        best = f" (most often {self.likely} for {self.likely.score}, {self.share:.0%})" if self.likely is not None else ""
        return (f"inferred over {self.samples} racks: {self.expected_loss:.1f} points lost expected, "
                f"a better move in {self.better:.0%}{best}")

    def to_data(self) -> dict[str, object]:
        return {"samples": self.samples, "expected_loss": round(self.expected_loss, 2), "better": round(self.better, 3),
                "likely_best": None if self.likely is None else move_data(self.likely), "likely_share": round(self.share, 3),
                "sharpness": self.sharpness}


@dataclass(frozen=True, slots=True)
class _Sample:
    """One rack drawn: its weight from the record's later plays, the best score and move,
    the points lost, and its moves' scores (a score to how many moves score it)."""

    fit: float
    best: int
    move: tuple[tuple[int, ...], tuple[int, ...]] | None
    loss: int
    scores: tuple[tuple[int, int], ...]
    rack: tuple[int, ...] = ()


def infer(history: History, indices: Sequence[int], budget: list[int] | None = None) -> dict[int, Inferred]:
    """The inference of each turn of ``indices`` (0-based) that can be drawn for: a placement or
    an exchange on a known board, its rack unknown (see the module's notes). ``budget``: the legal
    moves the racks drawn may have in all (``budget[0]``, charged; at most :data:`MOVES_PER_RECORD`);
    spent, no more racks are drawn."""
    drawn: dict[int, tuple[int, int, list[_Sample]]] = {}  # index -> (player, score played, samples)
    chains: dict[int, _Drawing] = {}
    left = [min(MOVES_PER_RECORD, budget[0] if budget is not None else MOVES_PER_RECORD)]
    for i in indices:
        before = left[0]
        found = _draw(history, i, left, chains)
        if budget is not None:
            budget[0] -= before - left[0]
        if found is not None:
            drawn[i] = found
    sharpness = {p: _fit([(played, samples) for q, played, samples in drawn.values() if q == p])
                 for p in {q for q, _, _ in drawn.values()}}
    out = {}
    for i, (p, played, samples) in drawn.items():
        before = left[0]
        walked = _chain(chains[i], sharpness[p], left) if i in chains and left[0] > 0 else []
        if budget is not None:
            budget[0] -= before - left[0]
        out[i] = _summary(walked, played, sharpness[p], uniform=True) if len(walked) >= SAMPLES // 2 \
            else _summary(samples, played, sharpness[p])
    return out


_EXCHANGE = -1
"""The score played of an exchange, for the player model: an option besides the placements, scoring 0."""


def _draw(history: History, index: int, budget: list[int], chains: dict[int, _Drawing] | None = None
          ) -> tuple[int, int, list[_Sample]] | None:
    """The racks drawn for turn ``index``, or ``None`` where none can be."""
    turn = history.turns[index]
    state = history.before(index)
    if turn is None or not state.board_known or state.ended or turn.action not in ("place", "exchange"):
        return None
    if turn.action == "place" and not turn.tiles:
        return None
    p = turn.player
    placed = [int(pl.tile) for pl in turn.tiles] if turn.action == "place" and turn.tiles else []
    told_size = state.rack_sizes[p] if p < len(state.rack_sizes) else None
    size = told_size if told_size is not None else RACK_SIZE
    pool = Counter(each_copy(state.unseen(-1)))
    known = Counter(int(t) for t in state.known[p]) if p < len(state.known) else Counter()
    for q, told in enumerate(state.known):
        if q != p:
            pool.subtract(int(t) for t in told)
    pool.subtract(placed)
    forced = known - Counter(placed)  # the tiles the record puts in the rack besides those placed
    bag = state.bag or 0
    later = [history.turns[j] for j in range(index + 1, len(history.turns))]
    mine = [t for t in later if t is not None and t.player == p]
    if not bag:  # nothing more is drawn: every tile placed later was in the rack
        forced |= Counter(int(pl.tile) for t in mine if t.action == "place" and t.tiles for pl in t.tiles)
    leave = size - len(placed)
    pool.subtract(forced)
    if leave < sum(forced.values()) or min(pool.values(), default=0) < 0:
        return None  # the record's tiles do not fit this reading
    draws = min(len(placed) if placed else turn.exchange_size or 0, bag)
    following = Counter(int(pl.tile) for pl in mine[0].tiles) if bag and mine and mine[0].action == "place" \
        and mine[0].tiles else Counter()
    rng = random.Random(f"qwirkle-tools inference {index}")
    tiles = list(pool.elements())
    rules = history.record.rules
    cells = as_cells(state.board)  # (the board's own dict: a read-only view would be copied by each generation)
    played = _played(history, index) if placed else _EXCHANGE
    samples: list[_Sample] = []
    seen: dict[tuple[int, ...], _Sample | None] = {}
    left = [min(MOVES_PER_TURN, budget[0])]
    for _ in range(SAMPLES):
        if left[0] <= 0:
            break
        rest = rng.sample(tiles, leave - sum(forced.values()))
        rack = tuple(sorted([*placed, *forced.elements(), *rest]))
        fit = _supplied(following, Counter(rack) - Counter(placed), pool - Counter(rest), draws) if following else 1.0
        if rack not in seen:  # (the same rack, the same rest drawn: the same fit)
            seen[rack] = _judged(cells, rack, rules, bag, max(played, 0), fit, left)
        sample = seen[rack]
        if sample is not None and fit > 0:
            samples.append(sample)
    budget[0] -= min(MOVES_PER_TURN, budget[0]) - max(left[0], 0)
    if chains is not None and samples and leave > sum(forced.values()):
        chains[index] = _Drawing(index, placed, forced, pool, following, draws, cells, rules, bag, played, seen, samples)
    return (p, played, samples) if samples else None


def _played(history: History, index: int) -> int:
    """The points turn ``index`` scored, as the replay computed them."""
    before, after = history.before(index).scores, history.state(index + 1).scores
    p = history.turns[index].player  # type: ignore[union-attr]  # (a turn drawn for is read)
    return after[p] - before[p]


def _judged(cells: object, rack: tuple[int, ...], rules: object, bag: int, played: int, fit: float,
            left: list[int]) -> _Sample | None:
    """A rack's best move against the score played, and its moves' scores; its moves charged to ``left``."""
    try:
        found = generate_found(cells, rack, rules, limit=left[0])  # type: ignore[arg-type]
    except TooManyMoves as many:
        left[0] -= many.found
        return None
    left[0] -= len(found)
    scores = move_scores(found.points(), found.counts(), len(rack), bag, rules)  # type: ignore[arg-type]
    if not scores:
        return _Sample(fit, 0, None, 0, (), rack)
    best = max(scores)
    first = found.picked([scores.index(best)])[0]  # (the only move made of them)
    return _Sample(fit, best, (first[2], first[3]), max(0, best - played), tuple(sorted(Counter(scores).items())), rack)


@dataclass(frozen=True, slots=True)
class _Drawing:
    """What a turn's racks are drawn from, kept for its chain (:func:`_chain`): the tiles placed and
    forced, the tiles unaccounted for, the next placement and the draw before it, the board, the
    score played, the racks judged so far (by rack) and the first draw's samples."""

    index: int
    placed: list[int]
    forced: Counter[int]
    pool: Counter[int]
    following: Counter[int]
    draws: int
    cells: Mapping[int, int]
    rules: Rules
    bag: int
    played: int
    seen: dict[tuple[int, ...], _Sample | None]
    samples: list[_Sample]


def _chain(d: _Drawing, sharpness: float, budget: list[int]) -> list[_Sample]:
    """Racks drawn from the posterior itself (Metropolis: one tile of the rest swapped for one of the
    tiles unaccounted for, kept with the chance the record and the player model give it against the
    old), from the likeliest rack of the first draw; their moves charged to ``budget``."""
    def weight(sample: _Sample) -> float:
        return sample.fit * _chance(sample, d.played, sharpness)

    current = max(d.samples, key=weight)
    rest = list((Counter(current.rack) - Counter(d.placed) - d.forced).elements())
    spare = list((d.pool - Counter(rest)).elements())
    walk = random.Random(f"qwirkle-tools inference chain {d.index}")
    kept: list[_Sample] = []
    spend = [min(MOVES_PER_TURN, budget[0])]
    for _ in range(SAMPLES):
        if spend[0] <= 0 or not spare:
            break
        j, k = walk.randrange(len(rest)), walk.randrange(len(spare))
        trial = rest[:j] + [spare[k]] + rest[j + 1:]
        rack = tuple(sorted([*d.placed, *d.forced.elements(), *trial]))
        if rack not in d.seen:
            fit = _supplied(d.following, Counter(rack) - Counter(d.placed), d.pool - Counter(trial), d.draws) \
                if d.following else 1.0
            d.seen[rack] = _judged(d.cells, rack, d.rules, d.bag, max(d.played, 0), fit, spend)
        found = d.seen[rack]
        if found is not None and walk.random() * weight(current) < weight(found):
            spare[k], rest = rest[j], trial
            current = found
        kept.append(current)
    budget[0] -= min(MOVES_PER_TURN, budget[0]) - max(spend[0], 0)
    return kept


def _supplied(needed: Counter[int], kept: Counter[int], pool: Counter[int], draws: int) -> float:
    """The chance that a uniform draw of ``draws`` tiles from ``pool`` holds what ``needed`` lacks
    in ``kept`` (the next placement's tiles, from the rack kept and the draw)."""
    lack = needed - kept
    if sum(lack.values()) > draws:
        return 0.0
    total = sum(pool.values())
    if not lack:
        return 1.0
    ways = [1]  # ways[c]: draws of c tiles among the lacking kinds that hold each kind's lack
    for kind, want in lack.items():
        have = pool[kind]
        if have < want:
            return 0.0
        step = [math.comb(have, c) if c >= want else 0 for c in range(have + 1)]
        ways = [sum(ways[a] * step[c - a] for a in range(len(ways)) if 0 <= c - a < len(step))
                for c in range(len(ways) + len(step) - 1)]
    others = total - sum(pool[kind] for kind in lack)
    hits = sum(w * math.comb(others, draws - c) for c, w in enumerate(ways) if c <= draws)
    return hits / math.comb(total, draws)


def _chance(sample: _Sample, played: int, sharpness: float) -> float:
    """The player model's chance of the move played, with this rack: ``exp(sharpness * score)``
    over the sum for every legal move (an exchange, :data:`_EXCHANGE`, is one option more, scoring 0)."""
    if not sample.scores:
        return 1.0
    top = sample.best
    total = sum(n * math.exp(sharpness * (s - top)) for s, n in sample.scores)
    mine = math.exp(sharpness * (max(played, 0) - top))
    return mine / (total + mine) if played == _EXCHANGE else mine / total


def _fit(turns: list[tuple[int, list[_Sample]]]) -> float:
    """The sharpness under which a player's moves were most likely (the first of :data:`SHARPNESS` on a tie)."""
    def likelihood(sharpness: float) -> float:
        total = 0.0
        for played, samples in turns:
            weight = sum(s.fit for s in samples)
            chance = sum(s.fit * _chance(s, played, sharpness) for s in samples) / weight
            total += math.log(max(chance, 1e-300))
        return total

    return max(SHARPNESS, key=likelihood)


def _summary(samples: list[_Sample], played: int, sharpness: float, uniform: bool = False) -> Inferred:
    """The figures over the racks: weighted by the record and the player model, or, drawn from the
    posterior itself (``uniform``: a chain's), each alike."""
    weights = [1.0] * len(samples) if uniform else [s.fit * _chance(s, played, sharpness) for s in samples]
    total = sum(weights) or 1.0
    loss = sum(w * s.loss for w, s in zip(weights, samples)) / total
    better = sum(w for w, s in zip(weights, samples) if s.loss > 0) / total
    votes: dict[tuple[tuple[tuple[int, ...], tuple[int, ...]], int], float] = {}
    for w, s in zip(weights, samples):
        if s.move is not None:
            votes[s.move, s.best] = votes.get((s.move, s.best), 0.0) + w
    likely, share = None, 0.0
    if votes:
        (move, score), weight = max(votes.items(), key=lambda v: v[1])
        found = raw_move((score, 0, move[0], move[1]))
        likely, share = Move.place(found.tiles, score), weight / total
    return Inferred(len(samples), loss, better, likely, share, sharpness)


__all__ = ["SAMPLES", "SHARPNESS", "Inferred", "infer"]
