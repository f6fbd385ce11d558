"""Replay a record turn by turn, re-scoring it and checking its bookkeeping.

The replay works like a linter: it carries on past every problem and reports
each as a :class:`~qwirkle_tools.findings.Finding`. It checks whatever the
record makes checkable. What it tracks:

* the board (placement legality needs every earlier placement: after a
  score-sheet turn whose tiles are unknown, placements are no longer checked);
* the bag's tile count, known while every turn says how many tiles it took;
* each rack as the tiles known to be in it plus a count of unknown ones;
* how many of each tile are on the board or in known racks (at most 3).

It does not guess: a rack is compared with the recorded one only as far as
it is known, and a pass is judged by the rack only when the whole rack is.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .board import STEP_X, STEP_Y, Board, cell_text
from .findings import Finding, make
from .record import Record, Turn
from .rules import LINE_MAX, ScoreBreakdown, judge, line_fault, lines_through, playable_tile, quick_score
from .rules import _run as line_through
from .tiles import COPIES, RACK_SIZE, TILE_COUNT, TILES, Tile, largest_group, tile_names


@dataclass(frozen=True, slots=True)
class GameState:
    """The game after some turns.

    ``racks[p]`` is the whole rack when known, else ``None``; ``rack_sizes``
    may be known even when contents are not. ``bag`` is ``None`` once the
    record no longer tells how many tiles were drawn.
    """

    turns_played: int
    board: Board
    scores: tuple[int, ...]
    bag: int | None
    racks: tuple[tuple[Tile, ...] | None, ...]
    rack_sizes: tuple[int | None, ...]
    ended: str | None
    board_known: bool = True


@dataclass(frozen=True, slots=True)
class TurnResult:
    """One replayed turn: the computed score, what was wrong, the state after.

    ``score`` is ``None`` where the record does not say which tiles were
    placed; ``points`` is what the turn adds to the player's total (the
    computed score when there is one, else the claimed one).
    """

    index: int
    turn: Turn | None
    score: ScoreBreakdown | None
    points: int
    findings: tuple[Finding, ...]
    state: GameState


class _Replay:
    """The mutable engine behind :func:`replay` and :func:`check`."""

    def __init__(self, record: Record, detailed: bool = True) -> None:
        self.record = record
        self.detailed = detailed  # build every score breakdown, not just those a message needs
        self.n = n = len(record.players)
        self.rules = record.rules
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
        # peak[p][t]: the most copies of t seen at once since p last drew, so a
        # rack revealed later is checked against the whole time it was held
        self.peak = [[0] * len(TILES) for _ in range(n)]
        self._setup()

    # -- helpers -------------------------------------------------------------

    def _find(self, code: str, turn: int | None, pointer: str, message: str) -> None:
        self.findings.append(make(code, turn, pointer, message))

    def _name(self, p: int) -> str:
        name = self.record.players[p].name
        return f"{name if len(name) <= 24 else name[:21] + '...'} (seat {p})"

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

    def _rack(self, p: int) -> list[int] | None:
        size = self.size[p]
        return self.known[p] if size is not None and len(self.known[p]) == size else None

    def _setup(self) -> None:
        cells = self.cells
        for j, pl in enumerate(self.record.setup):
            ptr = f"/setup/board/{j}"
            key = pl.key
            if key in cells:
                self._find("cell-occupied", None, ptr, f"setup puts {pl.tile} on {cell_text(key)}, "
                           f"where {TILES[cells[key]]} lies")
                continue
            cells[key] = pl.tile
            self._add_seen(pl.tile, None, ptr, "in the setup")
        reported: set[tuple[int, int]] = set()
        for j, pl in enumerate(self.record.setup):
            for step in (STEP_X, STEP_Y):
                start, tiles = line_through(cells, {}, pl.key, step)
                if len(tiles) > 1 and (start, step) not in reported:
                    reported.add((start, step))
                    fault = line_fault(tiles)
                    if fault:
                        self._find(fault, None, f"/setup/board/{j}",
                                   f"the setup holds an invalid line: {tile_names(tiles)}")
        bag = max(0, TILE_COUNT - len(self.record.setup))
        for p in range(self.n):
            self.size[p] = min(RACK_SIZE, bag)
            bag -= self.size[p]  # type: ignore[operator]
        self.bag: int | None = bag

    def snapshot(self, turns_played: int) -> GameState:
        return GameState(
            turns_played=turns_played,
            board=Board._wrap(dict(self.cells)),
            scores=tuple(self.totals),
            bag=self.bag,
            racks=tuple(
                tuple(TILES[t] for t in r) if (r := self._rack(p)) is not None else None
                for p in range(self.n)
            ),
            rack_sizes=tuple(self.size),
            ended=self.ended,
            board_known=self.board_known,
        )

    # -- one turn ------------------------------------------------------------

    def step(self, i: int, turn: Turn | None) -> tuple[ScoreBreakdown | None, int]:
        """Replay turn ``i`` (0-based); returns the computed score and points."""
        n = i + 1
        base = f"/turns/{i}"
        if turn is None:  # unreadable: the schema finding says why; forget what it may change
            self.expected = None
            self.bag = None
            self.board_known = False
            self.totals_known = False
            for p in range(self.n):
                self._forget(p)
            return None, 0
        p = turn.player
        if self.ended == "out" or (self.ended == "blocked" and turn.action != "pass"):
            self._find("after-end", n, base,
                       f"{turn.action} recorded after the game ended ({self.ended})")
            return None, 0
        if not 0 <= p < self.n:
            self._find("turn-order", n, f"{base}/player",
                       f"seat {p} does not exist: the game has {self.n} players")
            self.expected = None
            self.totals_known = False
            return None, 0
        if self.expected is not None and p != self.expected:
            self._find("turn-order", n, f"{base}/player",
                       f"{self._name(p)} plays, but it is {self._name(self.expected)}'s turn")
        self.expected = (p + 1) % self.n
        if self.first_turn_player is None:
            self.first_turn_player = p

        if turn.rack is not None:
            self._given_rack(n, base, p, turn.rack)
        if p not in self.opening:
            rack = self._rack(p)
            self.opening[p] = list(rack) if rack is not None else []  # untouched until now

        if turn.action != "place" and not self.cells and self.board_known and not self.placed_any:
            verb = "passes" if turn.action == "pass" else "exchanges"
            self._find("first-move-not-largest", n, f"{base}/action",
                       f"{self._name(p)} {verb} on an empty board: the game opens with "
                       "the starter placing their largest group")
        if turn.action == "place":
            computed, breakdown, legal = self._place(n, base, p, turn)
            self.placed_any = True
        else:
            if turn.action == "exchange":
                self._exchange(n, base, p, turn)
            else:
                self._pass(n, base, p)
            computed, breakdown, legal = 0, ScoreBreakdown(), True

        if computed is not None:
            points = computed
            if legal and turn.score is not None and turn.score != points:
                self._find("score-mismatch", n, f"{base}/score",
                           f"{self._name(p)} claims {turn.score}, the turn scores {breakdown or points}")
        else:
            points = turn.score or 0
        self.totals[p] += points
        self.claimed[p] += turn.score if turn.score is not None else points
        self.peak[p] = list(self.seen)
        return breakdown, points

    def _given_rack(self, n: int, base: str, p: int, rack: Sequence[int]) -> None:
        size = self.size[p]
        known = self.known[p]
        if size == len(rack) == len(known) and sorted(known) == sorted(rack):
            return  # exactly the rack the replay expected
        if size is not None:
            if len(rack) != size:
                self._find("rack-mismatch", n, f"{base}/rack",
                           f"{self._name(p)}'s rack has {len(rack)} tiles; it should hold {size}"
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
        self._forget(p)
        seen = self.seen
        for t in rack:
            seen[t] += 1
            self._raise_peaks(t)
        self.known[p] = list(rack)
        self.size[p] = len(rack)

    def _take(self, n: int, base: str, p: int, tiles: Sequence[int], verb: str) -> list[int]:
        """Take ``tiles`` out of the rack; report those a known rack cannot hold.

        Returns the tiles that were not in the known part of the rack (so
        they are newly seen), in the order given.
        """
        size = self.size[p]
        rem = self.known[p]
        whole = size is not None and len(rem) == size
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
                           f"{self._name(p)} {verb} {len(tiles)} tiles from a rack of {size}")
            self.size[p] = max(0, size - len(tiles))
        return unknown

    def _draw(self, n: int, base: str, p: int, turn: Turn, expected: int | None) -> None:
        """Refill after a turn: check the count, add the tiles, empty the bag."""
        if turn.draw is not None:
            got = len(turn.draw)
            if expected is not None and got != expected:
                self._find("draw-count", n, f"{base}/draw",
                           f"{self._name(p)} draws {got} tiles; with {self.bag} in the bag "
                           f"the rack refills with {expected}")
            seen = self.seen
            for j, t in enumerate(turn.draw):
                seen[t] += 1
                self._raise_peaks(t)
                if seen[t] > COPIES:
                    seen[t] -= 1
                    self._add_seen(t, n, f"{base}/draw/{j}", "drawn by", p)
            self.known[p].extend(turn.draw)
        elif expected is None:
            self._forget(p)
            return
        else:
            got = expected
        if self.size[p] is not None:
            self.size[p] += got  # type: ignore[operator]
        if self.bag is not None:
            self.bag = max(0, self.bag - got)

    def _place(self, n: int, base: str, p: int, turn: Turn) -> tuple[int | None, ScoreBreakdown | None, bool]:
        """The computed points (``None`` if unknown), their breakdown, and legality.

        The breakdown is built when ``detailed`` or when a message needs it.
        An illegal move still scores by the usual count, so totals stay
        meaningful, but its claimed score is not compared with that count.
        """
        tiles = turn.tiles
        if tiles is None:  # a score-sheet turn: the board and bag are no longer known
            self.board_known = False
            self.bag = None
            self._forget(p)
            return None, None, True
        rack = self._rack(p)
        if not self.cells and self.board_known and rack is not None:
            best = largest_group(rack)
            if len(tiles) < best:
                self._find("first-move-not-largest", n, f"{base}/tiles",
                           f"{self._name(p)} opens with {len(tiles)} tiles, but the rack "
                           f"({tile_names(sorted(rack))}) holds a group of {best}")
        placed: list[int] = [pl.tile for pl in tiles]
        for t in self._take(n, base, p, placed, "places"):  # newly seen tiles
            self._add_seen(t, n, f"{base}/tiles/{placed.index(t)}", "placed by", p)
        points: int | None = None
        breakdown: ScoreBreakdown | None = None
        legal = True
        if self.board_known:
            quick = None if self.detailed else quick_score(self.cells, tiles, self.rules)
            # the full judgement, for its messages: when something is off, or in the
            # endgame, where the end bonus may make the claim differ from ``quick``
            if quick is None or (turn.score is not None and turn.score != quick) or self.bag == 0:
                verdict = judge(self.cells, tiles, self.rules)
                for v in verdict.violations:
                    ptr = f"{base}/tiles" if v.index is None else f"{base}/tiles/{v.index}"
                    self._find(v.code, n, ptr, v.message)
                breakdown, legal = verdict.score, verdict.legal
                points = breakdown.total
            else:
                points = quick
        cells = self.cells
        for pl in tiles:
            key = pl.key
            if key not in cells:
                cells[key] = pl.tile
        bag, size = self.bag, self.size[p]
        refill = len(tiles) if size is None else RACK_SIZE - size  # back up to 6
        self._draw(n, base, p, turn, None if bag is None else max(0, min(refill, bag)))
        if self.bag == 0 and self.size[p] == 0:
            self.ended = "out"
            if points is not None:
                points += self.rules.end_bonus
            if breakdown is not None:
                breakdown = breakdown.with_end_bonus(self.rules.end_bonus)
        return points, breakdown, legal

    def _exchange(self, n: int, base: str, p: int, turn: Turn) -> None:
        k = turn.exchange_size
        if turn.exchanged is not None and turn.count is not None and turn.count != len(turn.exchanged):
            self._find("exchange-count", n, f"{base}/count",
                       f"{self._name(p)} exchanges {len(turn.exchanged)} tiles but the count says {turn.count}")
        if k is None:  # unreadable tiles and no count: the rack is no longer known
            self._forget(p)
            return
        if self.bag is not None and k > self.bag:
            self._find("exchange-too-many", n, f"{base}/tiles" if turn.exchanged else f"{base}/count",
                       f"{self._name(p)} exchanges {k} tiles, but the bag holds {self.bag}")
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
                               f"{self._name(p)} exchanges {k} tiles from a rack of {size}")
                self.size[p] = max(0, size - k)
        self._draw(n, base, p, turn, k)
        if self.bag is not None:
            self.bag += k  # the set-aside tiles go back
        for t in taken:  # the set-aside tiles go back into the bag
            self.seen[t] -= 1

    def _pass(self, n: int, base: str, p: int) -> None:
        if self.bag is not None and self.bag > 0:
            self._find("illegal-pass", n, base,
                       f"{self._name(p)} passes while the bag holds {self.bag} tiles (exchange instead)")
        elif self.bag == 0 and self.board_known and self.ended is None:
            rack = self._rack(p)
            if rack is not None:
                move = playable_tile(self.cells, rack)
                if move is not None:
                    self._find("illegal-pass", n, base,
                               f"{self._name(p)} passes but could place {move.tile} at ({move.x},{move.y})")

    # -- the end -------------------------------------------------------------

    def finish(self) -> None:
        result = self.record.result
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
        elif end == "blocked":
            if self.bag:
                self._find("bad-end", None, "/result/end",
                           f"the result says blocked, but the bag still holds {self.bag} tiles")
            elif self.board_known:
                for p in range(self.n):
                    rack = self._rack(p)
                    move = playable_tile(self.cells, rack) if rack is not None else None
                    if move is not None:
                        self._find("bad-end", None, "/result/end",
                                   f"the result says blocked, but {self._name(p)} could place "
                                   f"{move.tile} at ({move.x},{move.y})")
                        break

    def check_starter(self) -> None:
        first = self.first_turn_player
        if first is None or self.record.setup or len(self.opening) < self.n:
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


def replay(record: Record) -> Iterator[TurnResult]:
    """Each turn of ``record`` replayed: computed score, findings, state after.

    Record-level findings (the result, the starter) are not included; see
    :func:`check` for every finding at once.
    """
    engine = _Replay(record)
    for i, turn in enumerate(record.turns):
        before = len(engine.findings)
        breakdown, points = engine.step(i, turn)
        yield TurnResult(i, turn, breakdown, points, tuple(engine.findings[before:]),
                         engine.snapshot(i + 1))


def turn_points(record: Record, clean: bool = False) -> Iterator[tuple[int, int | None]]:
    """Each turn's points (as :attr:`TurnResult.points`) and the Qwirkles it
    made (``None`` where its tiles or the board are unknown): :func:`replay`
    without states or breakdowns, for tables over many games.

    ``clean``: the record is known to have no finding (so each claimed score
    is the computed one) and claims every score: the claims are taken and
    only the lines of six are counted.
    """
    if clean:
        cells = {pl.key: int(pl.tile) for pl in record.setup}
        for turn in record.turns:
            placed = turn.tiles if turn.action == "place" else None
            if placed:
                for pl in placed:
                    cells[pl.key] = pl.tile
            yield turn.score or 0, len(lines_through(cells, (pl.key for pl in placed), LINE_MAX)) if placed else 0
        return
    engine = _Replay(record, detailed=False)
    cells = engine.cells
    for i, turn in enumerate(record.turns):
        known = engine.board_known
        breakdown, points = engine.step(i, turn)
        if breakdown is not None:
            yield points, breakdown.qwirkles
        elif turn is None or turn.action != "place":
            yield points, 0 if turn is not None and known else None
        elif turn.tiles is None or not known:
            yield points, None
        elif any(pl.key not in cells for pl in turn.tiles):
            yield points, None  # not placed: a turn after the end, or by a seat that does not exist
        else:  # a legal move scored on the fast path
            yield points, len(lines_through(cells, (pl.key for pl in turn.tiles), LINE_MAX))


def initial_state(record: Record) -> GameState:
    """The state before the first turn."""
    return _Replay(record).snapshot(0)


def check(record: Record, turns: Sequence[Turn | None] | None = None) -> list[Finding]:
    """Every replay finding of ``record``, in record order.

    ``turns`` may replace the record's turns with a list in which unreadable
    turns are ``None`` (see :func:`qwirkle_tools.record.from_data_lenient`).
    """
    engine = _Replay(record, detailed=False)
    for i, turn in enumerate(record.turns if turns is None else turns):
        engine.step(i, turn)
    engine.check_starter()
    engine.finish()
    return engine.findings


def final_scores(record: Record) -> tuple[int, ...]:
    """The computed totals after the last turn."""
    engine = _Replay(record, detailed=False)
    for i, turn in enumerate(record.turns):
        engine.step(i, turn)
    return tuple(engine.totals)


__all__ = ["GameState", "TurnResult", "check", "final_scores", "initial_state", "replay", "turn_points"]
