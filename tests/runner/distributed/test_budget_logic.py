"""The cluster budget's logic without Ray (fast, default suite).

:class:`JudgeBudget` is a plain class and :class:`ClusterLimiter` only needs
``actor.method.remote(...)`` to return an awaitable, so here several limiters ("workers")
share one budget object on one event loop through a stand-in for a Ray actor handle.
The Ray tests (test_engine.py, test_faults.py) run the same code across processes.
"""

import asyncio
import random
import time

import pytest

from agent_evaluators._util.concurrency import judge_slot, report_throttle, use_judge_limiter
from agent_evaluators.ray_engine import ClusterLimiter, JudgeBudget


class _Method:
    def __init__(self, fn):
        self.fn = fn

    def remote(self, *args, **kwargs):
        return asyncio.ensure_future(self.fn(*args, **kwargs))  # like an ObjectRef: awaitable, or ignored


class FakeHandle:
    """``handle.method.remote(...)`` as a Ray actor handle offers it."""

    def __init__(self, budget: JudgeBudget) -> None:
        self._budget = budget

    def __getattr__(self, name):
        return _Method(getattr(self._budget, name))


def test_many_workers_never_exceed_the_budget_and_use_it_all():
    async def main():
        budget = JudgeBudget(7)
        handle = FakeHandle(budget)
        in_flight = peak = done = 0

        async def request(rng):
            nonlocal in_flight, peak, done
            async with judge_slot():
                in_flight += 1
                peak = max(peak, in_flight)
                await asyncio.sleep(rng.uniform(0.001, 0.01))
                in_flight -= 1
                done += 1

        async def worker(seed):
            limiter = await ClusterLimiter(handle, f"w{seed}").start()
            rng = random.Random(seed)
            with use_judge_limiter(limiter):
                tasks = [asyncio.ensure_future(request(rng)) for _ in range(60)]
                # cancellation while waiting for a permit must not leak the permit
                await asyncio.sleep(0.005)
                tasks[-1].cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
            await limiter.close()
            return limiter

        limiters = await asyncio.gather(*(worker(s) for s in range(5)))
        stats = await budget.stats()
        return peak, done, stats, limiters

    peak, done, stats, limiters = asyncio.run(main())
    assert peak == 7  # the budget holds across workers, and is used
    assert done >= 5 * 59
    assert stats["leased"] == 0 and stats["available"] == 7 and stats["workers"] == 0
    assert sum(l.local_handoffs for l in limiters) > 0  # permits passed on without a round trip


def test_a_late_lease_after_leave_grants_nothing():
    async def main():
        budget = JudgeBudget(1)
        await budget.lease("a", 1)
        waiting = asyncio.ensure_future(budget.lease("b", 1))  # b waits: no permit is free
        await asyncio.sleep(0.01)
        await budget.leave("b")  # b gave up (its shard ended) while its lease waited
        await budget.give("a", 1)
        granted = await waiting
        await budget.poll("b")  # a late heartbeat does not bring b back
        return granted, await budget.stats()

    granted, stats = asyncio.run(main())
    assert granted[0] == 0
    assert stats["available"] == 1 and stats["workers"] == 1  # only a is registered


def test_a_silent_worker_is_reaped_and_its_permits_reused():
    async def main():
        budget = JudgeBudget(3, expire_s=0.4)
        await budget.lease("dead", 3)  # then never heard of again (a killed process)
        dead_waiting = asyncio.ensure_future(budget.lease("dead", 1))  # its last call, still pending
        alive = await ClusterLimiter(FakeHandle(budget), "alive").start()  # polls every 0.1 s
        t0 = time.monotonic()
        await alive.acquire()
        await alive.acquire()
        waited = time.monotonic() - t0
        stats = await budget.stats()
        alive.release()
        alive.release()
        await alive.close()
        return waited, stats, await dead_waiting

    waited, stats, dead_granted = asyncio.run(main())
    assert 0.4 <= waited < 3
    assert stats["reaped"] == 1 and stats["leased"] == 2 and stats["workers"] == 1
    assert dead_granted[0] == 0  # the dead worker's pending lease got nothing


def test_throttle_pauses_other_workers_leases_and_handoffs():
    async def main():
        budget = JudgeBudget(4)
        handle = FakeHandle(budget)
        a = await ClusterLimiter(handle, "a").start()
        b = await ClusterLimiter(handle, "b", poll_s=0.02).start()
        await b.acquire()  # b holds a permit it will hand on locally
        with use_judge_limiter(a):
            report_throttle(0.4)  # what the judge client does on a 429 (Retry-After 0.4 s)
        await asyncio.sleep(0.05)  # b's poll hears of the pause
        t0 = time.monotonic()
        waiter = asyncio.ensure_future(b.acquire())
        await asyncio.sleep(0.01)
        b.release()  # no local hand-off during the pause
        await waiter
        waited = time.monotonic() - t0
        b.release()
        await a.close()
        await b.close()
        return waited, await budget.stats()

    waited, stats = asyncio.run(main())
    assert waited >= 0.3
    assert stats["throttles"] == 1 and stats["leased"] == 0


def test_report_throttle_is_a_no_op_for_a_plain_semaphore():
    async def main():
        with use_judge_limiter(asyncio.Semaphore(2)):
            report_throttle(5.0)
            async with judge_slot():
                return True

    assert asyncio.run(main())


def test_zero_capacity_is_refused_where_the_user_sets_it_before_any_budget_is_made():
    """The cluster budget's capacity is the run's max_concurrency, checked once by the option table's check
    (RunSettings): a Ray run with 0 fails with that one message before Ray is even imported."""
    from agent_evaluators import evaluate
    from agent_evaluators.errors import ConfigError

    with pytest.raises(ConfigError, match="^max_concurrency must be a positive integer, got 0$") as caught:
        evaluate(data=[{"response": "a"}], evaluators={"e": lambda **kw: 1}, engine="ray", max_concurrency=0)
    assert caught.value.option == "max_concurrency"
