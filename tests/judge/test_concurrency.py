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
