"""The ``qwirkle`` command: a thin layer over the library.

Each command parses its options, calls the library, prints, and maps
library errors to a message and an exit code:

* 0: done, and every record checked is valid;
* 1: a record has an error (a finding of severity ``error``);
* 2: the command could not run (no such file, unreadable input, bad
  option, an output it must not overwrite).
"""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

app = typer.Typer(
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


def _fail(message: str) -> NoReturn:
    typer.echo(f"qwirkle: {message}", err=True)
    raise typer.Exit(EXIT_USAGE)


def _out(line: str) -> None:
    sys.stdout.write(line + "\n")


@app.command()
def validate(
    paths: Annotated[list[Path], typer.Argument(help="Record files, folders, or .jsonl corpora.", show_default=False)],
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the summary line.")] = False,
) -> None:
    """Check records against the schema, replay them and report every problem.

    Each problem is printed as FILE[:LINE]:turn N: CODE: MESSAGE. Exit 0 when
    every record is valid, 1 when any has an error, 2 when the command could
    not run. Warnings alone do not fail.

    Example:

        qwirkle validate sample_games/ --format json
    """
    import json

    from .validate import InputError
    from .validate import validate as run

    records = invalid = errors = warnings = 0
    first = True
    if format is Format.json:
        sys.stdout.write('{"records": [')
    try:
        for report in run(paths):
            records += 1
            invalid += not report.valid
            for f in report.findings:
                if f.severity == "error":
                    errors += 1
                else:
                    warnings += 1
            if format is Format.json:
                sys.stdout.write(("" if first else ",") + "\n  " + json.dumps(report.to_data(), ensure_ascii=False))
                first = False
            elif not quiet:
                for f in report.findings:
                    turn = f"turn {f.turn}: " if f.turn is not None else " "
                    _out(f"{report.where}:{turn}{f.code}: {f.message}")
    except InputError as exc:
        if format is Format.json:
            sys.stdout.write("\n]}\n")
        _fail(str(exc))
    summary = (f"{records} record{'s' if records != 1 else ''}: {records - invalid} valid, {invalid} invalid "
               f"({errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''})")
    if format is Format.json:
        sys.stdout.write("\n], \"summary\": " + json.dumps({
            "records": records, "valid": records - invalid, "invalid": invalid,
            "errors": errors, "warnings": warnings}) + "}\n")
    else:
        _out(summary)
    raise typer.Exit(EXIT_FINDINGS if invalid else EXIT_OK)


def _read_one(path: Path) -> tuple[object, object]:
    """A single record from a file, or exit: 2 if unreadable, 1 if invalid."""
    from .validate import InputError, check_source, sources

    try:
        found = list(sources([path]))
    except InputError as exc:
        _fail(str(exc))
    if len(found) != 1 or found[0].index:
        _fail(f"{path}: expected a .json file holding one record, not a .jsonl corpus")
    report = check_source(found[0], exact=True)  # it may be written back
    blocking = [f for f in report.findings if f.code in ("json", "too-large", "schema")]
    if report.record is None or blocking:
        for f in blocking or report.findings:
            turn = f"turn {f.turn}: " if f.turn is not None else " "
            typer.echo(f"{report.where}:{turn}{f.code}: {f.message}", err=True)
        typer.echo(f"qwirkle: {path}: not a readable record; fix the errors above first", err=True)
        raise typer.Exit(EXIT_FINDINGS)
    return report.record, report


@app.command()
def rescore(
    file: Annotated[Path, typer.Argument(help="A record file (.json).", show_default=False)],
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write a corrected copy of the record here.")] = None,
    in_place: Annotated[bool, typer.Option("--in-place", help="Correct FILE itself (written atomically).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
) -> None:
    """Re-score every turn: claimed and computed scores, breakdowns, running totals.

    Differences are marked with '!'. With -o, writes a copy of the record with
    the computed scores and result (never FILE itself, unless --in-place).
    Exit 0 when every claimed score is right, 1 when any differs (or the
    result does), 2 when the command could not run.

    Example:

        qwirkle rescore sample_games/296-295.json -o fixed.json
    """
    import json

    from . import rescore as rs
    from .fileio import OutputError, check_output, write_atomic
    from .record import Record, dumps

    if in_place:
        if output is not None and output != file:
            _fail("give either --in-place or --output, not both")
        output = file
    target = None
    if output is not None:
        try:
            target = check_output(output, [file], force=force, in_place=in_place)
        except OutputError as exc:
            _fail(str(exc))
    record, _ = _read_one(file)
    assert isinstance(record, Record)
    rows = rs.rescore(record)
    if format is Format.json:
        _out(json.dumps({"players": [p.name for p in record.players],
                         "turns": [r.to_data() for r in rows],
                         "totals": list(rows[-1].totals) if rows else [0] * len(record.players)},
                        ensure_ascii=False, indent=2))
    else:
        _out(rs.table(record, rows))
    if target is not None:
        try:
            write_atomic(target, dumps(rs.corrected(record)))
        except (OSError, RecursionError, ValueError) as exc:
            _fail(f"{target}: cannot write: {getattr(exc, 'strerror', None) or exc}")
        typer.echo(f"wrote {target}", err=True)
    totals = rows[-1].totals if rows else ()
    claimed = record.result.scores if record.result is not None else None
    wrong = any(r.differs for r in rows) or (claimed is not None and tuple(claimed) != tuple(totals))
    raise typer.Exit(EXIT_FINDINGS if wrong else EXIT_OK)


@app.command()
def schema() -> None:
    """Print the record format's JSON Schema.

    Example:

        qwirkle schema > qwirkle-record.schema.json
    """
    import json

    from .schema import schema as load

    _out(json.dumps(load(), indent=2))


@app.callback(invoke_without_command=True)
def _main(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    if version:
        from . import __version__

        _out(f"qwirkle-tools {__version__}")
        raise typer.Exit(0)


def main() -> None:
    """Entry point: run the app; a broken pipe or Ctrl-C ends quietly."""
    for stream in (sys.stdout, sys.stderr):  # a name the terminal cannot show must not crash the run
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        app()
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(EXIT_OK)
    except KeyboardInterrupt:
        sys.exit(130)
