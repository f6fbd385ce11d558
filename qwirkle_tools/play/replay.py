"""A record replayed turn by turn, however little it says: the validator's engine.

:class:`Replay` owns the board, the :class:`~qwirkle_tools.play.ledger.Ledger`
(what is known of the racks and the bag), the turn order and the end.
:meth:`Replay.play` plays one turn. A game is strict or lenient, as
python-chess's ``Board.push_san`` and ``pgn.read_game`` are:

* **strict** (``Replay(..., strict=True)``, the default): a turn that breaks a
  rule raises :class:`IllegalMoveError`, naming the turn, the placement and
  the reason, and leaves the game as it was before that turn;
* **lenient**: every problem is recorded as a :class:`~qwirkle_tools.core.findings.Finding`
  in :attr:`Replay.findings` and the game carries on (an illegal move's tiles
  stay on the table, as they would on a real one). This is the validator.

:meth:`Replay.run` is the one replay loop: :func:`~qwirkle_tools.play.history.replay`
(a whole record into a :class:`~qwirkle_tools.play.history.History`) and
:func:`~qwirkle_tools.play.history.check` (the findings only) are built on
it, and so is a strict game's return to before a refused turn.

The engine checks whatever the record makes checkable and never invents
what it does not say. It tracks:

* the board (placement legality needs every earlier placement: after a
  score-sheet turn whose tiles are unknown, placements are no longer checked);
* the bag's tile count, known while every turn says how many tiles it took,
  and its tiles while a setup lists them and every draw is recorded;
* each rack as the tiles known to be in it plus its size, when known;
* how many of each tile are on the board, in known racks and in a known bag
  (at most 3).

A rack is compared with the recorded one only as far as it is known, and a
pass is judged by the rack only when the whole rack is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..core.board import STEP_X, STEP_Y, Board, Placement, cell_key, cell_text
from ..core.findings import Finding
from ..core.lines import fault, walk
from ..core.rules import DEFAULT_RULES, Judgement, Rules, dead, explain, judge_placed, playable_tile
from ..core.text import count, cut
from ..core.tiles import COPIES, RACK_SIZE, TILE_COUNT, TILES, largest_group, tile_names
from ..formats.record import Record, Setup, Turn, turn_text
from .ledger import Ledger, opening_problem, pass_problem, set_bag, set_racks
from .state import GameState, IllegalMoveError, Notes, TurnResult, qwirkles


class Replay:
    """A game in progress (see the module's notes for strict and lenient play).

    Build it from a record's frame with :meth:`from_record`, or from the
    players, the rules and an optional starting position. The setup is
    checked at once: in a strict game a wrong setup raises.
    """

    def __new__(cls, *args: object, **kwargs: object) -> Replay:  # (compiled: pickles, copies)
        return super().__new__(cls)

    def __init__(self, players: int | Sequence[str], rules: Rules = DEFAULT_RULES, setup: Setup | None = None,
                 strict: bool = True, record: Record | None = None) -> None:
        self.names: tuple[str, ...] | None = None if isinstance(players, int) else tuple(players)
        self.n = n = players if isinstance(players, int) else len(players)
        self.rules = rules
        self.strict = strict
        self.setup = setup
        self.turns_played = 0
        self.cells: dict[int, int] = {}
        self.board_known = True
        self.totals = [0] * n
        self.claimed = [0] * n
        self.told = [0] * n  # each player's claimed less computed points over the turns told as score-mismatch
        self.told_at: list[int | None] = [None] * n  # where each player's last score-mismatch is in the findings kept
        self.totals_known = True
        self.expected: int | None = None
        self.ended: str | None = None
        self.opening: dict[int, list[int]] = {}
        self.first_turn_player: int | None = None
        self.placed_any = False
        self.alive = False  # the position was found not dead since the last placement
        self.played: list[Turn] = []  # the turns played with play(), to rebuild the game after a refusal
        self.notes = Notes()
        self.findings = self.notes.kept
        self.ledger = Ledger([_seat_name(self.names, p) for p in range(n)], self.notes)
        self._record = record
        _set_up(self)
        if strict:
            self._refuse("setup: ")

    @classmethod
    def from_record(cls, record: Record, strict: bool = False) -> Replay:
        """A game at the record's starting position (its turns not played)."""
        return cls([p.name for p in record.players], record.rules, record.setup, strict, record)

    @property
    def dropped(self) -> int:
        """Findings past :data:`~qwirkle_tools.core.findings.MAX_FINDINGS`, counted only."""
        return self.notes.dropped

    @property
    def rack_total(self) -> int | None:
        """The sum of the rack sizes, while known (the ledger's)."""
        return self.ledger.rack_total

    def all_findings(self) -> list[Finding]:
        """:attr:`findings`, with a ``too-many-findings`` note when more were
        found than :data:`~qwirkle_tools.core.findings.MAX_FINDINGS` (those are not kept)."""
        return self.notes.all()

    def _refuse(self, what: str) -> None:
        """In a strict game, the first error found raises (the caller has put the game back)."""
        f = self.notes.error
        if f is not None:
            raise IllegalMoveError(f"{what}{f.code}: {f.message}", f)

    def state(self) -> GameState:
        """The state now (a snapshot: playing on does not change it)."""
        ledger = self.ledger
        return GameState(
            turns_played=self.turns_played,
            board=Board._wrap(dict(self.cells)),
            scores=tuple(self.totals),
            bag=ledger.bag,
            known=tuple(tuple(TILES[t] for t in k) for k in ledger.known),
            rack_sizes=tuple(ledger.size),
            ended=self.ended,
            board_known=self.board_known,
            to_move=self.expected,
        )

    # -- turns ---------------------------------------------------------------

    def play(self, turn: Turn, state: bool = True) -> TurnResult:
        """Play the next turn; its result, with the state after it (``state=False``:
        without, for a caller that keeps no states, such as self-play).

        Raises:
            IllegalMoveError: in a strict game, a turn that breaks a rule (the
                game is left as it was before it).
        """
        index = self.turns_played
        results: list[TurnResult] = []
        self.run((turn,), results, [] if state else None)
        if self.strict and self.notes.error is not None:
            f = self.notes.error
            self._rebuild()
            raise IllegalMoveError(f"turn {index + 1} ({f'{turn.action} {turn_text(turn)}'.rstrip()}): "
                                   f"{f.code}: {f.message}", f)
        self.played.append(turn)
        return results[0]

    def run(self, turns: Iterable[Turn | None], results: list[TurnResult] | None = None,
            states: list[GameState] | None = None) -> None:
        """Play ``turns`` on, leniently: the one replay loop. The result of
        each readable turn goes into ``results`` and the state after every
        turn (``None`` ones too: unreadable) into ``states``, where given."""
        notes = self.notes
        step = self._step
        for turn in turns:
            index = self.turns_played
            before = len(notes.kept) if results is not None else 0
            judgement, points, bonus, known = step(index, turn)
            state = None
            if states is not None:
                state = self.state()
                states.append(state)
            if results is not None and turn is not None:
                results.append(TurnResult(index, turn, points, qwirkles(judgement, turn, known), tuple(self.totals),
                                          tuple(notes.kept[before:]), state, judgement, bonus, known))

    def _rebuild(self) -> None:
        """Back to the state before the refused turn: the turns before it
        played again from the start (refusals are rare; saving the state
        before every turn would cost every game)."""
        game = Replay(self.names if self.names is not None else self.n, self.rules, self.setup, False, self._record)
        game.run(self.played)
        game.strict = True
        game.played = self.played
        for name in _STATE:
            setattr(self, name, getattr(game, name))

    def copy(self) -> Replay:
        """An independent copy of the game, to try a line of play on."""
        other = Replay.__new__(Replay)
        for name in _STATE:
            setattr(other, name, getattr(self, name))
        notes = other.notes = Notes()
        notes.kept, notes.dropped, notes.error = list(self.notes.kept), self.notes.dropped, self.notes.error
        other.findings = notes.kept
        other.ledger = self.ledger.copy(notes)
        other.cells, other.totals, other.claimed = dict(self.cells), list(self.totals), list(self.claimed)
        other.told, other.told_at = list(self.told), list(self.told_at)
        other.opening = {p: list(r) for p, r in self.opening.items()}
        other.played = list(self.played)
        return other

    def _step(self, i: int, turn: Turn | None) -> tuple[Judgement | None, int, int, bool]:
        """Play turn ``i`` (0-based): its judgement (``None`` for no placement
        judged), points, end bonus, and whether its score is computed."""
        self.turns_played = n = i + 1
        base = f"/turns/{i}"
        if turn is None:  # unreadable: the schema finding says why; forget what it may change
            self.expected = None
            self.board_known = self.totals_known = False
            self.ledger.forget_all()
            return None, 0, 0, False
        p = turn.player
        action = turn.action
        if action != "place" and self.ended is None and not self.alive and self.board_known and self.cells:
            # only a placement changes whether the position is dead; look once after each
            if self._dead():
                self.ended = "blocked"
            else:
                self.alive = True
        if self.ended is not None:
            why = "blocked: no tile left in the game fits anywhere" if self.ended == "blocked" else self.ended
            self.notes.add("after-end", n, base, f"{action} recorded after the game ended ({why})")
            return None, 0, 0, False
        if not 0 <= p < self.n:
            self.notes.add("turn-order", n, f"{base}/player", f"seat {p} does not exist: the game has {count(self.n, 'player')}")
            self.expected = None
            self.totals_known = False
            return None, 0, 0, False
        if self.expected is not None and p != self.expected:
            self.notes.add("turn-order", n, f"{base}/player",
                           f"{self.ledger.who[p]} plays, but it is {self.ledger.who[self.expected]}'s turn")
        self.expected = (p + 1) % self.n
        if self.first_turn_player is None:
            self.first_turn_player = p
        ledger = self.ledger
        rack = turn.rack
        if rack is not None and len(rack) > RACK_SIZE and self.notes.too_many(rack, RACK_SIZE, n, f"{base}/rack",
                                                                               f"{ledger.who[p]}'s rack holds"):
            rack = None
            ledger.forget(p)
        if rack is not None and not (ledger.size[p] == len(rack) == len(ledger.known[p]) and ledger.known[p] == list(rack)):
            ledger.given_rack(n, base, p, rack)  # (skipped when the rack is the one expected, in order)
        if p not in self.opening:
            held = ledger.rack(p)
            self.opening[p] = list(held) if held is not None else []  # untouched until now
        judgement: Judgement | None = None
        bonus = 0
        if action == "place":
            judgement, bonus, computed = self._place(n, base, p, turn)
            self.placed_any = True
            self.alive = False
        else:
            if not self.cells and self.board_known and not self.placed_any:
                self._problem(n, base, opening_problem(ledger.who[p], action, 0, None))
            if action == "exchange":
                ledger.exchange(n, base, p, turn)
            else:
                on = self.board_known and self.ended is None
                self._problem(n, base, pass_problem(ledger.who[p], ledger.bag, self.cells if on else None, ledger.rack(p)))
            computed = 0
        if computed is not None:
            points = computed
            if turn.score is not None and turn.score != points and (judgement is None or judgement.legal):
                shown = str(judgement.score.with_end_bonus(bonus)) if judgement is not None else points
                kept = len(self.notes.kept)
                self.notes.add("score-mismatch", n, f"{base}/score",
                               f"{ledger.who[p]} claims {turn.score}, the turn scores {shown}")
                self.told[p] += turn.score - points
                self.told_at[p] = kept if len(self.notes.kept) > kept else None  # (None: past the cap, not kept)
        else:
            points = turn.score or 0
        self.totals[p] += points
        self.claimed[p] += turn.score if turn.score is not None else points
        ledger.peak[p] = list(ledger.seen)  # its turn over: its peaks start again from what is in sight now
        return judgement, points, bonus, computed is not None

    def _problem(self, n: int, base: str, problem: tuple[str, str, str] | None) -> None:
        if problem is not None:
            self.notes.add(problem[0], n, base + problem[1], problem[2])

    def _place(self, n: int, base: str, p: int, turn: Turn) -> tuple[Judgement | None, int, int | None]:
        """The judgement (``None`` where the board or tiles are not known), the
        end bonus, and the computed points (``None`` if unknown).

        An illegal move still scores by the usual count, so totals stay
        meaningful, but its claimed score is not compared with that count.
        """
        ledger = self.ledger
        tiles = _readable(self, n, base, p, turn)
        if tiles is None:  # a score-sheet turn: the board and bag are no longer known
            self.board_known = False
            ledger.bag = None
            ledger.forget_bag()
            ledger.forget(p)
            return None, 0, None
        if not self.cells and self.board_known:
            self._problem(n, base, opening_problem(ledger.who[p], "place", len(tiles), ledger.rack(p)))
        placed: list[int] = []
        keys: list[int] = []
        for pl in tiles:
            placed.append(pl.tile)
            keys.append(cell_key(pl.x, pl.y))
        for t in ledger.take(n, base, p, placed, "places"):  # newly seen tiles
            ledger.add_seen(t, n, f"{base}/tiles/{placed.index(t)}", "placed by", p)
        judgement = _lay(self.cells, tiles, keys, placed, self.rules, self.board_known)
        points: int | None = None
        if judgement is not None:
            for v in judgement.violations:
                self.notes.add(v.code, n, f"{base}/tiles" if v.index is None else f"{base}/tiles/{v.index}", v.message)
            points = judgement.points
        bag, size = ledger.bag, ledger.size[p]
        refill = len(tiles) if size is None else RACK_SIZE - size  # back up to six, as far as the bag holds
        ledger.draw(n, base, p, turn, None if bag is None else max(0, min(refill, bag)))
        bonus = 0
        if ledger.bag == 0:
            size = ledger.size[p]
            if size is None and points is not None and self.rules.end_bonus and turn.score == points + self.rules.end_bonus:
                size = ledger.size[p] = 0  # the rack's size was unknown: the claim says it emptied
            if size is not None:
                bonus = self.rules.end_points(size, 0)
                if size == 0:
                    self.ended = "out"
        return judgement, bonus, None if points is None else points + bonus

    # -- the end -------------------------------------------------------------

    def finish(self, record: Record) -> None:
        """Check the record's claimed result and starter against the game played.

        Raises:
            IllegalMoveError: in a strict game, a result that does not agree.
        """
        _check_starter(self, record)
        result = record.result
        if result is not None and result.scores is not None:
            _check_scores(self, result.scores)
        if result is not None and result.end is not None:
            _check_end(self, result.end)
        if self.strict:
            self._refuse("result: ")

    def _dead(self) -> bool:
        """Whether no tile left in the game (not all of whose copies are on the
        board) fits anywhere on it: a dead position."""
        counts = [0] * len(TILES)
        for t in self.cells.values():
            counts[t] += 1
        return dead(self.cells, [t for t, c in enumerate(counts) if c < COPIES])


# -- the starting board, and the record's claims checked against the game played --
# (functions of the game's facts that add findings to its notes: kept out of the class, which owns the turns)

_STATE = ("names", "n", "rules", "strict", "setup", "turns_played", "cells", "board_known", "totals", "claimed", "told",
          "told_at", "totals_known", "expected", "ended", "opening", "first_turn_player", "placed_any", "alive", "played",
          "notes", "findings", "ledger", "_record")
"""Every attribute of a :class:`Replay` (a test holds them all), which a copy or a rebuild takes."""


def _seat_name(names: Sequence[str] | None, p: int) -> str:
    """Seat ``p`` as messages name it: the player's name (cut) and the seat."""
    if names is None:
        return f"seat {p}"
    name = names[p]
    return f"{cut(name, 24)} (seat {p})"


def _set_up(game: Replay) -> None:
    """The setup read: its board, racks, scores and bag."""
    setup = game.setup
    whole = _setup_board(game, setup.board if setup is not None else ())
    racks_stated, racks_read = set_racks(game.ledger, setup)
    if setup is not None and setup.scores is not None:
        if len(setup.scores) != game.n:
            game.notes.add("bad-setup", None, "/setup/scores",
                           f"the setup gives {count(len(setup.scores), 'score')} for {count(game.n, 'player')}")
        else:
            game.totals = list(setup.scores)
            game.claimed = list(setup.scores)
    set_bag(game.ledger, setup, len(game.cells), racks_stated, whole and racks_read)


def _lay(cells: dict[int, int], tiles: Sequence[Placement], keys: list[int], placed: list[int], rules: Rules,
         judged: bool) -> Judgement | None:
    """Put a placement's tiles down (on free cells) and, when ``judged`` (the
    board is known), its judgement: the fast path for a legal move, the
    explaining one, on the board as it was, for an illegal one."""
    fresh = (len(keys) == 1 or len(set(keys)) == len(keys)) and cells.keys().isdisjoint(keys)
    if fresh:  # put the tiles down, then judge the move on the one board
        for k, t in zip(keys, placed):
            cells[k] = t
    judgement = None
    if judged:
        judgement = judge_placed(cells, tiles, keys, rules) if fresh else None
        if judgement is None:  # illegal (or on taken cells): judged again, for the reasons
            if fresh:  # on the board as it was (the tiles lifted, not the board copied: that costs n a turn)
                for k in keys:
                    del cells[k]
            try:
                judgement = explain(cells, tiles, rules)
            finally:
                if fresh:
                    cells.update(zip(keys, placed))
    if not fresh:
        for k, t in zip(keys, placed):
            if k not in cells:
                cells[k] = t
    return judgement


def _readable(game: Replay, n: int, base: str, p: int, turn: Turn) -> Sequence[Placement] | None:
    """A placement's tiles, or ``None`` where they are not known or not read."""
    tiles = turn.tiles
    if tiles is not None and len(tiles) > RACK_SIZE and game.notes.too_many(tiles, RACK_SIZE, n, f"{base}/tiles",
                                                                            f"{game.ledger.who[p]} places"):
        return None  # not read: as on a score-sheet turn, where the tiles are not known
    if tiles is not None and len(game.cells) + len(tiles) > TILE_COUNT:
        # only illegal moves get there; a board growing without bound would cost every state and walk
        if game.board_known:
            game.notes.add("too-many-tiles", n, f"{base}/tiles",
                           f"{game.ledger.who[p]}'s tiles would make {len(game.cells) + len(tiles)} on the board, more than "
                           f"the game's {TILE_COUNT}: not put down, and placements are no longer checked")
        return None
    return tiles


def _check_scores(game: Replay, scores: Sequence[int]) -> None:
    if len(scores) != game.n:
        game.notes.add("result-mismatch", None, "/result/scores",
                       f"the result gives {count(len(scores), 'score')} for {count(game.n, 'player')}")
    elif game.totals_known:
        for p, claimed in enumerate(scores):
            if claimed != game.totals[p]:
                if claimed == game.claimed[p] and claimed - game.totals[p] == game.told[p] and _told_with(game, p, claimed):
                    continue  # the total of the scores written: wrong only by the turns told, and said with them
                extra = (f" (the claimed turn scores add up to {game.claimed[p]})"
                         if game.claimed[p] != game.totals[p] else "")
                game.notes.add("result-mismatch", None, f"/result/scores/{p}",
                               f"the result gives {game.ledger.who[p]} {claimed}, the turns add up to {game.totals[p]}{extra}")


def _told_with(game: Replay, p: int, claimed: int) -> bool:
    """Says a total written that is the sum of the scores written, wrong only by turns already told
    as ``score-mismatch``, with the last of them; whether it could (the finding was kept)."""
    k = game.told_at[p]
    if k is None:
        return False
    kept = game.notes.kept
    off = claimed - game.totals[p]
    kept[k] = replace(kept[k], message=f"{kept[k].message}; so the total written, {claimed}, is {abs(off)} "
                                       f"{'more' if off > 0 else 'less'} than the turns add up to")
    return True


def _check_end(game: Replay, end: str) -> None:
    ledger = game.ledger
    bad = "bad-end", None, "/result/end"
    everything_known = ledger.bag is not None and all(s is not None for s in ledger.size)
    if end == "out" and game.ended != "out" and everything_known:
        game.notes.add(*bad, f"the result says a player went out, but no rack was emptied with the bag empty "
                       f"(bag {ledger.bag}, racks {', '.join(str(s) for s in ledger.size)})")
    elif end != "out" and game.ended == "out":
        game.notes.add(*bad, f"the result says {end}, but a player went out")
    elif end == "blocked" and game.ended is None:
        if not game.board_known:
            return
        is_dead = game._dead()
        if ledger.bag and not is_dead:
            game.notes.add(*bad, f"the result says blocked, but the bag still holds {count(ledger.bag, 'tile')}")
        elif not is_dead:
            for p in range(game.n):
                rack = ledger.rack(p)
                move = playable_tile(game.cells, rack) if rack is not None else None
                if move is not None:
                    game.notes.add(*bad, f"the result says blocked, but {game.ledger.who[p]} could place "
                                   f"{move.tile} at ({move.x},{move.y})")
                    break
    elif end == "unfinished" and game.ended is None and game.board_known and game.cells and game._dead():
        game.notes.add(*bad, "the result says unfinished, but no tile left in the game fits anywhere: "
                       "the game ended there, blocked")
    elif end == "unfinished" and game.ended == "blocked":
        game.notes.add(*bad, "the result says unfinished, but the game ended blocked (no tile left fits anywhere)")


def _check_starter(game: Replay, record: Record) -> None:
    first = game.first_turn_player
    if first is None or record.setup is not None or len(game.opening) < game.n:
        return
    mine = largest_group(game.opening[first]) if game.opening[first] else 0
    if not mine:
        return
    for p, rack in game.opening.items():
        if rack and largest_group(rack) > mine:
            game.notes.add("wrong-starter", 1, "/turns/0/player", f"{game.ledger.who[p]} opened with a group of "
                           f"{largest_group(rack)}, larger than {game.ledger.who[first]}'s {mine}")
            return


def _setup_board(game: Replay, board: Sequence[Placement]) -> bool:
    """The setup's board, its lines checked; whether it was read."""
    cells = game.cells
    notes = game.notes
    if notes.too_many(board, TILE_COUNT, None, "/setup/board", "the setup's board holds"):
        game.board_known = False
        return False
    for j, pl in enumerate(board):
        ptr = f"/setup/board/{j}"
        key = cell_key(pl.x, pl.y)
        if key in cells:
            notes.add("cell-occupied", None, ptr, f"setup puts {pl.tile} on {cell_text(key)}, where {TILES[cells[key]]} lies")
            continue
        cells[key] = pl.tile
        game.ledger.add_seen(pl.tile, None, ptr, "in the setup")
    faults: list[tuple[int, int, str, list[int]]] = []  # (first tile's index, step, code, tiles)
    first = {cell_key(pl.x, pl.y): j for j, pl in reversed(list(enumerate(board)))}
    for key, j in first.items():
        for step in (STEP_X, STEP_Y):
            if key - step in cells:
                continue  # each line is walked once, from its first cell (walks from every tile would cost n^2)
            _, tiles = walk(cells, key, step)
            code = fault(tiles)
            if code:
                line = range(key, key + len(tiles) * step, step)  # named by the first of its tiles in the setup
                faults.append((min(first.get(k, j) for k in line), step, code, tiles))
    for j, _, code, tiles in sorted(faults, key=lambda f: (f[0], -f[1])):
        notes.add(code, None, f"/setup/board/{j}", f"the setup holds an invalid line: {tile_names(tiles)}")
    return True


__all__ = ["Replay"]
