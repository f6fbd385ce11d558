"""The README is a front door that works: at most 250 lines, every relative link leads to a file, and
every ``$ qwirkle ...`` console example prints the output shown under it; the library example (on the
API reference's first page, ``docs/api/index.md``) prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


README = ROOT / "README.md"


def library_example() -> str:
    page = (ROOT / "docs" / "api" / "index.md").read_text(encoding="utf-8")
    section = page[page.index("## An example"):]
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
            exec(compile(code, "docs/api/index.md", "exec"), {})
    finally:
        os.chdir(cwd)
    printed = out.getvalue().splitlines()
    said = [line.split("# ", 1)[1].strip() for line in code.splitlines() if "print(" in line and "# " in line]
    assert len(printed) == len(said)
    for got, comment in zip(printed, said):
        if not comment.startswith(("totals", "the analysis")):  # comments that describe rather than quote
            assert got.startswith(comment.removesuffix("...").rstrip()), (got, comment)


# -- the console examples ---------------------------------------------------------------------------

ELIDED = "..."
"""A shown output line that stands for any number of lines the README leaves out."""


def console_examples(text: str) -> list[list[tuple[str, list[str]]]]:
    """Each ``console`` block of ``text``: its ``$ qwirkle ...`` commands, each with the output shown under it."""
    blocks = []
    for body in re.findall(r"```console\n(.*?)```", text, re.S):
        commands: list[tuple[str, list[str]]] = []
        for line in body.splitlines():
            if line.startswith("$ "):
                commands.append((line[2:], []))
            elif commands:
                commands[-1][1].append(line)
        commands = [(c, out) for c, out in commands if c.startswith("qwirkle ")]
        if commands:
            blocks.append(commands)
    return blocks


def matches(shown: list[str], got: list[str]) -> bool:
    """Whether ``got`` is ``shown``, where a line ``...`` stands for any lines (none too)."""
    if not shown:
        return not got
    if shown[0] == ELIDED:
        return any(matches(shown[1:], got[i:]) for i in range(len(got) + 1))
    return bool(got) and got[0].rstrip() == shown[0].rstrip() and matches(shown[1:], got[1:])


README_BLOCKS = console_examples(README.read_text(encoding="utf-8"))


def test_the_readme_has_console_examples_to_check() -> None:
    assert len(README_BLOCKS) >= 5


def test_the_readme_is_a_front_door_of_at_most_250_lines() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 250


def relative_links(text: str) -> list[str]:
    """The targets of the Markdown links and pictures of ``text`` that are not addresses on the web,
    without their ``#anchor``; code (fenced or in backquotes) left out."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    return [t.split("#", 1)[0] for t in targets if not re.match(r"[a-z]+:", t) and not t.startswith("#")]


def test_every_relative_link_of_the_readme_leads_to_a_file() -> None:
    links = relative_links(README.read_text(encoding="utf-8"))
    assert len(links) >= 10 and any(link.endswith(".png") for link in links)
    missing = [link for link in links if not (ROOT / link).is_file()]
    assert missing == []


def test_the_link_check_sees_a_missing_file() -> None:
    text = "[a](docs/no-such-page.md) ![b](docs/viewer-296-295.png) [c](https://example.org) `[d](x.md)`"
    assert relative_links(text) == ["docs/no-such-page.md", "docs/viewer-296-295.png"]


def run_block(block: list[tuple[str, list[str]]], folder: Path) -> list[list[str]]:
    """What each command of a block prints (standard output, then standard error), run in ``folder``
    with a copy of the sample games, in order, as a user types them."""
    shutil.copytree(ROOT / "sample_games", folder / "sample_games")
    (folder / "docs").mkdir()
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "QWIRKLE_PY": sys.executable}
    printed = []
    for command, _ in block:
        script = f'qwirkle() {{ "$QWIRKLE_PY" -m qwirkle_tools "$@"; }}\n{command}\n'
        proc = subprocess.run(["bash", "-c", script], cwd=folder, env=env, capture_output=True, text=True,
                              timeout=600, check=False)
        printed.append((proc.stdout + proc.stderr).splitlines())
    return printed


@pytest.mark.parametrize("block", README_BLOCKS, ids=[b[0][0][:60] for b in README_BLOCKS])
def test_a_readme_console_example_prints_what_it_shows(block: list[tuple[str, list[str]]], tmp_path: Path) -> None:
    for (command, shown), got in zip(block, run_block(block, tmp_path)):
        assert matches(shown, got), f"$ {command}\n--- shown\n" + "\n".join(shown) + "\n--- printed\n" + "\n".join(got)


def update(path: Path = README) -> None:
    """Write what each console example prints into the page under it (``python tests/test_readme.py``
    for the README, ``python tests/test_docs.py`` for the docs' pages); an example that leaves lines out
    (``...``) is only reported, for a hand to mend."""
    import tempfile

    text = path.read_text(encoding="utf-8")
    for block in console_examples(text):
        with tempfile.TemporaryDirectory() as folder:
            printed = run_block(block, Path(folder))
        for (command, shown), got in zip(block, printed):
            if matches(shown, got):
                continue
            if ELIDED in shown:
                print(f"{path.name}: differs, mend by hand: $ {command}")
                continue
            old = "\n".join([f"$ {command}", *shown])
            new = "\n".join([f"$ {command}", *got])
            assert text.count(old + "\n") == 1, command
            text = text.replace(old + "\n", new + "\n")
            print(f"{path.name}: updated: $ {command}")
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    update()
