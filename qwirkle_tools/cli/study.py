"""The commands that study one game: ``annotate`` (best moves and points
lost), ``board`` and ``chart`` (pictures), ``view`` (a page to step
through), ``report`` (all of them in a folder) and ``endgame`` (the exact
best play once the bag is empty)."""

import enum
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..core.safetext import json_text
from .common import (
    EXIT_FINDINGS,
    EXIT_OK,
    Engine,
    Format,
    _fail,
    _history,
    _out,
    _read,
    _record_target,
    _record_text,
    _target,
    _turns_bar,
    _warn,
    _write,
    _wrote,
    command,
)
from .picking import GameOption, game_history, read_game

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..play.engine import History


MOVETIME_DEFAULT = 2_000
"""The engine's time a turn (qwirkle_tools.analysis.verdicts.MOVETIME_MS: a test holds them equal; imported
here, every command's start would be slower)."""
MOVETIME_HELP = ("The engine's time for one turn, in milliseconds (lookahead, sim). On a real game's turns the "
                 "engine's own budget ends first, so the analysis is the same on any machine; the engine's time for "
                 "a whole record is at most 60 s (docs/analysis.md).")
ENGINE_HELP = ("greedy: judge by this turn's score (fast); lookahead: also by score less the next player's expected "
               "best reply; sim: also by simulation, the endgame solved exactly where it can be (slowest; see docs/analysis.md).")
VIEW_ENGINE_HELP = ENGINE_HELP + " Default: the engine FILE was annotated with, else greedy."


def _engine(chosen: Engine | None, history: "History") -> str:
    """The engine asked for, else the one the record was annotated with (else greedy)."""
    from ..analysis.recorded import recorded_engine

    return chosen.value if chosen is not None else recorded_engine(history.record)


@command
def annotate(
    file: Annotated[Path, typer.Argument(help="A record file (.json, .qgn, or a .csv score sheet).", show_default=False)],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the annotated record here.")] = None,
    in_place: Annotated[bool, typer.Option("--in-place", help="Annotate FILE itself (written atomically).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
    engine: Annotated[Engine, typer.Option("--engine", "-e", help=ENGINE_HELP)] = Engine.greedy,
    movetime: Annotated[int, typer.Option("--movetime", min=1, max=600_000, metavar="MS", help=MOVETIME_HELP)]
    = MOVETIME_DEFAULT,
) -> None:
    """Analyse a game: best moves, points lost, missed Qwirkles, open fives, Qwirkle gifts.

    Prints a summary per player and the flagged turns; with -o, writes the
    record with the analysis in each turn's "analysis" field and a summary in
    the record's. Human comments are never touched; annotating twice gives
    the same file.

    Example:

        qwirkle annotate sample_games/complete-2p.json --engine lookahead -o annotated.json
    """
    from ..analysis.analyse import analyse
    from ..analysis.annotation import analysis_data, annotated, summary_text

    where = _record_target(output, file, in_place, force, analysis=True)  # (never a .qgn: before the work)
    history = _history(file)
    with _turns_bar(len(history.turns), engine.value) as progress:
        analysis = analyse(history, engine.value, movetime_ms=movetime, progress=progress)
    text = None if where is None else _record_text(annotated(history, analysis), where)
    if format is Format.json:
        _out(json_text(analysis_data(analysis), indent=2))
    else:
        _out(summary_text(analysis))
    if where is not None and text is not None:
        _write(where.path, text, force or in_place)


def _save_figure(fig: "Figure", target: Path, replace: bool) -> None:
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
    turn: Annotated[int | None, typer.Option("--turn", "-t", help=(
        "The position turn N is played in: the board before it, as in moves and endgame (1-based; "
        "default: the end, after the last turn)."))] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Draw to a .png or .svg file.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
    colour: Annotated[bool, typer.Option("--colour/--no-colour", help="Colour the text diagram.")] = True,
    game: GameOption = None,
) -> None:
    """Show the board a turn is played in: a picture with -o, else a text diagram.

    --turn N is the position turn N is played in (the board before it; the
    board after turn N is --turn N+1). The move before it is outlined, and
    the cells where a line of five that move left open would become a
    Qwirkle are ringed in red; where the record is annotated, a Qwirkle
    turn N missed is drawn as faint ghost tiles. The text diagram is
    coloured on a terminal (not when piped, or with NO_COLOR set): in 24-bit
    colour where COLORTERM says the terminal has it, else in 256 colours.

    Example:

        qwirkle board sample_games/complete-2p.json --turn 20 -o board.png
    """
    from ..outputs.pictures import board_figure, board_text, game_title, position_view

    target = _target(output, file, None, force)
    history = game_history(file, game)
    view = position_view(history, turn)
    if target is None:
        use_colour = colour and sys.stdout.isatty() and "NO_COLOR" not in os.environ
        truecolour = os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit")  # else the nearest of 256 colours
        _out(board_text(view.board, view.last, colour=use_colour, truecolour=truecolour))
        return
    where = "the final board" if turn is None or turn > len(history.turns) else f"before turn {turn}"
    title = f"{game_title(history.record.names)}: {where}" + (" (ghosts: a missed Qwirkle)" if view.ghosts else "")
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
    points lost beside them where the record is annotated. A claimed total
    the turns do not add up to (a score sheet's row and column named) and a
    slip read past in hand-written text are told as warnings; the chart is
    still drawn, and they do not change the exit code.

    Example:

        qwirkle chart sample_games/complete-2p.json --kind progression -o progression.png
    """
    from ..formats.sources import load_record
    from ..outputs import charts
    from ..play.engine import replay

    target = _target(output, file, None, force)
    assert target is not None
    loaded = load_record(file)
    history = replay(loaded.record, positions=False)  # (the charts need no state a turn)
    draw = {Kind.progression: charts.progression, Kind.lead: charts.lead, Kind.turns: charts.turns}[kind]
    _save_figure(draw(history), target, force)
    _warn(str(file), loaded.told(history.findings))


@command
def view(
    file: Annotated[Path, typer.Argument(help="A record file (.json, .qgn, or a .csv score sheet).", show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="The page to write (.html).", show_default=False)],
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
    engine: Annotated[Engine | None, typer.Option("--engine", "-e", help=VIEW_ENGINE_HELP, show_default=False)] = None,
    movetime: Annotated[int, typer.Option("--movetime", min=1, max=600_000, metavar="MS", help=MOVETIME_HELP)]
    = MOVETIME_DEFAULT,
    game: GameOption = None,
) -> None:
    """Write the game as one HTML page to step through in a browser.

    The page is one self-contained file (it loads nothing, from the network
    or from disk): the board after each turn with the move played and the
    best move (the engine's, --engine), the top candidates, the move list with
    the findings and the engine's verdicts, the score chart and the points
    (or value) lost per turn, the players, a tile tracker and a legend. Step
    with the arrow keys, Home/End, the slider, the move list, the chart or a
    swipe; B shows or hides the best move; the address keeps the turn (#turn=N).
    Warnings are told as for chart. --game N takes the N-th game of a .jsonl
    file (a match's output).

    Example:

        qwirkle view sample_games/296-295.json -o game.html
        qwirkle view sample_games/corpus-10.jsonl --game 3 -o game3.html
    """
    from ..analysis.analyse import analyse
    from ..formats.sources import load_game
    from ..outputs.viewer import page
    from ..play.engine import replay

    target = _target(output, file, None, force)
    assert target is not None
    if target.suffix.lower() not in (".html", ".htm"):
        _fail(f"{target}: give an .html file")
    loaded = load_game(file, game)
    history = replay(loaded.record)
    chosen = _engine(engine, history)
    with _turns_bar(len(history.turns), chosen) as progress:
        analysis = analyse(history, chosen, movetime_ms=movetime, reuse=True, progress=progress)  # type: ignore[arg-type]
    title = file.name if game is None else f"{file.name}, game {game}"
    _write(target, page(history, analysis, title=title, reading=loaded), force)
    _warn(str(file), loaded.told(history.findings))


@command
def report(
    file: Annotated[Path, typer.Argument(help="A record file (.json, .qgn, or a .csv score sheet).", show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="The folder to write into.", show_default=False)],
    force: Annotated[bool, typer.Option("--force", help="Overwrite the report files if they exist.")] = False,
    engine: Annotated[Engine | None, typer.Option("--engine", "-e", help=VIEW_ENGINE_HELP, show_default=False)] = None,
    movetime: Annotated[int, typer.Option("--movetime", min=1, max=600_000, metavar="MS", help=MOVETIME_HELP)]
    = MOVETIME_DEFAULT,
) -> None:
    """Validate, re-score and analyse a game, and write a report folder.

    Writes the annotated record, the progression, lead and turns charts, the
    final board, a per-turn table (CSV), the game as a page to step through
    in a browser (game.html) and a summary, which it also prints; with an
    engine (--engine lookahead), its verdicts in each of them.
    Exit 0 when the record is valid, 1 when it has errors (the report is
    still written).

    Example:

        qwirkle report sample_games/296-295.json -o report/
    """
    from ..analysis.recorded import recorded_engine
    from ..formats.fileio import check_folder, write_folder
    from ..outputs.reporting import FILES, build

    check_folder(output, FILES, force)  # before any work; checked again as the folder goes in place
    loaded = _read(file)
    record = loaded.record
    chosen = engine.value if engine is not None else recorded_engine(record)
    with _turns_bar(len(record.turns), chosen) as progress:
        done = build(record, file.name, chosen, loaded, movetime, progress=progress)
    folder = write_folder(output, done.files, force, FILES)
    for name in done.files:
        _wrote(folder / name)
    _out(done.summary)
    raise typer.Exit(EXIT_OK if done.valid else EXIT_FINDINGS)


def _finite(value: float) -> float:
    """A number of seconds that is a number (a range lets ``nan`` through: it compares false)."""
    if not math.isfinite(value):  # (-inf is below the range's minimum)
        raise typer.BadParameter(f"{value} is not a number of seconds")
    return value


@command
def endgame(
    file: Annotated[Path, typer.Argument(help="A record file (.json or .qgn) that tells the racks.", show_default=False)],
    turn: Annotated[int | None, typer.Option("--turn", "-t", help=(
        "The position turn N is played in (the board before it, as in board and moves; 1-based; default: the first "
        "turn with the bag empty)."))] = None,
    seconds: Annotated[float, typer.Option("--seconds", min=0.01, callback=_finite, help="Time for the search.")] = 5.0,
    candidates: Annotated[int, typer.Option("--candidates", "-n", min=0, help="Other moves to value.")] = 5,
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
    game: GameOption = None,
) -> None:
    """Solve a two-player endgame: the best play once the bag is empty.

    Prints the value of the position for the player to move (the spread of
    the points still to come with best play on both sides), the best line to
    the end, the candidates with what each loses against perfect play, and
    what the record's own move lost. Proven when the search reaches the end
    of every line in time; otherwise it says the depth it reached (greedy
    play below it). A claimed score that differs from the computed one is
    told as a warning: the board decides, and the computed score counts.

    Example:

        qwirkle endgame sample_games/296-295.json --turn 61
    """
    from ..engines.endgame import solve
    from ..engines.endgame_position import start
    from ..engines.solution import format_solution, solution_data

    loaded = read_game(file, game)
    found = start(loaded.record, turn)
    playing, played = found.game, found.played
    _warn(str(file), loaded.with_warnings(found.set_aside)[len(loaded.warnings):])  # (the reading's own were told)
    solution = solve(playing, seconds=seconds, candidates=candidates, include=[played] if played is not None else ())
    if format is Format.json:
        data = solution_data(solution, playing)
        data["turn"] = len(playing.turns) + 1
        data["played"] = None if played is None else {"move": str(played), "loss": solution.loss(played)}
        _out(json_text(data))
    else:
        _out(format_solution(solution, playing, played, first_turn=len(playing.turns) + 1))
