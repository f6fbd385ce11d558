"""The module paths of release 0.1, before the folders: ``qwirkle_tools.engine``
is :mod:`qwirkle_tools.play.engine` and so on (:data:`MOVED`). They stay
importable for one release, each the very module of its new path; new code
imports the new paths. (``analysis``, ``corpus``, ``bots`` and ``cli`` are
folders now; each folder's ``__init__`` hands on the old module's names.)"""

from __future__ import annotations

import importlib
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

MOVED = {
    **{m: f"core.{m}" for m in ("board", "errors", "findings", "lines", "movegen", "rules", "safetext", "tiles")},
    **{m: f"formats.{m}" for m in ("fileio", "jsontext", "native", "notation", "record", "schema", "sheets")},
    **{m: f"play.{m}" for m in ("engine", "game", "lookahead", "policies", "simulate")},
    "validate": "analysis.validate", "rescore": "analysis.rescore",
    **{m: f"outputs.{m}" for m in ("charts", "convert", "pictures", "reporting", "viewer")},
    "tables": "corpus.tables", "cluster": "corpus.cluster", "qbp": "bots.qbp", "match": "bots.match",
    "launch": "cli.launch", "progress": "cli.progress",
}
"""Old module name (under ``qwirkle_tools``) to its path now."""


_specs: dict[str, ModuleSpec | None] = {}  # each moved module's own spec, by its new name


class _Finder:
    """Finds ``qwirkle_tools.OLD`` and loads it as the module at its new path (a finder
    and loader by its methods: ``importlib.abc`` would load tempfile, shutil, random and
    typing, 10 ms of every command's start)."""

    def find_spec(self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> ModuleSpec | None:
        package, _, old = name.rpartition(".")
        if package != __package__ or old not in MOVED:
            return None
        from importlib.util import spec_from_loader

        return spec_from_loader(name, self)  # type: ignore[arg-type]  # (a loader by create_module and exec_module)

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        module = importlib.import_module(f"{__package__}.{MOVED[spec.name.rpartition('.')[2]]}")
        _specs[module.__name__] = module.__spec__  # the import system sets the old spec on it; exec_module puts it back
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = _specs[module.__name__]


def install() -> None:
    """Make the old paths importable (once)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
