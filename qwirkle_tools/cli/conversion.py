"""The commands on the record format itself: ``convert`` (between JSON, a
``.jsonl`` corpus, the notation and score sheets) and ``schema``."""

from pathlib import Path
from typing import Annotated

import typer

from ..core.safetext import json_text, one_line
from .common import _out, _target, _warn, _write, command


@command
def convert(
    file: Annotated[Path, typer.Argument(help="A record (.json), a corpus (.jsonl), a game in the notation (.qgn) "
                                              "or a score sheet (.csv).", show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="The file to write: .json, .jsonl or .qgn.",
                                         show_default=False)],
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
) -> None:
    """Convert records between JSON, a .jsonl corpus and the game notation,
    or read a paper score sheet (.csv) into a record.

    The forms come from the file names. A .json or .qgn file holds one
    record; a .jsonl corpus one per line. The notation holds everything a
    record does but x- fields and machine analysis: a note names what was
    left out. Exit 1 when the input has a mistake or breaks the schema
    (every finding is printed), 2 when the command could not run.

    Example:

        qwirkle convert sample_games/296-295-sheet.csv -o game.json
    """
    from ..outputs.convert import convert as run

    target = _target(output, file, None, force)
    assert target is not None
    done = run(file, target)
    _warn(str(file), done.warnings)
    for pointer in done.dropped:
        typer.echo(f"qwirkle: note: {one_line(str(file))}: {one_line(pointer)} left out "
                   "(the notation holds no x- fields or analysis)", err=True)
    _write(target, done.text, force)


@command
def schema() -> None:
    """Print the record format's JSON Schema.

    Example:

        qwirkle schema > qwirkle-record.schema.json
    """
    from ..formats.schema import schema as load

    _out(json_text(load(), indent=2))
