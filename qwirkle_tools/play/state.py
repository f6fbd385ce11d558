"""The values a game hands out: its state after some turns, a turn played, a lead change, the findings made.

Nothing here plays a turn. :class:`GameState` and :class:`LeadChange` are
frozen; :class:`TurnResult` is one turn's outcome, read-only by convention
(slots, no setters) because it is built on the replay's hot path.
:class:`Notes` collects a game's findings as data: the game and its ledger
add to it and never read each other through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.board import Board
from ..core.errors import QwirkleError
from ..core.findings import MAX_FINDINGS, Finding, capped, make
from ..core.pickling import Rebuilt, rebuilt
from ..core.rules import Judgement, ScoreBreakdown
from ..core.text import count
from ..core.tiles import COPIES, TILES
from ..formats.record import Rack, Turn

BOARD_UNKNOWN_WHY = ("an earlier turn's tiles are not recorded, could not be read, or would put more tiles "
                     "on the table than the game has")
"""Why a board is not known after some turn: what every message about it says."""


class IllegalMoveError(QwirkleError, ValueError):
    """A turn a strict game refuses; :attr:`finding` says why and where."""

    def __init__(self, message: str, finding: Finding) -> None:
        super().__init__(message)
        self.finding = finding


@dataclass(frozen=True, slots=True)
class GameState:
    """The game after some turns, as far as the record makes it known.

    ``known[p]`` are the tiles known to be in seat ``p``'s rack and
    ``rack_sizes[p]`` its size (``None`` if unknown); :attr:`racks` gives
    the whole rack where those agree. ``bag`` is ``None`` once the record
    no longer tells how many tiles are in it. ``board_known`` is false
    after a score-sheet turn (tiles not recorded). ``ended`` is ``"out"``
    or ``"blocked"`` once the game is over.
    """

    turns_played: int
    board: Board
    scores: tuple[int, ...]
    bag: int | None
    known: tuple[Rack, ...]
    rack_sizes: tuple[int | None, ...]
    ended: str | None
    board_known: bool = True
    to_move: int | None = None

    @property
    def racks(self) -> tuple[Rack | None, ...]:
        """Each seat's whole rack, or ``None`` where it is not all known."""
        return tuple(k if len(k) == s else None for k, s in zip(self.known, self.rack_sizes))

    def _repr_svg_(self) -> str | None:
        """The board as a picture, for Jupyter, the scores above it; ``None`` (no
        picture: the text form) where the board is not known."""
        if not self.board_known:
            return None
        from ..draw.svg import board_svg

        scores = " · ".join(map(str, self.scores))
        return board_svg(self.board, caption=f"after {count(self.turns_played, 'turn')}: scores {scores}")

    def unseen(self, seat: int) -> tuple[int, ...]:
        """How many of each of the 36 tiles seat ``seat`` has not seen: not on
        the board and not in its known rack (index: tile number)."""
        counts = [COPIES] * len(TILES)
        for t in self.board.cells.values():
            counts[t] -= 1
        if 0 <= seat < len(self.known):
            for t in self.known[seat]:
                counts[t] -= 1
        return tuple(max(0, c) for c in counts)

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class LeadChange:
    """The turn after which ``leader`` holds the lead alone, taken from another player."""

    turn: int
    leader: int

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


class TurnResult:
    """One turn played: its points, what was wrong, the state after.

    ``points`` is what the turn adds to the player's total (the computed
    score when the tiles are known, else the claimed one); ``qwirkles`` the
    lines of six it completed (``None`` where its tiles or the board are not
    known); ``totals`` every seat's total after it. :attr:`score` is the
    breakdown (with any end bonus), ``None`` where the tiles are not known.
    ``state`` is the whole state after the turn, ``None`` when the replay
    was asked not to keep states.
    """

    def __new__(cls, *args: object, **kwargs: object) -> TurnResult:  # (compiled: pickles, copies)
        return super().__new__(cls)

    __slots__ = ("index", "turn", "points", "qwirkles", "totals", "findings", "state", "_judgement", "_bonus",
                 "_known")

    def __init__(self, index: int, turn: Turn | None, points: int, qwirkles: int | None, totals: tuple[int, ...],
                 findings: tuple[Finding, ...], state: GameState | None, judgement: Judgement | None, bonus: int,
                 known: bool) -> None:
        self.index = index
        self.turn = turn
        self.points = points
        self.qwirkles = qwirkles
        self.totals = totals
        self.findings = findings
        self.state = state
        self._judgement = judgement
        self._bonus = bonus
        self._known = known

    @property
    def score(self) -> ScoreBreakdown | None:
        if self._judgement is not None:
            breakdown = self._judgement.score
            return breakdown.with_end_bonus(self._bonus) if self._bonus else breakdown
        return ScoreBreakdown() if self._known else None

    @property
    def bonus(self) -> int:
        """The end bonus the turn earned (0 if none)."""
        return self._bonus

    @property
    def computed(self) -> int | None:
        """The computed score, ``None`` on a turn whose tiles are not known."""
        return self.points if self._known else None

    def __repr__(self) -> str:
        return f"TurnResult(index={self.index}, points={self.points}, findings={len(self.findings)})"


def qwirkles(judgement: Judgement | None, turn: Turn | None, known: bool) -> int | None:
    """The Qwirkles a turn completed (see :attr:`TurnResult.qwirkles`)."""
    if judgement is not None:
        return judgement.qwirkles
    return 0 if known and turn is not None and turn.action != "place" else None


class Notes:
    """A game's findings as they are made, in order: the first
    :data:`~qwirkle_tools.core.findings.MAX_FINDINGS` kept, the rest only
    counted (a record broken on every turn would otherwise cost a finding a
    step), and the first error remembered, for a strict game to refuse."""

    def __new__(cls, *args: object, **kwargs: object) -> Notes:  # (compiled: pickles, copies)
        return super().__new__(cls)

    __slots__ = ("kept", "dropped", "error")

    def __init__(self) -> None:
        self.kept: list[Finding] = []
        self.dropped = 0
        self.error: Finding | None = None

    def add(self, code: str, turn: int | None, pointer: str, message: str) -> None:
        finding = make(code, turn, pointer, message)
        if self.error is None and finding.is_error:
            self.error = finding
        if len(self.kept) < MAX_FINDINGS:
            self.kept.append(finding)
        else:
            self.dropped += 1

    def too_many(self, items: Sequence[object], limit: int, turn: int | None, pointer: str, what: str) -> bool:
        """Whether a list of tiles is longer than the format allows (``limit``,
        the schema's maxItems for it): then one ``too-many-tiles`` finding, and
        the caller does not read the list (element by element, a list of a
        million tiles would cost a million steps and findings)."""
        if len(items) <= limit:
            return False
        self.add("too-many-tiles", turn, pointer,
                 f"{what} {count(len(items), 'tile')}, more than the {limit} the format allows: not read")
        return True

    def all(self) -> list[Finding]:
        """Every finding kept, with a ``too-many-findings`` note for those only counted."""
        return capped(self.kept, self.dropped)


__all__ = ["BOARD_UNKNOWN_WHY", "GameState", "IllegalMoveError", "LeadChange", "Notes", "TurnResult", "qwirkles"]
