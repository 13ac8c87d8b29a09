"""The per-call timeout: our expiry is a CallTimeout, anything else keeps its own meaning.

``call_with_timeout`` runs for every cell, so the calls under one timeout share one timer
(:mod:`agent_evaluators.runner.deadlines`) instead of ``asyncio.timeout``'s timer each;
these cases pin the rules it must share with ``asyncio.timeout``, and the sharing.
"""

import asyncio
import sys
from typing import Any

import pytest

from agent_evaluators.runner.callables import make_invoker
from agent_evaluators.runner.cells import CallTimeout, call_with_timeout
from agent_evaluators.runner.deadlines import Deadlines

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


def _live_timers(loop: Any, deadlines_only: bool = False) -> int:
    return sum(1 for h in loop._scheduled if not h.cancelled()  # type: ignore[attr-defined]
               and (not deadlines_only or isinstance(getattr(h._callback, "__self__", None), Deadlines)))


def test_concurrent_calls_share_one_timer_and_each_keeps_its_own_deadline() -> None:
    async def sleeper(x: int, s: float) -> Any:
        await asyncio.sleep(s)
        return {"x": x}

    async def go() -> Any:
        loop = asyncio.get_running_loop()
        inv = _invoker(sleeper)
        started = []
        # calls under one timeout, started 20 ms apart; the ones sleeping past their own deadline expire
        for i in range(6):
            started.append(asyncio.create_task(call_with_timeout(inv, {"x": i, "s": 0.3 if i % 2 else 0.01}, 0.15)))
            await asyncio.sleep(0.02)
        timers_while_running = _live_timers(loop, deadlines_only=True)
        outcomes = await asyncio.gather(*started, return_exceptions=True)
        return outcomes, timers_while_running, _live_timers(loop)

    outcomes, timers_while_running, timers_after = asyncio.run(go())
    assert [type(o).__name__ if isinstance(o, BaseException) else o["x"] for o in outcomes] == \
        [0, "CallTimeout", 2, "CallTimeout", 4, "CallTimeout"]
    assert timers_while_running == 1  # three calls still in flight, one deadline timer
    assert timers_after == 0


def test_a_later_call_is_not_expired_with_an_earlier_one() -> None:
    async def go() -> Any:
        first = asyncio.create_task(call_with_timeout(_invoker(slow), {"x": 7}, 0.1))
        await asyncio.sleep(0.08)
        second = asyncio.create_task(call_with_timeout(_invoker(fast_after), {"x": 8, "s": 0.05}, 0.1))
        return await asyncio.gather(first, second, return_exceptions=True)

    async def fast_after(x: int, s: float) -> Any:
        await asyncio.sleep(s)  # ends 130 ms in: after the first call's deadline, before its own
        return {"x": x}

    first, second = asyncio.run(go())
    assert isinstance(first, CallTimeout)
    assert second == {"x": 8}


def test_calls_on_two_loops_and_two_timeouts_keep_apart() -> None:
    async def both(timeout: float) -> Any:  # under one timeout: the slow call expires, the fast one returns
        return await asyncio.gather(call_with_timeout(_invoker(slow), {"x": 9}, timeout),
                                    call_with_timeout(_invoker(fast), {"x": 10}, timeout), return_exceptions=True)

    async def mixed() -> Any:  # two timeouts on one loop: each call keeps its own
        return await asyncio.gather(call_with_timeout(_invoker(fast_later), {"x": 11}, 30.0),
                                    call_with_timeout(_invoker(slow), {"x": 12}, 0.05), return_exceptions=True)

    async def fast_later(x: int) -> Any:
        await asyncio.sleep(0.1)  # past the other call's deadline, well within its own
        return {"x": x}

    for _ in range(2):  # a new loop each time: the deadlines of the last one are not reused
        slow_out, fast_out = asyncio.run(both(0.05))
        assert isinstance(slow_out, CallTimeout) and fast_out == {"x": 10}
    long_out, short_out = asyncio.run(mixed())
    assert long_out == {"x": 11} and isinstance(short_out, CallTimeout)


def test_finished_runs_leave_no_event_loop_behind() -> None:
    import gc

    def loops() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, asyncio.AbstractEventLoop))

    before = loops()
    for i in range(5):  # a run per loop, as evaluate() makes one per call from sync code
        asyncio.run(call_with_timeout(_invoker(fast), {"x": i}, 30))
    assert loops() <= before
