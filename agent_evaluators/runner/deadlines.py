"""Deadlines of the calls a run makes under its ``timeout``: one event-loop timer for all of them.

Every cell (and every target call) runs under the run's ``timeout``. A timer per call
(``loop.call_at``, what ``asyncio.timeout`` does) costs a judge call several microseconds:
a ``TimerHandle`` made, pushed into the loop's heap (Python-level comparisons, one per level),
cancelled, and later popped or heapified away again, in a heap that every aiohttp request's own
timer shares. Calls under one timeout on one loop start in time order, so their deadlines are in
that order too: they queue here, in a ``deque``, and one timer waits for the oldest deadline still
running. A call that ends marks its place done (the done ones at the head are dropped at once, and
the timer with the last of them), and the timer, when it fires, expires the calls past their
deadline and waits for the next one.

Expiry is what ``asyncio.timeout`` does: the call's task is cancelled and the entry records
that the deadline did it (see :func:`~.cells.call_with_timeout`).
"""

import asyncio
import threading
import weakref
from collections import deque
from typing import Any, Deque, Dict, List, Optional, Tuple

#: an entry: [deadline, task, done, expired]
DEADLINE, TASK, DONE, EXPIRED = range(4)

#: a deadline this close ahead counts as passed (a loop runs a timer up to its clock's resolution early)
_SLACK_S = 0.001


class Deadlines:
    """The calls running under one ``timeout`` on one event loop, oldest first.

    It keeps no reference to its loop while no call runs (the table of them is keyed weakly by loop:
    a reference from here would keep every finished run's loop alive)."""

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


_lock = threading.Lock()
_by_loop: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Dict[float, Deadlines]]" = weakref.WeakKeyDictionary()
#: the last one asked for, weakly: a run asks for the same one for every call
_last: Tuple[Any, float, Any] = (None, 0.0, None)


def deadlines_for(loop: asyncio.AbstractEventLoop, timeout: float) -> Deadlines:
    """The :class:`Deadlines` of ``timeout`` on ``loop`` (made on first use; gone with the loop)."""
    global _last
    last_loop, last_timeout, last_ref = _last
    if last_timeout == timeout and last_loop is not None and last_loop() is loop:
        found = last_ref()
        if found is not None:
            return found  # type: ignore[no-any-return]
    with _lock:  # runs on other threads' loops (sync calls, a host's loops) ask too
        table = _by_loop.get(loop)
        if table is None:
            for closed in [lp for lp in _by_loop.keys() if lp.is_closed()]:  # a loop closed mid-call: its timer
                del _by_loop[closed]  # handle (which holds the loop) would keep it in the table
            table = _by_loop[loop] = {}
        found = table.get(timeout)
        if found is None:
            found = table[timeout] = Deadlines(timeout)
        _last = (weakref.ref(loop), timeout, weakref.ref(found))
    return found
