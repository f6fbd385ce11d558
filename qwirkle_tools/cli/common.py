"""The ``qwirkle`` command's shared parts: the Typer :data:`app` the
commands register on (each command module of :mod:`qwirkle_tools.cli`
decorates its functions with :func:`command`), the exit codes, and the
helpers every command uses to print, fail and write.

Each command parses its options, calls the library, prints, and maps
library errors to a message and an exit code:

* 0: done, and every record checked is valid;
* 1: a record has an error (a finding of severity ``error``);
* 2: the command could not run (no such file, unreadable input, bad
  option, an output it must not overwrite);
* 3: an internal error (a bug), reported in one line.

:mod:`qwirkle_tools.cli.app` imports the command modules, so that the app
there has every command, in the order of ``qwirkle --help``.
"""

import enum
import functools
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, NoReturn, TypeVar

import click
import typer
from typer.core import TyperGroup

from ..core.errors import QwirkleError
from ..core.safetext import one_line
from ..core.text import count

if TYPE_CHECKING:
    from ..bots.match import Played
    from ..core.findings import Finding
    from ..formats.fileio import LineFile
    from ..formats.jsontext import JSON
    from ..formats.record import Record
    from ..formats.sources import Loaded
    from ..play.history import History
    from .progress import Progress

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3

class _Commands(TyperGroup):
    """The app's commands, with a mistyped command's "Did you mean" said once."""

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            # click 8.4+ suggests from the error's possibilities, and typer appends its own suggestion too
            if getattr(exc, "possibilities", None) and " Did you mean" in exc.message:
                exc.message = exc.message.split(" Did you mean")[0]  # type: ignore[misc]  # (as typer sets it)
            raise


app = typer.Typer(
    cls=_Commands,
    name="qwirkle",
    help="Check, re-score and study recorded games of Qwirkle.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class Format(str, enum.Enum):
    text = "text"
    json = "json"


class Engine(str, enum.Enum):
    greedy = "greedy"
    lookahead = "lookahead"
    sim = "sim"


def _fail(message: str) -> NoReturn:
    typer.echo(f"qwirkle: {one_line(message)}", err=True)
    raise typer.Exit(EXIT_USAGE)


def _warn(where: str, findings: "Iterable[Finding]") -> None:
    """Tell each finding on standard error as a warning (the command goes
    on, and its exit code is not changed: warnings do not fail):
    ``qwirkle: warning: FILE: CODE: MESSAGE``, and under it the excerpt of
    a slip in hand-written text."""
    for f in findings:
        first, *rest = f.lines(where)
        typer.echo(f"qwirkle: warning: {one_line(first)}", err=True)
        for line in rest:
            typer.echo(one_line(line), err=True)


def _read(file: Path) -> "Loaded":
    """The one record in ``file`` (with where its values were written), the warnings of
    reading it (slips in hand-written text read past) told at once, as :func:`_warn` tells them."""
    from ..formats.sources import load_record

    loaded = load_record(file)
    _warn(str(file), loaded.warnings)
    return loaded


def _history(file: Path, positions: bool = True) -> "History":
    """The record in ``file`` (see :func:`_read`) replayed once, leniently."""
    from ..play.engine import replay

    return replay(_read(file).record, positions=positions)


def _out(line: str) -> None:
    _emit(line + "\n")


def _emit(text: str) -> None:
    """Write to standard output; what the system refuses there (a full disk)
    is an :class:`~qwirkle_tools.formats.fileio.OutputError` saying so (a closed pipe
    is left to the launcher, which ends quietly)."""
    try:
        sys.stdout.write(text)
    except BrokenPipeError:
        raise
    except OSError as exc:
        from ..formats.fileio import cannot_write

        silence_stdout()  # what is left must not fail again at exit
        raise cannot_write("standard output", exc) from None


def _wrote(path: Path) -> None:
    """Say that ``path`` was written, relative to here when it is below here."""
    shown = os.path.relpath(path)
    typer.echo(f"wrote {one_line(str(path) if shown.startswith('..') else shown)}", err=True)


F = TypeVar("F", bound=Callable[..., Any])


def command(fn: F) -> F:
    """An app command whose library errors become a message and an exit code:
    every :class:`~qwirkle_tools.core.errors.QwirkleError` (details first, then
    ``qwirkle: MESSAGE``, exit code as the error says), and any other
    :class:`OSError`, which is the system's refusal, not a bug (one line, exit 2)."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except QwirkleError as exc:
            for line in exc.details:
                typer.echo(one_line(line), err=True)
            typer.echo(f"qwirkle: {one_line(str(exc))}", err=True)
            raise typer.Exit(exc.exit_code) from None
        except BrokenPipeError:
            raise  # the reader went away (| head): the launcher ends quietly
        except OSError as exc:  # the system refused, where no library call named the file
            _fail(_refused(exc))

    run.__doc__ = whole_examples(fn.__doc__)
    app.command()(run)
    return fn


def whole_examples(doc: str | None) -> str | None:
    r"""``doc`` with each paragraph of example commands (starting ``qwirkle ...``) marked
    ``\b``, so that the help prints each command on one line, whole and copyable, however
    narrow the terminal (click rewraps every other paragraph to the terminal's width).

    >>> whole_examples("Do it.\n\n    Example:\n\n        qwirkle x --long\n        qwirkle y\n").split("\n")
    ['Do it.', '', 'Example:', '', '    \x08', 'qwirkle x --long', 'qwirkle y']
    """
    if doc is None:
        return None
    import inspect

    out: list[str] = []
    lines = inspect.cleandoc(doc).split("\n")  # (dedented here: the kept lines lose their indent below)
    within = False
    for i, line in enumerate(lines):
        command = line.strip().startswith("qwirkle ")
        if command and (i == 0 or not lines[i - 1].strip()):
            # a paragraph of commands: click keeps one whose first line is \b as it is, indented as that line
            out.append(line[: len(line) - len(line.lstrip())] + "\b")
            within = True
        within = within and bool(line.strip())
        out.append(line.lstrip() if within else line)  # (click indents each kept line again)
    return "\n".join(out)


def _refused(exc: OSError) -> str:
    """The message for what the system refused, where no library call said
    which output (those raise :class:`~qwirkle_tools.formats.fileio.OutputError`):
    the file the error names, if any, and the system's reason."""
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason}" if exc.filename is not None else f"cannot go on: {reason}"


def silence_stdout() -> None:
    """Send what is left for standard output, which cannot take it, to the null device."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # no file descriptor (a test's captured output)
        pass


DASK_HELP = ("Run on a Dask cluster: 'local' starts one on this machine (--jobs workers, default one per core), "
             "tcp://HOST:PORT (or tls://HOST:PORT, certificates from Dask's configuration) uses a running "
             "scheduler, which must be trusted (see docs/bot-authors.md). Every worker must see the input paths (a shared file "
             "system) or get URLs (s3://, gs://: needs fsspec and its package for the scheme). "
             "Needs pip install 'qwirkle-tools[dask]'.")
PATHS_HELP = "Record files, folders, or .jsonl corpora (with --dask also fsspec URLs)."


def _workers(dask: str | None, jobs: int) -> int | None:
    """The worker processes of ``--dask local``: ``--jobs`` when given, else one per core."""
    from ..corpus.runner import dask_workers

    return dask_workers(dask, jobs)


def _bar(total: int, progress: bool | None, label: str = "games") -> "Progress":
    """The progress bar on standard error, shown when asked, or by default when it is a terminal."""
    from .progress import Progress

    return Progress(total, sys.stderr, sys.stderr.isatty() if progress is None else progress, label=label)


@contextmanager
def _turns_bar(turns: int, engine: str) -> Iterator[Callable[[int, int], None]]:
    """An analysis's progress (``analyse(progress=...)``) as a bar of its ``turns`` on a terminal, for an
    engine other than greedy (seconds a game; greedy's milliseconds need none); cleared at the end."""
    bar = _bar(turns, None if engine != "greedy" else False, "turns")
    try:
        yield lambda done, total: bar.update(1, 1)
    finally:
        bar.close()




def _target(output: Path | None, file: Path | None, in_place: bool | None, force: bool) -> Path | None:
    """Where to write, once it is safe (see :func:`qwirkle_tools.formats.fileio.check_output`);
    ``in_place`` is ``None`` for a command that has no ``--in-place``."""
    from ..formats.fileio import check_output

    if in_place:
        if file is None or (output is not None and output != file):
            _fail("give either --in-place or --output, not both")
        output = file
    if output is None:
        return None
    return check_output(output, [file] if file is not None else [], force=force, in_place=bool(in_place),
                        hint="" if in_place is None else " (use --in-place)")


class _RecordOut(NamedTuple):
    path: Path  # resolved, to write
    form: str  # .json, .jsonl or .qgn
    shown: str  # as the user named it, for messages


def _record_target(output: Path | None, file: Path, in_place: bool, force: bool,
                   analysis: bool = False) -> _RecordOut | None:
    """Where to write a record (see :func:`_target`) and in which form: the
    one the output's name asks for, or with ``in_place`` the one FILE was
    read in (see :func:`qwirkle_tools.outputs.convert.output_form`)."""
    from ..outputs.convert import output_form

    target = _target(output, file, in_place, force)
    if target is None:
        return None
    named = file if in_place or output is None else output
    return _RecordOut(target, output_form(named, file if in_place else None, analysis), str(named))


def _record_text(record: "Record | Mapping[str, JSON]", out: _RecordOut) -> str:
    """The record's text in the form :func:`_record_target` chose."""
    from ..outputs.convert import written

    return written([record], out.form, name=out.shown).text


def _write(target: Path, text: str | bytes, replace: bool) -> None:
    """Write atomically; without ``replace`` the name is created exclusively."""
    from ..formats.fileio import write_atomic

    try:
        write_atomic(target, text, replace)
    except (OSError, RecursionError, ValueError) as exc:
        _fail(f"{target}: cannot write: {getattr(exc, 'strerror', None) or exc}")
    _wrote(target)


PLAYER_HELP = ("A player: a policy (greedy, random, lookahead, equity), a Python function module:function or "
               "path/to/file.py:function (given the seat's view, it returns a move), or an outside program "
               "cmd:'COMMAND ARGS' speaking the Qwirkle bot protocol (docs/bots.md).")


@app.callback(invoke_without_command=True)
def _main(
    version: Annotated[bool, typer.Option("--version", help="Print the version and which build runs, and exit.")] = False,
) -> None:
    if version:
        from ..version import __version__, build

        try:
            _out(f"qwirkle-tools {__version__}, {build()}")
        except QwirkleError as exc:  # (no command's wrapper here)
            _fail(str(exc))
        raise typer.Exit(0)


__all__ = ["DASK_HELP", "EXIT_BUG", "EXIT_FINDINGS", "EXIT_OK", "EXIT_USAGE", "PATHS_HELP", "PLAYER_HELP", "Engine", "Format",
           "_bar", "_emit", "_fail", "_out", "_record_target", "_record_text", "_refused", "_target", "_workers", "_write",
           "_wrote", "app", "command", "silence_stdout", "whole_examples"]


def _write_games(out: "LineFile", games: "Iterable[Played]", total: int, before: int, progress: bool | None,
                 fold: "Callable[[Played], object]", shown: str) -> None:
    """Write each game of a match or a tournament to ``out`` as it comes (one whole
    record a line: a run that is interrupted or fails keeps every finished game, and
    says so), hand it to ``fold`` (the summary's), with a progress bar; then say what
    was written. ``before``: the games an earlier run wrote (being resumed)."""
    from .progress import Progress

    bar = Progress(total, sys.stderr, sys.stderr.isatty() if progress is None else progress)
    bar.update(before, before)
    try:
        for game in games:
            out.write(game.line)
            fold(game)
            bar.update(1, 1)
    except BaseException:
        bar.close()
        kept = before + out.written
        if kept:
            typer.echo(f"qwirkle: {one_line(shown)} keeps the {count(kept, 'game')} finished (of {total:,}); "
                       "--resume plays the rest", err=True)
        raise
    finally:
        bar.close()
        out.close()
    _wrote(out.path)


def _hopeless(found: Sequence[tuple[str, str, int, str]]) -> None:
    """Fail (exit 2) if a player forfeited every game it played: the games say nothing of its strength."""
    for label, name, games, reason in found:
        typer.echo(f"qwirkle: player {label} ({one_line(name, most=60)}) forfeited every game it played "
                   f"({games:,}); the first: {one_line(reason, most=200)}", err=True)
    if found:
        raise typer.Exit(EXIT_USAGE)
