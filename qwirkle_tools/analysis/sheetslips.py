"""Slips on a score sheet: totals that are wrong the way a pen makes them wrong, told once.

A sheet holds each turn's points and, in a last row, the totals written (:mod:`~qwirkle_tools.formats.sheets`).
Where the totals disagree with the cells, the replay says so once a player (``result-mismatch``).
Two of a pen's slips explain such a disagreement whole, and are then one ``slip`` finding in its
place: two cells of a row written in each other's column (the two players' totals off by the
same points, one up and one down, and a row whose two cells differ by just that), and a row left
out (every total more than its cells, none less). A single total written wrong stays what it is,
one finding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..core.findings import Finding, make, placed
from ..core.text import plural
from ..formats.record import Record


def sheet_slips(record: Record, findings: Sequence[Finding], places: Mapping[str, str]) -> list[Finding]:
    """``findings`` of a score sheet with its totals' mismatches told as one slip where one explains them
    (``places``: where each total is written, for the mismatches' messages)."""
    mismatched = placed([f for f in findings if f.code == "result-mismatch"], places)
    result = record.result
    n = len(record.players)
    if len(mismatched) < 2 or result is None or result.scores is None or len(result.scores) != n:
        return list(findings)
    cells: list[list[int]] = [[] for _ in range(n)]  # each player's points, turn by turn
    for turn in record.turns:
        if 0 <= turn.player < n:
            cells[turn.player].append(turn.score or 0)
    diff = [written - sum(points) for written, points in zip(result.scores, cells)]
    names = record.names
    told = _swapped(diff, cells, names) or _left_out(diff, cells, names)
    if told is None:
        return list(findings)
    kept = [f for f in findings if f.code != "result-mismatch"]
    return [*kept, make("slip", None, "/result/scores", f"{told}; as written: " + "; ".join(f.message for f in mismatched))]


def _swapped(diff: list[int], cells: list[list[int]], names: Sequence[str]) -> str | None:
    """Two players' cells of one row written in each other's column, if that makes every total add up."""
    off = [p for p, d in enumerate(diff) if d]
    if len(off) != 2 or diff[off[0]] != -diff[off[1]]:
        return None
    p, q = off
    rows = [r for r in range(min(len(cells[p]), len(cells[q]))) if cells[q][r] - cells[p][r] == diff[p]]
    if not rows:
        return None
    r = rows[0]
    also = f" (or the {_rounds(rows[1:])}, as good)" if len(rows) > 1 else ""
    return (f"two cells swapped? round {r + 1}: {names[p]}'s {cells[p][r]} and {names[q]}'s {cells[q][r]} read the other "
            f"way round make every total written add up{also}")


def _left_out(diff: list[int], cells: list[list[int]], names: Sequence[str]) -> str | None:
    """A row left out, if every total is more than its cells (none less, none by more than the most a
    cell of the sheet holds), and two or more are."""
    most = max((c for column in cells for c in column), default=0)
    if min(diff) < 0 or sum(1 for d in diff if d) < 2 or max(diff) > most:
        return None
    return ("a row left out? the totals written are more than their cells add up to: "
            + ", ".join(f"{n} by {d}" for n, d in zip(names, diff) if d))


def _rounds(rows: list[int]) -> str:
    shown = ", ".join(str(r + 1) for r in rows[:4]) + (", ..." if len(rows) > 4 else "")
    return f"{plural(len(rows), 'round')} {shown}"


__all__ = ["sheet_slips"]
