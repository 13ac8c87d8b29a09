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
from typing import Iterator, Optional

from ..run_context import FieldView, Limiter, current, scoped

#: the run context's ``limiter`` with a ``ContextVar``'s interface (the name it had as one)
judge_limiter: "FieldView[Optional[Limiter]]" = FieldView("limiter")


class _Slot:
    """``async with judge_slot():`` as a plain class: entered once per HTTP attempt, so it avoids
    the generator machinery of ``asynccontextmanager`` (a measurable share of a judge call's CPU)."""

    __slots__ = ("_limiter",)

    async def __aenter__(self) -> None:
        limiter = self._limiter = current().limiter
        if limiter is not None:
            await limiter.acquire()

    async def __aexit__(self, *exc: object) -> None:
        if self._limiter is not None:
            self._limiter.release()


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


def new_limiter(max_concurrency: int) -> asyncio.Semaphore:
    """The judge budget of one process: ``max_concurrency`` permits (checked where the user set it, by the
    run option table's check)."""
    return asyncio.Semaphore(max_concurrency)
