"""The doctests of the package's modules (``--doctest-modules``) where the compiled build runs.

A compiled module keeps no docstrings, and it is not its ``.py`` file: its doctests are
run on the pure build instead (``tests/test_build.py``), and not collected here.
"""

from __future__ import annotations

import importlib.machinery
from pathlib import Path

from qwirkle_tools.version import pure_asked

_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def compiled_beside(path: Path) -> bool:
    """Whether the module of ``path`` (a ``.py`` file of the package) runs compiled here."""
    return not pure_asked() and any(path.with_name(path.stem + suffix).exists() for suffix in _SUFFIXES)


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if collection_path.suffix == ".py" and "qwirkle_tools" in collection_path.parts and compiled_beside(collection_path):
        return True
    return None
