"""A one-line progress display on a terminal (stderr, ``\\r``-updated); silent elsewhere."""

import sys
import time
from typing import Optional, TextIO

__all__ = ["Progress"]


class Progress:
    """Rows done, rows/s and errors, redrawn at most ten times a second."""

    __slots__ = ("enabled", "stream", "total", "done", "errors", "start", "_next")

    def __init__(self, enabled: Optional[bool], total: Optional[int] = None, stream: Optional[TextIO] = None) -> None:
        self.stream = stream or sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self.total = total
        self.done = 0
        self.errors = 0
        self.start = time.monotonic()
        self._next = 0.0

    def update(self, rows: int = 1, errors: int = 0) -> None:
        self.done += rows
        self.errors += errors
        if self.enabled:
            now = time.monotonic()
            if now >= self._next:
                self._next = now + 0.1
                self._draw(now)

    def _draw(self, now: float) -> None:
        elapsed = max(now - self.start, 1e-9)
        of = f"/{self.total}" if self.total is not None else ""
        line = f"\revaluate: {self.done}{of} rows  {self.done / elapsed:,.1f} rows/s  {self.errors} errors"
        self.stream.write(line)
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()
