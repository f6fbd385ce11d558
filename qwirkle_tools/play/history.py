"""A record replayed once: every turn's result and the states between.

:func:`replay` plays a whole record leniently into a :class:`History`,
built once, which gives the state after any turn, the running scores, lead
changes, each seat's known rack and the unseen tiles from a seat's point of
view; :func:`check` is the same replay keeping only the findings (the
validator's path). Both are the engine's one loop,
:meth:`qwirkle_tools.play.replay.Replay.run`, keeping more or less.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..core.findings import Finding
from ..core.tiles import RACK_SIZE, each_copy
from ..formats.record import Record, Turn
from .replay import Replay
from .state import GameState, LeadChange, TurnResult


class History:
    """A record replayed once: every turn's result, and the states between.

    Iterating gives the :class:`TurnResult` of each readable turn in order.
    ``findings`` are all of them, the record's own (result, starter) last.
    """

    def __new__(cls, *args: object, **kwargs: object) -> History:  # (compiled: pickles, copies)
        return super().__new__(cls)

    def __init__(self, record: Record, initial: GameState, results: tuple[TurnResult, ...],
                 findings: tuple[Finding, ...], turns: Sequence[Turn | None] | None = None,
                 states: Sequence[GameState] | None = None) -> None:
        self.record = record
        self.initial = initial
        self.results = results
        self.findings = findings
        self.turns: tuple[Turn | None, ...] = tuple(record.turns if turns is None else turns)
        """Every turn replayed, in order; ``None`` where a turn could not be read
        (so ``turns[i]`` is turn ``i + 1`` even when ``results`` skip some)."""
        self._states = None if states is None else tuple(states)

    def __iter__(self) -> Iterator[TurnResult]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def __getitem__(self, index: int) -> TurnResult:
        return self.results[index]

    @property
    def players(self) -> tuple[str, ...]:
        return self.record.names

    @property
    def final(self) -> GameState | None:
        """The state after the last turn (``None`` if states were not kept)."""
        return self.results[-1].state if self.results else self.initial

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total after the last turn (setup scores included)."""
        return self.results[-1].totals if self.results else self.initial.scores

    def _repr_html_(self) -> str:
        """The game for Jupyter: the players and totals, the turns, how it
        ended, how many findings, and the final board as a picture (its last
        move outlined) where the board is known."""
        from html import escape

        from ..core.text import count
        from ..draw.svg import board_svg, score_line
        from .state import BOARD_UNKNOWN_WHY

        facts = [score_line(self.players, self.totals), count(len(self.turns), "turn")]
        if self.record.result is not None and self.record.result.end is not None:
            facts.append(f"end: {self.record.result.end}")
        errors = sum(1 for f in self.findings if f.is_error)
        facts.append(count(errors, "error") if errors else "no errors")
        final = self.final
        last = next((t for t in reversed(self.turns) if t is not None), None)
        if final is not None and final.board_known:
            picture = board_svg(final.board, (last.tiles or ()) if last is not None else ())
        else:
            picture = f"<p>The final board is not known: {escape(BOARD_UNKNOWN_WHY)}.</p>"
        return f'<div class="qwirkle-game"><p><b>{escape(" · ".join(facts))}</b></p>{picture}</div>'

    def state(self, turns_played: int) -> GameState:
        """The state after ``turns_played`` turns (0: the starting position),
        counting unreadable turns too (after one, what it may have changed is
        not known)."""
        if not 0 <= turns_played <= len(self.turns):
            raise IndexError(f"no state after {turns_played} turns: the record has {len(self.turns)}")
        if turns_played == 0:
            return self.initial
        if self._states is None:
            raise ValueError("this history was replayed without states (positions=False)")
        return self._states[turns_played]

    def before(self, index: int) -> GameState:
        """The state in which turn ``index`` (0-based) was played."""
        return self.state(index)

    def lead_changes(self) -> tuple[LeadChange, ...]:
        """The turns after which a player leads alone where another led before:
        a tie does not end a lead, and the first player to lead is no change."""
        changes: list[LeadChange] = []
        leader = sole_leader(self.initial.scores)
        for r in self.results:
            now = sole_leader(r.totals)
            if now is not None and now != leader:
                if leader is not None:
                    changes.append(LeadChange(r.index + 1, now))
                leader = now
        return tuple(changes)

    def known_rack(self, index: int) -> tuple[list[int] | None, str]:
        """The whole rack of the player to move at turn ``index`` (0-based),
        if known, and how: ``"recorded"`` (the turn gives it), ``"deduced"``
        (carried over from earlier racks and draws, or, in a two-player game
        with an empty bag, the tiles neither on the board nor in the
        opponent's known rack), else ``(None, "unknown")``."""
        turn = self.turns[index]
        if turn is None:
            return None, "unknown"
        p = turn.player
        if turn.rack is not None and len(turn.rack) <= RACK_SIZE:  # (a longer one is not read: too-many-tiles)
            return list(turn.rack), "recorded"
        state = self.before(index)
        racks = state.racks
        rack = racks[p] if 0 <= p < len(racks) else None
        if rack is not None:
            return list(rack), "deduced"
        if len(racks) == 2 and 0 <= p < 2 and state.bag == 0 and state.board_known:
            other = racks[1 - p]
            if other is not None:
                tiles = each_copy(state.unseen(1 - p))
                size = state.rack_sizes[p]
                if size is None or size == len(tiles):
                    return tiles, "deduced"
        return None, "unknown"


def sole_leader(totals: Sequence[int]) -> int | None:
    """The seat with the highest total, if no one else has it."""
    if not totals:
        return None
    top = max(totals)
    return totals.index(top) if totals.count(top) == 1 else None


def replay(record: Record, turns: Sequence[Turn | None] | None = None, positions: bool = True) -> History:
    """``record`` played leniently, once, into a :class:`History`.

    ``turns`` may replace the record's turns with a list in which unreadable
    turns are ``None`` (see :func:`qwirkle_tools.formats.record.from_data_lenient`);
    those turns have no result. ``positions=False`` keeps no state per turn
    (for tables over many games: the totals, points and Qwirkles are there).
    """
    game = Replay.from_record(record)
    initial = game.state()
    played = record.turns if turns is None else turns
    results: list[TurnResult] = []
    states = [initial] if positions else None
    game.run(played, results, states)
    game.finish(record)
    return History(record, initial, tuple(results), tuple(game.all_findings()), played, states)


def check(record: Record, turns: Sequence[Turn | None] | None = None) -> list[Finding]:
    """Every finding of ``record``, in record order: :func:`replay` without
    keeping anything but the findings (the validator's path)."""
    game = Replay.from_record(record)
    game.run(record.turns if turns is None else turns)
    game.finish(record)
    return game.all_findings()


__all__ = ["History", "check", "replay", "sole_leader"]
