"""azure-ai-evaluation 1.18's judge-backed agent evaluators, on our judge and engine.

Each class is our evaluator with 1.18's meaning and row (:class:`._adapter.AzureShaped`):

* :class:`IntentResolutionEvaluator`, :class:`ResponseCompletenessEvaluator`: the top-level
  declarations (same templates, 1–5, threshold 3), with 1.18's intermediate-response rule;
* :class:`TaskAdherenceEvaluator`: 1.18's 0/1 "material failure" metric (its own declaration and
  template, ``prompty/azure_task_adherence.prompty``): pass only at a score of 1; azure reports
  a threshold of 3 and ignores ``threshold=``, and so does this class (azure's behaviour);
* :class:`ToolCallAccuracyEvaluator`: 1.18's 1–5 metric (threshold 3, ``gpt_tool_call_accuracy``,
  ``_properties`` with the per-tool details), ``prompty/azure_tool_call_accuracy.prompty``.
"""

from typing import Any, Dict, List, Literal, Mapping

from pydantic import BaseModel, ConfigDict

from ..evaluators import agent as _top
from ..evaluators.declared import (
    CalibrationCases,
    DeclaredJudgeEvaluator,
    FinalText,
    Messages,
    NotApplicable,
    Text,
    ToolCallsInput,
    ToolDefinitionsInput,
)
from ..evaluators.inputs import judge_messages, require_messages
from ._adapter import INTERMEDIATE_REASON, AzureShaped, is_intermediate_response
from ._tools import judged_calls, require_definitions

__all__ = [
    "IntentResolutionEvaluator",
    "ResponseCompletenessEvaluator",
    "TaskAdherenceEvaluator",
    "ToolCallAccuracyEvaluator",
]


def _check_answered(given: Mapping[str, Any]) -> None:
    """1.18's not-applicable rule for a response whose agent has not answered yet."""
    if is_intermediate_response(given.get("response")):
        raise NotApplicable(INTERMEDIATE_REASON)


class IntentResolutionEvaluator(AzureShaped, _top.IntentResolutionEvaluator):
    """1.18's ``IntentResolutionEvaluator``: 1–5, threshold 3, key ``intent_resolution``.

    Inputs ``query``, ``response`` (text or messages, azure's agent format included), optional
    ``tool_definitions``, or ``conversation=`` (per turn, 1.18's ``evaluation_per_turn``).
    ``not_applicable`` for an intermediate response (1.18's rule: it ends in a pending
    ``function_call``); a response ending in an azure ``tool_call`` item is judged, as in azure.
    """

    inputs = (Messages("query", "user"), Messages("response", "assistant"), ToolDefinitionsInput())

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        _check_answered(given)
        return super().judge_inputs(given)


class ResponseCompletenessEvaluator(AzureShaped, _top.ResponseCompletenessEvaluator):
    """1.18's ``ResponseCompletenessEvaluator``: 1–5, threshold 3, key ``response_completeness``;
    inputs ``response`` and ``ground_truth``."""

    inputs = (FinalText("response"), Text("ground_truth"))

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        _check_answered(given)
        return super().judge_inputs(given)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MaterialFailureVerdict(_Strict):
    """A reason, then 1 (no material failure) or 0. A choice, not a bounded integer: strict
    structured output drops ``minimum``/``maximum``, an ``enum`` it keeps."""

    reason: str
    score: Literal[1, 0]


class TaskAdherenceEvaluator(AzureShaped, DeclaredJudgeEvaluator):
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
    inputs = (Messages("query", "user"), Messages("response", "assistant"), ToolDefinitionsInput())
    verdict_model = MaterialFailureVerdict
    calibration_cases = CalibrationCases(
        good={"query": "query+system", "response": "answer", "tool_definitions": "tools"},
        bad={"query": "query+system", "response": "violation", "tool_definitions": "tools"},
        why_bad="the response breaks the rule in the system message")

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        _check_answered(given)
        return super().judge_inputs(given)


# ---------------------------------------------------------------------------- tool call accuracy
class PerToolDetail(_Strict):
    tool_name: str
    total_calls_required: int
    correct_calls_made_by_agent: int
    correct_tool_percentage: float
    tool_call_errors: int
    tool_success_result: str


class ExcessCount(_Strict):
    tool_name: str
    excess_count: int


class MissingCount(_Strict):
    tool_name: str
    missing_count: int


class ExcessCalls(_Strict):
    total: int
    details: List[ExcessCount]


class MissingCalls(_Strict):
    total: int
    details: List[MissingCount]


class ToolCallAccuracyEvaluator(AzureShaped, DeclaredJudgeEvaluator):
    """1.18's ``ToolCallAccuracyEvaluator``: the agent's tool calls as a whole, 1–5.

    Key ``tool_call_accuracy`` (and the legacy ``gpt_tool_call_accuracy``); threshold 3; inputs
    ``query``, ``tool_definitions``, and ``tool_calls`` or ``response`` (calls in the response win,
    as in 1.18; a plain-text response without calls is judged as the calls' text).
    ``_properties`` carry ``tool_calls_made_by_agent``, ``correct_tool_calls_made_by_agent``,
    ``per_tool_call_details``, ``excess_tool_calls`` and ``missing_tool_calls``.
    ``not_applicable`` without a judge call (1.18's reasons): no tool calls; a called tool with no
    definition that is not a known built-in tool. No definitions at all is an ``InputError`` (1.18
    refuses the call too).
    """

    result_key = "tool_call_accuracy"
    legacy_alias = "gpt_tool_call_accuracy"
    default_threshold = 3
    score_scale = (1.0, 5.0)
    template_name = "azure_tool_call_accuracy.prompty"
    inputs = (
        Messages("query", "user"),
        ToolDefinitionsInput(),
        ToolCallsInput("tool_calls", optional=True),
        Messages("response", "assistant", optional=True),
    )
    verdict_name = "ToolCallsVerdict"
    verdict_fields = {
        "tool_calls_made_by_agent": (int, "How many tool calls the agent made"),
        "correct_tool_calls_made_by_agent": (int, "How many of them were correct"),
        "per_tool_call_details": (List[PerToolDetail], "Per tool called: calls required, correct, errors"),
        "excess_tool_calls": (ExcessCalls, "Calls that were not needed, per tool"),
        "missing_tool_calls": (MissingCalls, "Calls that were needed but not made, per tool"),
    }
    calibration_cases = CalibrationCases(
        good={"query": "query+system", "tool_calls": "tool_calls:call", "tool_definitions": "tools"},
        bad={"query": "query+system", "tool_calls": "tool_calls:bad_call", "tool_definitions": "tools"},
        why_bad="the tool or its argument values do not fit the request")

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        from ..conversation import builtin_tool_definition

        query_json, _ = judge_messages(self, given.get("query"), "query", "user")
        given_definitions = require_definitions(self, given)
        definitions = {d.name: d.model_dump(exclude_none=True) for d in given_definitions}
        calls = judged_calls(self, given, given_definitions)
        if calls is None:
            return {"query": query_json, "tool_calls": given["response"], "tool_definitions": list(definitions.values())}
        for call in calls:
            builtin = None if call.name in definitions else builtin_tool_definition(call.name)
            if builtin is not None:
                definitions[call.name] = builtin.model_dump(exclude_none=True)
        results = _tool_results(self, given.get("response"))
        rendered = [{"name": c.name, "arguments": c.arguments,
                     **({"result": results[c.id]} if c.id and c.id in results else {})} for c in calls]
        return {"query": query_json, "tool_calls": rendered, "tool_definitions": list(definitions.values())}


def _tool_results(evaluator: Any, response: Any) -> Dict[str, Any]:
    """The tool results in a message-list response, by call id (shown to the judge beside each call)."""
    if response is None or isinstance(response, str):
        return {}
    return {m.tool_call_id: m.tool_result if m.tool_result is not None else m.content
            for m in require_messages(evaluator, response, "response", "assistant") if m.role == "tool" and m.tool_call_id}
