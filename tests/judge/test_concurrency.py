"""Every HTTP attempt holds one permit of the run's judge budget, and gives it back while backing off."""

import asyncio

from agent_evaluators._util.concurrency import new_limiter, use_judge_limiter
from agent_evaluators.judge import get_judge_client
from agent_evaluators.testing import JudgeServer, Reply

from .conftest import MESSAGES, Verdict


def test_budget_bounds_requests_in_flight():
    async def go(server):
        judge = get_judge_client(server.openai_config())
        with use_judge_limiter(new_limiter(3)):
            replies = await asyncio.gather(*[judge.complete(MESSAGES + [{"role": "user", "content": str(i)}],
                                                            output_model=Verdict) for i in range(12)])
        return replies

    with JudgeServer(lambda req: {"score": 3, "reason": req.last_user_text}, delay_s=0.1) as server:
        replies = asyncio.run(go(server))
        stats = server.stats()
    assert sorted(r.data.reason for r in replies) == sorted(str(i) for i in range(12))
    assert stats["requests"] == 12
    assert stats["max_in_flight"] == 3


def test_permit_is_released_while_waiting_to_retry():
    def responder(req):
        if req.last_user_text == "A" and sum(r.last_user_text == "A" for r in server.requests) == 1:
            return Reply(content="slow down", status=429, headers={"retry-after-ms": "400"})
        return {"score": 3, "reason": req.last_user_text}

    async def go():
        judge = get_judge_client(server.openai_config())
        with use_judge_limiter(new_limiter(1)):
            a = asyncio.ensure_future(judge.complete([{"role": "user", "content": "A"}], output_model=Verdict))
            await asyncio.sleep(0.1)
            b = await judge.complete([{"role": "user", "content": "B"}], output_model=Verdict)
            return await a, b

    with JudgeServer(responder) as server:
        a, b = asyncio.run(go())
        order = [r.last_user_text for r in server.requests]
    assert order == ["A", "B", "A"]  # B went through during A's back-off
    assert a.usage["attempts"] == 2 and b.usage["attempts"] == 1


def test_64_judge_calls_in_flight_without_a_budget():
    async def go(server):
        judge = get_judge_client(server.openai_config())
        await asyncio.gather(*[judge.complete(MESSAGES, output_model=Verdict, sample_index=i) for i in range(64)])

    with JudgeServer(delay_s=0.5) as server:
        asyncio.run(go(server))
        assert server.stats()["max_in_flight"] == 64


# ------------------------------------------------------------------ the permits themselves

from agent_evaluators._util.concurrency import Permits  # noqa: E402


def test_permits_go_to_waiters_in_order_and_a_newcomer_does_not_overtake():
    async def go():
        permits = Permits(1)
        assert permits.try_acquire() and not permits.try_acquire() and permits.locked()
        order = []

        async def worker(name):
            await permits.acquire()
            order.append(name)
            await asyncio.sleep(0.01)
            permits.release()

        tasks = [asyncio.create_task(worker(n)) for n in "abc"]
        await asyncio.sleep(0)  # all three wait
        permits.release()  # handed to "a" directly: nothing is free for a newcomer meanwhile
        assert not permits.try_acquire()
        await asyncio.gather(*tasks)
        return order, permits.try_acquire(), permits.try_acquire()

    order, first, second = asyncio.run(go())
    assert order == ["a", "b", "c"]
    assert (first, second) == (True, False)  # one permit, back where it started


def test_a_cancelled_waiter_loses_nothing():
    async def go():
        permits = Permits(1)
        await permits.acquire()
        waiting = asyncio.create_task(permits.acquire())
        handed = asyncio.create_task(permits.acquire())
        behind = asyncio.create_task(permits.acquire())
        await asyncio.sleep(0)
        waiting.cancel()  # cancelled while waiting: skipped by the next release
        await asyncio.sleep(0)
        permits.release()  # goes to "handed" ...
        handed.cancel()  # ... which is cancelled before it runs: the permit passes on to "behind"
        results = await asyncio.wait_for(asyncio.gather(waiting, handed, behind, return_exceptions=True), 2)
        permits.release()  # "behind" gives it back
        return [type(r).__name__ if isinstance(r, BaseException) else r for r in results], permits.try_acquire()

    results, free_again = asyncio.run(go())
    assert results == ["CancelledError", "CancelledError", True]
    assert free_again


def test_permits_bound_concurrency_under_churn():
    async def go():
        permits = Permits(4)
        inside = peak = 0

        async def one(i):
            nonlocal inside, peak
            await permits.acquire()
            inside += 1
            peak = max(peak, inside)
            await asyncio.sleep(0.001 * (i % 3))
            inside -= 1
            permits.release()

        await asyncio.gather(*(one(i) for i in range(200)))
        return peak, [permits.try_acquire() for _ in range(5)]

    peak, takes = asyncio.run(go())
    assert peak == 4
    assert takes == [True, True, True, True, False]
