"""A judge request's timeout on Python 3.11+: one shared deadline per timeout, not aiohttp's timer per request.

:meth:`AiohttpTransport.fetch` gives aiohttp no timeout of its own and times the exchange with
:mod:`agent_evaluators._util.deadlines` (the mechanism the run's cells use). These cases pin what
must not change with it: an exchange past its timeout is a ``TransportTimeout`` that leaves the
task with no cancel request, a cancellation from outside stays one, a request timeout nested in a
cell timeout and the other way round each keep their own meaning, and many requests in flight
share one event-loop timer.
"""

import asyncio
import sys
from typing import Any, Dict

import pytest

from agent_evaluators.judge.endpoint import resolve_config
from agent_evaluators.judge.transport import AiohttpTransport, TransportTimeout
from agent_evaluators.runner.callables import make_invoker
from agent_evaluators.runner.cells import CallTimeout, call_with_timeout
from agent_evaluators.testing import ChatRequest, JudgeServer, Reply

pytestmark = pytest.mark.skipif(sys.version_info < (3, 11), reason="Task.cancelling() is Python 3.11+")

BODY: Dict[str, Any] = {"model": "judge-model", "messages": [{"role": "user", "content": "grade this"}]}
VERDICT = {"score": 4, "reason": "fine"}


def slow_then_fast(req: ChatRequest) -> Any:
    """Slow for a request that says "slow" in its text, at once for the others."""
    return Reply(content=VERDICT, delay_s=2.0) if "slow" in req.text else VERDICT


def _body(text: str) -> Dict[str, Any]:
    return dict(BODY, messages=[{"role": "user", "content": text}])


async def _close(transport: AiohttpTransport) -> None:
    if transport._session is not None:
        await transport._session.close()


def test_a_request_past_its_timeout_is_a_transport_timeout_and_leaves_no_cancel_request() -> None:
    with JudgeServer(slow_then_fast) as server:
        transport = AiohttpTransport(resolve_config(server.openai_config()))

        async def go() -> Any:
            with pytest.raises(TransportTimeout, match=r"within the 0\.2 s timeout"):
                await transport.send(_body("slow please"), None, 0.2)
            task = asyncio.current_task()
            assert task is not None
            after = await transport.send(_body("fast"), None, 0.2)  # the session and the deadlines still work
            await _close(transport)
            return task.cancelling(), after

        cancelling, after = asyncio.run(go())
    assert cancelling == 0
    assert after["choices"][0]["message"]["content"]


def test_a_cancellation_from_outside_stays_a_cancellation() -> None:
    with JudgeServer(slow_then_fast) as server:
        transport = AiohttpTransport(resolve_config(server.openai_config()))

        async def go() -> None:
            request = asyncio.create_task(transport.send(_body("slow please"), None, 30))
            await asyncio.sleep(0.2)
            request.cancel()
            with pytest.raises(asyncio.CancelledError):
                await request
            await _close(transport)

        asyncio.run(go())


def test_a_request_timeout_inside_a_longer_cell_timeout_is_the_requests() -> None:
    with JudgeServer(slow_then_fast) as server:
        transport = AiohttpTransport(resolve_config(server.openai_config()))

        async def judge(text: str) -> Any:
            try:
                return await transport.send(_body(text), None, 0.2)
            except TransportTimeout as e:
                return {"transport_timeout": str(e)}

        async def go() -> Any:
            out = await call_with_timeout(make_invoker(judge), {"text": "slow please"}, 30)
            task = asyncio.current_task()
            assert task is not None
            await _close(transport)
            return out, task.cancelling()

        out, cancelling = asyncio.run(go())
    assert "0.2 s timeout" in out["transport_timeout"] and cancelling == 0


def test_a_cell_timeout_shorter_than_the_request_timeout_is_the_cells() -> None:
    with JudgeServer(slow_then_fast) as server:
        transport = AiohttpTransport(resolve_config(server.openai_config()))

        async def judge(text: str) -> Any:
            return await transport.send(_body(text), None, 30)  # a TransportTimeout here would be wrong

        async def go() -> int:
            with pytest.raises(CallTimeout):
                await call_with_timeout(make_invoker(judge), {"text": "slow please"}, 0.2)
            task = asyncio.current_task()
            assert task is not None
            await _close(transport)
            return task.cancelling()

        assert asyncio.run(go()) == 0


def test_requests_in_flight_share_one_timer() -> None:
    def held(req: ChatRequest) -> Any:
        return Reply(content=VERDICT, delay_s=0.5)

    with JudgeServer(held) as server:
        transport = AiohttpTransport(resolve_config(server.openai_config()))

        async def go() -> Any:
            loop = asyncio.get_running_loop()
            requests = [asyncio.create_task(transport.send(_body(f"row {i}"), None, 30)) for i in range(40)]
            await asyncio.sleep(0.25)  # all 40 sent, none answered
            timers = [h for h in loop._scheduled if not h.cancelled()]  # type: ignore[attr-defined]
            replies = await asyncio.gather(*requests)
            left = [h for h in loop._scheduled if not h.cancelled()]  # type: ignore[attr-defined]
            await _close(transport)
            return timers, replies, left

        timers, replies, left = asyncio.run(go())
        assert server.stats()["max_in_flight"] == 40
    # aiohttp's own timeout would have one timer per request in flight
    assert len(timers) <= 2, timers
    assert len(replies) == 40 and all(r["choices"] for r in replies)
    assert not [h for h in left if getattr(h, "_callback", None) and "_expire" in repr(h._callback)]
