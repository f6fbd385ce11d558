"""The game engine: a record played turn by turn, leniently (the validator) or strictly.

Its parts, one concept each: :mod:`~qwirkle_tools.play.state` (the values a
game hands out: :class:`GameState`, :class:`TurnResult`, :class:`LeadChange`,
:class:`IllegalMoveError`), :mod:`~qwirkle_tools.play.ledger` (what is known
of the racks and the bag, and the rules of a turn that depend on them),
:mod:`~qwirkle_tools.play.replay` (:class:`Replay`: the board, the ledger, the
turn order and the end, and the one replay loop) and
:mod:`~qwirkle_tools.play.history` (:func:`replay` into a :class:`History`,
and :func:`check`, the same loop keeping only the findings). This module
gives their public names in one place, as release 0.1 did.
"""

from __future__ import annotations

from .history import History, check, replay, sole_leader
from .replay import Replay
from .state import BOARD_UNKNOWN_WHY, GameState, IllegalMoveError, LeadChange, TurnResult

__all__ = ["BOARD_UNKNOWN_WHY", "GameState", "History", "IllegalMoveError", "LeadChange", "Replay", "TurnResult", "check",
           "replay", "sole_leader"]
