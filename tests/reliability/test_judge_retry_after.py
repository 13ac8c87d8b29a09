"""Item 21.16 (Retry-After part): an unusable or tiny ``Retry-After`` cannot switch backoff off.

On the old client ``Retry-After: -30`` (clamped to 0) or ``0.000001`` was obeyed as is: five
attempts in 0.16 s against a server that had just said it was overloaded. Now such a value
is ignored and the normal exponential backoff applies; a usable value is still obeyed.
"""

import asyncio
import random
import time

import aiohttp  # noqa: F401 - imported here, not inside the first timed call
import pytest
from pydantic import BaseModel

from agent_evaluators.errors import JudgeError
from agent_evaluators.judge import get_judge_client
from agent_evaluators.judge.retry import backoff_delay, retry_after_seconds
from agent_evaluators.testing import JudgeServer, Reply

MESSAGES = [{"role": "user", "content": "Grade: 2+2=4"}]


class Verdict(BaseModel):
    reason: str
    score: int


ATTEMPTS = 3
SEED = 7


def _backoff(seed: int) -> float:
    rng = random.Random(seed)
    return sum(backoff_delay(attempt, rng) for attempt in range(1, ATTEMPTS))


def _attempts_and_time(header: dict, seed: int = SEED) -> "tuple[int, float]":
    with JudgeServer(lambda req: Reply(status=429, content="slow down", headers=header)) as server:
        judge = get_judge_client(dict(server.openai_config(), max_attempts=ATTEMPTS))
        judge._rng = random.Random(seed)  # the backoff's jitter, reproducible
        start = time.perf_counter()
        with pytest.raises(JudgeError) as info:
            asyncio.run(judge.complete(MESSAGES, output_model=Verdict))
        elapsed = time.perf_counter() - start
        assert server.stats()["requests"] == ATTEMPTS
    return info.value.attempts, elapsed


@pytest.mark.parametrize("header", [{"retry-after": "-30"}, {"retry-after": "0.000001"}, {"retry-after-ms": "0"}])
def test_a_useless_retry_after_falls_back_to_backoff(header):
    backoff = _backoff(SEED)
    assert backoff > 0.3  # the seed gives a wait worth measuring
    attempts, elapsed = _attempts_and_time(header)
    assert attempts == ATTEMPTS
    assert elapsed >= backoff * 0.95, (elapsed, backoff)  # the old client: ~0.01 s in all


def test_a_usable_retry_after_is_still_obeyed():
    seed = 2
    assert _backoff(seed) > 1.2  # what the backoff would have waited with this seed
    attempts, elapsed = _attempts_and_time({"retry-after-ms": "20"}, seed)
    assert attempts == ATTEMPTS and 0.04 <= elapsed < 1.0, elapsed  # two waits of 20 ms, not the backoff
    assert retry_after_seconds({"retry-after": "nan"}) is None and retry_after_seconds({"retry-after": "inf"}) is None
    assert retry_after_seconds({"retry-after": "-30"}) is None
    assert retry_after_seconds({"retry-after": "0.000001"}) is None
    assert retry_after_seconds({"retry-after": "1.5"}) == 1.5
