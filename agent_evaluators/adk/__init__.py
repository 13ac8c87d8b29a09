"""Google ADK evaluation files and criteria: models, loaders, ``test_config.json``,
``evaluate_invocations`` (ADK's evaluator entry shape) and an ``adk eval``-like runner.

::

    from agent_evaluators.adk import load_eval_set, evaluate_invocations, run_eval_sets

    eval_set = load_eval_set("home_automation/simple.test.json")      # any ADK shape, legacy included
    result = evaluate_invocations("tool_trajectory_avg_score", actual, expected,
                                  criterion={"threshold": 1.0, "match_type": "IN_ORDER"})
    result.score, result.status, result.per_invocation_scores

Names are imported lazily so that ``import agent_evaluators.adk`` stays cheap.
"""

from importlib import import_module
from typing import Any

_LAZY = {
    # models
    "EvalSet": "models", "EvalCase": "models", "Invocation": "models", "IntermediateData": "models",
    "InvocationEvents": "models", "InvocationEvent": "models", "SessionInput": "models", "Rubric": "models",
    "Content": "models", "Part": "models", "FunctionCall": "models", "FunctionResponse": "models",
    "ConversationScenario": "models", "AppDetails": "models",
    # files
    "load_eval_set": "loading", "parse_eval_set": "loading",
    # config
    "EvalConfig": "config", "Criterion": "config", "MatchType": "config", "JudgeModelOptions": "config",
    "load_eval_config": "config", "parse_eval_config": "config", "find_config_for": "config",
    "default_eval_config": "config", "parse_criterion": "config",
    # conversion
    "iter_rows": "convert", "user_text": "convert", "final_response_text": "convert", "tool_calls": "convert",
    "intermediate_responses": "convert", "tool_results": "convert", "content_text": "convert",
    # metrics
    "evaluate_invocations": "metrics", "aevaluate_invocations": "metrics", "InvocationsResult": "metrics",
    "MetricSpec": "metrics", "METRICS": "metrics", "register_metric": "metrics",
    # results and runner
    "EvalStatus": "results", "EvalCaseResult": "results", "EvalSetResult": "results",
    "run_eval_sets": "runner", "arun_eval_sets": "runner", "load_actual_invocations": "runner", "main": "runner",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'agent_evaluators.adk' has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list:
    return sorted(__all__)
