"""Fewer young-generation garbage collections while a run is in flight.

A judge call keeps a few hundred container objects alive for as long as it waits on the
wire (its task, coroutine frames, aiohttp's request and response, the rendered prompt). At
``max_concurrency`` 512 that is over 100,000 live objects, and CPython's default young-
generation threshold (700 net allocations) has the collector walk all of them again and
again while they wait: at high concurrency that was the largest share of a run's client CPU
above a bare aiohttp client (``bench/bench_evaluate.py``: the CPU per judge call at
concurrency 512 fell by about a fifth with the threshold raised). Those objects are freed by
reference counting when the call ends; the collector only ever finds cycles, and a run
makes none per call (checked with ``gc.DEBUG_SAVEALL``).

So for the duration of a run the first threshold is raised to :data:`RUN_THRESHOLD` (never
lowered, never touched when the collector is disabled), and the caller's thresholds come
back when the last overlapping run ends, unless someone else changed them meanwhile.
``AGENT_EVAL_GC=default`` leaves the collector alone.

The threshold counts container allocations, not bytes. An evaluator that leaves a reference
cycle per row (common with framework objects) allocates only a few containers for it, so
with the raised threshold its garbage piled up for thousands of rows: a 1 MB cycle per row
took a run of 2,500 rows to 2.5 GB (0.26 GB with the default thresholds). So while the
threshold is raised, the engine looks at the process's resident memory every
:data:`ROWS_PER_CHECK` finished rows (:func:`row_finished`), and collects the young
generation when it grew by :data:`GROWTH_BYTES` since the last look that collected (since the one
before, when that collection found cycles: the memory it freed may stay with the allocator). A
judge run's memory stays flat, so it gets no extra collection: collecting every few hundred
rows regardless cost 20 µs per judge call at concurrency 64 and 35 µs at 512, several
percent of the whole client's CPU. Where ``/proc/self/statm`` is missing (not Linux), the
young generation is collected every ``ROWS_PER_CHECK * 4`` rows instead.
"""

import contextlib
import gc
import os
import threading
from typing import Iterator, Optional, Tuple

#: young-generation threshold while a run is in flight
RUN_THRESHOLD = 50_000

#: finished rows between two looks at the resident memory while the threshold is raised
ROWS_PER_CHECK = 64

#: growth of the resident memory (since the last collection it caused) that triggers a young collection
GROWTH_BYTES = 64 << 20

#: unreachable objects found by a collection that say the rows leave cycles (a judge run's rows leave about
#: one in 40 rows, an evaluator with a cycle per row about one a row, some collected on the way): the growth
#: is then still measured from before that collection
CYCLES_FOUND = ROWS_PER_CHECK // 2

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

_lock = threading.Lock()
_depth = 0
_saved: Optional[Tuple[int, ...]] = None
_rows_left = ROWS_PER_CHECK
_rss_after_collect = 0
_checks = 0


def _enter() -> None:
    global _depth, _saved, _rss_after_collect
    with _lock:
        _depth += 1
        if _depth > 1 or os.environ.get("AGENT_EVAL_GC", "").strip().lower() == "default":
            return
        current = gc.get_threshold()
        if gc.isenabled() and 0 < current[0] < RUN_THRESHOLD:
            _saved = current
            gc.set_threshold(RUN_THRESHOLD, *current[1:])
            _rss_after_collect = _resident_bytes() or 0


def _exit() -> None:
    global _depth, _saved
    with _lock:
        _depth -= 1
        if _depth == 0 and _saved is not None:
            if gc.get_threshold()[0] == RUN_THRESHOLD:  # nobody else set it meanwhile
                gc.set_threshold(*_saved)
            _saved = None


@contextlib.contextmanager
def relaxed_gc() -> Iterator[None]:
    """Raise the young-generation GC threshold while this block runs (see the module docstring)."""
    _enter()
    try:
        yield
    finally:
        _exit()


def _resident_bytes() -> Optional[int]:
    """This process's resident memory from ``/proc/self/statm`` (about 8 µs); ``None`` off Linux."""
    try:
        fd = os.open("/proc/self/statm", os.O_RDONLY)
    except OSError:
        return None
    try:
        return int(os.read(fd, 128).split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None
    finally:
        os.close(fd)


def row_finished() -> None:
    """A row of a run finished: every :data:`ROWS_PER_CHECK` rows, while this module holds the
    threshold raised, collect the young generation if memory grew (see the module docstring)."""
    global _rows_left, _rss_after_collect, _checks
    _rows_left -= 1
    if _rows_left > 0:
        return
    _rows_left = ROWS_PER_CHECK
    if _saved is None:
        return
    rss = _resident_bytes()
    if rss is None:
        _checks += 1
        if _checks % 4 == 0:
            _collect_young()
        return
    if rss - _rss_after_collect >= GROWTH_BYTES or rss < _rss_after_collect:
        garbage = rss >= _rss_after_collect and _collect_young() >= CYCLES_FOUND
        after = _resident_bytes() or 0
        # rows that leave cycles: what was freed may stay with the allocator, the resident size not dropping
        # (rows in flight hold live cycles above it), so growth is still measured from the old baseline; else
        # the next collection would wait for that much more garbage, and the one after for more again
        _rss_after_collect = min(_rss_after_collect, after) if garbage else after


def _collect_young() -> int:
    """What the raised threshold would have done: the young generation, with the middle one when
    its own threshold is due (an explicit collection never cascades by itself, and cycles that
    were still in use at one collection wait in the middle generation)."""
    return gc.collect(1 if gc.get_count()[1] >= gc.get_threshold()[1] else 0)
