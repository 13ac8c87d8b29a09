"""Batch evaluation: ``evaluate()`` / ``evaluate_async()`` over JSONL, CSV, ADK files or iterables.

See :func:`evaluate` for the arguments, :class:`EvaluationResult` for what comes
back, :mod:`.store` for the ``rows.jsonl`` / ``summary.json`` files and
:mod:`.aggregate` for how metrics are computed.
"""

import sys
import types
from typing import Any

from .callables import blocking
from .readers import RowError, register_reader
from .result import EvaluationResult
from .runner import EvaluatorErrors, evaluate, evaluate_async

__all__ = [
    "evaluate",
    "evaluate_async",
    "blocking",
    "EvaluationResult",
    "EvaluatorErrors",
    "register_reader",
    "RowError",
]


class _CallableModule(types.ModuleType):
    """``agent_evaluators.evaluate`` is both this package and the function.

    Importing the package makes Python set ``agent_evaluators.evaluate`` to the
    module, replacing the lazily exported function of the same name; so the module
    itself forwards calls to :func:`evaluate`, and both spellings keep working.
    """

    def __call__(self, **kwargs: Any) -> EvaluationResult:
        return evaluate(**kwargs)


sys.modules[__name__].__class__ = _CallableModule
