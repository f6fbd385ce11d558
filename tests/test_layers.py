"""The package's layers: every import points down, so there is no cycle.

Each module sits in a layer; a module may import only from lower layers
(imports inside functions and for type checking count too). The order is
the one STYLE.md gives: tiles, then board and the rules, the move
generator, record input and output, the engine, what is built on its
history, and the command line on top.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "qwirkle_tools"

LAYERS: list[set[str]] = [
    {"errors", "safetext", "native", "progress", "version"},
    {"findings", "jsontext", "tiles", "fileio"},
    {"board"},
    {"lines"},
    {"rules"},
    {"movegen", "schema"},
    {"record"},
    {"engine", "notation", "sheets"},
    {"lookahead", "game"},
    {"validate", "rescore", "analysis", "simulate", "policies", "qbp"},
    {"charts", "pictures", "corpus", "bots"},
    {"viewer", "match"},
    {"reporting", "tables", "convert", "cluster"},
    {"cli"},
    {"launch"},
    {"__main__", "__init__"},
]


def imports(module: Path) -> set[str]:
    """The package's modules that ``module`` imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found - {module.stem}


def layer(name: str) -> int:
    return next(i for i, members in enumerate(LAYERS) if name in members)


def test_every_module_has_a_layer() -> None:
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    assert modules == set().union(*LAYERS)


def test_every_import_points_to_a_lower_layer() -> None:
    wrong = []
    for module in sorted(PACKAGE.glob("*.py")):
        for target in sorted(imports(module)):
            if layer(target) >= layer(module.stem):
                wrong.append(f"{module.stem} (layer {layer(module.stem)}) imports {target} (layer {layer(target)})")
    assert wrong == []


def test_the_package_import_is_light() -> None:
    # what every command pays for: nothing beyond the facade (see qwirkle_tools/__init__.py)
    assert imports(PACKAGE / "__init__.py") <= {"engine", "errors", "board", "findings", "game", "record", "rules", "tiles",
                                                   "version"}
