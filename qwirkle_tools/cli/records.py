"""The commands on records: ``validate`` (of any number, here, over
processes or on a Dask cluster), ``rescore`` and ``moves`` (of one)."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..core.errors import QwirkleError
from ..core.safetext import json_text
from ..core.text import count
from .common import (
    DASK_HELP,
    EXIT_FINDINGS,
    EXIT_OK,
    PATHS_HELP,
    Format,
    _bar,
    _emit,
    _fail,
    _history,
    _out,
    _record_target,
    _record_text,
    _write,
    command,
)
from .picking import GameOption, game_history

if TYPE_CHECKING:
    from ..analysis.validate import Tally
    from ..corpus.runner import Checked, Run
    from .progress import Progress


@command
def validate(
    paths: Annotated[list[str], typer.Argument(help=PATHS_HELP, show_default=False)],
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the summary line.")] = False,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=1, max=256, help="Processes to use; the output is the same for any number.")] = 1,
    dask: Annotated[str | None, typer.Option("--dask", metavar="ADDRESS", help=DASK_HELP)] = None,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress", help="Show a progress bar (default: when stderr is a terminal).",
        show_default=False)] = None,
) -> None:
    """Check records against the schema, replay them and report every problem.

    Each problem is printed as FILE[:LINE]:turn N: CODE: MESSAGE. Exit 0 when
    every record is valid, 1 when any has an error, 2 when the command could
    not run. Warnings alone do not fail. The output is the same with any
    --jobs and with --dask.

    Example:

        qwirkle validate sample_games/ --format json
    """
    from ..corpus.runner import check

    run = check(paths, every=format is Format.json, jobs=jobs, dask=dask)
    tally = _show_reports(run, format, quiet, _bar(run.size, progress, "records"))
    raise typer.Exit(EXIT_FINDINGS if tally.invalid else EXIT_OK)


def _show_reports(run: "Run[Checked, Tally]", format: Format, quiet: bool, bar: "Progress") -> "Tally":
    """Print the reports as they come (JSON: every one, in a list; text:
    each finding's lines, unless ``quiet``), then the summary, which it returns."""
    from ..analysis.validate import Document

    document = Document() if format is Format.json else None
    if document is not None:
        _emit(document.start())
    try:
        for part in run:
            for report in part.reports:
                if document is not None:
                    _emit(document.report(report))
                elif not quiet and report.findings:
                    bar.close()
                    for f in report.findings:
                        for line in f.lines(report.where):  # (with the excerpt of a mistake in hand-written text)
                            _out(line)
            bar.update(part.records, part.size)
    except QwirkleError as exc:  # an input (or the cluster) fails while running
        bar.close()
        if document is not None:
            _emit(document.end(None))
        _fail(str(exc))
    finally:
        bar.close()
        run.close()  # the work under way is stopped: the processes, the cluster's blocks (a local cluster closed)
    if document is not None:
        _emit(document.end(run.summary))
    else:
        _out(run.summary.text())
    return run.summary


@command
def rescore(
    file: Annotated[Path, typer.Argument(help="A record file (.json, .qgn, or a .csv score sheet).", show_default=False)],
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write a corrected copy of the record here.")] = None,
    in_place: Annotated[bool, typer.Option("--in-place", help="Correct FILE itself (written atomically).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
    repair: Annotated[bool, typer.Option("--repair", help=(
        "Read a hand-written game (.qgn) as meant: each slip of the pen (a tile a cell off, two tiles swapped, a "
        "tile misspelt, the other player's name, a turn written twice) repaired and listed; with -o or "
        "--in-place the game as meant is written, in FILE's own format."))] = False,
) -> None:
    """Re-score every turn: claimed and computed scores, breakdowns, running totals.

    Differences are marked with '!'. With -o, writes a copy of the record with
    the computed scores and result (never FILE itself, unless --in-place);
    with --repair, the game as meant, each slip listed first.
    Exit 0 when every claimed score is right, 1 when any differs (or the
    result does, or --repair repaired a slip), 2 when the command could not run.

    Example:

        qwirkle rescore sample_games/296-295.json -o fixed.json
    """
    from ..analysis.rescore import corrected
    from ..analysis.rescore import rescore as run

    where = _record_target(output, file, in_place, force)
    if repair:
        from ..analysis.validate import as_meant
        from ..play.engine import replay

        meant, slips = as_meant(file)
        for f in slips:
            _out(f"{file}:{f}")
        _out(f"{count(len(slips), 'slip')} repaired" + ("" if slips else ": the game reads as written"))
        history = replay(meant, positions=False)
    else:
        slips = ()
        history = _history(file, positions=False)
    rescoring = run(history)
    text = None if where is None else _record_text(corrected(history), where)  # refused before any output
    if format is Format.json:
        _out(json_text(rescoring.to_data(), indent=2))
    else:
        _out(rescoring.text())
    if where is not None and text is not None:
        _write(where.path, text, force or in_place)
    raise typer.Exit(EXIT_FINDINGS if rescoring.wrong or (repair and slips) else EXIT_OK)


@command
def moves(
    file: Annotated[Path, typer.Argument(help="A record file (.json, .qgn, or a .csv score sheet).", show_default=False)],
    turn: Annotated[int, typer.Option("--turn", "-t", help=(
        "The position turn N is played in (the board before it, as in board and endgame; 1-based): its player's "
        "moves."))],
    rack: Annotated[str | None, typer.Option("--rack", help="The rack, e.g. 'rc rs bd' (default: from the record).")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", help="Show at most this many moves (0: all).")] = 0,
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
    game: GameOption = None,
) -> None:
    """List every legal move at a turn, best first, with score and Qwirkles.

    --turn N is the position turn N is played in, as in board and endgame:
    the board before turn N; the rack is the recorded or deduced rack of the
    player to move, or --rack.

    Example:

        qwirkle moves sample_games/complete-2p.json --turn 12 --limit 5
    """
    from ..analysis.analyse import legal_moves
    from ..core.tiles import TileError, parse_tiles

    tiles = None
    if rack is not None:
        try:
            tiles = [int(t) for t in parse_tiles(rack)]
        except TileError as exc:
            _fail(f"--rack: {exc}")
    found = legal_moves(game_history(file, game), turn, tiles)
    for chunk in found.json_chunks(limit) if format is Format.json else found.lines(limit):
        _emit(chunk if format is Format.json else chunk + "\n")
    if format is Format.json:
        _emit("\n")
