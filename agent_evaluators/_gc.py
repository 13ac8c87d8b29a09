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
threshold is raised, the engine also collects the young generation every
:data:`ROWS_PER_COLLECTION` finished rows (:func:`row_finished`). That keeps memory flat
with cyclic garbage at little cost where the threshold matters: a judge row allocates a few
hundred containers, so there the raised threshold alone collects about as often.
"""

import contextlib
import gc
import os
import threading
from typing import Iterator, Optional, Tuple

__all__ = ["relaxed_gc", "row_finished", "RUN_THRESHOLD", "ROWS_PER_COLLECTION"]

#: young-generation threshold while a run is in flight
RUN_THRESHOLD = 50_000

#: finished rows between two young-generation collections while the threshold is raised
ROWS_PER_COLLECTION = 128

_lock = threading.Lock()
_depth = 0
_saved: Optional[Tuple[int, ...]] = None
_rows_left = ROWS_PER_COLLECTION


def _enter() -> None:
    global _depth, _saved
    with _lock:
        _depth += 1
        if _depth > 1 or os.environ.get("AGENT_EVAL_GC", "").strip().lower() == "default":
            return
        current = gc.get_threshold()
        if gc.isenabled() and 0 < current[0] < RUN_THRESHOLD:
            _saved = current
            gc.set_threshold(RUN_THRESHOLD, *current[1:])


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


def row_finished() -> None:
    """A row of a run finished; every :data:`ROWS_PER_COLLECTION` rows the young generation is
    collected, while this module holds the threshold raised (see the module docstring)."""
    global _rows_left
    _rows_left -= 1
    if _rows_left <= 0:
        _rows_left = ROWS_PER_COLLECTION
        if _saved is not None:
            gc.collect(0)
