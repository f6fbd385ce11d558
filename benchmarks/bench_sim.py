"""The simulation engine (``sim``) in matches, with the match runner, and its speed.

    python benchmarks/bench_sim.py [--games 200] [--opponent greedy] [--movetime 60000] [--seed 9100000]
                                   [--variant plies=1,candidates=6,iterations=48 ...] [--every 50]

Plays ``--games`` two-player games of ``sim`` (player A) against each
``--opponent`` (repeat the option) with :mod:`qwirkle_tools.bots.match`:
paired deals (each deal played twice, the seats swapped), one process. Each
``--variant`` (``name=value`` pairs of :class:`~qwirkle_tools.play.simulation.Settings`,
repeat the option; none: the defaults) is one row. A row gives sim's wins,
draws and losses, its score rate with the 95 % Wilson interval, the mean
margin with its 95 % interval, the seconds per game (wall time, both players),
sim's mean time per move (all its moves, then those it simulated, then the
endgame moves it handed to the solver), the positions (turns played out) per second
of simulation, and the iterations per simulated move.

With the default ``--movetime`` (60,000 ms) the iteration budget decides,
even on a loaded machine (so a row is reproducible); a smaller one, such as
the match runner's 1,000 ms, caps the wall time per move, and the results
may then depend on the machine's speed and load. Run it under ``nice -n 10``
on a shared machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Sequence

from qwirkle_tools.bots.match import Match, Tally, run_games
from qwirkle_tools.play import policies, simulation
from qwirkle_tools.play.game import Move, SeatView


def variant(text: str) -> simulation.Settings:
    """``plies=1,candidates=6`` as settings (the rest the defaults)."""
    fields = {f.name: f.type for f in dataclasses.fields(simulation.Settings)}
    values: dict[str, float | int] = {}
    for pair in filter(None, text.split(",")):
        name, _, value = pair.partition("=")
        if name not in fields:
            raise SystemExit(f"--variant {text!r}: no setting {name!r} (choose from {', '.join(fields)})")
        values[name] = float(value) if fields[name] in (float, "float") else int(value)
    return dataclasses.replace(simulation.DEFAULT, **values)  # type: ignore[arg-type]


def register(name: str, settings: simulation.Settings, tally: simulation.Tally) -> None:
    """A built-in policy ``name`` for this process: sim with ``settings``, counting its work in ``tally``."""

    def timed(view: SeatView, seed: int, movetime_ms: int | None = None) -> Move:
        found = simulation.choose(view, seed, movetime_ms, settings, tally=tally)
        return policies.fallback(view) if found is None else found

    policies.BUILT_IN[name] = timed
    policies.TIMED[name] = timed


def row(opponent: str, settings: simulation.Settings, games: int, seed: int, movetime: int, every: int = 0) -> str:
    """The row of one match (with ``every``, the row so far printed to standard error every that many games)."""
    tally = simulation.Tally()
    register("sim-bench", settings, tally)
    match = Match("sim-bench", opponent, games, seed, movetime)
    results = Tally()
    started = time.perf_counter()
    for n, game in enumerate(run_games(match, jobs=1), 1):
        results.add(game)
        if every and n % every == 0 and n < games:
            print(_row(opponent, settings, results, tally, time.perf_counter() - started), file=sys.stderr, flush=True)
    return _row(opponent, settings, results, tally, time.perf_counter() - started)


def _row(opponent: str, settings: simulation.Settings, results: Tally, tally: simulation.Tally, seconds: float) -> str:
    s = results.summary()
    a = s.a
    moves = len(tally.per_move)
    changed = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings)
               if getattr(settings, f.name) != getattr(simulation.DEFAULT, f.name)}
    label = ", ".join(f"{k}={v}" for k, v in changed.items()) or "defaults"
    return (f"| {opponent} | {label} | {a.games} | {a.wins}-{a.draws}-{a.losses} | {100 * s.rate:.1f} % | "
            f"{100 * s.rate_low:.1f}-{100 * s.rate_high:.1f} % | {s.margin:+.1f} ({s.margin_low:+.1f} to "
            f"{s.margin_high:+.1f}) | {seconds / max(1, a.games):.2f} s | "
            f"{1000 * sum(tally.per_move) / max(1, moves):.0f} ms ({moves}) | "
            f"{1000 * tally.seconds / max(1, tally.simulated):.0f} ms ({tally.simulated}) | "
            f"{1000 * tally.endgame_seconds / max(1, tally.endgames):.0f} ms ({tally.endgames}) | "
            f"{tally.positions / max(1e-9, tally.seconds):.0f} | {tally.iterations / max(1, tally.simulated):.1f} |")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--opponent", action="append", help="greedy, lookahead, random, ... (repeat)")
    parser.add_argument("--movetime", type=int, default=60_000, help="ms a move (a cap on sim's wall time)")
    parser.add_argument("--seed", type=int, default=9_100_000)
    parser.add_argument("--variant", action="append", help="settings, as plies=1,candidates=6 (repeat)")
    parser.add_argument("--every", type=int, default=0, help="print the row so far every N games (standard error)")
    args = parser.parse_args(argv)
    print("| opponent | settings | games | W-D-L | sim's score rate | 95 % interval | margin (95 %) | s/game | "
          "sim ms/move (moves) | simulated (moves) | endgame (moves) | positions/s | iterations/move |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |", flush=True)
    for opponent in args.opponent or ["greedy"]:
        for text in args.variant or [""]:
            print(row(opponent, variant(text), args.games, args.seed, args.movetime, args.every), flush=True)


if __name__ == "__main__":
    main()
