"""The documentation site's own Sphinx extension (``docs/conf.py`` loads it).

* ``.. qwirkle-help::`` writes the help of the ``qwirkle`` command and of every one of its commands, as
  they print it (``qwirkle CMD --help``, 88 columns), at build time: the CLI reference cannot drift.
* ``.. qwirkle-modules:: FOLDER`` documents every module of a folder of the package, as found on disk.
* ``.. qwirkle-facade::`` lists the names of ``qwirkle_tools.PUBLIC``, each linked to its home module.
* The docstrings are reST with Google-style sections; the sections are read as ``sphinx.ext.napoleon``
  reads them, except in a value's docstring (see :func:`google_sections`).
* A docstring's cross-reference resolves as Python reads the name where the docstring stands (its class,
  then its module, a re-export taken to the home where the object is documented: ``play.engine.replay``
  is ``play.history.replay``), else to the one documented object of the package whose name ends so, else
  (a value with no docstring, an attribute set in ``__init__``) to the class or module that defines it.
  A name that is not there, or that fits several objects, is left to Sphinx, which warns: the strict build
  fails.
* A reference that cannot link on this site renders as text without a warning: one to a private or
  special name, a type variable, or a name outside the package (the site is built offline, with no
  inventory of other projects' documentation), and a type hint's name in a signature that is not
  documented (mypy checks the type hints).
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

PACKAGE = "qwirkle_tools"
WIDTH = 88  # the page's code blocks hold about 90 columns


def command_help(args: list[str]) -> str:
    """What ``qwirkle ARGS`` prints (its help), as on a terminal of :data:`WIDTH` columns with no colour."""
    from typer.testing import CliRunner

    from qwirkle_tools.cli.app import app

    result = CliRunner().invoke(app, args, prog_name="qwirkle", terminal_width=WIDTH, env={"COLUMNS": str(WIDTH),
                                                                                           "NO_COLOR": "1"})
    if result.exit_code != 0:
        raise RuntimeError(f"qwirkle {' '.join(args)} exited {result.exit_code}: {result.output}")
    return result.output.rstrip()


def command_names() -> list[str]:
    """The ``qwirkle`` command's commands, in the order of its ``--help``."""
    from qwirkle_tools.cli.app import app

    return [c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands if c.callback is not None]


class QwirkleHelp(SphinxDirective):
    """``.. qwirkle-help::``: a section for ``qwirkle`` and for each of its commands, holding its help."""

    def run(self) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        for name in ["", *command_names()]:
            title = f"qwirkle {name}".strip()
            section = nodes.section(ids=[nodes.make_id(f"cli-{name or 'qwirkle'}")], names=[nodes.fully_normalize_name(title)])
            section += nodes.title("", "", nodes.literal(title, title))
            text = command_help([name, "--help"] if name else ["--help"])
            block = nodes.literal_block(text, text, language="text")
            section += block
            self.state.document.note_implicit_target(section, section)
            out.append(section)
        return out


class QwirkleFacade(SphinxDirective):
    """``.. qwirkle-facade::``: a table of the facade's names (``qwirkle_tools.PUBLIC``), each linked to its home."""

    def run(self) -> list[nodes.Node]:
        from qwirkle_tools import PUBLIC

        rows = "".join(f"| {{py:obj}}`~{PACKAGE}.{module}.{name}` | {{py:mod}}`{PACKAGE}.{module}` |\n"
                       for module, names in PUBLIC.items() for name in names)
        table = f"| name | home |\n| --- | --- |\n{rows}"  # Markdown: the pages are MyST's
        return self.parse_text_to_nodes(table, allow_section_headings=False)


REEXPORTS = {"qwirkle_tools.play.engine"}
"""Modules that only give other modules' names in one place: documented without members (no second entry)."""


class QwirkleModules(SphinxDirective):
    """``.. qwirkle-modules:: FOLDER``: a section for every module of the package's folder, found on
    disk when the site is built (a new module is documented without anyone listing it)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        from pathlib import Path

        import qwirkle_tools

        folder = Path(qwirkle_tools.__file__).parent / self.arguments[0]
        text = []
        for path in sorted([*folder.glob("*.py"), *folder.glob("*/*.py")]):  # (a folder's packages too: formats/qgn)
            if path.parent == folder and path.stem == "__init__":
                continue
            parts = path.relative_to(folder).with_suffix("").parts
            name = ".".join((PACKAGE, self.arguments[0], *(parts[:-1] if parts[-1] == "__init__" else parts)))
            options = "   :no-members:\n" if name in REEXPORTS else ""
            text.append(f"## `{name}`\n\n```{{eval-rst}}\n.. automodule:: {name}\n{options}```\n")
        return self.parse_text_to_nodes("\n".join(text), allow_section_headings=True)


def _entries(env: Any) -> dict[str, Any]:
    return env.get_domain("py").objects  # type: ignore[no-any-return]


_BY_LAST: dict[int, dict[str, list[str]]] = {}


def _named(objects: dict[str, Any], last: str) -> list[str]:
    """The documented names whose last part is ``last`` (an index built once per set of objects: the
    references are resolved after every page is read, when the set no longer grows)."""
    key = len(objects)
    if key not in _BY_LAST:
        index: dict[str, list[str]] = {}
        for name in objects:
            index.setdefault(name.rpartition(".")[2], []).append(name)
        _BY_LAST.clear()
        _BY_LAST[key] = index
    return _BY_LAST[key].get(last, [])


@functools.cache
def _outside(first: str) -> bool:
    """Whether ``first`` is the name of an importable module other than the package (``collections``)."""
    import importlib.util

    try:
        return first != PACKAGE and importlib.util.find_spec(first) is not None
    except (ImportError, ValueError):
        return False


@functools.cache
def _lookup(path: str) -> tuple[bool, Any]:
    """Whether the dotted ``path`` names something that imports, and what."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except (ImportError, ValueError, TypeError):
            continue
        try:
            for attribute in parts[cut:]:
                obj = getattr(obj, attribute)
        except AttributeError:
            return False, None
        return True, obj
    return False, None


def _home(path: str, objects: dict[str, Any]) -> str | None:
    """The documented name of what ``path`` imports as: a re-export's home (``play.engine.replay`` is
    ``play.history.replay``), or for a value with no name of its own, the one documented value that is it."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):  # the longest prefix that has a home of its own, then the rest
        found, obj = _lookup(".".join(parts[:cut]))
        module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
        if found and isinstance(module, str) and isinstance(qualname, str) and not isinstance(obj, type(importlib)):
            name = ".".join([module, qualname, *parts[cut:]])
            if name in objects:
                return name
    found, obj = _lookup(path)
    if not found:
        return None
    same = [name for name in _named(objects, parts[-1]) if _lookup(name) == (True, obj)]
    return same[0] if len(same) == 1 else None


def resolve_short_name(app: Sphinx, env: Any, node: Any, contnode: Any) -> Any:
    """Resolve a reference as Python would read the name where the docstring stands (the names of the
    reference's class, then of its module, each taken to the home where it is documented), else as the
    one documented object of the package whose name ends so (the reference's own module first)."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip(".~")
    if _outside(target.partition(".")[0]):  # collections.abc.Sequence: nothing of the package's
        return None
    objects = _entries(env)
    module, cls = node.get("py:module") or "", node.get("py:class") or ""
    scopes = [f"{module}.{cls}", module] if cls else [module]
    found: list[str] = []
    for scope in [s for s in scopes if s] + [""]:
        home = _home(f"{scope}.{target}" if scope else target, objects)
        if home is not None:
            found = [home]
            break
    if not found:
        found = [name for name in _named(objects, target.rpartition(".")[2])
                 if name.endswith("." + target) and name.startswith(PACKAGE + ".")]
        for scope in (module, module.rpartition(".")[0]):
            near = [name for name in found if name.startswith(scope + ".")]
            if len(found) > 1 and len(near) == 1:
                found = near
    if len(found) != 1:
        return _to_owner(app, env, node, contnode, [f"{scope}.{target}" for scope in scopes if scope] + [target])
    entry = objects[found[0]]
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, found[0])


def _to_owner(app: Sphinx, env: Any, node: Any, contnode: Any, names: list[str]) -> Any:
    """A reference to a real name that autodoc leaves out (a module's value with no docstring, an
    attribute that ``__init__`` sets) links to where it is defined: its class, or its module."""
    objects, modules = _entries(env), env.get_domain("py").modules
    for name in names:
        owner, _, last = name.rpartition(".")
        if not owner or last.startswith("_"):
            continue
        found, obj = _lookup(owner)
        if not found:
            continue
        if owner in modules and hasattr(obj, last):
            entry = modules[owner]
            return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, owner)
        home = _home(owner, objects)
        if home is not None and isinstance(obj, type) and (hasattr(obj, last) or _sets(obj, last)):
            entry = objects[home]
            return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, home)
    return None


@functools.cache
def _sets(cls: type, attribute: str) -> bool:
    """Whether a method of ``cls`` (or of a class it derives from in the package) sets ``self.ATTRIBUTE``."""
    sources = [_source(base) for base in cls.__mro__ if base.__module__.startswith(PACKAGE)]
    return any(f"self.{attribute} =" in source or f"self.{attribute}: " in source for source in sources)


@functools.cache
def _source(cls: type) -> str:
    import inspect

    try:
        return inspect.getsource(cls)
    except (OSError, TypeError):
        return ""


def _not_linkable(node: Any) -> bool:
    """Whether a reference cannot link on this site: to a private or special name, a type variable,
    something outside the package, or, in a signature (no source line), a type hint's name that is not
    documented (type hints are mypy's to check)."""
    target = node["reftarget"].lstrip(".~")
    parts = target.split(".")
    if any(part.startswith("_") for part in parts):
        return True
    if node.source is None and node.line is None:
        return True
    found, obj = _lookup(target)
    if found and type(obj).__name__ in ("TypeVar", "ParamSpec"):
        return True
    if parts[0] == PACKAGE or not found:
        return False
    home = f"{getattr(obj, '__module__', '')}.{getattr(obj, '__name__', '')}"
    return not home.startswith(PACKAGE + ".")


def quiet_outside(app: Sphinx, domain: Any, node: Any) -> bool | None:
    """No warning for a reference that cannot link on an offline site (see the module's docstring)."""
    if node.get("refdomain") == "py" and _not_linkable(node):
        return True
    return None


def google_sections(app: Sphinx, what: str, name: str, obj: object, options: Any, lines: list[str]) -> None:
    """Read a docstring's Google-style sections (``Args:``, ``Returns:``, ``Raises:``), as
    ``sphinx.ext.napoleon`` does, but not in the docstring of a value: there napoleon would read a first
    line such as "The long form, as records store it: ..." as a type ("The long form, ...") and its text."""
    if what in ("attribute", "data", "property"):
        return
    from sphinx.ext.napoleon import Config
    from sphinx.ext.napoleon.docstring import GoogleDocstring

    config: Any = Config(napoleon_use_param=True, napoleon_use_rtype=True, napoleon_use_ivar=True)  # ivar: no second entry
    kind: Any = what  # (napoleon's own Config and a plain string: what sphinx.ext.napoleon itself passes)
    lines[:] = GoogleDocstring(lines, config, app, kind, name, obj, options).lines()


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("autodoc-process-docstring", google_sections)
    app.add_directive("qwirkle-help", QwirkleHelp)
    app.add_directive("qwirkle-facade", QwirkleFacade)
    app.add_directive("qwirkle-modules", QwirkleModules)
    app.connect("missing-reference", resolve_short_name)
    app.connect("warn-missing-reference", quiet_outside)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
