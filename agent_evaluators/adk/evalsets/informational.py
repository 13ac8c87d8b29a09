"""ADK's efficiency metrics as :class:`~.criteria.InvocationsResult`: a value per invocation and
their average, status ``INFORMATIONAL`` throughout, the token and duration breakdowns in the
details (where ADK's result file keeps them: ``token_usage_details`` / ``duration_details``)."""

from typing import Any, Dict, List, Sequence

from ..efficiency import compute, from_invocations
from ..models import Invocation
from .metric_outcome import INFORMATIONAL, InvocationScore, InvocationsResult, _score_dict


def breakdown_key(metric: str) -> str:
    """Where a metric's breakdown lives in ADK's ``EvalMetricResultDetails``."""
    return "token_usage_details" if metric.startswith("token_usage") else "duration_details"


def informational_result(metric: str, actual: Sequence[Invocation]) -> InvocationsResult:
    """``metric`` over a case's invocations, as ADK's ``_efficiency_evaluators`` report it."""
    result = compute(metric, from_invocations(actual))
    per: List[InvocationScore] = []
    for i, value in enumerate(result.per_turn):
        breakdown = None
        if result.per_turn_details is not None:
            breakdown = {breakdown_key(metric): result.per_turn_details[i]}
        per.append(InvocationScore(value, INFORMATIONAL, "" if value is not None else "not available", breakdown))
    known = sum(v is not None for v in result.per_turn)
    details: Dict[str, Any] = {
        "reason": (f"informational: the average over {known} of {len(per)} invocation(s)" if result.overall is not None
                   else "informational: not available for any invocation"),
        "per_invocation": [_score_dict(p) for p in per],
    }
    if result.overall_details is not None:
        details[breakdown_key(metric)] = result.overall_details
    return InvocationsResult(metric, result.overall, INFORMATIONAL, list(result.per_turn), None, None, per, details)
