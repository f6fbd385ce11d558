#!/usr/bin/env python3
"""A Qwirkle bot in a page of standard-library Python: it speaks the Qwirkle bot
protocol (QBP, see docs/bots.md) on its standard input and output, and asks the
`qwirkle moves` command for the best-scoring move.

    qwirkle match cmd:"python3 examples/moves_bot.py" greedy --games 10 -o match.jsonl

It runs `qwirkle` from PATH (or the command in $QWIRKLE, or this Python's
`-m qwirkle_tools`). With no placement it exchanges as many tiles as the bag
holds (while the bag has tiles every rack is full, so the bag holds what the
board and the racks leave), and passes when the bag is empty.
"""

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from typing import Any

TILES = 108


def qwirkle() -> list[str]:
    if os.environ.get("QWIRKLE"):
        return shlex.split(os.environ["QWIRKLE"])
    found = shutil.which("qwirkle")
    return [found] if found else [sys.executable, "-m", "qwirkle_tools"]


def best_move(position: dict[str, Any], rack: list[str]) -> str:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(position, f)
    try:
        turn = len(position["turns"]) + 1
        out = subprocess.run(qwirkle() + ["moves", f.name, "--turn", str(turn), "--rack", " ".join(rack),
                                          "--limit", "1", "--format", "json"],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(f.name)
    moves = json.loads(out)["moves"]
    if moves:
        return " ".join(f"{p['tile']}@{p['x']},{p['y']}" for p in moves[0]["tiles"])
    placed = sum(len(t.get("tiles", [])) for t in position["turns"] if t["action"] == "place")
    bag = TILES - placed - 6 * len(position["players"])
    if bag > 0:
        return "exchange " + " ".join(rack[:bag])
    return "pass"


def main() -> None:
    position: dict[str, Any] | None = None
    rack: list[str] = []
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        if command == "qbp":
            print("id name moves-bot\nid author qwirkle-tools examples\nqbpok", flush=True)
        elif command == "isready":
            print("readyok", flush=True)
        elif command == "position":
            position = json.loads(rest)
        elif command == "rack":
            rack = rest.split()
        elif command == "go":
            print(f"bestmove {best_move(position, rack) if position is not None else 'pass'}", flush=True)
        elif command == "quit":
            return


if __name__ == "__main__":
    main()
