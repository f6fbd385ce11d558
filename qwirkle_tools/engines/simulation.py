"""The simulation engine: each candidate move played out on sampled racks and draws.

The look-ahead engine asks what a move gives the next player; simulation
plays the game on a few plies further, many times over, and keeps the move
that does best on average. For the mover's position (the board, the rack,
the tiles the mover has not seen, the other racks' sizes, the bag's count):

1. The candidates are the :attr:`Settings.candidates` (K) best placements by
   the static ranking (:data:`STATIC`, best first), plus, when a move is
   being judged (``annotate``), the move that was played.
2. Each *iteration* shuffles the unseen tiles with ``random.Random(seed)``:
   the first of them are the opponents' racks (in turn order, each its
   size), the rest the bag, drawn from its end. The assumption: every order
   of the unseen tiles is equally likely (no inference from the opponents'
   plays). The same shuffle serves every candidate (common random numbers:
   the candidates are compared on the same racks and draws).
3. For each candidate still in the running: the candidate is played (the
   mover draws its replacements from the sampled bag), then
   :attr:`Settings.plies` (N) more turns, each by the static player (the
   first of the ranking; a player with no placement passes, an exchange is
   never played out), each drawing from the sampled bag. A player who empties
   their rack with the bag empty ends the game there (the end bonus counted).
4. Its value in that iteration (the spread it earns, from the mover's side)::

       value = score of the candidate (end bonus included)
             + the mover's points over the N plies
             - the opponents' points over the N plies (every opponent's counted)
             + leave(mover's rack at the end) - mean of leave(each opponent's rack at the end)

   where ``leave`` is the static player's value of the tiles a rack holds
   (0 with the score-only static player in use: see :data:`STATIC`).
5. Stopping: after :attr:`Settings.minimum` iterations, and every
   :data:`CHECK_EVERY` after, a candidate is dropped when the leader's mean
   beats its own by more than :attr:`Settings.z` standard errors of the
   *paired* difference (the two are played on the same samples, so the
   difference's spread, not each mean's, is what decides), or when every
   iteration so far scored it no better than the leader (a zero spread). The
   search stops when one candidate is left (a lone candidate gets the minimum, to
   be valued), after :attr:`Settings.iterations`,
   or at the time budget (``movetime_ms``), whichever comes first. The
   engine plays the candidate left in the running with the highest mean.

With the bag empty in a two-player game nothing is hidden (the unseen tiles
are the other rack), so the position goes to the exact endgame solver
(:func:`~qwirkle_tools.engines.endgame.solve`) with :attr:`Settings.endgame_nodes`
positions (:attr:`Settings.small_nodes` when the racks hold at most
:data:`SMALL_ENDGAME` tiles together), and the time budget if one is given:
its proven, or best found, move.

Reproducible: with an iteration budget only (no ``movetime_ms``), the same
position and seed give the same choice and the same values. With a time
budget the iterations done depend on the machine's speed, and so may the
choice. The game is played on a light state of its own (the board's cells
put down and taken up again, racks as lists, the bag as a list and a
count), never a copied board; the move generator's kept board data is what
makes each ply's move generation cheap.

What is *not* done: exchanges are never candidates while a placement is
legal; the opponents' racks are not inferred from their plays; a
pre-endgame (a few tiles in the bag) is simulated like any other position.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice

from ..core.board import Placement, cell_key, key_cell
from ..core.frontier import kept, restore
from ..core.movegen import Cutoff, RawMove, TooManyMoves, best_move, generate_raw, raw
from ..core.pickling import Rebuilt, rebuilt
from ..core.rules import Rules, judge
from ..core.tiles import RACK_SIZE, TILES, each_copy
from ..play.game import Game, Move, SeatView
from .endgame import solve

CANDIDATES = 5
"""K: the placements the static ranking puts first, simulated."""
PLIES = 2
"""N: the turns played out after the candidate (the reply, then the mover's next)."""
ITERATIONS = 24
"""The most iterations per move (each plays every candidate still in the running once)."""
MINIMUM = 8
"""The iterations before a candidate may be dropped."""
CHECK_EVERY = 4
"""After :data:`MINIMUM`, the candidates are compared every this many iterations."""
Z = 2.0
"""A candidate is dropped when the leader beats it by more than this many standard errors."""
ENDGAME_NODES = 12
"""The endgame solver's positions per move once the bag is empty (two players). At 12 it does
no wasted work: the exact search stops at once, the deepening completes depth 1 (every move
valued by a greedy playout to the end) and stops at the first node of depth 2 (a node of depth 2
costs a playout per reply: depth 2 cannot be finished within a few dozen nodes)."""
SMALL_ENDGAME = 6
"""An endgame with at most this many tiles in the two racks together gets :data:`SMALL_NODES`."""
SMALL_NODES = 1_000
"""The solver's positions in a small endgame: enough to prove most (they have few moves)."""
MOVE_LIMIT = 5_000
"""A position with more legal moves than this is not simulated: the best-scoring move is played
(real games have at most a few hundred; only pathological boards have more)."""


Ranking = Callable[[dict[int, int], Sequence[int], int, Rules, int], list[RawMove]]
"""``ranking(cells, rack, bag, rules, most)``: the rack's best ``most`` legal
placements on ``cells``, best first, with the bag holding ``bag`` tiles
(for the end bonus). Raises :class:`~qwirkle_tools.core.movegen.TooManyMoves`
past :data:`MOVE_LIMIT` moves."""
LeaveValue = Callable[[Sequence[int], Mapping[int, int], int], float]
"""``leave(kept, cells, bag)``: the value of the tiles a rack keeps."""
Leaf = Callable[[float, int, bool, bool], float]
"""``leaf(lead, tiles, moved, over)``: the mover's chance of winning at a playout's end, with
``lead`` points over the other player, ``tiles`` not on the board, ``moved``: the mover played the
playout's last turn (else the other player did), ``over``: the game ended there."""


@dataclass(frozen=True, slots=True)
class Static:
    """The static player the simulation stands on: its ranking of the
    placements (the candidates, and each playout turn's move: the first) and
    its value of the tiles a rack keeps. The one seam between this engine
    and the static evaluation: :data:`STATIC` names the one in use."""

    ranking: Ranking
    leave: LeaveValue

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


def score_ranking(cells: dict[int, int], rack: Sequence[int], bag: int, rules: Rules, most: int) -> list[RawMove]:
    """Greedy's order: the highest score first, end bonus included (generate's ties)."""
    if bag:  # no end bonus: generate's first ``most``, the others never made
        return generate_raw(cells, rack, rules, limit=MOVE_LIMIT, cutoff=Cutoff(most=most))
    moves = generate_raw(cells, rack, rules, limit=MOVE_LIMIT)
    if moves:  # going out earns the bonus: such a move may rank higher (a stable sort)
        whole = len(rack)
        moves.sort(key=lambda m: -rules.scored(m[0], len(m[3]), whole, 0))
    return moves[:most]


def no_leave(kept: Sequence[int], cells: Mapping[int, int], bag: int) -> float:
    return 0.0


SCORE_ONLY = Static(score_ranking, no_leave)
"""Score-only candidates and a leave of 0."""
STATIC = SCORE_ONLY
"""The static player in use. The switch to the equity player is this one line,
``STATIC = from_equity(equity.ranked, leaves.default())`` (see :func:`from_equity`);
measured (400 games against greedy, ``benchmarks/bench_sim.py --static equity``) it
scores the same (68.2 % against 68.6 %) at half the speed, so it is not taken."""


def from_equity(ranked: Callable[..., Sequence[object]], leaves: object) -> Static:
    """A :class:`Static` from the equity player's ``ranked(cells, rack, bag,
    rules, leaves, limit)`` (each item with a ``move``, a raw move) and its
    leave values (``leaves.value(kept, cells, bag)``)."""
    value: LeaveValue = leaves.value  # type: ignore[attr-defined]

    def ranking(cells: dict[int, int], rack: Sequence[int], bag: int, rules: Rules, most: int) -> list[RawMove]:
        placements = (v.move for v in ranked(cells, rack, bag, rules, leaves) if isinstance(v.move, tuple))  # type: ignore[attr-defined]
        return list(islice(placements, most))  # (an exchange is never a candidate nor played out)

    return Static(ranking, value)


@dataclass(frozen=True, slots=True)
class Settings:
    """The engine's parameters (see the module's notes); the seed is the position's, not a setting."""

    candidates: int = CANDIDATES
    plies: int = PLIES
    iterations: int = ITERATIONS
    minimum: int = MINIMUM
    z: float = Z
    endgame_nodes: int = ENDGAME_NODES
    small_nodes: int = SMALL_NODES
    endgame: bool = True
    """``False``: a bag-empty two-player position is simulated like any other, not
    handed to the solver (to measure what the solver adds)."""

    def __post_init__(self) -> None:
        counts = (self.candidates, self.iterations, self.minimum, self.endgame_nodes, self.small_nodes)
        if min(counts) < 1 or self.plies < 0:
            raise ValueError("candidates, iterations, minimum and endgame nodes must be at least 1, plies at least 0")

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


DEFAULT = Settings()


@dataclass(frozen=True, slots=True)
class Simulated:
    """A candidate with its score (end bonus included) and its value: the
    mean over its iterations (or, ``exact``, the endgame solver's spread to
    the end, proven or at the depth it reached), with the iterations it was
    played in and the standard error of that mean. ``pruned``: dropped
    before the end (its value is its mean when dropped). ``move`` is ``None``
    for no placement (a pass, in an endgame)."""

    move: RawMove | None
    score: int
    value: float
    iterations: int
    error: float
    pruned: bool = False
    exact: bool = False
    chance: float | None = None
    """The mover's chance of winning: the mean over the playouts of the :data:`Leaf` chance at each
    playout's end (``exact``: the result the solver's spread leads to); ``None`` unless asked for."""

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


@dataclass
class Tally:
    """Work counted across calls (for the benchmark): iterations, positions
    (turns played out, the candidates' included) and the seconds simulating;
    the moves decided by simulation and by the endgame solver (and its
    seconds); each move's seconds, whatever decided it (:func:`choose`)."""

    iterations: int = 0
    positions: int = 0
    seconds: float = 0.0
    simulated: int = 0
    endgames: int = 0
    endgame_seconds: float = 0.0
    per_move: list[float] = field(default_factory=list)

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


def evaluate(cells: Mapping[int, int], rack: Sequence[int], pool: Sequence[int], sizes: Sequence[int], bag: int | None,
             rules: Rules, seed: int, settings: Settings = DEFAULT, played: RawMove | None | bool = False,
             movetime_ms: int | None = None, static: Static | None = None, tally: Tally | None = None,
             chance: tuple[int, Leaf] | None = None) -> tuple[list[Simulated], Simulated | None]:
    """The candidates for the mover's position simulated, best first, and the
    entry of ``played`` (a raw move; ``False``: none; ``None``, an exchange or
    pass, is valued as a pass), which is among them.

    ``pool``: the tiles the mover has not seen, a tile per copy; ``sizes``:
    the opponents' rack sizes in turn order from the mover's; ``bag``: the
    bag's count (``None``, not known: the unseen tiles the racks do not
    hold). The ranking: the candidates still in the running by value (ties
    to the static order), then those dropped, by value. With the bag
    empty and one opponent the endgame solver values the moves (``exact``).
    ``chance``: in a two-player game, the mover's lead before the move and a :data:`Leaf`, for each
    candidate's chance of winning (:attr:`Simulated.chance`).

    Raises:
        TooManyMoves: the position has more than :data:`MOVE_LIMIT` legal moves.
        ValueError: the pool is smaller than the opponents' racks.
    """
    static = static or STATIC
    cells = dict(cells)
    rack = list(rack)
    if sum(sizes) > len(pool):
        raise ValueError(f"the opponents hold {sum(sizes)} tiles but only {len(pool)} are unseen")
    if bag is None:
        bag = len(pool) - sum(sizes)
    if bag == 0 and len(sizes) == 1 and settings.endgame:
        return _endgame(cells, rack, pool, rules, settings, played, movetime_ms, tally,
                        lead=None if chance is None else chance[0])
    if chance is not None and len(sizes) != 1:
        raise ValueError("a win chance is simulated for two players only")
    started = time.monotonic()
    moves: list[RawMove | None] = list(static.ranking(cells, rack, bag, rules, settings.candidates))
    if played is not False and played not in moves:
        assert played is None or isinstance(played, tuple)
        moves.append(played)  # (None: a pass)
    run = _Run(cells, rack, pool, sizes, bag, rules, settings, static, moves, chance)
    deadline = None if movetime_ms is None else started + 0.9 * movetime_ms / 1000
    rng = random.Random(seed)
    done = 0
    while done < settings.iterations and (run.alive_count > 1 or done < settings.minimum):  # (one alone: valued)
        run.iterate(rng, deadline)
        done += 1
        if done >= settings.minimum and (done - settings.minimum) % CHECK_EVERY == 0:
            run.prune(settings.z)
        if deadline is not None and time.monotonic() > deadline:
            break
    if tally is not None:
        tally.iterations += done
        tally.positions += run.positions
        tally.seconds += time.monotonic() - started
    return run.results(played)


class _Run:
    """One position's simulation: the candidates, their values so far, the light game state."""

    def __init__(self, cells: dict[int, int], rack: list[int], pool: Sequence[int], sizes: Sequence[int], bag: int,
                 rules: Rules, settings: Settings, static: Static, moves: list[RawMove | None],
                 chance: tuple[int, Leaf] | None = None) -> None:
        self.cells, self.rack, self.pool, self.sizes, self.rules = cells, rack, sorted(pool), tuple(sizes), rules
        self.bag = min(bag, len(pool) - sum(sizes))  # (the unseen tiles are the other racks and the bag)
        self.plies, self.static, self.moves = settings.plies, static, moves
        self.values: list[list[float]] = [[] for _ in moves]
        self.chance = chance
        self.chances: list[list[float]] = [[] for _ in moves]
        self.alive = [True] * len(moves)
        self.alive_count = len(moves)
        self.positions = 0
        whole = len(rack)
        self.scores = [0 if m is None else rules.scored(m[0], len(m[3]), whole, bag) for m in moves]
        self.root = kept()  # the move generator's data for the root's board (the ranking's last call)

    def iterate(self, rng: random.Random, deadline: float | None = None) -> None:
        """One iteration: a shuffle of the unseen tiles, every live candidate played out on it
        (past ``deadline``, those played out so far: the candidates' means are of their own iterations)."""
        order = list(self.pool)
        rng.shuffle(order)
        for i, move in enumerate(self.moves):
            if self.alive[i]:
                if deadline is not None and self.values[i] and time.monotonic() > deadline:
                    return
                self.values[i].append(self._playout(move, self.scores[i], order, self.chances[i]))

    def _playout(self, move: RawMove | None, score: int, order: list[int], chances: list[float]) -> float:
        """The candidate's value on one shuffle (see the module's notes, step 4); with a :data:`Leaf`
        (``self.chance``), the mover's chance at the playout's end appended to ``chances``."""
        cells, rules, ranking = self.cells, self.rules, self.static.ranking
        racks = [list(self.rack)]
        at = 0
        for size in self.sizes:
            racks.append(order[at:at + size])
            at += size
        top = at + self.bag  # the bag is order[at:top], drawn from its end
        placed: list[int] = []
        spread = float(score)
        players = len(racks)
        over = False
        ply = 0
        restore(self.root)  # (so each ply's moves are generated from the root's board data and the tiles added since)
        try:
            if move is not None:
                top = _place(cells, racks[0], move, placed, order, at, top)
                over = not racks[0] and top == at
            self.positions += 1
            for ply in range(1, self.plies + 1):
                if over:
                    break
                seat = ply % players
                hand = racks[seat]
                found = ranking(cells, hand, top - at, rules, 1)
                self.positions += 1
                if not found:
                    continue
                m = found[0]
                points = rules.scored(m[0], len(m[3]), len(hand), top - at)
                top = _place(cells, hand, m, placed, order, at, top)
                spread += points if seat == 0 else -points
                over = not hand and top == at
            if self.chance is not None:
                lead, leaf = self.chance
                tiles = len(self.pool) + len(self.rack) - len(placed)
                chances.append(leaf(lead + spread, tiles, ply % players == 0, over))
            leave = self.static.leave
            if leave is not no_leave:
                left = top - at
                theirs = sum(leave(r, cells, left) for r in racks[1:]) / (players - 1)
                spread += leave(racks[0], cells, left) - theirs
        except TooManyMoves:
            pass  # a pathological board: the value so far
        finally:
            for k in placed:
                del cells[k]
        return spread

    def prune(self, z: float) -> None:
        """Drop the candidates the leader beats by more than ``z`` paired standard errors."""
        live = [i for i, a in enumerate(self.alive) if a]
        leader = max(live, key=lambda i: (_mean(self.values[i]), -i))
        best = self.values[leader]
        for i in live:
            if i == leader:
                continue
            diffs = [a - b for a, b in zip(best, self.values[i])]
            mean, error = _mean(diffs), _error(diffs)
            if (error == 0 and mean >= 0) or mean > z * error:
                self.alive[i] = False
                self.alive_count -= 1

    def results(self, played: RawMove | None | bool) -> tuple[list[Simulated], Simulated | None]:
        entries = [Simulated(m, self.scores[i], _mean(self.values[i]), len(self.values[i]), _error(self.values[i]),
                             not self.alive[i], chance=_mean(self.chances[i]) if self.chances[i] else None)
                   for i, m in enumerate(self.moves)]
        order = sorted(range(len(entries)), key=lambda i: (not self.alive[i], -entries[i].value, i))
        mine = None
        if played is not False:
            mine = entries[self.moves.index(played)]  # type: ignore[arg-type]
        return [entries[i] for i in order], mine


def _place(cells: dict[int, int], hand: list[int], move: RawMove, placed: list[int], order: list[int], at: int,
           top: int) -> int:
    """Put ``move`` down from ``hand`` (its keys noted in ``placed``), refill the hand from the
    bag ``order[at:top]`` (drawn from the end); the bag's new end."""
    _, _, keys, tiles = move
    for k, t in zip(keys, tiles):
        cells[k] = t
        hand.remove(t)
    placed.extend(keys)
    drawn = min(len(tiles), top - at, RACK_SIZE - len(hand))
    if drawn:
        hand.extend(order[top - drawn:top])
    return top - drawn


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _error(values: Sequence[float]) -> float:
    """The standard error of the mean (0 for fewer than two values)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def _endgame(cells: dict[int, int], rack: list[int], pool: Sequence[int], rules: Rules, settings: Settings,
             played: RawMove | None | bool, movetime_ms: int | None, tally: Tally | None, others: int | None = None,
             lead: int | None = None) -> tuple[list[Simulated], Simulated | None]:
    """The bag-empty two-player position valued by the endgame solver (``others``: how many moves
    besides the best and ``played`` it values, :attr:`Settings.candidates` if not given); with the
    mover's ``lead``, each move's chance is the result its spread leads to (1, 0.5 or 0)."""
    started = time.monotonic()
    board = [Placement(TILES[t], *key_cell(k)) for k, t in cells.items()]
    game = Game(("mover", "other"), [rack, list(pool)], [], 0, rules, board=board)
    include = [] if played is False else [Move.pass_turn() if played is None else as_move(played)]  # type: ignore[arg-type]
    nodes = settings.small_nodes if len(rack) + len(pool) <= SMALL_ENDGAME else settings.endgame_nodes
    solution = solve(game, None if movetime_ms is None else 0.9 * movetime_ms / 1000, nodes,
                     settings.candidates if others is None else others, include)
    entries = [Simulated(None if c.move.action != "place" else _as_raw(cells, c.move, rules), c.move.score or 0,
                         float(c.value), 0, 0.0, exact=True, chance=None if lead is None else _result(lead + c.value))
               for c in solution.candidates]
    if tally is not None:
        tally.endgames += 1
        tally.endgame_seconds += time.monotonic() - started
    mine = None
    if played is not False:  # (None: not a legal move here)
        mine = next((e for e in entries if _same(e.move) == _same(played)), None)  # type: ignore[arg-type]
    return entries, mine


def _result(margin: int) -> float:
    """The mover's chance once the game's margin is known: 1 for a win, 0.5 for a draw, 0 for a loss."""
    return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


def _as_raw(cells: Mapping[int, int], move: Move, rules: Rules) -> RawMove:
    """A legal placement of the solver's as a raw move (its score without the end bonus, its
    Qwirkles), judged alone: generating every move to find it costs seconds on a crowded board."""
    score = judge(cells, move.tiles, rules).score
    return score.total, score.qwirkles, tuple([cell_key(p.x, p.y) for p in move.tiles]), tuple(int(p.tile) for p in move.tiles)


def _same(move: RawMove | None) -> frozenset[tuple[int, int]] | None:
    """A move's tiles on their cells, whatever order it lists them in."""
    return None if move is None else frozenset(zip(move[2], move[3]))


def as_move(raw: RawMove, score: int | None = None) -> Move:
    """A raw move as the game's :class:`~qwirkle_tools.core.move.Move` (``score``: its score, bonus included)."""
    _, _, keys, tiles = raw
    return Move.place((Placement(TILES[t], *key_cell(k)) for k, t in zip(keys, tiles)), raw[0] if score is None else score)


def choose(view: SeatView, seed: int = 0, movetime_ms: int | None = None, settings: Settings = DEFAULT,
           static: Static | None = None, tally: Tally | None = None) -> Move | None:
    """The placement the engine plays for ``view`` (``None`` when no placement
    is legal; with the bag empty in a two-player game, the solver's move,
    which may be a pass). The opening (an empty board) is the static
    player's first move; so is a position with one placement, or with more
    than :data:`MOVE_LIMIT`."""
    static = static or STATIC
    started = time.monotonic()
    cells = dict(view.board.cells)
    rack = [int(t) for t in view.rack]
    if not cells:
        moves = view.legal_moves()
        return moves[0] if moves and moves[0].action == "place" else None
    seats = len(view.rack_sizes)
    sizes = [view.rack_sizes[(view.seat + j) % seats] for j in range(1, seats)]
    pool = each_copy(view.unseen)
    try:
        if view.bag == 0 and seats == 2 and settings.endgame:
            ranked, _ = _endgame(cells, rack, pool, view.rules, settings, False, movetime_ms, tally, others=0)
        else:
            first = static.ranking(cells, rack, view.bag, view.rules, 2)
            if len(first) < 2:
                ranked = [Simulated(m, 0, 0.0, 0, 0.0) for m in first]
            else:
                ranked, _ = evaluate(cells, rack, pool, sizes, view.bag, view.rules, seed, settings,
                                     movetime_ms=movetime_ms, static=static, tally=tally)
                if tally is not None:
                    tally.simulated += 1
    except TooManyMoves:  # the best score, found within the time left (one move kept: bounded memory)
        deadline = None if movetime_ms is None else started + movetime_ms / 1000
        found = best_move(cells, rack, view.rules, cutoff=Cutoff(deadline, most=1))
        ranked = [] if found is None else [Simulated(raw(found), 0, 0.0, 0, 0.0)]
    if tally is not None:
        tally.per_move.append(time.monotonic() - started)
    if not ranked:
        return None
    top = ranked[0].move
    if top is None:
        return Move.pass_turn()
    return as_move(top, view.rules.scored(top[0], len(top[3]), len(rack), view.bag))


__all__ = ["CANDIDATES", "CHECK_EVERY", "DEFAULT", "ENDGAME_NODES", "ITERATIONS", "MINIMUM", "MOVE_LIMIT", "PLIES",
           "SCORE_ONLY", "STATIC", "Z", "LeaveValue", "Ranking", "Settings", "Simulated", "Static", "Tally", "as_move",
           "choose", "evaluate", "from_equity", "no_leave", "score_ranking"]
