"""The look-ahead engine: a move judged by what it scores less what it gives.

Greedy play takes the highest score this turn. A strong player also asks
what the move leaves the next player (a line of five is a Qwirkle waiting
for them). This engine values a placement as

    value = score - expected best reply of the next player

and plays the move of highest value. Method, for one position:

1. The candidates are the :attr:`Settings.candidates` (K) highest-scoring
   legal moves (:func:`~qwirkle_tools.core.movegen.generate_raw`'s order; a move
   that empties the rack with the bag empty counts the end bonus), plus,
   when a move is being judged (``annotate``), the move that was played.
2. The next player's rack is sampled :attr:`Settings.samples` (S) times from
   the *pool*: the tiles the mover has not seen (not on the board, not in the
   mover's rack: :meth:`~qwirkle_tools.play.engine.GameState.unseen`), the bag
   included. The assumption: the next player's rack is a uniform draw from
   that pool. When the pool is no larger than the rack (an empty bag in a
   two-player game) the rack is known and one sample is exact. The samples
   come from ``random.Random(seed)`` and are shared by every candidate
   (common random numbers: the candidates are compared on the same racks).
3. For each candidate and sampled rack, the reply is the next player's best
   score on the board with the candidate played
   (:func:`~qwirkle_tools.core.movegen.best_move`), counting the end bonus when
   the reply empties that rack and the bag is empty by then; a rack with no
   legal placement replies 0. A candidate that ends the game (empties the
   mover's rack with the bag empty) gets no reply.

What is *not* done: only the next player replies (in a game of three or
more, the later players are not modelled); the mover's own next turn and the
value of the tiles kept are not counted (tried, see ``docs/analysis.md``: it did not
earn its place); exchanges are never chosen while a placement is legal.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.errors import QwirkleError
from ..core.movegen import Cutoff, RawMove, TooManyMoves, best_move, generate_raw, raw
from ..core.pickling import Rebuilt, rebuilt
from ..core.rules import Rules

CANDIDATES = 8
"""K: the highest-scoring moves the engine looks beyond (see the match table of ``docs/analysis.md``)."""
SAMPLES = 6
"""S: the racks sampled for the next player per position."""
MARGIN = 3.0
"""``better-move``: the engine's choice beats the move played by more than this many points of value."""
KEEP = 0.0
"""The weight of the tiles kept: the best score the mover's remaining tiles make on the board the move leaves."""
REPLY_LIMIT = 5_000
"""A position (the mover's, or a reply's) with more legal moves than this is not judged: real games
have at most a few hundred; only pathological boards have more, and would take minutes."""


Budget = list[int]
"""The legal moves a caller still allows to be generated (one mutable count,
charged as moves are generated: the analysis' budget for a record)."""


class BudgetSpent(QwirkleError):
    """The caller's :data:`Budget` ran out before a judgement was complete."""


class OutOfTime(BudgetSpent):
    """The caller's time (a ``deadline``) ran out before a judgement was complete; the message says whose."""

    def __init__(self, message: str = "its time ran out") -> None:
        super().__init__(message)


def _check(deadline: float | None) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise OutOfTime


def _generated(budget: Budget | None, bag_after: int | None, cells: dict[int, int], rack: Sequence[int],
               rules: Rules, deadline: float | None = None) -> int:
    """The best score ``rack`` makes on ``cells`` (0 for no move), the end
    bonus counted when the move empties the rack and ``bag_after`` is 0; the
    moves generated charged to ``budget``, each position at most
    :data:`REPLY_LIMIT` (and what the budget has left).

    Raises:
        TooManyMoves: the position has more than :data:`REPLY_LIMIT` moves.
        BudgetSpent: the budget ran out.
        OutOfTime: ``deadline`` passed (the generation reads it between anchors).
    """
    limit = REPLY_LIMIT
    cutoff = None if deadline is None else Cutoff(deadline)
    if budget is not None:
        if budget[0] <= 0:
            raise BudgetSpent("the analysis budget is spent")
        limit = min(limit, budget[0])
    spent = [0]
    try:
        if bag_after == 0:
            moves = generate_raw(cells, rack, rules, limit=limit, cutoff=cutoff)
            spent[0] = len(moves)
            best = max((rules.scored(s, len(t), len(rack), 0) for s, _, _, t in moves), default=0)
        else:
            found = best_move(cells, rack, rules, limit=limit, spent=spent, cutoff=cutoff)
            best = found.score or 0 if found is not None else 0
    except TooManyMoves as many:
        if budget is not None:
            budget[0] -= many.found
        if many.limit < REPLY_LIMIT:
            raise BudgetSpent("the analysis budget is spent") from None
        raise
    if budget is not None:
        budget[0] -= spent[0]
    if cutoff is not None and cutoff.cut:
        raise OutOfTime
    return best


@dataclass(frozen=True, slots=True)
class Settings:
    """The engine's parameters: K candidates, S sampled racks, and the weight
    of the tiles kept (0: not counted). The samples' seed is the position's
    (see :func:`judge`), not a setting."""

    candidates: int = CANDIDATES
    samples: int = SAMPLES
    keep: float = KEEP

    def __post_init__(self) -> None:
        if self.candidates < 1 or self.samples < 1:
            raise ValueError(f"candidates and samples must be at least 1, not {self.candidates} and {self.samples}")

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


DEFAULT = Settings()


@dataclass(frozen=True, slots=True)
class Judged:
    """A candidate move with its score (end bonus included), the expected best
    reply and its value (score less reply). ``move`` is ``None`` for no
    placement (an exchange or a pass: the board stays as it is)."""

    move: RawMove | None
    score: int
    reply: float
    kept: float = 0.0

    @property
    def value(self) -> float:
        return self.score - self.reply + self.kept

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


def sample_racks(pool: Sequence[int], size: int, samples: int, seed: int) -> list[tuple[tuple[int, ...], int]]:
    """The next player's sampled racks from ``pool`` (a tile per copy), each
    with how many times it was drawn: ``samples`` draws of ``size`` tiles
    from ``random.Random(seed)``; the whole pool once when it is no larger."""
    size = min(size, len(pool))
    if size <= 0:
        return [((), 1)]
    if size == len(pool):
        return [(tuple(sorted(pool)), 1)]
    rng = random.Random(seed)
    ordered = sorted(pool)
    counts: dict[tuple[int, ...], int] = {}
    for _ in range(samples):
        rack = tuple(sorted(rng.sample(ordered, size)))
        counts[rack] = counts.get(rack, 0) + 1
    return list(counts.items())


def expected_reply(cells: dict[int, int], racks: Sequence[tuple[tuple[int, ...], int]], bag_after: int | None,
                   rules: Rules, cap: float = math.inf, budget: Budget | None = None, deadline: float | None = None
                   ) -> float | None:
    """The mean over ``racks`` (weighted by their counts) of the best score
    each makes on ``cells``; the end bonus counted when the reply empties the
    rack and ``bag_after`` is 0. ``None`` as soon as the weighted sum of the
    replies reaches ``cap`` times the total weight (replies are never
    negative, so the mean is then at least ``cap``). Each reply position's
    moves are charged to ``budget`` (see :class:`BudgetSpent`); past ``deadline``
    (:func:`time.monotonic`), :class:`OutOfTime` is raised."""
    total = 0
    n = sum(weight for _, weight in racks)
    stop = cap * n
    for rack, weight in racks:
        if not rack:
            continue
        _check(deadline)
        best = _generated(budget, bag_after, cells, rack, rules, deadline)
        total += best * weight
        if total >= stop:
            return None
    return total / n if n else 0.0


def judge(cells: dict[int, int], moves: Sequence[RawMove], rack: Sequence[int], pool: Sequence[int], reply_rack: int,
          bag: int | None, rules: Rules, seed: int, settings: Settings = DEFAULT,
          played: RawMove | None | bool = False, budget: Budget | None = None, deadline: float | None = None
          ) -> tuple[list[Judged], Judged | None]:
    """The candidates among ``moves`` (the legal moves for ``rack``, best score
    first) judged, best value first; and the judgement of ``played`` (a
    move, ``None`` for an exchange or pass, ``False``: none), which is among them.

    ``pool``: the tiles the mover has not seen, a tile per copy; ``reply_rack``:
    the next player's rack size; ``bag``: the bag's count before the move
    (``None``: unknown, taken as not empty). Among the candidates, ties in
    value go to the higher score. A candidate is dropped (not listed) as soon
    as it cannot beat the best value found so far: its value is at most its
    score (plus the kept tiles' part) less the replies summed so far, since
    no reply is negative. So a candidate that only ties the ``played`` move,
    judged first, is dropped: the move played keeps a tie (its value lost is
    0 either way). The first listed is the engine's choice.

    ``budget``: the moves generated for every reply position (up to K + 1
    candidates times S racks) are charged to it, as the moves of the
    mover's own position are (the analysis' bound for a record). ``deadline``: a
    :func:`time.monotonic` time the judgement must end by (read before each reply
    position, and by the move generator inside each).

    Raises:
        TooManyMoves: a reply position has more than :data:`REPLY_LIMIT` moves.
        BudgetSpent: ``budget`` ran out.
        OutOfTime: ``deadline`` passed.
    """
    rack_size = len(rack)

    def total(m: RawMove) -> int:
        return rules.scored(m[0], len(m[3]), rack_size, bag)

    ranked = sorted(moves, key=total, reverse=True)[: settings.candidates]
    racks = sample_racks(pool, reply_rack, settings.samples, seed)

    def one(move: RawMove | None, best: float = -math.inf) -> Judged | None:
        if move is None:
            reply = expected_reply(cells, racks, bag, rules, budget=budget, deadline=deadline)
            assert reply is not None
            return Judged(None, 0, reply)
        score = total(move)
        placed = len(move[3])
        bag_after = None if bag is None else max(0, bag - placed)
        if bag == 0 and placed == rack_size:
            return Judged(move, score, 0.0)  # the mover goes out: the game ends, no reply
        after = dict(cells)
        after.update(zip(move[2], move[3]))
        kept = 0.0
        if settings.keep:
            left = list(rack)
            for t in move[3]:
                left.remove(t)
            kept = settings.keep * (_generated(budget, None, after, left, rules, deadline) if left else 0)
        if score + kept <= best:
            return None
        reply = expected_reply(after, racks, bag_after, rules, score + kept - best, budget, deadline)
        return None if reply is None else Judged(move, score, reply, kept)

    judged: list[Judged] = []
    mine: Judged | None = None
    if played is not False:
        assert played is None or isinstance(played, tuple)
        mine = one(played)
        assert mine is not None
        judged.append(mine)
    key = None if mine is None or mine.move is None else frozenset(zip(mine.move[2], mine.move[3]))
    best = mine.value if mine is not None else -math.inf
    for m in ranked:
        if key is not None and frozenset(zip(m[2], m[3])) == key:
            continue
        j = one(m, best)
        if j is not None:
            judged.append(j)
            best = max(best, j.value)
    # best value first; ties to the higher score, then the earlier (generate's order)
    order = sorted(range(len(judged)), key=lambda i: (-judged[i].value, -judged[i].score, i))
    return [judged[i] for i in order], mine


def choose(cells: dict[int, int], rack: Sequence[int], pool: Sequence[int], reply_rack: int, bag: int | None,
           rules: Rules, seed: int, settings: Settings = DEFAULT, movetime_ms: int | None = None) -> RawMove | None:
    """The placement the engine plays (``None`` when no placement is legal).

    On an empty board the opening rule applies: every opening it allows places
    a group of the same size for the same score, and the first is played. In
    a position with more than :data:`REPLY_LIMIT` moves (the mover's or a
    reply's) the best-scoring move is played, as greedy play would. Within
    ``movetime_ms`` when it is given (every move generation reads the clock):
    out of time, the best-scoring move found so far.
    """
    if not cells:
        moves = generate_raw(cells, rack, rules, largest_first=True)
        return moves[0] if moves else None
    deadline = None if movetime_ms is None else time.monotonic() + 0.9 * movetime_ms / 1000
    cutoff = Cutoff(deadline)
    try:
        moves = generate_raw(cells, rack, rules, limit=REPLY_LIMIT, cutoff=cutoff)
    except TooManyMoves:  # the best score, one move kept (bounded memory), within the time
        found = best_move(cells, rack, rules, cutoff=Cutoff(deadline, most=1))
        return None if found is None else raw(found)
    if len(moves) <= 1 or len(moves) > REPLY_LIMIT or cutoff.cut:
        return moves[0] if moves else None
    try:
        ranked, _ = judge(cells, moves, rack, pool, reply_rack, bag, rules, seed, settings, deadline=deadline)
    except (TooManyMoves, OutOfTime):
        return moves[0]
    return ranked[0].move


__all__ = ["CANDIDATES", "DEFAULT", "MARGIN", "REPLY_LIMIT", "SAMPLES", "Budget", "BudgetSpent", "Judged", "OutOfTime",
           "Settings",
           "choose",
           "expected_reply", "judge", "sample_racks"]
