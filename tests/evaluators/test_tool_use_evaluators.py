"""The five 0/1 agent metrics of azure-ai-evaluation 1.18, at the top level, against a real local judge.

Each scripted judge derives its verdict from the blocks of the prompt it receives, so a test
also proves what reached the judge (the calls, their results, the definitions). Inputs come in
azure's agent message format, OpenAI chat messages and plain strings; definitions as flat
dicts, OpenAI tools, an OpenAPI tool with functions, and built-in tools with none.
"""

import json

import pytest

from agent_evaluators import (
    InputError,
    JudgeError,
    TaskCompletionEvaluator,
    ToolCallSuccessEvaluator,
    ToolInputAccuracyEvaluator,
    ToolOutputUtilizationEvaluator,
    ToolSelectionEvaluator,
)
from agent_evaluators.testing import schema_reply

from .conftest import block

QUERY = [
    {"role": "system", "content": "You are a weather assistant."},
    {"role": "user", "content": [{"type": "text", "text": "What's the weather in Paris?"}]},
]
WEATHER_DEF = {
    "name": "get_weather",
    "description": "Current weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
EMAIL_DEF = {
    "name": "send_email",
    "description": "Send an email.",
    "parameters": {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]},
}
TOOLS = [WEATHER_DEF, EMAIL_DEF]


def azure_run(city="Paris", result=None, answer="It is 18 °C and sunny in Paris.", name="get_weather"):
    """A response in azure's agent message format: a call, its result, the answer."""
    result = {"temp_c": 18, "sky": "sunny"} if result is None else result
    out = [
        {"role": "assistant", "content": [
            {"type": "tool_call", "tool_call_id": "c1", "name": name, "arguments": {"city": city}}]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": result}]},
    ]
    if answer is not None:
        out.append({"role": "assistant", "content": [{"type": "text", "text": answer}]})
    return out


def calls_in(messages):
    """The tool calls in rendered JSON messages (what the judge sees)."""
    return [c for m in messages if m["role"] == "assistant" for c in m.get("tool_calls", [])]


def results_in(messages):
    return [m.get("content") for m in messages if m["role"] == "tool"]


def final_answer(messages):
    texts = [m["content"] for m in messages if m["role"] == "assistant" and m.get("content")]
    return texts[-1] if texts else ""


def assert_scored(out, key, score):
    assert out[key] == float(score)
    assert out[f"{key}_result"] == ("pass" if score == 1 else "fail")
    assert out[f"{key}_threshold"] == 1
    assert out[f"{key}_usage"]["judge_calls"] == 1


def assert_not_applicable(out, key, *words):
    assert out[key] is None and out[f"{key}_result"] == "not_applicable"
    for word in words:
        assert word in out[f"{key}_reason"], out[f"{key}_reason"]


# ---------------------------------------------------------------------------- task completion
def completion_judge(req):
    """Done when the final answer states the temperature the tool returned."""
    response = block(req, "agent_response")
    temps = [r["temp_c"] for r in results_in(response) if isinstance(r, dict) and "temp_c" in r]
    answer = final_answer(response)
    done = bool(temps) and f"{temps[0]} °C" in answer or "18 °C" in answer
    return {"task_requirements": "the weather in Paris", "delivered_outcome": answer,
            "completion_gaps": [] if done else ["no weather given"], "reason": f"done: {done}", "score": int(done)}


def test_task_completion_passes_and_fails_on_the_delivered_outcome(judge_server):
    server = judge_server(completion_judge)
    ev = TaskCompletionEvaluator(server.openai_config())
    good = ev(query=QUERY, response=azure_run(), tool_definitions=TOOLS)
    assert_scored(good, "task_completion", 1)
    assert good["task_completion_details"] == {"task_requirements": "the weather in Paris",
                                               "delivered_outcome": "It is 18 °C and sunny in Paris.",
                                               "completion_gaps": []}
    bad = ev(query=QUERY, response=azure_run(answer="Let me get back to you on that."), tool_definitions=TOOLS)
    assert_scored(bad, "task_completion", 0)
    assert bad["task_completion_details"]["completion_gaps"] == ["no weather given"]
    # the judge saw the user's request, the call with its result; not the system message or the definitions
    req = server.requests[0]
    assert block(req, "conversation") == [{"role": "user", "content": "What's the weather in Paris?"}]
    assert "weather assistant" not in req.text and "<tool_definitions>" not in req.text
    response = block(req, "agent_response")
    assert calls_in(response)[0]["arguments"] == {"city": "Paris"}
    assert results_in(response) == [{"temp_c": 18, "sky": "sunny"}]


def test_task_completion_takes_plain_strings_and_a_conversation(judge_server):
    server = judge_server(completion_judge)
    ev = TaskCompletionEvaluator(server.openai_config())
    out = ev(query="Weather in Paris?", response="It is 18 °C and sunny in Paris.")
    assert_scored(out, "task_completion", 1)
    assert block(server.requests[-1], "agent_response") == [
        {"role": "assistant", "content": "It is 18 °C and sunny in Paris."}]
    conversation = [{"role": "user", "content": "Weather in Paris?"},
                    {"role": "assistant", "content": "It is 18 °C in Paris."},
                    {"role": "user", "content": "And tomorrow?"},
                    {"role": "assistant", "content": "I cannot say."}]
    per_turn = ev(conversation=conversation)
    assert per_turn["task_completion"] == 0.5 and per_turn["task_completion_result"] == "fail"


def test_task_completion_not_applicable_while_the_agent_has_not_answered(judge_server):
    server = judge_server(completion_judge)
    ev = TaskCompletionEvaluator(server.openai_config())
    assert_not_applicable(ev(query=QUERY, response=azure_run()[:1]), "task_completion", "tool call")
    assert_not_applicable(ev(query=QUERY, response=azure_run(answer=None)), "task_completion", "not answered")
    assert server.stats()["requests"] == 0


def test_a_zero_one_verdict_outside_zero_and_one_is_never_a_score(judge_server):
    server = judge_server(lambda req: {**completion_judge(req), "score": 4})
    with pytest.raises(JudgeError):
        TaskCompletionEvaluator(server.openai_config())(query="q", response="a")
    schema = server.requests[0].json_schema
    assert schema["properties"]["score"]["enum"] == [0, 1]


# ---------------------------------------------------------------------------- tool selection
def selection_judge(req):
    """Right when every call is get_weather and get_weather was called."""
    calls = block(req, "tool_calls")
    if isinstance(calls, str):  # plain text: the judge reads it
        names = ["get_weather"] if "get_weather" in calls else ["something else"]
    else:
        names = [c["name"] for c in calls]
    wrong = [n for n in names if n != "get_weather"]
    missing = [] if "get_weather" in names else ["get_weather"]
    ok = not wrong and not missing
    return {"correct_tool_selections": len(names) - len(wrong), "wrong_tool_selections": len(wrong),
            "excessive_tools": wrong, "missing_tools": missing, "reason": f"right tools: {ok}", "score": int(ok)}


def test_tool_selection_judges_the_names_of_the_tools_called(judge_server):
    server = judge_server(selection_judge)
    ev = ToolSelectionEvaluator(server.openai_config())
    good = ev(query=QUERY, response=azure_run(), tool_definitions=TOOLS)
    assert_scored(good, "tool_selection", 1)
    # only names reach the judge: choosing a tool is not about its arguments
    assert block(server.requests[-1], "tool_calls") == [{"call_index": 0, "name": "get_weather"}]
    assert [d["name"] for d in block(server.requests[-1], "tool_definitions")] == ["get_weather", "send_email"]

    bad = ev(query=QUERY, tool_calls=[{"type": "tool_call", "name": "send_email", "arguments": {"to": "x@y.z"}}],
             tool_definitions=TOOLS)
    assert_scored(bad, "tool_selection", 0)
    assert bad["tool_selection_details"] == {"correct_tool_selections": 0, "wrong_tool_selections": 1,
                                             "excessive_tools": ["send_email"], "missing_tools": ["get_weather"]}
    # the definitions of the tools called come first
    assert [d["name"] for d in block(server.requests[-1], "tool_definitions")] == ["send_email", "get_weather"]


def test_tool_selection_reads_the_response_calls_first_then_tool_calls(judge_server):
    server = judge_server(selection_judge)
    ev = ToolSelectionEvaluator(server.openai_config())
    email = [{"type": "tool_call", "name": "send_email", "arguments": {"to": "x@y.z"}}]
    assert_scored(ev(query=QUERY, response=azure_run(), tool_calls=email, tool_definitions=TOOLS), "tool_selection", 1)
    answer_only = [{"role": "assistant", "content": "Done."}]
    assert_scored(ev(query=QUERY, response=answer_only, tool_calls=email, tool_definitions=TOOLS), "tool_selection", 0)
    assert block(server.requests[-1], "tool_calls") == [{"call_index": 0, "name": "send_email"}]


def test_tool_selection_not_applicable_rules(judge_server):
    server = judge_server(selection_judge)
    ev = ToolSelectionEvaluator(server.openai_config())
    no_calls = ev(query=QUERY, response=[{"role": "assistant", "content": "Hello"}], tool_definitions=TOOLS)
    assert_not_applicable(no_calls, "tool_selection", "no tool calls")
    no_definitions = ev(query=QUERY, response=azure_run())
    assert_not_applicable(no_definitions, "tool_selection", "no tool definitions")
    assert_not_applicable(ev(query=QUERY, response=azure_run(), tool_definitions=[]), "tool_selection",
                          "no tool definitions")
    undefined = ev(query=QUERY, response=azure_run(name="get_forecast"), tool_definitions=TOOLS)
    assert_not_applicable(undefined, "tool_selection", "'get_forecast'", "no definition")
    assert server.stats()["requests"] == 0
    with pytest.raises(InputError, match="tool_calls= or response="):
        ev(query=QUERY, tool_definitions=TOOLS)


def test_tool_selection_plain_text_and_openapi_and_builtin_tools(judge_server):
    server = judge_server(selection_judge)
    ev = ToolSelectionEvaluator(server.openai_config())
    text = ev(query="Weather in Paris?", response="I called get_weather(city='Paris').", tool_definitions=TOOLS)
    assert_scored(text, "tool_selection", 1)
    assert block(server.requests[-1], "tool_calls") == "I called get_weather(city='Paris')."

    openapi = [{"type": "openapi", "name": "weather_api", "functions": [WEATHER_DEF]}]
    assert_scored(ev(query=QUERY, response=azure_run(), tool_definitions=openapi), "tool_selection", 1)
    assert block(server.requests[-1], "tool_definitions")[0]["name"] == "get_weather"

    search = [{"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "s1", "name": "file_search",
                                                 "arguments": {}}]}]
    builtin = ev(query="Find the refund policy in my files", response=search, tool_definitions=[WEATHER_DEF])
    assert_scored(builtin, "tool_selection", 0)
    assert "file_search" in {d["name"] for d in block(server.requests[-1], "tool_definitions")}
    # built-in tools need no definitions at all
    alone = ev(query="Find the refund policy in my files", response=search)
    assert_scored(alone, "tool_selection", 0)
    assert [d["name"] for d in block(server.requests[-1], "tool_definitions")] == ["file_search"]


# ---------------------------------------------------------------------------- tool input accuracy
def input_judge(req):
    """Every argument value must appear in the conversation."""
    said = json.dumps(block(req, "conversation"))
    response = block(req, "agent_response")
    args = [(c["name"], k, v) for c in calls_in(response) for k, v in (c.get("arguments") or {}).items()]
    wrong = [f"{n}.{k}={v}: not in the conversation" for n, k, v in args if str(v) not in said]
    return {"total_parameters": len(args), "correct_parameters": len(args) - len(wrong),
            "incorrect_parameters": wrong, "reason": f"{len(wrong)} wrong", "score": int(not wrong)}


def test_tool_input_accuracy_checks_every_argument_against_the_conversation(judge_server):
    server = judge_server(input_judge)
    ev = ToolInputAccuracyEvaluator(server.openai_config())
    good = ev(query=QUERY, response=azure_run(), tool_definitions=TOOLS)
    assert_scored(good, "tool_input_accuracy", 1)
    assert good["tool_input_accuracy_details"] == {"total_parameters": 1, "correct_parameters": 1,
                                                   "incorrect_parameters": []}
    bad = ev(query=QUERY, response=azure_run(city="Lyon"), tool_definitions=TOOLS)
    assert_scored(bad, "tool_input_accuracy", 0)
    assert bad["tool_input_accuracy_details"]["incorrect_parameters"] == ["get_weather.city=Lyon: not in the conversation"]
    # the judge saw the call, its result and the definitions
    response = block(server.requests[-1], "agent_response")
    assert calls_in(response)[0]["arguments"] == {"city": "Lyon"}
    assert results_in(response) == [{"temp_c": 18, "sky": "sunny"}]
    assert block(server.requests[-1], "tool_definitions")[0]["name"] == "get_weather"


def test_tool_input_accuracy_judges_a_response_that_ends_in_its_call(judge_server):
    server = judge_server(input_judge)
    ev = ToolInputAccuracyEvaluator(server.openai_config())
    openai_call = [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]}]
    out = ev(query=QUERY, response=openai_call, tool_definitions=[{"type": "function", "function": WEATHER_DEF}])
    assert_scored(out, "tool_input_accuracy", 1)


def test_tool_input_accuracy_not_applicable_rules_and_required_definitions(judge_server):
    server = judge_server(input_judge)
    ev = ToolInputAccuracyEvaluator(server.openai_config())
    assert_not_applicable(ev(query=QUERY, response=[{"role": "assistant", "content": "Hi"}], tool_definitions=TOOLS),
                          "tool_input_accuracy", "no tool calls")
    assert_not_applicable(ev(query=QUERY, response=azure_run(), tool_definitions=[]),
                          "tool_input_accuracy", "no tool definitions")
    assert_not_applicable(ev(query=QUERY, response=azure_run(name="get_forecast"), tool_definitions=TOOLS),
                          "tool_input_accuracy", "'get_forecast'")
    assert_not_applicable(ev(query="q", response="get_weather(city='Paris')", tool_definitions=[]),
                          "tool_input_accuracy", "no tool definitions")
    assert server.stats()["requests"] == 0
    with pytest.raises(InputError, match="tool_definitions"):
        ev(query=QUERY, response=azure_run())


def test_tool_input_accuracy_plain_text_reaches_the_judge_as_given(judge_server):
    server = judge_server(lambda req: {"total_parameters": 1, "correct_parameters": 1, "incorrect_parameters": [],
                                       "reason": "ok", "score": 1})
    out = ToolInputAccuracyEvaluator(server.openai_config())(
        query="Weather in Paris?", response="get_weather(city='Paris')", tool_definitions=TOOLS)
    assert_scored(out, "tool_input_accuracy", 1)
    assert block(server.requests[-1], "agent_response") == [{"role": "assistant", "content": "get_weather(city='Paris')"}]


# ---------------------------------------------------------------------------- tool output utilization
def utilization_judge(req):
    """Faulty when the answer's temperature is not the one the tool returned."""
    messages = block(req, "conversation") + block(req, "agent_response")
    temps = [r["temp_c"] for r in results_in(messages) if isinstance(r, dict) and "temp_c" in r]
    answer = final_answer(block(req, "agent_response"))
    faulty = [] if temps and f"{temps[-1]} °C" in answer else [f"answer {answer!r} misreads temp_c={temps}"]
    return {"faulty_uses": faulty, "reason": f"{len(faulty)} faulty", "score": int(not faulty)}


def test_tool_output_utilization_passes_and_fails_on_the_use_of_tool_results(judge_server):
    server = judge_server(utilization_judge)
    ev = ToolOutputUtilizationEvaluator(server.openai_config())
    assert_scored(ev(query=QUERY, response=azure_run(), tool_definitions=TOOLS), "tool_output_utilization", 1)
    bad = ev(query=QUERY, response=azure_run(answer="It is 31 °C in Paris."), tool_definitions=TOOLS)
    assert_scored(bad, "tool_output_utilization", 0)
    assert bad["tool_output_utilization_details"]["faulty_uses"][0].startswith("answer 'It is 31 °C")
    # a tool output in an earlier turn (the query) counts too
    earlier = QUERY + azure_run(answer=None)
    later = [{"role": "assistant", "content": "As I found, it is 18 °C in Paris."}]
    assert_scored(ev(query=earlier, response=later, tool_definitions=TOOLS), "tool_output_utilization", 1)


def test_tool_output_utilization_not_applicable_rules(judge_server):
    server = judge_server(utilization_judge)
    ev = ToolOutputUtilizationEvaluator(server.openai_config())
    no_output = ev(query=QUERY, response=[{"role": "assistant", "content": "It is sunny."}], tool_definitions=TOOLS)
    assert_not_applicable(no_output, "tool_output_utilization", "no tool output")
    assert_not_applicable(ev(query=QUERY, response=azure_run()[:1], tool_definitions=TOOLS),
                          "tool_output_utilization", "tool call")
    assert server.stats()["requests"] == 0
    with pytest.raises(InputError, match="tool_definitions"):
        ev(query=QUERY, response=azure_run())
    # plain text may quote tool output in any form: the judge decides
    text = ev(query="Weather in Paris?", response="get_weather returned 18 °C; it is 18 °C.", tool_definitions=TOOLS)
    assert text["tool_output_utilization_result"] in ("pass", "fail")
    assert server.stats()["requests"] == 1


# ---------------------------------------------------------------------------- tool call success
def success_judge(req):
    """A call failed when its result holds an error or is empty."""
    response = block(req, "agent_response")
    failed = []
    if isinstance(response, list) and response and isinstance(response[0], dict):
        pending = []  # each call is followed by its result
        for m in response:
            pending += [c["name"] for c in m.get("tool_calls", [])]
            if m["role"] == "tool" and pending:
                name = pending.pop(0)
                if not m.get("content") or "error" in json.dumps(m.get("content")):
                    failed.append(name)
    return {"failed_tools": failed, "reason": f"failed: {failed}", "score": int(not failed)}


def test_tool_call_success_fails_on_an_error_or_empty_result(judge_server):
    server = judge_server(success_judge)
    ev = ToolCallSuccessEvaluator(server.openai_config())
    assert_scored(ev(response=azure_run(), tool_definitions=TOOLS), "tool_call_success", 1)
    # success needs no schema: no definitions are shown
    assert "<tool_definitions>" not in server.requests[-1].text and "Send an email" not in server.requests[-1].text
    error = ev(response=azure_run(result={"error": "503 upstream timed out"}, answer="Sorry."))
    assert_scored(error, "tool_call_success", 0)
    assert error["tool_call_success_details"] == {"failed_tools": ["get_weather"]}
    # a response ending in a tool result (no answer yet) is judged: every call has its result
    assert_scored(ev(response=azure_run(answer=None)), "tool_call_success", 1)


def test_tool_call_success_builtin_tool_result(judge_server):
    server = judge_server(success_judge)
    search = [
        {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "s1", "name": "azure_ai_search",
                                           "arguments": {"input": "refund policy"}}]},
        {"role": "tool", "tool_call_id": "s1", "content": [
            {"type": "tool_result", "tool_result": [{"title": "Refunds", "content": "30 days"}]}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Refunds are possible within 30 days."}]},
    ]
    out = ToolCallSuccessEvaluator(server.openai_config())(response=search)
    assert_scored(out, "tool_call_success", 1)
    response = block(server.requests[-1], "agent_response")
    assert calls_in(response)[0]["name"] == "azure_ai_search"
    assert results_in(response) == [[{"title": "Refunds", "content": "30 days"}]]


def test_tool_call_success_not_applicable_rules_and_plain_text(judge_server):
    server = judge_server(success_judge)
    ev = ToolCallSuccessEvaluator(server.openai_config())
    assert_not_applicable(ev(response=azure_run()[:1]), "tool_call_success", "no result yet")
    assert_not_applicable(ev(response=[{"role": "assistant", "content": "Hi"}]), "tool_call_success", "no tool calls")
    assert server.stats()["requests"] == 0
    text = ev(response="[TOOL_CALL] get_weather(city=Paris) [TOOL_RESULT] 18 C")
    assert_scored(text, "tool_call_success", 1)
    assert block(server.requests[-1], "agent_response") == [
        {"role": "assistant", "content": "[TOOL_CALL] get_weather(city=Paris) [TOOL_RESULT] 18 C"}]
    with pytest.raises(InputError, match="response"):
        ev(tool_definitions=TOOLS)


# ---------------------------------------------------------------------------- every metric
OPENAPI = [{"type": "openapi", "name": "weather_api", "description": "A weather service.", "functions": [WEATHER_DEF]}]


@pytest.mark.parametrize("cls", [TaskCompletionEvaluator, ToolSelectionEvaluator, ToolInputAccuracyEvaluator,
                                 ToolOutputUtilizationEvaluator, ToolCallSuccessEvaluator],
                         ids=lambda c: c.result_key)
def test_openapi_definitions_reach_the_judge_as_their_functions(judge_server, cls):
    server = judge_server(lambda req: schema_reply(req, score=1))
    inputs = {"response": azure_run(), "tool_definitions": OPENAPI}
    if "query" in cls._public_signature.parameters:
        inputs["query"] = QUERY
    out = cls(server.openai_config())(**inputs)
    assert out[f"{cls.result_key}_result"] == "pass"
    if cls.reads.tool_definitions == "none":  # a metric that does not read definitions is not shown them
        assert "<tool_definitions>" not in server.requests[-1].text
        return
    assert block(server.requests[-1], "tool_definitions") == [
        {"name": "get_weather", "description": "Current weather for a city.", "parameters": WEATHER_DEF["parameters"]}]
