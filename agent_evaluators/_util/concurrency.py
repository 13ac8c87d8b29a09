"""One concurrency budget for every judge call in a run.

``evaluate()`` installs a limiter for the duration of a run; every judge HTTP
attempt (including retries and repair requests) holds one permit while it is on
the wire and releases it while backing off. Outside a run there is no limit
beyond the caller's own.

The limiter is the run context's ``limiter`` (:mod:`agent_evaluators.run_context`), so that tasks
spawned by the runner inherit it without every evaluator having to thread it through its signature.
"""

import asyncio
import contextlib
from collections import deque
from typing import Deque, Iterator, Optional

from ..run_context import FieldView, Limiter, current, scoped

#: the run context's ``limiter`` with a ``ContextVar``'s interface (the name it had as one)
judge_limiter: "FieldView[Optional[Limiter]]" = FieldView("limiter")


class _Slot:
    """``async with judge_slot():`` as a plain class: entered once per HTTP attempt, so it avoids
    the generator machinery of ``asynccontextmanager`` (a measurable share of a judge call's CPU)."""

    __slots__ = ("_limiter",)

    async def __aenter__(self) -> None:
        limiter = self._limiter = current().limiter
        if limiter is not None and not take_free_permit(limiter):
            await limiter.acquire()

    async def __aexit__(self, *exc: object) -> None:
        if self._limiter is not None:
            self._limiter.release()


def take_free_permit(limiter: Limiter) -> bool:
    """Take a permit of ``limiter`` without waiting if it can give one so (:meth:`Permits.try_acquire`;
    a limiter without that method, the Ray engine's, is always awaited)."""
    take = getattr(limiter, "try_acquire", None)
    return take is not None and take()  # type: ignore[no-any-return]


def judge_slot() -> _Slot:
    """Hold one permit of the current run's judge budget (no-op outside a run)."""
    return _Slot()


def report_throttle(wait_s: Optional[float]) -> None:
    """The judge answered 429: tell the current run's limiter, if it cares.

    A limiter with a ``throttled(wait_s)`` method (the Ray engine's cluster-wide one)
    pauses new requests of every worker for that long; a plain semaphore ignores it.
    ``wait_s`` is the server's ``Retry-After`` in seconds, or ``None`` when it gave none.
    """
    hook = getattr(current().limiter, "throttled", None)
    if hook is not None:
        hook(wait_s)


@contextlib.contextmanager
def use_judge_limiter(limiter: Optional[Limiter]) -> Iterator[Optional[Limiter]]:
    """Install ``limiter`` as the judge budget for code run inside this block (a run installs its
    limiter with the rest of its context: :mod:`agent_evaluators.run_context`)."""
    with scoped(limiter=limiter):
        yield limiter


class Permits:
    """``max_concurrency`` permits, handed out in the order they were asked for, like ``asyncio.Semaphore``;
    with :meth:`try_acquire`, which takes a free one without a coroutine.

    Every judge HTTP attempt takes a permit: through ``asyncio.Semaphore`` that was a coroutine (and,
    in its ``locked()``, a generator) per attempt even with permits free, the commonest case. A
    released permit goes straight to the oldest waiter, so a newcomer's :meth:`try_acquire` never
    overtakes one waiting; a waiter cancelled after it was handed one passes it on.
    """

    __slots__ = ("_free", "_waiters")

    def __init__(self, permits: int) -> None:
        if permits < 0:
            raise ValueError("permits must be >= 0")
        self._free = permits
        self._waiters: Deque["asyncio.Future[None]"] = deque()

    def locked(self) -> bool:
        """No permit can be taken now without waiting."""
        return self._free == 0 or bool(self._waiters)

    def try_acquire(self) -> bool:
        """Take a permit if one is free and nobody waits for one; ``False`` (nothing taken) otherwise."""
        if self._free and not self._waiters:
            self._free -= 1
            return True
        return False

    async def acquire(self) -> bool:
        if self.try_acquire():
            return True
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # handed a permit, then cancelled: pass it on
                self.release()
            raise
        return True

    def release(self) -> None:
        waiters = self._waiters
        while waiters:
            waiter = waiters.popleft()
            if not waiter.done():  # a cancelled waiter's future is done: skipped
                waiter.set_result(None)  # the permit goes to it directly: the free count stays
                return
        self._free += 1


def new_limiter(max_concurrency: int) -> Permits:
    """The judge budget of one process: ``max_concurrency`` permits (checked where the user set it, by the
    run option table's check)."""
    return Permits(max_concurrency)
