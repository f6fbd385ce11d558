"""A move of the playable game: a placement, an exchange or a pass, with its text form.

The notation's form of a move (``rc@0,0 rd@1,0``, ``exchange rc rs``, ``pass``)
read by :meth:`Move.parse` and written by ``str``; :class:`~qwirkle_tools.play.game.Game`
lists, plays and takes back moves, and bots answer with their text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from ..core.board import Placement, format_move, parse_move
from ..core.errors import QwirkleError
from ..core.text import cut
from ..core.tiles import TILES, Tile, format_tiles, parse_tiles

Action = Literal["place", "exchange", "pass"]


class MoveError(QwirkleError, ValueError):
    """A text that is no move; the message quotes it."""


@dataclass(frozen=True, slots=True)
class Move:
    """One turn's move: a placement, an exchange or a pass.

    ``tiles`` are the placements of a ``place`` (in the order given),
    ``exchanged`` the tiles of an ``exchange``. ``score`` is what
    :meth:`Game.legal_moves <qwirkle_tools.play.game.Game.legal_moves>` found the move scores, end bonus included
    (``None`` on a move made or parsed by hand); it does not take part in
    comparisons, so a parsed move equals the listed one.

    >>> move = Move.parse("rc@0,0 rd@1,0")
    >>> str(move), str(Move.parse("exchange rc rs")), str(Move.parse("pass"))
    ('rc@0,0 rd@1,0', 'exchange rc rs', 'pass')
    >>> Move.parse(str(move)) == move
    True
    """

    action: Action
    tiles: tuple[Placement, ...] = ()
    exchanged: tuple[Tile, ...] = ()
    score: int | None = field(default=None, compare=False)

    @classmethod
    def place(cls, placements: Iterable[Placement], score: int | None = None) -> Move:
        return cls("place", tuple(placements), score=score)

    @classmethod
    def exchange(cls, tiles: Iterable[int]) -> Move:
        return cls("exchange", exchanged=tuple(TILES[t] for t in tiles), score=0)

    @classmethod
    def pass_turn(cls) -> Move:
        return cls("pass", score=0)

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
