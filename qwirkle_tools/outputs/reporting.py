"""``qwirkle report``: a game validated, re-scored and analysed, as a set of files.

:func:`build` replays the record once and derives everything from that one
:class:`~qwirkle_tools.play.engine.History`: the findings, the re-scoring, the
analysis, the charts and the final board. It returns the files' contents;
writing them is the caller's (the CLI's) business.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass

from ..analysis.analyse import Analysis, analyse
from ..analysis.annotation import annotated, summary_text
from ..analysis.rescore import Rescoring, rescore
from ..analysis.verdicts import MOVETIME_MS
from ..core.findings import Finding
from ..core.safetext import csv_cell, one_line
from ..core.text import count, plural
from ..formats.record import Record, dumps
from ..formats.sources import Loaded
from ..play.engine import History, replay

CSV_COLUMNS = ("turn", "player", "name", "action", "tiles", "claimed", "computed", "breakdown",
               "best_score", "points_lost", "rank", "moves", "rack", "flags", "open_fives", "open_five_risk",
               "value_lost")

FILES = ("annotated.json", "summary.txt", "turns.csv", "progression.png", "lead.png", "turns.png", "win-chance.png",
         "board.png", "game.html")
"""The files a report may hold, in the order they are written; ``win-chance.png`` only for a
two-player game with a turn judged (:mod:`qwirkle_tools.outputs.winchart`), ``board.png``
only when the final board is known. ``game.html`` is the game in the
browser (see :mod:`qwirkle_tools.outputs.viewer`)."""


def turn_table_csv(rescoring: Rescoring, analysis: Analysis) -> str:
    """One row per turn: the re-scoring and the analysis, plus running totals."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*CSV_COLUMNS, *(csv_cell(f"total {n}") for n in rescoring.players)])
    for row, ta in zip(rescoring.rows, analysis.turns):
        writer.writerow([csv_cell(cell) for cell in [
            row.turn, row.player, row.name, row.action, row.tiles,
            "" if row.claimed is None else row.claimed, "" if row.computed is None else row.computed, row.breakdown,
            "" if ta.best_score is None else ta.best_score, "" if ta.points_lost is None else ta.points_lost,
            "" if ta.rank is None else ta.rank, "" if ta.moves is None else ta.moves, ta.rack, " ".join(ta.flags),
            len(ta.open_fives), "" if ta.open_five_risk is None else f"{ta.open_five_risk:.4f}",
            "" if ta.verdict is None else f"{ta.verdict.value_lost:.2f}",
            *row.totals,
        ]])
    return out.getvalue()


def summary(name: str, history: History, rescoring: Rescoring, analysis: Analysis) -> str:
    """The report's summary: result, validity, re-scoring and analysis."""
    record = history.record
    findings: tuple[Finding, ...] = history.findings
    totals = rescoring.totals
    players = [one_line(p) for p in rescoring.players]  # names from a record: one clean line each
    name = one_line(name)
    if len(players) == 2:
        score = f"{players[0]} {totals[0]} - {totals[1]} {players[1]}"
    else:
        score = ", ".join(f"{n} {t}" for n, t in zip(players, totals))
    end = record.result.end if record.result is not None and record.result.end else "not recorded"
    errors = [f for f in findings if f.is_error]
    warnings = [f for f in findings if not f.is_error]
    lines = [f"{name}: {score} (computed; end: {end}), {count(len(record.turns), 'turn')}"]
    if not findings:
        lines.append("valid: no findings")
    else:
        lines.append(f"{'invalid' if errors else 'valid'}: {count(len(errors), 'error')}, {count(len(warnings), 'warning')}")
        for f in list(findings)[:10]:
            lines.append(f"  {f}")
        if len(findings) > 10:
            lines.append(f"  ... and {len(findings) - 10} more (qwirkle validate lists them all)")
    differ = rescoring.differences
    claims = plural(differ, "claimed turn score differs", "claimed turn scores differ")
    lines.append(f"re-scoring: {differ} {claims} from the computed ones")
    lines.append(summary_text(analysis))
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Report:
    """A finished report: the summary text, the files by name, and whether
    the record is valid (no finding of severity error)."""

    summary: str
    files: dict[str, bytes]
    valid: bool


def build(record: Record, name: str, engine: str = "greedy", reading: Loaded | None = None,
          movetime_ms: int = MOVETIME_MS, progress: Callable[[int, int], None] | None = None) -> Report:
    """The report of ``record`` (``name`` heads the summary and the page; the pictures'
    titles name the players): every file of :data:`FILES`, from one replay; analysed with
    ``engine`` (:func:`~qwirkle_tools.analysis.analyse.analyse`'s), whose
    verdicts the annotated record, the table, the summary and the page carry; ``reading``:
    the file it was read from, for the page's findings (see :func:`~qwirkle_tools.outputs.viewer.page_data`);
    ``movetime_ms``: the engine's time a turn; ``progress``: told ``(turns done, turns)`` as the analysis goes."""
    from . import charts
    from .pictures import board_figure, board_view, game_title
    from .viewer import page

    history = replay(record)
    analysis = analyse(history, engine, movetime_ms=movetime_ms, reuse=True,  # type: ignore[arg-type]  # (a name analyse checks)
                       progress=progress)
    rescoring = rescore(history)
    text = summary(name, history, rescoring, analysis)
    data = charts.progression_data(history, analysis)
    files = {
        "annotated.json": dumps(annotated(history, analysis)).encode("utf-8"),
        "summary.txt": (text + "\n").encode("utf-8"),
        "turns.csv": turn_table_csv(rescoring, analysis).encode("utf-8"),
        "progression.png": charts.render(charts.progression(data), "png"),
        "lead.png": charts.render(charts.lead(data), "png"),
        "turns.png": charts.render(charts.turns(data), "png"),
    }
    if any(t.win is not None for t in analysis.turns):
        from .winchart import win_chance

        files["win-chance.png"] = charts.render(win_chance(analysis, record.names, game_title(record.names)), "png")
    final = history.final
    if final is not None and final.board_known:
        view = board_view(history, analysis=analysis)
        title = f"{game_title(record.names)}: the final board"  # the players name the game, not the file
        files["board.png"] = charts.render(board_figure(view.board, view.last, title=title, open_cells=view.open_cells), "png")
    files["game.html"] = page(history, analysis, name, rescoring, reading).encode("utf-8")
    valid = not any(f.is_error for f in history.findings)
    return Report(text, files, valid)


__all__ = ["CSV_COLUMNS", "FILES", "Report", "build", "summary", "turn_table_csv"]
