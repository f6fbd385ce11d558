"""Tiles: 6 colours x 6 shapes, each an immutable value with a text form.

A tile is a small ``int`` (``colour * 6 + shape``, 0 to 35: :func:`tile_number`,
:data:`COLOUR_OF` and :data:`SHAPE_OF` are that encoding, and nothing else
spells it out) so that the rules engine can work on plain integers, but it
prints and parses as a name::

    >>> Tile.parse("orange-square")
    Tile.parse('orange-square')
    >>> str(Tile.parse("os"))
    'orange-square'
    >>> Tile.parse("orange-square").short
    'os'

Two text forms exist. The long form ``colour-shape`` is what records store.
The short form is two letters, colour then shape, for typing at a terminal:

=======  ====  =======  ====
colour   code  shape    code
=======  ====  =======  ====
red      r     circle   c
orange   o     cross    x
yellow   y     diamond  d
green    g     square   s
blue     b     star     t
purple   p     clover   l
=======  ====  =======  ====
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from .errors import QwirkleError
from .text import cut

COLOURS: Final[tuple[str, ...]] = ("red", "orange", "yellow", "green", "blue", "purple")
SHAPES: Final[tuple[str, ...]] = ("circle", "cross", "diamond", "square", "star", "clover")
COLOUR_CODES: Final[tuple[str, ...]] = ("r", "o", "y", "g", "b", "p")
SHAPE_CODES: Final[tuple[str, ...]] = ("c", "x", "d", "s", "t", "l")

COPIES: Final = 3
"""How many copies of each of the 36 tiles the game has."""
TILE_COUNT: Final = len(COLOURS) * len(SHAPES) * COPIES
"""108 tiles in all."""
RACK_SIZE: Final = 6


def tile_number(colour: int, shape: int) -> int:
    """The number of the tile of colour index ``colour`` and shape index
    ``shape`` (indexes into :data:`COLOURS` and :data:`SHAPES`): the one
    statement of the encoding, which :data:`COLOUR_OF` and :data:`SHAPE_OF` invert.

        >>> tile_number(1, 3), COLOUR_OF[9], SHAPE_OF[9]     # orange square
        (9, 1, 3)
    """
    return colour * len(SHAPES) + shape


COLOUR_OF: Final[tuple[int, ...]] = tuple(t // len(SHAPES) for t in range(len(COLOURS) * len(SHAPES)))
"""Each tile number's colour index (a table: the inner loops index it)."""
SHAPE_OF: Final[tuple[int, ...]] = tuple(t % len(SHAPES) for t in range(len(COLOURS) * len(SHAPES)))
"""Each tile number's shape index."""


class TileError(QwirkleError, ValueError):
    """A text that names no tile."""


@mypyc_attr(native_class=False)  # compiled, a subclass of int stays a Python class
class Tile(int):
    """One of the 36 distinct tiles; compare, hash and sort as its number.

    Build tiles with :meth:`parse` or :func:`tile`; the 36 instances are
    shared, so ``Tile.parse("rc") is Tile.parse("red-circle")``.
    """

    __slots__ = ()

    @property
    def colour(self) -> str:
        return COLOURS[COLOUR_OF[self]]

    @property
    def shape(self) -> str:
        return SHAPES[SHAPE_OF[self]]

    @property
    def name(self) -> str:
        """The long form, as records store it: ``"red-circle"``."""
        return _NAMES[self]

    @property
    def short(self) -> str:
        """The two-letter form: ``"rc"``."""
        return _SHORT[self]

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Tile.parse({_NAMES[self]!r})"

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read a tile from its long or short form (case and spaces ignored).

        Raises:
            TileError: the text names no tile; the message quotes it.
        """
        found = BY_TEXT.get(text.strip().lower())
        if found is None:
            raise TileError(
                f"unknown tile {cut(text, 40)!r}: write colour-shape (e.g. red-circle) "
                f"or two letters (e.g. rc); colours {', '.join(COLOURS)}; "
                f"shapes {', '.join(SHAPES)}"
            )
        return found


def tile(colour: str, shape: str) -> Tile:
    """The tile of that colour and shape, both given by name."""
    try:
        return TILES[tile_number(COLOURS.index(colour), SHAPES.index(shape))]
    except ValueError:
        raise TileError(f"no tile {colour!r} {shape!r}") from None


def parse_tiles(texts: Iterable[str]) -> list[Tile]:
    """Parse several tiles; also accepts one string separated by spaces or commas."""
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return [Tile.parse(t) for t in texts]


def format_tiles(tiles: Iterable[int], short: bool = True) -> str:
    """Tiles as one text, separated by spaces: ``"rc rs bd"`` (a rack or a
    bag; the long form with ``short=False``); :func:`parse_tiles` reads it back."""
    return " ".join((_SHORT if short else _NAMES)[t] for t in tiles)


def tile_name(t: int) -> str:
    """The long form of tile number ``t``."""
    return _NAMES[t]


def tile_names(tiles: Iterable[int]) -> str:
    """Tiles as one readable text: ``"red-circle, red-star"``."""
    return ", ".join(_NAMES[t] for t in tiles)


def each_copy(counts: Sequence[int]) -> list[int]:
    """The tiles of a count per tile (``counts[t]`` copies of tile ``t``), one
    entry per copy, in tile order: the unseen tiles, a bag's contents.

        >>> each_copy([2, 0, 1])
        [0, 0, 2]
    """
    return [t for t, c in enumerate(counts) for _ in range(c)]


def largest_group(tiles: Iterable[int]) -> int:
    """Size of the largest group sharing a colour or a shape, duplicates once.

    This is the number each player announces before the first move.

        >>> largest_group(parse_tiles("rc rc rs bc gc yd"))
        3
    """
    distinct = set(tiles)
    best = 0
    for value in range(6):
        best = max(
            best,
            sum(1 for t in distinct if COLOUR_OF[t] == value),
            sum(1 for t in distinct if SHAPE_OF[t] == value),
        )
    return best


_NAMES: Final[tuple[str, ...]] = tuple(f"{COLOURS[c]}-{SHAPES[s]}" for c, s in zip(COLOUR_OF, SHAPE_OF))
_SHORT: Final[tuple[str, ...]] = tuple(COLOUR_CODES[c] + SHAPE_CODES[s] for c, s in zip(COLOUR_OF, SHAPE_OF))
TILES: Final[tuple[Tile, ...]] = tuple(Tile(i) for i in range(36))
"""The 36 distinct tiles, in colour-major order."""
BY_NAME: Final[dict[str, Tile]] = {n: TILES[i] for i, n in enumerate(_NAMES)}
"""Long name to tile, for the record reader's fast path."""
BY_TEXT: Final[dict[str, Tile]] = {**BY_NAME, **{s: TILES[i] for i, s in enumerate(_SHORT)}}
"""Long name or two-letter short form (both in lower case) to tile: what
:meth:`Tile.parse` reads, for readers that look tiles up many at a time."""
