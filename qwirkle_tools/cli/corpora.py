"""The commands on corpora: ``stats`` (a summary and tables of any number
of records) and ``simulate`` (a corpus of self-play), each one call of
:mod:`qwirkle_tools.corpus.runner`, here, over processes or on a Dask cluster."""

import enum
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..core.errors import QwirkleError
from ..core.safetext import json_text
from .common import (
    DASK_HELP,
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    PATHS_HELP,
    Format,
    _bar,
    _fail,
    _out,
    _target,
    _wrote,
    command,
)

if TYPE_CHECKING:
    from ..corpus.runner import Played, Run, Summarised
    from ..corpus.stats import Stats
    from ..corpus.tables import TableWriter
    from ..engines.policies import PolicyName as Policy
    from .progress import Progress


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
    from ..corpus.runner import summarise

    if csv is not None and parquet is not None:
        _fail("give either --csv or --parquet, not both")
    run = summarise(paths, analyse, rows=csv is not None or parquet is not None, jobs=jobs, dask=dask)
    summary = _show_stats(run, _tables(csv, parquet, force, run.files), format, _bar(run.size, progress))
    if format is Format.json:
        _out(json_text(summary.to_data(), indent=2))
    else:
        if summary.unreadable or summary.invalid:
            _out("")  # after the list of broken records
        _out(summary.text())
    raise typer.Exit(EXIT_FINDINGS if summary.unreadable or summary.invalid else EXIT_OK)


def _tables(csv: Path | None, parquet: Path | None, force: bool, inputs: Sequence[Path]) -> "TableWriter | None":
    """The writer of the tables the options ask for (checked now, before any work), if any."""
    folder = csv if csv is not None else parquet
    if folder is None:
        return None
    from ..corpus.tables import TableWriter

    try:
        return TableWriter(folder, "csv" if csv is not None else "parquet", force, inputs=inputs)
    except ImportError:
        _fail("--parquet needs pyarrow: pip install pyarrow (or --csv)")
    except OSError as exc:
        _fail(f"cannot write the tables: {exc.strerror or exc}")


def _show_stats(run: "Run[Summarised, Stats]", writer: "TableWriter | None", format: Format, bar: "Progress") -> "Stats":
    """Read the run: its rows into the tables, its broken records listed as
    they come (in text); the summary, once the tables are in place."""
    try:
        for part in run:
            if writer is not None:
                for result in part.rows:
                    writer.add(result)
            bar.update(part.records, part.size)
            if format is Format.text and part.broken:
                bar.close()
                for line in part.broken:
                    _out(line)
        bar.close()
        if writer is not None:
            writer.close()
            for path in writer.paths:
                _wrote(path)
    except BaseException as exc:
        bar.close()
        run.close()  # the work under way is stopped: the processes, the cluster's blocks (a local cluster closed)
        if writer is not None:
            writer.discard()
        if isinstance(exc, QwirkleError) and exc.exit_code == EXIT_USAGE:  # an input, the cluster
            _fail(str(exc))
        if isinstance(exc, OSError):
            _fail(f"cannot write the tables: {exc.strerror or exc}")
        raise
    return run.summary


@command
def simulate(
    output: Annotated[Path, typer.Option("--output", "-o", help="The corpus to write (.jsonl).", show_default=False)],
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="How many games.")] = 10,
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=6, help="Players per game.")] = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed: the same seed gives the same games.")] = 0,
    policy: Annotated[str, typer.Option("--policy", help=(
        "greedy: the best score; random: any legal move; lookahead: the best score less the next player's "
        "expected reply; equity: the best score plus the value of the tiles kept. One for every seat, or one per "
        "seat, comma-separated: lookahead,greedy."))] = "greedy",
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
    from ..corpus.runner import play
    from ..outputs.convert import output_form

    per_seat = _policies(policy, players)
    target = _target(output, None, None, force)
    assert target is not None
    if output_form(output) != ".jsonl":
        _fail(f"{output}: simulate writes a corpus, one record a line: give a .jsonl file")
    bar = _bar(games, progress)
    _write_games(play(games, players, seed, per_seat, jobs=jobs, dask=dask), target, force, bar)


def _policies(policy: str, players: int) -> "Policy | tuple[Policy, ...]":
    """``--policy``: one for every seat, or one per seat (comma-separated)."""
    from ..engines.selfplay import seat_policies

    try:
        policies = seat_policies(policy.split(",") if "," in policy else policy, players)  # type: ignore[arg-type]
    except ValueError as exc:
        _fail(f"--policy: {exc}")
    return policies[0] if "," not in policy else policies


def _write_games(run: "Run[Played, int]", target: Path, replace: bool, bar: "Progress") -> None:
    """Write the games as they are played (under a temporary name, renamed at the end)."""
    from ..formats.fileio import AtomicFile

    try:
        with AtomicFile(target, replace=replace) as out, out.open() as handle:
            for part in run:
                handle.write(part.lines)
                bar.update(part.games, part.games)
    except BaseException as exc:
        bar.close()
        run.close()
        if not isinstance(exc, OSError):
            raise
        _fail(f"{target}: cannot write: {exc.strerror or exc}")
    bar.close()
    _wrote(target)
