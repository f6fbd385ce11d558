"""The analysis written out: the flags in words, the annotation a record carries (its
``analysis`` objects), the JSON of ``annotate --format json`` and the summary it prints."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..core.board import format_move
from ..core.safetext import one_line
from ..core.text import UNKNOWN, count, count_known, plural
from ..engines.solution import result_text
from ..formats.record import Record
from ..play.engine import History
from .analyse import Analysis, PlayerSummary, TurnAnalysis, analyse
from .inference import SAMPLES
from .winchance import CLASSES


def flag_details(t: TurnAnalysis) -> tuple[tuple[str, str], ...]:
    """Each flag of a turn with what it means there, e.g.
    ``("missed-qwirkle", "rd@1,-4 bd@2,-4 makes 1 Qwirkle, 12 points")``."""
    out = []
    for flag in t.flags:
        if flag == "missed-qwirkle" and t.missed_qwirkle is not None:
            m = t.missed_qwirkle
            detail = f"{format_move(m.tiles)} makes {m.qwirkles} {plural(m.qwirkles or 0, 'Qwirkle')}, {m.score} points"
        elif flag == "could-place" and t.best is not None:
            detail = f"{t.action} while {format_move(t.best.tiles)} scores {t.best_score}"
        elif flag == "open-five":
            chance = "" if t.open_five_risk is None else f"; the next player holds one with chance {t.open_five_risk:.0%}"
            detail = "; ".join(f"a line of five open for {f.missing} ({f.unseen} unseen)" for f in t.open_fives) + chance
        elif flag == "better-move" and t.verdict is not None and t.verdict.best is not None:
            la = t.verdict
            detail = (f"{format_move(t.verdict.best.tiles)} scores {la.best_score}, value {la.best_value:.1f}; "
                      f"the move played is worth {la.played_value:.1f} ({la.value_lost:.1f} lost)")
        elif flag == "same-tiles" and t.same_tiles is not None:
            detail = t.same_tiles.text()
        elif flag == "decisive" and t.decisive is not None:
            detail = t.decisive.text()
        elif flag == "inferred-loss" and t.inferred is not None:
            detail = t.inferred.text()
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
    its version, the engine (:func:`~qwirkle_tools.analysis.recorded.recorded_engine` reads it back), what
    accuracy means, a summary per player, the flagged turns."""
    from ..version import __version__

    engine = next((t.verdict.engine for t in analysis.turns if t.verdict is not None), "greedy")
    return {
        "tool": TOOL, "version": __version__, "engine": engine, "accuracy": ACCURACY,
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


def _player_line(s: PlayerSummary) -> str:
    """A player's summary: what the racks recorded tell, then, where racks were not recorded, what the
    same tiles tell and what is inferred (a player with no rack known is not "accurate over 0 turns")."""
    missed = UNKNOWN if s.qwirkles_missed is None else s.qwirkles_missed
    known = ""
    if s.analysed_turns or (s.same_tiles is None and s.inferred is None):
        acc = "n/a" if s.accuracy is None else f"{100 * s.accuracy:.1f}%"
        known = (f", accuracy {acc} over {count(s.analysed_turns, 'turn')}, "
                 f"{count_known(s.points_lost, 'point')} lost")
    unrecorded = []
    if s.same_tiles is not None:
        unrecorded.append(f"with the same tiles, {count(s.same_tiles[0], 'point')} more over "
                          f"{count(s.same_tiles[1], 'turn')}")
    if s.inferred is not None:
        unrecorded.append(f"inferred, {s.inferred[0]:.1f} points lost expected over {count(s.inferred[1], 'turn')} "
                          f"({SAMPLES} racks drawn a turn)")
    blunders, mistakes, inaccuracies = s.classes
    classes = (f", by win chance {count(blunders, 'blunder')}, {count(mistakes, 'mistake')}, "
               f"{inaccuracies} {plural(inaccuracies, 'inaccuracy', 'inaccuracies')}") if any(s.classes) else ""
    return (f"{one_line(s.name)}: {count(s.score, 'point')}{known}, {count_known(s.qwirkles_made, 'Qwirkle')} made, "
            f"{missed} missed, {count_known(s.gifts_given, 'gift')}, {count_known(s.open_fives, 'open five')}"
            + ("" if s.value_lost is None else f", {s.value_lost:.1f} value lost") + classes
            + (f"; the racks not recorded: {'; '.join(unrecorded)}" if unrecorded else ""))


MOMENT = 0.10
"""The least win chance a player's worst turn must lose to be one of the game's decisive moments."""


def decisive_moments(analysis: Analysis) -> list[TurnAnalysis]:
    """The turns that decided the game, in turn order: each player's turn that lost the most win chance
    (at least :data:`MOMENT`: a mistake or worse), and every endgame move proven to change the result."""
    worst: dict[int, TurnAnalysis] = {}
    for t in analysis.turns:
        if t.win is not None and t.win.lost >= MOMENT - 1e-9:
            seen = worst.get(t.player)
            if seen is None or seen.win is None or t.win.lost > seen.win.lost:
                worst[t.player] = t
    named = {t.turn: t for t in worst.values()} | {t.turn: t for t in analysis.turns if t.decisive is not None}
    return [named[n] for n in sorted(named)]


def _moment(t: TurnAnalysis, names: Sequence[str]) -> str:
    """``turn 63 (Ana: it turns a win by 1 into a loss by 2)``, ``turn 2 (Ben: 16 points of win chance lost)``."""
    who = one_line(names[t.player]) if t.player < len(names) else f"seat {t.player}"
    if t.decisive is not None:
        return f"turn {t.turn} ({who}: it turns a {result_text(t.decisive.best)} into a {result_text(t.decisive.played)})"
    assert t.win is not None
    return f"turn {t.turn} ({who}: {100 * t.win.lost:.0f} points of win chance lost{', inferred' if t.win.inferred else ''})"


def summary_text(analysis: Analysis) -> str:
    """The readable summary the ``annotate`` command prints."""
    lines = []
    for s in analysis.players:
        lines.append(_player_line(s))
    flags = list(iter_flags(analysis))
    turns = len(analysis.flagged)  # a turn may carry several flags: the count is of turns, each flag a line
    lines.append(f"flagged turns: {turns if turns else 'none'}"
                 + (f" ({count(len(flags), 'flag')})" if len(flags) != turns else ""))
    lines.extend(f"  {line}" for line in flags)
    blunders = [t for t in analysis.turns if t.win is not None and t.win.kind == "blunder"]
    if blunders:
        lines.append(f"blunders (a win chance lost of {100 * CLASSES[0][1]:.0f} points or more): "
                     + ", ".join(f"turn {t.turn} ({100 * t.win.lost:.0f}{', inferred' if t.win.inferred else ''})"
                                 for t in blunders if t.win is not None))
    moments = decisive_moments(analysis)
    if moments:
        names = [p.name for p in analysis.players]
        lines.append("decisive moments: " + ", ".join(_moment(t, names) for t in moments))
    lines.extend(analysis.notes)
    return "\n".join(lines)


__all__ = ["ACCURACY", "MOMENT", "TOOL", "analysis_data", "decisive_moments",
           "annotated", "flag_details", "iter_flags", "summary_data", "summary_text"]
