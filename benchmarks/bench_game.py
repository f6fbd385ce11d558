"""The playable game's speed: a push-and-pop pair, legal moves, a whole game.

    python benchmarks/bench_game.py [--games 40] [--repeat 5]

Over ``--games`` greedy games (seeds 0, 1, ...), at every position on the way
it times, on one core by CPU time (what one core does, even on a shared
machine), the best of ``--repeat`` rounds of:

* ``push+pop``: one push of each legal placement and the pop that takes it
  back (what a search does at every node), in microseconds per pair;
* ``legal_moves``: the whole list at one position, in microseconds;
* ``game``: a whole greedy game with ``legal_moves()[0]``, in games per second.

Paste the table into ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import time

from qwirkle_tools.play.game import Game


def push_pop(games: int) -> tuple[float, int]:
    """CPU seconds for every push-and-pop pair at every position of the games, and how many pairs."""
    pairs = 0
    spent = 0.0
    for seed in range(games):
        game = Game.deal(2, seed=seed)
        while not game.is_over():
            moves = game.legal_moves()
            placements = [m for m in moves if m.action == "place"]
            push, pop = game.push, game.pop
            start = time.process_time()
            for move in placements:
                push(move)
                pop()
            spent += time.process_time() - start
            pairs += len(placements)
            push(moves[0])
    return spent, pairs


def legal_moves(games: int) -> tuple[float, int]:
    spent = 0.0
    calls = 0
    for seed in range(games):
        game = Game.deal(2, seed=seed)
        while not game.is_over():
            start = time.process_time()
            moves = game.legal_moves()
            spent += time.process_time() - start
            calls += 1
            game.push(moves[0])
    return spent, calls


def whole_games(games: int) -> float:
    start = time.process_time()
    for seed in range(games):
        game = Game.deal(2, seed=seed)
        while not game.is_over():
            game.push(game.legal_moves()[0])
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    pair = min(s / n for s, n in (push_pop(args.games) for _ in range(args.repeat)))
    listing = min(s / n for s, n in (legal_moves(args.games) for _ in range(args.repeat)))
    rate = max(whole_games(args.games) for _ in range(args.repeat))
    print("| measure | value |")
    print("| --- | ---: |")
    print(f"| push+pop of a placement | {pair * 1e6:.1f} µs |")
    print(f"| legal_moves() | {listing * 1e6:.0f} µs |")
    print(f"| greedy game with legal_moves()[0] | {rate:.1f} games/s |")
    print(f"\n({args.games} two-player games, best of {args.repeat}, CPU time on one core.)")


if __name__ == "__main__":
    main()
