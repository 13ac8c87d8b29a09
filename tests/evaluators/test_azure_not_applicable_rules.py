"""When the five top-level 0/1 agent metrics judge a row and when they call it not applicable,
compared with azure-ai-evaluation 1.18.10's own classes on the same rows (the `azure` extra).

Both sides run against the same local judge over HTTP. Each row shape is sent to both; the
outcome compared is "judged", "not_applicable" or "error" (azure's input validation raising).
Where ours is deliberately different, :data:`DIFFERENCES` names the case and says why; every
other case must agree. These are the top-level classes, in our conventions; the 1.18-shaped
classes of ``agent_evaluators.azure`` are compared with azure by their own differential test.
"""

import copy

from agent_evaluators import (
    TaskCompletionEvaluator,
    ToolCallSuccessEvaluator,
    ToolInputAccuracyEvaluator,
    ToolOutputUtilizationEvaluator,
    ToolSelectionEvaluator,
)
from agent_evaluators.testing import schema_reply

from ..conftest import optional_import

optional_import("azure.ai.evaluation")

QUERY = [{"role": "system", "content": "You are a weather bot."},
         {"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]}]
WEATHER = {"name": "get_weather", "description": "Current weather.",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}


def call(name="get_weather", kind="tool_call"):
    return {"role": "assistant", "content": [{"type": kind, "tool_call_id": "c1", "name": name,
                                              "arguments": {"city": "Paris"}}]}


RESULT = {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": {"temp_c": 18}}]}
ANSWER = {"role": "assistant", "content": [{"type": "text", "text": "It is 18 °C in Paris."}]}

ROWS = {
    "full run": dict(query=QUERY, response=[call(), RESULT, ANSWER], tool_definitions=[WEATHER]),
    "no tool calls": dict(query=QUERY, response=[ANSWER], tool_definitions=[WEATHER]),
    "ends in tool_call": dict(query=QUERY, response=[call()], tool_definitions=[WEATHER]),
    "ends in function_call": dict(query=QUERY, response=[call(kind="function_call")], tool_definitions=[WEATHER]),
    "ends in tool result": dict(query=QUERY, response=[call(), RESULT], tool_definitions=[WEATHER]),
    "undefined tool": dict(query=QUERY, response=[call("get_forecast"), RESULT, ANSWER], tool_definitions=[WEATHER]),
    "empty definitions": dict(query=QUERY, response=[call(), RESULT, ANSWER], tool_definitions=[]),
    "built-in tool, no definitions": dict(query=QUERY, response=[call("file_search"), RESULT, ANSWER],
                                          tool_definitions=[]),
    "OpenAPI definitions": dict(query=QUERY, response=[call(), RESULT, ANSWER],
                                tool_definitions=[{"type": "openapi", "name": "weather_api", "functions": [WEATHER]}]),
    "plain strings": dict(query="Weather in Paris?", response="It is 18 °C in Paris.", tool_definitions=[WEATHER]),
}

UNFINISHED = ("azure's intermediate-response rule only knows Responses-style function_call items; an "
              "unfinished response in azure's own agent format is judged there. Ours treats every format alike")
NO_JUDGE_NEEDED = "nothing to judge is decided before any judge call (azure asks its judge, which may answer skipped)"
READS_FUNCTION_CALL = ("ours reads function_call content items as tool calls; azure's parser misses them and "
                       "reports no tool calls")
EMPTY = ("azure's input validation raises on an empty definitions list; ours makes the row not applicable with "
         "the reason (a batch goes on)")
BUILTIN = "built-in tools get synthetic definitions and are judged; azure's validation raises on the empty list"
CONTEXT = "definitions are context here, not a precondition: judged; azure's validation raises on the empty list"

#: (result key, row) -> (azure's outcome, ours, why)
DIFFERENCES = {
    ("task_completion", "ends in tool_call"): ("judged", "not_applicable", UNFINISHED),
    ("task_completion", "ends in tool result"): ("judged", "not_applicable", UNFINISHED),
    ("tool_selection", "ends in function_call"): ("not_applicable", "judged", READS_FUNCTION_CALL),
    ("tool_selection", "empty definitions"): ("error", "not_applicable", EMPTY),
    ("tool_selection", "built-in tool, no definitions"): ("error", "judged", BUILTIN),
    ("tool_input_accuracy", "ends in function_call"): ("not_applicable", "judged", READS_FUNCTION_CALL),
    ("tool_input_accuracy", "empty definitions"): ("error", "not_applicable", EMPTY),
    ("tool_input_accuracy", "built-in tool, no definitions"): ("error", "judged", BUILTIN),
    ("tool_output_utilization", "no tool calls"): ("judged", "not_applicable", NO_JUDGE_NEEDED),
    ("tool_output_utilization", "ends in tool_call"): ("judged", "not_applicable", UNFINISHED),
    ("tool_output_utilization", "ends in tool result"): ("judged", "not_applicable", UNFINISHED),
    ("tool_output_utilization", "empty definitions"): ("error", "judged", CONTEXT),
    ("tool_output_utilization", "built-in tool, no definitions"): ("error", "judged", CONTEXT),
    ("tool_call_success", "no tool calls"): ("judged", "not_applicable", NO_JUDGE_NEEDED),
    ("tool_call_success", "ends in tool_call"): ("judged", "not_applicable", UNFINISHED),
}


def _azure_classes():
    from azure.ai.evaluation._evaluators._task_completion import _TaskCompletionEvaluator
    from azure.ai.evaluation._evaluators._tool_call_success import _ToolCallSuccessEvaluator
    from azure.ai.evaluation._evaluators._tool_input_accuracy import _ToolInputAccuracyEvaluator
    from azure.ai.evaluation._evaluators._tool_output_utilization import _ToolOutputUtilizationEvaluator
    from azure.ai.evaluation._evaluators._tool_selection import _ToolSelectionEvaluator

    return {
        "task_completion": (_TaskCompletionEvaluator, TaskCompletionEvaluator),
        "tool_selection": (_ToolSelectionEvaluator, ToolSelectionEvaluator),
        "tool_input_accuracy": (_ToolInputAccuracyEvaluator, ToolInputAccuracyEvaluator),
        "tool_output_utilization": (_ToolOutputUtilizationEvaluator, ToolOutputUtilizationEvaluator),
        "tool_call_success": (_ToolCallSuccessEvaluator, ToolCallSuccessEvaluator),
    }


def reply(req):
    """Ours asks for a JSON schema; azure's prompts ask for their own JSON: a completed 0/1 verdict."""
    if req.json_schema is not None:
        return schema_reply(req)
    return {"reason": "ok", "properties": {}, "score": 1, "status": "completed"}


def outcome(evaluator, key, inputs):
    try:
        out = evaluator(**copy.deepcopy(inputs))
    except Exception:  # noqa: BLE001 - azure's validation raises its own exception types
        return "error"
    result = out.get(f"{key}_result")
    return "not_applicable" if result == "not_applicable" else "judged" if result in ("pass", "fail") else str(result)


def test_not_applicable_rules_agree_with_azure_1_18_except_the_marked_cases(judge_server, monkeypatch):
    monkeypatch.setenv("PF_DISABLE_TRACING", "true")
    server = judge_server(reply)
    azure_config = {"type": "openai", "api_key": "test", "base_url": server.url + "/v1", "model": "judge"}
    compared, seen = 0, set()
    for key, (azure_cls, our_cls) in _azure_classes().items():
        theirs, ours = azure_cls(azure_config), our_cls(server.openai_config())
        takes = set(ours._public_signature.parameters)
        for name, row in ROWS.items():
            inputs = {k: v for k, v in row.items() if k in takes}
            got = (outcome(theirs, key, inputs), outcome(ours, key, inputs))
            marked = DIFFERENCES.get((key, name))
            if marked:
                seen.add((key, name))
                assert got == marked[:2], (key, name, got, marked[2])
            else:
                assert got[0] == got[1], (key, name, got)
            compared += 1
    assert compared == 50 and seen == set(DIFFERENCES)  # 35 agree, 15 differ on purpose
