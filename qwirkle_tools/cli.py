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
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .record import Record
    from .replay import GameState, TurnResult
    from .validate import Report

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


class Policy(str, enum.Enum):
    greedy = "greedy"
    random = "random"


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


def _read_one(path: Path) -> tuple[Record, Report]:
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
    from .record import dumps

    target = _target(output, file, in_place, force)
    record, _ = _read_one(file)
    rows = rs.rescore(record)
    if format is Format.json:
        _out(json.dumps({"players": [p.name for p in record.players],
                         "turns": [r.to_data() for r in rows],
                         "totals": list(rows[-1].totals) if rows else [0] * len(record.players)},
                        ensure_ascii=False, indent=2))
    else:
        _out(rs.table(record, rows))
    if target is not None:
        _write(target, dumps(rs.corrected(record)))
    totals = rows[-1].totals if rows else ()
    claimed = record.result.scores if record.result is not None else None
    wrong = any(r.differs for r in rows) or (claimed is not None and tuple(claimed) != tuple(totals))
    raise typer.Exit(EXIT_FINDINGS if wrong else EXIT_OK)


def _target(output: Path | None, file: Path | None, in_place: bool, force: bool) -> Path | None:
    """Where to write, once it is safe (see :func:`qwirkle_tools.fileio.check_output`)."""
    from .fileio import OutputError, check_output

    if in_place:
        if file is None or (output is not None and output != file):
            _fail("give either --in-place or --output, not both")
        output = file
    if output is None:
        return None
    try:
        return check_output(output, [file] if file is not None else [], force=force, in_place=in_place)
    except OutputError as exc:
        _fail(str(exc))


def _write(target: Path, text: str) -> None:
    from .fileio import write_atomic

    try:
        write_atomic(target, text)
    except (OSError, RecursionError, ValueError) as exc:
        _fail(f"{target}: cannot write: {getattr(exc, 'strerror', None) or exc}")
    typer.echo(f"wrote {target}", err=True)


@app.command()
def moves(
    file: Annotated[Path, typer.Argument(help="A record file (.json).", show_default=False)],
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
    import json

    from .analysis import known_rack
    from .movegen import generate
    from .replay import initial_state, replay
    from .tiles import TILES, TileError, parse_tiles

    record, _ = _read_one(file)
    if not 1 <= turn <= len(record.turns) + 1:
        _fail(f"--turn must be 1 to {len(record.turns) + 1}, not {turn}")
    state = initial_state(record)
    for result in replay(record):
        if result.index + 1 >= turn:
            break
        state = result.state
    if not state.board_known:
        _fail(f"the board before turn {turn} is not known (an earlier turn's tiles are not recorded)")
    if rack is not None:
        try:
            tiles = [int(t) for t in parse_tiles(rack)]
        except TileError as exc:
            _fail(f"--rack: {exc}")
    elif turn <= len(record.turns):
        found, _source = known_rack(record, state, turn - 1)
        if found is None:
            _fail(f"the rack at turn {turn} is not known; give it with --rack")
        tiles = found
    else:
        _fail("after the last turn, give the rack with --rack")
    found_moves = generate(state.board, tiles, record.rules, largest_first=not state.board)
    shown = found_moves[:limit] if limit else found_moves
    if format is Format.json:
        _out(json.dumps({"turn": turn, "rack": [str(TILES[t]) for t in tiles],
                         "moves": [{"tiles": [{"tile": str(p.tile), "x": p.x, "y": p.y} for p in m.tiles],
                                    "score": m.score, "qwirkles": m.qwirkles} for m in shown]}))
        return
    _out(f"turn {turn}: rack {' '.join(TILES[t].short for t in tiles)}: {len(found_moves)} legal moves")
    for m in shown:
        q = f"  {m.qwirkles} Qwirkle{'s' if m.qwirkles > 1 else ''}" if m.qwirkles else ""
        _out(f"{m.score:>4}  {' '.join(f'{p.tile.short}@{p.x},{p.y}' for p in m.tiles)}{q}")


class TableFormat(str, enum.Enum):
    csv = "csv"
    parquet = "parquet"


@app.command()
def stats(
    paths: Annotated[list[Path], typer.Argument(help="Record files, folders, or .jsonl corpora.", show_default=False)],
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
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress", help="Show a progress bar (default: when stderr is a terminal).",
        show_default=False)] = None,
) -> None:
    """Summarise a corpus: wins by position, scores, Qwirkles, findings, and
    with --analyse missed Qwirkles and points lost per player.

    Unreadable and invalid records are listed (FILE[:LINE]: CODE: MESSAGE,
    the first error of each) and counted; the rest are still summarised.
    Records are streamed, so memory stays flat on any corpus. Exit 0 when
    every record is valid, 1 when any is invalid or unreadable, 2 when the
    command could not run.

    Example:

        qwirkle stats corpus.jsonl --analyse --jobs 2 --csv tables/
    """
    import json

    from .corpus import Stats, run, total_bytes
    from .fileio import OutputError
    from .progress import Progress
    from .tables import TableWriter
    from .validate import InputError

    if csv is not None and parquet is not None:
        _fail("give either --csv or --parquet, not both")
    try:
        size = total_bytes(paths)
        writer = None
        if csv is not None or parquet is not None:
            folder = csv if csv is not None else parquet
            assert folder is not None
            writer = TableWriter(folder, "csv" if csv is not None else "parquet", force)
    except (InputError, OutputError) as exc:
        _fail(str(exc))
    except ImportError:
        _fail("--parquet needs pyarrow: pip install pyarrow (or --csv)")
    except OSError as exc:
        _fail(f"cannot write the tables: {exc.strerror or exc}")
    summary = Stats()
    bar = Progress(size, sys.stderr, sys.stderr.isatty() if progress is None else progress)
    try:
        for result in run(paths, analyse, jobs):
            summary.add(result)
            if writer is not None:
                writer.add(result)
            bar.update(1, result.size)
            if result.game is None or not result.game["valid"]:
                if format is Format.text:
                    bar.close()
                    _out(f"{result.where}: {result.problem}")
        bar.close()
        if writer is not None:
            writer.close()
            for path in writer.paths:
                typer.echo(f"wrote {path}", err=True)
    except BaseException as exc:
        bar.close()
        if writer is not None:
            writer.discard()
        if isinstance(exc, InputError):
            _fail(str(exc))
        if isinstance(exc, OSError):
            _fail(f"cannot write the tables: {exc.strerror or exc}")
        raise
    if format is Format.json:
        _out(json.dumps(summary.to_data(), ensure_ascii=False, indent=2))
    else:
        if summary.unreadable or summary.invalid:
            _out("")  # after the list of broken records
        _out(summary.text())
    raise typer.Exit(EXIT_FINDINGS if summary.unreadable or summary.invalid else EXIT_OK)


@app.command()
def simulate(
    output: Annotated[Path, typer.Option("--output", "-o", help="The corpus to write (.jsonl).", show_default=False)],
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="How many games.")] = 10,
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=6, help="Players per game.")] = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed: the same seed gives the same games.")] = 0,
    policy: Annotated[Policy, typer.Option("--policy", help="greedy: the best score; random: any legal move.")] = Policy.greedy,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=1, max=256, help="Processes to use; the games are the same for any number.")] = 1,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress", help="Show a progress bar (default: when stderr is a terminal).",
        show_default=False)] = None,
) -> None:
    """Play complete legal games by self-play and write them as a .jsonl corpus.

    Every rack, draw and exchange is recorded; every game validates with no
    findings. Game i of seed S is the same whatever --games and --jobs say.
    The corpus is written as it is played (under a temporary name, renamed
    at the end), so memory stays flat for any number of games.

    Example:

        qwirkle simulate --games 100 --players 2 --seed 7 --policy greedy -o corpus.jsonl
    """
    from functools import partial

    from .corpus import ordered_map
    from .fileio import AtomicFile
    from .progress import Progress
    from .simulate import simulate_line

    target = _target(output, None, False, force)
    assert target is not None
    bar = Progress(games, sys.stderr, sys.stderr.isatty() if progress is None else progress)
    play = partial(simulate_line, players=players, seed=seed, policy="greedy" if policy is Policy.greedy else "random")
    try:
        with AtomicFile(target) as out, out.open() as handle:
            for line in ordered_map(play, range(games), jobs):
                handle.write(line)
                bar.update(1, 1)
    except OSError as exc:
        bar.close()
        _fail(f"{target}: cannot write: {exc.strerror or exc}")
    bar.close()
    typer.echo(f"wrote {target}", err=True)


@app.command()
def annotate(
    file: Annotated[Path, typer.Argument(help="A record file (.json).", show_default=False)],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the annotated record here.")] = None,
    in_place: Annotated[bool, typer.Option("--in-place", help="Annotate FILE itself (written atomically).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
) -> None:
    """Analyse a game: best moves, points lost, missed Qwirkles, Qwirkle gifts.

    Prints a summary per player and the flagged turns; with -o, writes the
    record with the analysis in each turn's "analysis" field and a summary in
    the record's. Human comments are never touched; annotating twice gives
    the same file.

    Example:

        qwirkle annotate sample_games/complete-2p.json -o annotated.json
    """
    import json

    from .analysis import analyse, annotated, summary_text
    from .record import dumps

    target = _target(output, file, in_place, force)
    record, _ = _read_one(file)
    analysis = analyse(record)
    data = annotated(record, analysis)
    if format is Format.json:
        summary = data["analysis"]
        assert isinstance(summary, dict)
        turns = [{"turn": t.turn, "player": t.player, **t.to_data()} for t in analysis.turns]
        _out(json.dumps({**summary, "turns": turns}, ensure_ascii=False, indent=2))
    else:
        _out(summary_text(analysis))
    if target is not None:
        _write(target, dumps(data))


def _state_at(record: Record, turn: int | None) -> tuple[GameState, TurnResult | None]:
    """The board after turn ``turn`` (default: the end) and that turn's result."""
    from .replay import initial_state, replay

    last = len(record.turns) if turn is None else turn
    if not 0 <= last <= len(record.turns):
        _fail(f"--turn must be 0 to {len(record.turns)}, not {last}")
    state: GameState = initial_state(record)
    result: TurnResult | None = None
    for r in replay(record):
        if r.index + 1 > last:
            break
        state, result = r.state, r
    return state, result


def _save_figure(fig: Figure, target: Path) -> None:
    from .charts import save

    if target.suffix.lower() not in (".png", ".svg"):
        _fail(f"{target}: give a .png or .svg file")
    try:
        save(fig, target)
    except OSError as exc:
        _fail(f"{target}: cannot write: {exc.strerror or exc}")
    typer.echo(f"wrote {target}", err=True)


@app.command()
def board(
    file: Annotated[Path, typer.Argument(help="A record file (.json).", show_default=False)],
    turn: Annotated[int | None, typer.Option("--turn", "-t", help="The board after this turn (default: the end).")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Draw to a .png or .svg file.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
    colour: Annotated[bool, typer.Option("--colour/--no-colour", help="Colour the text diagram.")] = True,
) -> None:
    """Show the board after a turn: a picture with -o, else a text diagram.

    The last move is outlined; where the record is annotated, a missed
    Qwirkle on that turn is drawn as faint ghost tiles. The text diagram is
    coloured on a terminal (not when piped, or with NO_COLOR set).

    Example:

        qwirkle board sample_games/complete-2p.json --turn 20 -o board.png
    """
    import os

    from .board import Placement
    from .pictures import board_figure, board_text
    from .tiles import Tile

    target = _target(output, file, False, force)
    record, _ = _read_one(file)
    state, result = _state_at(record, turn)
    if not state.board_known:
        _fail(f"{file}: the board after turn {state.turns_played} is not known (an earlier turn's tiles are not recorded)")
    last = tuple(result.turn.tiles or ()) if result is not None and result.turn is not None else ()
    ghosts: list[Placement] = []
    if result is not None and result.turn is not None:
        analysis = result.turn.extra.get("analysis")
        missed = analysis.get("missed_qwirkle") if isinstance(analysis, dict) else None
        if isinstance(missed, dict):
            try:
                ghosts = [Placement(Tile.parse(t["tile"]), int(t["x"]), int(t["y"])) for t in missed["tiles"]]
            except (KeyError, TypeError, ValueError):
                ghosts = []
    n = state.turns_played
    if target is None:
        use_colour = colour and sys.stdout.isatty() and "NO_COLOR" not in os.environ
        _out(board_text(state.board, last, colour=use_colour))
        return
    title = f"{file.name}: board after turn {n}" + (" (ghosts: a missed Qwirkle)" if ghosts else "")
    _save_figure(board_figure(state.board, last, ghosts, title=title), target)


class Kind(str, enum.Enum):
    progression = "progression"
    lead = "lead"
    turns = "turns"


@app.command()
def chart(
    file: Annotated[Path, typer.Argument(help="A record file (.json).", show_default=False)],
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
    from . import charts

    target = _target(output, file, False, force)
    assert target is not None
    record, _ = _read_one(file)
    draw = {Kind.progression: charts.progression, Kind.lead: charts.lead, Kind.turns: charts.turns}[kind]
    _save_figure(draw(record), target)


@app.command()
def report(
    file: Annotated[Path, typer.Argument(help="A record file (.json).", show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="The folder to write into.", show_default=False)],
    force: Annotated[bool, typer.Option("--force", help="Overwrite the report files if they exist.")] = False,
) -> None:
    """Validate, re-score and analyse a game, and write a report folder.

    Writes the annotated record, the progression, lead and turns charts, the
    final board, a per-turn table (CSV) and a summary, which it also prints.
    Exit 0 when the record is valid, 1 when it has errors (the report is
    still written).

    Example:

        qwirkle report sample_games/296-295.json -o report/
    """
    from . import charts
    from .analysis import analyse, annotated
    from .fileio import OutputError, check_output
    from .pictures import board_figure
    from .record import dumps
    from .reporting import summary, turn_table_csv

    names = ["annotated.json", "summary.txt", "turns.csv", "progression.png", "lead.png", "turns.png", "board.png"]
    if output.exists() and not output.is_dir():
        _fail(f"{output}: not a folder")
    try:
        targets = {n: check_output(output / n, [file], force=force) for n in names}
    except OutputError as exc:
        _fail(str(exc))
    record, report_ = _read_one(file)  # before making the folder: a bad input leaves nothing behind
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _fail(f"{output}: cannot create: {exc.strerror or exc}")
    analysis = analyse(record)
    data = annotated(record, analysis)
    state, result = _state_at(record, None)
    _write(targets["annotated.json"], dumps(data))
    _write(targets["turns.csv"], turn_table_csv(record, analysis))
    _save_figure(charts.progression(record), targets["progression.png"])
    _save_figure(charts.lead(record), targets["lead.png"])
    _save_figure(charts.turns(from_annotated(data)), targets["turns.png"])
    last = tuple(result.turn.tiles or ()) if result is not None and result.turn is not None else ()
    if state.board_known:
        _save_figure(board_figure(state.board, last, title=f"{file.name}: the final board"), targets["board.png"])
    text = summary(file.name, record, report_.findings, analysis)
    _write(targets["summary.txt"], text + "\n")
    _out(text)
    raise typer.Exit(EXIT_OK if report_.valid else EXIT_FINDINGS)


def from_annotated(data: dict[str, object]) -> Record:
    from .record import from_data

    return from_data(data, trusted=True)


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
    except Exception as exc:  # a bug in the toolkit: say so in one line, never a traceback
        if os.environ.get("QWIRKLE_DEBUG"):
            raise
        sys.stderr.write(f"qwirkle: internal error: {type(exc).__name__}: {str(exc)[:300]}\n"
                         "qwirkle: this is a bug; please report it (QWIRKLE_DEBUG=1 shows the traceback)\n")
        sys.exit(EXIT_BUG)
