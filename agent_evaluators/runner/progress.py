"""A one-line progress display on a terminal (stderr, ``\\r``-updated); silent elsewhere.

With a known total it shows ``done/total`` and an ETA. The engines pass a total only when
it is free (an in-memory list); for a JSONL/CSV file the entry points set :data:`DATA_HINT`
and, only when the line is actually shown, the file's lines are counted (a fast
newline count in 1 MiB blocks, about a second per gigabyte) instead of parsed.
"""

import contextvars
import os
import sys
import time
from typing import Any, Optional, TextIO

__all__ = ["Progress", "DATA_HINT", "count_rows", "format_eta"]

#: the run's ``data`` argument, set by ``evaluate()`` for the run's task (read when the total is unknown)
DATA_HINT: "contextvars.ContextVar[Any]" = contextvars.ContextVar("agent_eval_progress_data", default=None)

_COUNTABLE = (".jsonl", ".ndjson", ".csv")


def count_rows(data: Any) -> Optional[int]:
    """Rows of a JSONL / CSV file by counting non-empty lines (CSV: minus the header); ``None`` otherwise.

    A quoted CSV field may span lines, so for CSV this is an estimate; the display says ``~``.
    """
    if not isinstance(data, (str, os.PathLike)):
        return None
    path = os.fspath(data)
    if not path.lower().endswith(_COUNTABLE) or not os.path.isfile(path):
        return None
    lines = 0
    last = b"\n"
    try:
        with open(path, "rb") as f:
            while True:
                block = f.read(1 << 20)
                if not block:
                    break
                lines += block.count(b"\n") - block.count(b"\n\n")  # blank lines are not rows
                last = block[-1:]
    except OSError:
        return None
    if last != b"\n":
        lines += 1
    if path.lower().endswith(".csv"):
        lines -= 1
    return max(lines, 0)


def format_eta(seconds: float) -> str:
    seconds = int(max(seconds, 0) + 0.5)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"


class Progress:
    """Rows done (of the total when known), rows/s, ETA and errors, redrawn at most ten times a second."""

    __slots__ = ("enabled", "stream", "total", "done", "errors", "start", "_next", "_approx")

    def __init__(self, enabled: Optional[bool], total: Optional[int] = None, stream: Optional[TextIO] = None) -> None:
        self.stream = stream or sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self._approx = False
        if total is None and enabled:
            data = DATA_HINT.get()
            total = count_rows(data)
            self._approx = total is not None and os.fspath(data).lower().endswith(".csv")
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
        rate = self.done / elapsed
        of = eta = ""
        if self.total is not None:
            of = f"/{'~' if self._approx else ''}{self.total}"
            if self.done >= self.total:
                eta = "  done"
            elif self.done and rate > 0:
                eta = f"  ETA {format_eta((self.total - self.done) / rate)}"
        line = f"\revaluate: {self.done}{of} rows  {rate:,.1f} rows/s{eta}  {self.errors} errors\x1b[K"
        self.stream.write(line)
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()
