"""Many games at once: rows and statistics, the process pool, pandas and
Parquet tables, the Dask cluster. Builds on :mod:`~qwirkle_tools.core`,
:mod:`~qwirkle_tools.formats`, :mod:`~qwirkle_tools.play` and
:mod:`~qwirkle_tools.analysis`."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def __getattr__(name: str) -> Any:  # the module qwirkle_tools.corpus of 0.1 is qwirkle_tools.corpus.rows
    if name.startswith("__"):
        raise AttributeError(name)
    import importlib

    return getattr(importlib.import_module(f"{__name__}.rows"), name)
