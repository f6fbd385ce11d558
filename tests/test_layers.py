"""The package's layers are its folders: every import points to the folder
itself or to one the folder's rule allows, and the import graph has no cycle.

Imports inside functions and for type checking count too. The top of the
package holds only the facade (``__init__``), the console script's first
module (``__main__``), the version and the table of the old module paths.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "qwirkle_tools"

ALLOWED: dict[str, set[str]] = {
    "core": set(),  # the game's facts: no input or output
    "draw": {"core"},  # how the game looks: the palette, the columns and rows drawn, SVG text
    "formats": {"core"},  # records in and out
    "play": {"core", "formats", "draw"},  # the game: a record replayed, the playable game (a notebook draws it)
    "engines": {"core", "formats", "play"},  # players by name and the searches: they play the game
    "analysis": {"core", "formats", "play", "engines"},  # a record checked, re-scored, analysed
    "outputs": {"core", "draw", "formats", "play", "engines", "analysis"},  # what a person reads
    "corpus": {"core", "formats", "play", "engines", "analysis"},  # many games at once
    "bots": {"core", "formats", "play", "engines", "corpus"},  # players and matches (the pool of corpus runs the games)
    "cli": {"core", "draw", "formats", "play", "engines", "analysis", "outputs", "corpus", "bots"},  # the command, on top
}
"""Each folder and the folders it may import (besides itself and ``version``)."""

TOP = {"__init__", "__main__", "version"}

LIMITS = {"module": 600, "class": 300, "function": 80}
"""The most lines a module, a class and a function may have."""


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name under ``qwirkle_tools``."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules (of ``known``) that module ``name`` imports, anywhere
    in it (a package imported for one of its modules counts as that module)."""
    here = name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        module = node.module.split(".") if node.module else []
        if node.level:  # relative: from the module's folder, one folder up for each dot past the first
            target = [*here[:len(here) - node.level + 1], *module]
        elif module[:1] == ["qwirkle_tools"]:
            target = module[1:]
        else:
            continue
        for alias in node.names:
            for candidate in (".".join([*target, alias.name]), ".".join(target), ".".join([*target, "__init__"])):
                if candidate in known:
                    found.add(candidate)
                    break
    return found - {name}


def folder(name: str) -> str | None:
    return name.split(".")[0] if "." in name else None


def test_the_package_is_in_its_folders() -> None:
    found = {folder(name) for name in modules()} - {None}
    assert found == set(ALLOWED)
    assert {name for name in modules() if folder(name) is None} == TOP


def test_every_import_points_to_its_own_folder_or_an_allowed_one() -> None:
    wrong = []
    found = modules()
    for name, path in found.items():
        home = folder(name)
        if home is None:
            continue
        for target in sorted(imports(name, path, set(found))):
            there = folder(target)
            if there is None:
                if target != "version":
                    wrong.append(f"{name} imports the top's {target}")
            elif there != home and there not in ALLOWED[home]:
                wrong.append(f"{name} ({home}) imports {target} ({there})")
    assert wrong == []


def test_the_import_graph_has_no_cycle() -> None:
    found = modules()
    graph = {name: imports(name, path, set(found)) for name, path in found.items()}
    state: dict[str, int] = {}  # 1: on the path, 2: done
    cycles: list[str] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*path[path.index(target):], target]))
            elif target not in state:
                visit(target, [*path, target])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert cycles == []


def test_no_module_class_or_function_is_too_long() -> None:
    long = []
    for name, path in modules().items():
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > LIMITS["module"]:
            long.append(f"module {name}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            kind = "class" if isinstance(node, ast.ClassDef) else \
                "function" if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else None
            if kind and node.end_lineno is not None:
                size = node.end_lineno - node.lineno + 1
                if size > LIMITS[kind]:
                    long.append(f"{kind} {name}.{node.name}: {size} lines")
    assert long == []


def test_the_facade_is_its_one_list() -> None:
    import qwirkle_tools

    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    typed = {(node.module, alias.name) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 1
             and node.module not in (None, "version") for alias in node.names}
    assert typed == {(module, name) for module, names in qwirkle_tools.PUBLIC.items() for name in names}
    assert qwirkle_tools.__all__ == sorted([*(name for names in qwirkle_tools.PUBLIC.values() for name in names),
                                            "__version__"])
    for name in qwirkle_tools.__all__:
        assert getattr(qwirkle_tools, name) is not None


@pytest.mark.parametrize("old", ["engine", "game", "board", "record", "match", "launch", "tables", "validate"])
def test_the_flat_paths_of_0_1_are_gone(old: str) -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"qwirkle_tools.{old}")


def test_a_folder_gives_its_modules_not_their_names() -> None:
    import qwirkle_tools.corpus
    from qwirkle_tools.corpus import rows

    assert hasattr(rows, "GameRows") and not hasattr(qwirkle_tools.corpus, "GameRows")


def test_the_package_import_is_light() -> None:
    # what every command pays for: nothing beyond the facade's table (its other imports are for type checkers)
    import qwirkle_tools

    assert imports("__init__", PACKAGE / "__init__.py", set(modules())) <= {"version", *qwirkle_tools.PUBLIC}
    code = "import sys, qwirkle_tools; print(sorted(m for m in sys.modules if m.startswith('qwirkle_tools')))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "['qwirkle_tools', 'qwirkle_tools.version']"


def test_the_tests_mirror_the_folders() -> None:
    """Each folder's tests are in the tests' folder of its name (``tests/core`` for ``core``),
    and every folder has one; the tests of the whole package stay at the top."""
    tests = PACKAGE.parent / "tests"
    mirrored = {d.name for d in tests.iterdir() if d.is_dir() and any(d.glob("test_*.py"))}
    assert mirrored == set(ALLOWED)
