"""What is known of the tiles off the board: the racks, the bag, the tiles in sight.

A :class:`Ledger` is the replay's account of a game that a record may tell
only in part: each rack as the tiles known to be in it plus its size (when
known), the bag's count (while every turn says how many tiles it took) and
its tiles (while a setup lists them and every draw is recorded), and how many
copies of each tile are in sight (on the board, in known racks, in a known
bag), with each seat's peak since it last drew, so that a rack revealed later
is checked against the whole time it was held. It never decides a
placement's legality and never reads the game: what is wrong goes into the
:class:`~qwirkle_tools.play.state.Notes` it is given, as findings.

A :class:`Dealer` is the other mode, the dealer's: a real shuffled bag,
racks dealt from it, draws taken from it, every tile known. The playable
game (:mod:`qwirkle_tools.play.game`) keeps its racks and bag in one.

The rules of a turn that depend on the racks and the bag, not on the lines
(the opening, the exchange, the pass: docs/rules.md), are the functions
:func:`opening_problem`, :func:`exchange_problem` and :func:`pass_problem`,
used by the replay and the playable game alike.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ..core.rules import playable_tile
from ..core.text import count
from ..core.tiles import COPIES, RACK_SIZE, TILE_COUNT, TILES, largest_group, tile_names
from ..formats.record import Setup, Turn
from .state import Notes


class Problem(NamedTuple):
    """Why a turn breaks a rule: the finding's code, the pointer within the turn, the reason."""

    code: str
    where: str
    message: str


def opening_problem(who: str, action: str, placed: int, rack: Sequence[int] | None) -> Problem | None:
    """The opening rule, for a turn on an empty board: the starter places their
    largest group (judged when the whole ``rack`` is known); no pass or exchange."""
    if action != "place":
        verb = "passes" if action == "pass" else "exchanges"
        return Problem("first-move-not-largest", "/action", f"{who} {verb} on an empty board: the game opens with "
                       "the starter placing their largest group")
    if rack is not None:
        best = largest_group(rack)
        if placed < best:
            return Problem("first-move-not-largest", "/tiles", f"{who} opens with {count(placed, 'tile')}, but the rack "
                           f"({tile_names(sorted(rack))}) holds a group of {best}")
    return None


def exchange_problem(who: str, exchanged: int, bag: int | None, where: str = "/tiles") -> Problem | None:
    """An exchange may swap at most as many tiles as the bag holds (``bag``: ``None`` if not known)."""
    if bag is not None and exchanged > bag:
        return Problem("exchange-too-many", where, f"{who} exchanges {count(exchanged, 'tile')}, but the bag holds {bag}")
    return None


def pass_problem(who: str, bag: int | None, cells: Mapping[int, int] | None, rack: Sequence[int] | None) -> Problem | None:
    """A pass is allowed only with the bag empty and nothing placeable: judged
    as far as the bag's count, the board (``cells``) and the rack are known."""
    if bag:
        return Problem("illegal-pass", "", f"{who} passes while the bag holds {count(bag, 'tile')} (exchange instead)")
    if bag == 0 and cells is not None and rack is not None:
        move = playable_tile(cells, rack)
        if move is not None:
            return Problem("illegal-pass", "", f"{who} passes but could place {move.tile} at ({move.x},{move.y})")
    return None


def minus(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The multiset ``a - b``."""
    rest = list(b)
    out = []
    for t in a:
        if t in rest:
            rest.remove(t)
        else:
            out.append(t)
    return out


def missing(rack: list[int], tiles: list[int]) -> int | None:
    """The index in ``tiles`` of the first tile the rack cannot supply, or ``None``."""
    have = [0] * len(TILES)  # (counts by tile: no list copied and searched, no tile compared)
    for t in rack:
        have[t] += 1
    for j, t in enumerate(tiles):
        if not have[t]:
            return j
        have[t] -= 1
    return None


class Ledger:
    """The replay's account of racks, bag and tiles in sight (see the module's notes).

    ``who[p]`` names seat ``p`` in messages; ``notes`` receives the findings.
    The attributes are the account itself, read by the game that owns it:
    ``seen[t]`` copies of ``t`` in sight, ``known[p]`` and ``size[p]`` each
    rack, ``bag`` the bag's count and ``bag_tiles`` its tiles by kind (each
    ``None`` once not known), ``rack_total`` the sum of the rack sizes while known.
    """

    def __new__(cls, *args: object, **kwargs: object) -> Ledger:  # (compiled: pickles, copies)
        return super().__new__(cls)

    __slots__ = ("who", "notes", "seen", "known", "size", "peak", "bag", "bag_tiles", "rack_total")

    def __init__(self, who: Sequence[str], notes: Notes) -> None:
        n = len(who)
        self.who = tuple(who)
        self.notes = notes
        self.seen = [0] * len(TILES)
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.size: list[int | None] = [None] * n
        # peak[p][t]: the most copies of t seen at once since p last drew
        self.peak = [[0] * len(TILES) for _ in range(n)]
        self.bag: int | None = None
        self.bag_tiles: list[int] | None = None  # counts by tile, while the setup's list of them holds
        self.rack_total: int | None = None

    def copy(self, notes: Notes) -> Ledger:
        """An independent copy, adding to ``notes``."""
        other = Ledger.__new__(Ledger)
        other.who, other.notes, other.seen = self.who, notes, list(self.seen)
        other.known, other.size = [list(k) for k in self.known], list(self.size)
        other.peak = [list(p) for p in self.peak]
        other.bag, other.rack_total = self.bag, self.rack_total
        other.bag_tiles = None if self.bag_tiles is None else list(self.bag_tiles)
        return other

    # -- what is in sight --------------------------------------------------------

    def raise_peaks(self, t: int) -> None:
        count = self.seen[t]
        for peak in self.peak:
            if count > peak[t]:
                peak[t] = count

    def add_seen(self, t: int, turn: int | None, pointer: str, how: str, p: int | None = None) -> None:
        """Count one more copy of ``t`` in sight; ``how`` (and seat ``p``) say how it came."""
        self.seen[t] += 1
        self.raise_peaks(t)
        if self.seen[t] == COPIES + 1:
            where = how if p is None else f"{how} {self.who[p]}"
            self.notes.add("tile-overused", turn, pointer,
                           f"a 4th {TILES[t]} {where}: the game has only {COPIES}, "
                           "all already on the board or in known racks")

    def forget(self, p: int, keep_size: bool = False) -> None:
        for t in self.known[p]:
            self.seen[t] -= 1
        self.known[p] = []
        if not keep_size:
            self.size[p] = None
            self.rack_total = None

    def forget_bag(self) -> None:
        """The bag's tiles are no longer known (its count may still be)."""
        if self.bag_tiles is not None:
            for t, c in enumerate(self.bag_tiles):
                self.seen[t] -= c
            self.bag_tiles = None

    def forget_all(self) -> None:
        """After a turn that could not be read: nothing off the board is known."""
        self.bag = None
        self.forget_bag()
        for p in range(len(self.known)):
            self.forget(p)

    def rack(self, p: int) -> list[int] | None:
        size = self.size[p]
        return self.known[p] if size is not None and len(self.known[p]) == size else None

    def deduce_sizes(self) -> None:
        """With the sum of the rack sizes known, one unknown size follows from the others."""
        if self.rack_total is None:
            return
        unknown = [p for p in range(len(self.size)) if self.size[p] is None]
        if len(unknown) == 1:
            rest = self.rack_total - sum(s for s in self.size if s is not None)
            if 0 <= rest <= RACK_SIZE:
                self.size[unknown[0]] = rest
        elif unknown and self.rack_total == 0:
            for p in unknown:
                self.size[p] = 0

    # -- a turn's tiles --------------------------------------------------------------

    def given_rack(self, n: int, base: str, p: int, rack: Sequence[int]) -> None:
        """A turn tells seat ``p``'s rack: compare it with what was known, then know it."""
        size = self.size[p]
        known = self.known[p]
        if size == len(rack) == len(known) and sorted(known) == sorted(rack):
            return  # the rack the replay expected, in another order
        who = self.who[p]
        if size is not None:
            if len(rack) != size:
                self.notes.add("rack-mismatch", n, f"{base}/rack", f"{who}'s rack has {count(len(rack), 'tile')}; it "
                               f"should hold {size}" + (f": {tile_names(sorted(known))}" if len(known) == size else ""))
                if self.bag is not None:  # the tiles not drawn are still in the bag
                    self.bag = max(0, self.bag + size - len(rack))
            else:
                lacking = minus(known, rack)
                if lacking:
                    whole = len(known) == size
                    self.notes.add("rack-mismatch", n, f"{base}/rack", f"{who}'s rack is {tile_names(rack)}; "
                                   + (f"previous rack less played plus drawn is {tile_names(sorted(known))}"
                                      if whole else f"it should include {tile_names(lacking)}"))
        new = minus(rack, known)  # held since this player last drew
        peak = self.peak[p]
        for t in sorted(set(new)):
            if peak[t] + new.count(t) > COPIES:
                self.notes.add("tile-overused", n, f"{base}/rack/{list(rack).index(t)}",
                               f"{who}'s rack holds {new.count(t)} {TILES[t]} while {peak[t]} "
                               f"were on the board or in known racks: the game has only {COPIES}")
        total = self.rack_total
        self.forget(p)
        if total is not None:
            self.rack_total = total + (len(rack) - size if size is not None else 0)
        seen = self.seen
        for t in rack:
            seen[t] += 1
            self.raise_peaks(t)
        self.known[p] = list(rack)
        self.size[p] = len(rack)
        self.deduce_sizes()

    def take(self, n: int, base: str, p: int, tiles: Sequence[int], verb: str) -> list[int]:
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
                    self.notes.add("tile-not-in-rack", n, f"{base}/tiles/{j}", f"{self.who[p]} {verb} {TILES[t]}, "
                                   f"which is not in the rack ({tile_names(sorted(before)) or 'empty'})")
                    whole = False  # one report per turn for a whole known rack
        if size is not None:
            if len(tiles) > size and len(before) != size:
                self.notes.add("tile-not-in-rack", n, f"{base}/tiles",
                               f"{self.who[p]} {verb} {count(len(tiles), 'tile')} from a rack of {size}")
            self.size[p] = max(0, size - len(tiles))
        if self.rack_total is not None:
            self.rack_total = max(0, self.rack_total - len(tiles))
        return unknown

    def draw(self, n: int, base: str, p: int, turn: Turn, expected: int | None) -> None:
        """Refill after a turn: check the count, add the tiles, empty the bag."""
        draw = turn.draw
        if draw is not None and len(draw) > RACK_SIZE and self.notes.too_many(draw, RACK_SIZE, n, f"{base}/draw",
                                                                              f"{self.who[p]} draws"):
            draw = None  # not read: as a draw not recorded
        if draw is not None:
            got = len(draw)
            if expected is not None and got != expected:
                self.notes.add("draw-count", n, f"{base}/draw", f"{self.who[p]} draws {count(got, 'tile')}; with "
                               f"{self.bag} in the bag the rack refills with {expected}")
            seen = self.seen
            peaks = self.peak
            bag_tiles = self.bag_tiles
            for j, t in enumerate(draw):
                if bag_tiles is not None:
                    if bag_tiles[t]:
                        bag_tiles[t] -= 1  # from the known bag to the rack: still in sight
                        continue
                    self.notes.add("not-in-bag", n, f"{base}/draw/{j}",
                                   f"{self.who[p]} draws {TILES[t]}, which is not in the bag the setup lists")
                copies = seen[t] + 1
                if copies > COPIES:
                    self.add_seen(t, n, f"{base}/draw/{j}", "drawn by", p)
                    continue
                seen[t] = copies
                for peak in peaks:  # as raise_peaks, inline: this is the replay's busiest loop
                    if copies > peak[t]:
                        peak[t] = copies
            self.known[p].extend(draw)
        elif expected is None:
            self.forget(p)
            self.forget_bag()
            return
        else:
            got = expected
            if got:
                self.forget_bag()  # unknown tiles left it
        size = self.size[p]
        if size is not None:
            self.size[p] = size + got
        if self.rack_total is not None:
            self.rack_total += got
        if self.bag is not None:
            self.bag = max(0, self.bag - got)

    def exchange(self, n: int, base: str, p: int, turn: Turn) -> None:
        """An exchange: the tiles set aside, as many drawn, the set-aside ones back into the bag."""
        notes = self.notes
        exchanged = turn.exchanged
        if exchanged is not None and len(exchanged) > RACK_SIZE and notes.too_many(exchanged, RACK_SIZE, n, f"{base}/tiles",
                                                                                   f"{self.who[p]} exchanges"):
            self.forget(p)  # not read: the rack and the bag are no longer known
            self.forget_bag()
            return
        k = turn.exchange_size
        if exchanged is not None and turn.count is not None and turn.count != len(exchanged):
            notes.add("exchange-count", n, f"{base}/count",
                      f"{self.who[p]} exchanges {count(len(exchanged), 'tile')} but the count says {turn.count}")
        if k is None:  # unreadable tiles and no count: the rack is no longer known
            self.forget(p)
            self.forget_bag()
            return
        problem = exchange_problem(self.who[p], k, self.bag, "/tiles" if exchanged else "/count")
        if problem is not None:
            notes.add(problem.code, n, base + problem.where, problem.message)
        size = self.size[p]
        if exchanged is not None:
            taken = minus(exchanged, self.take(n, base, p, exchanged, "exchanges"))
        else:
            taken = []
            self.forget(p, keep_size=True)
            if size is not None:
                if k > size:
                    notes.add("tile-not-in-rack", n, f"{base}/count",
                              f"{self.who[p]} exchanges {count(k, 'tile')} from a rack of {size}")
                self.size[p] = max(0, size - k)
            if self.rack_total is not None:
                self.rack_total = max(0, self.rack_total - k)
        self.draw(n, base, p, turn, k)
        if self.bag is not None:
            self.bag += k  # the set-aside tiles go back
        if self.bag_tiles is not None and exchanged is not None and not minus(exchanged, taken):
            for back in exchanged:  # back into the known bag: still in sight
                self.bag_tiles[back] += 1
        else:
            self.forget_bag()
            for t in taken:  # the set-aside tiles go back into the bag
                self.seen[t] -= 1


# -- the starting position: a setup read into a ledger ---------------------------------------

def set_racks(ledger: Ledger, setup: Setup | None) -> tuple[bool, bool]:
    """The setup's racks; whether they were stated (one per seat) and whether every one was read."""
    if setup is None or setup.racks is None:
        return False, True
    n = len(ledger.known)
    if len(setup.racks) != n:
        ledger.notes.add("bad-setup", None, "/setup/racks",
                         f"the setup gives {count(len(setup.racks), 'rack')} for {count(n, 'player')}")
        return False, True
    whole = True
    for p, rack in enumerate(setup.racks):
        if isinstance(rack, int):
            ledger.size[p] = rack
            continue
        if ledger.notes.too_many(rack, RACK_SIZE, None, f"/setup/racks/{p}", f"the setup's rack of {ledger.who[p]} holds"):
            whole = False
            continue
        for j, t in enumerate(rack):
            ledger.add_seen(t, None, f"/setup/racks/{p}/{j}", "in the setup's rack of", p)
        ledger.known[p] = list(rack)
        ledger.size[p] = len(rack)
    return True, whole

def set_bag(ledger: Ledger, setup: Setup | None, on_board: int, racks_stated: bool, whole: bool) -> None:
    """The setup's bag, and the sizes that the board, bag and racks imply
    (``whole``: every list of the setup was read, so their sums tell)."""
    notes = ledger.notes
    n = len(ledger.known)
    off = TILE_COUNT - on_board  # tiles in racks and bag
    bag: int | None = None
    if setup is not None and setup.bag is not None:
        if isinstance(setup.bag, int):
            bag = setup.bag
        elif notes.too_many(setup.bag, TILE_COUNT, None, "/setup/bag", "the setup's bag holds"):
            whole = False
        else:
            bag = len(setup.bag)
            ledger.bag_tiles = [0] * len(TILES)
            for j, t in enumerate(setup.bag):
                ledger.bag_tiles[t] += 1
                ledger.add_seen(t, None, f"/setup/bag/{j}", "in the setup's bag")
    sizes = ledger.size
    if not whole:  # a list not read: the sums of board, bag and racks tell nothing
        pass
    elif racks_stated:
        total = sum(s for s in sizes if s is not None)
        if bag is None:
            bag = off - total
            if bag < 0:
                notes.add("bad-setup", None, "/setup/racks",
                          f"the racks hold {count(total, 'tile')}, but only {off} are off the board")
                bag = None
        elif bag + total != off:
            notes.add("bad-setup", None, "/setup/bag", f"the board ({on_board}), the bag ({bag}) and the racks ({total}) "
                      f"hold {on_board + bag + total} tiles, not {TILE_COUNT}")
        if bag and any(s is not None and s < RACK_SIZE for s in sizes):
            notes.add("bad-setup", None, "/setup/racks",
                      f"a rack holds fewer than {RACK_SIZE} tiles while the bag holds {bag}")
    else:
        rest = None if bag is None else off - bag
        if bag is None:
            bag = max(0, off - RACK_SIZE * n)
            rest = off - bag
        assert rest is not None
        if rest < 0 or rest > RACK_SIZE * n or (bag and rest != RACK_SIZE * n):
            notes.add("bad-setup", None, "/setup/bag",
                      f"with {on_board} tiles on the board and {bag} in the bag, the {n} racks would hold {count(rest, 'tile')}"
                      + (f": while the bag holds tiles every rack holds {RACK_SIZE}" if bag else ""))
        elif rest == RACK_SIZE * n or rest == 0:
            for p in range(n):
                sizes[p] = rest // n
        else:  # an empty bag and short racks: only their sum is known
            ledger.rack_total = rest
    ledger.bag = bag
    if racks_stated and bag == 0:
        ledger.rack_total = sum(s for s in sizes if s is not None) if None not in sizes else None


class Dealer:
    """The dealer's ledger: every rack and the bag, in draw order (the last tile is drawn first).

    ``rng`` shuffles exchanged tiles back into the bag. Each change returns
    what :meth:`undo_place` and :meth:`undo_exchange` need to put it back exactly.
    """

    def __new__(cls, *args: object, **kwargs: object) -> Dealer:  # (compiled: pickles, copies)
        return super().__new__(cls)

    __slots__ = ("racks", "bag", "rng")

    def __init__(self, racks: Sequence[Sequence[int]], bag: Sequence[int], rng: random.Random) -> None:
        self.racks = [[int(t) for t in r] for r in racks]
        self.bag = [int(t) for t in bag]
        self.rng = rng

    @classmethod
    def deal(cls, players: int, seed: int) -> tuple[Dealer, int]:
        """A new deal: the bag shuffled by ``seed``, six tiles to each seat in
        turn; and the starter, by the rules: the largest group of tiles sharing
        a colour or a shape (a tie goes to the lower seat, as a record just says
        who started). The deal's generator goes on to shuffle exchanges."""
        rng = random.Random(seed)
        bag = [t for t in range(len(TILES)) for _ in range(COPIES)]
        rng.shuffle(bag)
        racks = [[bag.pop() for _ in range(RACK_SIZE)] for _ in range(players)]
        return cls(racks, bag, rng), starter(racks)

    def left(self) -> list[int]:
        """Every tile off the board: in the racks and the bag."""
        return [t for r in self.racks for t in r] + self.bag

    def place(self, p: int, tiles: Sequence[int]) -> list[int]:
        """Seat ``p`` puts ``tiles`` down and refills from the bag; returns the tiles drawn."""
        rack, bag = self.racks[p], self.bag
        for t in tiles:
            rack.remove(t)
        new = [bag.pop() for _ in range(min(len(tiles), len(bag)))]
        rack.extend(new)
        return new

    def undo_place(self, p: int, held: Sequence[int], drawn: int) -> None:
        """Take back a :meth:`place` of seat ``p``, whose rack was ``held``, that drew ``drawn`` tiles."""
        rack, bag = self.racks[p], self.bag
        for _ in range(drawn):  # (the tiles drawn are the rack's last: back into the bag in the order drawn)
            bag.append(rack.pop())
        rack[:] = held

    def exchange(self, p: int, out: Sequence[int]) -> tuple[list[int], list[int], object]:
        """Seat ``p`` sets ``out`` aside, draws as many, and the set-aside tiles
        are shuffled back; returns the tiles drawn, and the bag and generator
        state before (for :meth:`undo_exchange`)."""
        rack, bag = self.racks[p], self.bag
        saved_bag, saved_rng = list(bag), self.rng.getstate()
        for t in out:
            rack.remove(t)
        new = [bag.pop() for _ in range(len(out))]
        rack.extend(new)
        bag.extend(out)
        self.rng.shuffle(bag)
        return new, saved_bag, saved_rng

    def undo_exchange(self, p: int, held: Sequence[int], bag: Sequence[int], rng: object) -> None:
        self.bag[:] = bag
        self.rng.setstate(rng)  # type: ignore[arg-type]
        self.racks[p][:] = held

    def refusal(self, who: str, p: int, action: str, tiles: list[int], cells: Mapping[int, int]) -> Problem | None:
        """Why seat ``p`` may not play ``action`` with ``tiles`` (placed or exchanged)
        on the board ``cells``, as far as its rack and the bag say: a placement's
        lines are the rules' to judge."""
        rack = self.racks[p]
        if action == "place":
            j = missing(rack, tiles)
            if j is not None:
                return Problem("tile-not-in-rack", f"/tiles/{j}",
                               f"{who} places {TILES[tiles[j]]}, which is not in the rack ({tile_names(sorted(rack))})")
            return opening_problem(who, action, len(tiles), rack) if not cells else None
        if not cells:
            return opening_problem(who, action, 0, rack)
        if action == "exchange":
            if not tiles:
                return Problem("exchange-count", "/tiles", "an exchange of no tiles")
            j = missing(rack, tiles)
            if j is not None:
                return Problem("tile-not-in-rack", f"/tiles/{j}",
                               f"{who} exchanges {TILES[tiles[j]]}, which is not in the rack ({tile_names(sorted(rack))})")
            return exchange_problem(who, len(tiles), len(self.bag))
        return pass_problem(who, len(self.bag), cells, rack)


__all__ = ["Dealer", "Ledger", "Problem", "exchange_problem", "minus", "missing", "opening_problem", "pass_problem", "set_bag",
           "set_racks"]


def starter(racks: Sequence[Sequence[int]]) -> int:
    """The seat the rules choose to start: the largest group of tiles sharing a colour or
    a shape (a tie goes to the lower seat)."""
    return max(range(len(racks)), key=lambda s: (largest_group(racks[s]), -s))
