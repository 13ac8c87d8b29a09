"""agent-evaluators: evaluators for LLM agents.

The public API is listed in ``__all__``. Names are imported lazily so that
``import agent_evaluators`` stays fast (the ``openai`` client and the runner are
only loaded when first used). The evaluator classes come from the one evaluator
registry (:mod:`agent_evaluators.registry`); this module names no evaluator itself.
"""

from typing import Dict

from ._util import legacy_paths
from ._util.lazy import lazy_exports
from .errors import AgentEvalError, BudgetExhausted, ConfigError, EvaluatorErrors, InputError, JudgeError, RunInterrupted
from .registry import ENTRIES as _ENTRIES

__version__ = "0.1.0"

legacy_paths.install()  # module paths from before the core-and-wings layout, for one release

# public name -> module that defines it: the run API and the bases, then every registered evaluator
_LAZY: Dict[str, str] = {
    "Evaluator": "agent_evaluators.evaluators.base",
    "Outcome": "agent_evaluators.evaluators.base",
    "evaluate": "agent_evaluators.runner",
    "evaluate_async": "agent_evaluators.runner",
    "blocking": "agent_evaluators.runner",
    "EvaluationResult": "agent_evaluators.runner",
    "JudgeEvaluator": "agent_evaluators.evaluators.judge_base",
    "PromptyEvaluator": "agent_evaluators.evaluators.judge_base",
    **{entry.class_name: entry.module for entry in _ENTRIES},
}
# importable names that are not evaluators, the run API or a base: kept out of ``__all__``, which is
# exactly those (tests/test_registry.py)
_ALSO: Dict[str, str] = {
    "RougeType": "agent_evaluators.evaluators.nlp.rouge",  # RougeScoreEvaluator's argument, as in azure
}

#: the exception tree (``agent_evaluators/errors.py`` draws it), then the version and the lazy names
__all__ = ["AgentEvalError", "ConfigError", "InputError", "JudgeError", "BudgetExhausted", "EvaluatorErrors",
           "RunInterrupted", "__version__", *_LAZY]

__getattr__, __dir__ = lazy_exports(__name__, {**_LAZY, **_ALSO}, globals())
