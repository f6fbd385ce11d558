"""Players and matches: the bot protocol (QBP), the three kinds of player
(built-in policies, Python functions, outside programs) and the match runner.
Builds on :mod:`~qwirkle_tools.core`, :mod:`~qwirkle_tools.formats`,
:mod:`~qwirkle_tools.play` and :mod:`~qwirkle_tools.corpus` (its process pool)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def __getattr__(name: str) -> Any:  # the module qwirkle_tools.bots of 0.1 is qwirkle_tools.bots.players
    if name.startswith("__"):
        raise AttributeError(name)
    import importlib

    return getattr(importlib.import_module(f"{__name__}.players"), name)
