"""Run coroutines from synchronous code, also when an event loop is already running.

Sync ``__call__`` must work in a plain script, in a notebook and inside FastAPI
handlers. ``asyncio.run`` per call would fail inside a running loop and would
also throw away the pooled HTTP client each time (pools are bound to a loop).
So sync calls go to one long-lived background loop in a daemon thread: the
judge client pool built on it is reused across calls.
"""

import asyncio
import threading
from typing import Any, Coroutine, Optional, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_loop: Optional[asyncio.AbstractEventLoop] = None
_thread: Optional[threading.Thread] = None


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop, _thread
    with _lock:
        if _loop is None or _loop.is_closed() or _thread is None or not _thread.is_alive():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(
                target=loop.run_forever, name="agent-evaluators-loop", daemon=True
            )
            thread.start()
            _loop, _thread = loop, thread
        return _loop


def run_sync(coro: Coroutine[Any, Any, T], *, nested_hint: Optional[str] = None) -> T:
    """Run ``coro`` to completion on the shared background loop and return its result.

    If the caller is interrupted (Ctrl-C) the coroutine is cancelled and given a moment
    to unwind, so nothing it started keeps running behind the caller's back.
    ``nested_hint`` is the message when called from the background loop itself.
    """
    loop = _background_loop()
    if threading.current_thread() is _thread:
        coro.close()
        raise RuntimeError(nested_hint or (
            "a synchronous evaluator call was made from inside the evaluators' own event loop; "
            "use `await evaluator.acall(...)` there"
        ))
    future = asyncio.run_coroutine_threadsafe(coro, loop)
    try:
        return future.result()
    except BaseException:
        if not future.done():
            future.cancel()
            try:
                future.result(timeout=10)
            except BaseException:
                pass
        raise
