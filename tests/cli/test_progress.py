"""The progress bar: drawn on request only, cleared at the end."""

from __future__ import annotations

import io

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
