"""An engine's verdict on a turn, and a turn's top candidates.

A turn whose rack is known is compared with every legal move
(:mod:`qwirkle_tools.analysis.analyse`); its **candidates** are the
:data:`SHOWN` best-scoring of them, each with its score and the points it
loses against the best score. With an engine, each candidate also gets the
engine's value and the value it loses, and the turn an engine
:class:`Verdict`: the engine's best move, its value and the played move's.

An engine is one function of a :class:`Position` returning a
:class:`Verdict` (or ``None`` for a played move it cannot value), listed in
:data:`ENGINES` by name; :func:`engine` picks one with its settings. Adding
an engine is adding its function there. Today: ``"lookahead"``
(:mod:`qwirkle_tools.engines.lookahead`: score less the next player's expected
best reply) and ``"sim"`` (:mod:`qwirkle_tools.engines.simulation`: each
candidate played out on sampled racks and draws; in a two-player game with
the bag empty, the endgame solver, exact where it proves the position).
The verdict is written under its engine's name in a record's
``turns[].analysis`` (``"lookahead": {...}``), as it was before verdicts
named their engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from ..core.board import Placement, as_cells, key_cell
from ..core.move import Move
from ..core.movegen import RawMove, TooManyMoves
from ..core.pickling import Rebuilt, rebuilt
from ..core.tiles import RACK_SIZE, TILES, each_copy
from ..engines.lookahead import DEFAULT, REPLY_LIMIT, BudgetSpent, Judged, OutOfTime, Settings, judge
from ..play.engine import History
from .moves import move_data, recorded_placements
from .winchance import playout_chance

if TYPE_CHECKING:
    from ..engines.simulation import Settings as SimSettings
    from ..formats.record import Turn

SHOWN = 8
"""How many candidates a turn lists: the best-scoring legal moves."""


def raw_move(raw: RawMove) -> Move:
    """A generated move (:func:`~qwirkle_tools.core.movegen.generate_raw`'s tuple) as a :class:`Move`."""
    score, qwirkles, keys, tiles = raw
    return Move.place((Placement(TILES[t], *key_cell(k)) for k, t in zip(keys, tiles)), score, qwirkles)


def _played(turn: Turn, raw: Sequence[RawMove]) -> tuple[bool, RawMove | None]:
    """Whether ``turn``'s move can be judged (a placement must be among the legal moves
    ``raw``), and it as a raw move (``None``: an exchange or a pass, valued as a pass)."""
    if turn.action != "place" or not turn.tiles:
        return True, None
    key = frozenset((pl.key, int(pl.tile)) for pl in turn.tiles)
    played = next((m for m in raw if _key(m) == key), None)
    return played is not None, played


def _key(raw: RawMove) -> frozenset[tuple[int, int]]:
    return frozenset(zip(raw[2], raw[3]))


@dataclass(frozen=True, slots=True)
class Candidate:
    """One of a turn's best-scoring legal moves: its score (the end bonus
    included), the points it loses against the best score, whether it is the
    move played; with an engine, its value and the value it loses against
    the engine's best (``None`` without one)."""

    move: Move
    score: int
    lost: int
    played: bool = False
    value: float | None = None
    value_lost: float | None = None

    def to_data(self) -> dict[str, object]:
        d = {**move_data(self.move, self.score), "lost": self.lost}
        if self.played:
            d["played"] = True
        if self.value is not None and self.value_lost is not None:
            d["value"] = round(self.value, 2)
            d["value_lost"] = round(self.value_lost, 2)
        return d

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Verdict:
    """An engine's judgement of a turn: the engine's name, its best move
    (``None``: no placement) with its score and value, the played move's
    value, and the value of each of the position's candidates (``values[i]``
    of the ``i``-th candidate handed to the engine). The value lost is the
    engine's best less the played move's, never negative."""

    engine: str
    best: Move | None
    best_score: int
    best_value: float
    played_value: float
    values: tuple[float, ...] = ()
    exact: bool = False
    """The values are the endgame solver's proven spreads to the end (bag empty, two players)."""
    lost: float | None = None
    """The value lost as a record wrote it (:func:`recorded_verdict`: rounded from the unrounded values)."""
    played_chance: float | None = None
    """The mover's chance of winning after the move played, where the engine tells it (``sim`` in a
    two-player game: :mod:`~qwirkle_tools.analysis.winchance`), and after the candidate that keeps the most:"""
    best_chance: float | None = None

    @property
    def value_lost(self) -> float:
        return self.lost if self.lost is not None else max(0.0, self.best_value - self.played_value)

    @property
    def exact_loss(self) -> int | None:
        """The points the played move loses against perfect play, when the values are exact."""
        return round(self.value_lost) if self.exact else None

    def to_data(self) -> dict[str, object]:
        d: dict[str, object] = {
            "best": None if self.best is None else move_data(self.best, self.best_score),
            "best_value": round(self.best_value, 2), "played_value": round(self.played_value, 2),
            "value_lost": round(self.value_lost, 2)}
        if self.exact:
            d["exact_loss"] = self.exact_loss
        if self.played_chance is not None and self.best_chance is not None:
            d["played_chance"], d["best_chance"] = round(self.played_chance, 4), round(self.best_chance, 4)
        return d

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


def recorded_verdict(found: object, engine: str, moves: Sequence[RawMove]) -> Verdict | None:
    """The ``engine``'s verdict an annotated turn records (its ``analysis`` object, ``found``), for the
    candidates ``moves`` the analysis hands the engine: each candidate's value read from the recorded
    candidate placing the same tiles. ``None`` where the record does not hold it all (then the engine
    judges the turn again). The values are as recorded, to two decimals."""
    if not isinstance(found, dict) or not isinstance(found.get(engine), dict):
        return None
    judged, listed = found[engine], found.get("candidates")
    try:
        by_tiles = {frozenset((p.key, int(p.tile)) for p in recorded_placements(c["tiles"])): float(c["value"])
                    for c in listed} if isinstance(listed, list) else {}
        values = tuple(by_tiles[frozenset(zip(m[2], m[3]))] for m in moves)
        best = judged["best"]
        move = None if best is None else Move.place(recorded_placements(best["tiles"]), int(best["score"]),
                                                    None if best.get("qwirkles") is None else int(best["qwirkles"]))
        chances = [None if judged.get(k) is None else float(judged[k]) for k in ("played_chance", "best_chance")]
        return Verdict(engine, move, 0 if best is None else int(best["score"]), float(judged["best_value"]),
                       float(judged["played_value"]), values, "exact_loss" in judged, float(judged["value_lost"]),
                       *chances)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


MOVETIME_MS = 2_000
"""An engine's time for one turn, by default (``annotate --movetime``), in milliseconds. On the
turns of a real game the engines' own budgets end first (the simulation's iterations, the
solver's :data:`ENDGAME_NODES`: well under a second a turn), so the same record gives the same
analysis on any machine; only a pathological position (a crowded board) meets the clock."""
RECORD_SECONDS = 60.0
"""The engines' time for a whole record, in seconds: the turns after it are not judged by the
engine (each says so). With the greedy analysis' own bounds (:data:`~qwirkle_tools.analysis.analyse.MOVES_PER_RECORD`),
an engine's analysis of any record ends within about this time plus half a minute."""


@dataclass(slots=True)
class Clock:
    """The engines' time over one record's analysis: ``movetime_ms`` a turn, at most
    :data:`RECORD_SECONDS` in all (``used``: the seconds spent so far)."""

    movetime_ms: int = MOVETIME_MS
    used: float = 0.0

    def deadline(self) -> float:
        """The :func:`time.monotonic` time the next turn's judgement must end by.

        Raises:
            OutOfTime: the record's time is spent.
        """
        if self.used >= RECORD_SECONDS:
            raise OutOfTime(f"the analysis bound of {RECORD_SECONDS:g} s of engine time for a record is spent")
        return time.monotonic() + min(self.movetime_ms / 1000, RECORD_SECONDS - self.used)

    def why(self) -> str:
        """Why a judgement ran out of time: the record's time, or the turn's."""
        if self.used >= RECORD_SECONDS:
            return f"the analysis bound of {RECORD_SECONDS:g} s of engine time for a record is spent"
        return f"its time for the turn ({self.movetime_ms:,} ms, --movetime) ran out"

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Position:
    """What an engine is given of a turn (``index``: 0-based) whose rack is
    known: the replay, the rack, every legal move (best score first), the
    candidates to value (among them), the record's budget of generated
    moves (``budget[0]``, charged by the engine), and the :func:`time.monotonic`
    time its judgement must end by (``None``: no time bound)."""

    history: History
    index: int
    rack: Sequence[int]
    moves: list[RawMove]
    candidates: Sequence[RawMove]
    budget: list[int]
    deadline: float | None = None

    def seconds_left(self) -> float | None:
        """The time left for the judgement (at least a millisecond), ``None`` without a deadline."""
        return None if self.deadline is None else max(0.001, self.deadline - time.monotonic())

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


EngineFunction = Callable[[Position], Verdict | None]


def lookahead(position: Position, settings: Settings = DEFAULT) -> Verdict | None:
    """The look-ahead engine's verdict (:func:`~qwirkle_tools.engines.lookahead.judge`);
    ``None`` for a placement that is not among the legal moves. A candidate the
    engine dropped early (it could not beat the best) is valued in full.

    Raises:
        TooManyMoves: the position, or a reply position, has more than
            :data:`~qwirkle_tools.engines.lookahead.REPLY_LIMIT` legal moves.
        BudgetSpent: the record's budget ran out.
        OutOfTime: the position's deadline passed.
    """
    history, i, raw = position.history, position.index, position.moves
    if len(raw) > REPLY_LIMIT:
        raise TooManyMoves(len(raw), REPLY_LIMIT)
    state = history.before(i)
    turn = history.turns[i]
    assert turn is not None  # judged only for turns that were read
    p = turn.player
    pool = each_copy(state.unseen(p))
    size = state.rack_sizes[(p + 1) % len(history.record.players)]
    reply = min(RACK_SIZE, len(pool)) if size is None else size
    legal, played = _played(turn, raw)
    if not legal:
        return None
    cells = dict(state.board.cells)
    rules = history.record.rules

    def judged(moves: Sequence[RawMove], mine: RawMove | None | bool) -> tuple[list[Judged], Judged | None]:
        return judge(cells, moves, position.rack, pool, reply, state.bag, rules, i + 1, settings, mine, position.budget,
                     position.deadline)

    ranked, mine = judged(raw, played)
    assert mine is not None
    known = {_key(j.move): j.value for j in ranked if j.move is not None}
    values = []
    for m in position.candidates:
        value = known.get(_key(m))
        if value is None:  # dropped early: judged alone, in full (same sampled racks: the same seed)
            value = judged([], m)[1].value  # type: ignore[union-attr]
        values.append(value)
    top = ranked[0]
    return Verdict("lookahead", None if top.move is None else raw_move(top.move), top.score, top.value, mine.value,
                   tuple(values))


ENDGAME_NODES = 20_000
"""The endgame solver's budget for a bag-empty two-player turn judged by ``sim``, in positions (not
seconds: the same record gives the same analysis on any machine; 0.1 to 1.5 s on one core), within
the turn's time (:data:`MOVETIME_MS`), which only a crowded board's positions reach."""
SIM_CHARGE = 20
"""What a turn played out by the simulation costs the record's budget of generated moves (about the
legal moves of a mid-game rack); an endgame position costs :data:`ENDGAME_CHARGE` (a small rack's)."""
ENDGAME_CHARGE = 5


def sim(position: Position, settings: SimSettings | None = None) -> Verdict | None:
    """The simulation engine's verdict (:func:`~qwirkle_tools.engines.simulation.evaluate`, seeded by
    the turn, so the same record gives the same analysis), every candidate simulated; with the
    bag empty in a two-player game, the endgame solver's (:func:`~qwirkle_tools.engines.endgame.solve`,
    :data:`ENDGAME_NODES`): exact when it proves the position. ``None`` for a placement that is
    not among the legal moves. The record's budget is charged the turns played out and the
    solver's positions (:data:`SIM_CHARGE`, :data:`ENDGAME_CHARGE`). Within the position's
    deadline: the simulation and the solver answer with their best so far when it comes.

    Raises:
        TooManyMoves: the position has more legal moves than the engine takes.
        BudgetSpent: the record's budget ran out.
    """
    from ..engines.simulation import DEFAULT as SIM
    from ..engines.simulation import Tally, evaluate

    history, i, raw = position.history, position.index, position.moves
    if position.budget[0] <= 0:
        raise BudgetSpent
    state = history.before(i)
    turn = history.turns[i]
    assert turn is not None  # judged only for turns that were read
    legal, played = _played(turn, raw)
    if not legal:
        return None
    players = len(history.record.players)
    if state.bag == 0 and players == 2:
        exact = _endgame(position, played)
        if exact is not None:
            return exact
    p = turn.player
    pool = each_copy(state.unseen(p))
    sizes = [state.rack_sizes[(p + k) % players] for k in range(1, players)]
    if any(size is None for size in sizes):
        return None
    base = settings or SIM
    chosen = replace(base, candidates=max(base.candidates, len(position.candidates)))
    tally = Tally()
    left = position.seconds_left()
    chance = (state.scores[p] - state.scores[1 - p], playout_chance) if players == 2 else None
    ranked, mine = evaluate(as_cells(state.board), position.rack, pool, [s or 0 for s in sizes], state.bag,
                            history.record.rules, i + 1, chosen, played, None if left is None else int(1000 * left) + 1,
                            tally=tally, chance=chance)
    position.budget[0] -= tally.positions * SIM_CHARGE
    assert mine is not None
    known = {_key(m.move): m.value for m in ranked if m.move is not None}
    top = ranked[0]
    values = tuple(known.get(_key(m), min(known.values(), default=0.0)) for m in position.candidates)
    kept = [m.chance for m in ranked if m.chance is not None]
    return Verdict("sim", None if top.move is None else raw_move(top.move), top.score, top.value, mine.value,
                   values, exact=all(m.exact for m in ranked), played_chance=mine.chance,
                   best_chance=max(kept) if kept and mine.chance is not None else None)


def _endgame(position: Position, played: RawMove | None) -> Verdict | None:
    """The endgame solver's verdict on a bag-empty two-player turn, exact when proven; ``None``
    when the record does not tell the position (its racks)."""
    from ..engines.endgame import NotAnEndgame, solve
    from ..engines.endgame import position as endgame_position
    from ..play.game import Move as GameMove

    try:
        game, move = endgame_position(position.history.record, position.index + 1)
    except NotAnEndgame:
        return None
    include = [] if move is None else [move]
    solution = solve(game, seconds=position.seconds_left(), max_nodes=ENDGAME_NODES, candidates=len(position.candidates),
                     include=include)
    position.budget[0] -= solution.nodes * ENDGAME_CHARGE

    def same(m: GameMove, raw: RawMove | None) -> bool:
        if raw is None:
            return m.action == "pass"
        return frozenset((pl.key, int(pl.tile)) for pl in m.tiles) == _key(raw)

    mine = next((c for c in solution.candidates if same(c.move, played)), None)
    if mine is None:
        return None
    best = solution.candidates[0]
    floor = min(c.value for c in solution.candidates)
    values = tuple(float(next((c.value for c in solution.candidates if same(c.move, m)), floor)) for m in position.candidates)
    best_move = None if best.move.action == "pass" else Move.place(best.move.tiles, best.move.score or 0, 0)
    state = position.history.before(position.index)
    turn = position.history.turns[position.index]
    p = turn.player if turn is not None else 0
    lead = state.scores[p] - state.scores[1 - p]
    return Verdict("sim", best_move, best.move.score or 0, float(best.value), float(mine.value), values,
                   exact=solution.proven, played_chance=_result(lead + mine.value),
                   best_chance=max(_result(lead + c.value) for c in solution.candidates))


def _result(margin: float) -> float:
    """The mover's chance once the margin at the end is known: 1 for a win, 0.5 for a draw, 0 for a loss."""
    return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


ENGINES: dict[str, Callable[..., Verdict | None]] = {"lookahead": lookahead, "sim": sim}
"""Every engine by name, each a function of a :class:`Position` (and its settings)."""


def engine(name: str, settings: Any = None) -> EngineFunction:
    """The engine called ``name`` with its ``settings`` (``None``: its defaults).

    Raises:
        ValueError: no engine has that name.
    """
    if name not in ENGINES:
        raise ValueError(f"no engine {name!r}; the engines: {', '.join(ENGINES)}")
    found = ENGINES[name]
    return found if settings is None else partial(found, settings=settings)


@dataclass(frozen=True, slots=True)
class Shown:
    """A turn's candidates as generated: the ``SHOWN`` best-scoring legal moves,
    best first, with what each really scores, the tiles the turn placed (to
    mark the move played), and an engine's values of them (``None``: no
    engine), with its best value. They become :class:`Candidate` values only
    when asked for (:meth:`candidates`): the greedy analysis is a hot path."""

    moves: tuple[RawMove, ...]
    scores: tuple[int, ...]
    placed: tuple[Placement, ...] | None = None
    values: tuple[float, ...] | None = None
    best_value: float = 0.0

    def candidates(self) -> tuple[Candidate, ...]:
        """The candidates, best score first; with an engine's values, best value
        first (ties to the higher score, then the earlier)."""
        best = self.scores[0] if self.scores else 0
        played = None if not self.placed else frozenset((pl.key, int(pl.tile)) for pl in self.placed)
        found = [Candidate(raw_move(m), s, best - s, played is not None and _key(m) == played,
                           None if self.values is None else self.values[k],
                           None if self.values is None else max(0.0, self.best_value - self.values[k]))
                 for k, (m, s) in enumerate(zip(self.moves, self.scores))]
        if self.values is not None:
            values = self.values
            found = [found[k] for k in sorted(range(len(found)), key=lambda k: (-values[k], -found[k].score, k))]
        return tuple(found)

    def valued(self, verdict: Verdict) -> Shown:
        """The same candidates with the engine's values (:attr:`Verdict.values`)."""
        return replace(self, values=verdict.values, best_value=verdict.best_value)

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


def candidates(picked: Callable[[Sequence[int]], list[RawMove]], scores: Sequence[int],
               placed: tuple[Placement, ...] | None, bonus: bool, shown: int = SHOWN) -> Shown:
    """The ``shown`` best-scoring of the legal moves (``scores[i]``: what the
    ``i``-th really scores; ``picked(at)``: the moves at positions ``at``, as
    :meth:`~qwirkle_tools.core.movekeys.Found.picked` makes them), best first
    (ties in generation order, as the look-ahead engine ranks its candidates);
    ``placed``: the tiles the turn placed. ``bonus``: whether an end bonus may
    be in ``scores``; if not, the moves' own order (best score first) is
    theirs, and the first are taken as they are."""
    order = range(min(shown, len(scores))) if not bonus else sorted(range(len(scores)), key=lambda k: -scores[k])[:shown]
    return Shown(tuple(picked(order)), tuple(scores[k] for k in order), placed)


__all__ = ["ENGINES", "MOVETIME_MS", "RECORD_SECONDS", "SHOWN", "Candidate", "Clock", "EngineFunction", "Position",
           "Shown", "Verdict", "candidates", "engine", "lookahead", "raw_move", "recorded_verdict"]
