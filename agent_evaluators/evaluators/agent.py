"""The four Azure-style agent evaluators, with the semantics of the seed documents.

* :class:`IntentResolutionEvaluator`: did the agent identify and resolve what the user wanted (1–5).
* :class:`ResponseCompletenessEvaluator`: how much of the ground truth's needed information the response holds (1–5).
* :class:`TaskAdherenceEvaluator`: did the agent follow its assigned task, instructions and tools (1–5).
* :class:`ToolCallAccuracyEvaluator`: per tool call 1 only if relevant, parameters valid, values
  grounded in the conversation and useful, else 0; score = mean over the calls made.

Where azure-ai-evaluation 1.18 has since changed a scale (TaskAdherence became 0/1,
ToolCallAccuracy became 1–5) we follow the seed, as DESIGN.md §4 says.
"""

import functools
from typing import Any, Dict, List, Mapping, Optional, Type

from pydantic import BaseModel, ConfigDict, create_model

from ..conversation.transcript import Reads
from .base import Outcome
from .declared import (
    CalibrationCases,
    DeclaredJudgeEvaluator,
    EndsInHandOff,
    FinalText,
    Messages,
    Text,
    ToolCallsInput,
    ToolDefinitionsInput,
)
from .inputs import judge_messages
from .tool_steps import defined_tools, definitions_json, read_tool_steps, render_calls, require_calls_source


# ---------------------------------------------------------------------------- verdicts
class ToolCallVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    relevant: bool
    parameters_valid: bool
    values_from_conversation: bool
    useful: bool
    reason: str


class MissingCall(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tool_name: str
    reason: str


@functools.lru_cache(maxsize=64)
def _verdict_for_calls(n: int) -> Type[BaseModel]:
    """The verdict model for ``n`` calls: ``calls`` is an object with exactly the keys
    ``call_0`` .. ``call_{n-1}``, each required.

    Keying verdicts by call (rather than a list with an index field) makes the schema
    itself demand one verdict per call made and no other: a judge (or a constrained
    decoder such as llama.cpp's) cannot skip a call, repeat one, or cite one that was
    never made, and the strict parser rejects duplicate keys.
    """
    calls = create_model(
        f"ToolCallVerdicts{n}",
        __config__=ConfigDict(extra="forbid"),
        **{f"call_{i}": (ToolCallVerdict, ...) for i in range(n)},  # type: ignore[call-overload]
    )
    return create_model(
        "ToolCallAccuracyVerdict",
        __config__=ConfigDict(extra="forbid"),
        calls=(calls, ...),
        missing_calls=(List[MissingCall], ...),
        reason=(str, ...),
    )


# ---------------------------------------------------------------------------- what each judge reads
#: adherence is judged against the instructions (system prompt, the called tools' definitions) over what the
#: agent said and did in every turn; the last turn's tool results, shortened, for rules that depend on them
ADHERENCE_READS = Reads("adherence is judged against the system instructions and the called tools' rules, over "
                        "the agent's replies and calls in every turn (last turn's results shortened)",
                        system=True, earlier="calls", tool_results=600, tool_definitions="called")
#: each call is judged for relevance, parameters valid for its schema, values from the conversation (earlier
#: results included) and usefulness; the other tools by name and description, for the calls that are missing
TOOL_CALL_READS = Reads("each call needs its tool's schema, the conversation its values come from (results "
                        "shortened) and the other tools by name for missing calls",
                        earlier="all", tool_results=800, tool_definitions="all")


# ---------------------------------------------------------------------------- evaluators
class IntentResolutionEvaluator(EndsInHandOff, DeclaredJudgeEvaluator):
    """How well the response identifies and resolves the user's intent.

    Key ``intent_resolution``; inputs ``query``, ``response`` (text or messages in any
    supported format), optional ``tool_definitions``, or ``conversation=`` (evaluated
    per user turn, mean). Score 1–5: 1 unrelated, 2 slightly related, 3 partial,
    4 mostly resolved with small gaps, 5 fully resolved. Default threshold 3.
    ``not_applicable`` when the response ends in a tool call (the agent has not answered yet),
    unless that call hands the conversation over (a tool whose name holds ``transfer``,
    ``handoff``/``hand_off`` or ``escalat``, or one named in ``terminal_tools=`` or the run's
    ``terminal_tools``): the conversation is over and is judged on what the agent did.
    """

    result_key = "intent_resolution"
    default_threshold = 3
    score_scale = (1.0, 5.0)
    template_name = "intent_resolution.prompty"
    conversation_turn_inputs = ("query", "response")
    inputs = (Messages("query", "user"), Messages("response", "assistant", answered=True), ToolDefinitionsInput())
    reads = Reads("the intent is in the user's words and its resolution in the agent's replies and calls; "
                  "the policy, tool results and schemas are not asked about", earlier="text")
    verdict_name = "IntentVerdict"
    verdict_fields = {"user_intent": (str, "What the user wanted, in one sentence")}
    calibration_cases = CalibrationCases(
        good={"query": "query+system", "response": "run:answer"},
        bad={"query": "query+system", "response": "run:off_topic"},
        why_bad="the response ignores what the user asked")


class ResponseCompletenessEvaluator(DeclaredJudgeEvaluator):
    """How much of the information the ground truth says is needed the response contains.

    Key ``response_completeness``; inputs ``response`` and ``ground_truth`` (text).
    Score 1–5: 1 none of it, 2 a small part, 3 about half, 4 most with minor gaps,
    5 all of it. Default threshold 3. Details list the missing information.
    """

    result_key = "response_completeness"
    default_threshold = 3
    score_scale = (1.0, 5.0)
    template_name = "response_completeness.prompty"
    inputs = (FinalText("response"), Text("ground_truth"))
    reads = Reads("completeness compares the agent's final answer with the reference answer: two plain texts, "
                  "nothing else of the conversation")
    verdict_name = "CompletenessVerdict"
    verdict_fields = {"missing_information": (List[str], "Needed facts from the ground truth the response lacks")}
    calibration_cases = CalibrationCases(
        good={"response": "answer", "ground_truth": "ground_truth"},
        bad={"response": "vague", "ground_truth": "ground_truth"},
        why_bad="the response holds none of the needed information")


class TaskAdherenceEvaluator(DeclaredJudgeEvaluator):
    """How well the agent follows its assigned task and preset goals.

    Key ``task_adherence``; inputs ``query`` (include the system message with the
    agent's instructions), ``response``, optional ``tool_definitions``, or
    ``conversation=``. Score 1–5: 1 non-adherent, 2 barely, 3 moderately,
    4 mostly, 5 fully adherent. Default threshold 3. Details list deviations.
    """

    result_key = "task_adherence"
    default_threshold = 3
    score_scale = (1.0, 5.0)
    template_name = "task_adherence.prompty"
    conversation_turn_inputs = ("query", "response")
    inputs = (Messages("query", "user"), Messages("response", "assistant"), ToolDefinitionsInput())
    reads = ADHERENCE_READS
    verdict_name = "AdherenceVerdict"
    verdict_fields = {"deviations": (List[str], "Instructions, goals or tool rules the agent did not follow")}
    calibration_cases = CalibrationCases(
        good={"query": "query+system", "response": "answer", "tool_definitions": "tools"},
        bad={"query": "query+system", "response": "violation", "tool_definitions": "tools"},
        why_bad="the response breaks the rule in the system message")


class ToolCallAccuracyEvaluator(DeclaredJudgeEvaluator):
    """Whether each tool call the agent made was right.

    Key ``tool_call_accuracy``; inputs ``query``, ``tool_definitions`` and either
    ``tool_calls`` or ``response`` (messages; the calls are read from it, with
    their results). One judge call returns a verdict per call: 1 only if the call
    is relevant to the conversation, its parameters are valid for the tool's
    definition, their values come from the conversation, and it is useful; else 0.
    Score = mean over the calls made; default threshold 0.8. Details hold each
    call's verdict and reason and the calls the judge found missing.

    ``not_applicable`` (no judge call) when there are no tool calls, or a called tool
    has no definition and is not a known built-in tool.
    """

    result_key = "tool_call_accuracy"
    default_threshold = 0.8
    score_scale = (0.0, 1.0)
    template_name = "tool_call_accuracy.prompty"
    inputs = (
        Messages("query", "user"),
        ToolDefinitionsInput(optional=False),
        ToolCallsInput("tool_calls", optional=True),
        Messages("response", "assistant", optional=True),
    )
    reads = TOOL_CALL_READS
    calibration_cases = CalibrationCases(
        good={"query": "query+system", "tool_calls": "tool_calls:call", "tool_definitions": "tools"},
        bad={"query": "query+system", "tool_calls": "tool_calls:bad_call", "tool_definitions": "tools"},
        why_bad="the tool or its argument values do not fit the request")

    # the per-call hooks: the calls are read from tool_calls= or the response, one verdict per call
    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        require_calls_source(self, given.get("tool_calls"), given.get("response"))
        query_json, _ = judge_messages(self, given.get("query"), "query", "user")
        steps = read_tool_steps(self, given.get("tool_calls"), given.get("response"))
        definitions = defined_tools(steps.calls, given.get("tool_definitions"), optional=False)
        return {
            "query": query_json,
            "tool_calls": render_calls(steps.calls, steps.results),
            "tool_definitions": definitions_json(definitions, steps.calls),
        }

    def verdict_for(self, values: Mapping[str, Any]) -> Type[BaseModel]:
        return _verdict_for_calls(len(values["tool_calls"]))

    def outcome(self, verdict: Any, usage: Optional[Dict[str, Any]], values: Mapping[str, Any]) -> Outcome:
        calls = values["tool_calls"]
        per_call = _per_call(verdict, calls)
        score = sum(c["score"] for c in per_call) / len(per_call)
        details = {
            "per_call": per_call,
            "missing_calls": [m.model_dump() for m in verdict.missing_calls],
            "excess_calls": [c["tool_name"] for c in per_call if not c["relevant"] or not c["useful"]],
            "calls_made": len(calls),
            "correct_calls": sum(c["score"] for c in per_call),
        }
        return Outcome(score, verdict.reason, details, usage)


def _per_call(verdict: Any, calls: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Each call's verdict (the schema guarantees exactly one per call) with its 0/1 score."""
    out = []
    for i, call in enumerate(calls):
        v: ToolCallVerdict = getattr(verdict.calls, f"call_{i}")
        ok = v.relevant and v.parameters_valid and v.values_from_conversation and v.useful
        out.append(
            {
                "call_index": i,
                "tool_name": call["name"],
                "arguments": call["arguments"],
                "score": 1 if ok else 0,
                "relevant": v.relevant,
                "parameters_valid": v.parameters_valid,
                "values_from_conversation": v.values_from_conversation,
                "useful": v.useful,
                "reason": v.reason,
            }
        )
    return out
