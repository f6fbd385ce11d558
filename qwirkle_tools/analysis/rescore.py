"""Re-scoring: a per-turn table of claimed and computed scores, and a
corrected copy of the record.

Built on a replay's :class:`~qwirkle_tools.play.engine.History`; nothing here
decides a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core.safetext import one_line
from ..core.text import cut, plural
from ..formats.record import Record, Result, turn_text
from ..play.engine import History, replay


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


@dataclass(frozen=True, slots=True)
class Rescoring:
    """A record re-scored: a row per turn and the computed totals.

    ``claimed_totals`` are the result's scores, if the record gives them.
    """

    players: tuple[str, ...]
    rows: tuple[ScoreRow, ...]
    totals: tuple[int, ...]
    claimed_totals: tuple[int, ...] | None

    @property
    def differences(self) -> int:
        """How many claimed turn scores differ from the computed ones."""
        return sum(r.differs for r in self.rows)

    @property
    def wrong(self) -> bool:
        """Whether a claimed turn score or the claimed result is wrong."""
        return bool(self.differences) or (self.claimed_totals is not None and self.claimed_totals != self.totals)

    def to_data(self) -> dict[str, object]:
        return {"players": list(self.players), "turns": [r.to_data() for r in self.rows], "totals": list(self.totals)}

    def text(self) -> str:
        """The table as text, differences marked with ``!``."""
        names = [one_line(n) for n in self.players]  # names from a record: one clean line each
        head = f"{'turn':>4}  {'player':<10} {'action':<8} {'tiles':<32} {'claim':>5} {'calc':>5}   " + \
            "  ".join(f"{n[:8]:>8}" for n in names) + "  breakdown"
        out = [head]
        for r in self.rows:
            claim = "" if r.claimed is None else str(r.claimed)
            calc = "" if r.computed is None else str(r.computed)
            mark = "!" if r.differs else " "
            tiles = cut(r.tiles, 32)
            out.append((
                f"{r.turn:>4}  {one_line(r.name)[:10]:<10} {r.action:<8} {tiles:<32} {claim:>5} {calc:>5} {mark} "
                + "  ".join(f"{t:>8}" for t in r.totals) + f"  {r.breakdown}").rstrip()
            )
        diffs = self.differences
        out.append("final: " + ", ".join(f"{n} {t}" for n, t in zip(names, self.totals))
                   + f"; {diffs} {plural(diffs, 'turn score differs', 'turn scores differ')}" + self._totals_text(names))
        return "\n".join(out)

    def _totals_text(self, names: list[str]) -> str:
        """``; the total written for Ana is 290, the turns add up to 295``: each claimed total that is wrong."""
        claimed = self.claimed_totals
        if claimed is None or claimed == self.totals:
            return ""
        if len(claimed) != len(self.totals):
            return f"; the result gives {len(claimed)} totals for {len(self.totals)} players"
        wrong = [f"the total written for {n} is {c}, the turns add up to {t}"
                 for n, c, t in zip(names, claimed, self.totals) if c != t]
        return "; " + "; ".join(wrong)


def rescore(game: Record | History) -> Rescoring:
    """A record (or its replay) re-scored, one row per turn."""
    history = game if isinstance(game, History) else replay(game, positions=False)
    names = history.players
    rows = []
    for result in history:
        turn = result.turn
        assert turn is not None  # a history holds only readable turns
        computed = result.computed
        rows.append(ScoreRow(
            turn=result.index + 1, player=turn.player, name=names[turn.player] if turn.player < len(names) else "?",
            action=turn.action, tiles=turn_text(turn), claimed=turn.score, computed=computed,
            breakdown=str(result.score) if computed is not None and turn.action == "place" else "",
            totals=result.totals,
        ))
    claim = history.record.result
    claimed = tuple(claim.scores) if claim is not None and claim.scores is not None else None
    return Rescoring(names, tuple(rows), history.totals, claimed)


def corrected(game: Record | History) -> Record:
    """A copy of the record whose turn scores and result are the computed ones.

    Score-sheet turns (tiles unknown) keep their claimed score; the result's
    end is kept as recorded.
    """
    history = game if isinstance(game, History) else replay(game, positions=False)
    record = history.record
    computed = {r.index: r.computed for r in history}
    turns = tuple(
        turn._replace(score=computed[i]) if computed.get(i) is not None else turn
        for i, turn in enumerate(record.turns)
    )
    old = record.result or Result()
    return replace(record, turns=turns, result=Result(history.totals, old.end, old.extra))
