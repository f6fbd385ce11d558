"""The README's library example runs, and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

ROOT = Path(__file__).parent.parent


def library_example() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## The library"):]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    return match[1]


def test_the_library_example_runs_and_prints_what_it_says() -> None:
    code = library_example()
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    printed = out.getvalue().splitlines()
    said = [line.split("# ", 1)[1].strip() for line in code.splitlines() if "print(" in line and "# " in line]
    assert len(printed) == len(said)
    for got, comment in zip(printed, said):
        if not comment.startswith(("totals", "the analysis")):  # comments that describe rather than quote
            assert got.startswith(comment.removesuffix("...").rstrip()), (got, comment)
