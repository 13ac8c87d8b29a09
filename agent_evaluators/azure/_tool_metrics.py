"""azure-ai-evaluation 1.18's judge-backed tool metrics, on our judge and engine.

* :class:`ToolCallAccuracyEvaluator`: 1.18's 1–5 metric (threshold 3, ``gpt_tool_call_accuracy``,
  ``_properties`` with the per-tool details), its own declaration and template
  (``prompty/azure_tool_call_accuracy.prompty``);
* :class:`ToolSelectionEvaluator`, :class:`ToolInputAccuracyEvaluator`,
  :class:`ToolOutputUtilizationEvaluator`, :class:`ToolCallSuccessEvaluator`: the top-level 0/1
  declarations (same templates), with 1.18's input rules (:mod:`._tools`), thresholds and pass rules.

azure 1.18 takes no ``threshold=`` for ToolInputAccuracy, ToolOutputUtilization and ToolCallSuccess
(it raises ``TypeError``); here it is a ``ConfigError`` saying so.
"""

from typing import Any, Dict, List, Mapping, Optional

from pydantic import BaseModel, ConfigDict

from ..errors import ConfigError
from ..evaluators import agent as _top_agent
from ..evaluators import tool_use as _tool_use
from ..evaluators.declared import (
    CalibrationCases,
    DeclaredJudgeEvaluator,
    InputSpec,
    Messages,
    ToolCallsInput,
    ToolDefinitionsInput,
)
from ..evaluators.inputs import judge_messages, require_messages, tool_definitions_json
from ..evaluators.tool_steps import steps_in, tool_results
from . import _properties
from ._adapter import AzureShaped
from ._agent import Answered, check_answered
from ._shape import RESULT_FIRST_ORDER
from ._tools import judged_calls, require_definitions


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


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
    row_order = RESULT_FIRST_ORDER  # 1.18's ToolCallAccuracy writes _result before _passed
    default_threshold = 3
    score_scale = (1.0, 5.0)
    template_name = "azure_tool_call_accuracy.prompty"
    inputs = (
        Messages("query", "user"),
        ToolDefinitionsInput(),
        ToolCallsInput("tool_calls", optional=True),
        Messages("response", "assistant", optional=True),
    )
    reads = _top_agent.TOOL_CALL_READS
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
        response = given.get("response")
        results = ({} if response is None or isinstance(response, str)
                   else tool_results(require_messages(self, response, "response", "assistant")))
        rendered = [{"name": c.name, "arguments": c.arguments,
                     **({"result": results[c.id]} if c.id and c.id in results else {})} for c in calls]
        return {"query": query_json, "tool_calls": rendered, "tool_definitions": list(definitions.values())}


class _FixedThreshold(AzureShaped):
    """1.18 metrics whose constructor takes no ``threshold``: the default is the only one."""

    def __init__(self, model_config: Any = None, *, threshold: Optional[float] = None, is_reasoning_model: bool = False,
                 credential: Any = None, cache: Optional[str] = None) -> None:
        if threshold is not None:
            raise ConfigError(f"{type(self).__name__}: azure-ai-evaluation 1.18 takes no threshold= for this metric "
                              f"(it passes at a score of 1); leave threshold= out")
        super().__init__(model_config, is_reasoning_model=is_reasoning_model,  # type: ignore[call-arg]
                         credential=credential, cache=cache)


class ToolSelectionEvaluator(AzureShaped, _tool_use.ToolSelectionEvaluator):
    """1.18's ``_ToolSelectionEvaluator``: were the right tools called? 0 or 1.

    Key ``tool_selection``; inputs ``query``, ``tool_definitions`` (required), and ``response`` or
    ``tool_calls`` (1.18's rules, :mod:`._tools`). Passes only at 1; ``threshold=`` (default 1) is
    reported as given (azure's behaviour).
    """

    pass_mark = 1.0

    def azure_properties(self, details: Mapping[str, Any]) -> Dict[str, Any]:
        return _properties.tool_selection(details)

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        calls = judged_calls(self, given, require_definitions(self, given))
        if calls is not None:  # the calls 1.18 judges: the response's, when it has any
            given = {**given, "tool_calls": calls, "response": None}
        return super().judge_inputs(given)


class ToolInputAccuracyEvaluator(_FixedThreshold, _tool_use.ToolInputAccuracyEvaluator):
    """1.18's ``_ToolInputAccuracyEvaluator``: are all arguments of all calls right? 0 or 1.

    Key ``tool_input_accuracy``; inputs ``query``, ``response`` (the calls are read from it only)
    and ``tool_definitions`` (required). Threshold 1, not configurable (as in 1.18).
    """

    def azure_properties(self, details: Mapping[str, Any]) -> Dict[str, Any]:
        return _properties.tool_input_accuracy(details)

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        judged_calls(self, given, require_definitions(self, given), tool_calls=False)
        return super().judge_inputs(given)


class ToolOutputUtilizationEvaluator(_FixedThreshold, Answered, _tool_use.ToolOutputUtilizationEvaluator):
    """1.18's ``_ToolOutputUtilizationEvaluator``: did the agent use its tools' outputs correctly? 0 or 1.

    Key ``tool_output_utilization``; inputs ``query``, ``response`` and ``tool_definitions``
    (required). Threshold 1, not configurable; ``not_applicable`` for an intermediate response
    (1.18's rule), and, without a judge call, when no tool output is there to use.
    """

    inputs = (Messages("query", "user"), Messages("response", "assistant"), ToolDefinitionsInput(optional=False))

    def azure_properties(self, details: Mapping[str, Any]) -> Dict[str, Any]:
        return _properties.tool_output_utilization(details)

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        require_definitions(self, given)
        return super().judge_inputs(given)


class _Ignored(InputSpec):
    """An input 1.18 accepts and does not use (ToolCallSuccess's ``query``)."""

    def prepare(self, evaluator: Any, value: Any) -> Any:
        return None


class ToolCallSuccessEvaluator(_FixedThreshold, _tool_use.ToolCallSuccessEvaluator):
    """1.18's ``_ToolCallSuccessEvaluator``: did every tool call succeed technically? 0 or 1.

    Key ``tool_call_success``; inputs ``response`` (messages with the calls and their results, or
    text), optional ``tool_definitions``, and an optional ``query`` that is not used (1.18 takes it
    too). Threshold 1, not configurable; ``not_applicable`` for an intermediate response (1.18's
    rule) and, without a judge call, for messages holding no tool call. A response ending in an
    azure ``tool_call`` item is judged, as in 1.18.
    """

    inputs = (Messages("response", "assistant"), ToolDefinitionsInput(),  # type: ignore[assignment]  # one more
              _Ignored("query", optional=True))

    def azure_properties(self, details: Mapping[str, Any]) -> Dict[str, Any]:
        return _properties.tool_call_success(details)

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        # ours, not the top-level hook: 1.18 judges a response that ends in a call awaiting its result
        check_answered(given)
        response_json, messages = judge_messages(self, given.get("response"), "response", "assistant")
        definitions = tool_definitions_json(given.get("tool_definitions"))
        if messages is not None:
            used = {c.name for c in steps_in(messages).calls}
            definitions = [d for d in definitions if d.get("name") in used] or definitions
        return {"response": response_json, "tool_definitions": definitions}
