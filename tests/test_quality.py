"""Project checks: the type checker, the linter, and docs that match the code."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from qwirkle_tools.core.findings import CODES

ROOT = Path(__file__).parent.parent


def test_mypy_strict_passes() -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_passes() -> None:
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "qwirkle_tools", "tests", "sample_games", "benchmarks", "tools",
                           "examples"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_docs_list_every_finding_code() -> None:
    page = (ROOT / "docs" / "findings.md").read_text()
    table = set(re.findall(r"^\| `([a-z-]+)` \| (?:error|warning) \|", page, re.M))
    assert table == set(CODES)
    for code, (severity, _) in CODES.items():
        assert f"| `{code}` | {severity} |" in page


def test_readme_test_command_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    command = [line for line in ci.splitlines() if line and not line.startswith(("#", "set ", "cd "))][-1]
    assert command in readme


def test_every_finding_code_is_exercised_by_a_test() -> None:
    text = "".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py") if p.name != "test_quality.py")
    missing = [code for code in CODES if f'"{code}"' not in text]
    assert missing == []
