"""The simulation engine (``sim``) in matches, with the match runner, and its speed.

    python benchmarks/bench_sim.py [--games 200] [--opponent greedy] [--movetime 60000] [--seed 9100000]
                                   [--variant plies=1,candidates=6,endgame=0 ...] [--static score|equity]
                                   [--jobs 2] [-o GAMES.jsonl] [--every 50]
    python benchmarks/bench_sim.py --from MATCH.jsonl [--from ...]

Plays ``--games`` two-player games of ``sim`` (player A) against each
``--opponent`` (repeat the option) with :mod:`qwirkle_tools.bots.match`:
paired deals (each deal played twice, the seats swapped), over ``--jobs``
processes (the games are the same for any number). Each ``--variant``
(``name=value`` pairs of :class:`~qwirkle_tools.engines.simulation.Settings`,
repeat the option; none: the defaults) is one row, played by the static
player ``--static`` (``score``: the engine's, :data:`~qwirkle_tools.engines.simulation.STATIC`;
``equity``: the equity player's ranking and leave values). A row gives sim's
wins, draws and losses, its score rate with the 95 % Wilson interval, the
mean margin with its 95 % interval, the seconds of one core per game (both
players) and the wall seconds per game, sim's mean time per move (all its
moves, then those it simulated, then the endgame moves it handed to the
solver), the positions (turns played out) per second of simulation, and the
iterations per simulated move. ``-o`` writes the games (the match's records).

``--from`` summarises match files written by ``qwirkle match`` (or ``-o``):
the outcome columns only (those files keep no timings).

With the default ``--movetime`` (60,000 ms) the iteration budget decides,
even on a loaded machine (so a row is reproducible: the same seed, the same
games); a smaller one, such as the match runner's 1,000 ms, caps the wall
time per move, and the results may then depend on the machine's speed and
load. Run it under ``nice -n 10`` on a shared machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import IO

from qwirkle_tools.bots.match import Match, Played, Tally, names_of, play_pair
from qwirkle_tools.corpus.pool import ordered_map
from qwirkle_tools.engines import equity, leaves, policies, simulation
from qwirkle_tools.formats.fileio import AtomicFile
from qwirkle_tools.formats.jsontext import parse_json
from qwirkle_tools.formats.record import from_data
from qwirkle_tools.play.game import Move, SeatView

NAME = "sim-bench"


def variant(text: str) -> simulation.Settings:
    """``plies=1,candidates=6,endgame=0`` as settings (the rest the defaults)."""
    fields = {f.name: str(f.type) for f in dataclasses.fields(simulation.Settings)}
    values: dict[str, float | int | bool] = {}
    for pair in filter(None, text.split(",")):
        name, _, value = pair.partition("=")
        if name not in fields:
            raise SystemExit(f"--variant {text!r}: no setting {name!r} (choose from {', '.join(fields)})")
        kind = fields[name]
        values[name] = float(value) if kind == "float" else value not in ("0", "false") if kind == "bool" else int(value)
    return dataclasses.replace(simulation.DEFAULT, **values)  # type: ignore[arg-type]


def static_of(name: str) -> simulation.Static:
    """The static player by name: ``score`` (the engine's own) or ``equity``."""
    return simulation.STATIC if name == "score" else simulation.from_equity(equity.ranked, leaves.default())


class _Work:
    """This process's count of sim's work (a worker's: the deal's, handed back with its games)."""

    tally = simulation.Tally()


def register(settings: simulation.Settings, static: str) -> None:
    """The built-in policy :data:`NAME` in this process: sim with ``settings``, counting its work in ``_Work``."""
    player = static_of(static)

    def timed(view: SeatView, seed: int, movetime_ms: int | None = None) -> Move:
        found = simulation.choose(view, seed, movetime_ms, settings, player, tally=_Work.tally)
        return policies.fallback(view) if found is None else found

    policies.BUILT_IN[NAME] = timed
    policies.TIMED[NAME] = timed


def _deal(match: Match, settings: simulation.Settings, static: str, pair: int
          ) -> tuple[list[Played], simulation.Tally]:
    """Deal ``pair`` of the match, played here, with sim's work on it."""
    register(settings, static)
    _Work.tally = simulation.Tally()
    return play_pair(match, names_of(match), pair), _Work.tally


def merge(into: simulation.Tally, more: simulation.Tally) -> None:
    for f in dataclasses.fields(more):
        setattr(into, f.name, getattr(into, f.name) + getattr(more, f.name))


def row(opponent: str, settings: simulation.Settings, games: int, seed: int, movetime: int, every: int = 0,
        jobs: int = 1, static: str = "score", out: IO[bytes] | None = None) -> str:
    """The row of one match (with ``every``, the row so far printed to standard error every that many games)."""
    register(settings, static)  # (so the match's names can be made here)
    work = simulation.Tally()
    match = Match(NAME, opponent, games, seed, movetime)
    results = Tally()
    started = time.perf_counter()
    n = 0
    for played, tally in ordered_map(partial(_deal, match, settings, static), range(match.deals), jobs, batch=1):
        merge(work, tally)
        for game in played[: games - n]:
            n += 1
            results.add(game)
            if out is not None:
                out.write(game.line)
            if every and n % every == 0 and n < games:
                print(_row(opponent, settings, static, results, work, time.perf_counter() - started, jobs),
                      file=sys.stderr, flush=True)
    return _row(opponent, settings, static, results, work, time.perf_counter() - started, jobs)


def _label(settings: simulation.Settings, static: str) -> str:
    changed = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings)
               if getattr(settings, f.name) != getattr(simulation.DEFAULT, f.name)}
    label = ", ".join(f"{k}={v}" for k, v in changed.items()) or "defaults"
    return label if static == "score" else f"{label}, static={static}"


def _outcome(opponent: str, label: str, results: Tally) -> str:
    s = results.summary()
    a = s.a
    return (f"| {opponent} | {label} | {a.games} | {a.wins}-{a.draws}-{a.losses} | {100 * s.rate:.1f} % | "
            f"{100 * s.rate_low:.1f}-{100 * s.rate_high:.1f} % | {s.margin:+.1f} ({s.margin_low:+.1f} to "
            f"{s.margin_high:+.1f}) |")


def _row(opponent: str, settings: simulation.Settings, static: str, results: Tally, tally: simulation.Tally,
         seconds: float, jobs: int) -> str:
    games = max(1, results.games)
    moves = len(tally.per_move)
    return (_outcome(opponent, _label(settings, static), results)
            + f" {seconds * jobs / games:.2f} s ({seconds / games:.2f} s) | "
            f"{1000 * sum(tally.per_move) / max(1, moves):.0f} ms ({moves}) | "
            f"{1000 * tally.seconds / max(1, tally.simulated):.0f} ms ({tally.simulated}) | "
            f"{1000 * tally.endgame_seconds / max(1, tally.endgames):.0f} ms ({tally.endgames}) | "
            f"{tally.positions / max(1e-9, tally.seconds):.0f} | {tally.iterations / max(1, tally.simulated):.1f} |")


def summarise(path: Path) -> str:
    """The outcome columns of a match file (its opponent: player B's bot; its settings: as the file says)."""
    results = Tally()
    opponent = "?"
    for line in path.read_bytes().splitlines():
        game = Played.of(from_data(parse_json(line), trusted=True), b"")
        results.add(game)
        opponent = str(game.specs[game.seat_of("B")])
    return _outcome(opponent, f"`{path.name}`", results) + " | | | | | |"


HEADER = ("| opponent | settings | games | W-D-L | sim's score rate | 95 % interval | margin (95 %) | "
          "s/game a core (wall) | sim ms/move (moves) | simulated (moves) | endgame (moves) | positions/s | "
          "iterations/move |\n"
          "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--opponent", action="append", help="greedy, lookahead, random, ... (repeat)")
    parser.add_argument("--movetime", type=int, default=60_000, help="ms a move (a cap on sim's wall time)")
    parser.add_argument("--seed", type=int, default=9_100_000)
    parser.add_argument("--variant", action="append", help="settings, as plies=1,candidates=6 (repeat)")
    parser.add_argument("--static", choices=("score", "equity"), default="score", help="the static player")
    parser.add_argument("--jobs", type=int, default=1, help="processes (the games are the same for any number)")
    parser.add_argument("-o", "--output", type=Path, help="write the games here (.jsonl; one match only)")
    parser.add_argument("--from", dest="sources", type=Path, action="append", help="summarise a match file (repeat)")
    parser.add_argument("--every", type=int, default=0, help="print the row so far every N games (standard error)")
    args = parser.parse_args(argv)
    print(HEADER, flush=True)
    if args.sources:
        for path in args.sources:
            print(summarise(path), flush=True)
        return
    rows = [(o, v) for o in args.opponent or ["greedy"] for v in args.variant or [""]]
    if args.output is not None and len(rows) > 1:
        raise SystemExit("-o writes one match: give one opponent and one variant")
    for opponent, text in rows:
        if args.output is None:
            print(row(opponent, variant(text), args.games, args.seed, args.movetime, args.every, args.jobs,
                      args.static), flush=True)
            continue
        with AtomicFile(args.output) as target, target.open() as out:  # (put in place whole, when the match is over)
            line = row(opponent, variant(text), args.games, args.seed, args.movetime, args.every, args.jobs,
                       args.static, out)
        print(line, flush=True)


if __name__ == "__main__":
    main()
