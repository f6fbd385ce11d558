"""The ``standings`` command: a club's table over its recorded games, registered on
:data:`qwirkle_tools.cli.app.app` when this module is imported."""

import enum
from pathlib import Path
from typing import Annotated

import typer

from ..core.safetext import json_text
from ..core.text import count
from .common import EXIT_FINDINGS, EXIT_OK, PATHS_HELP, _emit, _fail, _out, _target, command


class StandingsFormat(str, enum.Enum):
    text = "text"
    json = "json"
    csv = "csv"


@command
def standings(
    paths: Annotated[list[str], typer.Argument(help=PATHS_HELP, show_default=False)],
    since: Annotated[str | None, typer.Option("--since", metavar="YYYY-MM-DD", help=(
        "Only games from this day on, by the record's meta.date, both written YYYY-MM-DD (nothing else: "
        "not 20261129, not a week date like 2026-W48-7; a game without such a date is then left out, and "
        "counted)."), show_default=False)] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Draw the standings chart to a .png or .svg file.",
                                                show_default=False)] = None,
    format: Annotated[StandingsFormat, typer.Option("--format", "-f", help="Output format.")] = StandingsFormat.text,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUTPUT if it exists.")] = False,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=1, max=256, help="Processes to read the records with; the standings are the same.")] = 1,
) -> None:
    """Print a club's standings over its recorded games (JSON, .qgn, score sheets).

    Per player: games, wins (a shared first place counts half), average
    score and margin (own score less the best other), Qwirkles a game and
    points lost a turn where the records tell them (n/a where they do not:
    a score sheet writes no tiles, points lost need the racks), and the
    openskill rating over the games in the order played (by date). A
    player is the name recorded, compared after Unicode NFC and spaces
    ("Ben " is Ben); a game with one player in two seats is listed and not
    counted. Invalid records are left out and listed. The chart draws at
    most the first 80 players. Exit 0 when every record counted (or was a
    game against oneself), 1 when one was left out as invalid, 2 when the
    command could not run (no game, a bad date).

    Example:

        qwirkle standings club/ --since 2026-09-01 -o standings.png
    """
    from ..bots.standings import parse_date
    from ..bots.standings import standings as build

    if output is not None and output.suffix.lower() not in (".png", ".svg"):
        _fail(f"{output}: give a .png or .svg file")  # (before the work)
    target = _target(output, None, None, force)
    try:  # (a bad date or no game is a StandingsError: the command's wrapper says it in one line, exit 2)
        found = build(paths, None if since is None else parse_date(since), jobs)
    except ImportError:
        _fail("standings need openskill: pip install openskill")
    if format is StandingsFormat.json:
        _out(json_text(found.to_data(), indent=2))
    elif format is StandingsFormat.csv:
        _emit(found.csv())
    else:
        _out(found.text())
    if target is not None:
        from ..outputs.standings_chart import standings_figure
        from .study import _save_figure

        title = f"Standings: {count(found.games, 'game')}{found.span()}"
        _save_figure(standings_figure(found.players, title), target, force)
    raise typer.Exit(EXIT_FINDINGS if found.left_out else EXIT_OK)
