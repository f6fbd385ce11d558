"""The text and tables of ``qwirkle report``: a summary and a per-turn CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from .analysis import Analysis, summary_text
from .findings import Finding
from .record import Record
from .rescore import rescore

CSV_COLUMNS = ("turn", "player", "name", "action", "tiles", "claimed", "computed", "breakdown",
               "best_score", "points_lost", "rank", "moves", "rack", "flags")


def turn_table_csv(record: Record, analysis: Analysis) -> str:
    """One row per turn: the re-scoring and the analysis, plus running totals."""
    rows = rescore(record)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    names = [p.name for p in record.players]
    writer.writerow([*CSV_COLUMNS, *(f"total {n}" for n in names)])
    for row, ta in zip(rows, analysis.turns):
        writer.writerow([
            row.turn, row.player, row.name, row.action, row.tiles,
            "" if row.claimed is None else row.claimed, "" if row.computed is None else row.computed, row.breakdown,
            "" if ta.best_score is None else ta.best_score, "" if ta.points_lost is None else ta.points_lost,
            "" if ta.rank is None else ta.rank, "" if ta.moves is None else ta.moves, ta.rack, " ".join(ta.flags),
            *row.totals,
        ])
    return out.getvalue()


def summary(name: str, record: Record, findings: Sequence[Finding], analysis: Analysis) -> str:
    """The report's summary: result, validity, re-scoring and analysis."""
    rows = rescore(record)
    totals = rows[-1].totals if rows else tuple(0 for _ in record.players)
    players = [p.name for p in record.players]
    if len(players) == 2:
        score = f"{players[0]} {totals[0]} - {totals[1]} {players[1]}"
    else:
        score = ", ".join(f"{n} {t}" for n, t in zip(players, totals))
    end = record.result.end if record.result is not None and record.result.end else "not recorded"
    errors = [f for f in findings if f.severity == "error"]
    warnings = [f for f in findings if f.severity == "warning"]
    lines = [f"{name}: {score} (computed; end: {end}), {len(record.turns)} turns"]
    if not findings:
        lines.append("valid: no findings")
    else:
        lines.append(f"{'invalid' if errors else 'valid'}: {len(errors)} errors, {len(warnings)} warnings")
        for f in list(findings)[:10]:
            lines.append(f"  {f}")
        if len(findings) > 10:
            lines.append(f"  ... and {len(findings) - 10} more (qwirkle validate lists them all)")
    differ = sum(r.differs for r in rows)
    lines.append(f"re-scoring: {differ} claimed turn score{'s' if differ != 1 else ''} differ from the computed ones")
    lines.append(summary_text(analysis))
    return "\n".join(lines)
