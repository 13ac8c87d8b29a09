"""Fixtures for the agents tests: the real local judge server (see tests/evaluators/conftest.py)."""

import asyncio  # noqa: E402
import functools  # noqa: E402
from typing import Any, Callable, Coroutine  # noqa: E402

from ..evaluators.conftest import block  # noqa: F401  (re-exported helper)


def aio(fn: Callable[..., Coroutine[Any, Any, Any]]) -> Callable[..., Any]:
    """Run an async test function in a fresh event loop (the suite has no asyncio plugin)."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        return asyncio.run(fn(*args, **kwargs))

    return run
