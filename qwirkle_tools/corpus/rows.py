"""Corpus work: rows per game, turn and finding.

:func:`game_rows` turns one record's text into plain rows (dictionaries of
numbers and strings, cheap to send between processes); :func:`run` does that
for every record under some paths, over several processes if asked, and
always yields the results in corpus order, so that everything built from
them is the same whatever the number of processes. :mod:`~qwirkle_tools.corpus.stats`
folds the rows into a summary in constant memory; :mod:`qwirkle_tools.corpus.tables` makes
pandas tables of the same rows; the columns are listed here, in
:data:`GAME_COLUMNS`, :data:`TURN_COLUMNS` and :data:`FINDING_COLUMNS`.

Terms used in the columns:

* ``seat``: the player's index in the record's ``players`` (0-based, as in
  the record and the validator's messages);
* ``position``: the place in the turn order, 1 for the player who moved
  first (the starter);
* ``score``: the points a turn counts for on replay (the computed score,
  or the claimed one where the tiles are not recorded), so totals are the
  replayed totals, not the claimed ones;
* a lead change: the sole leader after a turn differs from the last sole
  leader (a tie keeps the last one; the first leader is not a change).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from ..analysis.validate import Report, check_source

if TYPE_CHECKING:
    from ..analysis.analyse import TurnAnalysis
from ..core.findings import Finding
from ..core.safetext import one_line
from ..formats.sources import Source, input_files, sources
from ..play.engine import sole_leader
from ..play.seats import forfeit_seat, seat_bots
from .pool import ordered_map

Row = dict[str, object]
MAX_PLAYERS = 6

Column = tuple[str, str, str]  # name, pandas dtype, description

GAME_COLUMNS: tuple[Column, ...] = (
    ("game", "string", "The record's place: FILE, or FILE:LINE in a .jsonl corpus."),
    ("source", "string", "The file."),
    ("line", "Int64", "The line in a .jsonl corpus; missing for a .json file."),
    ("players", "Int64", "The number of players."),
    *((f"player_{s}", "string", f"Seat {s}'s name (missing if the game has fewer seats).") for s in range(MAX_PLAYERS)),
    *((f"score_{s}", "Int64", f"Seat {s}'s replayed final score.") for s in range(MAX_PLAYERS)),
    *((f"bot_{s}", "string", f"Seat {s}'s bot (a match's spec) or policy (self-play's), from the meta.")
      for s in range(MAX_PLAYERS)),
    ("date", "string", "The meta's date as written (e.g. 2026-11-29; missing if none)."),
    ("seed", "Int64", "The meta's seed: a match's (each pair dealt by it and the pair), a self-play game's own."),
    ("forfeit_seat", "Int64", "The seat that lost a match's game by forfeit (missing if none)."),
    ("first_seat", "Int64", "The seat that moved first."),
    ("winner", "string", "The winner's name (a match's game lost by forfeit: the best of the others); missing on a "
                         "tie for first or a game without turns."),
    ("winner_seat", "Int64", "The winner's seat."),
    ("winner_position", "Int64", "The winner's place in the turn order (1: moved first)."),
    ("tie", "boolean", "Two or more players share the top score."),
    ("margin", "Int64", "The top score less the next one (0 on a tie)."),
    ("turns", "Int64", "Turns recorded."),
    ("placements", "Int64", "Turns that place tiles."),
    ("exchanges", "Int64", "Turns that exchange tiles."),
    ("passes", "Int64", "Turns that pass."),
    ("qwirkles", "Int64", "Lines of six completed, all players (missing where a turn's tiles are not recorded: a score "
                          "sheet's)."),
    ("lead_changes", "Int64", "Times the sole leader changed (see the module's notes)."),
    ("end", "string", "The result's end: out, blocked or unfinished (missing if not recorded)."),
    ("valid", "boolean", "The record has no error finding."),
    ("errors", "Int64", "Findings of severity error."),
    ("warnings", "Int64", "Findings of severity warning."),
    ("missed_qwirkles", "Int64", "Analysed: turns that missed a Qwirkle (missing if no turn could be checked)."),
    ("points_lost", "Int64", "Analysed: points lost on the turns whose rack was known (missing if there were none)."),
    ("qwirkle_gifts", "Int64", "Analysed: lines of five left for the next player to complete (missing where the board "
                               "is not known)."),
)
TURN_COLUMNS: tuple[Column, ...] = (
    ("game", "string", "As in the games table."),
    ("turn", "Int64", "The turn (1-based)."),
    ("seat", "Int64", "The player's seat."),
    ("position", "Int64", "The player's place in the turn order (1: moved first)."),
    ("player", "string", "The player's name."),
    ("action", "string", "place, exchange or pass."),
    ("tiles", "Int64", "Tiles placed or exchanged (missing if not recorded)."),
    ("score", "Int64", "The points the turn counts for on replay."),
    ("claimed", "Int64", "The score the record claims (missing if none)."),
    ("cumulative", "Int64", "The player's replayed total after the turn."),
    ("qwirkles", "Int64", "Lines of six the turn completed (missing if its tiles are not recorded)."),
    ("rack", "string", "Analysed: what was known of the rack (recorded, deduced, placed-tiles, unknown)."),
    ("best_score", "Int64", "Analysed: the best score a legal move had (rack known)."),
    ("points_lost", "Int64", "Analysed: best_score less the score (rack known)."),
    ("missed_qwirkle", "boolean", "Analysed: a legal move made more Qwirkles than the move played (missing if the turn "
                                  "could not be checked)."),
    ("same_tiles_gain", "Int64", "Analysed, the rack not recorded: the points the best placement of the tiles played "
                                 "would have added (missing where the rack is known)."),
    ("inferred_loss", "Float64", "Analysed, the rack not recorded: the points lost expected over the racks drawn to fit "
                                 "the record (inferred, an estimate; missing where the rack is known)."),
    ("better_chance", "Float64", "Analysed, the rack not recorded: the chance, over the racks drawn, that a better "
                                 "move existed (inferred)."),
    ("qwirkle_gift", "boolean", "Analysed: the turn left a line of five that the next player completed (missing "
                                "where the board is not known)."),
    ("open_fives", "Int64", "Analysed: lines of five the turn left open whose sixth tile the mover had not seen all of "
                            "(missing where the board is not known)."),
    ("open_five_risk", "Float64", "Analysed: the chance the next player held a tile completing one (rack size known)."),
)
FINDING_COLUMNS: tuple[Column, ...] = (
    ("game", "string", "As in the games table."),
    ("turn", "Int64", "The turn the finding is about (missing for the whole record)."),
    ("severity", "string", "error or warning."),
    ("code", "string", "The finding's code (see docs/findings.md)."),
    ("pointer", "string", "The JSON pointer of the value at fault."),
    ("message", "string", "What is wrong."),
)


@dataclass(frozen=True, slots=True)
class GameRows:
    """What one record gives the tables; ``game`` is ``None`` if unreadable."""

    where: str
    size: int
    game: Row | None
    turns: tuple[Row, ...]
    findings: tuple[Finding, ...]

    @property
    def first_error(self) -> Finding | None:
        return next((f for f in self.findings if f.is_error), None)

    @property
    def problem(self) -> str:
        """The first error, as ``turn N: code: message`` (empty if none)."""
        first = self.first_error
        return "" if first is None else str(first)

    def broken_line(self) -> str | None:
        """The line that lists this record as broken (its first error), or
        ``None`` for a valid record."""
        if self.game is not None and self.game["valid"]:
            return None
        first = self.first_error
        return first.line(self.where) if first is not None else f"{one_line(self.where)}: invalid"

    def finding_rows(self) -> list[Row]:
        return [{"game": self.where, "turn": f.turn, "severity": f.severity, "code": f.code,
                 "pointer": f.pointer, "message": f.message} for f in self.findings]


def game_rows(source: Source, analyse: bool = False) -> GameRows:
    """The rows of one record; with ``analyse``, a valid record's analysis too."""
    report = check_source(source, keep_record=True, positions=analyse)  # the record's one replay
    size = len(source.text) if source.text is not None else source.size
    return _rows(report, size, analyse)


def _rows(report: Report, size: int, analyse: bool) -> GameRows:
    record, where, history = report.record, report.where, report.history
    if record is None or history is None:
        return GameRows(where, size, None, (), report.findings)
    names = [p.name for p in record.players]
    n = len(names)
    errors = sum(1 for f in report.findings if f.is_error)
    study = None
    if analyse and not errors:
        from ..analysis.analyse import analyse as run_analysis

        study = run_analysis(history, endgames=False).turns  # (a corpus: the per-game endgame solving left out)
    first = record.turns[0].player if record.turns and 0 <= record.turns[0].player < n else None
    totals = list(history.totals[:n])
    counts = Counter(t.action for t in record.turns)
    qwirkles: int | None = 0  # None once a placement's tiles are not known
    turns: list[Row] = []
    for i, result in enumerate(history):
        turn = result.turn
        assert turn is not None
        p = turn.player
        seated = 0 <= p < n
        points, made = result.points, result.qwirkles
        qwirkles = None if qwirkles is None or (made is None and turn.action == "place") else qwirkles + (made or 0)
        placed = turn.tiles if turn.action == "place" else None
        row: Row = {
            "game": where, "turn": result.index + 1, "seat": p,
            "position": _position(p, first, n) if seated else None,
            "player": names[p] if seated else None, "action": turn.action,
            "tiles": len(placed) if placed is not None else turn.exchange_size if turn.action == "exchange" else
            0 if turn.action == "pass" else None,
            "score": points, "claimed": turn.score, "cumulative": result.totals[p] if seated else None,
            "qwirkles": made,
        }
        if study is not None:
            a = study[i]
            seen = a.board_known
            row.update(rack=a.rack, best_score=a.best_score, points_lost=a.points_lost,
                       missed_qwirkle=a.missed_qwirkle is not None if a.checked else None,
                       same_tiles_gain=None if a.same_tiles is None else a.same_tiles.gain,
                       inferred_loss=None if a.inferred is None else round(a.inferred.expected_loss, 2),
                       better_chance=None if a.inferred is None else round(a.inferred.better, 3),
                       qwirkle_gift=a.gift is not None if seen else None,
                       open_fives=len(a.open_fives) if seen else None, open_five_risk=a.open_five_risk)
        turns.append(row)
    # every seat's name and score, also beyond the table's six (in a record with too many players)
    game: Row = {"game": where, "source": report.path, "line": report.index or None, "players": n,
                 "_names": tuple(names), "_scores": tuple(totals)}
    bots = seat_bots(record.meta, n)
    for s in range(MAX_PLAYERS):
        game[f"player_{s}"] = names[s] if s < n else None
        game[f"score_{s}"] = totals[s] if s < n else None
        game[f"bot_{s}"] = bots[s] if s < n else None
    date = record.meta.get("date")
    game["date"] = date if isinstance(date, str) else None
    seed = record.meta.get("seed")
    game["seed"] = seed if isinstance(seed, int) and not isinstance(seed, bool) and -(1 << 63) <= seed < 1 << 63 else None
    forfeit = game["forfeit_seat"] = forfeit_seat(record)
    ranked = sorted(totals, reverse=True)
    if forfeit is None:
        leader = sole_leader(totals)
        winner = leader if record.turns else None
    else:  # a match's rule (bots.match.standing): the seat that forfeited comes last, whatever its score
        leader = winner = sole_leader([-1 if s == forfeit else t for s, t in enumerate(totals)])
    tie = n > 1 and leader is None
    game.update(
        first_seat=first,
        winner=names[winner] if winner is not None else None, winner_seat=winner,
        winner_position=_position(winner, first, n) if winner is not None else None,
        tie=tie, margin=ranked[0] - ranked[1] if n > 1 else None, turns=len(record.turns),
        placements=counts["place"], exchanges=counts["exchange"], passes=counts["pass"],
        qwirkles=qwirkles, lead_changes=len(history.lead_changes()),
        end=record.result.end if record.result is not None else None,
        valid=not errors, errors=errors, warnings=len(report.findings) - errors,
        **_analysed(study),
    )
    return GameRows(where, size, game, tuple(turns), report.findings)


def _analysed(study: tuple[TurnAnalysis, ...] | None) -> Row:
    """The games table's analysis columns: missing where not analysed, and each where the record cannot tell it."""
    if study is None:
        return {"missed_qwirkles": None, "points_lost": None, "qwirkle_gifts": None}
    judged = [a for a in study if a.best_score is not None]
    return {"missed_qwirkles": sum(1 for a in study if a.missed_qwirkle is not None) if any(a.checked for a in study)
            else None,
            "points_lost": sum(a.points_lost or 0 for a in judged) if judged else None,
            "qwirkle_gifts": sum(1 for a in study if a.gift is not None) if all(a.board_known for a in study) else None}


# -- running over a corpus ----------------------------------------------------

def run(paths: Iterable[str | os.PathLike[str]], analyse: bool = False, jobs: int = 1) -> Iterator[GameRows]:
    """The rows of every record under ``paths``, in order (see :func:`ordered_map`).

    Raises:
        qwirkle_tools.formats.sources.InputError: a path cannot be read.
    """
    return ordered_map(partial(game_rows, analyse=analyse), sources(paths), jobs)


def report(source: Source) -> Report:
    """The findings of one record, without the record (cheap to send between processes)."""
    found = check_source(source, keep_record=False)
    # (a clean record's report holds none already: it is handed on as built, not built again)
    return found if found.record is None and found.history is None else Report(found.path, found.index, found.findings)


def _sized_report(source: Source) -> tuple[Report, int]:
    return report(source), len(source.text) if source.text is not None else source.size


def reports(paths: Iterable[str | os.PathLike[str]], jobs: int = 1) -> Iterator[tuple[Report, int]]:
    """A report for every record under ``paths`` and the record's size in
    bytes, in order, over ``jobs`` processes (see :func:`ordered_map`);
    the reports hold no record.

    Raises:
        qwirkle_tools.formats.sources.InputError: a path cannot be read.
    """
    return ordered_map(_sized_report, sources(paths), jobs)


def total_bytes(paths: Iterable[str | os.PathLike[str]]) -> int:
    """The size of every record file under ``paths`` (for a progress bar)."""
    return sum(f.stat().st_size for f in input_files(paths))


def _position(seat: int, first: int | None, players: int) -> int | None:
    """A seat's place in the turn order (1 for the ``first`` seat to move)."""
    return (seat - first) % players + 1 if first is not None else None


__all__ = ["FINDING_COLUMNS", "GAME_COLUMNS", "TURN_COLUMNS", "GameRows", "game_rows",
           "ordered_map", "report", "reports", "run", "total_bytes"]
