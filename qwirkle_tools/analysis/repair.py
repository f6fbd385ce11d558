"""Slips of the pen: one finding for each, the reading that was meant, and the rest of the game
checked as meant.

A hand-written game (a ``.qgn`` file) with one tile written a cell off gives today's replay a
cascade: the move is not in line, a later move meets a tile that is not where it was put, the
scores of turns that were right differ. A club player reads the first error, fixes it, and meets
the next. Here the record is read the way a careful reader of a score sheet would: at the first
error, the small neighbourhood of what was written is searched for the reading that makes the
game whole, and where one is found the slip is one finding ("did you mean ..."), the game is
replayed as meant, and the errors it explained are gone; the next error is then looked at the same
way. The readings tried (:func:`alternatives`), of the turn with the error and of the
:data:`WINDOW` turns before it (a slip may show only later: two tiles swapped in a line, legal
and scoring the same, then a later move that meets them):

- each tile moved by a cell or two (``moved``);
- two tiles swapped (``swapped``);
- a tile the reader could not name read as each tile close to what was written (``tile``:
  ``rz`` as ``rc``, ``rd``, ... one letter changed);
- the turn read as the player whose turn it is (``player``: the other player's name written);
- a turn that repeats the one before it left out (``repeated``: a line written twice).

A reading of a placement is kept only if the move is legal there and scores what was written (the
claim, the end bonus allowed for); of all, the one that leaves the fewest errors in the whole game
is taken, the turn's own first, then the nearest cell. Where no reading helps, the errors stay as
they were. The search is bounded (:data:`MOST` repairs, :data:`REPLAYS` replays a record, :data:`REPLAYED_TURNS`
turns replayed): a record of a thousand errors is not searched for a thousand repairs.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from ..core.board import Placement, as_cells, format_move
from ..core.findings import Finding, capped, make
from ..core.rules import Rules, judge
from ..core.tiles import BY_TEXT, COLOUR_CODES, SHAPE_CODES, Tile
from ..formats.jsontext import JSON
from ..formats.record import Record, RecordError, Turn, from_data_lenient, turn_from_data
from ..play.engine import History, check, replay

WINDOW = 12
"""The turns before the first error whose readings are tried too (a slip that shows later)."""
MOST = 12
"""The most slips repaired in one record."""
REPLAYS = 400
"""The most whole-game replays one record's search may make (each reading kept is replayed)."""
REPLAYED_TURNS = 40_000
"""The most turns one record's search may replay in all: a record of 10,000 turns gets 4 replays
(a replay costs about 11 microseconds a turn here: at most about half a second)."""
STEPS = tuple(sorted(((dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if (dx, dy) != (0, 0)),
                     key=lambda d: (abs(d[0]) + abs(d[1]), d)))
"""How far a tile may have been written from its cell: a cell or two, the nearest first."""
SAID = {"moved": "a tile written a cell off", "swapped": "two tiles swapped", "tile": "a tile misspelt",
        "cell": "a cell miswritten",
        "player": "the other player's name", "repeated": "a turn written twice"}
"""Each kind of slip, as the finding names it."""


@dataclass(frozen=True, slots=True)
class Guess:
    """A placement turn the reader could not read for a tile it cannot name: the turn as read with
    each such tile left out, and for each the index it had among the tiles, its cell, what was
    written, and the tiles close to it."""

    turn: Turn
    unknown: tuple[tuple[int, int, int, str, tuple[Tile, ...]], ...]

    @property
    def kind(self) -> str:
        """``tile`` (a tile misspelt), or ``cell`` where every tile reads and a cell was written otherwise."""
        return "cell" if all(text.lower() in BY_TEXT for _, _, _, text, _ in self.unknown) else "tile"

    def readings(self) -> Iterator[Turn]:
        """The turn with each unknown tile read as one of its near tiles (every combination, few)."""
        choices: list[list[Placement]] = [[]]
        for _, x, y, _, near in self.unknown:
            choices = [c + [Placement(t, x, y)] for c in choices for t in near][:64]
        tiles = list(self.turn.tiles or ())
        for chosen in choices:
            placed = list(tiles)
            for (index, *_), pl in zip(self.unknown, chosen):
                placed.insert(index, pl)
            yield self.turn._replace(tiles=tuple(placed))


def near_tiles(text: str) -> tuple[Tile, ...]:
    """The tiles a misspelt tile ``text`` may have meant: one letter of the two changed (``rz``: the
    red tiles), else the tile names closest to it.

    >>> [t.short for t in near_tiles("rz")]
    ['rc', 'rx', 'rd', 'rs', 'rt', 'rl']
    >>> len(near_tiles("zz")), [t.short for t in near_tiles("red-circel")]
    (0, ['rc'])
    """
    low = text.lower()
    if len(low) == 2:
        colour, shape = low[0] in COLOUR_CODES, low[1] in SHAPE_CODES
        if colour and not shape:
            return tuple(BY_TEXT[low[0] + s] for s in SHAPE_CODES)
        if shape and not colour:
            return tuple(BY_TEXT[c + low[1]] for c in COLOUR_CODES)
        return ()
    close = difflib.get_close_matches(low, [n for n in BY_TEXT if len(n) > 2], 6, 0.8)
    if not close:
        return ()
    ratio = [difflib.SequenceMatcher(None, low, n).ratio() for n in close]
    return tuple(BY_TEXT[n] for n, r in zip(close, ratio) if r == ratio[0])  # the closest, each as close


@dataclass(frozen=True, slots=True)
class Repair:
    """One slip: the turn (1-based), its kind (:data:`SAID`), the turn as meant (``None``: left out),
    and the first error it explains."""

    turn: int
    kind: str
    meant: Turn | None
    cause: Finding | None
    names: tuple[str, ...] = ()
    others: tuple[Turn, ...] = ()
    """Other readings as good (as legal, scoring as written, leaving as few errors): the first is read."""
    readings: tuple[Turn, ...] = ()
    """Every reading that fit (a misspelt tile's: looked at again once the game is read as meant)."""

    def reading(self) -> str:
        """The reading meant: ``did you mean rs@2,1 rl@3,1 (legal, and scores the 6 written)?``."""
        if self.meant is None:
            return f"turn {self.turn} repeats turn {self.turn - 1}: read once."
        if self.kind == "player":
            p = self.meant.player
            who = self.names[p] if p < len(self.names) else f"seat {p + 1}"
            return f"read as {who}'s turn (it is {who}'s)."
        claim = "" if self.meant.score is None else f" (legal, and scores the {self.meant.score} written)"
        return f"did you mean {format_move(self.meant.tiles or ())}{claim}?{self._also()}"

    def _also(self) -> str:
        """The other readings as good: the tiles that would do at the same cells, or the moves."""
        if not self.others or self.meant is None:
            return ""
        mine = self.meant.tiles or ()
        swaps = [[(a, b) for a, b in zip(mine, t.tiles or ()) if a != b] for t in self.others]
        same_cell = all(len(d) == 1 and len(t.tiles or ()) == len(mine) and d[0][0].key == d[0][1].key
                        for d, t in zip(swaps, self.others))
        if same_cell:
            shown = list(dict.fromkeys(d[0][1].tile.short for d in swaps))
            listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
            read = next(a.tile.short for a, b in zip(mine, self.others[0].tiles or ()) if a != b)
            return f" ({listed} would do as well there; {read} is read)"
        moves = ", ".join(format_move(t.tiles or ()) for t in self.others[:3]) + (", ..." if len(self.others) > 3 else "")
        return f" (or {moves}, as good; the first is read)"

    def text(self) -> str:
        """The finding's message: the slip, the reading meant, and the error it explains."""
        why = "" if self.cause is None else f"; as written: {self.cause.code}, {self.cause.message}" \
            + ("" if self.cause.turn in (None, self.turn) else f" (turn {self.cause.turn})")
        said = "another player's name" if self.kind == "player" and len(self.names) > 2 else SAID[self.kind]
        return f"{said}? {self.reading()} The turns after are checked as meant" + why

    def finding(self, read: Finding | None = None) -> Finding:
        """The finding; ``read``: the reader's mistake it answers (a tile it could not name), whose
        place and line it takes."""
        if read is None:
            return make("slip", self.turn, f"/turns/{self.turn - 1}", self.text())
        place, _, said = read.message.partition(": ")
        written = said.rpartition(", got ")[2]
        what = f"{written} is not a tile" if self.kind == "tile" else f"{written} is not a cell"
        return make("slip", self.turn, read.pointer, f"{place}: {what}: {self.text()}", read.excerpt)


def errors(findings: Sequence[Finding]) -> int:
    """How many of the findings are errors."""
    return sum(1 for f in findings if f.is_error)


def repair(record: Record, turns: Sequence[Turn | None], guesses: dict[int, Guess] | None = None
           ) -> tuple[list[Repair], list[Turn | None], History]:
    """The slips of ``record`` (its ``turns`` as read, ``None`` for a line that could not be read,
    ``guesses`` of those with a tile misspelt), the turns as meant, and their replay.

    Each round looks at the first turn with an error and the turns before it (see the module's
    notes) and takes the reading that leaves the fewest errors, if it leaves fewer."""
    current = list(turns)
    guesses = dict(guesses or {})
    history = replay(record, current)
    found: list[Repair] = []
    budget = [min(REPLAYS, REPLAYED_TURNS // max(1, len(current)))]  # (a long record: fewer replays)
    names = tuple(record.names)
    passed: set[int] = set()  # turns looked at with no reading that helps: the search goes on after them
    while len(found) < MOST and budget[0] > 0:
        first = _first_error(history, current, guesses, passed)
        if first is None:
            break
        k, cause = first
        now = errors(history.findings)
        best: tuple[tuple[int, int, int, int], int, str, Turn | None, list[Turn | None]] | None = None
        others: tuple[Turn, ...] = ()
        ties: list[tuple[tuple[int, int], int, Turn | None]] = []  # (errors near and left, turn, reading) of each kept
        for j in range(k, max(-1, k - 1 - WINDOW), -1):
            for rank, (kind, meant, changed) in enumerate(alternatives(record, history, current, j, guesses)):
                if budget[0] <= 0:
                    break
                budget[0] -= 1
                findings = check(record, changed)
                left = errors(findings)
                own = any(f.is_error and f.turn == j + 1 for f in findings)  # the reading must be right itself
                if own or (left >= now and j not in guesses):  # (an unread turn: any reading that fits is better)
                    continue
                # the errors near the turn first: a reading is judged by what follows it, not by turns far away
                near = sum(1 for f in findings if f.is_error and f.turn is not None and f.turn <= j + 1 + WINDOW)
                key = (near, left, k - j, rank)
                ties.append(((near, left), j, meant))
                if best is None or key < best[0]:
                    best = (key, j, kind, meant, changed)
            if best is not None and best[1] == k:
                break  # the turn's own reading is taken before an earlier turn's
        if best is not None:
            (near, left, _, _), j, kind, meant, changed = best
            others = tuple(m for n, i, m in ties if n == (near, left) and i == j and m is not None and m != meant)
            if meant is not None and meant.score is None and others and kind != "tile":
                best = None  # no score written and several readings as good: nothing says which was meant
        if best is None:
            passed.add(k)
            continue
        read = kind in ("tile", "cell")  # a turn the reader could not read: its own finding is the cause
        fits = tuple(m for _, i, m in ties if i == j and m is not None) if read else ()
        found.append(Repair(j + 1, kind, meant, cause if j != k or not read else None, names, others, fits))
        guesses.pop(j, None)
        if meant is None:  # a line left out: the turns after it move up one
            guesses = {(i - 1 if i > j else i): g for i, g in guesses.items()}
            passed = {i - 1 if i > j else i for i in passed}
        current = changed
        history = replay(record, current)
    if any(r.kind == "tile" and len(r.readings) > 1 for r in found):  # a tile read early is looked at again, the game as meant
        found, current, history = _tiles_again(record, found, current, history)
    return found, current, history


def _tiles_again(record: Record, found: list[Repair], current: list[Turn | None], history: History
                 ) -> tuple[list[Repair], list[Turn | None], History]:
    """Each misspelt tile read among several as good, chosen again once every slip is repaired: a
    slip later in the game (a line written twice) may have told against the tile meant."""
    now = errors(history.findings)
    for n, r in enumerate(found):
        if r.kind != "tile" or len(r.readings) < 2 or r.meant is None or current[r.turn - 1] != r.meant:
            continue
        j = r.turn - 1
        counted = []
        for meant in (r.meant, *(m for m in r.readings if m != r.meant)):
            changed = current[:j] + [meant] + current[j + 1:]
            counted.append((errors(check(record, changed)), meant))
        least = min(c for c, _ in counted)
        if least <= now:
            meant = next(m for c, m in counted if c == least)
            found[n] = replace(r, meant=meant, others=tuple(m for c, m in counted if c == least and m != meant))
            current = current[:j] + [meant] + current[j + 1:]
            history = replay(record, current)
            now = least
    return found, current, history


def _first_error(history: History, turns: Sequence[Turn | None], guesses: dict[int, Guess], passed: set[int]
                 ) -> tuple[int, Finding | None] | None:
    """The first turn (0-based) with an error, or a misspelt tile's turn before it, and the error
    (the turns ``passed`` left out: no reading helped them)."""
    first = min((f for f in history.findings if f.is_error and f.turn is not None and f.turn - 1 not in passed),
                key=lambda f: f.turn or 0, default=None)
    unread = min((i for i in guesses if i not in passed), default=None)
    if unread is not None and (first is None or first.turn is None or unread < first.turn - 1):
        return unread, None
    if first is None or first.turn is None or first.turn > len(turns):
        return None
    return first.turn - 1, first


def alternatives(record: Record, history: History, turns: list[Turn | None], j: int, guesses: dict[int, Guess]
                 ) -> Iterator[tuple[str, Turn | None, list[Turn | None]]]:
    """Each reading of turn ``j`` (0-based) to try: its kind, the turn meant, and the turns with it."""
    def with_turn(meant: Turn | None) -> list[Turn | None]:
        return turns[:j] + ([] if meant is None else [meant]) + turns[j + 1:]

    if j in guesses:
        for meant in _fitting(history, j, guesses[j].readings(), record.rules):
            yield guesses[j].kind, meant, with_turn(meant)
        return
    turn = turns[j]
    if turn is None:
        return
    before = history.before(j)
    expected = before.to_move
    if expected is not None and turn.player != expected and 0 <= expected < len(record.players):
        yield "player", turn._replace(player=expected), with_turn(turn._replace(player=expected))
    if j > 0 and _same(turns[j - 1], turn):
        yield "repeated", None, with_turn(None)
    if turn.action == "place" and turn.tiles:
        for kind, meant in _placements(history, j, turn, record.rules):
            yield kind, meant, with_turn(meant)


def _same(a: Turn | None, b: Turn) -> bool:
    return a is not None and a.player == b.player and a.action == b.action and a.tiles == b.tiles


def _placements(history: History, j: int, turn: Turn, rules: Rules) -> Iterator[tuple[str, Turn]]:
    """The placements near ``turn``'s (one tile moved, two swapped) that are legal at turn ``j`` and
    score what it claims."""
    tiles = list(turn.tiles or ())
    moved = []
    for step in STEPS:
        for i, pl in enumerate(tiles):
            placed = list(tiles)
            placed[i] = Placement(pl.tile, pl.x + step[0], pl.y + step[1])
            moved.append(turn._replace(tiles=tuple(placed)))
    swapped = []
    for a in range(len(tiles)):
        for b in range(a + 1, len(tiles)):
            if tiles[a].tile != tiles[b].tile:
                placed = list(tiles)
                placed[a] = Placement(tiles[b].tile, tiles[a].x, tiles[a].y)
                placed[b] = Placement(tiles[a].tile, tiles[b].x, tiles[b].y)
                swapped.append(turn._replace(tiles=tuple(placed)))
    for meant in _fitting(history, j, swapped, rules):
        yield "swapped", meant
    for meant in _fitting(history, j, moved, rules):
        yield "moved", meant


def _fitting(history: History, j: int, readings: Iterator[Turn] | list[Turn], rules: Rules) -> Iterator[Turn]:
    """The readings that are legal on the board before turn ``j`` and may score the claim (with the end
    bonus or without), where the board is known: a cheap first sieve, before the replay of each
    reading kept decides exactly (its own turn must then have no error, a wrong score included)."""
    state = history.before(j)
    if not state.board_known:
        return
    cells = as_cells(state.board)
    for meant in readings:
        judged = judge(cells, meant.tiles or (), rules)
        if judged.violations:
            continue
        if meant.score is None or meant.score in (judged.points, judged.points + rules.end_points(0, 0)):
            yield meant


def read_as_meant(data: object, findings: list[Finding], problems: tuple[Finding, ...], broken: frozenset[int],
                  guesses: Mapping[int, tuple[dict[str, JSON], tuple[tuple[int, int, int, str], ...]]],
                  positions: bool | None, history: History | None
                  ) -> tuple[Record, list[Finding], tuple[Finding, ...], History | None]:
    """A hand-written record's findings with its slips repaired (:func:`repair`): the schema's, one
    ``slip`` a repair, and the replay's of the game as meant; the reader's findings less those a
    repair explains (a tile it could not name, the number of a turn written twice); a note where
    turns could not be checked; and the replay as meant (``positions`` ``None``: none asked for).
    The record is the one written: only the findings and the replay are of the game as meant."""
    record, read = from_data_lenient(data)
    assert record is not None  # (the caller has read it)
    turns: list[Turn | None] = [None if i in broken else t for i, t in enumerate(read)]
    known: dict[int, Guess] = {}
    for j, (written, unknown) in guesses.items():
        try:
            turn = turn_from_data(written, f"/turns/{j}", lenient=True)
        except RecordError:
            continue
        near = [(i, x, y, text, (BY_TEXT[text.lower()],) if text.lower() in BY_TEXT else near_tiles(text))
                for i, x, y, text in unknown]
        if all(n for *_, n in near):
            known[j] = Guess(turn, tuple(near))
    repairs, meant, replayed = repair(record, turns, known)
    if not repairs and not any(t is None for t in meant):
        return record, findings, problems, history
    by_pointer = {f.pointer: f for f in problems if f.code == "qgn"}
    removed: list[int] = []  # the lines left out so far, as meant: the reader's pointers count the lines as written
    told, explained = [], set()
    for r in repairs:
        line = f"/turns/{r.turn - 1 + sum(1 for i in removed if i <= r.turn - 1)}"  # the turn's index as written
        if r.kind in ("tile", "cell"):
            told.append(r.finding(by_pointer.get(line)))
            explained.add((line, "qgn"))
        else:
            told.append(r.finding())
        if r.kind == "repeated":
            explained.add((line, "turn-number"))
            removed.append(r.turn - 1)
    kept = tuple(f for f in problems if (f.pointer, f.code) not in explained)
    ordered = sorted([*told, *replayed.findings], key=lambda f: f.turn if f.turn is not None else len(meant) + 1)
    unread = next((i for i, t in enumerate(meant) if t is None), None)
    if unread is not None and unread + 1 < len(meant):
        after = f"turn {unread + 2}" if unread + 2 == len(meant) else f"turns {unread + 2}-{len(meant)}"
        ordered.append(make("unchecked", unread + 1, f"/turns/{unread}",
                            f"{after} not checked: turn {unread + 1} could not be read as a move, so what it changed "
                            "is not known (the board, and the scores of the placements after it)"))
    schema_found = [f for f in findings if f.code == "schema"]
    return record, capped([*schema_found, *ordered]), kept, replayed if positions is not None else None


__all__ = ["MOST", "REPLAYED_TURNS", "REPLAYS", "SAID", "STEPS", "WINDOW", "Guess", "Repair", "alternatives", "errors",
           "near_tiles", "read_as_meant", "repair"]
