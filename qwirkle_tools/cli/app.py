"""The ``qwirkle`` command: a thin layer over the library.

Each command parses its options, calls the library, prints, and maps
library errors to a message and an exit code:

* 0: done, and every record checked is valid;
* 1: a record has an error (a finding of severity ``error``);
* 2: the command could not run (no such file, unreadable input, bad
  option, an output it must not overwrite);
* 3: an internal error (a bug), reported in one line.
"""

from __future__ import annotations

import enum
import functools
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, NoReturn, TypeVar

import typer

from ..core.errors import QwirkleError
from ..core.safetext import json_text, one_line

if TYPE_CHECKING:
    from collections.abc import Mapping

    from matplotlib.figure import Figure

    from ..formats.jsontext import JSON
    from ..formats.record import Record

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3

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


class Engine(str, enum.Enum):
    greedy = "greedy"
    lookahead = "lookahead"


def _fail(message: str) -> NoReturn:
    typer.echo(f"qwirkle: {one_line(message)}", err=True)
    raise typer.Exit(EXIT_USAGE)


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


def command(fn: F, on: typer.Typer = app) -> F:
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

    on.command()(run)  # (``on``: the app as it was made, whatever later replaces the name)
    return fn


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
             "scheduler, which must be trusted (see the README). Every worker must see the input paths (a shared file "
             "system) or get URLs (s3://, gs://: needs fsspec and its package for the scheme). "
             "Needs pip install 'qwirkle-tools[dask]'.")
PATHS_HELP = "Record files, folders, or .jsonl corpora (with --dask also fsspec URLs)."


def _workers(dask: str | None, jobs: int) -> int | None:
    """The worker processes of ``--dask local``: ``--jobs`` when given, else one per core."""
    return jobs if dask is not None and jobs > 1 else None


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
    from ..analysis.validate import Report, Tally
    from ..formats.sources import InputError, input_files
    from .progress import Progress

    tally = Tally()
    first = True
    reports: Iterable[tuple[Report, int]]
    try:
        if dask is not None:
            from ..corpus.cluster import validate as on_cluster

            blocks = on_cluster(paths, dask, every=format is Format.json, workers=_workers(dask, jobs))
            size, reports = blocks.size, ()
        else:
            from ..corpus.rows import reports as local

            size = sum(f.stat().st_size for f in input_files(paths))
            reports = local(paths, jobs)
    except InputError as exc:
        _fail(str(exc))
    bar = Progress(size, sys.stderr, sys.stderr.isatty() if progress is None else progress, label="records")

    def show(report: Report) -> None:
        nonlocal first
        if format is Format.json:
            _emit(("" if first else ",") + "\n  " + json_text(report.to_data()))
            first = False
        elif not quiet and report.findings:
            bar.close()
            for f in report.findings:
                for line in f.lines(report.where):  # (with the excerpt of a mistake in hand-written text)
                    _out(line)

    if format is Format.json:
        _emit('{"records": [')
    try:
        if dask is not None:
            for block in blocks:
                tally = tally.merge(block.tally)
                for report in block.reports:
                    show(report)
                bar.update(block.records, block.size)
        else:
            for report, done in reports:
                tally.add(report)
                show(report)
                bar.update(1, done)
    except QwirkleError as exc:  # an input (or the cluster) fails while running
        bar.close()
        if format is Format.json:
            _emit("\n]}\n")
        _fail(str(exc))
    finally:
        bar.close()
        if dask is not None:
            blocks.close()  # the blocks under way are cancelled, a local cluster closed
    if format is Format.json:
        _emit("\n], \"summary\": " + json_text(tally.to_data()) + "}\n")
    else:
        _out(tally.text())
    raise typer.Exit(EXIT_FINDINGS if tally.invalid else EXIT_OK)


@command
def rescore(
    file: Annotated[Path, typer.Argument(help="A record file (.json, .qgn, or a .csv score sheet).", show_default=False)],
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
    from ..analysis.rescore import corrected
    from ..analysis.rescore import rescore as run
    from ..formats.sources import read_record
    from ..play.engine import replay

    where = _record_target(output, file, in_place, force)
    history = replay(read_record(file), positions=False)
    rescoring = run(history)
    text = None if where is None else _record_text(corrected(history), where)  # refused before any output
    if format is Format.json:
        _out(json_text(rescoring.to_data(), indent=2))
    else:
        _out(rescoring.text())
    if where is not None and text is not None:
        _write(where.path, text, force or in_place)
    raise typer.Exit(EXIT_FINDINGS if rescoring.wrong else EXIT_OK)


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


def _record_text(record: Record | Mapping[str, JSON], out: _RecordOut) -> str:
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


@command
def moves(
    file: Annotated[Path, typer.Argument(help="A record file (.json, .qgn, or a .csv score sheet).", show_default=False)],
    turn: Annotated[int, typer.Option("--turn", "-t", help="List the moves for the player to move at this turn (1-based).")],
    rack: Annotated[str | None, typer.Option("--rack", help="The rack, e.g. 'rc rs bd' (default: from the record).")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", help="Show at most this many moves (0: all).")] = 0,
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
) -> None:
    """List every legal move at a turn, best first, with score and Qwirkles.

    The board is the one before turn N; the rack is the recorded or deduced
    rack of the player to move, or --rack.

    Example:

        qwirkle moves sample_games/complete-2p.json --turn 12 --limit 5
    """
    from ..analysis.analyse import legal_moves
    from ..core.tiles import TileError, parse_tiles
    from ..formats.sources import read_record
    from ..play.engine import replay

    tiles = None
    if rack is not None:
        try:
            tiles = [int(t) for t in parse_tiles(rack)]
        except TileError as exc:
            _fail(f"--rack: {exc}")
    found = legal_moves(replay(read_record(file)), turn, tiles)
    for chunk in found.json_chunks(limit) if format is Format.json else found.lines(limit):
        _emit(chunk if format is Format.json else chunk + "\n")
    if format is Format.json:
        _emit("\n")


class TableFormat(str, enum.Enum):
    csv = "csv"
    parquet = "parquet"


@command
def stats(
    paths: Annotated[list[str], typer.Argument(help=PATHS_HELP, show_default=False)],
    analyse: Annotated[bool, typer.Option(
        "--analyse", "-a", help="Analyse every valid game (best moves, missed Qwirkles, points lost).")] = False,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=1, max=256, help="Processes to use; the output is the same for any number.")] = 1,
    csv: Annotated[Path | None, typer.Option(
        "--csv", help="Write games.csv, turns.csv and findings.csv into this folder.")] = None,
    parquet: Annotated[Path | None, typer.Option(
        "--parquet", help="Write the three tables as .parquet into this folder (needs pyarrow).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite table files that exist.")] = False,
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
    dask: Annotated[str | None, typer.Option("--dask", metavar="ADDRESS", help=DASK_HELP)] = None,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress", help="Show a progress bar (default: when stderr is a terminal).",
        show_default=False)] = None,
) -> None:
    """Summarise a corpus: wins by position, scores, Qwirkles, findings, and
    with --analyse missed Qwirkles and points lost per player.

    Unreadable and invalid records are listed (FILE[:LINE]:turn N: CODE: MESSAGE,
    the first error of each) and counted; the rest are still summarised.
    Records are streamed, so memory stays flat on any corpus. The output and
    the tables are the same with any --jobs and with --dask (the tables are
    written here, from the rows the workers send back). Exit 0 when every
    record is valid, 1 when any is invalid or unreadable, 2 when the command
    could not run.

    Example:

        qwirkle stats corpus.jsonl --analyse --jobs 2 --csv tables/
    """
    from ..corpus.rows import Stats, run
    from ..corpus.tables import TableWriter
    from ..formats.fileio import OutputError
    from ..formats.sources import InputError, input_files
    from .progress import Progress

    if csv is not None and parquet is not None:
        _fail("give either --csv or --parquet, not both")
    blocks = None
    try:
        if dask is not None:  # the inputs are checked now, before the cluster is reached
            from ..corpus.cluster import stats as on_cluster
            from ..formats.sources import is_url

            blocks = on_cluster(paths, dask, analyse, rows=csv is not None or parquet is not None,
                                workers=_workers(dask, jobs))
            files = input_files(p for p in paths if not is_url(p))  # for the tables' checks
            size = blocks.size
        else:
            files = input_files(paths)  # walked once: for the progress bar, the tables' checks and the run
            size = sum(f.stat().st_size for f in files)
        writer = None
        if csv is not None or parquet is not None:
            folder = csv if csv is not None else parquet
            assert folder is not None
            writer = TableWriter(folder, "csv" if csv is not None else "parquet", force, inputs=files)
    except (InputError, OutputError) as exc:
        _fail(str(exc))
    except ImportError:
        _fail("--parquet needs pyarrow: pip install pyarrow (or --csv)")
    except OSError as exc:
        _fail(f"cannot write the tables: {exc.strerror or exc}")
    summary = Stats()
    bar = Progress(size, sys.stderr, sys.stderr.isatty() if progress is None else progress)
    try:
        if blocks is not None:
            for block in blocks:
                summary = summary.merge(block.stats)
                for result in block.rows or ():
                    assert writer is not None
                    writer.add(result)
                bar.update(block.records, block.size)
                if format is Format.text and block.broken:
                    bar.close()
                    for line in block.broken:
                        _out(line)
        else:
            for result in run(files, analyse, jobs):
                summary.add(result)
                if writer is not None:
                    writer.add(result)
                bar.update(1, result.size)
                broken = result.broken_line()
                if broken is not None and format is Format.text:
                    bar.close()
                    _out(broken)
        bar.close()
        if writer is not None:
            writer.close()
            for path in writer.paths:
                _wrote(path)
    except BaseException as exc:
        bar.close()
        if blocks is not None:
            blocks.close()  # the blocks under way are cancelled, the cluster closed
        if writer is not None:
            writer.discard()
        if isinstance(exc, QwirkleError) and exc.exit_code == EXIT_USAGE:  # an input, the cluster
            _fail(str(exc))
        if isinstance(exc, OSError):
            _fail(f"cannot write the tables: {exc.strerror or exc}")
        raise
    if format is Format.json:
        _out(json_text(summary.to_data(), indent=2))
    else:
        if summary.unreadable or summary.invalid:
            _out("")  # after the list of broken records
        _out(summary.text())
    raise typer.Exit(EXIT_FINDINGS if summary.unreadable or summary.invalid else EXIT_OK)


@command
def simulate(
    output: Annotated[Path, typer.Option("--output", "-o", help="The corpus to write (.jsonl).", show_default=False)],
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="How many games.")] = 10,
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=6, help="Players per game.")] = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed: the same seed gives the same games.")] = 0,
    policy: Annotated[str, typer.Option("--policy", help=(
        "greedy: the best score; random: any legal move; lookahead: the best score less the next player's "
        "expected reply. One for every seat, or one per seat, comma-separated: lookahead,greedy."))] = "greedy",
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=1, max=256, help="Processes to use; the games are the same for any number.")] = 1,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
    dask: Annotated[str | None, typer.Option("--dask", metavar="ADDRESS", help=DASK_HELP)] = None,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress", help="Show a progress bar (default: when stderr is a terminal).",
        show_default=False)] = None,
) -> None:
    """Play complete legal games by self-play and write them as a .jsonl corpus.

    Every rack, draw and exchange is recorded; every game validates with no
    findings. Game i of seed S is the same whatever --games, --jobs and
    --dask say (with --dask the games are played on the workers and written here).
    The corpus is written as it is played (under a temporary name, renamed
    at the end), so memory stays flat for any number of games.

    Example:

        qwirkle simulate --games 100 --players 2 --seed 7 --policy lookahead,greedy -o corpus.jsonl
    """
    from functools import partial

    from ..corpus.rows import ordered_map
    from ..formats.fileio import AtomicFile
    from ..outputs.convert import output_form
    from ..play.simulate import seat_policies, simulate_line
    from .progress import Progress

    try:
        policies = seat_policies(policy.split(",") if "," in policy else policy, players)  # type: ignore[arg-type]
    except ValueError as exc:
        _fail(f"--policy: {exc}")
    target = _target(output, None, None, force)
    assert target is not None
    if output_form(output) != ".jsonl":
        _fail(f"{output}: simulate writes a corpus, one record a line: give a .jsonl file")
    bar = Progress(games, sys.stderr, sys.stderr.isatty() if progress is None else progress)
    per_seat = policies[0] if "," not in policy else policies
    play = partial(simulate_line, players=players, seed=seed, policy=per_seat)
    blocks = None
    if dask is not None:
        from ..corpus.cluster import simulate as on_cluster

        blocks = on_cluster(games, dask, players, seed, per_seat, workers=_workers(dask, jobs))
    try:
        with AtomicFile(target, replace=force) as out, out.open() as handle:
            if blocks is not None:
                for lines in blocks:
                    handle.write(lines)
                    count = lines.count(b"\n")
                    bar.update(count, count)
            else:
                for line in ordered_map(play, range(games), jobs):
                    handle.write(line)
                    bar.update(1, 1)
    except BaseException as exc:
        bar.close()
        if blocks is not None:
            blocks.close()
        if not isinstance(exc, OSError):
            raise
        _fail(f"{target}: cannot write: {exc.strerror or exc}")
    bar.close()
    _wrote(target)


@command
def annotate(
    file: Annotated[Path, typer.Argument(help="A record file (.json, .qgn, or a .csv score sheet).", show_default=False)],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the annotated record here.")] = None,
    in_place: Annotated[bool, typer.Option("--in-place", help="Annotate FILE itself (written atomically).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
    engine: Annotated[Engine, typer.Option("--engine", "-e", help=(
        "greedy: judge by this turn's score (fast); lookahead: also by score less the next player's expected "
        "best reply (see the README).")) ] = Engine.greedy,
) -> None:
    """Analyse a game: best moves, points lost, missed Qwirkles, open fives, Qwirkle gifts.

    Prints a summary per player and the flagged turns; with -o, writes the
    record with the analysis in each turn's "analysis" field and a summary in
    the record's. Human comments are never touched; annotating twice gives
    the same file.

    Example:

        qwirkle annotate sample_games/complete-2p.json --engine lookahead -o annotated.json
    """
    from ..analysis.analyse import analyse, analysis_data, annotated, summary_text
    from ..formats.sources import read_record
    from ..play.engine import replay

    where = _record_target(output, file, in_place, force, analysis=True)  # (never a .qgn: before the work)
    history = replay(read_record(file))
    analysis = analyse(history, "lookahead" if engine is Engine.lookahead else "greedy")
    text = None if where is None else _record_text(annotated(history, analysis), where)
    if format is Format.json:
        _out(json_text(analysis_data(analysis), indent=2))
    else:
        _out(summary_text(analysis))
    if where is not None and text is not None:
        _write(where.path, text, force or in_place)


def _save_figure(fig: Figure, target: Path, replace: bool) -> None:
    from ..outputs.charts import save

    if target.suffix.lower() not in (".png", ".svg"):
        _fail(f"{target}: give a .png or .svg file")
    try:
        save(fig, target, replace)
    except OSError as exc:
        _fail(f"{target}: cannot write: {exc.strerror or exc}")
    _wrote(target)


@command
def board(
    file: Annotated[Path, typer.Argument(help="A record file (.json, .qgn, or a .csv score sheet).", show_default=False)],
    turn: Annotated[int | None, typer.Option("--turn", "-t", help="The board after this turn (default: the end).")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Draw to a .png or .svg file.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
    colour: Annotated[bool, typer.Option("--colour/--no-colour", help="Colour the text diagram.")] = True,
) -> None:
    """Show the board after a turn: a picture with -o, else a text diagram.

    The last move is outlined; where the record is annotated, a missed
    Qwirkle on that turn is drawn as faint ghost tiles; the cells where a
    line of five it left open would become a Qwirkle are ringed in red. The text diagram is
    coloured on a terminal (not when piped, or with NO_COLOR set).

    Example:

        qwirkle board sample_games/complete-2p.json --turn 20 -o board.png
    """
    from ..formats.sources import read_record
    from ..outputs.pictures import board_figure, board_text, board_view
    from ..play.engine import replay

    target = _target(output, file, None, force)
    view = board_view(replay(read_record(file)), turn)
    if target is None:
        use_colour = colour and sys.stdout.isatty() and "NO_COLOR" not in os.environ
        _out(board_text(view.board, view.last, colour=use_colour))
        return
    title = f"{file.name}: board after turn {view.turns_played}" + (" (ghosts: a missed Qwirkle)" if view.ghosts else "")
    title += " (red rings: open fives)" if view.open_cells else ""
    _save_figure(board_figure(view.board, view.last, view.ghosts, title=title, open_cells=view.open_cells), target, force)


class Kind(str, enum.Enum):
    progression = "progression"
    lead = "lead"
    turns = "turns"


@command
def chart(
    file: Annotated[Path, typer.Argument(help="A record file (.json, .qgn, or a .csv score sheet).", show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="The picture to write (.png or .svg).", show_default=False)],
    kind: Annotated[Kind, typer.Option("--kind", "-k", help="progression: scores; lead: the margin; turns: points per turn.")]
    = Kind.progression,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
) -> None:
    """Draw a score chart of a game: progression, lead or points per turn.

    progression: each player's score after each turn, Qwirkles and lead
    changes marked; lead: the leader's margin; turns: points per turn, and the
    points lost beside them where the record is annotated.

    Example:

        qwirkle chart sample_games/complete-2p.json --kind progression -o progression.png
    """
    from ..formats.sources import read_record
    from ..outputs import charts

    target = _target(output, file, None, force)
    assert target is not None
    record = read_record(file)
    draw = {Kind.progression: charts.progression, Kind.lead: charts.lead, Kind.turns: charts.turns}[kind]
    _save_figure(draw(record), target, force)


@command
def view(
    file: Annotated[Path, typer.Argument(help="A record file (.json, .qgn, or a .csv score sheet).", show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="The page to write (.html).", show_default=False)],
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
) -> None:
    """Write the game as one HTML page to step through in a browser.

    The page is one self-contained file (it loads nothing, from the network
    or from disk): the board after each turn, the move list with the findings
    and the analysis, the score chart, the players and a tile tracker. Step
    with the arrow keys, Home/End, the slider, the move list or the chart;
    the address keeps the turn (#turn=N).

    Example:

        qwirkle view sample_games/296-295.json -o game.html
    """
    from ..formats.sources import read_record
    from ..outputs.viewer import page
    from ..play.engine import replay

    target = _target(output, file, None, force)
    assert target is not None
    if target.suffix.lower() not in (".html", ".htm"):
        _fail(f"{target}: give an .html file")
    _write(target, page(replay(read_record(file)), title=file.name), force)


@command
def report(
    file: Annotated[Path, typer.Argument(help="A record file (.json, .qgn, or a .csv score sheet).", show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="The folder to write into.", show_default=False)],
    force: Annotated[bool, typer.Option("--force", help="Overwrite the report files if they exist.")] = False,
) -> None:
    """Validate, re-score and analyse a game, and write a report folder.

    Writes the annotated record, the progression, lead and turns charts, the
    final board, a per-turn table (CSV), the game as a page to step through
    in a browser (game.html) and a summary, which it also prints.
    Exit 0 when the record is valid, 1 when it has errors (the report is
    still written).

    Example:

        qwirkle report sample_games/296-295.json -o report/
    """
    from ..formats.fileio import check_folder, write_folder
    from ..formats.sources import read_record
    from ..outputs.reporting import FILES, build

    check_folder(output, FILES, force)  # before any work; checked again as the folder goes in place
    done = build(read_record(file), file.name)
    folder = write_folder(output, done.files, force, FILES)
    for name in done.files:
        _wrote(folder / name)
    _out(done.summary)
    raise typer.Exit(EXIT_OK if done.valid else EXIT_FINDINGS)


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


PLAYER_HELP = ("A player: a policy (greedy, random, lookahead), a Python function module:function or "
               "path/to/file.py:function (given the seat's view, it returns a move), or an outside program "
               "cmd:'COMMAND ARGS' speaking the Qwirkle bot protocol (docs/bots.md).")


MATCH_DASK_HELP = ("Play the deals on a Dask cluster: 'local' starts one here (--jobs workers, default one per core), "
                   "tcp://HOST:PORT (or tls://) uses a running scheduler, which must be trusted; the games are the same. "
                   "A cmd: player runs on the workers: it must be there on each. Needs pip install 'qwirkle-tools[dask]'.")


@command
def match(
    a: Annotated[str, typer.Argument(metavar="A", help=PLAYER_HELP, show_default=False)],
    b: Annotated[str, typer.Argument(metavar="B", help="The other player, as A.", show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="The games to write (.jsonl).", show_default=False)],
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="How many games (pairs of deals, seats swapped).")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the deals: the same seed deals the same games.")] = 0,
    movetime: Annotated[int, typer.Option("--movetime", min=1, metavar="MS",
                                          help="Milliseconds a program has for a move (plus a 1 s grace).")] = 1_000,
    sprt: Annotated[str | None, typer.Option("--sprt", metavar="ELO0,ELO1", help=(
        "Stop as soon as the sequential test between the two Elo differences of A over B decides "
        "(alpha = beta = 0.05)."))] = None,
    memory: Annotated[int, typer.Option("--bot-memory", min=64, metavar="MB",
                                        help="Memory limit of a program (cmd:) player, in MiB.")] = 2_048,
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=6, help=(
        "Players per game: A against PLAYERS - 1 copies of B (C, D, ...), each deal played from every seat "
        "rotation."))] = 2,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=1, max=256, help="Processes to use; the games are the same for any number.")] = 1,
    dask: Annotated[str | None, typer.Option("--dask", metavar="ADDRESS", help=MATCH_DASK_HELP)] = None,
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format of the summary.")] = Format.text,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress", help="Show a progress bar (default: when stderr is a terminal).",
        show_default=False)] = None,
) -> None:
    """Play a match between two players on paired deals and say who is stronger.

    Games 2k and 2k+1 are dealt alike with the seats swapped. Every game is
    written as a record (with the bots and the pair in its meta); a player
    that answers late, crashes, prints garbage or plays an illegal move loses
    that game by forfeit (the reason is in the record's result) and the match
    goes on. A program's standard error goes to OUTPUT.A.log / OUTPUT.B.log.
    Prints wins, draws, losses and forfeits, the score rate with its 95%
    interval, the mean margin with its interval and the pair results.

    Example:

        qwirkle match lookahead greedy --games 200 --seed 1 -o match.jsonl
    """
    from ..bots.match import Match, Sprt, Tally, format_summary, run_games
    from ..formats.fileio import AtomicFile
    from ..outputs.convert import output_form
    from .progress import Progress

    test = None
    if sprt is not None:
        try:
            test = Sprt.parse(sprt)
        except ValueError as exc:
            _fail(f"--sprt: {exc}")
        if players != 2:
            _fail(f"--sprt: the sequential test is for two players, not --players {players}")
    if output_form(output) != ".jsonl":
        _fail(f"{output}: a match writes its games one record a line: give a .jsonl file")
    target = _target(output, None, None, force)
    assert target is not None
    settings = Match(a, b, games, seed, movetime, memory, logs=str(target), others=(b,) * (players - 2))
    bar = Progress(games, sys.stderr, sys.stderr.isatty() if progress is None else progress)
    tally = Tally()  # the summary, folded as the games come
    try:
        with AtomicFile(target, replace=force) as out, out.open() as handle:
            for game in run_games(settings, jobs, test, dask, _workers(dask, jobs)):
                handle.write(game.line)
                tally.add(game)
                bar.update(1, 1)
    except OSError as exc:
        _fail(f"{target}: cannot write: {exc.strerror or exc}")
    finally:
        bar.close()
    _wrote(target)
    summary = tally.summary(test)
    _out(json_text(summary.to_data()) if format is Format.json else format_summary(summary, test))


@command
def bot(
    policy: Annotated[str, typer.Option("--policy", help="The built-in player to be: greedy, random or lookahead.")]
    = "greedy",
) -> None:
    """Be a bot: answer a referee in the Qwirkle bot protocol on standard input and output.

    The toolkit's players can so play under any referee that speaks QBP
    (docs/bots.md), this one included.

    Example:

        qwirkle match cmd:'qwirkle bot --policy lookahead' greedy --games 10 -o match.jsonl
    """
    from ..bots.qbp import serve
    from ..play.policies import policy as find

    try:
        choose = find(policy)
    except ValueError as exc:
        _fail(f"--policy: {exc}")

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    serve(choose, sys.stdin, say, f"qwirkle-tools {policy}")


@app.callback(invoke_without_command=True)
def _main(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    if version:
        from ..version import __version__

        try:
            _out(f"qwirkle-tools {__version__}")
        except QwirkleError as exc:  # (no command's wrapper here)
            _fail(str(exc))
        raise typer.Exit(0)

