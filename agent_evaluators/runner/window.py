"""The row window: how many rows are being evaluated at once, and where each finished one goes.

Shared by the local engine and each Ray shard, so both schedule rows the same way:
runs whose evaluators are all inline are evaluated on the spot (no task per row);
otherwise each row is a task, and a new one waits for a free place in the window,
which keeps memory flat however long the input.
"""

import asyncio
import time
from collections import deque
from typing import Any, Callable, Deque, Mapping, Optional, Sequence, Set, Tuple

from .._util.gc_pause import row_finished
from .mapping import ArgPlan
from .row_evaluator import Cells, Record, RowEvaluator

#: the longest the engine runs rows inline (and reads, reuses and skips lines) without letting the
#: event loop run: a Ctrl-C, which cancels the run on that loop, is noticed within this plus one row
BREATHE_S = 0.02

Emit = Callable[[int, Record, Cells], None]


class RowWindow:
    """Rows being evaluated at once; each finished row goes to ``emit``.

    How many: ``max_concurrency`` when every row is nothing but judge calls (no target, every
    evaluator a judge evaluator), since a row beyond the judge budget would only sit waiting
    for a permit deep inside its call stack, and waking it costs a judge call's worth of CPU
    several times over. Otherwise ``2 × max_concurrency``, so rows busy with a target or a
    sync metric do not leave judge permits idle.
    """

    def __init__(self, rows: RowEvaluator, max_concurrency: int, emit: Emit) -> None:
        self.rows = rows
        self.size = max(max_concurrency if rows.judge_bound else 2 * max_concurrency, 2)
        self.emit = emit
        self.pending: Set["asyncio.Task[Any]"] = set()
        #: rows ended and not yet emitted, in the order they ended: (True, (line, record, cells)), or
        #: (False, the exception the row raised)
        self._finished: Deque[Tuple[bool, Any]] = deque()
        #: set when a row finishes while the feed waits for a free place
        self._wake: Optional["asyncio.Future[None]"] = None
        self._loop = asyncio.get_running_loop()
        self._next_breath = time.monotonic() + BREATHE_S

    async def breathe(self) -> None:
        """Let the event loop run if it has not for :data:`BREATHE_S`; the feed calls this before each line.

        Inline rows never await, so without this a cancellation (Ctrl-C) or a host loop's other
        tasks would wait for the whole input. By elapsed time rather than per row: a yield per row
        cost 4.4 µs, two thirds of a trivial sync row (6.6 µs); this check costs nothing measurable.
        """
        now = time.monotonic()
        if now >= self._next_breath:
            await asyncio.sleep(0)
            self._next_breath = time.monotonic() + BREATHE_S

    async def _row(self, line: int, item: Mapping[str, Any], todo: Sequence[ArgPlan],
                   prior: Optional[Mapping[str, Any]], tout: Any) -> None:
        """One row's task. It hands its result over and wakes a waiting feed in its own last step: a
        done-callback would run one event-loop iteration later, and the feed one more after it (at 64
        rows in flight each such iteration costs a judge call about as much CPU as one of its steps)."""
        try:
            done: Tuple[bool, Any] = (True, await self.rows.row_async(line, item, todo, prior, tout))
        except BaseException as exc:  # noqa: BLE001 - raised in the feed by _drain, as Task.result() did
            done = (False, exc)
            if isinstance(exc, asyncio.CancelledError):  # the task ends cancelled, and the feed hears of it
                self._row_done(done)
                raise
        self._row_done(done)

    def _row_done(self, done: Tuple[bool, Any]) -> None:
        self.pending.discard(asyncio.current_task())  # type: ignore[arg-type]  # its place is free at once
        self._finished.append(done)
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    async def _drain(self) -> None:
        """Wait for a row to finish, then emit every finished one.

        Each row task reports its own end (:meth:`_row`): ``asyncio.wait`` over the
        window would add and remove a callback on every pending task at each wait, O(window) per
        wake (measured: about 25 µs a wait at 64 rows in flight, 160 µs at 512, where a judge call costs
        the client about 200 µs)."""
        finished = self._finished
        while not finished:
            self._wake = self._loop.create_future()
            try:
                await self._wake
            finally:
                self._wake = None
        while finished:
            ok, value = finished.popleft()
            if not ok:
                raise value
            self.emit(*value)
            row_finished()

    async def submit(self, line: int, item: Mapping[str, Any], todo: Sequence[ArgPlan],
                     prior: Optional[Mapping[str, Any]], tout: Any) -> None:
        if self.rows.all_inline:
            self.emit(line, *self.rows.row_sync(line, item, todo, prior, tout))
            row_finished()
            return
        while len(self.pending) >= self.size:
            await self._drain()
        self.pending.add(self._loop.create_task(self._row(line, item, todo, prior, tout)))

    async def finish(self) -> None:
        while self.pending:
            await self._drain()

    async def cancel(self) -> None:
        for task in self.pending:
            task.cancel()
        if self.pending:
            await asyncio.gather(*self.pending, return_exceptions=True)
