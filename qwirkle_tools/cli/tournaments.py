"""The ``tournament`` and ``ratings`` commands, registered on :data:`qwirkle_tools.cli.app.app`
when this module is imported (the launcher imports it after the app, whose helpers it uses)."""

from pathlib import Path
from typing import Annotated

import typer

from ..core.safetext import json_text
from .common import PATHS_HELP, PLAYER_HELP, Format, _fail, _hopeless, _out, _write_games, command
from .matches import RESUME_HELP


@command
def tournament(
    bots: Annotated[list[str], typer.Argument(metavar="BOT BOT [BOT...]", help=PLAYER_HELP, show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help=(
        "The games to write: a .jsonl file, or a folder (made if need be) that gets games.jsonl and the logs."),
        show_default=False)],
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games a round (each combination of bots).")] = 10,
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=6, help="Players per game.")] = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the deals: every round plays the same deals.")] = 0,
    movetime: Annotated[int, typer.Option("--movetime", min=1, metavar="MS",
                                          help="Milliseconds a program has for a move (plus a 1 s grace).")] = 1_000,
    memory: Annotated[int, typer.Option("--bot-memory", min=64, metavar="MB",
                                        help="Memory limit of a program (cmd:) player, in MiB.")] = 2_048,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=1, max=256, help="Processes to use; the games are the same for any number.")] = 1,
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format of the standings.")] = Format.text,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
    resume: Annotated[bool, typer.Option("--resume", help=RESUME_HELP)] = False,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress", help="Show a progress bar (default: when stderr is a terminal).",
        show_default=False)] = None,
) -> None:
    """Play a round robin between bots and print the standings.

    With --players 2 every pair of bots plays a match on paired deals (the
    seats swapped); with 3 to 6, every combination of that many bots plays
    each deal from every rotation of the seats. Every round plays the same
    deals. The records are a match's (with the round in their meta); a
    program's standard error goes to OUTPUT.rR.A.log, ... Each game is
    written as it ends: an interrupted tournament keeps every finished one,
    and --resume plays the rest. Prints each bot's games, wins, draws,
    losses, forfeits and score rate with its 95% interval. Exit code 2 if a
    bot forfeited every game it played.

    Example:

        qwirkle tournament greedy random lookahead --games 20 -o tournament.jsonl
    """
    from ..bots.match import ResumeError
    from ..bots.tournament import Standings, Tournament, resumed, run
    from ..formats.fileio import LineFile
    from ..outputs.convert import output_form

    if output.suffix.lower() != ".jsonl" and (output.is_dir() or not output.suffix):
        output = _folder(output) / "games.jsonl"  # a folder: the games and the programs' logs in it
    if output_form(output) != ".jsonl":
        _fail(f"{output}: a tournament writes its games one record a line: give a .jsonl file or a folder")
    if force and resume:
        _fail("give either --force or --resume, not both")
    try:
        settings = Tournament(tuple(bots), games, players, seed, movetime, memory, logs=str(output))
    except ValueError as exc:
        _fail(str(exc))
    for match in settings.rounds():  # a bad spec is told before any game is played
        match.bots()
    standings = Standings()
    with LineFile(output, force, resume) as out:
        try:
            done = resumed(settings, out.lines()) if resume else []
        except ResumeError as exc:
            _fail(f"{output}: {exc}")
        for games_of in done:
            for game in games_of:
                standings.add(game)
        _write_games(out, run(settings, jobs, done), settings.total, sum(map(len, done)), progress, standings.add,
                     str(output))
    _out(json_text(standings.to_data()) if format is Format.json else standings.text())
    _hopeless(standings.hopeless())


def _folder(path: Path) -> Path:
    """``path`` as a folder for a tournament's files, made if it is not there (its parent must be)."""
    if path.exists() and not path.is_dir():
        _fail(f"{path}: not a folder")
    try:
        path.mkdir(exist_ok=True)
    except OSError as exc:
        _fail(f"{path}: cannot make the folder: {exc.strerror or exc}")
    return path


@command
def ratings(
    paths: Annotated[list[str], typer.Argument(help=PATHS_HELP, show_default=False)],
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=1, max=256, help="Processes to read the records with; the ratings are the same.")] = 1,
    format: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.text,
) -> None:
    """Rate the players of any recorded games: matches, tournaments, self-play or a club's.

    A seat is known by its bot or policy where the record's meta names one
    (a match's, a tournament's, self-play's), else by the player's name. The
    games, in the order given, update openskill's Plackett-Luce ratings
    (any number of players a game; a forfeit ranks last). Prints each
    player's rating with its 95% interval, games, wins, score and the chance
    that it beats the next one down. Every record must be valid (exit 2 on
    the first that is not; qwirkle validate lists them all).

    Example:

        qwirkle ratings tournament.jsonl match.jsonl
    """
    from ..bots.ratings import rate, recorded
    from ..formats.sources import InputError

    try:
        found = rate(recorded(paths, jobs))
    except ImportError:
        _fail("ratings need openskill: pip install openskill")
    except InputError as exc:
        _fail(str(exc))
    if not found.games:
        _fail("no game to rate: " + ("every game has one player in two seats" if found.skipped else "no records"))
    _out(json_text(found.to_data(), indent=2) if format is Format.json else found.text())
