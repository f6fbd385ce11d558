"""The progress bar: drawn on request only, cleared at the end."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from qwirkle_tools.cli.progress import Progress


def test_disabled_bar_writes_nothing() -> None:
    out = io.StringIO()
    bar = Progress(100, out, enabled=False)
    bar.update(5, 50)
    bar.close()
    assert out.getvalue() == "" and bar.count == 5 and bar.done == 50


def test_enabled_bar_shows_share_and_count_then_clears() -> None:
    out = io.StringIO()
    bar = Progress(200, out, enabled=True)
    bar.shown -= 1  # as if the last drawing were a second ago
    bar.update(3, 50)
    text = out.getvalue()
    assert text.startswith("\r[#######") and " 25%" in text and "3 games" in text
    bar.close()
    assert out.getvalue().endswith("\r" + " " * bar.width + "\r")


def test_bar_redraws_at_most_ten_times_a_second() -> None:
    out = io.StringIO()
    bar = Progress(10, out, enabled=True)
    bar.shown += 3600  # the last drawing is "in the future": no redraw is due
    for _ in range(100):
        bar.update(1, 0)
    assert out.getvalue() == ""


@pytest.mark.parametrize("verb", ["annotate", "view", "report"])
def test_a_command_with_an_engine_shows_its_turns_on_a_terminal_only(verb: str, tmp_path: Path) -> None:
    """``annotate``, ``view`` and ``report`` with an engine take seconds: on a terminal (standard error
    a tty) a bar counts the turns and is cleared at the end; into a pipe, no bar."""
    import os
    import pty
    import subprocess
    import sys

    root = Path(__file__).parents[2]
    game = str(root / "sample_games" / "complete-2p.json")
    out = {"annotate": [], "view": ["-o", str(tmp_path / "g.html")], "report": ["-o", str(tmp_path / "r")]}[verb]
    command = [sys.executable, "-m", "qwirkle_tools", verb, game, *out, "--engine", "lookahead", "--movetime", "50",
               *([] if verb == "annotate" else ["--force"])]
    env = {**os.environ, "PYTHONPATH": str(root)}
    leader, follower = pty.openpty()
    proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=follower, env=env, timeout=120, check=False)
    os.close(follower)
    drawn = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # (the terminal's far end closed: all read)
            break
        if not chunk:
            break
        drawn += chunk
    os.close(leader)
    assert proc.returncode == 0
    assert b" turns" in drawn and b"\r" + b" " * 20 in drawn  # drawn, then the line cleared
    piped = subprocess.run(command, capture_output=True, env=env, timeout=120, check=False)
    assert piped.returncode == 0 and b" turns " not in piped.stderr
