"""What an annotated record says of its own analysis: the engine it was annotated with, and
a turn's missed Qwirkle (for the pictures and the viewer, without analysing it again)."""

from __future__ import annotations

from ..core.board import Placement
from ..formats.record import Record, Turn
from .analyse import Engine
from .moves import recorded_placements
from .verdicts import ENGINES


def recorded_engine(record: Record) -> Engine:
    """The engine a record was annotated with (its ``analysis.engine``; in a record
    annotated before that was written, an engine's verdict in a turn's analysis),
    ``"greedy"`` when it names none or one this version does not know."""
    found = record.extra.get("analysis")
    named = found.get("engine") if isinstance(found, dict) else None
    if not isinstance(named, str):
        judged = (t.extra.get("analysis") for t in record.turns)
        named = next((name for a in judged if isinstance(a, dict) for name in ENGINES if name in a), None)
    return named if named in ENGINES else "greedy"  # type: ignore[return-value]


def recorded_missed_qwirkle(turn: Turn) -> tuple[Placement, ...]:
    """The missed Qwirkle an annotated turn records (see :meth:`TurnAnalysis.to_data`),
    or nothing when it records none or something unreadable."""
    found = turn.extra.get("analysis")
    missed = found.get("missed_qwirkle") if isinstance(found, dict) else None
    if not isinstance(missed, dict):
        return ()
    try:
        return recorded_placements(missed["tiles"])
    except (KeyError, TypeError, ValueError):
        return ()


__all__ = ["recorded_engine", "recorded_missed_qwirkle"]
