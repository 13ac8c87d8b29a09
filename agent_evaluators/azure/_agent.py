"""azure-ai-evaluation 1.18's judge-backed answer metrics, on our judge and engine.

Each class is our evaluator with 1.18's meaning and row (:class:`._adapter.AzureShaped`):

* :class:`IntentResolutionEvaluator`, :class:`ResponseCompletenessEvaluator`: the top-level
  declarations (same templates, 1–5, threshold 3), with 1.18's intermediate-response rule;
* :class:`TaskAdherenceEvaluator`: 1.18's 0/1 "material failure" metric (its own declaration and
  template, ``prompty/azure_task_adherence.prompty``): pass only at a score of 1; azure reports
  a threshold of 3 and ignores ``threshold=``, and so does this class (azure's behaviour);
* :class:`TaskCompletionEvaluator`: the top-level 0/1 declaration; pass at 1, reported threshold 3
  unless ``threshold=`` is given (then that number is reported, and still not used: azure's behaviour).

The tool metrics are in :mod:`._tool_metrics`.
"""

from typing import Any, Dict, Mapping

from ..evaluators import agent as _top
from ..evaluators import task_completion as _completion
from ..evaluators.declared import (
    CalibrationCases,
    DeclaredJudgeEvaluator,
    FinalText,
    Messages,
    NotApplicable,
    Text,
    ToolDefinitionsInput,
)
from ._adapter import INTERMEDIATE_REASON, AzureShaped, is_intermediate_response

__all__ = [
    "IntentResolutionEvaluator",
    "ResponseCompletenessEvaluator",
    "TaskAdherenceEvaluator",
    "TaskCompletionEvaluator",
    "Answered",
    "check_answered",
]

#: query, response and optional definitions, the response judged even when it ends in a tool call
#: (1.18 skips only a pending ``function_call``, checked by :func:`check_answered`)
ANSWER_INPUTS = (Messages("query", "user"), Messages("response", "assistant"), ToolDefinitionsInput())


def check_answered(given: Mapping[str, Any]) -> None:
    """1.18's not-applicable rule for a response whose agent has not answered yet."""
    if is_intermediate_response(given.get("response")):
        raise NotApplicable(INTERMEDIATE_REASON)


class Answered(AzureShaped):
    """:class:`AzureShaped` plus 1.18's intermediate-response rule, checked before our inputs are read."""

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        check_answered(given)
        return super().judge_inputs(given)  # type: ignore[misc]


class IntentResolutionEvaluator(Answered, _top.IntentResolutionEvaluator):
    """1.18's ``IntentResolutionEvaluator``: 1–5, threshold 3, key ``intent_resolution``.

    Inputs ``query``, ``response`` (text or messages, azure's agent format included), optional
    ``tool_definitions``, or ``conversation=`` (per turn, 1.18's ``evaluation_per_turn``).
    ``not_applicable`` for an intermediate response (1.18's rule: it ends in a pending
    ``function_call``); a response ending in an azure ``tool_call`` item is judged, as in azure.
    """

    inputs = ANSWER_INPUTS


class ResponseCompletenessEvaluator(Answered, _top.ResponseCompletenessEvaluator):
    """1.18's ``ResponseCompletenessEvaluator``: 1–5, threshold 3, key ``response_completeness``;
    inputs ``response`` and ``ground_truth``."""

    inputs = (FinalText("response"), Text("ground_truth"))


class TaskAdherenceEvaluator(Answered, DeclaredJudgeEvaluator):
    """1.18's ``TaskAdherenceEvaluator``: did the run have a material failure? 0 or 1.

    Key ``task_adherence``; inputs ``query`` (the system message with the agent's instructions,
    and the user's request), ``response``, optional ``tool_definitions``, or ``conversation=``.
    The judge defaults to 1 and gives 0 only for a material failure. Passes only at 1.
    ``task_adherence_threshold`` reads 3 and ``threshold=`` changes nothing: azure-ai-evaluation
    1.18 does not pass the threshold on, and a drop-in keeps its numbers.
    """

    result_key = "task_adherence"
    default_threshold = 0
    reported_threshold = 3
    pass_mark = 1.0
    score_scale = (0.0, 1.0)
    template_name = "azure_task_adherence.prompty"
    conversation_turn_inputs = ("query", "response")
    inputs = ANSWER_INPUTS
    verdict_name = "MaterialFailureVerdict"
    calibration_cases = CalibrationCases(
        good={"query": "query+system", "response": "answer", "tool_definitions": "tools"},
        bad={"query": "query+system", "response": "violation", "tool_definitions": "tools"},
        why_bad="the response breaks the rule in the system message")


class TaskCompletionEvaluator(Answered, _completion.TaskCompletionEvaluator):
    """1.18's ``_TaskCompletionEvaluator``: was the user's task completed? 0 or 1, pass at 1.

    Key ``task_completion``; inputs ``query``, ``response``, optional ``tool_definitions``, or
    ``conversation=``. ``task_completion_threshold`` reads 3, or the ``threshold=`` given; either
    way the row passes only at 1 (azure 1.18 reports the threshold and does not use it).
    """

    default_threshold = 3
    pass_mark = 1.0
    inputs = ANSWER_INPUTS
