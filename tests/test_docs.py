"""The documentation site (``docs/``): it builds in strict mode, it loads nothing from outside, and its
console examples print what they show.

The site is built once per run, as the README says (``sphinx-build -W -n --keep-going -b html docs
site``), into a temporary folder. A broken link, a page left out of the contents and a docstring
reference that does not resolve each fail a strict build of a small site made for the purpose. The
built index and API page are opened in Chromium (as the viewer's tests do: ``tests/outputs/test_viewer_browser.py``)
with every request outside the site refused and recorded, and its search is asked a club player's words:
the guides come before the reference.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import conftest  # noqa: F401  (run as a script too: the tests' folders importable, as under pytest)
import pytest
from test_readme import README_BLOCKS, console_examples, matches, run_block, update
from test_viewer_browser import Watched, browser  # noqa: F401 (browser: the fixture, shared)

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))


def build(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """The documented strict build of ``source`` into ``out``."""
    pytest.importorskip("sphinx", reason="the docs extra is not installed (pip install -e '.[docs]')")
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "-n", "--keep-going", "-q", "-b", "html", str(source),
                           str(out)], capture_output=True, text=True, timeout=900, check=False)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    proc = build(DOCS, out)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return out


@pytest.mark.slow
def test_the_site_builds_in_strict_mode_with_every_page(site: Path) -> None:
    built = {p.relative_to(site).with_suffix("") for p in site.rglob("*.html")}
    assert {p.relative_to(DOCS).with_suffix("") for p in PAGES} <= built
    api = (site / "api" / "core.html").read_text(encoding="utf-8")
    assert 'id="qwirkle_tools.core.board.Board"' in api  # the docstrings are there, not the directives
    assert ".. automodule::" not in api and ":func:`" not in api


@pytest.mark.slow
def test_the_cli_reference_is_each_commands_own_help(site: Path) -> None:
    from typer.testing import CliRunner

    from qwirkle_tools.cli.app import app

    page = (site / "cli.html").read_text(encoding="utf-8")
    names = [c.name or c.callback.__name__ for c in app.registered_commands if c.callback is not None]
    assert len(names) >= 15
    for name in names:
        usage = CliRunner().invoke(app, [name, "--help"], prog_name="qwirkle").output.splitlines()[0]
        assert usage.replace("[", "").split()[:3] == ["Usage:", "qwirkle", name]
        assert f"Usage: qwirkle {name} " in page, name


@pytest.mark.slow
def test_the_built_site_loads_nothing_from_outside(site: Path) -> None:
    loaded = re.compile(r"""<(?:script|img|link|iframe|source)\b[^>]*\b(?:src|href)=["'](https?:)?//""", re.I)
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not loaded.search(text), (page, loaded.search(text))
        assert "fonts.googleapis" not in text and "@import url(http" not in text
    for style in site.rglob("*.css"):
        assert not re.search(r"url\(\s*['\"]?(https?:)?//", style.read_text(encoding="utf-8")), style


@pytest.mark.slow
def test_every_module_of_the_package_has_its_section_in_the_api_reference(site: Path) -> None:
    package = ROOT / "qwirkle_tools"
    folders = [p for p in package.iterdir() if (p / "__init__.py").exists()]
    assert len(folders) >= 8
    for folder in folders:
        page = (site / "api" / f"{folder.name}.html").read_text(encoding="utf-8")
        for module in folder.glob("*.py"):
            name = f"qwirkle_tools.{folder.name}" + ("" if module.stem == "__init__" else f".{module.stem}")
            assert f'id="module-{name}"' in page, name


# -- the strict build fails on each kind of mistake -------------------------------------------------

def test_a_broken_link_a_stray_page_and_an_unresolved_reference_fail_the_build(tmp_path: Path) -> None:
    source = tmp_path / "docs"
    source.mkdir()
    shutil.copy(DOCS / "conf.py", source)
    shutil.copytree(DOCS / "_ext", source / "_ext")
    shutil.copytree(DOCS / "_static", source / "_static")
    page = "# Home\n\nSee [the guide](no-such-page.md) and {py:func}`qwirkle_tools.core.board.nothing`.\n"
    (source / "index.md").write_text(page, encoding="utf-8")
    (source / "stray.md").write_text("# Not in the contents\n", encoding="utf-8")
    proc = build(source, tmp_path / "site")
    assert proc.returncode != 0
    assert "no-such-page" in proc.stderr
    assert "stray" in proc.stderr and "toctree" in proc.stderr
    assert "qwirkle_tools.core.board.nothing" in proc.stderr


# -- in a browser ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The built site served on this machine, as a documentation host serves it: its address."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


INSIDE = ("file://", "data:", "about:", "http://127.0.0.1:")


@pytest.fixture
def offline(browser: Any) -> Iterator[tuple[Watched, list[str]]]:  # noqa: F811 (the fixture imported above)
    """A watched page on which every request outside the site (not a file, not this machine) is refused
    and recorded."""
    watched, refused = Watched(browser), []

    def route(request: Any) -> None:
        if request.request.url.startswith(INSIDE):
            request.continue_()
        else:
            refused.append(request.request.url)
            request.abort()

    watched.page.route("**/*", route)
    yield watched, refused
    watched.page.close()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["index", "api/index", "api/core", "cli", "club-players"])
def test_a_page_opens_with_no_console_error_and_no_request_outside(name: str, served: str,
                                                                   offline: tuple[Watched, list[str]]) -> None:
    watched, refused = offline
    watched.page.goto(f"{served}{name}.html")
    watched.page.wait_for_load_state("networkidle")
    assert watched.page.title()
    assert refused == [] and watched.errors == []
    assert all(url.startswith(served) for url in watched.requests)
    assert any(".css" in url for url in watched.requests)  # its style sheets came from the site itself


@pytest.mark.slow
def test_the_search_finds_a_word_from_the_local_index_even_from_disk(site: Path,
                                                                     offline: tuple[Watched, list[str]]) -> None:
    watched, refused = offline
    watched.page.goto((site / "search.html").as_uri() + "?q=notation")
    watched.page.wait_for_selector("#search-results li", timeout=30_000)
    watched.page.wait_for_load_state("networkidle")
    assert watched.page.locator("#search-results li").count() > 0
    assert "notation.html" in watched.page.inner_html("#search-results")
    assert refused == [] and watched.errors == []


def searched(watched: Watched, site: Path, query: str) -> list[str]:
    """The results of a search of the built site, in the order listed: each one's address (page and
    anchor) as the results page gives it, once the search has finished."""
    from urllib.parse import urlencode

    watched.page.goto((site / "search.html").as_uri() + "?" + urlencode({"q": query}))
    watched.page.wait_for_function("(document.querySelector('#search-results') || {}).textContent"
                                   "?.includes('Search finished')", timeout=30_000)
    return list(watched.page.eval_on_selector_all("#search-results li > a", "links => links.map(a => a.getAttribute('href'))"))


@pytest.mark.slow
@pytest.mark.parametrize("query", ["score sheet", "standings", "validate"])
def test_the_search_lists_the_guides_before_the_reference(query: str, site: Path,
                                                          offline: tuple[Watched, list[str]]) -> None:
    """For an ordinary word a club player types, every guide page (docs/_static/search-order.js) comes
    before the CLI reference and the API reference (Sphinx alone put six names of the API first for "standings")."""
    watched, refused = offline
    results = searched(watched, site, query)
    tiers = [0 if r.startswith("api/") else 1 if r.startswith("cli.html") else 2 for r in results]
    assert any(t == 0 for t in tiers) and any(t == 2 for t in tiers), results  # a query that finds both
    assert tiers == sorted(tiers, reverse=True), results
    if query == "standings":
        assert results[0] == "club-players.html", results
    assert refused == [] and watched.errors == []


@pytest.mark.slow
def test_a_search_for_a_name_of_the_code_lists_the_api_first(site: Path, offline: tuple[Watched, list[str]]) -> None:
    watched, refused = offline
    results = searched(watched, site, "qwirkle_tools.bots.standings")
    assert results[0] == "api/bots.html#module-qwirkle_tools.bots.standings", results
    assert refused == [] and watched.errors == []


# -- the console examples -----------------------------------------------------------------------------

def docs_blocks() -> list[tuple[str, list[tuple[str, list[str]]]]]:
    """Each console block of the docs, with its page; a block that is also in the README is left to
    ``tests/test_readme.py``, which runs it already."""
    readme = {repr(b) for b in README_BLOCKS}
    return [(page.relative_to(DOCS).as_posix(), block) for page in PAGES
            for block in console_examples(page.read_text(encoding="utf-8")) if repr(block) not in readme]


def test_the_docs_have_console_examples() -> None:
    total = sum(len(console_examples(p.read_text(encoding="utf-8"))) for p in PAGES)
    assert total >= 15


UNRUN = ("python benchmarks/", "nice -n 10 python benchmarks/", "pip install ")
"""The console lines the docs show but the tests do not run: benchmarks of minutes to hours (their figures
are measured, with the command beside them) and an install; a cluster's hosts are shown as ``host1$``."""


def test_every_console_line_of_the_docs_is_run_or_named_as_not() -> None:
    unrun = [(page.name, line) for page in PAGES
             for body in re.findall(r"```console\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
             for line in body.splitlines() if line.startswith("$ ") and not line[2:].startswith(("qwirkle ", *UNRUN))]
    assert unrun == []


DOCS_BLOCKS = docs_blocks()


@pytest.mark.parametrize("page,block", DOCS_BLOCKS, ids=[f"{p}: {b[0][0][:50]}" for p, b in DOCS_BLOCKS])
def test_a_docs_console_example_prints_what_it_shows(page: str, block: list[tuple[str, list[str]]],
                                                     tmp_path: Path) -> None:
    for (command, shown), got in zip(block, run_block(block, tmp_path)):
        assert matches(shown, got), f"{page}: $ {command}\n--- shown\n" + "\n".join(shown) + "\n--- printed\n" + "\n".join(got)


if __name__ == "__main__":
    for path in PAGES:  # python tests/test_docs.py: each page's shown outputs written from what it prints
        update(path)
