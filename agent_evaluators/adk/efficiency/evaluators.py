"""ADK's informational efficiency metrics as ``evaluate()`` evaluators, on any conversation.

``tool_call_count_v1``, ``inference_call_count_v1``, ``token_usage_v1`` and
``invocation_duration_v1`` (registry names ``tool_call_count``, ``inference_call_count``,
``token_usage``, ``invocation_duration``) read a ``response``: chat messages whose assistant
messages carry ``usage`` (OpenAI) or ``usage_metadata`` (genai/ADK) and timestamps, or ADK
invocations. The numbers are ADK's (:mod:`agent_evaluators.adk.efficiency`): per turn, averaged
over turns, ``None`` when unknown (never 0).

They never pass or fail: ``<key>_result`` is ``"informational"`` and ``<key>_threshold``
``None``; a threshold is a :class:`~agent_evaluators.errors.ConfigError`, as in ADK, so a run
config cannot gate on a number that was never meant to be a verdict.
"""

from typing import Any, ClassVar, Dict, List, Optional, Union

from ...evaluators.base import Evaluator, Outcome
from . import INFERENCE_CALL_COUNT, INVOCATION_DURATION, TOKEN_USAGE, TOOL_CALL_COUNT, compute, from_any, reject_threshold

#: the ``<key>_result`` of a metric that reports a value and never passes or fails
INFORMATIONAL = "informational"

ResponseInput = Union[List[Any], Dict[str, Any]]


class _EfficiencyEvaluator(Evaluator):
    """One efficiency metric over a conversation; subclasses name the metric."""

    result_key: ClassVar[str] = ""
    default_threshold = None  # type: ignore[assignment]  # informational: never a verdict
    unit: ClassVar[str] = ""

    def __init__(self, *, threshold: Optional[float] = None) -> None:
        reject_threshold(self.result_key, threshold, where=type(self).__name__)
        self.threshold = None  # type: ignore[assignment]

    def _evaluate(self, *, response: ResponseInput) -> Outcome:
        turns = from_any(response, input_name="response")
        result = compute(self.result_key, turns)
        details: Dict[str, Any] = {"status": "INFORMATIONAL", "per_invocation": result.per_turn}
        if result.overall_details is not None:
            name = "token_usage_details" if self.result_key == TOKEN_USAGE else "duration_details"
            details[name] = result.overall_details
            details[f"per_invocation_{name}"] = result.per_turn_details
        known = sum(v is not None for v in result.per_turn)
        reason = (f"{self.unit} per turn, averaged over {known} of {len(turns)} turn(s)" if result.overall is not None
                  else f"not available: no turn of {len(turns)} reported it")
        return Outcome(result.overall, reason=reason, details=details, not_applicable=result.overall is None)

    def _finish(self, outcome: Outcome) -> Dict[str, Any]:
        key = self.result_key
        return {key: outcome.score, f"{key}_result": INFORMATIONAL, f"{key}_threshold": None,
                f"{key}_reason": outcome.reason, f"{key}_details": outcome.details}


class ToolCallCountEvaluator(_EfficiencyEvaluator):
    """Tool calls per turn (ADK's ``tool_call_count_v1``): how much the agent leaned on tools."""

    result_key = TOOL_CALL_COUNT
    unit = "tool calls"


class InferenceCallCountEvaluator(_EfficiencyEvaluator):
    """Model calls per turn (ADK's ``inference_call_count_v1``): reasoning steps the agent took."""

    result_key = INFERENCE_CALL_COUNT
    unit = "model calls"


class TokenUsageEvaluator(_EfficiencyEvaluator):
    """Tokens per turn (ADK's ``token_usage_v1``), with every token type in the details."""

    result_key = TOKEN_USAGE
    unit = "tokens"


class InvocationDurationEvaluator(_EfficiencyEvaluator):
    """Seconds per turn (ADK's ``invocation_duration_v1``), split into model, tool and framework time."""

    result_key = INVOCATION_DURATION
    unit = "seconds"
