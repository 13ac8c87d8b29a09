"""When to retry a judge request and how long to wait.

One retry layer only (the ``openai`` client's own retries are off): transient
failures (429, 408, 5xx, timeouts, dropped connections) are retried with
exponential backoff and full jitter; the server's ``retry-after-ms`` /
``Retry-After`` wins when it gives one, capped so a bad header cannot stall a run.
Other 4xx are the caller's mistake and are never retried.
"""

import email.utils
import random
import time
from typing import Mapping, Optional

__all__ = ["BASE_DELAY_S", "MAX_BACKOFF_S", "MAX_RETRY_AFTER_S", "is_retryable_status", "backoff_delay",
           "retry_after_seconds"]

BASE_DELAY_S = 0.5
MAX_BACKOFF_S = 30.0
MAX_RETRY_AFTER_S = 60.0


def is_retryable_status(status: int) -> bool:
    return status in (408, 429) or status >= 500


def backoff_delay(attempt: int, rng: "random.Random | None" = None) -> float:
    """Full-jitter exponential backoff after the ``attempt``-th failure (1-based)."""
    ceiling = min(MAX_BACKOFF_S, BASE_DELAY_S * (2 ** max(0, attempt - 1)))
    return (rng or random).uniform(0, ceiling)


def retry_after_seconds(headers: Optional[Mapping[str, str]]) -> Optional[float]:
    """The server-requested wait from ``retry-after-ms`` or ``Retry-After`` (seconds or an
    HTTP date), capped at 60 s; ``None`` when absent or unreadable."""
    if not headers:
        return None
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            value = float(ms) / 1000.0
            if value >= 0:
                return min(value, MAX_RETRY_AFTER_S)
        except ValueError:
            pass
    ra = headers.get("retry-after")
    if ra is None:
        return None
    try:
        value = float(ra)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(ra)
        except (TypeError, ValueError):
            return None
        if when is None:
            return None
        value = when.timestamp() - time.time()
    return min(max(0.0, value), MAX_RETRY_AFTER_S)
