"""The ``qwirkle`` command: parse, one library call, render. No game logic;
it may import every other folder and none imports it."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def __getattr__(name: str) -> Any:  # the module qwirkle_tools.cli of 0.1 is qwirkle_tools.cli.app
    if name.startswith("__"):
        raise AttributeError(name)
    import importlib

    return getattr(importlib.import_module(f"{__name__}.app"), name)
