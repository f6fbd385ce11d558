"""The game engine: one game state, played turn by turn, and the history of a replay.

:class:`Game` holds a game in progress: the board, what is known of each
rack, the bag, the scores and the turn order. :meth:`Game.play` plays one
turn. A game is strict or lenient, as python-chess's ``Board.push_san`` and
``pgn.read_game`` are:

* **strict** (``Game(..., strict=True)``, the default): a turn that breaks a
  rule raises :class:`IllegalMoveError`, naming the turn, the placement and
  the reason, and leaves the game as it was before that turn;
* **lenient**: every problem is recorded as a :class:`~qwirkle_tools.core.findings.Finding`
  in :attr:`Game.findings` and the game carries on (an illegal move's tiles
  stay on the table, as they would on a real one). This is the validator.

:func:`replay` plays a whole record leniently into a :class:`History`, built
once, which gives the state after any turn, the running scores, lead
changes, each seat's known rack and the unseen tiles from a seat's point of
view; :func:`check` is the lean replay that only collects the findings.

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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..core.board import STEP_X, STEP_Y, Board, cell_text
from ..core.errors import QwirkleError
from ..core.findings import MAX_FINDINGS, Finding, capped, make
from ..core.lines import fault, walk
from ..core.rules import DEFAULT_RULES, Judgement, Rules, ScoreBreakdown, dead, explain, judge_placed, playable_tile
from ..core.text import count, cut
from ..core.tiles import COPIES, RACK_SIZE, TILE_COUNT, TILES, largest_group, tile_names
from ..formats.record import Rack, Record, Setup, Turn, turn_text

BOARD_UNKNOWN_WHY = ("an earlier turn's tiles are not recorded, could not be read, or would put more tiles "
                     "on the table than the game has")
"""Why a board is not known after some turn: what every message about it says."""


class IllegalMoveError(QwirkleError, ValueError):
    """A turn a strict :class:`Game` refuses; :attr:`finding` says why and where."""

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


@dataclass(frozen=True, slots=True)
class LeadChange:
    """The turn after which ``leader`` holds the lead alone, taken from another player."""

    turn: int
    leader: int


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
    def computed(self) -> int | None:
        """The computed score, ``None`` on a turn whose tiles are not known."""
        return self.points if self._known else None

    def __repr__(self) -> str:
        return f"TurnResult(index={self.index}, points={self.points}, findings={len(self.findings)})"


class _Refused(Exception):
    """Raised inside a strict game at the first error; :meth:`Game.play` turns it into an IllegalMoveError."""

    def __init__(self, finding: Finding) -> None:
        self.finding = finding


class Game:
    """A game in progress (see the module's notes for strict and lenient play).

    Build it from a record's frame with :meth:`from_record`, or from the
    players, the rules and an optional starting position. The setup is
    checked at once: in a strict game a wrong setup raises.
    """

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
        self.seen = [0] * len(TILES)
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.size: list[int | None] = [None] * n
        self.totals = [0] * n
        self.claimed = [0] * n
        self.totals_known = True
        self.expected: int | None = None
        self.ended: str | None = None
        self.opening: dict[int, list[int]] = {}
        self.first_turn_player: int | None = None
        self.placed_any = False
        self.findings: list[Finding] = []
        self.dropped = 0  # findings past MAX_FINDINGS, counted only
        # peak[p][t]: the most copies of t seen at once since p last drew, so a
        # rack revealed later is checked against the whole time it was held
        self.peak = [[0] * len(TILES) for _ in range(n)]
        self.bag: int | None = None
        self.bag_tiles: list[int] | None = None  # counts by tile, while the setup's list of them holds
        self.rack_total: int | None = None  # the sum of the rack sizes, while known
        self.alive = False  # the position was found not dead since the last placement
        self.played: list[Turn] = []  # the turns played with play(), to rebuild the game after a refusal
        self._record = record
        if strict:
            try:
                self._setup()
            except _Refused as refused:
                raise IllegalMoveError(f"setup: {refused.finding.code}: {refused.finding.message}",
                                       refused.finding) from None
        else:
            self._setup()

    @classmethod
    def from_record(cls, record: Record, strict: bool = False) -> Game:
        """A game at the record's starting position (its turns not played)."""
        return cls([p.name for p in record.players], record.rules, record.setup, strict, record)

    # -- helpers -------------------------------------------------------------

    def _find(self, code: str, turn: int | None, pointer: str, message: str) -> None:
        finding = make(code, turn, pointer, message)
        if self.strict and finding.severity == "error":
            raise _Refused(finding)
        if len(self.findings) < MAX_FINDINGS:
            self.findings.append(finding)
        else:  # a record broken on every turn: the rest are counted, not kept (see all_findings)
            self.dropped += 1

    def all_findings(self) -> list[Finding]:
        """:attr:`findings`, with a ``too-many-findings`` note when more were
        found than :data:`~qwirkle_tools.core.findings.MAX_FINDINGS` (those are not kept)."""
        return capped(self.findings, self.dropped)

    def _too_many(self, items: Sequence[object], limit: int, turn: int | None, pointer: str, what: str) -> bool:
        """Whether a list of tiles is longer than the format allows (``limit``,
        the schema's maxItems for it): then one ``too-many-tiles`` finding, and
        the caller does not read the list (element by element, a list of a
        million tiles would cost a million steps and findings)."""
        if len(items) <= limit:
            return False
        self._find("too-many-tiles", turn, pointer,
                   f"{what} {count(len(items), 'tile')}, more than the {limit} the format allows: not read")
        return True

    def _name(self, p: int) -> str:
        if self.names is None:
            return f"seat {p}"
        name = self.names[p]
        return f"{cut(name, 24)} (seat {p})"

    def _raise_peaks(self, t: int) -> None:
        count = self.seen[t]
        for peak in self.peak:
            if count > peak[t]:
                peak[t] = count

    def _add_seen(self, t: int, turn: int | None, pointer: str, how: str, p: int | None = None) -> None:
        """Count one more copy of ``t`` in sight; ``how`` (and seat ``p``) say how it came."""
        self.seen[t] += 1
        self._raise_peaks(t)
        if self.seen[t] == COPIES + 1:
            where = how if p is None else f"{how} {self._name(p)}"
            self._find("tile-overused", turn, pointer,
                       f"a 4th {TILES[t]} {where}: the game has only {COPIES}, "
                       "all already on the board or in known racks")

    def _forget(self, p: int, keep_size: bool = False) -> None:
        for t in self.known[p]:
            self.seen[t] -= 1
        self.known[p] = []
        if not keep_size:
            self.size[p] = None
            self.rack_total = None

    def _forget_bag(self) -> None:
        """The bag's tiles are no longer known (its count may still be)."""
        if self.bag_tiles is not None:
            for t, c in enumerate(self.bag_tiles):
                self.seen[t] -= c
            self.bag_tiles = None

    def _rack(self, p: int) -> list[int] | None:
        size = self.size[p]
        return self.known[p] if size is not None and len(self.known[p]) == size else None

    def _deduce_sizes(self) -> None:
        """With the sum of the rack sizes known, one unknown size follows from the others."""
        if self.rack_total is None:
            return
        unknown = [p for p in range(self.n) if self.size[p] is None]
        if len(unknown) == 1:
            rest = self.rack_total - sum(s for s in self.size if s is not None)
            if 0 <= rest <= RACK_SIZE:
                self.size[unknown[0]] = rest
        elif unknown and self.rack_total == 0:
            for p in unknown:
                self.size[p] = 0

    # -- the starting position -------------------------------------------------

    def _setup(self) -> None:
        setup = self.setup
        cells = self.cells
        board = setup.board if setup is not None else ()
        whole = True  # every list the setup gives was read
        if self._too_many(board, TILE_COUNT, None, "/setup/board", "the setup's board holds"):
            board = ()
            self.board_known = whole = False
        for j, pl in enumerate(board):
            ptr = f"/setup/board/{j}"
            key = pl.key
            if key in cells:
                self._find("cell-occupied", None, ptr, f"setup puts {pl.tile} on {cell_text(key)}, "
                           f"where {TILES[cells[key]]} lies")
                continue
            cells[key] = pl.tile
            self._add_seen(pl.tile, None, ptr, "in the setup")
        faults: list[tuple[int, int, str, list[int]]] = []  # (first tile's index, step, code, tiles)
        first = {pl.key: j for j, pl in reversed(list(enumerate(board)))}
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
            self._find(code, None, f"/setup/board/{j}", f"the setup holds an invalid line: {tile_names(tiles)}")
        n = self.n
        off = TILE_COUNT - len(cells)  # tiles in racks and bag
        racks_stated = setup is not None and setup.racks is not None
        if setup is not None and setup.racks is not None:
            if len(setup.racks) != n:
                self._find("bad-setup", None, "/setup/racks",
                           f"the setup gives {len(setup.racks)} racks for {n} players")
                racks_stated = False
            else:
                for p, rack in enumerate(setup.racks):
                    if isinstance(rack, int):
                        self.size[p] = rack
                        continue
                    if self._too_many(rack, RACK_SIZE, None, f"/setup/racks/{p}", f"the setup's rack of {self._name(p)} holds"):
                        whole = False
                        continue
                    for j, t in enumerate(rack):
                        self._add_seen(t, None, f"/setup/racks/{p}/{j}", "in the setup's rack of", p)
                    self.known[p] = list(rack)
                    self.size[p] = len(rack)
        if setup is not None and setup.scores is not None:
            if len(setup.scores) != n:
                self._find("bad-setup", None, "/setup/scores",
                           f"the setup gives {len(setup.scores)} scores for {n} players")
            else:
                self.totals = list(setup.scores)
                self.claimed = list(setup.scores)
        bag: int | None = None
        if setup is not None and setup.bag is not None:
            if isinstance(setup.bag, int):
                bag = setup.bag
            elif self._too_many(setup.bag, TILE_COUNT, None, "/setup/bag", "the setup's bag holds"):
                whole = False
            else:
                bag = len(setup.bag)
                self.bag_tiles = [0] * len(TILES)
                for j, t in enumerate(setup.bag):
                    self.bag_tiles[t] += 1
                    self._add_seen(t, None, f"/setup/bag/{j}", "in the setup's bag")
        sizes = self.size
        if not whole:  # a list not read: the sums of board, bag and racks tell nothing
            pass
        elif racks_stated:
            total = sum(s for s in sizes if s is not None)
            if bag is None:
                bag = off - total
                if bag < 0:
                    self._find("bad-setup", None, "/setup/racks",
                               f"the racks hold {total} tiles, but only {off} are off the board")
                    bag = None
            elif bag + total != off:
                self._find("bad-setup", None, "/setup/bag",
                           f"the board ({len(cells)}), the bag ({bag}) and the racks ({total}) hold "
                           f"{len(cells) + bag + total} tiles, not {TILE_COUNT}")
            if bag and any(s is not None and s < RACK_SIZE for s in sizes):
                self._find("bad-setup", None, "/setup/racks",
                           f"a rack holds fewer than {RACK_SIZE} tiles while the bag holds {bag}")
        else:
            rest = None if bag is None else off - bag
            if bag is None:
                bag = max(0, off - RACK_SIZE * n)
                rest = off - bag
            assert rest is not None
            if rest < 0 or rest > RACK_SIZE * n or (bag and rest != RACK_SIZE * n):
                self._find("bad-setup", None, "/setup/bag",
                           f"with {len(cells)} tiles on the board and {bag} in the bag, the {n} racks would hold "
                           f"{rest} tiles" + (f": while the bag holds tiles every rack holds {RACK_SIZE}" if bag else ""))
            elif rest == RACK_SIZE * n or rest == 0:
                for p in range(n):
                    sizes[p] = rest // n
            else:  # an empty bag and short racks: only their sum is known
                self.rack_total = rest
        self.bag = bag
        if racks_stated and self.bag == 0:
            self.rack_total = sum(s for s in sizes if s is not None) if None not in sizes else None

    def state(self) -> GameState:
        """The state now (a snapshot: playing on does not change it)."""
        return GameState(
            turns_played=self.turns_played,
            board=Board._wrap(dict(self.cells)),
            scores=tuple(self.totals),
            bag=self.bag,
            known=tuple(tuple(TILES[t] for t in k) for k in self.known),
            rack_sizes=tuple(self.size),
            ended=self.ended,
            board_known=self.board_known,
            to_move=self.expected,
        )

    # -- one turn ------------------------------------------------------------

    def play(self, turn: Turn, state: bool = True) -> TurnResult:
        """Play the next turn; its result, with the state after it (``state=False``:
        without, for a caller that keeps no states, such as self-play).

        Raises:
            IllegalMoveError: in a strict game, a turn that breaks a rule (the
                game is left as it was before it).
        """
        index = self.turns_played
        before = len(self.findings)
        if not self.strict:
            judgement, points, bonus, known = self._step(index, turn)
        else:
            try:
                judgement, points, bonus, known = self._step(index, turn)
            except _Refused as refused:
                self._rebuild()
                f = refused.finding
                raise IllegalMoveError(f"turn {index + 1} ({f'{turn.action} {turn_text(turn)}'.rstrip()}): "
                                       f"{f.code}: {f.message}", f) from None
        self.played.append(turn)
        return TurnResult(index, turn, points, _qwirkles(judgement, turn, known), tuple(self.totals),
                          tuple(self.findings[before:]), self.state() if state else None, judgement, bonus, known)

    def _rebuild(self) -> None:
        """Back to the state before the refused turn: the turns before it
        played again from the start (refusals are rare; saving the state
        before every turn would cost every game)."""
        game = Game(self.names if self.names is not None else self.n, self.rules, self.setup, False, self._record)
        for i, turn in enumerate(self.played):
            game._step(i, turn)
        game.strict = True
        self.__dict__.update(game.__dict__)

    def copy(self) -> Game:
        """An independent copy of the game, to try a line of play on."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        for k, v in other.__dict__.items():
            if isinstance(v, list):
                other.__dict__[k] = [list(x) if isinstance(x, list) else x for x in v]
            elif isinstance(v, dict):
                other.__dict__[k] = dict(v)
        return other

    def _step(self, i: int, turn: Turn | None) -> tuple[Judgement | None, int, int, bool]:
        """Play turn ``i`` (0-based): its judgement (``None`` for no placement
        judged), points, end bonus, and whether its score is computed."""
        self.turns_played = i + 1
        n = i + 1
        base = f"/turns/{i}"
        if turn is None:  # unreadable: the schema finding says why; forget what it may change
            self.expected = None
            self.bag = None
            self._forget_bag()
            self.board_known = False
            self.totals_known = False
            for p in range(self.n):
                self._forget(p)
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
            self._find("after-end", n, base, f"{action} recorded after the game ended ({why})")
            return None, 0, 0, False
        if not 0 <= p < self.n:
            self._find("turn-order", n, f"{base}/player",
                       f"seat {p} does not exist: the game has {self.n} players")
            self.expected = None
            self.totals_known = False
            return None, 0, 0, False
        if self.expected is not None and p != self.expected:
            self._find("turn-order", n, f"{base}/player",
                       f"{self._name(p)} plays, but it is {self._name(self.expected)}'s turn")
        self.expected = (p + 1) % self.n
        if self.first_turn_player is None:
            self.first_turn_player = p

        rack = turn.rack
        if rack is not None and len(rack) > RACK_SIZE and self._too_many(rack, RACK_SIZE, n, f"{base}/rack",
                                                                         f"{self._name(p)}'s rack holds"):
            rack = None
            self._forget(p)
        if rack is not None and not (self.size[p] == len(rack) == len(self.known[p]) and self.known[p] == list(rack)):
            self._given_rack(n, base, p, rack)  # (skipped when the rack is the one expected, in order)
        if p not in self.opening:
            held = self._rack(p)
            self.opening[p] = list(held) if held is not None else []  # untouched until now

        if action != "place" and not self.cells and self.board_known and not self.placed_any:
            verb = "passes" if action == "pass" else "exchanges"
            self._find("first-move-not-largest", n, f"{base}/action",
                       f"{self._name(p)} {verb} on an empty board: the game opens with "
                       "the starter placing their largest group")
        judgement: Judgement | None = None
        bonus = 0
        if action == "place":
            judgement, bonus, computed = self._place(n, base, p, turn)
            self.placed_any = True
            self.alive = False
        else:
            if action == "exchange":
                self._exchange(n, base, p, turn)
            else:
                self._pass(n, base, p)
            computed = 0
        if computed is not None:
            points = computed
            if turn.score is not None and turn.score != points and (judgement is None or judgement.legal):
                shown = str(judgement.score.with_end_bonus(bonus)) if judgement is not None else points
                self._find("score-mismatch", n, f"{base}/score",
                           f"{self._name(p)} claims {turn.score}, the turn scores {shown}")
        else:
            points = turn.score or 0
        self.totals[p] += points
        self.claimed[p] += turn.score if turn.score is not None else points
        self.peak[p] = list(self.seen)
        return judgement, points, bonus, computed is not None

    def _given_rack(self, n: int, base: str, p: int, rack: Sequence[int]) -> None:
        size = self.size[p]
        known = self.known[p]
        if size == len(rack) == len(known) and sorted(known) == sorted(rack):
            return  # the rack the replay expected, in another order
        if size is not None:
            if len(rack) != size:
                self._find("rack-mismatch", n, f"{base}/rack",
                           f"{self._name(p)}'s rack has {count(len(rack), 'tile')}; it should hold {size}"
                           + (f": {tile_names(sorted(known))}" if len(known) == size else ""))
                if self.bag is not None:  # the tiles not drawn are still in the bag
                    self.bag = max(0, self.bag + size - len(rack))
            else:
                missing = _minus(known, rack)
                if missing:
                    whole = len(known) == size
                    self._find("rack-mismatch", n, f"{base}/rack",
                               f"{self._name(p)}'s rack is {tile_names(rack)}; "
                               + (f"previous rack less played plus drawn is {tile_names(sorted(known))}"
                                  if whole else f"it should include {tile_names(missing)}"))
        new = _minus(rack, known)  # held since this player last drew
        peak = self.peak[p]
        for t in sorted(set(new)):
            if peak[t] + new.count(t) > COPIES:
                self._find("tile-overused", n, f"{base}/rack/{list(rack).index(t)}",
                           f"{self._name(p)}'s rack holds {new.count(t)} {TILES[t]} while {peak[t]} "
                           f"were on the board or in known racks: the game has only {COPIES}")
        total = self.rack_total
        self._forget(p)
        if total is not None:
            self.rack_total = total + (len(rack) - size if size is not None else 0)
        seen = self.seen
        for t in rack:
            seen[t] += 1
            self._raise_peaks(t)
        self.known[p] = list(rack)
        self.size[p] = len(rack)
        self._deduce_sizes()

    def _take(self, n: int, base: str, p: int, tiles: Sequence[int], verb: str) -> list[int]:
        """Take ``tiles`` out of the rack; report those a known rack cannot hold.

        Returns the tiles that were not in the known part of the rack (so
        they are newly seen), in the order given.
        """
        size = self.size[p]
        rem = self.known[p]
        whole = size is not None and len(rem) == size
        if whole and size is not None and len(tiles) <= size:  # the usual case first: a whole known rack holding every tile
            taken = 0
            for t in tiles:
                if t not in rem:
                    rem.extend(tiles[:taken])  # put back; the long way below says what is wrong
                    break
                rem.remove(t)
                taken += 1
            else:
                self.size[p] = size - len(tiles)
                if self.rack_total is not None:
                    self.rack_total = max(0, self.rack_total - len(tiles))
                return []
        before = list(rem) if whole else rem
        unknown: list[int] = []
        for j, t in enumerate(tiles):
            if t in rem:
                rem.remove(t)
            else:
                unknown.append(t)
                if whole:
                    self._find("tile-not-in-rack", n, f"{base}/tiles/{j}",
                               f"{self._name(p)} {verb} {TILES[t]}, which is not in the rack "
                               f"({tile_names(sorted(before)) or 'empty'})")
                    whole = False  # one report per turn for a whole known rack
        if size is not None:
            if len(tiles) > size and len(before) != size:
                self._find("tile-not-in-rack", n, f"{base}/tiles",
                           f"{self._name(p)} {verb} {count(len(tiles), 'tile')} from a rack of {size}")
            self.size[p] = max(0, size - len(tiles))
        if self.rack_total is not None:
            self.rack_total = max(0, self.rack_total - len(tiles))
        return unknown

    def _draw(self, n: int, base: str, p: int, turn: Turn, expected: int | None) -> None:
        """Refill after a turn: check the count, add the tiles, empty the bag."""
        draw = turn.draw
        if draw is not None and len(draw) > RACK_SIZE and self._too_many(draw, RACK_SIZE, n, f"{base}/draw",
                                                                         f"{self._name(p)} draws"):
            draw = None  # not read: as a draw not recorded
        if draw is not None:
            got = len(draw)
            if expected is not None and got != expected:
                self._find("draw-count", n, f"{base}/draw",
                           f"{self._name(p)} draws {count(got, 'tile')}; with {self.bag} in the bag "
                           f"the rack refills with {expected}")
            seen = self.seen
            peaks = self.peak
            bag_tiles = self.bag_tiles
            for j, t in enumerate(draw):
                if bag_tiles is not None:
                    if bag_tiles[t]:
                        bag_tiles[t] -= 1  # from the known bag to the rack: still in sight
                        continue
                    self._find("not-in-bag", n, f"{base}/draw/{j}",
                               f"{self._name(p)} draws {TILES[t]}, which is not in the bag the setup lists")
                copies = seen[t] + 1
                if copies > COPIES:
                    self._add_seen(t, n, f"{base}/draw/{j}", "drawn by", p)
                    continue
                seen[t] = copies
                for peak in peaks:  # as _raise_peaks, inline: this is the replay's busiest loop
                    if copies > peak[t]:
                        peak[t] = copies
            self.known[p].extend(draw)
        elif expected is None:
            self._forget(p)
            self._forget_bag()
            return
        else:
            got = expected
            if got:
                self._forget_bag()  # unknown tiles left it
        size = self.size[p]
        if size is not None:
            self.size[p] = size + got
        if self.rack_total is not None:
            self.rack_total += got
        if self.bag is not None:
            self.bag = max(0, self.bag - got)

    def _place(self, n: int, base: str, p: int, turn: Turn) -> tuple[Judgement | None, int, int | None]:
        """The judgement (``None`` where the board or tiles are not known), the
        end bonus, and the computed points (``None`` if unknown).

        An illegal move still scores by the usual count, so totals stay
        meaningful, but its claimed score is not compared with that count.
        """
        tiles = turn.tiles
        if tiles is not None and len(tiles) > RACK_SIZE and self._too_many(tiles, RACK_SIZE, n, f"{base}/tiles",
                                                                           f"{self._name(p)} places"):
            tiles = None  # not read: as on a score-sheet turn, where the tiles are not known
        if tiles is not None and len(self.cells) + len(tiles) > TILE_COUNT:
            # only illegal moves get there; a board growing without bound would cost every state and walk
            if self.board_known:
                self._find("too-many-tiles", n, f"{base}/tiles",
                           f"{self._name(p)}'s tiles would make {len(self.cells) + len(tiles)} on the board, more than "
                           f"the game's {TILE_COUNT}: not put down, and placements are no longer checked")
            tiles = None
        if tiles is None:  # a score-sheet turn: the board and bag are no longer known
            self.board_known = False
            self.bag = None
            self._forget_bag()
            self._forget(p)
            return None, 0, None
        rack = self._rack(p)
        if not self.cells and self.board_known and rack is not None:
            best = largest_group(rack)
            if len(tiles) < best:
                self._find("first-move-not-largest", n, f"{base}/tiles",
                           f"{self._name(p)} opens with {count(len(tiles), 'tile')}, but the rack "
                           f"({tile_names(sorted(rack))}) holds a group of {best}")
        placed: list[int] = []
        keys: list[int] = []
        for pl in tiles:
            placed.append(pl.tile)
            keys.append(pl.key)
        for t in self._take(n, base, p, placed, "places"):  # newly seen tiles
            self._add_seen(t, n, f"{base}/tiles/{placed.index(t)}", "placed by", p)
        cells = self.cells
        fresh = (len(keys) == 1 or len(set(keys)) == len(keys)) and cells.keys().isdisjoint(keys)
        if fresh:  # put the tiles down, then judge the move on the one board
            for k, t in zip(keys, placed):
                cells[k] = t
        judgement = None
        points: int | None = None
        if self.board_known:
            judgement = judge_placed(cells, tiles, keys, self.rules) if fresh else None
            if judgement is None:  # illegal (or on taken cells): judged again, for the reasons
                if fresh:  # on the board as it was (the tiles lifted, not the board copied: that costs n a turn)
                    for k in keys:
                        del cells[k]
                try:
                    judgement = explain(cells, tiles, self.rules)
                finally:
                    if fresh:
                        cells.update(zip(keys, placed))
                for v in judgement.violations:
                    self._find(v.code, n, f"{base}/tiles" if v.index is None else f"{base}/tiles/{v.index}",
                               v.message)
            points = judgement.points
        if not fresh:
            for k, t in zip(keys, placed):
                if k not in cells:
                    cells[k] = t
        bag, size = self.bag, self.size[p]
        refill = len(tiles) if size is None else RACK_SIZE - size  # back up to 6
        self._draw(n, base, p, turn, None if bag is None else max(0, min(refill, bag)))
        bonus = 0
        if self.bag == 0:
            size = self.size[p]
            if size is None and points is not None and self.rules.end_bonus and turn.score == points + self.rules.end_bonus:
                size = self.size[p] = 0  # the rack's size was unknown: the claim says it emptied
            if size is not None:
                bonus = self.rules.end_points(size, 0)
                if size == 0:
                    self.ended = "out"
        return judgement, bonus, None if points is None else points + bonus

    def _exchange(self, n: int, base: str, p: int, turn: Turn) -> None:
        exchanged = turn.exchanged
        if exchanged is not None and len(exchanged) > RACK_SIZE and self._too_many(exchanged, RACK_SIZE, n, f"{base}/tiles",
                                                                                f"{self._name(p)} exchanges"):
            self._forget(p)  # not read: the rack and the bag are no longer known
            self._forget_bag()
            return
        k = turn.exchange_size
        if turn.exchanged is not None and turn.count is not None and turn.count != len(turn.exchanged):
            self._find("exchange-count", n, f"{base}/count",
                       f"{self._name(p)} exchanges {count(len(turn.exchanged), 'tile')} but the count says {turn.count}")
        if k is None:  # unreadable tiles and no count: the rack is no longer known
            self._forget(p)
            self._forget_bag()
            return
        if self.bag is not None and k > self.bag:
            self._find("exchange-too-many", n, f"{base}/tiles" if turn.exchanged else f"{base}/count",
                       f"{self._name(p)} exchanges {count(k, 'tile')}, but the bag holds {self.bag}")
        size = self.size[p]
        if turn.exchanged is not None:
            unknown = self._take(n, base, p, turn.exchanged, "exchanges")
            taken = _minus(turn.exchanged, unknown)
        else:
            taken = []
            self._forget(p, keep_size=True)
            if size is not None:
                if k > size:
                    self._find("tile-not-in-rack", n, f"{base}/count",
                               f"{self._name(p)} exchanges {count(k, 'tile')} from a rack of {size}")
                self.size[p] = max(0, size - k)
            if self.rack_total is not None:
                self.rack_total = max(0, self.rack_total - k)
        self._draw(n, base, p, turn, k)
        if self.bag is not None:
            self.bag += k  # the set-aside tiles go back
        if self.bag_tiles is not None and turn.exchanged is not None and not _minus(turn.exchanged, taken):
            for back in turn.exchanged:  # back into the known bag: still in sight
                self.bag_tiles[back] += 1
        else:
            self._forget_bag()
            for t in taken:  # the set-aside tiles go back into the bag
                self.seen[t] -= 1

    def _pass(self, n: int, base: str, p: int) -> None:
        if self.bag is not None and self.bag > 0:
            self._find("illegal-pass", n, base,
                       f"{self._name(p)} passes while the bag holds {count(self.bag, 'tile')} (exchange instead)")
        elif self.bag == 0 and self.board_known and self.ended is None:
            rack = self._rack(p)
            if rack is not None:
                move = playable_tile(self.cells, rack)
                if move is not None:
                    self._find("illegal-pass", n, base,
                               f"{self._name(p)} passes but could place {move.tile} at ({move.x},{move.y})")

    # -- the end -------------------------------------------------------------

    def finish(self, record: Record) -> None:
        """Check the record's claimed result and starter against the game played.

        Raises:
            IllegalMoveError: in a strict game, a result that does not agree.
        """
        try:
            self._finish(record)
        except _Refused as refused:
            f = refused.finding
            raise IllegalMoveError(f"result: {f.code}: {f.message}", f) from None

    def _finish(self, record: Record) -> None:
        self._check_starter(record)
        result = record.result
        if result is None:
            return
        if result.scores is not None:
            if len(result.scores) != self.n:
                self._find("result-mismatch", None, "/result/scores",
                           f"the result gives {len(result.scores)} scores for {self.n} players")
            elif self.totals_known:
                for p, claimed in enumerate(result.scores):
                    if claimed != self.totals[p]:
                        extra = (f" (the claimed turn scores add up to {self.claimed[p]})"
                                 if self.claimed[p] != self.totals[p] else "")
                        self._find("result-mismatch", None, f"/result/scores/{p}",
                                   f"the result gives {self._name(p)} {claimed}, "
                                   f"the turns add up to {self.totals[p]}{extra}")
        end = result.end
        if end is None:
            return
        everything_known = self.bag is not None and all(s is not None for s in self.size)
        if end == "out" and self.ended != "out" and everything_known:
            self._find("bad-end", None, "/result/end",
                       f"the result says a player went out, but no rack was emptied with the bag "
                       f"empty (bag {self.bag}, racks {', '.join(str(s) for s in self.size)})")
        elif end != "out" and self.ended == "out":
            self._find("bad-end", None, "/result/end",
                       f"the result says {end}, but a player went out")
        elif end == "blocked" and self.ended is None:
            if not self.board_known:
                return
            is_dead = self._dead()
            if self.bag and not is_dead:
                self._find("bad-end", None, "/result/end",
                           f"the result says blocked, but the bag still holds {count(self.bag, 'tile')}")
            elif not is_dead:
                for p in range(self.n):
                    rack = self._rack(p)
                    move = playable_tile(self.cells, rack) if rack is not None else None
                    if move is not None:
                        self._find("bad-end", None, "/result/end",
                                   f"the result says blocked, but {self._name(p)} could place "
                                   f"{move.tile} at ({move.x},{move.y})")
                        break
        elif end == "unfinished" and self.ended is None and self.board_known and self.cells and self._dead():
            self._find("bad-end", None, "/result/end",
                       "the result says unfinished, but no tile left in the game fits anywhere: "
                       "the game ended there, blocked")
        elif end == "unfinished" and self.ended == "blocked":
            self._find("bad-end", None, "/result/end",
                       "the result says unfinished, but the game ended blocked (no tile left fits anywhere)")

    def _dead(self) -> bool:
        """Whether no tile left in the game (not all of whose copies are on the
        board) fits anywhere on it: a dead position."""
        counts = [0] * len(TILES)
        for t in self.cells.values():
            counts[t] += 1
        return dead(self.cells, [t for t, c in enumerate(counts) if c < COPIES])

    def _check_starter(self, record: Record) -> None:
        first = self.first_turn_player
        if first is None or record.setup is not None or len(self.opening) < self.n:
            return
        mine = largest_group(self.opening[first]) if self.opening[first] else 0
        if not mine:
            return
        for p, rack in self.opening.items():
            if rack and largest_group(rack) > mine:
                self._find("wrong-starter", 1, "/turns/0/player",
                           f"{self._name(p)} opened with a group of {largest_group(rack)}, "
                           f"larger than {self._name(first)}'s {mine}")
                return


def _qwirkles(judgement: Judgement | None, turn: Turn | None, known: bool) -> int | None:
    if judgement is not None:
        return judgement.qwirkles
    return 0 if known and turn is not None and turn.action != "place" else None


def _minus(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The multiset ``a - b``."""
    rest = list(b)
    out = []
    for t in a:
        if t in rest:
            rest.remove(t)
        else:
            out.append(t)
    return out


# -- a whole record ----------------------------------------------------------------

class History:
    """A record replayed once: every turn's result, and the states between.

    Iterating gives the :class:`TurnResult` of each readable turn in order.
    ``findings`` are all of them, the record's own (result, starter) last.
    """

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
                unseen = list(state.unseen(1 - p))
                tiles = [t for t, c in enumerate(unseen) for _ in range(c)]
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
    game = Game.from_record(record)
    initial = game.state()
    played = record.turns if turns is None else turns
    results: list[TurnResult] = []
    states = [initial]
    for i, turn in enumerate(played):
        before = len(game.findings)
        judgement, points, bonus, known = game._step(i, turn)
        state = game.state() if positions else None
        if state is not None:
            states.append(state)
        if turn is None:
            continue
        results.append(TurnResult(i, turn, points, _qwirkles(judgement, turn, known), tuple(game.totals),
                                  tuple(game.findings[before:]), state, judgement, bonus, known))
    game.finish(record)
    return History(record, initial, tuple(results), tuple(game.all_findings()), played, states if positions else None)


def check(record: Record, turns: Sequence[Turn | None] | None = None) -> list[Finding]:
    """Every finding of ``record``, in record order: :func:`replay` without
    keeping anything but the findings (the validator's path)."""
    game = Game.from_record(record)
    step = game._step
    for i, turn in enumerate(record.turns if turns is None else turns):
        step(i, turn)
    game.finish(record)
    return game.all_findings()


__all__ = ["BOARD_UNKNOWN_WHY", "Game", "GameState", "History", "IllegalMoveError", "LeadChange", "TurnResult", "check", "replay",
           "sole_leader"]
