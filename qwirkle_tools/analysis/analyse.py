"""Game analysis: best moves, points lost, missed Qwirkles, Qwirkle gifts.

For every turn whose rack is known (recorded, or deduced: carried over from
earlier racks and draws, or in a two-player game with an empty bag, the
tiles that are neither on the board nor in the opponent's known rack), the
turn is compared with every legal move (:mod:`qwirkle_tools.core.movegen`):

* the best score (the end bonus counted for a move that empties the rack
  with the bag empty), the score played, the points lost, the played move's
  rank among the legal placements (1 = as good as the best; none for an
  exchange or a pass), how many legal moves there were;
* ``missed-qwirkle``: a legal move completed more lines of six than the
  move played (an exchange or pass completes none);
* ``could-place``: an exchange or pass while a placement was possible.

Where the rack is not known, only the tiles placed that turn are known to
have been in it: a Qwirkle those tiles alone could have made and did not is
still a missed Qwirkle; nothing else is judged. On every record:

* ``open-five``: a move left a line of five whose sixth tile the mover has
  not seen all of (not on the board, not in the mover's known rack after the
  turn) and fits at an end of the line; with the copies unseen and the chance
  that the next player holds one (:func:`~qwirkle_tools.analysis.fives.chance_held`: the next player's
  rack taken as a uniform draw from the tiles the mover has not seen, the
  bag included);
* ``qwirkle-gift``: a move left a line of five whose sixth tile was not yet
  all on the table, and the next player completed that line.

Every turn compared with every legal move lists its top candidates
(:func:`~qwirkle_tools.analysis.verdicts.candidates`: the best-scoring moves,
each with the points it loses). With an engine (``engine="lookahead"``, see
:data:`~qwirkle_tools.analysis.verdicts.ENGINES`) every turn whose rack is
known is also judged by it (:class:`~qwirkle_tools.analysis.verdicts.Verdict`):
its best move and value, the played move's value and the value lost, and
each candidate's value and value lost;

* ``better-move``: the engine's move beats the move played by more than
  :data:`~qwirkle_tools.engines.lookahead.MARGIN` points of value.

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

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ..core.board import as_cells, key_cell
from ..core.lines import LINE_MAX
from ..core.move import Move
from ..core.movegen import TooManyMoves, generate_found
from ..core.movekeys import Found
from ..core.pickling import Rebuilt, rebuilt
from ..core.rules import Rules
from ..core.text import count
from ..core.tiles import TILE_COUNT, TILES, Tile
from ..engines.lookahead import MARGIN, BudgetSpent, OutOfTime
from ..formats.record import Record
from ..play.engine import BOARD_UNKNOWN_WHY, GameState, History, TurnResult, replay
from .decisive import Decisive, decisive

# lines of five and the legal-move listing have modules of their own; their names are handed on here
from .fives import Five, OpenFive, completed, open_five_risks
from .fives import chance_held as chance_held
from .fives import open_fives as open_fives
from .inference import MOVES_PER_RECORD as INFERENCE_MOVES
from .inference import SAMPLES, Inferred, infer
from .moves import MOVES_LISTED as MOVES_LISTED
from .moves import AnalysisError as AnalysisError
from .moves import LegalMoves as LegalMoves
from .moves import legal_moves as legal_moves
from .moves import move_data, move_scores
from .sametiles import SameTiles, same_tiles
from .verdicts import (
    ENGINES,
    MOVETIME_MS,
    Candidate,
    Clock,
    EngineFunction,
    Position,
    Shown,
    Verdict,
    candidates,
    raw_move,
    recorded_verdict,
)
from .verdicts import engine as pick_engine
from .winchance import CLASSES, WinChance, chances

RackSource = str  # "recorded", "deduced", "placed-tiles", "unknown"
Engine = Literal["greedy", "lookahead", "sim"]
"""The engines :func:`analyse` knows by name: ``greedy`` (scores alone) and
those of :data:`~qwirkle_tools.analysis.verdicts.ENGINES`."""


@dataclass(frozen=True, slots=True)
class Gift:
    """A line of five left open, and the turn that completed it."""

    line: tuple[tuple[int, int], ...]
    missing: Tile
    completed_at: int

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """What the analysis says of one turn (``turn`` is 1-based).

    Fields that could not be worked out are ``None`` (``qwirkles`` too, on a
    score-sheet turn, whose tiles are not written); ``rack`` says what the
    analysis knew of the rack, ``checked`` whether the turn was checked for a
    missed Qwirkle (from the whole rack or the placed tiles), ``board_known``
    whether the board after it is known (so open fives and gifts could be
    seen), ``unknown`` what kept it from being analysed (``"board"``,
    ``"rack"``, or empty: analysed, or a bound), and ``note`` says plainly
    what was not done.
    """

    turn: int
    player: int
    action: str
    rack: RackSource
    played: int | None = None
    qwirkles: int | None = 0
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
    verdict: Verdict | None = None
    shown: Shown | None = None
    checked: bool = False
    board_known: bool = True
    unknown: str = ""
    same_tiles: SameTiles | None = None
    decisive: Decisive | None = None
    inferred: Inferred | None = None
    win: WinChance | None = None

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        """The turn's top candidates (:class:`~qwirkle_tools.analysis.verdicts.Shown`), if it was judged."""
        return () if self.shown is None else self.shown.candidates()

    @property
    def lookahead(self) -> Verdict | None:
        """The look-ahead engine's verdict, if that engine judged the turn."""
        return self.verdict if self.verdict is not None and self.verdict.engine == "lookahead" else None

    @property
    def exact_loss(self) -> int | None:
        """What the move played loses against perfect play, where the engine proved it (the endgame)."""
        return None if self.verdict is None else self.verdict.exact_loss

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
        if self.verdict is not None and self.verdict.value_lost > MARGIN:
            out.append("better-move")
        if self.same_tiles is not None and self.same_tiles.gain:
            out.append("same-tiles")
        if self.decisive is not None:
            out.append("decisive")
        if self.inferred is not None and self.inferred.expected_loss >= INFERRED_FLAG:
            out.append("inferred-loss")
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
        if self.shown is not None and self.shown.moves:
            d["candidates"] = [c.to_data() for c in self.shown.candidates()]
        if self.verdict is not None:
            d[self.verdict.engine] = self.verdict.to_data()  # under the engine's name: "lookahead" as before
        if self.same_tiles is not None:
            d["same_tiles"] = self.same_tiles.to_data()
        if self.decisive is not None:
            d["decisive"] = self.decisive.to_data()
        if self.inferred is not None:
            d["inferred"] = self.inferred.to_data()
        if self.win is not None:
            d["win_chance"] = self.win.to_data()
        d["flags"] = list(self.flags)
        if self.note:
            d["note"] = self.note
        return d

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """A player's whole-game figures. A figure the record cannot tell is
    ``None``, never 0: ``points_lost`` with no turn analysed, ``qwirkles_made``
    where a turn's tiles are not written (a score sheet), ``qwirkles_missed``
    where no turn could be checked for one, ``gifts_given`` and ``open_fives``
    where the board is not known after some turn."""

    name: str
    score: int
    analysed_turns: int
    points_lost: int | None
    best_available: int
    scored_on_analysed: int
    qwirkles_made: int | None
    qwirkles_missed: int | None
    gifts_given: int | None
    open_fives: int | None = 0
    value_lost: float | None = None
    same_tiles: tuple[int, int] | None = None  # (points the same tiles would have added, turns judged by them)
    inferred: tuple[float, int] | None = None  # (points lost expected over the racks drawn, turns inferred)
    classes: tuple[int, int, int] = (0, 0, 0)  # (blunders, mistakes, inaccuracies) by the win chance lost

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
                **({} if self.value_lost is None else {"value_lost": round(self.value_lost, 2)}),
                **({} if self.same_tiles is None else {"same_tiles": {"gain": self.same_tiles[0],
                                                                      "turns": self.same_tiles[1]}}),
                **({} if self.inferred is None else {"inferred": {"expected_loss": round(self.inferred[0], 1),
                                                                  "turns": self.inferred[1], "racks_a_turn": SAMPLES}}),
                "blunders": self.classes[0], "mistakes": self.classes[1], "inaccuracies": self.classes[2]}

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Analysis:
    turns: tuple[TurnAnalysis, ...]
    players: tuple[PlayerSummary, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def flagged(self) -> list[TurnAnalysis]:
        return [t for t in self.turns if t.flags]

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


INFERRED_FLAG = 3.0
"""The points lost expected over the racks drawn (:mod:`~qwirkle_tools.analysis.inference`) from which
a turn whose rack is unknown is flagged ``inferred-loss``."""

MOVES_PER_TURN = 50_000
"""The analysis of a turn stops at this many legal moves (a legal but pathological
board can have hundreds of thousands); the turn is then noted, not analysed."""
MOVES_PER_RECORD = 2_000_000
"""The legal moves generated for one record's analysis, in all (the look-ahead
engine's reply positions included, up to 54 a turn); the turns after that are
noted, not analysed. Together the two bounds keep any record within the limits
to about 30 seconds and well under 1 GiB, the look-ahead engine's work included;
an engine's time is bounded too, a turn and a record (see :class:`~qwirkle_tools.analysis.verdicts.Clock`)."""


def analyse(game: Record | History, engine: Engine = "greedy", settings: Any = None,
            movetime_ms: int = MOVETIME_MS, endgames: bool = True, inference: bool = True, reuse: bool = False,
            progress: Callable[[int, int], None] | None = None) -> Analysis:
    """The analysis of every turn of a record (or of its replay) and a summary per player.

    An ``engine`` other than ``greedy`` (one of :data:`~qwirkle_tools.analysis.verdicts.ENGINES`)
    also judges every turn whose rack is known (``settings``: the engine's, e.g. the
    look-ahead's :class:`~qwirkle_tools.engines.lookahead.Settings`; ``None``: its defaults);
    the racks the look-ahead samples are seeded by the turn number, so the same record
    gives the same analysis. The engine has ``movetime_ms`` a turn and
    :data:`~qwirkle_tools.analysis.verdicts.RECORD_SECONDS` for the record (see
    :class:`~qwirkle_tools.analysis.verdicts.Clock`). ``endgames``: solve the small endgames
    (two players, the bag empty) to name the decisive moves (:mod:`~qwirkle_tools.analysis.decisive`:
    a few milliseconds a game; a corpus's tables leave it out). ``inference``: the racks not recorded
    drawn to fit the record, for the points each such turn probably lost
    (:mod:`~qwirkle_tools.analysis.inference`: about 30 ms a turn). ``reuse``: where an annotated
    record holds the engine's verdict on a turn (``annotate --engine``), take it rather than judge the
    turn again (:func:`~qwirkle_tools.analysis.verdicts.recorded_verdict`: the same candidates, the values
    to two decimals). ``progress``: told ``(turns done, turns)`` after each turn (a command's bar).

    Raises:
        ValueError: no such engine, or a ``movetime_ms`` below 1.
    """
    if movetime_ms < 1:
        raise ValueError(f"the engine's time a turn must be at least 1 ms, not {movetime_ms!r}")
    if engine != "greedy" and engine not in ENGINES:
        names = ["greedy", *ENGINES]
        raise ValueError(f"engine must be {', '.join(names[:-1])} or {names[-1]}, not {engine!r}")
    history = game if isinstance(game, History) else replay(game)
    recorded = {i: t.extra.get("analysis") for i, t in enumerate(history.record.turns)} \
        if reuse and engine != "greedy" else {}
    return Analysis(*_analyse(history, None if engine == "greedy" else pick_engine(engine, settings), Clock(movetime_ms),
                              endgames, inference, (engine, recorded), progress))


def _analyse(history: History, judge: EngineFunction | None = None, clock: Clock | None = None, endgames: bool = True,
             inference: bool = True, recorded: tuple[str, Mapping[int, object]] = ("greedy", {}),
             progress: Callable[[int, int], None] | None = None
             ) -> tuple[tuple[TurnAnalysis, ...], tuple[PlayerSummary, ...], tuple[str, ...]]:
    record = history.record
    turns: list[TurnAnalysis] = []
    left_open: dict[int, list[Five]] = {}  # turn index -> lines of five left
    budget = [MOVES_PER_RECORD]
    clock = clock or Clock()
    risks: dict[int, tuple[tuple[OpenFive, ...], float | None]] = {}  # turn index -> open fives left, chance
    for result in history:
        i = result.index
        turn = result.turn
        assert turn is not None
        state = history.before(i)
        after = result.state
        assert after is not None
        if len(state.board) > TILE_COUNT:  # only illegal moves do that; generating moves would take ever longer
            turns.append(_unjudged(result, "unknown", f"not analysed: the board holds more than the game's {TILE_COUNT} tiles"))
            continue
        placed_keys = [pl.key for pl in turn.tiles] if turn.tiles else []
        gift = completed(left_open[i - 1], as_cells(after.board), placed_keys) \
            if i - 1 in left_open and placed_keys and state.board_known else None
        if placed_keys and state.board_known and after.board_known:
            fives = open_fives(as_cells(after.board), placed_keys)
            if fives:
                left_open[i] = fives
                risky, risk = open_five_risks(after, turn.player, fives, len(record.players))
                if risky:
                    risks[i] = (risky, risk)
        if gift is not None and turns:
            five, missing = gift
            turns[-1] = replace(turns[-1], gift=Gift(tuple(key_cell(k) for k in five), TILES[missing], i + 1))
        turns.append(_judge(history, result, state, judge, budget, clock, recorded))
        if progress is not None:
            progress(len(turns), len(history.turns))
        if endgames and state.bag == 0 and len(record.players) == 2:  # a small endgame solved: did this move decide it?
            turns[-1] = replace(turns[-1], decisive=decisive(history, i))
    for i, (risky, risk) in risks.items():
        turns[i] = replace(turns[i], open_fives=risky, open_five_risk=risk)
    unknown = [t.turn - 1 for t in turns if t.unknown == "rack" and t.action in ("place", "exchange")]
    for i, inferred in (infer(history, unknown, budget) if inference and unknown else {}).items():
        t = turns[i]
        best = None if t.played is None else t.played + inferred.expected_loss
        turns[i] = replace(t, inferred=inferred, win=_win(history, i, t.played, best, 0 if inferred.likely is None
                                                          else len(inferred.likely.tiles), inferred=True))
    return tuple(turns), _summaries(history, turns, judge is not None), _notes(turns, inference)


def _notes(turns: Sequence[TurnAnalysis], inference: bool = False) -> tuple[str, ...]:
    """What was not analysed, and why: one note per reason, each naming what was unknown."""
    unjudged = [t for t in turns if t.best_score is None]
    if not unjudged:
        return ()
    board = sum(1 for t in unjudged if t.unknown == "board")
    rack = sum(1 for t in unjudged if t.unknown == "rack")
    other = len(unjudged) - board - rack
    of = f"of {count(len(turns), 'turn')}"
    notes = [f"{board} {of} not analysed: the board is unknown (tiles not written, as on a score sheet)"] if board else []
    if rack:
        notes.append(f"{rack} {of} not fully analysed: the rack is unknown (judged by the tiles placed, and by "
                     "racks inferred where the record allows: estimates)")
    if other:
        notes.append(f"{other} {of} not analysed for another reason (each turn's note says which)")
    missing = sum(1 for t in unjudged if t.unknown == "rack" and t.action in ("place", "exchange") and t.inferred is None)
    if inference and missing:
        notes.append(f"{missing} {of} whose rack is unknown not inferred: the record's tiles leave no rack to draw, "
                     f"or the bound of {INFERENCE_MOVES:,} legal moves for the racks drawn was spent")
    return tuple(notes)


def _unjudged(result: TurnResult, rack: RackSource, note: str, missed: Move | None = None, unknown: str = "",
              checked: bool = False, same: SameTiles | None = None) -> TurnAnalysis:
    """A turn the analysis could not compare with every legal move, and why (``note``; ``unknown``:
    what was not known, see :class:`TurnAnalysis`; ``checked``: for a missed Qwirkle, from the placed tiles)."""
    turn = result.turn
    assert turn is not None
    played = result.computed if result.computed is not None else turn.score
    after = result.state
    return TurnAnalysis(result.index + 1, turn.player, turn.action, rack, played, result.qwirkles,
                        missed_qwirkle=missed, note=note, checked=checked, unknown=unknown,
                        board_known=after is not None and after.board_known, same_tiles=same)


def _judge(history: History, result: TurnResult, state: GameState, judge: EngineFunction | None, budget: list[int],
           clock: Clock, recorded: tuple[str, Mapping[int, object]] = ("greedy", {})) -> TurnAnalysis:
    """One turn, played in ``state``, compared with every legal move from the rack known (and
    judged by an engine too when one is given), its legal moves charged to ``budget``."""
    i, turn = result.index, result.turn
    assert turn is not None
    rules = history.record.rules
    if not state.board_known:
        return _unjudged(result, "unknown", f"not analysed: the board is not known ({BOARD_UNKNOWN_WHY})",
                         unknown="board")
    if turn.player >= len(history.record.players) or state.ended or any(f.code == "after-end" for f in result.findings):
        return _unjudged(result, "unknown", "not analysed: a turn after the end or by a seat that does not exist")
    rack, source = history.known_rack(i)
    cells = as_cells(state.board)  # (the board's own dict: a read-only view would be copied by each generation)
    if rack is None:
        if not turn.tiles:
            # a score-sheet placement (tiles not written) leaves the board unknown from here on
            sheet = turn.action == "place" and turn.tiles is None
            return _unjudged(result, "unknown", "not analysed: the tiles placed are not known" if sheet
                             else "not analysed: the rack is not known", unknown="board" if sheet else "rack")
        found = _bounded(cells, [pl.tile for pl in turn.tiles], rules, False, budget)
        if isinstance(found, str):
            return _unjudged(result, "placed-tiles", found, unknown="rack")
        same = same_tiles(found.raws(), len(turn.tiles), result.computed or 0, result.bonus)
        return _unjudged(result, "placed-tiles", "rack unknown: judged by the placed tiles alone (the same tiles, "
                         "placed as well as they could be; a missed Qwirkle of them)",
                         _missed(found, result.qwirkles or 0), unknown="rack", checked=True, same=same)
    found = _bounded(cells, rack, rules, not cells, budget)  # (kept as keys: only the moves shown are made)
    if isinstance(found, str):
        return _unjudged(result, source, found)
    played = result.computed if result.computed is not None else turn.score
    qwirkles = result.qwirkles or 0
    sheet = turn.action == "place" and turn.tiles is None  # a score-sheet turn: judged by its claim
    scores = move_scores(found.points(), found.counts(), len(rack), state.bag, rules)
    best_score = max(scores, default=0)
    value = played if played is not None else 0
    # an exchange or a pass is not one of the legal placements: it has no rank among them (rank None)
    rank = 1 + sum(map(value.__lt__, scores)) if turn.action == "place" else None  # 1 + the moves scoring more
    # a claim of c points made at most c // (the least a move completing a line of six scores) Qwirkles
    made = value // (LINE_MAX + rules.qwirkle_bonus) if sheet else qwirkles
    shown = candidates(found.picked, scores, turn.tiles, state.bag == 0)
    best = raw_move(shown.moves[0]) if found else None  # the first best score, as the candidates come
    reused = recorded_verdict(recorded[1].get(i), recorded[0], shown.moves) if judge is not None and found else None
    judged, note = (reused, "") if reused is not None else _ahead(
        Position(history, i, rack, found.raws(), shown.moves, budget), judge, clock) \
        if judge is not None and found and not sheet else (None, "")
    after = result.state
    return TurnAnalysis(i + 1, turn.player, turn.action, source, played, result.qwirkles, best, best_score,
                        max(0, best_score - value), rank, len(found), _missed(found, made), note=note, verdict=judged,
                        shown=shown if judged is None else shown.valued(judged),
                        checked=True, board_known=after is not None and after.board_known,
                        win=_win(history, i, played, best_score, len(best.tiles) if best is not None else 0, verdict=judged))


def _ahead(position: Position, judge: EngineFunction, clock: Clock) -> tuple[Verdict | None, str]:
    """The engine's verdict on a position within the clock's time, or why there is none."""
    started = time.monotonic()
    try:
        return judge(replace(position, deadline=clock.deadline())), ""
    except OutOfTime:
        return None, f"not judged by the engine: {clock.why()}"
    except BudgetSpent:
        return None, (f"not judged by the engine: the analysis bound of {MOVES_PER_RECORD:,} legal moves "
                      "for a record is spent")
    except TooManyMoves as many:
        return None, f"not judged by the engine: a position with more than {many.limit:,} legal moves (its bound)"
    finally:
        clock.used += time.monotonic() - started


def _summaries(history: History, turns: list[TurnAnalysis], ahead: bool) -> tuple[PlayerSummary, ...]:
    """Each player's whole-game figures; the value lost only with an engine (``ahead``)."""
    summaries = []
    final = history.totals
    for p, player in enumerate(history.record.players):
        mine = [t for t in turns if t.player == p]
        analysed = [t for t in mine if t.best_score is not None]
        seen = all(t.board_known for t in mine)  # open fives and gifts are seen only on a known board
        summaries.append(PlayerSummary(
            name=player.name,
            score=final[p] if p < len(final) else 0,
            analysed_turns=len(analysed),
            points_lost=sum(t.points_lost or 0 for t in analysed) if analysed else None,
            best_available=sum(t.best_score or 0 for t in analysed),
            # an illegal move may count more than any legal one: it scores at most the best, as it loses nothing
            scored_on_analysed=sum(min(t.played or 0, t.best_score or 0) for t in analysed),
            qwirkles_made=None if any(t.qwirkles is None for t in mine) else sum(t.qwirkles or 0 for t in mine),
            qwirkles_missed=sum(1 for t in mine if t.missed_qwirkle is not None) if any(t.checked for t in mine) else None,
            gifts_given=sum(1 for t in mine if t.gift is not None) if seen else None,
            open_fives=sum(1 for t in mine if t.open_fives) if seen else None,
            value_lost=sum(t.verdict.value_lost for t in mine if t.verdict) if ahead else None,
            same_tiles=_same_tiles_total(mine),
            inferred=_inferred_total(mine),
            classes=_classes(mine),
        ))
    return tuple(summaries)


def _same_tiles_total(turns: Sequence[TurnAnalysis]) -> tuple[int, int] | None:
    """The points the same tiles would have added over the turns judged by them, and how many."""
    judged = [t.same_tiles for t in turns if t.same_tiles is not None]
    return (sum(s.gain for s in judged), len(judged)) if judged else None


def _win(history: History, index: int, played: int | None, best: float | None, best_placed: int,
         inferred: bool = False, verdict: Verdict | None = None) -> WinChance | None:
    """Turn ``index``'s win chances (:mod:`~qwirkle_tools.analysis.winchance`) from the score ``played``
    and the ``best`` (placing ``best_placed`` tiles; ``inferred``: the racks drawn's), where both are known;
    an engine's own chances where its ``verdict`` has them (the simulation's, the solver's)."""
    state = history.before(index)
    if best is None or played is None or not state.board_known or state.bag is None or len(state.scores) != 2:
        return None  # (the model was fitted to two-player games)
    if verdict is not None and verdict.played_chance is not None and verdict.best_chance is not None:
        return WinChance(verdict.played_chance, max(verdict.best_chance, verdict.played_chance),
                         source="exact" if verdict.exact else "solver" if state.bag == 0 else "sim")
    turn = history.turns[index]
    p = turn.player if turn is not None else 0
    lead = state.scores[p] - state.scores[1 - p]
    placed = len(turn.tiles or ()) if turn is not None else 0
    ends = history.state(index + 1).ended is not None
    size = state.rack_sizes[p] if p < len(state.rack_sizes) else None
    return chances(lead, played, best, TILE_COUNT - len(state.board), placed, best_placed, ends,
                   state.bag == 0 and size is not None and best_placed == size, inferred)


def _classes(turns: Sequence[TurnAnalysis]) -> tuple[int, int, int]:
    """How many of the turns are blunders, mistakes and inaccuracies (:data:`~qwirkle_tools.analysis.winchance.CLASSES`)."""
    kinds = Counter(t.win.kind for t in turns if t.win is not None)
    blunders, mistakes, inaccuracies = (kinds[name] for name, _ in CLASSES)
    return blunders, mistakes, inaccuracies


def _inferred_total(turns: Sequence[TurnAnalysis]) -> tuple[float, int] | None:
    """The points lost expected over the turns whose racks were inferred, and how many."""
    judged = [t.inferred for t in turns if t.inferred is not None]
    return (sum(i.expected_loss for i in judged), len(judged)) if judged else None


def _bounded(cells: Mapping[int, int], rack: Sequence[int], rules: Rules, largest_first: bool,
             budget: list[int]) -> Found | str:
    """The legal moves, within :data:`MOVES_PER_TURN` and what is left of the
    record's ``budget`` (charged); else why the turn is not analysed."""
    if budget[0] <= 0:
        return _spent()
    try:
        moves = generate_found(cells, rack, rules, largest_first, limit=min(MOVES_PER_TURN, budget[0]))
    except TooManyMoves as many:
        budget[0] -= many.found
        if many.limit < MOVES_PER_TURN:
            return _spent()
        return f"not analysed: more than {MOVES_PER_TURN:,} legal moves (the analysis bound for a turn)"
    budget[0] -= len(moves)
    return moves


def _spent() -> str:
    return f"not analysed: the analysis bound of {MOVES_PER_RECORD:,} legal moves for a record is spent"


def _missed(moves: Found, played_qwirkles: int) -> Move | None:
    """The best-scoring move among those completing the most lines of six, if
    that is more than the move played completed."""
    made = moves.qwirkles()
    most = max(made, default=0)
    if most <= played_qwirkles:
        return None
    return raw_move(moves.picked([made.index(most)])[0])  # moves come best score first
