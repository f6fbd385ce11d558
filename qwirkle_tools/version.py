"""The toolkit's version and which build runs, at the bottom of the layers so that any module may name them.

The package is one source in two builds: pure Python, and the hot modules compiled
with mypyc from the same ``.py`` files (``setup.py`` lists them; the compiled module
sits beside its ``.py`` file and is the one Python imports). ``QWIRKLE_PURE=1`` at
install time builds the pure package; at run time it makes a compiled install run its
``.py`` files, so both builds can be compared on one machine.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # (typing is not imported: every start of the command passes here)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec

__version__ = "0.1.0"

PURE_VARIABLE = "QWIRKLE_PURE"
"""The environment variable that asks for the pure build (any value but empty or ``0``)."""


def pure_asked() -> bool:
    """Whether :data:`PURE_VARIABLE` asks for the pure build."""
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


def build() -> str:
    """Which build runs: ``"compiled (mypyc)"`` or ``"pure Python"`` (with why, where it is said)."""
    from .core import movegen  # the hottest module: compiled in every compiled build

    if not movegen.__file__.endswith(".py"):
        return "compiled (mypyc)"
    return f"pure Python ({PURE_VARIABLE} is set)" if pure_asked() else "pure Python"


class _SourceFirst:
    """Finds the package's modules as their ``.py`` files, before any compiled module beside them."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None, target: object = None) -> ModuleSpec | None:
        if not name.startswith("qwirkle_tools.") or path is None:
            return None
        from importlib.util import spec_from_file_location  # (only when the pure build is asked for)

        leaf = name.rpartition(".")[2]
        for folder in path:
            package = os.path.join(folder, leaf, "__init__.py")
            if os.path.exists(package):
                return spec_from_file_location(name, package, submodule_search_locations=[os.path.dirname(package)])
            module = os.path.join(folder, leaf + ".py")
            if os.path.exists(module):
                return spec_from_file_location(name, module)
        return None


def run_the_source() -> None:
    """From now on the package's modules load from their ``.py`` files (the pure build),
    compiled ones beside them or not: called by the package's first lines when asked."""
    if not any(isinstance(finder, _SourceFirst) for finder in sys.meta_path):
        from importlib.machinery import PathFinder

        finders = sys.meta_path  # just before the path's finder (which finds compiled modules first), after any other
        finders.insert(finders.index(PathFinder) if PathFinder in finders else len(finders), _SourceFirst())
