"""Leave values: what the tiles a move keeps (the *leave*) are worth to the mover.

A move's equity (:mod:`qwirkle_tools.engines.equity`) is its score plus the
value of its leave. The model is linear in a few features of the leave, each
with a weight fitted by self-play (``tools/fit_leaves.py``, which writes
``qwirkle_tools/data/leaves.json``):

* ``kept``: how many tiles are kept (so how few fresh tiles are drawn);
* ``duplicate``: kept copies of a tile already kept (two copies can never
  share a line, so one of them must wait);
* ``pair``: pairs of different kept tiles sharing a colour or a shape (they
  may go down together next turn);
* ``five``: different kept tiles that complete a line of five on the board
  (a Qwirkle next turn if the line stays open);
* ``dead``: kept tiles that fit no empty cell of the board.

The board terms are read from the board *before* the move (the move
generator's kept data for it: :func:`~qwirkle_tools.core.frontier.board_data`),
so one position's leaves are valued from one survey of its board; the move
itself may close a five or open new places, which is not seen.

The value is scaled by the bag: it counts in full while the bag holds at
least :attr:`Leaves.taper` tiles after the mover's draw, less in proportion
below that, and not at all once the bag is empty (then both racks are known,
and what the tiles are worth is the endgame's business, not a guess).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from ..core.frontier import board_data
from ..core.lines import JOIN, LINE_MAX
from ..core.pickling import Rebuilt, rebuilt
from ..core.rules import DEFAULT_RULES

FEATURES: tuple[str, ...] = ("kept", "duplicate", "pair", "five", "dead")
"""The leave's features, in the order of :attr:`Leaves.weights`."""
DATA_FILE = "leaves.json"

Valuer = Callable[[Sequence[int], int], float]
"""A leave's value on one board: ``valuer(kept, bag)`` (see :meth:`Leaves.on`)."""


@dataclass(frozen=True, slots=True)
class Terms:
    """What one board says of every tile: which fit some empty cell (``live``)
    and which complete a line of five (``five``), as 36-bit tile masks. On an
    empty board every tile is live and none completes a five."""

    live: int
    five: int

    @classmethod
    def of(cls, cells: Mapping[int, int], bonus: int = DEFAULT_RULES.qwirkle_bonus) -> Terms:
        """The terms of ``cells``; ``bonus``: the rules' Qwirkle bonus, as the move
        generator was given it (the board data it keeps is then shared, not rebuilt)."""
        if not cells:
            return cls((1 << 36) - 1, 0)
        data = board_data(cells if type(cells) is dict else dict(cells), bonus)
        live = five = 0
        five_tiles = LINE_MAX - 1  # the tiles of a line a sixth tile makes a Qwirkle
        runs = (data.before_x, data.after_x, data.before_y, data.after_y)
        for f, mask in data.joinable.items():
            live |= mask
            if mask:
                bx, ax, by, ay = (r.get(f) for r in runs)
                row = (bx[2] if bx else 0) + (ax[2] if ax else 0)
                col = (by[2] if by else 0) + (ay[2] if ay else 0)
                if row == five_tiles or col == five_tiles:
                    five |= mask
        return cls(live, five)

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)


def features(kept: Sequence[int], terms: Terms) -> tuple[int, ...]:
    """The leave's features (see :data:`FEATURES`) on a board described by ``terms``.

    >>> features([0, 0, 1], Terms((1 << 36) - 1, 0))  # red circle twice, red cross: 3 kept, 1 duplicate, 1 pair
    (3, 1, 1, 0, 0)
    """
    n = len(kept)
    distinct = sorted(set(kept))
    pairs = 0
    for i, a in enumerate(distinct):
        join = JOIN[a]
        for b in distinct[i + 1:]:
            pairs += join >> b & 1
    live, five = terms.live, terms.five
    return (n, n - len(distinct), pairs, sum(five >> t & 1 for t in distinct), sum(1 for t in kept if not live >> t & 1))


@dataclass(frozen=True, slots=True)
class Leaves:
    """The leave model: a weight per feature (:data:`FEATURES`), the bag size
    from which a leave counts in full (``taper``; 0: whenever the bag is not
    empty) and what an exchange is worth beyond its leave (``exchange``, a
    constant: the draw of fresh tiles less the turn spent, on average).

    >>> ZERO.value([0, 0], {}, 30)
    0.0
    """

    weights: tuple[float, ...] = (0.0,) * len(FEATURES)
    taper: float = 0.0
    exchange: float = 0.0
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"a leave model has {len(FEATURES)} weights ({', '.join(FEATURES)}), not {len(self.weights)}")
        if self.taper < 0:
            raise ValueError(f"the taper is a bag size, 0 or more, not {self.taper}")

    def __reduce__(self) -> Rebuilt:  # (pickle and copy, the compiled build too)
        return rebuilt(self)

    def scale(self, bag: int) -> float:
        """How much a leave counts with ``bag`` tiles left in the bag after the draw."""
        if bag <= 0:
            return 0.0
        return 1.0 if bag >= self.taper else bag / self.taper

    def value(self, kept: Sequence[int], cells: Mapping[int, int], bag: int) -> float:
        """The value of keeping ``kept`` (tile numbers) on the board ``cells``
        (the board before the move: cell key to tile) with ``bag`` tiles left in
        the bag after the mover's draw."""
        scale = self.scale(bag)
        if not scale:
            return 0.0
        return scale * sum(w * x for w, x in zip(self.weights, features(kept, Terms.of(cells))))

    def on(self, cells: Mapping[int, int], bonus: int = DEFAULT_RULES.qwirkle_bonus) -> Valuer:
        """:meth:`value` for one board, surveyed once, each leave's features
        worked out once; ``bonus`` as for :meth:`Terms.of`."""
        terms: Terms | None = None
        known: dict[tuple[int, ...], float] = {}  # a leave (sorted) to its value before the bag's scale
        weights = self.weights

        def valued(kept: Sequence[int], bag: int) -> float:
            nonlocal terms
            scale = self.scale(bag)
            if not scale:
                return 0.0
            key = tuple(sorted(kept))
            found = known.get(key)
            if found is None:
                if terms is None:
                    terms = Terms.of(cells, bonus)
                found = known[key] = sum(w * x for w, x in zip(weights, features(key, terms)))
            return scale * found

        return valued

    def parts(self, rack: Sequence[int], terms: Terms) -> list[float]:
        """The value, before the bag's :meth:`scale`, of keeping each part of
        ``rack``: item ``mask`` for the rack's tiles at the bits of ``mask``
        (bit ``i``: ``rack[i]`` kept). The same sums as :meth:`value`, built
        up a tile at a time (a tile adds ``kept`` and perhaps ``dead``; a copy
        of a kept tile ``duplicate``; a new tile its ``five`` and a ``pair``
        for each different kept tile it shares a colour or shape with), so the
        2**6 parts of a rack cost about what a few calls of :meth:`value` do."""
        w_kept, w_duplicate, w_pair, w_five, w_dead = self.weights  # (FEATURES' order)
        live, five = terms.live, terms.five
        size = 1 << len(rack)
        values = [0.0] * size
        held = [0] * size  # the different tiles of each part, as a tile mask
        for mask in range(1, size):
            low = mask & -mask
            rest = mask ^ low
            t = rack[low.bit_length() - 1]
            have = held[rest]
            v = values[rest] + w_kept
            if not live >> t & 1:
                v += w_dead
            if have >> t & 1:
                v += w_duplicate
            else:
                v += w_pair * (JOIN[t] & have).bit_count()
                if five >> t & 1:
                    v += w_five
            values[mask] = v
            held[mask] = have | 1 << t
        return values

    def to_data(self) -> dict[str, object]:
        return {"features": dict(zip(FEATURES, self.weights)), "taper": self.taper, "exchange": self.exchange,
                "source": self.source}

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Leaves:
        """The model from :meth:`to_data`'s form.

        Raises:
            ValueError: a feature is missing or unknown, or a number is not one.
        """
        named = data.get("features")
        if not isinstance(named, dict) or set(named) != set(FEATURES):
            raise ValueError(f"a leave model names the features {', '.join(FEATURES)}")
        try:
            weights = tuple(float(named[f]) for f in FEATURES)
            taper = float(data.get("taper", 0.0))  # type: ignore[arg-type]
            exchange = float(data.get("exchange", 0.0))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ValueError("a leave model's weights, taper and exchange are numbers") from None
        return cls(weights, taper, exchange, str(data.get("source", "")))


ZERO = Leaves()
"""Every weight 0: a move's equity is its score."""


@cache
def default() -> Leaves:
    """The fitted model shipped in ``qwirkle_tools/data/leaves.json``, read once."""
    text = resources.files("qwirkle_tools").joinpath("data", DATA_FILE).read_text("utf-8")
    return Leaves.from_data(json.loads(text))


__all__ = ["DATA_FILE", "FEATURES", "ZERO", "Leaves", "Terms", "Valuer", "default", "features"]
