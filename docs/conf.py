"""The documentation site (Sphinx, the Furo theme, Markdown pages through MyST).

Build it with ``.venv/bin/sphinx-build -W -n --keep-going -b html docs site`` (after
``pip install -e '.[docs]'``): ``-W`` turns every warning into a failure (a broken link, a page missing
from the contents, a docstring reference that does not resolve), ``-n`` checks every cross-reference.
The site is static and offline: no web fonts, no script or style from elsewhere, a local search index.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE / "_ext")]  # the package from this checkout; the site's extension

# the .py files, not compiled modules beside them: the compiled build keeps no docstrings or signatures to read
os.environ["QWIRKLE_PURE"] = "1"
from qwirkle_tools import __version__  # noqa: E402

project = "qwirkle-tools"
author = "the qwirkle-tools developers"
copyright = "qwirkle-tools developers"  # noqa: A001 (Sphinx's name)
release = version = __version__

extensions = ["sphinx.ext.autodoc", "myst_parser", "qwirkle_docs"]  # qwirkle_docs reads the Google sections
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "_ext"]
nitpicky = True  # every cross-reference must resolve (qwirkle_docs quiets only those that cannot on an offline site)

myst_heading_anchors = 4  # README-style links to a heading: page.md#the-look-ahead-engine
myst_enable_extensions = ["colon_fence"]

highlight_language = "none"  # a fence with no language (a .qgn game, a table) is plain text, not Python
add_module_names = False  # the page and its heading name the module

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True,
                           "ignore-module-all": True}

html_theme = "furo"
html_title = f"qwirkle-tools {version}"
html_static_path = ["_static"]
html_js_files = ["search-order.js"]  # a Scorer for the search: the guides before the API (the file says how)
html_show_sourcelink = False
html_show_search_summary = False  # a summary fetches each page: refused from a page opened from disk (file://)
html_theme_options = {"navigation_with_keys": True}
