"""The run's table of :class:`~agent_evaluators._util.deadlines.Deadlines`: one per (event loop, timeout).

The mechanism (one event-loop timer for every call under one timeout) is
:mod:`agent_evaluators._util.deadlines`, shared with the judge transport's requests; this
module finds the one a run's cells use, made on first use and gone with its loop.
"""

import asyncio
import threading
import weakref
from typing import Any, Dict, Tuple

from .._util.deadlines import Deadlines

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
