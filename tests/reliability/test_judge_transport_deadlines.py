"""Deadlines and unreachable endpoints (items 14.8, 14.9), over real sockets.

Each fails on the old client: its per-read timeout let a judge trickling one byte at a time
hold an attempt open indefinitely, and every call to a dead endpoint spent all its attempts
and backoff (200 calls to a closed port took minutes).
"""

import asyncio
import socket
import time

import pytest
from pydantic import BaseModel, Field

from agent_evaluators.errors import JudgeError
from agent_evaluators.judge import get_judge_client
from agent_evaluators.judge.circuit import FAILURES_TO_OPEN, Circuit, reset_circuits
from agent_evaluators.testing import JudgeServer, Reply, schema_reply

MESSAGES = [{"role": "user", "content": "Grade: 2+2=4"}]


class Verdict(BaseModel):
    reason: str
    score: int = Field(ge=1, le=5)


@pytest.fixture(autouse=True)
def _fresh_circuits():
    reset_circuits()
    yield
    reset_circuits()


def _closed_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens: connections are refused
    return port


def test_a_trickling_judge_cannot_outlive_the_attempt_deadline():
    # 14.8: the per-attempt timeout is a total deadline, not a per-read one
    with JudgeServer(lambda req: Reply(content=schema_reply(req), trickle_s=0.3)) as server:
        judge = get_judge_client(dict(server.openai_config(), timeout=1.5, max_attempts=1))
        start = time.perf_counter()
        with pytest.raises(JudgeError) as info:
            asyncio.run(judge.complete(MESSAGES, output_model=Verdict))
        elapsed = time.perf_counter() - start
    assert elapsed < 6.0, elapsed  # 1.5 s deadline plus slack for a loaded machine; the old client: ~90 s
    assert "1.5 s timeout" in str(info.value) and "raise timeout" in str(info.value)


def test_an_unreachable_endpoint_fails_fast_after_a_few_connection_failures():
    # 14.9: after 5 consecutive connection failures, later requests fail without a network attempt
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    judge = get_judge_client({"model": "m", "base_url": url})

    async def go():
        errors = []
        for _ in range(200):
            try:
                await judge.complete(MESSAGES, output_model=Verdict)
            except JudgeError as e:
                errors.append(e)
        return errors

    start = time.perf_counter()
    errors = asyncio.run(go())
    elapsed = time.perf_counter() - start
    assert len(errors) == 200
    assert sum(e.attempts for e in errors) <= FAILURES_TO_OPEN + 2
    assert elapsed < 20, elapsed  # the old client: ~3.75 s of backoff per call, ~12 min in all
    first, last = errors[0], errors[-1]
    assert f"is the server running at {url}?" in str(first) and "max_concurrency" not in str(first)
    assert "unreachable" in str(last) and url in str(last) and "server is running" in str(last)
    assert last.attempts == 0


def test_a_success_resets_the_count_and_statuses_do_not_count():
    # 14.9: only consecutive connection failures open the circuit; a success resets it
    circuit = Circuit()
    for _ in range(FAILURES_TO_OPEN - 1):
        circuit.failed("refused")
    circuit.succeeded()
    for _ in range(FAILURES_TO_OPEN - 1):
        circuit.failed("refused")
    assert circuit.allow()
    circuit.failed("refused")
    assert not circuit.allow()

    with JudgeServer(lambda req: Reply(status=503, content="down")) as server:
        judge = get_judge_client(dict(server.openai_config(), max_attempts=2))
        for _ in range(4):  # 8 HTTP failures from a live server: no fail-fast
            with pytest.raises(JudgeError) as info:
                asyncio.run(judge.complete(MESSAGES, output_model=Verdict))
            assert info.value.attempts == 2
        assert server.stats()["requests"] == 8


def test_rate_limit_advice_names_max_concurrency():
    # 14.9: the final error's advice matches the failure (429 -> lower max_concurrency)
    with JudgeServer(lambda req: Reply(status=429, content="slow down", headers={"retry-after-ms": "1"})) as server:
        judge = get_judge_client(dict(server.openai_config(), max_attempts=2))
        with pytest.raises(JudgeError) as info:
            asyncio.run(judge.complete(MESSAGES, output_model=Verdict))
    assert "max_concurrency" in str(info.value) and "server running" not in str(info.value)
