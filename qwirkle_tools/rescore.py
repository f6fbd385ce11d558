"""Re-scoring: a per-turn table of claimed and computed scores, and a
corrected copy of the record.

Built on :func:`qwirkle_tools.replay.replay`; nothing here decides a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .record import Record, Result, Turn
from .replay import replay


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One turn of the re-scoring table.

    ``computed`` is ``None`` where the record does not say which tiles were
    placed (a score-sheet turn); ``totals`` are the running totals with the
    computed score where there is one, the claimed one otherwise.
    """

    turn: int
    player: int
    name: str
    action: str
    tiles: str
    claimed: int | None
    computed: int | None
    breakdown: str
    totals: tuple[int, ...]

    @property
    def differs(self) -> bool:
        return self.claimed is not None and self.computed is not None and self.claimed != self.computed

    def to_data(self) -> dict[str, object]:
        return {
            "turn": self.turn, "player": self.player, "name": self.name, "action": self.action,
            "tiles": self.tiles, "claimed": self.claimed, "computed": self.computed,
            "breakdown": self.breakdown, "differs": self.differs, "totals": list(self.totals),
        }


def _tiles_text(turn: Turn) -> str:
    if turn.tiles is not None:
        return " ".join(f"{p.tile.short}@{p.x},{p.y}" for p in turn.tiles)
    if turn.exchanged is not None:
        return " ".join(t.short for t in turn.exchanged)
    if turn.count is not None:
        return f"{turn.count} tiles"
    return ""


def rescore(record: Record) -> list[ScoreRow]:
    """The re-scoring table of ``record``, one row per turn."""
    rows = []
    for result in replay(record):
        turn = result.turn
        assert turn is not None  # replay() yields only readable turns
        known = result.score is not None and not (turn.action == "place" and turn.tiles is None)
        name = record.players[turn.player].name if turn.player < len(record.players) else "?"
        rows.append(ScoreRow(
            turn=result.index + 1, player=turn.player, name=name, action=turn.action,
            tiles=_tiles_text(turn), claimed=turn.score,
            computed=result.points if known else None,
            breakdown=str(result.score) if known and turn.action == "place" else "",
            totals=result.state.scores,
        ))
    return rows


def corrected(record: Record) -> Record:
    """A copy of ``record`` whose turn scores and result are the computed ones.

    Score-sheet turns (tiles unknown) keep their claimed score; the result's
    end is kept as recorded.
    """
    rows = rescore(record)
    turns = tuple(
        turn._replace(score=row.computed) if row.computed is not None else turn
        for turn, row in zip(record.turns, rows)
    )
    totals = rows[-1].totals if rows else tuple(0 for _ in record.players)
    old = record.result or Result()
    return replace(record, turns=turns, result=Result(tuple(totals), old.end, old.extra))


def table(record: Record, rows: list[ScoreRow]) -> str:
    """The table as text, differences marked with ``!``."""
    names = [p.name for p in record.players]
    head = f"{'turn':>4}  {'player':<10} {'action':<8} {'tiles':<32} {'claim':>5} {'calc':>5}   " + \
        "  ".join(f"{n[:8]:>8}" for n in names) + "  breakdown"
    out = [head]
    for r in rows:
        claim = "" if r.claimed is None else str(r.claimed)
        calc = "" if r.computed is None else str(r.computed)
        mark = "!" if r.differs else " "
        tiles = r.tiles if len(r.tiles) <= 32 else r.tiles[:29] + "..."
        out.append(
            f"{r.turn:>4}  {r.name[:10]:<10} {r.action:<8} {tiles:<32} {claim:>5} {calc:>5} {mark} "
            + "  ".join(f"{t:>8}" for t in r.totals) + f"  {r.breakdown}"
        )
    diffs = sum(r.differs for r in rows)
    totals = rows[-1].totals if rows else ()
    out.append("final: " + ", ".join(f"{n} {t}" for n, t in zip(names, totals))
               + f"; {diffs} turn score{'s' if diffs != 1 else ''} differ")
    return "\n".join(out)
