"""Retry classification, backoff bounds and Retry-After parsing."""

import email.utils
import random
import time

from agent_evaluators.judge.retry import backoff_delay, is_retryable_status, retry_after_seconds


def test_retryable_statuses():
    assert all(is_retryable_status(s) for s in (408, 429, 500, 502, 503, 504))
    assert not any(is_retryable_status(s) for s in (400, 401, 403, 404, 409, 422))


def test_backoff_is_full_jitter_and_capped():
    rng = random.Random(1)
    for attempt in range(1, 12):
        ceiling = min(30.0, 0.5 * 2 ** (attempt - 1))
        samples = [backoff_delay(attempt, rng) for _ in range(200)]
        assert all(0 <= s <= ceiling for s in samples)
        assert max(samples) > ceiling * 0.8  # the whole range is used


def test_retry_after_forms():
    assert retry_after_seconds({"retry-after-ms": "250"}) == 0.25
    assert retry_after_seconds({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert retry_after_seconds({"retry-after": "3"}) == 3.0
    assert retry_after_seconds({"retry-after": "3600"}) == 60.0  # capped
    date = email.utils.formatdate(time.time() + 5, usegmt=True)
    assert 3.0 <= retry_after_seconds({"retry-after": date}) <= 5.0
    assert retry_after_seconds({"retry-after": "soon"}) is None
    assert retry_after_seconds({}) is None and retry_after_seconds(None) is None
