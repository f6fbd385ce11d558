"""The build: the hot modules compiled with mypyc, from the same ``.py`` files, where it can be.

``pip install .`` (``-e`` too, and a wheel build) compiles the modules in :data:`COMPILED`
when a C compiler and the Python headers are present, and installs the pure-Python
package where they are not, saying so once. ``QWIRKLE_PURE=1`` forces the pure build.
Whatever the build, the package is the same source: a compiled module is that ``.py``
file turned into C, and ``qwirkle --version`` says which build runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent

COMPILED = [  # where the time goes: move generation, the rules, the game, the record reader, the engines
    "core/tiles.py", "core/board.py", "core/lines.py", "core/rules.py", "core/move.py", "core/frontier.py",
    "core/movekeys.py", "core/movegen.py",
    "play/game.py", "play/ledger.py", "play/state.py", "play/replay.py", "play/history.py", "play/seats.py",
    "play/view.py",
    "formats/record.py", "formats/schema.py", "formats/qgn/read.py", "formats/qgn/tokens.py",
    "engines/endgame.py", "engines/endgame_position.py", "engines/solution.py", "engines/simulation.py",
    "engines/selfplay.py", "engines/equity.py", "engines/leaves.py", "engines/lookahead.py",
    "analysis/analyse.py", "analysis/moves.py", "analysis/fives.py", "analysis/winchance.py", "analysis/verdicts.py",
    "analysis/decisive.py",
]


def say(text: str) -> None:
    """Tell the one who installs (once: pip runs this file for the metadata too, and it is said at the build)."""
    if any(step in sys.argv for step in ("bdist_wheel", "editable_wheel", "build_ext", "build", "install", "develop")):
        print(f"qwirkle-tools: {text}", file=sys.stderr, flush=True)


def compiler_missing() -> str | None:
    """Why no C extension can be built here (``None``: one can): a compiler and ``Python.h``."""
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.exists():
        return f"no Python headers ({headers} is missing)"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()  # as the build would take it
    if not compiler or shutil.which(compiler[0]) is None:
        return f"no C compiler ({' '.join(compiler) or 'cc'} not found)"
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "probe.c"
        source.write_text("#include <Python.h>\nint main(void) { return 0; }\n")
        done = subprocess.run([*compiler, f"-I{headers.parent}", "-c", str(source), "-o", str(source.with_suffix(".o"))],
                              capture_output=True, check=False)
        if done.returncode:
            return f"the C compiler fails on Python.h ({done.stderr.decode(errors='replace').strip()[:200]})"
    return None


class OptionalBuild(build_ext):
    """Builds the compiled modules, their C files on every core; a failure leaves the pure package, said once."""

    def build_extensions(self) -> None:
        one_by_one = self.compiler.compile  # mypyc's one extension of many C files: setuptools compiles them in turn

        def on_every_core(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                return [o for objects in pool.map(lambda s: one_by_one([s], *args, **kwargs), sources) for o in objects]

        self.compiler.compile = on_every_core  # type: ignore[method-assign]
        super().build_extensions()

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # a compiler error: the pure package is installed, and that is said
            say(f"compiling failed ({exc}): installing the pure-Python build")
            self.extensions = []


def forget_earlier_builds() -> None:
    """Remove compiled modules an earlier build left beside the ``.py`` files (an editable
    install builds in place): a module no longer listed, or a pure build asked for, must
    not leave stale C behind to be imported."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    for built in [*HERE.glob(f"qwirkle_tools/**/*{suffix}"), *HERE.glob(f"qwirkle_tools__mypyc*{suffix}")]:
        built.unlink()


def extensions() -> list[Any]:
    forget_earlier_builds()
    if os.environ.get("QWIRKLE_PURE", "") not in ("", "0"):
        say("QWIRKLE_PURE is set: installing the pure-Python build")
        return []
    why = compiler_missing()
    if why is None:
        try:
            from mypyc.build import mypycify
        except ImportError:
            why = "mypyc is not installed"
    if why is not None:
        say(f"{why}: installing the pure-Python build (the same code, a third slower)")
        return []
    here = os.getcwd()
    os.chdir(HERE)
    try:
        return list(mypycify([f"qwirkle_tools/{name}" for name in COMPILED], opt_level="3", debug_level="0", multi_file=True,
                             group_name="qwirkle_tools"))
    finally:
        os.chdir(here)


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuild})
