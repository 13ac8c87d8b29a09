"""Google ADK evaluation files: models, loaders, ``test_config.json``, conversion and result files.

This package is the data model only (no judge, no CLI). Scoring lives in
:mod:`agent_evaluators.adk.evalsets`; its public names (``evaluate_invocations``,
``run_eval_sets`` ...) are re-exported here by name, imported on first use.

::

    from agent_evaluators.adk import load_eval_set, evaluate_invocations, run_eval_sets, AgentEvaluator

    eval_set = load_eval_set("home_automation/simple.test.json")      # any ADK shape, legacy included
    result = evaluate_invocations("tool_trajectory_avg_score", actual, expected,
                                  criterion={"threshold": 1.0, "match_type": "IN_ORDER"})
    result.score, result.status, result.per_invocation_scores

Names are imported lazily so that ``import agent_evaluators.adk`` stays cheap.
"""


from .._util.lazy import lazy_exports

_LAZY = {
    # models
    "EvalSet": "models", "EvalCase": "models", "Invocation": "models", "IntermediateData": "models",
    "InvocationEvents": "models", "InvocationEvent": "models", "SessionInput": "models", "Rubric": "models",
    "Content": "models", "Part": "models", "FunctionCall": "models", "FunctionResponse": "models",
    "ConversationScenario": "models", "AppDetails": "models",
    # files
    "load_eval_set": "loading", "parse_eval_set": "loading",
    # config
    "EvalConfig": "eval_config", "Criterion": "eval_config", "MatchType": "eval_config",
    "JudgeModelOptions": "eval_config", "UserSimulatorConfig": "eval_config", "load_eval_config": "eval_config",
    "parse_eval_config": "eval_config", "find_config_for": "eval_config", "default_eval_config": "eval_config",
    "parse_criterion": "eval_config",
    # conversion
    "iter_rows": "convert", "user_text": "convert", "final_response_text": "convert", "tool_calls": "convert",
    "intermediate_responses": "convert", "tool_results": "convert", "content_text": "convert",
    "load_actual_invocations": "actual",
    # results
    "EvalStatus": "results", "EvalCaseResult": "results", "EvalSetResult": "results",
    # scoring (agent_evaluators.adk.evalsets)
    "evaluate_invocations": "evalsets.criteria", "aevaluate_invocations": "evalsets.criteria",
    "InvocationsResult": "evalsets.criteria", "MetricSpec": "evalsets.criteria", "METRICS": "evalsets.criteria",
    "register_metric": "evalsets.criteria",
    "run_eval_sets": "evalsets.runner", "arun_eval_sets": "evalsets.runner",
    # running agents (google-adk is imported only when an agent runs)
    "AgentEvaluator": "agent_evaluator",
    "load_agent": "agent_runner", "run_case": "agent_runner", "run_invocations": "agent_runner",
    "agent_producer": "agent_runner", "CaseRun": "agent_runner",
}
#: names this face had that now live elsewhere: importable for one more release, with a warning
_MOVED = {"main": "agent_evaluators.cli.eval_sets"}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals(), moved=_MOVED)
