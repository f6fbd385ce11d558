"""An endgame read from a record: the game before a turn with the bag empty (or any turn),
for :func:`~qwirkle_tools.engines.endgame.solve`, and the move the record played there."""

from __future__ import annotations

import dataclasses

from ..core.errors import QwirkleError
from ..core.findings import Finding
from ..core.pickling import Rebuilt, rebuilt
from ..core.text import count
from ..formats.record import Record, Turn
from ..play.engine import replay
from ..play.game import Game, Move


class NotAnEndgame(QwirkleError, ValueError):
    """The position is not one the solver takes: the bag is not empty, the game
    does not have two players, or it is over; or a record does not tell the
    position (its racks), or has no such turn."""


def position(record: Record, turn: int | None = None) -> tuple[Game, Move | None]:
    """The game and the move of :func:`start` (without the claims it set aside)."""
    found = start(record, turn)
    return found.game, found.played


@dataclasses.dataclass(frozen=True, slots=True)
class Start:
    """An endgame read from a record (:func:`start`): the game before the turn, the move
    the record played there (``None`` past its end), and the ``score-mismatch`` findings
    of the turns before it, whose claimed scores were set aside for the computed ones."""

    game: Game
    played: Move | None
    set_aside: tuple[Finding, ...]

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


def start(record: Record, turn: int | None = None) -> Start:
    """The game before turn ``turn`` (1-based) of a record, and the move the
    record played there; with no ``turn``, the first position with the bag
    empty. The record must tell every rack (see
    :meth:`Game.from_record <qwirkle_tools.play.game.Game.from_record>`). A claimed
    score that differs from the computed one is not the board: the game counts the
    computed score, and the finding is handed back (:attr:`Start.set_aside`).

    Raises:
        NotAnEndgame: the record has errors (other than claimed scores), does not
            tell the racks there, or has no turn ``turn``.
    """
    last = len(record.turns) + 1
    if turn is not None and not 1 <= turn <= last:
        raise NotAnEndgame(f"--turn {turn}: the record has {count(len(record.turns), 'turn')} "
                           f"(1 to {last}, {last} after the last)")
    if turn is None:
        history = replay(record)
        turn = next((k + 1 for k in range(len(record.turns) + 1) if history.state(k).bag == 0), None)
        if turn is None:
            raise NotAnEndgame("the bag does not empty in this record (or its size is not known)")
    before = dataclasses.replace(record, turns=record.turns[:turn - 1], result=None)
    replayed = replay(before, positions=False)
    claims = tuple(f for f in replayed.findings if f.code == "score-mismatch")
    if claims:
        computed = {r.index: r.computed for r in replayed}
        wrong = {f.turn - 1 for f in claims if f.turn is not None}
        before = dataclasses.replace(before, turns=tuple(
            t._replace(score=computed[i]) if i in wrong and computed.get(i) is not None else t
            for i, t in enumerate(before.turns)))
    try:
        game = Game.from_record(before)
    except ValueError as exc:
        raise NotAnEndgame(f"before turn {turn}: {exc}") from None
    return Start(game, _move(record.turns[turn - 1]) if turn <= len(record.turns) else None, claims)


def _move(turn: Turn) -> Move | None:
    if turn.action == "place":
        return Move.place(turn.tiles) if turn.tiles is not None else None
    if turn.action == "exchange":
        return Move.exchange(turn.exchanged) if turn.exchanged is not None else None
    return Move.pass_turn()
