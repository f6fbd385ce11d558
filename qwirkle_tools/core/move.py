"""A move: a placement, an exchange or a pass, with its one text form.

The notation's form of a move (``rc@0,0 rd@1,0``, ``exchange rc rs``, ``pass``)
is read by :meth:`Move.parse` and written by ``str``. The move generator
(:mod:`~qwirkle_tools.core.movegen`) lists placements as moves;
:class:`~qwirkle_tools.play.game.Game` lists, plays and takes back moves; bots
answer with the text.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal

from .board import Placement, cell_key, format_move, parse_move
from .errors import QwirkleError
from .text import cut
from .tiles import TILES, Tile, format_tiles, parse_tiles

Action = Literal["place", "exchange", "pass"]


class MoveError(QwirkleError, ValueError):
    """A text that is no move; the message quotes it."""


class Move:
    """One turn's move: a placement, an exchange or a pass.

    ``tiles`` are a placement's tiles on their cells, ``exchanged`` an
    exchange's tiles. Two moves are equal when they put the same tiles on the
    same cells, or exchange the same tiles, in whatever order they list them.
    ``score`` and ``qwirkles`` are what the lister found, and take no part in
    equality: :meth:`Game.legal_moves <qwirkle_tools.play.game.Game.legal_moves>`
    counts the end bonus in the score; the move generator, which does not know
    the bag, does not. A move written by hand has neither.

    A move is immutable: its attributes are ``Final`` (the type checker refuses an
    assignment; the compiled build refuses it at run time too). It is a plain class,
    not a dataclass: compiled, a dataclass's ``__init__`` is the interpreter's, and
    the move generator builds moves by the hundred thousand.

    >>> move = Move.parse("rc@0,0 rd@1,0")
    >>> str(move), str(Move.parse("exchange rc rs")), str(Move.parse("pass"))
    ('rc@0,0 rd@1,0', 'exchange rc rs', 'pass')
    >>> Move.parse(str(move)) == move == Move.parse("rd@1,0 rc@0,0")
    True
    """

    __slots__ = ("action", "tiles", "exchanged", "score", "qwirkles")

    def __init__(self, action: Action, tiles: tuple[Placement, ...] = (), exchanged: tuple[Tile, ...] = (),
                 score: int | None = None, qwirkles: int | None = None) -> None:
        self.action: Final[Action] = action
        self.tiles: Final[tuple[Placement, ...]] = tiles
        self.exchanged: Final[tuple[Tile, ...]] = exchanged
        self.score: Final[int | None] = score
        self.qwirkles: Final[int | None] = qwirkles

    def with_score(self, score: int) -> Move:
        """The same move with another score (the end bonus counted, say)."""
        return Move(self.action, self.tiles, self.exchanged, score, self.qwirkles)

    @classmethod
    def place(cls, placements: Iterable[Placement], score: int | None = None, qwirkles: int | None = None) -> Move:
        return cls("place", tuple(placements), (), score, qwirkles)

    @classmethod
    def exchange(cls, tiles: Iterable[int]) -> Move:
        return cls("exchange", (), tuple(TILES[t] for t in tiles), 0)

    @classmethod
    def pass_turn(cls) -> Move:
        return cls("pass", (), (), 0)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read the notation's form of a move, as :meth:`__str__` writes it:
        ``rc@0,0 rd@1,0`` (tiles long or short), ``exchange rc rs``, ``pass``;
        a cell's coordinates by the notation's grammar
        (:func:`~qwirkle_tools.core.board.parse_coordinate`: ``-1``, not ``+1``
        nor ``1_0`` nor another script's digits).

        Raises:
            MoveError: the text is no move; the message quotes it (cut to 60 characters).
        """
        words = text.split()
        try:
            if words == ["pass"]:
                return cls.pass_turn()
            if words and words[0] == "exchange":
                if len(words) == 1:
                    raise ValueError("name the tiles exchanged")
                return cls.exchange(parse_tiles(words[1:]))
            if not words:
                raise ValueError("it is empty")
            return cls.place(parse_move(text))
        except ValueError as exc:
            raise MoveError(f"bad move {cut(text, 60)!r}: write tile@x,y ..., exchange TILES or pass ({exc})") from None

    def __str__(self) -> str:
        if self.action == "place":
            return format_move(self.tiles)
        if self.action == "exchange":
            return f"exchange {format_tiles(self.exchanged)}"
        return "pass"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.action == other.action and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.action, self._key()))

    def _key(self) -> tuple[tuple[int, int], ...] | tuple[int, ...]:
        """What the move does, in one order: its placements by cell, or its exchanged tiles."""
        if self.action == "place":
            return tuple(sorted((cell_key(p.x, p.y), int(p.tile)) for p in self.tiles))
        return tuple(sorted(int(t) for t in self.exchanged))

    def __reduce__(self) -> tuple[type[Move], tuple[object, ...]]:  # (pickle and copy)
        return Move, (self.action, self.tiles, self.exchanged, self.score, self.qwirkles)
