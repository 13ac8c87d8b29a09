"""Deadlines of calls made under one timeout on one event loop: one event-loop timer for all of them.

A timer per call (``loop.call_at``, what ``asyncio.timeout`` and aiohttp's own request
timeout do) costs a judge call several microseconds: a ``TimerHandle`` made, pushed into the
loop's heap (Python-level comparisons, one per level), cancelled, and later popped or
heapified away again. Calls under one timeout on one loop start in time order, so their
deadlines are in that order too: they queue in a :class:`Deadlines`, in a ``deque``, and one
timer waits for the oldest deadline still running. A call that ends marks its place done (the
done ones at the head are dropped at once, and the timer with the last of them), and the
timer, when it fires, expires the calls past their deadline and waits for the next one.

Expiry is what ``asyncio.timeout`` does: the call's task is cancelled and the entry records
that the deadline did it. Two callers share this: the run's cells under the run's
``timeout`` (:func:`agent_evaluators.runner.cells.call_with_timeout`) and each judge request
under the judge's ``timeout`` (:meth:`agent_evaluators.judge.transport.AiohttpTransport.fetch`),
nested in one task; :func:`expired_here` tells which of them a cancellation belongs to, with
``asyncio.timeout``'s rules. Python 3.11+ (``Task.cancelling``/``uncancel``): before, callers
use ``asyncio.wait_for`` or aiohttp's own timeout (:data:`SHARED_DEADLINES`).
"""

import asyncio
from collections import deque
from typing import Any, Deque, List, Optional

#: Python 3.11+: a task counts the cancellations asked of it, so a deadline can tell its own apart
SHARED_DEADLINES = hasattr(asyncio, "timeout")

#: an entry: [deadline, task, done, expired]
DEADLINE, TASK, DONE, EXPIRED = range(4)

#: a deadline this close ahead counts as passed (a loop runs a timer up to its clock's resolution early)
_SLACK_S = 0.001


class Deadlines:
    """The calls running under one ``timeout`` on one event loop, oldest first.

    It keeps no reference to its loop while no call runs: the run's table of them is keyed weakly by
    loop (:mod:`agent_evaluators.runner.deadlines`), and a reference from here would keep every
    finished run's loop alive."""

    __slots__ = ("timeout", "entries", "timer", "__weakref__")

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.entries: Deque[List[Any]] = deque()
        self.timer: Optional[asyncio.TimerHandle] = None

    def start(self, loop: asyncio.AbstractEventLoop, task: "asyncio.Task[Any]") -> List[Any]:
        """Start the clock for a call running in ``task`` on ``loop``; give the entry back to :meth:`end`."""
        deadline = loop.time() + self.timeout
        entry: List[Any] = [deadline, task, False, False]
        self.entries.append(entry)
        if self.timer is None:
            self.timer = loop.call_at(deadline, self._expire, loop)
        return entry

    def end(self, entry: List[Any]) -> None:
        """The call has ended: its deadline no longer counts."""
        entry[DONE] = True
        entry[TASK] = None
        entries = self.entries
        while entries and entries[0][DONE]:
            entries.popleft()
        if not entries and self.timer is not None:  # nothing left to time: no timer is left behind
            self.timer.cancel()
            self.timer = None

    def _expire(self, loop: asyncio.AbstractEventLoop) -> None:
        self.timer = None
        entries = self.entries
        now = loop.time() + _SLACK_S
        while entries:
            head = entries[0]
            if head[DONE]:
                entries.popleft()
            elif head[DEADLINE] <= now:
                entries.popleft()
                head[EXPIRED] = True
                head[TASK].cancel()
            else:
                self.timer = loop.call_at(head[DEADLINE], self._expire, loop)
                return


def expired_here(entry: List[Any], task: "asyncio.Task[Any]", cancelling: int) -> bool:
    """In an ``except asyncio.CancelledError`` around a call timed by ``entry``: whether this deadline's
    expiry is what cancelled it (its cancellation is then taken back from ``task``), ``asyncio.timeout``'s
    rule. ``cancelling``: ``task.cancelling()`` when the call started. A cancellation from outside, even
    one that lands with the expiry, or an outer deadline's, stays a cancellation."""
    return bool(entry[EXPIRED]) and task.uncancel() <= cancelling  # type: ignore[attr-defined,unused-ignore]


def survived(entry: List[Any], task: "asyncio.Task[Any]") -> None:
    """After a call timed by ``entry`` returned: if it swallowed this deadline's cancellation, its result
    stands and the task's cancel count is put back."""
    if entry[EXPIRED]:
        task.uncancel()  # type: ignore[attr-defined,unused-ignore]
