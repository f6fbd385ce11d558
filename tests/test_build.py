"""The two builds: the hot modules compiled with mypyc, and the same ``.py`` files run as they are.

Here the compiled build is the one the README's install line makes (``setup.py``);
``QWIRKLE_PURE=1`` makes a process run the ``.py`` files instead. Both must give the
same outputs, byte for byte, and the compiled modules must be built from the
``.py`` files as they are now (an edit without a new build is caught here).
With ``QWIRKLE_REQUIRE_COMPILED=1`` (CI) the compiled build must be the one running.
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from conftest import compiled_build

from qwirkle_tools.version import pure_asked

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "qwirkle_tools"
QWIRKLE = [sys.executable, "-m", "qwirkle_tools"]


def listed() -> list[Path]:
    """The modules ``setup.py`` compiles."""
    namespace: dict[str, object] = {}
    text = (ROOT / "setup.py").read_text(encoding="utf-8")
    exec(text[text.index("COMPILED = "):text.index("\n]\n") + 3], namespace)  # the list alone, not the build
    names = namespace["COMPILED"]
    assert isinstance(names, list) and names
    return [PACKAGE / name for name in names]


def beside(path: Path) -> list[Path]:
    """The compiled module built from ``path``, if there is one."""
    return [p for suffix in EXTENSION_SUFFIXES if (p := path.with_name(path.stem + suffix)).exists()]


def run(args: list[str], pure: bool) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "QWIRKLE_PURE"}
    if pure:
        env["QWIRKLE_PURE"] = "1"
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, check=False, timeout=600)


def test_the_build_running_is_the_one_installed_and_says_so() -> None:
    built = [path for path in listed() if beside(path)]
    if os.environ.get("QWIRKLE_REQUIRE_COMPILED"):
        assert built == listed(), "CI runs the compiled build: every listed module compiled"
    assert compiled_build() == (bool(built) and not pure_asked())
    said = run([*QWIRKLE, "--version"], pure=False).stdout.decode()
    assert said.startswith("qwirkle-tools ") and ("compiled (mypyc)" in said) == bool(built)
    assert "pure Python (QWIRKLE_PURE is set)" in run([*QWIRKLE, "--version"], pure=True).stdout.decode()


def test_every_compiled_module_is_built_from_its_source_as_it_is() -> None:
    # an editable install compiles once: a .py file changed since runs stale C (pip install -e . again)
    stale = [str(path.relative_to(ROOT)) for path in listed() for built in beside(path)
             if built.stat().st_mtime < path.stat().st_mtime]
    assert not stale, f"changed since they were compiled (run pip install -e . again): {stale}"


def test_the_pure_build_runs_only_the_source() -> None:
    script = ("import sys, qwirkle_tools.engines.selfplay, qwirkle_tools.play.game\n"
              "print(sorted(m for m, v in sys.modules.items() if m.startswith('qwirkle_tools')"
              " and not str(getattr(v, '__file__', '') or '').endswith('.py')))")
    assert run([sys.executable, "-c", script], pure=True).stdout.decode().strip() == "[]"


def test_both_builds_give_the_same_outputs_byte_for_byte() -> None:
    # self-play, validation (the samples' slips too), re-scoring, analysis, a sim game, an exact endgame
    program = [sys.executable, str(ROOT / "tests" / "programs" / "same_outputs.py"), str(ROOT / "sample_games")]
    compiled, pure = run(program, pure=False), run(program, pure=True)
    assert compiled.returncode == pure.returncode == 0, compiled.stderr.decode()[-2000:] + pure.stderr.decode()[-2000:]
    assert compiled.stdout.count(b"\ngame ") >= 11 and b"\nendgame " in compiled.stdout and b"\nsim game " in compiled.stdout
    assert compiled.stdout == pure.stdout
    for args in (["annotate", "sample_games/296-295.json", "-f", "json"], ["rescore", "sample_games/club-night.qgn"],
                 ["validate", "sample_games/mistakes.json"], ["moves", "sample_games/296-295.json", "--turn", "30"]):
        first, second = run([*QWIRKLE, *args], pure=False), run([*QWIRKLE, *args], pure=True)
        assert (first.returncode, first.stdout, first.stderr) == (second.returncode, second.stdout, second.stderr), args


def test_the_compiled_modules_doctests_pass_on_the_pure_build() -> None:
    # a compiled module keeps no docstrings: its examples are run from its .py file (see conftest.py)
    files = [str(path.relative_to(ROOT)) for path in listed()]
    done = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules", *files], pure=True)
    assert done.returncode == 0 and b" passed" in done.stdout, done.stdout.decode()[-3000:]
