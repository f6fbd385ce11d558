"""The commands of bots: ``match`` (two players on paired deals) and
``bot`` (a built-in player speaking the Qwirkle bot protocol)."""

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..core.safetext import json_text
from .common import PLAYER_HELP, Format, _fail, _hopeless, _out, _workers, _write_games, command

RESUME_HELP = ("Continue the run that OUTPUT holds (interrupted, failed or killed): the same deals from the first game "
               "it lacks, with the same players and options (checked); the summary covers every game.")

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
    resume: Annotated[bool, typer.Option("--resume", help=RESUME_HELP)] = False,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress", help="Show a progress bar (default: when stderr is a terminal).",
        show_default=False)] = None,
) -> None:
    """Play a match between two players on paired deals and say who is stronger.

    Games 2k and 2k+1 are dealt alike with the seats swapped. Every game is
    written as a record (with the bots and the pair in its meta); a player
    that answers late, crashes, prints garbage or plays an illegal move loses
    that game by forfeit (the reason is in the record's result) and the match
    goes on. Each game is written as it ends: an interrupted match keeps
    every finished one, and --resume plays the rest. A program's standard
    error goes to OUTPUT.A.log / OUTPUT.B.log. Prints wins, draws, losses and
    forfeits, the score rate with its 95% interval, the mean margin with its
    interval and the pair results. Exit code 2 if a player forfeited every
    game (a program that cannot start, say).

    Example:

        qwirkle match lookahead greedy --games 200 --seed 1 -o match.jsonl
    """
    from ..bots.match import Match, ResumeError, Sprt, Tally, format_summary, resumed, run_games
    from ..formats.fileio import LineFile
    from ..outputs.convert import output_form

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
    if force and resume:
        _fail("give either --force or --resume, not both")
    settings = Match(a, b, games, seed, movetime, memory, logs=str(output), others=(b,) * (players - 2))
    settings.bots()  # a bad spec is told before the output is touched
    tally = Tally()  # the summary, folded as the games come
    with LineFile(output, force, resume) as out:
        try:
            done = resumed(settings, out.lines()) if resume else []
        except ResumeError as exc:
            _fail(f"{output}: {exc}")
        for game in done:
            tally.add(game)
        _write_games(out, run_games(settings, jobs, test, dask, _workers(dask, jobs), done), games, len(done), progress,
                     tally.add, str(output))
    summary = tally.summary(test)
    _out(json_text(summary.to_data()) if format is Format.json else format_summary(summary, test))
    _hopeless(tally.hopeless())


@command
def bot(
    policy: Annotated[str, typer.Option("--policy", help=(
        "The player to be: a built-in one (greedy, random, lookahead, equity, sim) or a Python function, "
        "module:function or path/to/file.py:function (so a referee bounds its time)."))] = "greedy",
) -> None:
    """Be a bot: answer a referee in the Qwirkle bot protocol on standard input and output.

    The toolkit's players can so play under any referee that speaks QBP
    (docs/bots.md), this one included; a Python function played so runs in
    a process of its own, whose time and memory the referee bounds.

    Example:

        qwirkle match cmd:'qwirkle bot --policy lookahead' greedy --games 10 -o match.jsonl
    """
    from ..bots.players import BotError, load
    from ..bots.qbp import serve
    from ..engines.policies import BUILT_IN, TIMED

    if policy.startswith("cmd:"):
        _fail("--policy: a cmd: program speaks the protocol itself: give it to the referee as it is")
    try:
        player = load(policy)
    except BotError as exc:
        _fail(f"--policy: {exc}")

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    if policy in BUILT_IN:
        serve(BUILT_IN[policy], sys.stdin, say, f"qwirkle-tools {policy}", timed=TIMED.get(policy))
    else:
        serve(lambda view, seed: player.choose(view, seed, 0), sys.stdin, say, policy)
