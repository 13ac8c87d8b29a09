"""The per-call timeout: our expiry is a CallTimeout, anything else keeps its own meaning.

``call_with_timeout`` runs for every cell, so it uses one timer instead of ``asyncio.timeout``;
these cases pin the rules it must share with ``asyncio.timeout``.
"""

import asyncio
import sys
from typing import Any

import pytest

from agent_evaluators.runner.callables import make_invoker
from agent_evaluators.runner.cells import CallTimeout, call_with_timeout

pytestmark = pytest.mark.skipif(sys.version_info < (3, 11), reason="Task.cancelling() is Python 3.11+")


def _invoker(fn: Any) -> Any:
    return make_invoker(fn)


async def slow(x: int) -> Any:
    await asyncio.sleep(5)
    return {"x": x}


async def fast(x: int) -> Any:
    await asyncio.sleep(0)
    return {"x": x}


async def raises_its_own_timeout(x: int) -> Any:
    raise TimeoutError("the evaluator's own deadline")


async def swallows_cancellation(x: int) -> Any:
    try:
        await asyncio.sleep(5)
    except asyncio.CancelledError:
        pass
    return {"x": x, "swallowed": True}


def test_expiry_is_a_call_timeout_and_leaves_no_cancel_request() -> None:
    async def go() -> int:
        with pytest.raises(CallTimeout):
            await call_with_timeout(_invoker(slow), {"x": 1}, 0.05)
        task = asyncio.current_task()
        assert task is not None
        return task.cancelling()

    assert asyncio.run(go()) == 0


def test_a_fast_call_returns_and_its_timer_is_gone() -> None:
    async def go() -> Any:
        out = await call_with_timeout(_invoker(fast), {"x": 2}, 30)
        loop = asyncio.get_running_loop()
        live = [h for h in loop._scheduled if not h.cancelled()]  # type: ignore[attr-defined]
        return out, live

    out, live = asyncio.run(go())
    assert out == {"x": 2} and live == []


def test_the_callables_own_timeout_error_is_not_ours() -> None:
    with pytest.raises(TimeoutError, match="own deadline") as info:
        asyncio.run(call_with_timeout(_invoker(raises_its_own_timeout), {"x": 3}, 30))
    assert not isinstance(info.value, CallTimeout)


def test_a_cancellation_from_outside_stays_a_cancellation() -> None:
    async def go() -> None:
        inner = asyncio.create_task(call_with_timeout(_invoker(slow), {"x": 4}, 30))
        await asyncio.sleep(0.05)
        inner.cancel()
        with pytest.raises(asyncio.CancelledError):
            await inner

    asyncio.run(go())


def test_an_outside_cancel_landing_with_the_expiry_stays_a_cancellation() -> None:
    async def go() -> None:
        inner = asyncio.create_task(call_with_timeout(_invoker(slow), {"x": 5}, 0.05))
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, inner.cancel)  # same moment as the expiry
        with pytest.raises(asyncio.CancelledError):
            await inner

    asyncio.run(go())


def test_a_callable_that_swallows_the_cancel_keeps_its_result() -> None:
    async def go() -> Any:
        out = await call_with_timeout(_invoker(swallows_cancellation), {"x": 6}, 0.05)
        task = asyncio.current_task()
        assert task is not None
        return out, task.cancelling()

    assert asyncio.run(go()) == ({"x": 6, "swallowed": True}, 0)
