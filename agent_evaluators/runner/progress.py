"""The run's progress on stderr: a ``\\r``-updated line on a terminal, plain lines elsewhere.

On a terminal the line is redrawn at most ten times a second. Elsewhere (CI logs, a pipe)
the same text is printed as a plain line every :data:`PLAIN_INTERVAL_S` seconds and once
at the end, so a long run in CI shows it is alive without flooding the log
(``AGENT_EVAL_PROGRESS_INTERVAL`` sets another interval, in seconds). A small daemon thread
keeps that beat while no row finishes (slow rows, an evaluator holding the event loop, a
Ray driver waiting on its shards).

With a known total it shows ``done/total`` and an ETA. The engines pass a total only when
it is free (an in-memory list); for a JSONL/CSV file the run's row source
(:class:`~.row_source.RowSource`, which applies the row limit) counts the file's lines, only
when the line is actually shown (a fast newline count in 1 MiB blocks, about a second per
gigabyte) instead of parsed.

Rows kept from an earlier run (``resume``) count as done but not in the rate: they cost
nothing, and counting them made the ETA of a resumed run far too short.
"""

import os
import sys
import threading
import time
import weakref
from typing import Any, Callable, Optional, TextIO

#: seconds between two plain progress lines when stderr is not a terminal
PLAIN_INTERVAL_S = 10.0

#: seconds between two redraws of the terminal line
_REDRAW_S = 0.1

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


def _plain_interval() -> float:
    """:data:`PLAIN_INTERVAL_S`, or ``AGENT_EVAL_PROGRESS_INTERVAL`` when set to a positive number."""
    raw = os.environ.get("AGENT_EVAL_PROGRESS_INTERVAL", "").strip()
    try:
        value = float(raw) if raw else PLAIN_INTERVAL_S
    except ValueError:
        return PLAIN_INTERVAL_S
    return value if value > 0 else PLAIN_INTERVAL_S


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):  # a closed or detached stream
        return False


class Progress:
    """Rows done (of the total when known), rows/s, ETA and errors.

    ``enabled``: ``True`` the terminal line, ``False`` nothing, ``None`` the terminal line on a
    terminal and plain lines elsewhere. ``source``: the run's
    :class:`~.row_source.RowSource`, counted for the total when none is given. ``clock`` is for tests.
    """

    __slots__ = ("enabled", "plain", "stream", "total", "done", "kept", "errors", "start", "_next", "_every",
                 "_approx", "_clock", "_lock", "_stop", "note", "__weakref__")

    def __init__(self, enabled: Optional[bool], total: Optional[int] = None, stream: Optional[TextIO] = None, *,
                 source: Any = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream or sys.stderr
        self.plain = enabled is None and not _is_terminal(self.stream)
        self.enabled = (True if enabled is None else bool(enabled)) and self.stream is not None  # None: pythonw
        self._every = _plain_interval() if self.plain else _REDRAW_S
        self._approx = False
        if total is None and self.enabled and source is not None:
            total = source.counted_total()
            self._approx = total is not None and source.approximate
        self.total = total
        self.done = 0
        self.kept = 0
        self.errors = 0
        #: more to say after the counts (batch mode: the batches' status), or None
        self.note: Optional[Callable[[], str]] = None
        self._clock = clock
        self.start = clock()
        self._next = self.start + self._every if self.plain else 0.0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        if self.plain and self.enabled:
            threading.Thread(target=_beat, args=(weakref.ref(self), self._stop, self._every),
                             name="agent-eval-progress", daemon=True).start()

    def update(self, rows: int = 1, errors: int = 0) -> None:
        """``rows`` evaluated in this run, ``errors`` error cells among them."""
        self.done += rows
        self.errors += errors
        if self.enabled and self._clock() >= self._next:
            self.draw_if_due()

    def draw_if_due(self) -> None:
        """Draw the line if its interval has passed (from a row, or from the beat thread)."""
        with self._lock:
            now = self._clock()
            if now >= self._next and not self._stop.is_set():
                self._next = now + self._every
                self._draw(now)

    def keep(self, rows: int = 1) -> None:
        """``rows`` kept from an earlier run: done, but no part of the rate."""
        self.kept += rows
        self.update(rows)

    def text(self, now: float) -> str:
        """The line's text: ``evaluate: done/total rows (kept) rate ETA errors``."""
        rate = (self.done - self.kept) / max(now - self.start, 1e-9)
        of = eta = kept = ""
        if self.kept:
            kept = f" ({self.kept} kept)"
        if self.total is not None:
            of = f"/{'~' if self._approx else ''}{self.total}"
            if self.done >= self.total:
                eta = "  done"
            elif rate > 0:
                eta = f"  ETA {format_eta((self.total - self.done) / rate)}"
        note = self.note() if self.note is not None else ""
        return (f"evaluate: {self.done}{of} rows{kept}  {rate:,.1f} rows/s{eta}  {self.errors} errors"
                + (f"  {note}" if note else ""))

    def _draw(self, now: float) -> None:
        if self.plain:
            self.stream.write(self.text(now) + "\n")
        else:
            self.stream.write(f"\r{self.text(now)}\x1b[K")
        self.stream.flush()

    def close(self) -> None:
        """The last line (once), and the beat thread stops. No plain last line for a run that did
        no row (it failed to start): its error message is then the first thing on stderr."""
        with self._lock:
            if self._stop.is_set():
                return
            self._stop.set()
            if self.enabled and (self.done or not self.plain):
                self._draw(self._clock())
                if not self.plain:
                    self.stream.write("\n")
                self.stream.flush()


def _beat(ref: "weakref.ref[Progress]", stop: threading.Event, every: float) -> None:
    """Plain lines while no row finishes; ends with :meth:`Progress.close` (or when the display is gone)."""
    while not stop.wait(every):
        progress = ref()
        if progress is None:
            return
        try:
            progress.draw_if_due()
        except (OSError, ValueError):  # stderr closed under us: nothing left to show
            return
        del progress
