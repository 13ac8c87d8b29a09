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

from typing import Any, Dict, List, Mapping, Tuple

from ..errors import InputError
from ..evaluators import agent as _top
from ..evaluators import task_completion as _completion
from ..evaluators.declared import (
    CalibrationCases,
    DeclaredJudgeEvaluator,
    FinalText,
    InputSpec,
    Messages,
    NotApplicable,
    Text,
    ToolDefinitionsInput,
)
from . import _properties
from ._adapter import INTERMEDIATE_REASON, AzureShaped, is_intermediate_response

#: query, response and optional definitions, the response judged even when it ends in a tool call
#: (1.18 skips only a pending ``function_call``, checked by :func:`check_answered`)
ANSWER_INPUTS = (Messages("query", "user"), Messages("response", "assistant"), ToolDefinitionsInput())


def check_answered(given: Mapping[str, Any]) -> None:
    """1.18's not-applicable rule for a response whose agent has not answered yet."""
    if is_intermediate_response(given.get("response")):
        raise NotApplicable(INTERMEDIATE_REASON)


class TableText(InputSpec):
    """An input 1.18 renders into its prompt as it comes (``str(value)`` in its template), so a number, a
    list, or the NaN a pandas-read table gives for an absent column (the text ``nan``) is judged, and
    ``""`` too (1.18 checks only for ``None``); text and messages are read as ``inner`` reads them.
    ``None`` stays a missing input."""

    def __init__(self, inner: InputSpec) -> None:
        super().__init__(inner.name, optional=inner.optional)
        self.inner = inner
        self.annotation = Any

    def prepare(self, evaluator: Any, value: Any) -> Any:
        if isinstance(value, bool) or value is None:
            return self.inner.prepare(evaluator, value)
        if isinstance(value, (int, float)):
            return str(value)
        if value == "":  # 1.18 checks only for None
            return value
        if isinstance(self.inner, Text):
            return value if isinstance(value, str) else str(value)
        return self.inner.prepare(evaluator, value)


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
    inputs ``response`` and ``ground_truth``, or ``conversation=`` (1.18's pairing: the n-th user
    message with the n-th assistant message, each assistant message carrying its ``ground_truth``;
    one row per turn, then 1.18's ``evaluation_per_turn`` aggregation)."""

    inputs = (TableText(FinalText("response")), TableText(Text("ground_truth")))  # type: ignore[assignment]
    conversation_turn_inputs = ("response", "ground_truth")

    def _turn_inputs(self, bound: Dict[str, Any]) -> List[Dict[str, Any]]:
        return ground_truth_turns(self.name, bound.pop("conversation"), self.conversation_turn_inputs)


def ground_truth_turns(evaluator: str, conversation: Any, names: Tuple[str, ...]) -> List[Dict[str, Any]]:
    """A conversation's turns as 1.18 reads them for ResponseCompleteness and Similarity
    (``EvaluatorBase._derive_conversation_converter``): user and assistant messages paired in
    order, the query the user's ``content``, the response the assistant's, the ground truth the
    assistant message's ``ground_truth`` (``""`` where it has none, as 1.18 judges it); ``names``:
    the inputs the metric takes of these. No pair is no turn (1.18 then returns ``{}``)."""
    messages = conversation.get("messages") if isinstance(conversation, Mapping) else conversation
    if not isinstance(messages, list):
        raise InputError(f"{evaluator}: conversation must be {{'messages': [...]}} (or the list of messages)",
                         evaluator=evaluator, input_name="conversation")
    roles = [m for m in messages if isinstance(m, Mapping)]
    users = [m for m in roles if m.get("role") == "user"]
    replies = [m for m in roles if m.get("role") == "assistant"]
    turns = []
    for asked, reply in zip(users, replies):
        parts = {"query": asked.get("content") or "", "response": reply.get("content") or "",
                 "ground_truth": reply.get("ground_truth", "")}
        turns.append({name: parts[name] for name in names})
    return turns


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
    reads = _top.ADHERENCE_READS
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

    def azure_properties(self, details: Mapping[str, Any]) -> Dict[str, Any]:
        return _properties.task_completion(details)


def completeness_turns(evaluator: str, conversation: Any) -> List[Dict[str, Any]]:
    """ResponseCompleteness's turns (:func:`ground_truth_turns` with its inputs)."""
    return ground_truth_turns(evaluator, conversation, ("response", "ground_truth"))
