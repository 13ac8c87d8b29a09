"""Four 0/1 tool-use metrics of azure-ai-evaluation 1.18, each on one question about the agent's tool calls.

* :class:`ToolSelectionEvaluator`: were the right tools chosen (none missing, none needless)?
* :class:`ToolInputAccuracyEvaluator`: are all arguments grounded, well typed and formatted, complete, with no extras?
* :class:`ToolOutputUtilizationEvaluator`: did the agent use what its tools returned correctly?
* :class:`ToolCallSuccessEvaluator`: did every call succeed technically (no error, timeout or empty result)?

Each is a declaration with one hook, :meth:`judge_inputs`, that reads the calls through
:mod:`.tool_steps` (so the not-applicable rules read the same as
:class:`~.agent.ToolCallAccuracyEvaluator`'s) and decides what the judge is shown. Scores are 0
or 1, pass at 1. The per-evaluator rules for "not applicable" follow azure 1.18's and are in
each docstring.
"""

from typing import Any, Dict, List, Mapping

from ..conversation.transcript import Reads
from .declared import CalibrationCases, DeclaredJudgeEvaluator, Messages, NotApplicable, ToolCallsInput, ToolDefinitionsInput
from .inputs import ends_in_tool_call, judge_messages, require_messages, tool_definitions_json
from .tool_steps import NO_DEFINITIONS, defined_tools, definitions_json, read_tool_steps, render_calls, steps_in


class _BinaryToolMetric(DeclaredJudgeEvaluator):
    """What the four share: a 0/1 verdict, pass at 1."""

    default_threshold = 1
    score_scale = (0.0, 1.0)


def _plain_text_calls(value: Any) -> bool:
    """A plain-text response given in place of messages: azure 1.18 hands such text to the judge
    as the agent's tool calls, since no structure can be read from it."""
    return isinstance(value, str) and bool(value.strip())


class ToolSelectionEvaluator(_BinaryToolMetric):
    """Whether the agent chose the right tools for the task: every tool it needed, and none it did not.

    Key ``tool_selection``; inputs ``query`` (text or messages), ``response`` (messages holding the
    calls, or plain text describing them) and/or ``tool_calls`` (used when the response holds no
    call, azure 1.18's order), and ``tool_definitions`` (any supported
    format; OpenAPI tools expand into their functions, built-in tools such as ``file_search`` need
    none). The judge sees the names of the tools called, not their arguments (that is
    :class:`ToolInputAccuracyEvaluator`'s question). Score 0 or 1; default threshold 1. Details:
    ``correct_tool_selections``, ``wrong_tool_selections``, ``excessive_tools``, ``missing_tools``.

    ``not_applicable`` (no judge call) when there are no tool calls, or a called tool has no
    definition and is not a known built-in tool (the reason says "no tool definitions" when none
    were given), or a plain-text response comes without definitions (azure 1.18's rules; where
    azure's input validation raises instead, see ``tests/evaluators/test_azure_not_applicable_rules.py``).
    """

    result_key = "tool_selection"
    template_name = "tool_selection.prompty"
    inputs = (
        Messages("query", "user"),
        Messages("response", "assistant", optional=True),
        ToolCallsInput("tool_calls", optional=True),
        ToolDefinitionsInput(),
    )
    reads = Reads("the choice of tools is judged against the user's requests and every available tool (the "
                  "called ones in full, the rest by name and description); arguments and results are other "
                  "metrics' questions", earlier="text", tool_definitions="all")
    verdict_fields = {
        "correct_tool_selections": (int, "How many of the calls chose a tool that fits the task"),
        "wrong_tool_selections": (int, "How many of the calls chose a tool that does not fit the task"),
        "excessive_tools": (List[str], "Tools called that the task did not need, or called redundantly"),
        "missing_tools": (List[str], "Tools the task needed that the agent did not call"),
    }
    calibration_cases = CalibrationCases(
        good={"query": "query+system", "tool_calls": "tool_calls:call", "tool_definitions": "tools"},
        bad={"query": "query+system", "tool_calls": "tool_calls:wrong_tool_call", "tool_definitions": "tools"},
        why_bad="the agent called a tool that does not serve the request and skipped the one that does")

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        query_json, _ = judge_messages(self, given.get("query"), "query", "user")
        tool_calls, response = given.get("tool_calls"), given.get("response")
        if response is not None and not isinstance(response, str):
            messages = require_messages(self, response, "response", "assistant")
            if tool_calls is None or any(m.tool_calls for m in messages):
                tool_calls, response = None, messages  # the response's calls win, as in azure 1.18
        if tool_calls is None and _plain_text_calls(response):
            definitions = tool_definitions_json(given.get("tool_definitions"))
            if not definitions:
                raise NotApplicable(NO_DEFINITIONS)
            return {"query": query_json, "tool_calls": response, "tool_definitions": definitions}
        steps = read_tool_steps(self, tool_calls, None if tool_calls is not None else response)
        defined = defined_tools(steps.calls, given.get("tool_definitions"), require_some=True)
        return {"query": query_json, "tool_calls": render_calls(steps.calls, {}, arguments=False),
                "tool_definitions": definitions_json(defined, steps.calls)}


class ToolInputAccuracyEvaluator(_BinaryToolMetric):
    """Whether every argument of every tool call is right: grounded in the conversation or earlier
    tool results, of the declared type and format, every required parameter present, none extra.

    Key ``tool_input_accuracy``; inputs ``query`` (text or messages), ``response`` (messages
    holding the calls, with their results; or plain text describing them) and
    ``tool_definitions`` (required; OpenAPI tools expand into their functions, built-in tools
    need none). Score 0 or 1 (1 only when all arguments of all calls are right); default
    threshold 1. Details: ``total_parameters``, ``correct_parameters``, ``incorrect_parameters``.

    ``not_applicable`` (no judge call) when the response holds no tool calls, or a called tool has
    no definition and is not a known built-in tool (the reason says "no tool definitions" when the
    list is empty), or a plain-text response comes with an empty list (azure 1.18's rules; a
    response that ends in a tool call is judged: its calls are there).
    """

    result_key = "tool_input_accuracy"
    template_name = "tool_input_accuracy.prompty"
    inputs = (Messages("query", "user"), Messages("response", "assistant"), ToolDefinitionsInput(optional=False))
    reads = Reads("arguments are checked against the called tools' definitions and the conversation and earlier "
                  "tool results they are taken from (shortened)", earlier="all", tool_results=1000,
                  tool_definitions="called")
    verdict_fields = {
        "total_parameters": (int, "How many arguments the calls passed in all"),
        "correct_parameters": (int, "How many of those arguments are right"),
        "incorrect_parameters": (List[str], "Each wrong, invented, missing or extra argument, with why"),
    }
    calibration_cases = CalibrationCases(
        good={"query": "query+system", "response": "run:answer", "tool_definitions": "tools"},
        bad={"query": "query+system", "response": "wrong_args_run:answer", "tool_definitions": "tools"},
        why_bad="the right tool was called with argument values the user never gave")

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        query_json, _ = judge_messages(self, given.get("query"), "query", "user")
        response_json, messages = judge_messages(self, given.get("response"), "response", "assistant")
        if messages is None:  # plain text: the judge reads the calls from it
            definitions = tool_definitions_json(given.get("tool_definitions"))
            if not definitions:
                raise NotApplicable(NO_DEFINITIONS)
        else:
            steps = steps_in(messages)
            defined = defined_tools(steps.calls, given.get("tool_definitions"), optional=False, require_some=True)
            definitions = definitions_json(defined, steps.calls)
        return {"query": query_json, "response": response_json, "tool_definitions": definitions}


class ToolOutputUtilizationEvaluator(_BinaryToolMetric):
    """Whether the agent used its tools' outputs correctly: every claim and every later argument
    taken from a tool result matches that result; nothing is misread or invented.

    Key ``tool_output_utilization``; inputs ``query`` (text or messages; earlier turns may hold
    tool results too), ``response`` (text or messages, with the tool calls and results) and
    ``tool_definitions`` (required). Score 0 or 1; default threshold 1. Details:
    ``faulty_uses`` (each misused or invented tool-derived value).

    ``not_applicable`` (no judge call) when the response ends in a tool call or a tool result
    (the agent has not answered yet, azure 1.18's rule), or when the response is messages and
    neither it nor the query holds a tool result (nothing to use: azure's judge answers "skipped"
    there; we decide it without a judge call). A plain-text response goes to the judge as given.
    """

    result_key = "tool_output_utilization"
    template_name = "tool_output_utilization.prompty"
    inputs = (Messages("query", "user"), Messages("response", "assistant", answered=True),
              ToolDefinitionsInput(optional=False))
    reads = Reads("needs every tool result (head and tail) and the claims and later arguments drawn from them; "
                  "the policy and schemas add nothing", earlier="all", tool_results=2000)
    verdict_fields = {
        "faulty_uses": (List[str], "Each tool-derived claim or argument that misreads or invents a tool output"),
    }
    calibration_cases = CalibrationCases(
        good={"query": "query+system", "response": "run:answer", "tool_definitions": "tools"},
        bad={"query": "query+system", "response": "run:wrong_answer", "tool_definitions": "tools"},
        why_bad="the answer contradicts what the tool returned")

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        values = super().judge_inputs(given)
        query, response = given.get("query"), given.get("response")
        if not isinstance(response, str):
            messages = (require_messages(self, query, "query", "user")
                        + require_messages(self, response, "response", "assistant"))
            if not any(m.role == "tool" for m in messages):
                raise NotApplicable("Not applicable: no tool output in the query or response, "
                                    "so there is no tool output to use")
        return values


class ToolCallSuccessEvaluator(_BinaryToolMetric):
    """Whether every tool call succeeded technically: none returned an error, timed out, or came
    back empty. Whether the call was a good idea is not the question (see the other tool metrics).

    Key ``tool_call_success``; inputs ``response`` (messages holding the calls and their results,
    or plain text describing them) and optional ``tool_definitions``. Score 0 or 1 (1 = every
    call succeeded); default threshold 1. Details: ``failed_tools`` (the names of the calls that
    failed).

    ``not_applicable`` (no judge call) when the response ends in a tool call still waiting for its
    result (azure 1.18's "intermediate response" rule), or when the response is messages holding no
    tool call (azure's judge answers "skipped" there; we decide it without a judge call). A called
    tool without a definition is judged all the same (success needs no schema).
    """

    result_key = "tool_call_success"
    template_name = "tool_call_success.prompty"
    inputs = (Messages("response", "assistant"), ToolDefinitionsInput())
    reads = Reads("success is read from each call's result (head and tail show an error or an empty result); "
                  "neither the conversation nor the schemas are needed", earlier="all", tool_results=600)
    verdict_fields = {
        "failed_tools": (List[str], "The names of the tool calls whose result shows a failure; empty when none"),
    }
    calibration_cases = CalibrationCases(
        good={"response": "run:answer", "tool_definitions": "tools"},
        bad={"response": "failed_run:vague", "tool_definitions": "tools"},
        why_bad="the tool call returned an error")

    def judge_inputs(self, given: Mapping[str, Any]) -> Dict[str, Any]:
        response_json, messages = judge_messages(self, given.get("response"), "response", "assistant")
        definitions = tool_definitions_json(given.get("tool_definitions"))
        if messages is None:  # plain text: the judge reads the calls and their results from it
            return {"response": response_json, "tool_definitions": definitions}
        if _awaits_result(messages):
            raise NotApplicable("Not applicable: the response ends in a tool call that has no result yet, "
                                "so the agent has not finished; pass the response with the tool results")
        used = {c.name for c in steps_in(messages).calls}
        shown = [d for d in definitions if d.get("name") in used] or definitions
        return {"response": response_json, "tool_definitions": shown}


def _awaits_result(messages: List[Any]) -> bool:
    """The last message is the agent's tool call, its result not yet in."""
    return bool(messages) and messages[-1].role == "assistant" and ends_in_tool_call(messages)
