"""A custom metric for the sample, in ADK's ``custom_metrics`` form (``test_config.json`` names it
by ``code_config.name = "samples.adk_agent.metrics.answered_every_turn"``,
resolved from the checkout's root).

ADK calls it with the metric (its threshold set to ``None``; the configured one is on
``eval_metric.criterion``), the agent's invocations, the expected ones and the scenario, and
reads back an ``EvaluationResult``. The same function runs from ``agent-eval run -e
samples.adk_agent.metrics:answered_every_turn`` over rows holding ``actual_invocations``.
"""

from google.adk.evaluation.evaluator import EvalStatus, EvaluationResult, PerInvocationResult


def answered_every_turn(eval_metric, actual_invocations, expected_invocations, conversation_scenario):
    """1.0 for an invocation whose final response has text, 0.0 otherwise; the case passes when the
    mean reaches the configured threshold."""
    del expected_invocations, conversation_scenario  # reference-free
    threshold = eval_metric.criterion.threshold if eval_metric.criterion else 1.0
    per = []
    for invocation in actual_invocations:
        parts = invocation.final_response.parts if invocation.final_response else []
        score = 1.0 if any(p.text for p in parts or []) else 0.0
        per.append(PerInvocationResult(actual_invocation=invocation, score=score,
                                       eval_status=EvalStatus.PASSED if score >= threshold else EvalStatus.FAILED))
    if not per:
        return EvaluationResult()
    overall = sum(p.score for p in per) / len(per)
    return EvaluationResult(overall_score=overall, per_invocation_results=per,
                            overall_eval_status=EvalStatus.PASSED if overall >= threshold else EvalStatus.FAILED)
