"""Game analysis: best moves, points lost, missed Qwirkles, Qwirkle gifts.

For every turn whose rack is known (recorded, or deduced: carried over from
earlier racks and draws, or in a two-player game with an empty bag, the
tiles that are neither on the board nor in the opponent's known rack), the
turn is compared with every legal move (:mod:`qwirkle_tools.core.movegen`):

* the best score (the end bonus counted for a move that empties the rack
  with the bag empty), the score played, the points lost, the played move's
  rank (1 = as good as the best), how many legal moves there were;
* ``missed-qwirkle``: a legal move completed more lines of six than the
  move played (an exchange or pass completes none);
* ``could-place``: an exchange or pass while a placement was possible.

Where the rack is not known, only the tiles placed that turn are known to
have been in it: a Qwirkle those tiles alone could have made and did not is
still a missed Qwirkle; nothing else is judged. On every record:

* ``open-five``: a move left a line of five whose sixth tile the mover has
  not seen all of (not on the board, not in the mover's known rack after the
  turn) and fits at an end of the line; with the copies unseen and the chance
  that the next player holds one (:func:`chance_held`: the next player's
  rack taken as a uniform draw from the tiles the mover has not seen, the
  bag included);
* ``qwirkle-gift``: a move left a line of five whose sixth tile was not yet
  all on the table, and the next player completed that line.

With ``engine="lookahead"`` every turn whose rack is known is also judged by
the look-ahead engine (:mod:`qwirkle_tools.play.lookahead`): its best move and
value, the played move's value and the value lost;

* ``better-move``: the engine's move beats the move played by more than
  :data:`~qwirkle_tools.play.lookahead.MARGIN` points of value.

Accuracy, per player: points scored as a share of the best available, over
the turns whose whole rack was known (``None`` when there were none).
A score-sheet turn (score written, tiles not) is judged by its claim: the
points lost are the best score less the claim, and since a line of six
scores at least 6 plus the Qwirkle bonus (12 by default), a claim of c points
made at most c // 12 Qwirkles; a missed Qwirkle is flagged only when the best
move completes more than that. The analysis needs the board: turns after a
score-sheet turn are not analysed.

Everything is read off one replay (:class:`~qwirkle_tools.play.engine.History`):
pass one to :func:`analyse` to share it with the charts and tables.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from ..core.board import Placement, format_move, key_cell
from ..core.errors import QwirkleError
from ..core.lines import LINE_MAX, accepts, completing_tile, lines_through
from ..core.movegen import Move, RawMove, TooManyMoves, generate, generate_raw
from ..core.rules import Rules
from ..core.safetext import one_line
from ..core.text import count, plural
from ..core.tiles import COPIES, RACK_SIZE, TILE_COUNT, TILES, Tile, format_tiles
from ..formats.record import Record, Turn, placements_data
from ..play.engine import BOARD_UNKNOWN_WHY, GameState, History, replay
from ..play.lookahead import DEFAULT, MARGIN, REPLY_LIMIT, BudgetSpent, Settings, judge

RackSource = str  # "recorded", "deduced", "placed-tiles", "unknown"
Engine = Literal["greedy", "lookahead"]


@dataclass(frozen=True, slots=True)
class Gift:
    """A line of five left open, and the turn that completed it."""

    line: tuple[tuple[int, int], ...]
    missing: Tile
    completed_at: int


@dataclass(frozen=True, slots=True)
class OpenFive:
    """A line of five a move left open: its cells, the tile that completes it,
    the empty end cells where that tile fits, the copies of it the mover has
    not seen, and the chance that the next player holds one (``None`` when
    the next player's rack size is not known)."""

    line: tuple[tuple[int, int], ...]
    missing: Tile
    cells: tuple[tuple[int, int], ...]
    unseen: int
    chance: float | None

    def to_data(self) -> dict[str, object]:
        return {"line": [list(c) for c in self.line], "missing": str(self.missing),
                "cells": [list(c) for c in self.cells], "unseen": self.unseen,
                "chance": None if self.chance is None else round(self.chance, 4)}


@dataclass(frozen=True, slots=True)
class Lookahead:
    """The look-ahead engine's judgement of a turn: its best move (``None``:
    no placement) with its score and value, the played move's value, the
    value lost (engine's best less played, never negative)."""

    best: Move | None
    best_score: int
    best_value: float
    played_value: float

    @property
    def value_lost(self) -> float:
        return max(0.0, self.best_value - self.played_value)

    def to_data(self) -> dict[str, object]:
        return {"best": None if self.best is None else move_data(self.best, self.best_score),
                "best_value": round(self.best_value, 2), "played_value": round(self.played_value, 2),
                "value_lost": round(self.value_lost, 2)}


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """What the analysis says of one turn (``turn`` is 1-based).

    Fields that could not be worked out are ``None``; ``rack`` says what the
    analysis knew of the rack, and ``note`` says plainly what was not done.
    """

    turn: int
    player: int
    action: str
    rack: RackSource
    played: int | None = None
    qwirkles: int = 0
    best: Move | None = None
    best_score: int | None = None
    points_lost: int | None = None
    rank: int | None = None
    moves: int | None = None
    missed_qwirkle: Move | None = None
    gift: Gift | None = None
    note: str = ""
    open_fives: tuple[OpenFive, ...] = ()
    open_five_risk: float | None = None
    lookahead: Lookahead | None = None

    @property
    def flags(self) -> tuple[str, ...]:
        out = []
        if self.missed_qwirkle is not None:
            out.append("missed-qwirkle")
        if self.action != "place" and self.moves:
            out.append("could-place")
        if self.open_fives:
            out.append("open-five")
        if self.gift is not None:
            out.append("qwirkle-gift")
        if self.lookahead is not None and self.lookahead.value_lost > MARGIN:
            out.append("better-move")
        return tuple(out)

    def to_data(self) -> dict[str, object]:
        """The JSON form written into a record's ``turns[].analysis``."""
        d: dict[str, object] = {"rack": self.rack}
        for key in ("played", "best_score", "points_lost", "rank", "moves"):
            value = getattr(self, key)
            if value is not None:
                d[key] = value
        if self.best is not None:
            d["best"] = move_data(self.best, self.best_score)
        if self.missed_qwirkle is not None:
            d["missed_qwirkle"] = move_data(self.missed_qwirkle)
        if self.gift is not None:
            d["qwirkle_gift"] = {"line": [list(c) for c in self.gift.line], "missing": str(self.gift.missing),
                                 "completed_at_turn": self.gift.completed_at}
        if self.open_fives:
            d["open_fives"] = [f.to_data() for f in self.open_fives]
            d["open_five_risk"] = None if self.open_five_risk is None else round(self.open_five_risk, 4)
        if self.lookahead is not None:
            d["lookahead"] = self.lookahead.to_data()
        d["flags"] = list(self.flags)
        if self.note:
            d["note"] = self.note
        return d


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    name: str
    score: int
    analysed_turns: int
    points_lost: int
    best_available: int
    scored_on_analysed: int
    qwirkles_made: int
    qwirkles_missed: int
    gifts_given: int
    open_fives: int = 0
    value_lost: float | None = None

    @property
    def accuracy(self) -> float | None:
        """Points scored as a share of the best available, on turns with a known rack
        (a turn counts at most its best: at most 1)."""
        if not self.best_available:
            return None
        return self.scored_on_analysed / self.best_available

    def to_data(self) -> dict[str, object]:
        acc = self.accuracy
        return {"name": self.name, "score": self.score, "analysed_turns": self.analysed_turns,
                "points_lost": self.points_lost, "accuracy": None if acc is None else round(acc, 4),
                "qwirkles_made": self.qwirkles_made, "qwirkles_missed": self.qwirkles_missed,
                "gifts_given": self.gifts_given, "open_fives": self.open_fives,
                **({} if self.value_lost is None else {"value_lost": round(self.value_lost, 2)})}


@dataclass(frozen=True, slots=True)
class Analysis:
    turns: tuple[TurnAnalysis, ...]
    players: tuple[PlayerSummary, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def flagged(self) -> list[TurnAnalysis]:
        return [t for t in self.turns if t.flags]


def move_data(move: Move, score: int | None = None) -> dict[str, object]:
    return {"tiles": placements_data(move.tiles), "score": move.score if score is None else score,
            "qwirkles": move.qwirkles}


def move_scores(moves: Iterable[tuple[int, int]], rack: int, bag: int | None, rules: Rules) -> list[int]:
    """What each move, given as (points, tiles placed), really scores from a
    rack of ``rack`` tiles: its points plus the end bonus
    (:meth:`~qwirkle_tools.core.rules.Rules.end_points`, as the replay counts it for
    ``rescore``) when it empties the rack while the bag is empty. A bag of
    ``None`` (not known) earns no bonus: nothing is assumed."""
    return [rules.scored(points, placed, rack, bag) for points, placed in moves]


MOVES_PER_TURN = 50_000
"""The analysis of a turn stops at this many legal moves (a legal but pathological
board can have hundreds of thousands); the turn is then noted, not analysed."""
MOVES_PER_RECORD = 2_000_000
"""The legal moves generated for one record's analysis, in all (the look-ahead
engine's reply positions included, up to 54 a turn); the turns after that are
noted, not analysed. Together the two bounds keep any record within
the limits to about 30 seconds and well under 1 GiB."""


def analyse(game: Record | History, engine: Engine = "greedy", settings: Settings = DEFAULT) -> Analysis:
    """The analysis of every turn of a record (or of its replay) and a summary per player.

    ``engine="lookahead"`` also judges every turn whose rack is known with the
    look-ahead engine (``settings``: its K and S); the racks it samples are
    seeded by the turn number, so the same record gives the same analysis.
    """
    if engine not in ("greedy", "lookahead"):
        raise ValueError(f"engine must be greedy or lookahead, not {engine!r}")
    history = game if isinstance(game, History) else replay(game)
    return Analysis(*_analyse(history, settings if engine == "lookahead" else None))


def _analyse(history: History, settings: Settings | None = None
             ) -> tuple[tuple[TurnAnalysis, ...], tuple[PlayerSummary, ...], tuple[str, ...]]:
    record = history.record
    rules = record.rules
    qwirkle_points = LINE_MAX + rules.qwirkle_bonus  # the least a move completing a line of six scores
    turns: list[TurnAnalysis] = []
    left_open: dict[int, list[tuple[tuple[int, ...], int]]] = {}  # turn index -> lines of five left
    budget = [MOVES_PER_RECORD]
    risks: dict[int, tuple[tuple[OpenFive, ...], float | None]] = {}  # turn index -> open fives left, chance
    for result in history:
        i = result.index
        turn = result.turn
        assert turn is not None
        p = turn.player
        state = history.before(i)
        after = result.state
        assert after is not None
        placed_keys = [pl.key for pl in turn.tiles] if turn.tiles else []
        qwirkles = result.qwirkles or 0
        played = result.computed if result.computed is not None else turn.score
        sheet = turn.action == "place" and turn.tiles is None  # a score-sheet turn: judged by its claim
        gift = None
        if len(state.board) > TILE_COUNT:  # only illegal moves do that; generating moves would take ever longer
            turns.append(TurnAnalysis(i + 1, p, turn.action, "unknown", played, qwirkles,
                                      note=f"not analysed: the board holds more than the game's {TILE_COUNT} tiles"))
            continue
        if i - 1 in left_open and placed_keys and state.board_known:
            after_cells = after.board.cells
            for five, missing in left_open[i - 1]:
                for six in lines_through(after_cells, placed_keys, LINE_MAX):
                    if set(five) <= set(six):
                        gift = (five, missing)
        if placed_keys and state.board_known and after.board_known:
            fives = open_fives(after.board.cells, placed_keys)
            if fives:
                left_open[i] = fives
                risky, risk = open_five_risks(after, p, fives, len(record.players))
                if risky:
                    risks[i] = (risky, risk)
        if gift is not None and turns:
            giver = turns[-1]
            five, missing = gift
            turns[-1] = replace(giver, gift=Gift(tuple(key_cell(k) for k in five), TILES[missing], i + 1))

        if not state.board_known:
            turns.append(TurnAnalysis(i + 1, p, turn.action, "unknown", played, qwirkles,
                                      note=f"not analysed: the board is not known ({BOARD_UNKNOWN_WHY})"))
            continue
        if p >= len(record.players) or state.ended or any(f.code == "after-end" for f in result.findings):
            turns.append(TurnAnalysis(i + 1, p, turn.action, "unknown", played, qwirkles,
                                      note="not analysed: a turn after the end or by a seat that does not exist"))
            continue
        rack, source = history.known_rack(i)
        cells = state.board.cells
        if rack is None:
            if turn.tiles:
                tiles = [pl.tile for pl in turn.tiles]
                found = _bounded(cells, tiles, rules, False, budget)
                if isinstance(found, str):
                    turns.append(TurnAnalysis(i + 1, p, turn.action, "placed-tiles", played, qwirkles, note=found))
                    continue
                missed = _missed(found, qwirkles)
                turns.append(TurnAnalysis(
                    i + 1, p, turn.action, "placed-tiles", played, qwirkles, missed_qwirkle=missed,
                    note="rack unknown: only the placed tiles were checked for a missed Qwirkle"))
            else:
                turns.append(TurnAnalysis(i + 1, p, turn.action, "unknown", played, qwirkles,
                                          note="not analysed: the rack is not known"))
            continue
        raw = _bounded(cells, rack, rules, not cells, budget)
        if isinstance(raw, str):
            turns.append(TurnAnalysis(i + 1, p, turn.action, source, played, qwirkles, note=raw))
            continue
        scores = move_scores(((s, len(tiles)) for s, _, _, tiles in raw), len(rack), state.bag, rules)
        best_score = max(scores, default=0)
        best = _move(raw[scores.index(best_score)]) if raw else None
        value = played if played is not None else 0
        rank = 1 + sum(1 for s in scores if s > value) if turn.action == "place" else len(raw) + 1
        # a claim of c points made at most c // qwirkle_points Qwirkles
        made = value // qwirkle_points if sheet else qwirkles
        judged = None
        note = ""
        if settings is not None and raw and not sheet:
            try:
                if len(raw) > REPLY_LIMIT:
                    raise TooManyMoves(len(raw), REPLY_LIMIT)
                judged = _look_ahead(history, i, rack, raw, settings, budget)
            except BudgetSpent:
                note = (f"not judged by the look-ahead engine: the analysis bound of {MOVES_PER_RECORD:,} legal moves "
                        "for a record is spent")
            except TooManyMoves:
                note = (f"not judged by the look-ahead engine: a position with more than {REPLY_LIMIT:,} legal moves "
                        "(its bound)")
        turns.append(TurnAnalysis(
            i + 1, p, turn.action, source, played, qwirkles, best, best_score,
            max(0, best_score - value), rank, len(raw), _missed(raw, made), note=note, lookahead=judged,
        ))
    for i, (risky, risk) in risks.items():
        turns[i] = replace(turns[i], open_fives=risky, open_five_risk=risk)
    summaries = []
    final = history.totals
    for p, player in enumerate(record.players):
        mine = [t for t in turns if t.player == p]
        analysed = [t for t in mine if t.best_score is not None]
        summaries.append(PlayerSummary(
            name=player.name,
            score=final[p] if p < len(final) else 0,
            analysed_turns=len(analysed),
            points_lost=sum(t.points_lost or 0 for t in analysed),
            best_available=sum(t.best_score or 0 for t in analysed),
            # an illegal move may count more than any legal one: it scores at most the best, as it loses nothing
            scored_on_analysed=sum(min(t.played or 0, t.best_score or 0) for t in analysed),
            qwirkles_made=sum(t.qwirkles for t in mine),
            qwirkles_missed=sum(1 for t in mine if t.missed_qwirkle is not None),
            gifts_given=sum(1 for t in mine if t.gift is not None),
            open_fives=sum(1 for t in mine if t.open_fives),
            value_lost=None if settings is None else sum(t.lookahead.value_lost for t in mine if t.lookahead),
        ))
    unknown = sum(1 for t in turns if t.best_score is None)
    notes = (f"{unknown} of {len(turns)} turns could not be fully analysed (rack or board unknown)",) if unknown else ()
    return tuple(turns), tuple(summaries), notes


def open_fives(cells: Mapping[int, int], keys: Iterable[int]) -> list[tuple[tuple[int, ...], int]]:
    """The lines of five through ``keys`` (a move's cells) on the board ``cells``
    whose sixth tile still has a copy off the board: a Qwirkle left open to
    the next player. Each as its cell keys and the tile that completes it."""
    on_table = Counter(cells.values())
    fives = []
    for line in lines_through(cells, keys, LINE_MAX - 1):
        need = completing_tile([cells[k] for k in line])
        if need is not None and on_table[need] < COPIES:
            fives.append((line, need))
    return fives


def chance_held(unseen: int, copies: int, rack: int) -> float:
    """The chance that a rack of ``rack`` tiles, drawn uniformly from ``unseen``
    tiles, holds at least one of ``copies`` of them (hypergeometric):
    1 - C(unseen - copies, rack) / C(unseen, rack).

        >>> round(chance_held(60, 3, 6), 4)   # 1 - C(57,6)/C(60,6)
        0.2752
    """
    rack = min(rack, unseen)
    if copies <= 0 or rack <= 0:
        return 0.0
    return 1 - math.comb(unseen - copies, rack) / math.comb(unseen, rack)


def open_five_risks(after: GameState, mover: int, fives: Sequence[tuple[tuple[int, ...], int]], players: int
                    ) -> tuple[tuple[OpenFive, ...], float | None]:
    """Of the lines of five ``fives`` (:func:`open_fives`) left by seat
    ``mover``'s move, those whose sixth tile fits an end cell and has copies
    the mover has not seen, in the state ``after`` the move; and the chance
    the next player holds at least one completing tile (``None`` when that
    player's rack size is not known; a game already over leaves no risk).
    """
    if after.ended:
        return (), None
    cells = after.board.cells
    unseen = after.unseen(mover)
    total = sum(unseen)
    size = after.rack_sizes[(mover + 1) % players] if players else None
    found = []
    for line, need in fives:
        step = line[1] - line[0]
        ends = [k for k in (line[0] - step, line[-1] + step) if accepts(cells, k) >> need & 1]
        if not ends or not unseen[need]:
            continue
        chance = None if size is None else chance_held(total, unseen[need], size)
        found.append(OpenFive(tuple(key_cell(k) for k in line), TILES[need], tuple(key_cell(k) for k in ends),
                              unseen[need], chance))
    if not found or size is None:
        return tuple(found), None
    copies = sum(unseen[t] for t in {int(f.missing) for f in found})
    return tuple(found), chance_held(total, copies, size)


def _look_ahead(history: History, i: int, rack: Sequence[int], raw: list[RawMove], settings: Settings,
                budget: list[int] | None = None) -> Lookahead | None:
    """The look-ahead engine's judgement of turn ``i`` (0-based), whose rack is
    known (``None`` for a placement that is not among the legal moves); the
    moves of its reply positions charged to the record's ``budget``."""
    state = history.before(i)
    turn = history.turns[i]
    assert turn is not None  # judged only for turns that were read
    p = turn.player
    players = len(history.record.players)
    unseen = state.unseen(p)
    pool = [t for t in range(len(TILES)) for _ in range(unseen[t])]
    size = state.rack_sizes[(p + 1) % players]
    reply = min(RACK_SIZE, len(pool)) if size is None else size
    played: RawMove | None = None
    if turn.action == "place" and turn.tiles:
        key = frozenset((pl.key, int(pl.tile)) for pl in turn.tiles)
        played = next((m for m in raw if frozenset(zip(m[2], m[3])) == key), None)
        if played is None:
            return None
    cells = dict(state.board.cells)
    ranked, mine = judge(cells, raw, rack, pool, reply, state.bag, history.record.rules, i + 1, settings, played,
                         budget)
    top = ranked[0]
    assert mine is not None
    return Lookahead(None if top.move is None else _move(top.move), top.score, top.value, mine.value)


def _bounded(cells: Mapping[int, int], rack: Sequence[int], rules: Rules, largest_first: bool,
             budget: list[int]) -> list[RawMove] | str:
    """The legal moves, within :data:`MOVES_PER_TURN` and what is left of the
    record's ``budget`` (charged); else why the turn is not analysed."""
    spent = f"not analysed: the analysis bound of {MOVES_PER_RECORD:,} legal moves for a record is spent"
    if budget[0] <= 0:
        return spent
    try:
        moves = generate_raw(cells, rack, rules, largest_first, limit=min(MOVES_PER_TURN, budget[0]))
    except TooManyMoves as many:
        budget[0] -= many.found
        if many.limit < MOVES_PER_TURN:
            return spent
        return f"not analysed: more than {MOVES_PER_TURN:,} legal moves (the analysis bound for a turn)"
    budget[0] -= len(moves)
    return moves


def _move(raw: RawMove) -> Move:
    score, qwirkles, keys, tiles = raw
    return Move(tuple(Placement(TILES[t], *key_cell(k)) for k, t in zip(keys, tiles)), score, qwirkles)


def _missed(moves: list[RawMove], played_qwirkles: int) -> Move | None:
    """The best-scoring move among those completing the most lines of six, if
    that is more than the move played completed."""
    most = max((m[1] for m in moves), default=0)
    if most <= played_qwirkles:
        return None
    return _move(next(m for m in moves if m[1] == most))  # moves come best score first


def flag_details(t: TurnAnalysis) -> tuple[tuple[str, str], ...]:
    """Each flag of a turn with what it means there, e.g.
    ``("missed-qwirkle", "rd@1,-4 bd@2,-4 makes 1 Qwirkle, 12 points")``."""
    out = []
    for flag in t.flags:
        if flag == "missed-qwirkle" and t.missed_qwirkle is not None:
            m = t.missed_qwirkle
            detail = f"{format_move(m.tiles)} makes {m.qwirkles} {plural(m.qwirkles, 'Qwirkle')}, {m.score} points"
        elif flag == "could-place" and t.best is not None:
            detail = f"{t.action} while {format_move(t.best.tiles)} scores {t.best_score}"
        elif flag == "open-five":
            chance = "" if t.open_five_risk is None else f"; the next player holds one with chance {t.open_five_risk:.0%}"
            detail = "; ".join(f"a line of five open for {f.missing} ({f.unseen} unseen)" for f in t.open_fives) + chance
        elif flag == "better-move" and t.lookahead is not None and t.lookahead.best is not None:
            la = t.lookahead
            engine_best = t.lookahead.best
            detail = (f"{format_move(engine_best.tiles)} scores {la.best_score}, value {la.best_value:.1f}; "
                      f"the move played is worth {la.played_value:.1f} ({la.value_lost:.1f} lost)")
        elif flag == "qwirkle-gift" and t.gift is not None:
            detail = (f"left a line of five open for {t.gift.missing}; turn {t.gift.completed_at} completed it")
        else:
            detail = ""
        out.append((flag, detail))
    return tuple(out)


def iter_flags(analysis: Analysis) -> Iterator[str]:
    """One readable line per flagged turn."""
    for t in analysis.flagged:
        for flag, detail in flag_details(t):
            yield f"turn {t.turn}: {flag}: {detail}"


TOOL = "qwirkle-tools"
ACCURACY = "points scored as a share of the best score available, over the turns whose whole rack was known"


def summary_data(analysis: Analysis) -> dict[str, object]:
    """The record-level ``analysis`` object :func:`annotated` writes: the tool,
    its version, what accuracy means, a summary per player, the flagged turns."""
    from ..version import __version__

    return {
        "tool": TOOL, "version": __version__, "accuracy": ACCURACY,
        "players": [s.to_data() for s in analysis.players],
        "flagged_turns": [t.turn for t in analysis.flagged],
        "notes": list(analysis.notes),
    }


def analysis_data(analysis: Analysis) -> dict[str, object]:
    """The whole analysis as JSON data (``annotate --format json``): the
    summary of :func:`summary_data` and every turn's analysis."""
    turns = [{"turn": t.turn, "player": t.player, **t.to_data()} for t in analysis.turns]
    return {**summary_data(analysis), "turns": turns}


def annotated(game: Record | History, analysis: Analysis | None = None) -> dict[str, object]:
    """The record as JSON data with the analysis written in.

    Each turn gets an ``analysis`` object, the record a top-level
    ``analysis`` with the tool, its version and a summary per player. Earlier
    analysis is replaced; nothing else changes (``comment`` fields included),
    so annotating an annotated record gives the same data.
    """
    record = game.record if isinstance(game, History) else game
    if analysis is None:
        analysis = analyse(game)
    data = record.to_data()
    turns = data["turns"]
    assert isinstance(turns, list)
    for turn_data, ta in zip(turns, analysis.turns):
        turn_data["analysis"] = ta.to_data()
    data["analysis"] = summary_data(analysis)
    return data


def summary_text(analysis: Analysis) -> str:
    """The readable summary the ``annotate`` command prints."""
    lines = []
    for s in analysis.players:
        acc = "n/a" if s.accuracy is None else f"{100 * s.accuracy:.1f}%"
        lines.append(f"{one_line(s.name)}: {count(s.score, 'point')}, accuracy {acc} over "
                     f"{count(s.analysed_turns, 'turn')}, "
                     f"{count(s.points_lost, 'point')} lost, {count(s.qwirkles_made, 'Qwirkle')} made, "
                     f"{s.qwirkles_missed} missed, {count(s.gifts_given, 'gift')}, "
                     f"{count(s.open_fives, 'open five')}"
                     + ("" if s.value_lost is None else f", {s.value_lost:.1f} value lost"))
    flags = list(iter_flags(analysis))
    lines.append(f"flagged turns: {len(flags) if flags else 'none'}")
    lines.extend(f"  {line}" for line in flags)
    lines.extend(analysis.notes)
    return "\n".join(lines)


class AnalysisError(QwirkleError):
    """A question the record cannot answer (a board or a rack it does not give)."""


@dataclass(frozen=True, slots=True)
class LegalMoves:
    """Every legal move at a turn, best first, for the rack given or known;
    ``scores[i]`` is what ``moves[i]`` really scores, the end bonus included
    (:func:`move_scores`), by which they are ranked."""

    turn: int
    rack: tuple[Tile, ...]
    moves: tuple[Move, ...]
    scores: tuple[int, ...]

    def _shown(self, limit: int) -> Iterator[tuple[Move, int]]:
        return zip(self.moves[:limit] if limit else self.moves, self.scores)

    def to_data(self, limit: int = 0) -> dict[str, object]:
        return {"turn": self.turn, "rack": [str(t) for t in self.rack],
                "moves": [move_data(m, s) for m, s in self._shown(limit)]}

    def json_chunks(self, limit: int = 0) -> Iterator[str]:
        """:meth:`to_data` as JSON text, a move at a time (a position may have many)."""
        yield json.dumps({"turn": self.turn, "rack": [str(t) for t in self.rack]})[:-1] + ', "moves": ['
        for i, (m, s) in enumerate(self._shown(limit)):
            yield ("" if i == 0 else ", ") + json.dumps(move_data(m, s))
        yield "]}"

    def lines(self, limit: int = 0) -> Iterator[str]:
        """The listing, a line at a time: a heading, then a move per line
        (its score, with the end bonus it includes, if any)."""
        yield f"turn {self.turn}: rack {format_tiles(self.rack)}: {count(len(self.moves), 'legal move')}"
        for m, s in self._shown(limit):
            q = f"  {count(m.qwirkles, 'Qwirkle')}" if m.qwirkles else ""
            out = f"  +{s - m.score} end bonus" if s != m.score else ""
            yield f"{s:>4}  {format_move(m.tiles)}{q}{out}"

    def text(self, limit: int = 0) -> str:
        return "\n".join(self.lines(limit))


MOVES_LISTED = 200_000
"""The most legal moves :func:`legal_moves` lists for one position."""


def legal_moves(history: History, turn: int, rack: Sequence[int] | None = None) -> LegalMoves:
    """Every legal move for the player to move at ``turn`` (1-based; one past
    the last turn for the position after it), on the board before that turn,
    best first: by the score each really makes, the end bonus included
    (:func:`move_scores`, as ``annotate`` ranks them), then more Qwirkles,
    then :func:`~qwirkle_tools.core.movegen.generate`'s order. The rack is
    ``rack`` if given, else the one the record gives or implies; on an empty
    board the opening rule applies (largest group).

    Raises:
        AnalysisError: ``turn`` is out of range; the board or the rack is not
            known; a rack given holds more than 6 tiles or a tile more than 3
            times; or the position has more than :data:`MOVES_LISTED` moves.
    """
    last = len(history.turns) + 1
    if not 1 <= turn <= last:
        raise AnalysisError(f"--turn must be 1 to {last}, not {turn}")
    state = history.state(turn - 1)
    if not state.board_known:
        raise AnalysisError(f"the board before turn {turn} is not known ({BOARD_UNKNOWN_WHY})")
    if rack is not None:
        if len(rack) > RACK_SIZE:
            raise AnalysisError(f"--rack: a rack holds at most {RACK_SIZE} tiles, not {len(rack)}")
        many = [t for t in set(rack) if list(rack).count(t) > COPIES]
        if many:
            raise AnalysisError(f"--rack: the game has {COPIES} of each tile; the rack holds {list(rack).count(many[0])} "
                                f"{TILES[many[0]]}")
    else:
        if turn == last:
            raise AnalysisError("after the last turn, give the rack with --rack")
        known, _ = history.known_rack(turn - 1)
        if known is None:
            raise AnalysisError(f"the rack at turn {turn} is not known; give it with --rack")
        rack = known
    cells = state.board.cells
    try:
        found = generate(cells, rack, history.record.rules, largest_first=not cells, limit=MOVES_LISTED)
    except TooManyMoves:
        raise AnalysisError(f"the position before turn {turn} has more than {MOVES_LISTED:,} legal moves "
                            "for this rack; too many to list") from None
    scores = move_scores(((m.score, len(m.tiles)) for m in found), len(rack), state.bag, history.record.rules)
    order = sorted(range(len(found)), key=lambda i: (-scores[i], -found[i].qwirkles))  # stable: generate's order next
    return LegalMoves(turn, tuple(TILES[t] for t in rack), tuple(found[i] for i in order),
                      tuple(scores[i] for i in order))


def recorded_missed_qwirkle(turn: Turn) -> tuple[Placement, ...]:
    """The missed Qwirkle an annotated turn records (see :meth:`TurnAnalysis.to_data`),
    or nothing when it records none or something unreadable."""
    found = turn.extra.get("analysis")
    missed = found.get("missed_qwirkle") if isinstance(found, dict) else None
    if not isinstance(missed, dict):
        return ()
    try:
        return tuple(Placement(Tile.parse(t["tile"]), int(t["x"]), int(t["y"])) for t in missed["tiles"])
    except (KeyError, TypeError, ValueError):
        return ()
