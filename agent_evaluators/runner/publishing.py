"""A finished run's results sent out (``otel``, ``mlflow``), whichever entry point ran it.

``evaluate()``, ``evaluate_async()`` and ``evaluate_ray()`` all end here, so a run option that
sends results behaves the same whatever started the run: a dry run sends nothing (nothing was
evaluated), and with ``fail_on_evaluator_errors`` the saved results go out before the error is
raised.

The senders live in the interfaces layer (:mod:`agent_evaluators.export`); each option names its
sender in the option table (``RunOption.sink``), resolved here by name only when the option is on,
so the engine imports no layer above it and a run without the switches imports neither package.
A sender that fails costs a warning, never the results on disk or the run's exit status.
"""

import asyncio
import importlib
import logging
from typing import Awaitable, Callable, Dict, List, Set

from .ledger import EvaluatorErrors
from .option_table import RUN_OPTIONS
from .options import RunOptions
from .result import EvaluationResult
from .run_settings import RunSettings

logger = logging.getLogger("agent_evaluators.export")


class PartlySent(Exception):
    """A sink sent some parts of a run and not others: what went (``sent``) and what did not, with why
    (``missing``: part -> reason), so the warning says both instead of "could not be sent"."""

    def __init__(self, sent: List[str], missing: Dict[str, str]) -> None:
        super().__init__(f"sent {', '.join(sent) or 'nothing'}; not sent: "
                         + "; ".join(f"{part} ({why})" for part, why in missing.items()))
        self.sent, self.missing = sent, missing


def publish(result: EvaluationResult, settings: RunSettings) -> None:
    """Send ``result`` to every sink whose run option is on in ``settings``; a failure is logged, not raised."""
    called: Set[str] = set()  # two options may name one sink (certification, require_certified): it runs once
    for option in RUN_OPTIONS:
        if option.sink and option.sink not in called and getattr(settings, option.name):  # otel, mlflow, ...
            called.add(option.sink)
            module, function = option.sink.split(":")
            try:
                getattr(importlib.import_module(module), function)(result)
            except PartlySent as exc:
                logger.warning("%s: %s; the run folder holds them all", option.name, exc)
            except Exception as exc:  # a destination failing must not fail a run whose files are written
                logger.warning("%s: the results could not be sent (%s: %s); the run folder holds them all",
                               option.name, type(exc).__name__, exc)


def run_and_publish(options: RunOptions, run: Callable[[], EvaluationResult]) -> EvaluationResult:
    """``run()``, then its result published as ``options`` ask."""
    if options.settings.dry_run:
        return run()
    try:
        result = run()
    except EvaluatorErrors as exc:
        publish(exc.result, options.settings)
        raise
    publish(result, options.settings)
    return result


async def run_and_publish_async(options: RunOptions, run: Callable[[], Awaitable[EvaluationResult]]) -> EvaluationResult:
    """:func:`run_and_publish` for a run on the caller's event loop: sending (blocking exporters)
    happens in a worker thread, so the loop stays free."""
    if options.settings.dry_run:
        return await run()
    loop = asyncio.get_running_loop()
    try:
        result = await run()
    except EvaluatorErrors as exc:
        await loop.run_in_executor(None, publish, exc.result, options.settings)
        raise
    await loop.run_in_executor(None, publish, result, options.settings)
    return result
