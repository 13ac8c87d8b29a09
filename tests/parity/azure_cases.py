"""The rows the differential test sends through azure-ai-evaluation 1.18.10 and ``agent_evaluators.azure``.

A case is one call: the evaluator's name, its constructor and call arguments, and the verdict the
local judge gives (``score``, ``reason``, ``properties``). The judge finds the verdict by the
``[case:<id>]`` marker in the rendered prompt (the last one, so a conversation's turn is judged by
its own marker, though our judge also sees the earlier turns), and answers each side in the
format that side asks for. ``verdict=None``: the row must be not applicable with no judge call.
"""

import json
from typing import Any, Dict, List, NamedTuple, Optional, Tuple


class Case(NamedTuple):
    id: str
    evaluator: str
    call: Dict[str, Any]
    verdicts: Dict[str, Dict[str, Any]]  # marker id -> verdict (a conversation has one per turn)
    ctor: Dict[str, Any] = {}
    #: why this case shows azure's own behaviour (reproduced on purpose), when it does
    azure_behaviour: Optional[str] = None


def v(score: Any, reason: str = "scripted verdict", properties: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    return {"score": score, "reason": reason, "properties": properties}


# ---------------------------------------------------------------------------- shared inputs
WEATHER_DEF = {
    "name": "get_weather",
    "description": "Current weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
EMAIL_DEF = {
    "name": "send_email",
    "description": "Send an email.",
    "parameters": {"type": "object", "properties": {"to": {"type": "string"}, "body": {"type": "string"}}},
}
OPENAPI_DEF = {
    "type": "openapi",
    "name": "weather_api",
    "description": "A weather service.",
    "functions": [{
        "name": "weather_api_current",
        "description": "Current weather by location.",
        "parameters": {"type": "object", "properties": {"location": {"type": "string"}}},
    }],
}


def user(text: str) -> Dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def system(text: str) -> Dict[str, Any]:
    return {"role": "system", "content": text}


def said(text: str) -> Dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


def call(call_id: str, name: str, **arguments: Any) -> Dict[str, Any]:
    return {"role": "assistant",
            "content": [{"type": "tool_call", "tool_call_id": call_id, "name": name, "arguments": arguments}]}


def result(call_id: str, value: Any) -> Dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": [{"type": "tool_result", "tool_result": value}]}


def pending(call_id: str, name: str) -> Dict[str, Any]:
    """An assistant message whose last item is a pending ``function_call`` (1.18's intermediate response)."""
    return {"role": "assistant", "content": [
        {"type": "text", "text": "Let me check."},
        {"type": "function_call", "tool_call_id": call_id, "name": name, "arguments": {"city": "Paris"}},
    ]}


def query(case_id: str, text: str = "What is the weather in Paris?") -> List[Dict[str, Any]]:
    return [system("You are a weather assistant. Only answer weather questions."), user(f"{text} [case:{case_id}]")]


WEATHER_RUN = [call("c1", "get_weather", city="Paris"), result("c1", {"temp_c": 18}), said("It is 18 C in Paris.")]
ENDS_IN_CALL = [said("Checking."), call("c1", "get_weather", city="Paris")]
BUILTIN_RUN = [
    call("f1", "file_search", queries=["Paris weather"]),
    result("f1", [{"file_id": "doc1", "text": "Paris: mild"}]),
    call("s1", "azure_ai_search", input="Paris weather"),
    result("s1", "Paris is 18 C"),
    said("It is mild, about 18 C."),
]


def conversation(case_ids: List[str]) -> Dict[str, Any]:
    messages: List[Dict[str, Any]] = []
    for i, cid in enumerate(case_ids):
        messages.append({"role": "user", "content": f"Question {i} about the weather [case:{cid}]"})
        messages.append({"role": "assistant", "content": f"Answer {i}: sunny."})
    return {"messages": messages}


def graded_conversation(case_ids: List[str]) -> Dict[str, Any]:
    """A conversation whose assistant messages carry their ``ground_truth`` (ResponseCompleteness's
    per-turn input in 1.18); the marker is in each turn's ground truth."""
    messages: List[Dict[str, Any]] = []
    for i, cid in enumerate(case_ids):
        messages.append({"role": "user", "content": f"Question {i} about the weather"})
        messages.append({"role": "assistant", "content": f"Answer {i}: sunny, 18 C.",
                         "ground_truth": f"Sunny and 18 C [case:{cid}]"})
    return {"messages": messages}


def tca_properties(made: int, correct: int, tool: str = "get_weather", missing: int = 0) -> Dict[str, Any]:
    return {
        "tool_calls_made_by_agent": made,
        "correct_tool_calls_made_by_agent": correct,
        "per_tool_call_details": [{"tool_name": tool, "total_calls_required": 1, "correct_calls_made_by_agent": correct,
                                   "correct_tool_percentage": 1.0 if correct else 0.0, "tool_call_errors": 0,
                                   "tool_success_result": "pass" if correct else "fail"}],
        "excess_tool_calls": {"total": 0, "details": []},
        "missing_tool_calls": {"total": missing,
                               "details": [{"tool_name": "send_email", "missing_count": missing}] if missing else []},
    }


THRESHOLD_QUIRK = ("azure 1.18 does not pass threshold= on for this metric: it reports 3 and passes at a score "
                   "of 1 whatever the threshold; the drop-in reproduces it")

COMPLETION_QUIRK = ("azure 1.18's TaskCompletion reports 3 as its threshold (or the threshold= given) and passes at a "
                    "score of 1 whatever it reports; the drop-in reproduces it")


def _single(cid: str, evaluator: str, call_args: Dict[str, Any], verdict: Optional[Dict[str, Any]],
            **extra: Any) -> Case:
    return Case(cid, evaluator, call_args, {cid: verdict} if verdict is not None else {}, **extra)


CASES: List[Case] = [
    # ------------------------------------------------------------------ IntentResolution
    _single("ir_text_pass", "IntentResolutionEvaluator",
            {"query": "Weather in Paris? [case:ir_text_pass]", "response": "18 C and sunny."}, v(5)),
    _single("ir_text_fail", "IntentResolutionEvaluator",
            {"query": "Weather in Paris? [case:ir_text_fail]", "response": "I like trains."}, v(2)),
    _single("ir_messages", "IntentResolutionEvaluator",
            {"query": query("ir_messages"), "response": WEATHER_RUN, "tool_definitions": [WEATHER_DEF]}, v(4)),
    _single("ir_no_definitions", "IntentResolutionEvaluator",
            {"query": query("ir_no_definitions"), "response": WEATHER_RUN}, v(3)),
    _single("ir_ends_in_tool_call", "IntentResolutionEvaluator",
            {"query": query("ir_ends_in_tool_call"), "response": ENDS_IN_CALL, "tool_definitions": [WEATHER_DEF]},
            v(1)),
    _single("ir_intermediate", "IntentResolutionEvaluator",
            {"query": query("ir_intermediate"), "response": [pending("p1", "get_weather")]}, None),
    _single("ir_openapi", "IntentResolutionEvaluator",
            {"query": query("ir_openapi"), "response": [call("o1", "weather_api_current", location="Paris"),
                                                        result("o1", "18 C"), said("18 C.")],
             "tool_definitions": [OPENAPI_DEF]}, v(5)),
    _single("ir_builtin", "IntentResolutionEvaluator",
            {"query": query("ir_builtin"), "response": BUILTIN_RUN}, v(4)),
    _single("ir_threshold", "IntentResolutionEvaluator",
            {"query": "Weather? [case:ir_threshold]", "response": "Sunny."}, v(4), ctor={"threshold": 5}),
    Case("ir_conversation", "IntentResolutionEvaluator", {"conversation": conversation(["ir_c1", "ir_c2"])},
         {"ir_c1": v(5), "ir_c2": v(2)}),
    Case("ir_conversation_one_turn", "IntentResolutionEvaluator", {"conversation": conversation(["ir_c3"])},
         {"ir_c3": v(3)}),
    # ------------------------------------------------------------------ ResponseCompleteness
    _single("rc_text_pass", "ResponseCompletenessEvaluator",
            {"response": "Paris is 18 C and sunny.", "ground_truth": "18 C, sunny [case:rc_text_pass]"}, v(5)),
    _single("rc_text_fail", "ResponseCompletenessEvaluator",
            {"response": "It is warm.", "ground_truth": "18 C, sunny, light wind [case:rc_text_fail]"}, v(1)),
    _single("rc_threshold", "ResponseCompletenessEvaluator",
            {"response": "It is 18 C.", "ground_truth": "18 C and sunny [case:rc_threshold]"}, v(2),
            ctor={"threshold": 2}),
    _single("rc_messages", "ResponseCompletenessEvaluator",
            {"response": WEATHER_RUN, "ground_truth": "18 C in Paris [case:rc_messages]"}, v(4)),
    Case("rc_conversation", "ResponseCompletenessEvaluator",
         {"conversation": graded_conversation(["rc_c1", "rc_c2", "rc_c3"])},
         {"rc_c1": v(5), "rc_c2": v(2), "rc_c3": v(4)}),
    Case("rc_conversation_one_turn", "ResponseCompletenessEvaluator",
         {"conversation": graded_conversation(["rc_c4"])}, {"rc_c4": v(1)}),
    # ------------------------------------------------------------------ TaskAdherence (0/1)
    _single("ta_text_pass", "TaskAdherenceEvaluator",
            {"query": "Weather in Paris? [case:ta_text_pass]", "response": "18 C."}, v(1)),
    _single("ta_text_fail", "TaskAdherenceEvaluator",
            {"query": "Weather in Paris? [case:ta_text_fail]", "response": "Here is a poem instead."}, v(0)),
    _single("ta_messages", "TaskAdherenceEvaluator",
            {"query": query("ta_messages"), "response": WEATHER_RUN, "tool_definitions": [WEATHER_DEF]}, v(1)),
    _single("ta_ends_in_tool_call", "TaskAdherenceEvaluator",
            {"query": query("ta_ends_in_tool_call"), "response": ENDS_IN_CALL}, v(0)),
    _single("ta_intermediate", "TaskAdherenceEvaluator",
            {"query": query("ta_intermediate"), "response": [pending("p1", "get_weather")]}, None),
    _single("ta_builtin", "TaskAdherenceEvaluator",
            {"query": query("ta_builtin"), "response": BUILTIN_RUN, "tool_definitions": [OPENAPI_DEF]}, v(1)),
    _single("ta_threshold_ignored_pass", "TaskAdherenceEvaluator",
            {"query": "Weather? [case:ta_threshold_ignored_pass]", "response": "Sunny."}, v(1),
            ctor={"threshold": 5}, azure_behaviour=THRESHOLD_QUIRK),
    _single("ta_threshold_ignored_fail", "TaskAdherenceEvaluator",
            {"query": "Weather? [case:ta_threshold_ignored_fail]", "response": "Sunny."}, v(0),
            ctor={"threshold": 0}, azure_behaviour=THRESHOLD_QUIRK),
    Case("ta_conversation", "TaskAdherenceEvaluator", {"conversation": conversation(["ta_c1", "ta_c2", "ta_c3"])},
         {"ta_c1": v(1), "ta_c2": v(0), "ta_c3": v(1)}, azure_behaviour=THRESHOLD_QUIRK),
    # ------------------------------------------------------------------ ToolCallAccuracy (1-5)
    _single("tca_tool_calls", "ToolCallAccuracyEvaluator",
            {"query": query("tca_tool_calls"), "tool_definitions": [WEATHER_DEF],
             "tool_calls": [{"type": "tool_call", "tool_call_id": "c1", "name": "get_weather",
                             "arguments": {"city": "Paris"}}]}, v(5, properties=tca_properties(1, 1))),
    _single("tca_response", "ToolCallAccuracyEvaluator",
            {"query": query("tca_response"), "tool_definitions": [WEATHER_DEF, EMAIL_DEF], "response": WEATHER_RUN},
            v(2, properties=tca_properties(1, 0, missing=1))),
    _single("tca_ends_in_tool_call", "ToolCallAccuracyEvaluator",
            {"query": query("tca_ends_in_tool_call"), "tool_definitions": [WEATHER_DEF], "response": ENDS_IN_CALL},
            v(4, properties=tca_properties(1, 1))),
    _single("tca_no_calls", "ToolCallAccuracyEvaluator",
            {"query": query("tca_no_calls"), "tool_definitions": [WEATHER_DEF], "response": [said("Sunny.")]}, None),
    _single("tca_missing_definition", "ToolCallAccuracyEvaluator",
            {"query": query("tca_missing_definition"), "tool_definitions": [EMAIL_DEF], "response": WEATHER_RUN},
            None),
    _single("tca_builtin", "ToolCallAccuracyEvaluator",
            {"query": query("tca_builtin"), "tool_definitions": [WEATHER_DEF], "response": BUILTIN_RUN},
            v(3, properties=tca_properties(2, 2, tool="file_search"))),
    _single("tca_builtin_only", "ToolCallAccuracyEvaluator",
            {"query": query("tca_builtin_only"), "tool_definitions": [EMAIL_DEF],
             "response": BUILTIN_RUN[2:]}, v(4, properties=tca_properties(1, 1, tool="azure_ai_search"))),
    _single("tca_openapi", "ToolCallAccuracyEvaluator",
            {"query": query("tca_openapi"), "tool_definitions": [OPENAPI_DEF],
             "response": [call("o1", "weather_api_current", location="Paris"), result("o1", "18 C"), said("18 C.")]},
            v(5, properties=tca_properties(1, 1, tool="weather_api_current"))),
    _single("tca_text_response", "ToolCallAccuracyEvaluator",
            {"query": "Weather in Paris? [case:tca_text_response]", "tool_definitions": [WEATHER_DEF],
             "response": "get_weather(city='Paris')"}, v(4, properties=tca_properties(1, 1))),
    _single("tca_threshold", "ToolCallAccuracyEvaluator",
            {"query": query("tca_threshold"), "tool_definitions": [WEATHER_DEF], "response": WEATHER_RUN},
            v(4, properties=tca_properties(1, 1)), ctor={"threshold": 5}),
]



def fc_item(call_id: str, name: str = "get_weather", **extra: Any) -> Dict[str, Any]:
    """A Responses-API ``function_call`` content item (1.18 validates it, then does not read it as a call)."""
    return {"type": "function_call", "tool_call_id": call_id, "name": name, "arguments": {"city": "Paris"}, **extra}


#: a run whose only call is a Responses-API ``function_call`` item (issue 35 item 1)
FUNCTION_CALL_RUN = [{"role": "assistant", "content": [fc_item("f1")]}, result("f1", {"temp_c": 18}),
                     said("18 C and sunny.")]

CASES += [
    # ------------------------------------------------------------------ Responses-API items, JSON-text definitions
    _single("tca_function_call_items", "ToolCallAccuracyEvaluator",
            {"query": query("tca_function_call_items"), "tool_definitions": [WEATHER_DEF],
             "response": FUNCTION_CALL_RUN}, None),
    _single("tca_function_call_in_tool_calls", "ToolCallAccuracyEvaluator",
            {"query": query("tca_function_call_in_tool_calls"), "tool_definitions": [WEATHER_DEF],
             "response": "Sunny.", "tool_calls": [fc_item("f1")]}, None),
    _single("tca_definitions_json_text", "ToolCallAccuracyEvaluator",
            {"query": query("tca_definitions_json_text"), "tool_definitions": json.dumps([WEATHER_DEF]),
             "response": WEATHER_RUN}, v(5, properties=tca_properties(1, 1))),
    _single("ts_function_call_items", "ToolSelectionEvaluator",
            {"query": query("ts_function_call_items"), "tool_definitions": [WEATHER_DEF],
             "response": FUNCTION_CALL_RUN}, None),
    _single("ts_function_call_in_tool_calls", "ToolSelectionEvaluator",
            {"query": query("ts_function_call_in_tool_calls"), "tool_definitions": [WEATHER_DEF],
             "response": "Sunny.", "tool_calls": [fc_item("f1")]}, None),
    _single("ts_definitions_json_text", "ToolSelectionEvaluator",
            {"query": query("ts_definitions_json_text"), "tool_definitions": json.dumps([WEATHER_DEF, EMAIL_DEF]),
             "response": WEATHER_RUN}, v(1)),
    _single("tia_function_call_items", "ToolInputAccuracyEvaluator",
            {"query": query("tia_function_call_items"), "tool_definitions": [WEATHER_DEF],
             "response": FUNCTION_CALL_RUN}, None),
]


def marked_run(case_id: str, value: Any = None) -> List[Dict[str, Any]]:
    """A weather run whose tool result carries the marker (ToolCallSuccess's judge sees only the calls)."""
    value = {"temp_c": 18} if value is None else value
    return [call("c1", "get_weather", city="Paris"), result("c1", {**value, "note": f"[case:{case_id}]"}),
            said("Here is the weather.")]


CASES += [
    # ------------------------------------------------------------------ TaskCompletion (0/1)
    _single("tc_text_pass", "TaskCompletionEvaluator",
            {"query": "Book a table for two [case:tc_text_pass]", "response": "Booked for 8pm."}, v(1),
            azure_behaviour=COMPLETION_QUIRK),
    _single("tc_text_fail", "TaskCompletionEvaluator",
            {"query": "Book a table for two [case:tc_text_fail]", "response": "Restaurants are nice."}, v(0),
            azure_behaviour=COMPLETION_QUIRK),
    _single("tc_messages", "TaskCompletionEvaluator",
            {"query": query("tc_messages"), "response": WEATHER_RUN, "tool_definitions": [WEATHER_DEF]}, v(1),
            azure_behaviour=COMPLETION_QUIRK),
    _single("tc_ends_in_tool_call", "TaskCompletionEvaluator",
            {"query": query("tc_ends_in_tool_call"), "response": ENDS_IN_CALL}, v(0), azure_behaviour=COMPLETION_QUIRK),
    _single("tc_intermediate", "TaskCompletionEvaluator",
            {"query": query("tc_intermediate"), "response": [pending("p1", "get_weather")]}, None),
    _single("tc_builtin_openapi", "TaskCompletionEvaluator",
            {"query": query("tc_builtin_openapi"), "response": BUILTIN_RUN, "tool_definitions": [OPENAPI_DEF]}, v(1),
            azure_behaviour=COMPLETION_QUIRK),
    _single("tc_threshold_reported", "TaskCompletionEvaluator",
            {"query": "Book a table [case:tc_threshold_reported]", "response": "Booked."}, v(1), ctor={"threshold": 0},
            azure_behaviour=COMPLETION_QUIRK),
    _single("tc_threshold_not_used", "TaskCompletionEvaluator",
            {"query": "Book a table [case:tc_threshold_not_used]", "response": "No."}, v(0), ctor={"threshold": 0},
            azure_behaviour=COMPLETION_QUIRK),
    Case("tc_conversation", "TaskCompletionEvaluator", {"conversation": conversation(["tc_c1", "tc_c2"])},
         {"tc_c1": v(0), "tc_c2": v(1)}, azure_behaviour=COMPLETION_QUIRK),
    # ------------------------------------------------------------------ ToolSelection (0/1)
    _single("ts_response", "ToolSelectionEvaluator",
            {"query": query("ts_response"), "response": WEATHER_RUN, "tool_definitions": [WEATHER_DEF, EMAIL_DEF]}, v(1)),
    _single("ts_tool_calls_fail", "ToolSelectionEvaluator",
            {"query": query("ts_tool_calls_fail"), "tool_definitions": [WEATHER_DEF, EMAIL_DEF],
             "tool_calls": [{"type": "tool_call", "tool_call_id": "e1", "name": "send_email", "arguments": {"to": "x"}}]},
            v(0)),
    _single("ts_ends_in_tool_call", "ToolSelectionEvaluator",
            {"query": query("ts_ends_in_tool_call"), "response": ENDS_IN_CALL, "tool_definitions": [WEATHER_DEF]}, v(1)),
    _single("ts_no_calls", "ToolSelectionEvaluator",
            {"query": query("ts_no_calls"), "response": [said("Sunny.")], "tool_definitions": [WEATHER_DEF]}, None),
    _single("ts_missing_definition", "ToolSelectionEvaluator",
            {"query": query("ts_missing_definition"), "response": WEATHER_RUN, "tool_definitions": [EMAIL_DEF]}, None),
    _single("ts_builtin", "ToolSelectionEvaluator",
            {"query": query("ts_builtin"), "response": BUILTIN_RUN, "tool_definitions": [EMAIL_DEF]}, v(1)),
    _single("ts_openapi", "ToolSelectionEvaluator",
            {"query": query("ts_openapi"), "response": [call("o1", "weather_api_current", location="Paris"),
                                                       result("o1", "18 C"), said("18 C.")],
             "tool_definitions": [OPENAPI_DEF]}, v(1)),
    _single("ts_text_response", "ToolSelectionEvaluator",
            {"query": "Weather? [case:ts_text_response]", "response": "called get_weather", "tool_definitions": [WEATHER_DEF]},
            v(0)),
    _single("ts_threshold_zero", "ToolSelectionEvaluator",
            {"query": query("ts_threshold_zero"), "response": WEATHER_RUN, "tool_definitions": [WEATHER_DEF]}, v(0),
            ctor={"threshold": 0},
            azure_behaviour="azure 1.18 reports threshold= but passes ToolSelection only at a score of 1"),
    # ------------------------------------------------------------------ ToolInputAccuracy (0/1)
    _single("tia_pass", "ToolInputAccuracyEvaluator",
            {"query": query("tia_pass"), "response": WEATHER_RUN, "tool_definitions": [WEATHER_DEF]}, v(1)),
    _single("tia_fail", "ToolInputAccuracyEvaluator",
            {"query": query("tia_fail"), "response": [call("c1", "get_weather", town="Paris"), said("?")],
             "tool_definitions": [WEATHER_DEF]}, v(0)),
    _single("tia_ends_in_tool_call", "ToolInputAccuracyEvaluator",
            {"query": query("tia_ends_in_tool_call"), "response": ENDS_IN_CALL, "tool_definitions": [WEATHER_DEF]}, v(1)),
    _single("tia_no_calls", "ToolInputAccuracyEvaluator",
            {"query": query("tia_no_calls"), "response": [said("Sunny.")], "tool_definitions": [WEATHER_DEF]}, None),
    _single("tia_missing_definition", "ToolInputAccuracyEvaluator",
            {"query": query("tia_missing_definition"), "response": WEATHER_RUN, "tool_definitions": [EMAIL_DEF]}, None),
    _single("tia_builtin", "ToolInputAccuracyEvaluator",
            {"query": query("tia_builtin"), "response": BUILTIN_RUN, "tool_definitions": [EMAIL_DEF]}, v(1)),
    _single("tia_openapi", "ToolInputAccuracyEvaluator",
            {"query": query("tia_openapi"), "response": [call("o1", "weather_api_current", location="Paris"),
                                                        result("o1", "18 C"), said("18 C.")],
             "tool_definitions": [OPENAPI_DEF]}, v(0)),
    _single("tia_text_response", "ToolInputAccuracyEvaluator",
            {"query": "Weather? [case:tia_text_response]", "response": "get_weather(city='Paris')",
             "tool_definitions": [WEATHER_DEF]}, v(1)),
    # ------------------------------------------------------------------ ToolOutputUtilization (0/1)
    _single("tou_pass", "ToolOutputUtilizationEvaluator",
            {"query": query("tou_pass"), "response": WEATHER_RUN, "tool_definitions": [WEATHER_DEF]}, v(1)),
    _single("tou_fail", "ToolOutputUtilizationEvaluator",
            {"query": query("tou_fail"), "response": WEATHER_RUN[:2] + [said("It is 30 C.")],
             "tool_definitions": [WEATHER_DEF]}, v(0)),
    _single("tou_builtin", "ToolOutputUtilizationEvaluator",
            {"query": query("tou_builtin"), "response": BUILTIN_RUN, "tool_definitions": [WEATHER_DEF]}, v(1)),
    _single("tou_openapi", "ToolOutputUtilizationEvaluator",
            {"query": query("tou_openapi"), "response": [call("o1", "weather_api_current", location="Paris"),
                                                        result("o1", "18 C"), said("18 C.")],
             "tool_definitions": [OPENAPI_DEF]}, v(1)),
    _single("tou_intermediate", "ToolOutputUtilizationEvaluator",
            {"query": query("tou_intermediate"), "response": [pending("p1", "get_weather")],
             "tool_definitions": [WEATHER_DEF]}, None),
    _single("tou_text", "ToolOutputUtilizationEvaluator",
            {"query": "Weather? [case:tou_text]", "response": "The tool said 18 C, so it is 18 C.",
             "tool_definitions": [WEATHER_DEF]}, v(1)),
    # ------------------------------------------------------------------ ToolCallSuccess (0/1)
    _single("tcs_pass", "ToolCallSuccessEvaluator", {"response": marked_run("tcs_pass")}, v(1)),
    _single("tcs_fail", "ToolCallSuccessEvaluator",
            {"response": marked_run("tcs_fail", {"error": "timeout"}), "tool_definitions": [WEATHER_DEF]}, v(0)),
    _single("tcs_query_not_used", "ToolCallSuccessEvaluator",
            {"query": "Weather?", "response": marked_run("tcs_query_not_used")}, v(1)),
    _single("tcs_builtin", "ToolCallSuccessEvaluator",
            {"response": BUILTIN_RUN[:-1] + marked_run("tcs_builtin")}, v(1)),
    _single("tcs_openapi", "ToolCallSuccessEvaluator",
            {"response": [call("o1", "weather_api_current", location="Paris"), result("o1", "18 C [case:tcs_openapi]"),
                          said("18 C")], "tool_definitions": [OPENAPI_DEF]}, v(1)),
    _single("tcs_intermediate", "ToolCallSuccessEvaluator",
            {"response": marked_run("tcs_intermediate")[:2] + [pending("p1", "get_weather")]}, None),
    _single("tcs_ends_in_tool_call", "ToolCallSuccessEvaluator",
            {"response": marked_run("tcs_ends_in_tool_call")[:2] + [call("c2", "get_weather", city="Rome")]}, v(0)),
    _single("tcs_text", "ToolCallSuccessEvaluator",
            {"response": "get_weather returned 18 C [case:tcs_text]"}, v(1)),
]

#: calls both sides refuse (azure: a UserError ``EvaluationException``; ours: ``InputError``)
REFUSED: List[Case] = [
    _single("tca_no_definitions", "ToolCallAccuracyEvaluator",
            {"query": query("tca_no_definitions"), "tool_definitions": [], "response": WEATHER_RUN}, None),
    _single("tca_definitions_left_out", "ToolCallAccuracyEvaluator",
            {"query": query("tca_definitions_left_out"), "response": WEATHER_RUN}, None),
]

#: rows azure sends to its judge, which answers "skipped", and ours decides without a judge call
#: (DIFFERENCES["decided_without_judge"]): the same not-applicable row, with our reason
SKIPPED_BY_JUDGE: List[Case] = [
    _single("tou_no_tool_output", "ToolOutputUtilizationEvaluator",
            {"query": query("tou_no_tool_output"), "response": [said("Sunny.")], "tool_definitions": [WEATHER_DEF]},
            {"status": "skipped", "reason": "no tool output to use"}),
    _single("tcs_no_tool_calls", "ToolCallSuccessEvaluator",
            {"response": [user("[case:tcs_no_tool_calls]"), said("Sunny.")]},
            {"status": "skipped", "reason": "no tool calls"}),
]

#: rows azure judges with a score outside the metric's scale, which our verdict schema refuses
#: (DIFFERENCES["score_validation"]): azure reports the number, ours a JudgeError
OUT_OF_SCALE: List[Case] = [
    _single("tcs_score_4", "ToolCallSuccessEvaluator", {"response": marked_run("tcs_score_4")}, v(4)),
    _single("rc_score_9", "ResponseCompletenessEvaluator",
            {"response": "18 C.", "ground_truth": "18 C [case:rc_score_9]"}, v(9)),
]

#: rows with a tool 1.18 refuses for this metric (DIFFERENCES["unsupported_tools"]): ours judges them
UNSUPPORTED_TOOL: List[Case] = [
    _single("tou_bing", "ToolOutputUtilizationEvaluator",
            {"query": query("tou_bing"), "response": [call("b1", "bing_grounding", query="Paris weather"),
                                                     result("b1", "18 C"), said("18 C.")],
             "tool_definitions": [WEATHER_DEF]}, v(1)),
]


#: a conversation turn without its ground truth: azure 1.18 judges it against "" ; ours refuses it
CASES += [
    # ------------------------------------------------------------------ ground truth as 1.18 renders it
    # an assistant message without 'ground_truth' is judged against "" (1.18's converter), and so is ""
    Case("rc_conversation_no_truth", "ResponseCompletenessEvaluator",
         {"conversation": {"messages": [{"role": "user", "content": "Weather?"},
                                        {"role": "assistant", "content": "Sunny [case:rc_no_truth]"}]}},
         {"rc_no_truth": v(1)}),
    _single("rc_response_empty", "ResponseCompletenessEvaluator",
            {"response": "", "ground_truth": "Sunny [case:rc_response_empty]"}, v(1)),
    _single("rc_ground_truth_empty", "ResponseCompletenessEvaluator",
            {"response": "Sunny [case:rc_ground_truth_empty]", "ground_truth": ""}, v(2)),
    _single("rc_ground_truth_number", "ResponseCompletenessEvaluator",
            {"response": "It is 18 C [case:rc_ground_truth_number]", "ground_truth": 18}, v(5)),
    # the NaN a pandas-read table gives for an absent column: 1.18 judges the text "nan"
    _single("rc_ground_truth_nan", "ResponseCompletenessEvaluator",
            {"response": "Sunny [case:rc_ground_truth_nan]", "ground_truth": float("nan")}, v(1)),
]


# ---------------------------------------------------------------------------- input validation
CALL_ITEM = {"type": "tool_call", "tool_call_id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}}
NO_PARAMETERS_DEF = {"name": "get_weather", "description": "Current weather for a city."}

#: 1.18's input validation (``_evaluators/_common/_validators``): rows both sides refuse, each with
#: the words of azure's ``EvaluationException`` (ours is an ``InputError`` naming the evaluator and input)
BOTH_REFUSE: List[Tuple[Case, str]] = [
    (_single("ir_no_query", "IntentResolutionEvaluator", {"response": "Sunny."}, None),
     "Query is a required input and cannot be None"),
    (_single("ir_empty_response", "IntentResolutionEvaluator", {"query": "Weather?", "response": ""}, None),
     "Response string cannot be empty"),
    (_single("ir_empty_query_list", "IntentResolutionEvaluator", {"query": [], "response": "Sunny."}, None),
     "Query list cannot be empty"),
    (_single("ir_message_without_role", "IntentResolutionEvaluator",
             {"query": [{"content": "Weather?"}], "response": "Sunny."}, None),
     "Each message must contain a 'role' field"),
    (_single("ir_query_not_text", "IntentResolutionEvaluator", {"query": 5, "response": "Sunny."}, None),
     "Query must be a string or a list of messages"),
    (_single("ir_image_only_query", "IntentResolutionEvaluator",
             {"query": [{"role": "user", "content": [{"type": "image", "url": "x"}]}], "response": "Sunny."}, None),
     "Invalid content type 'image'"),
    (_single("ta_conversation_not_a_dict", "TaskAdherenceEvaluator", {"conversation": "hi"}, None),
     "Conversation must be a dictionary"),
    (_single("ta_no_response", "TaskAdherenceEvaluator", {"query": "Weather?"}, None),
     "Response is a required input and cannot be None"),
    (_single("tc_no_query", "TaskCompletionEvaluator", {"response": "Done."}, None),
     "Query is a required input and cannot be None"),
    (_single("tca_no_query", "ToolCallAccuracyEvaluator", {"tool_calls": [CALL_ITEM], "tool_definitions": [WEATHER_DEF]},
             None), "Query is a required input and cannot be None"),
    (_single("tca_arguments_not_a_dict", "ToolCallAccuracyEvaluator",
             {"query": "Weather in Paris?", "tool_calls": [{**CALL_ITEM, "arguments": "city=Paris"}],
              "tool_definitions": [WEATHER_DEF]}, None),
     "The 'arguments' field must be a dictionary"),
    (_single("tca_definition_not_a_dict", "ToolCallAccuracyEvaluator",
             {"query": "Weather in Paris?", "tool_calls": [CALL_ITEM], "tool_definitions": ["get_weather"]}, None),
     "Each tool definition must be a dictionary"),
    (_single("tca_call_without_name", "ToolCallAccuracyEvaluator",
             {"query": "Weather in Paris?", "tool_calls": [{"type": "tool_call", "arguments": {"city": "Paris"}}],
              "tool_definitions": [WEATHER_DEF]}, None),
     "must contain a 'name' field"),
    (_single("ts_arguments_not_a_dict", "ToolSelectionEvaluator",
             {"query": "Weather in Paris?", "tool_calls": [{**CALL_ITEM, "arguments": "city=Paris"}],
              "tool_definitions": [WEATHER_DEF]}, None),
     "The 'arguments' field must be a dictionary"),
    (_single("tca_function_call_arguments_text", "ToolCallAccuracyEvaluator",
             {"query": "Weather in Paris?", "tool_definitions": [WEATHER_DEF],
              "response": [{"role": "assistant", "content": [fc_item("f1", arguments='{"city": "Paris"}')]}]}, None),
     "The 'arguments' field must be a dictionary in tool_call content items"),
    (_single("ts_function_call_without_tool_call_id", "ToolSelectionEvaluator",
             {"query": "Weather in Paris?", "tool_definitions": [WEATHER_DEF],
              "response": [{"role": "assistant", "content": [
                  {"type": "function_call", "call_id": "f1", "name": "get_weather", "arguments": {"city": "Paris"}}]}]},
             None),
     "must contain a 'tool_call_id' field"),
]

#: rows azure 1.18 refuses and ours judges on purpose (``DIFFERENCES["definition_without_parameters"]``)
ACCEPTED_INVALID: List[Tuple[Case, str]] = [
    (_single("tca_definition_without_parameters", "ToolCallAccuracyEvaluator",
             {"query": "Weather in Paris? [case:tca_definition_without_parameters]", "tool_calls": [CALL_ITEM],
              "tool_definitions": [NO_PARAMETERS_DEF]}, v(5, properties=tca_properties(1, 1))),
     "Each tool definitions must contain a 'parameters' field"),
    (_single("tia_definition_without_parameters", "ToolInputAccuracyEvaluator",
             {"query": "Weather in Paris? [case:tia_definition_without_parameters]",
              "response": [{"role": "assistant", "content": [CALL_ITEM]}], "tool_definitions": [NO_PARAMETERS_DEF]},
             v(1)),
     "Each tool definitions must contain a 'parameters' field"),
]
