"""A finished run's results sent out (``otel``, ``mlflow``), whichever entry point ran it.

``evaluate()``, ``evaluate_async()`` and ``evaluate_ray()`` all end here, so a run option that
sends results behaves the same whatever started the run: a dry run sends nothing (nothing was
evaluated), and with ``fail_on_evaluator_errors`` the saved results go out before the error is
raised.
"""

import asyncio
from typing import Awaitable, Callable

from ..export import publish
from .ledger import EvaluatorErrors
from .options import RunOptions
from .result import EvaluationResult

__all__ = ["run_and_publish", "run_and_publish_async"]


def run_and_publish(options: RunOptions, run: Callable[[], EvaluationResult]) -> EvaluationResult:
    """``run()``, then its result published as ``options`` ask."""
    if options.values["dry_run"]:
        return run()
    try:
        result = run()
    except EvaluatorErrors as exc:
        publish(exc.result, options.values)
        raise
    publish(result, options.values)
    return result


async def run_and_publish_async(options: RunOptions, run: Callable[[], Awaitable[EvaluationResult]]) -> EvaluationResult:
    """:func:`run_and_publish` for a run on the caller's event loop: sending (blocking exporters)
    happens in a worker thread, so the loop stays free."""
    if options.values["dry_run"]:
        return await run()
    loop = asyncio.get_running_loop()
    try:
        result = await run()
    except EvaluatorErrors as exc:
        await loop.run_in_executor(None, publish, exc.result, options.values)
        raise
    await loop.run_in_executor(None, publish, result, options.values)
    return result
