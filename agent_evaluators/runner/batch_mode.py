"""``judge_mode="batch"`` for a local run: the collector the run installs in its context for its duration.

In batch mode the judge requests of a round wait together for their batch, so the row window is
widened to :data:`BATCH_ROWS` (a round collects as many rows as memory comfortably holds, not
``max_concurrency``), and the judge budget is lifted for the parked requests; the few requests that
go direct (retried lines) keep ``max_concurrency`` (:mod:`agent_evaluators.judge.batch_collect`).
The run folder's ``batches.jsonl`` records every batch, so ``resume`` polls the same ones; the cells
that were errors ask the judge again (their batch answer is what made them errors).
"""

import contextlib
from typing import Any, AsyncIterator, Callable, Iterable, Optional, Tuple

from ..judge.batch_collect import BatchCollector, BatchLimits, batch_collector
from ..judge.batch_journal import BatchJournal
from ..judge.batch_route import origin
from .options import RunOptions

#: rows evaluated at once in batch mode (each parks its judge requests until its batch is done)
BATCH_ROWS = 5000


def rows_in_flight(options: RunOptions) -> int:
    """The row window's size: ``max_concurrency``, or :data:`BATCH_ROWS` in batch mode."""
    settings = options.settings
    return max(settings.max_concurrency, BATCH_ROWS) if settings.judge_mode == "batch" else settings.max_concurrency


@contextlib.asynccontextmanager
async def judge_route(options: RunOptions, progress: Any,
                      errored: Callable[[], Iterable[Tuple[int, str]]] = tuple) -> AsyncIterator[Optional[BatchCollector]]:
    """The run's batch collector while the block runs when ``judge_mode`` is ``"batch"``, else ``None``
    (the engine installs it: :func:`agent_evaluators.judge.batch_collect.routed`). ``errored``: the
    earlier run's error cells ``(line, alias)``, whose requests go in new batches."""
    settings = options.settings
    if settings.judge_mode != "batch":
        yield None
        return

    def show() -> None:
        if progress.enabled:
            progress.draw_if_due()

    journal = BatchJournal(options.output_path, keep=options.continues_earlier_run)
    journal.forget({origin(line, alias) for line, alias in errored()})
    limits = BatchLimits(settings.batch_max_requests, settings.batch_max_bytes, settings.batch_poll_s,
                         settings.batch_timeout_s)
    async with batch_collector(journal, limits, max_concurrency=settings.max_concurrency, on_status=show) as collector:
        progress.note = collector.describe
        try:
            yield collector
        finally:
            progress.note = None
