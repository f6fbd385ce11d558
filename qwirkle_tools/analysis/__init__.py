"""A recorded game checked, re-scored and analysed: the validator's pipeline,
score tables and corrected records, best moves and points lost. Builds on
:mod:`~qwirkle_tools.core`, :mod:`~qwirkle_tools.formats` and :mod:`~qwirkle_tools.play`."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def __getattr__(name: str) -> Any:  # the module qwirkle_tools.analysis of 0.1 is qwirkle_tools.analysis.analyse
    if name.startswith("__"):
        raise AttributeError(name)
    import importlib

    return getattr(importlib.import_module(f"{__name__}.analyse"), name)
