"""When to retry a judge request and how long to wait.

One retry layer only (the ``openai`` client's own retries are off): transient
failures (429, 408, 5xx, timeouts, dropped connections) are retried with
exponential backoff and full jitter; the server's ``retry-after-ms`` /
``Retry-After`` wins when it gives a usable one, capped so a bad header cannot stall a run.
A negative, zero, non-finite or tiny value (``-30``, ``0.000001``: below
``MIN_RETRY_AFTER_S``) is no usable answer: it would turn every retry into an
immediate hammering of a server that just said it is overloaded, so the normal
backoff applies instead.
Other 4xx are the caller's mistake and are never retried.
"""

import email.utils
import math
import random
import time
from typing import Mapping, Optional

BASE_DELAY_S = 0.5
MAX_BACKOFF_S = 30.0
MAX_RETRY_AFTER_S = 60.0
#: a server-requested wait shorter than this is ignored (the normal backoff applies)
MIN_RETRY_AFTER_S = 0.01


def is_retryable_status(status: int) -> bool:
    return status in (408, 429) or status >= 500


def backoff_delay(attempt: int, rng: "random.Random | None" = None) -> float:
    """Full-jitter exponential backoff after the ``attempt``-th failure (1-based)."""
    ceiling = min(MAX_BACKOFF_S, BASE_DELAY_S * (2 ** max(0, attempt - 1)))
    return (rng or random).uniform(0, ceiling)


def _usable(value: float) -> Optional[float]:
    if not math.isfinite(value) or value < MIN_RETRY_AFTER_S:
        return None
    return min(value, MAX_RETRY_AFTER_S)


def retry_after_seconds(headers: Optional[Mapping[str, str]]) -> Optional[float]:
    """The server-requested wait from ``retry-after-ms`` or ``Retry-After`` (seconds or an
    HTTP date), capped at 60 s; ``None`` when absent, unreadable, negative, zero or below
    ``MIN_RETRY_AFTER_S`` (a date in the past included): the caller then backs off as usual."""
    if not headers:
        return None
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            value = _usable(float(ms) / 1000.0)
            if value is not None:
                return value
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
    return _usable(value)
