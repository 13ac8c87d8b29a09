"""agent-evaluators: evaluators for LLM agents.

The public API is listed in ``__all__``. Names are imported lazily so that
``import agent_evaluators`` stays fast (the ``openai`` client and the runner are
only loaded when first used).
"""

from importlib import import_module
from typing import Any

from .errors import AgentEvalError, ConfigError, InputError, JudgeError

__version__ = "0.1.0"

# public name -> module that defines it
_LAZY = {
    "Evaluator": "agent_evaluators.evaluators.base",
    "Outcome": "agent_evaluators.evaluators.base",
    "evaluate": "agent_evaluators.runner",
    "evaluate_async": "agent_evaluators.runner",
    "blocking": "agent_evaluators.runner",
    "EvaluationResult": "agent_evaluators.runner",
    "JudgeEvaluator": "agent_evaluators.evaluators.judge_base",
    "PromptyEvaluator": "agent_evaluators.evaluators.judge_base",
    "IntentResolutionEvaluator": "agent_evaluators.evaluators.agent",
    "ResponseCompletenessEvaluator": "agent_evaluators.evaluators.agent",
    "TaskAdherenceEvaluator": "agent_evaluators.evaluators.agent",
    "ToolCallAccuracyEvaluator": "agent_evaluators.evaluators.agent",
    "ToolTrajectoryEvaluator": "agent_evaluators.evaluators.trajectory",
    "ResponseMatchEvaluator": "agent_evaluators.evaluators.response_match",
    "FinalResponseMatchEvaluator": "agent_evaluators.evaluators.adk_judges",
    "RubricBasedFinalResponseQualityEvaluator": "agent_evaluators.evaluators.adk_judges",
    "RubricBasedToolUseQualityEvaluator": "agent_evaluators.evaluators.adk_judges",
    "HallucinationEvaluator": "agent_evaluators.evaluators.adk_judges",
    "SafetyEvaluator": "agent_evaluators.evaluators.adk_judges",
    "TrajectoryJudgeEvaluator": "agent_evaluators.evaluators.trajectory_judge",
    "AnswerSimilarityEvaluator": "agent_evaluators.evaluators.answer_similarity",
    "RubricEvaluator": "agent_evaluators.evaluators.rubric",
}

__all__ = ["AgentEvalError", "ConfigError", "InputError", "JudgeError", "__version__", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'agent_evaluators' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list:
    return sorted(__all__)
