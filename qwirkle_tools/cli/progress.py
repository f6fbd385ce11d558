"""A one-line progress bar for long runs, on a terminal only."""

import time
from typing import TextIO


class Progress:
    """Shows ``done / total`` (in bytes of input) and the rate, at most ten
    times a second, on ``stream``; silent when not ``enabled``.

    >>> import io
    >>> p = Progress(100, io.StringIO(), enabled=False)
    >>> p.update(1, 50); p.close()
    """

    def __init__(self, total: int, stream: TextIO, enabled: bool, label: str = "games") -> None:
        self.total, self.stream, self.enabled, self.label = max(total, 1), stream, enabled, label
        self.start = self.shown = time.monotonic()
        self.count = self.done = 0
        self.width = 0

    def update(self, count: int, done: int) -> None:
        """Add ``count`` items and ``done`` bytes."""
        self.count += count
        self.done += done
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.shown >= 0.1:
            self.shown = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        share = min(self.done / self.total, 1.0)
        elapsed = max(now - self.start, 1e-9)
        rate = self.count / elapsed
        left = elapsed * (1 - share) / share if share > 0 else 0.0
        bar = "#" * int(share * 30)
        line = (f"\r[{bar:<30}] {share:4.0%}  {self.count:,} {self.label}  {rate:,.0f}/s"
                f"  {int(left) // 60}:{int(left) % 60:02d} left")
        self.width = max(self.width, len(line))
        self.stream.write(line.ljust(self.width))
        self.stream.flush()

    def close(self) -> None:
        """Clear the line."""
        if self.enabled and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
