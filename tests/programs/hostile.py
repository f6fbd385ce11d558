"""A QBP bot that misbehaves on purpose, for the referee's tests: python hostile.py MODE [TOKEN]

Every mode but ``exit`` speaks the protocol and plays greedy moves until its
misdeed (the TOKEN is only there for the tests to find the process by):

* ``sleep``: on go, sleeps far past its time;
* ``exit``: exits at once, before the handshake;
* ``garbage``: on go, prints a line that is not UTF-8;
* ``nonsense``: on go, answers ``bestmove`` with a move that cannot be read;
* ``illegal``: on go, plays a tile far from the board;
* ``flood``: on go, prints info lines for ever;
* ``deaf``: ignores quit and SIGTERM (plays on; only SIGKILL ends it);
* ``spawn``: starts a child that sleeps for ever, then plays;
* ``spy``: writes every line it receives to the file TOKEN, then plays;
* ``longline``: on go, prints one endless line;
* ``noqbpok``: never says ``qbpok`` (answers everything else);
* ``twice``: answers each go with two ``bestmove`` lines;
* ``stderr``: on go, writes 3 MiB to its standard error, then plays;
* ``hog``: on go, tries to allocate 4 GiB (its memory limit refuses), then plays;
* ``gameover``: writes every ``gameover`` line it receives to the file TOKEN, then plays.
"""

import signal
import sys
import time

from qwirkle_tools.bots.qbp import serve
from qwirkle_tools.engines.policies import greedy

MODE = sys.argv[1] if __name__ == "__main__" else ""
TOKEN = sys.argv[2] if __name__ == "__main__" and len(sys.argv) > 2 else ""


def say(line: str) -> None:
    if MODE == "noqbpok" and line == "qbpok":
        return
    sys.stdout.write(line + "\n")
    if MODE == "twice" and line.startswith("bestmove"):
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


def lines():
    mode = MODE
    spy = open(TOKEN, "a", encoding="utf-8") if mode in ("spy", "gameover") else None
    for line in sys.stdin:
        if spy is not None and (mode == "spy" or line.startswith("gameover")):
            spy.write(line)
            spy.flush()
        if line.startswith("go"):
            if mode == "stderr":
                for _ in range(48):
                    sys.stderr.write("e" * 65_535 + "\n")
                sys.stderr.flush()
            elif mode == "hog":
                try:
                    hoard = bytearray(4 << 30)
                    say(f"info allocated {len(hoard)}")
                except MemoryError:
                    say("info the allocation was refused")
            if mode == "sleep":
                time.sleep(60)
            elif mode == "garbage":
                sys.stdout.buffer.write(b"\xff\xfe\xfd not utf-8\n")
                sys.stdout.flush()
            elif mode == "nonsense":
                say("bestmove zz@1,two")
                continue
            elif mode == "illegal":
                say("bestmove rc@500,500")
                continue
            elif mode == "flood":
                while True:
                    say("info " + "x" * 1000)
            elif mode == "longline":
                while True:
                    sys.stdout.write("y" * 10000)
        if line.startswith("quit") and mode == "deaf":
            continue
        yield line


def main() -> None:
    if MODE == "exit":
        sys.exit(3)
    if MODE == "deaf":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if MODE == "spawn":
        import subprocess

        subprocess.Popen([sys.executable, "-c", f"import time; time.sleep(600)  # {TOKEN}"])
    serve(greedy, lines(), say, f"hostile-{MODE}")
    if MODE == "deaf":
        time.sleep(600)


if __name__ == "__main__":
    main()
