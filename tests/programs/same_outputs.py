"""What the compiled and the pure build must give byte for byte (``tests/test_build.py``).

Prints, for one corpus of games, every output the hot modules make: self-play
records (greedy and random), the validator's findings on them and on the samples
(hand-written slips too), the re-scored breakdowns, the greedy analysis, a game of
``sim`` against greedy (iterations, not time: the same on any machine) and an
exact endgame. Run as ``python same_outputs.py SAMPLES_FOLDER``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import orjson

from qwirkle_tools.analysis.analyse import analyse
from qwirkle_tools.analysis.rescore import rescore
from qwirkle_tools.analysis.validate import check_source
from qwirkle_tools.engines import simulation
from qwirkle_tools.engines.endgame import solve
from qwirkle_tools.engines.policies import greedy
from qwirkle_tools.engines.selfplay import simulate
from qwirkle_tools.formats.record import from_data
from qwirkle_tools.formats.sources import Source
from qwirkle_tools.play.game import Game


def show(*parts: object) -> None:
    print(*parts, flush=True)


def main(samples: Path) -> None:
    games = [simulate(2 + seed % 3, seed, "greedy" if seed % 4 else "random") for seed in range(12)]
    for data in games:
        show("game", orjson.dumps(data).decode())
    sources = [Source(f"game-{i}.json", 0, orjson.dumps(d)) for i, d in enumerate(games)]
    sources += [Source(path.name, 0, path.read_bytes()) for path in sorted(samples.iterdir())
                if path.suffix in (".json", ".qgn")]
    for source in sources:
        report = check_source(source)
        show("valid", source.path, report.valid, [str(f) for f in report.findings])
    for data in games[:4]:
        record = from_data(data)
        show("rescore", repr(rescore(record)))
        show("analyse", repr(analyse(record)))
    game = Game.deal(2, seed=5)
    while not game.is_over():
        view = game.view(game.to_move)
        move = simulation.choose(view, seed=len(game)) if game.to_move == 0 else greedy(view)
        show("sim game", str(move), game.scores)
        game.push(move)
        if game.bag_size == 0 and sum(len(r) for r in game.racks) <= 8 and not game.is_over():
            solution = solve(game, seconds=None)
            show("endgame", solution.value, [str(m) for m in solution.line], solution.proven, solution.nodes)
            break
    show("end", game.scores)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
