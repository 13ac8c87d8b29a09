"""The local engine: one process, one event loop, every row through one :class:`~.window.RowWindow`.

Rows are read lazily and scheduled through a bounded window (``max_concurrency`` to
``2 × max_concurrency`` rows in flight, see :class:`~.window.RowWindow`), so 100,000 rows
cost the memory of a few dozen; every judge HTTP attempt of every evaluator draws on one
shared budget of ``max_concurrency`` permits.
Rows whose evaluators are all plain sync functions are evaluated inline, without a
task per row. Each finished row goes to the :class:`~.ledger.RunLedger`, which appends
it to ``rows.jsonl`` at once, so a crash loses only the rows in flight.
"""

import contextlib
import logging
import signal
import threading
import time
from typing import Any, Iterator, List, Optional, Tuple

from .._util.concurrency import new_limiter
from .._util.gc_pause import relaxed_gc
from ..judge.batch_collect import BatchCollector, routed
from ..judge.dry_transport import DryRunTransport
from ..run_context import Fields, scoped
from .batch_mode import judge_route, rows_in_flight
from .describe import describe_run
from .judge_caps import run_budget
from .ledger import RunInterrupted, RunLedger
from .options import RunOptions
from .readers import RowError
from .result import EvaluationResult
from .row_evaluator import RowEvaluator
from .window import RowWindow

logger = logging.getLogger("agent_evaluators.runner")


class RunWatch:
    """What :func:`~.api.evaluate` sees of a run it hands to the background loop: the ledger, and
    when the run has unwound (after Ctrl-C, ``run_sync`` returns before the cancelled run has
    saved its rows; ``evaluate`` waits for ``done`` and then raises the ledger's
    :class:`RunInterrupted`, since a KeyboardInterrupt cannot be raised inside a loop task)."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.ledger: Optional[RunLedger] = None

    def interruption(self, wait_s: float) -> Optional[RunInterrupted]:
        """Wait up to ``wait_s`` for the cancelled run to save its rows; its :class:`RunInterrupted`.

        A further Ctrl-C meanwhile is noted, not raised: raised here it would end the process
        with a raw traceback while the run is still writing, and leave ``summary.json``
        ``"running"``. A run that has not unwound by then (an inline evaluator stuck in one
        long call) is marked ``"interrupted"`` from here: its written rows are all whole lines.
        """
        with _further_ctrl_c_noted():
            deadline = time.monotonic() + wait_s
            while not self.done.is_set() and time.monotonic() < deadline:
                self.done.wait(min(0.5, max(deadline - time.monotonic(), 0.0)))
        if self.ledger is None:
            return None
        if self.ledger.interruption is None and not self.done.is_set():
            try:
                self.ledger.interrupt()
            except Exception:  # the run's own thread may be closing the same files
                logger.exception("could not mark the interrupted run")
        return self.ledger.interruption


@contextlib.contextmanager
def _further_ctrl_c_noted() -> Iterator[None]:
    """While this block runs, Ctrl-C logs a line instead of raising (main thread only: only it gets signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def note(signum: int, frame: Any) -> None:
        logger.warning("Ctrl-C again: saving the finished rows first, a moment")

    try:
        previous = signal.signal(signal.SIGINT, note)
    except (ValueError, OSError):  # signals unavailable here (an embedded interpreter)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


async def run_local(options: RunOptions, watch: Optional[RunWatch] = None, *,
                    dry: Optional[DryRunTransport] = None) -> EvaluationResult:
    """Evaluate every row of ``options.data`` in this process (a dry run's judge, ``dry``, answers
    every judge request in process: :mod:`.dry_run`).

    Cancelled (Ctrl-C in :func:`~.api.evaluate`, or a cancelled ``evaluate_async``): the ledger
    saves what is done and marks the run ``interrupted``, and the cancellation propagates.
    """
    try:
        rows = RowEvaluator.prepare(options.rows)
        budget = run_budget(options, rows)  # before the ledger: a refused cap leaves the folder as it was
        ledger = RunLedger(options, rows, describe_run(options, rows), total=options.row_source().known_total())
        rows.hash_rows = ledger.encodes_rows
        if budget is not None:
            ledger.adopt_budget(budget)
            rows.budget = budget
        if watch is not None:
            watch.ledger = ledger
        await _run(options, rows, ledger, dry)
        return ledger.finish()
    finally:
        if watch is not None:
            watch.done.set()


async def _run(options: RunOptions, rows: RowEvaluator, ledger: RunLedger, dry: Optional[DryRunTransport]) -> None:
    with ledger, relaxed_gc():
        window = RowWindow(rows, rows_in_flight(options), ledger.add)
        try:
            async with judge_route(options, ledger.progress, ledger.errored_cells) as route:
                with scoped(**run_fields(options, rows, route, dry)):
                    await _feed(options, rows, ledger, window)
                    await window.finish()
                if route is not None:
                    ledger.summary["judge_batches"] = route.used()
        except BaseException:
            await window.cancel()
            raise
        finally:
            rows.close()


def run_fields(options: RunOptions, rows: RowEvaluator, route: Optional[BatchCollector],
               dry: Optional[DryRunTransport]) -> Fields:
    """What a local run installs in its context for the code it runs (:mod:`agent_evaluators.run_context`):
    the judge limiter (``max_concurrency`` permits), the run's prices, its budget and its secrets (which
    every judge client used joins); in batch mode the collector instead of the limiter; in a dry run the
    in-process judge."""
    fields: Fields = {"limiter": new_limiter(options.settings.max_concurrency), "prices": dict(options.settings.prices or {}),
                      "budget": rows.budget, "secrets": rows.secrets,
                      "prompt_budget": options.rows.prompt_budget, "terminal_tools": options.rows.terminal_tools}
    if route is not None:
        fields.update(routed(route))
    if dry is not None:
        fields["dry_transport"] = dry
    return fields


async def _feed(options: RunOptions, rows: RowEvaluator, ledger: RunLedger, window: RowWindow) -> None:
    """Read the input (its :class:`~.row_source.RowSource`) and hand each line to the window,
    the ledger deciding what is left to do.

    Unreadable lines met before the first row passes its column-mapping check are held back
    (up to :data:`_HELD_ERRORS`): writing one would start the run folder, and a failing check
    must leave the earlier run's files as they were."""
    validated = False
    held: List[Tuple[int, RowError]] = []
    for line, item in options.row_source():
        await window.breathe()
        todo = ledger.work_for(line, item)
        if todo is None:
            ledger.skip(line)
            continue
        if not todo:
            ledger.reuse(line)
            continue
        if isinstance(item, RowError):
            if not validated and len(held) < _HELD_ERRORS:
                held.append((line, item))
            else:
                ledger.add(line, *rows.error_row(line, item))
            continue
        prior = ledger.prior(line)
        tout = None
        if not validated:
            validated = True
            tout = await rows.validate_first(line, item, prior, todo)
            _add_errors(rows, ledger, held)
        await window.submit(line, item, todo, prior, tout)
    _add_errors(rows, ledger, held)


#: unreadable lines kept in memory while the first row to evaluate has not been checked yet
_HELD_ERRORS = 1000


def _add_errors(rows: RowEvaluator, ledger: RunLedger, held: List[Tuple[int, RowError]]) -> None:
    for line, item in held:
        ledger.add(line, *rows.error_row(line, item))
    held.clear()
