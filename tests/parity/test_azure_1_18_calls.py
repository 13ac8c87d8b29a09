"""Differential test (issue 35, items 2, 4, 5, 6): the calls 1.18.10 accepts, its exceptions, its
``_properties`` and its reasoning budget, against ``agent_evaluators.azure`` on one local judge.

The judge answers each side in the format its prompt asks for with the same verdict, found by the
``[case:<id>]`` marker; for ``_properties`` it gives azure's judge 1.18's field names and ours our
verdict's names for the same findings, so the rows must come out equal under 1.18's names.

Deliberate differences here (``DIFFERENCES``, each asserted where it applies):

* ``properties_samples``: ours has no ``sample_input``/``sample_output`` and its token counts are
  our prompt's (:data:`.test_azure_1_18.PROPERTIES_DIFFERENCE`);
* ``openai_tool_calls``: OpenAI Chat Completions tool calls are read and judged, where 1.18 cannot read them;
* ``definitions_text_checked``: JSON-text definitions are checked as a list is;
* ``error_text``: an error's ``str()`` is our message, without 1.18's ``(UserError)`` prefix; the
  class, ``blame`` and ``category`` are 1.18's.
"""

import importlib
import re
from typing import Any, Dict, List

import pytest

from agent_evaluators.testing import ChatRequest, JudgeServer, Reply, schema_reply

from ..conftest import optional_import
from .azure_cases import EMAIL_DEF, WEATHER_DEF, WEATHER_RUN, call, marked_run, query, result, said
from .judge_harness import AZURE_CLASS, AZURE_QUALITY_CLASS, COMPARED_SUFFIXES, assert_same_columns
from .test_azure_1_18 import PROPERTIES_DIFFERENCE

azure_evaluation = optional_import("azure.ai.evaluation")

DIFFERENCES = {
    "properties_samples": PROPERTIES_DIFFERENCE,
    "openai_tool_calls": ("ToolCallAccuracy/ToolSelection judge OpenAI Chat Completions tool calls "
                          "({'type': 'function', 'function': {...}}) given as tool_calls= or in messages; 1.18 reads "
                          "only azure-agent tool_call items there (not applicable, or the row refused)"),
    "definitions_text_checked": ("tool_definitions as JSON text: every called tool still needs a definition, as "
                                 "with a list; 1.18 skips that check for text (the same definitions, another row)"),
    "error_text": ("str() of an error raised through agent_evaluators.azure is our message (naming the evaluator and "
                   "input), without 1.18's '(UserError) ' prefix; its class, blame and category are 1.18's"),
}

MARKER = re.compile(r"\[case:(\w+)\]")
TOKEN_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens", "finish_reason", "model")

#: case id -> score, and the same findings under 1.18's names ("azure") and our verdict's ("ours")
VERDICTS: Dict[str, Dict[str, Any]] = {
    "ts_props": {"score": 0, "azure": {
        "correct_tool_selections": 1, "wrong_tool_selections": 1, "excessive_tools_used": 1,
        "excessive_tools_list": ["send_email"], "missing_tools": 0, "missing_tools_list": []},
        "ours": {"correct_tool_selections": 1, "wrong_tool_selections": 1, "excessive_tools": ["send_email"],
                 "missing_tools": []}},
    "ts_props_none_wrong": {"score": 1, "azure": {
        "correct_tool_selections": 2, "wrong_tool_selections": 0, "excessive_tools_used": 0,
        "excessive_tools_list": [], "missing_tools": 1, "missing_tools_list": ["send_email"]},
        "ours": {"correct_tool_selections": 2, "wrong_tool_selections": 0, "excessive_tools": [],
                 "missing_tools": ["send_email"]}},
    "tia_props": {"score": 0, "azure": {
        "total_parameters_passed": 3, "correct_parameters_passed": 2, "incorrect_parameters": ["city: invented"]},
        "ours": {"total_parameters": 3, "correct_parameters": 2, "incorrect_parameters": ["city: invented"]}},
    "tia_props_no_parameters": {"score": 1, "azure": {
        "total_parameters_passed": 0, "correct_parameters_passed": 0, "incorrect_parameters": []},
        "ours": {"total_parameters": 0, "correct_parameters": 0, "incorrect_parameters": []}},
    "tou_props": {"score": 0, "azure": {"faulty_details": ["reported 81 C where the tool said 18 C"]},
                  "ours": {"faulty_uses": ["reported 81 C where the tool said 18 C"]}},
    "tcs_props": {"score": 0, "azure": {"failed_tools": "get_weather, send_email"},
                  "ours": {"failed_tools": ["get_weather", "send_email"]}},
    "tc_props": {"score": 0, "azure": {"task_requirements": "book a table", "delivered_outcome": "a menu",
                                       "completion_gaps": "no booking; no time"},
                 "ours": {"task_requirements": "book a table", "delivered_outcome": "a menu",
                          "completion_gaps": ["no booking", "no time"]}},
}


def judge(req: ChatRequest) -> Any:
    found = MARKER.findall(req.text)
    if not found:
        return Reply(content="no marker", status=400)
    spec = VERDICTS.get(found[-1], {"score": 1})  # on every scale here
    if req.json_schema is None:
        return {"reason": "scripted", "score": spec["score"], "status": "completed", "properties": spec.get("azure")}
    return {**schema_reply(req), **(spec.get("ours") or {}), "reason": "scripted", "score": spec["score"]}


@pytest.fixture(scope="module")
def server():
    with JudgeServer(judge) as judge_server:
        yield judge_server


@pytest.fixture(autouse=True)
def _no_tracing(monkeypatch):
    monkeypatch.setenv("PF_DISABLE_TRACING", "true")


def _config(server) -> Dict[str, Any]:
    return {**server.openai_config(), "type": "openai"}


def azure_class(name: str) -> Any:
    module, cls = {**AZURE_CLASS, **AZURE_QUALITY_CLASS}[name]
    return getattr(importlib.import_module(module), cls)


def our_class(name: str) -> Any:
    import agent_evaluators.azure as ours

    return getattr(ours, name)


# ---------------------------------------------------------------------------- item 5: _properties
PROPERTIES_CASES = [
    ("ToolSelectionEvaluator", "ts_props",
     {"query": query("ts_props"), "response": WEATHER_RUN, "tool_definitions": [WEATHER_DEF, EMAIL_DEF]}),
    ("ToolSelectionEvaluator", "ts_props_none_wrong",
     {"query": query("ts_props_none_wrong"), "response": WEATHER_RUN, "tool_definitions": [WEATHER_DEF, EMAIL_DEF]}),
    ("ToolInputAccuracyEvaluator", "tia_props",
     {"query": query("tia_props"), "response": WEATHER_RUN, "tool_definitions": [WEATHER_DEF]}),
    ("ToolInputAccuracyEvaluator", "tia_props_no_parameters",
     {"query": query("tia_props_no_parameters"), "response": WEATHER_RUN, "tool_definitions": [WEATHER_DEF]}),
    ("ToolOutputUtilizationEvaluator", "tou_props",
     {"query": query("tou_props"), "response": [call("c1", "get_weather", city="Paris"), result("c1", {"temp_c": 18}),
                                               said("It is 81 C.")], "tool_definitions": [WEATHER_DEF]}),
    ("ToolCallSuccessEvaluator", "tcs_props", {"response": marked_run("tcs_props"), "tool_definitions": [WEATHER_DEF]}),
    ("TaskCompletionEvaluator", "tc_props", {"query": "Book a table [case:tc_props]", "response": "Here is the menu."}),
]


@pytest.mark.parametrize("name,cid,call_args", PROPERTIES_CASES, ids=[c[1] for c in PROPERTIES_CASES])
def test_properties_have_1_18s_names_types_and_computed_accuracies(name, cid, call_args, server) -> None:
    theirs = azure_class(name)(_config(server))(**call_args)
    ours = our_class(name)(_config(server))(**call_args)
    key = next(k[: -len("_status")] for k in theirs if k.endswith("_status"))
    assert list(ours) == list(theirs), cid  # the row's keys, in 1.18's order
    assert_same_columns(cid, key, theirs, ours, [key + s for s in COMPARED_SUFFIXES])
    mine, azure = ours[f"{key}_properties"], dict(theirs[f"{key}_properties"])
    for sample in ("sample_input", "sample_output"):  # DIFFERENCES["properties_samples"]
        azure.pop(sample)
    assert list(mine) == list(azure), cid  # 1.18's names, in 1.18's order (the computed figure, then the tokens)
    for field, value in azure.items():
        if field in TOKEN_KEYS[:3]:
            continue  # DIFFERENCES["properties_samples"]: our prompt's token counts
        assert mine[field] == value and type(mine[field]) is type(value), (cid, field, mine[field], value)
    if name == "ToolSelectionEvaluator":
        assert isinstance(mine["tool_selection_accuracy"], float)
    if name == "ToolInputAccuracyEvaluator":
        assert isinstance(mine["parameter_extraction_accuracy"], float)


# ---------------------------------------------------------------------------- item 2: the calls 1.18 accepts
ACCEPTED_CALLS = [
    # an input the evaluator does not take is ignored (so ``ev(**row)`` works whatever the row's columns)
    ("fluency_query", "FluencyEvaluator", {}, {"query": "Hello?", "response": "It is fine. [case:fluency_query]"}),
    ("fluency_unknown_keyword", "FluencyEvaluator", {},
     {"response": "It is fine. [case:fluency_unknown_keyword]", "colour": "blue"}),
    ("tia_tool_calls", "ToolInputAccuracyEvaluator", {},
     {"query": query("tia_tool_calls"), "response": WEATHER_RUN, "tool_definitions": [WEATHER_DEF],
      "tool_calls": [{"type": "tool_call", "tool_call_id": "x", "name": "send_email", "arguments": {}}]}),
    ("tcs_ground_truth", "ToolCallSuccessEvaluator", {},
     {"response": marked_run("tcs_ground_truth"), "tool_definitions": [WEATHER_DEF], "ground_truth": "sunny"}),
    ("ir_every_column", "IntentResolutionEvaluator", {},
     {"query": "Weather? [case:ir_every_column]", "response": "Sunny.", "ground_truth": "Sunny", "context": "c",
      "line_number": 3}),
    # a constructor keyword the evaluator does not name is ignored
    ("fluency_temperature", "FluencyEvaluator", {"temperature": 0.2},
     {"response": "It is fine. [case:fluency_temperature]"}),
    ("tca_temperature", "ToolCallAccuracyEvaluator", {"temperature": 0.0, "max_tokens": 100},
     {"query": query("tca_temperature"), "response": "[]", "tool_definitions": [WEATHER_DEF]}),
    # a tool_definitions column holding JSON text (a CSV's)
    ("tou_definitions_text", "ToolOutputUtilizationEvaluator", {},
     {"query": query("tou_definitions_text"), "response": WEATHER_RUN,
      "tool_definitions": '[{"name": "get_weather", "description": "Weather.", "parameters": {"type": "object", '
                          '"properties": {"city": {"type": "string"}}}}]'}),
]


@pytest.mark.parametrize("cid,name,ctor,call_args", ACCEPTED_CALLS, ids=[c[0] for c in ACCEPTED_CALLS])
def test_calls_1_18_accepts_are_accepted(cid, name, ctor, call_args, server) -> None:
    before = server.stats()["requests"]
    theirs = azure_class(name)(_config(server), **ctor)(**call_args)
    asked_azure = server.stats()["requests"] - before
    ours = our_class(name)(_config(server), **ctor)(**call_args)
    assert server.stats()["requests"] - before - asked_azure == asked_azure == 1, cid
    key = next(k[: -len("_status")] for k in theirs if k.endswith("_status"))
    assert set(ours) == set(theirs), (cid, set(ours) ^ set(theirs))
    assert_same_columns(cid, key, theirs, ours, [key + s for s in COMPARED_SUFFIXES])


def _conversation_names() -> List[str]:
    return ["IntentResolutionEvaluator", "ResponseCompletenessEvaluator", "TaskAdherenceEvaluator",
            "RelevanceEvaluator", "CoherenceEvaluator", "FluencyEvaluator", "GroundednessEvaluator",
            "RetrievalEvaluator", "SimilarityEvaluator"]


@pytest.mark.parametrize("name", _conversation_names())
@pytest.mark.parametrize("messages", [
    [{"role": "user", "content": "Hello?"}],
    [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hello?"},
     {"role": "user", "content": "Anyone?"}],
], ids=["one_user_message", "system_and_two_user_messages"])
def test_a_conversation_with_no_assistant_reply_is_an_empty_dict(name, messages, server) -> None:
    before = server.stats()["requests"]
    theirs = azure_class(name)(_config(server))(conversation={"messages": messages})
    ours = our_class(name)(_config(server))(conversation={"messages": messages})
    assert theirs == ours == {}
    assert server.stats()["requests"] == before


def test_an_empty_conversation_is_refused_by_both(server) -> None:
    from azure.ai.evaluation._exceptions import EvaluationException

    with pytest.raises(EvaluationException, match="cannot be empty"):
        azure_class("IntentResolutionEvaluator")(_config(server))(conversation={"messages": []})
    with pytest.raises(our_class("EvaluationException")):
        our_class("IntentResolutionEvaluator")(_config(server))(conversation={"messages": []})


# ---------------------------------------------------------------------------- item 4: 1.18's exception
REFUSED_CALLS = [
    ("IntentResolutionEvaluator", {"response": "Sunny."}),  # no query
    ("ToolCallAccuracyEvaluator", {"query": "Weather?", "response": WEATHER_RUN, "tool_definitions": []}),
    ("ToolCallAccuracyEvaluator", {"query": "Weather?", "tool_definitions": [WEATHER_DEF], "response": [
        {"role": "assistant", "content": [{"type": "function_call", "tool_call_id": "f1", "name": "get_weather",
                                           "arguments": '{"city": "Paris"}'}]}]}),
    ("SimilarityEvaluator", {"query": "Capital?", "response": "Paris."}),  # no ground_truth
]


@pytest.mark.parametrize("name,call_args", REFUSED_CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(REFUSED_CALLS)])
def test_except_evaluation_exception_catches_our_errors(name, call_args, server) -> None:
    """``except EvaluationException`` (imported from agent_evaluators.azure, 1.18's names) catches what
    the layer raises; the error is our InputError too, with 1.18's blame (DIFFERENCES["error_text"])."""
    from azure.ai.evaluation._exceptions import EvaluationException as Theirs

    from agent_evaluators.azure import ErrorBlame, ErrorCategory, EvaluationException
    from agent_evaluators.errors import InputError

    with pytest.raises(Theirs) as theirs:
        azure_class(name)(_config(server))(**call_args)
    try:
        our_class(name)(_config(server))(**call_args)
    except EvaluationException as ours:
        assert isinstance(ours, InputError)
        assert ours.blame.value == theirs.value.blame.value == ErrorBlame.USER_ERROR.value
        assert isinstance(ours.category, ErrorCategory)
    else:
        pytest.fail("no error raised")


def test_a_constructor_error_is_an_evaluation_exception_too(server) -> None:
    from azure.ai.evaluation._exceptions import EvaluationException as Theirs

    from agent_evaluators.azure import EvaluationException
    from agent_evaluators.errors import ConfigError

    with pytest.raises(Theirs, match="Decision execution controls"):
        azure_class("FluencyEvaluator")(_config(server), timeout=5)
    with pytest.raises(EvaluationException, match="Decision execution controls") as ours:
        our_class("FluencyEvaluator")(_config(server), timeout=5)
    assert isinstance(ours.value, ConfigError)


# ---------------------------------------------------------------------------- item 6: reasoning budget
@pytest.mark.parametrize("name,call_args", [
    ("FluencyEvaluator", {"response": "It is fine. [case:reasoning_fluency]"}),
    ("IntentResolutionEvaluator", {"query": "Weather? [case:reasoning_ir]", "response": "Sunny."}),
])
def test_a_reasoning_judge_gets_1_18s_output_budget(name, call_args) -> None:
    seen: List[Dict[str, Any]] = []

    def recording(req: ChatRequest) -> Any:
        seen.append(req.body)
        return judge(req)

    with JudgeServer(recording) as srv:
        config = _config(srv)
        theirs = azure_class(name)(config, is_reasoning_model=True)(**call_args)
        ours = our_class(name)(config, is_reasoning_model=True)(**call_args)
    key = next(k[: -len("_status")] for k in theirs if k.endswith("_status"))
    assert ours[key] == theirs[key]
    assert len(seen) == 2
    budget = [body.get("max_completion_tokens") for body in seen]
    assert budget[0] == budget[1] == 60_000, budget
    assert "max_tokens" not in seen[1]


# ---------------------------------------------------------------------------- item 1: a format 1.18 cannot read
OPENAI_CALLS = [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]


@pytest.mark.parametrize("name", ["ToolCallAccuracyEvaluator", "ToolSelectionEvaluator"])
def test_openai_tool_calls_are_judged_where_1_18_cannot_read_them(name, server) -> None:
    """DIFFERENCES["openai_tool_calls"]: 1.18 calls the row not applicable (tool_calls=) or refuses it
    (messages); ours judges the calls."""
    from azure.ai.evaluation._exceptions import EvaluationException

    given = {"query": query("openai_calls"), "response": "Sunny.", "tool_calls": OPENAI_CALLS,
             "tool_definitions": [WEATHER_DEF]}
    theirs = azure_class(name)(_config(server))(**given)
    key = next(k[: -len("_status")] for k in theirs if k.endswith("_status"))
    assert theirs[f"{key}_result"] == "not_applicable"
    assert our_class(name)(_config(server))(**given)[f"{key}_status"] == "completed"
    messages = [{"role": "assistant", "content": None, "tool_calls": OPENAI_CALLS},
                {"role": "tool", "tool_call_id": "c1", "content": "18 C"}, {"role": "assistant", "content": "18 C."}]
    with pytest.raises(EvaluationException, match="'content' field must be a string"):
        azure_class(name)(_config(server))(query=query("openai_calls"), response=messages,
                                           tool_definitions=[WEATHER_DEF])
    ours = our_class(name)(_config(server))(query=query("openai_calls"), response=messages,
                                            tool_definitions=[WEATHER_DEF])
    assert ours[f"{key}_status"] == "completed"


def test_json_text_definitions_still_need_one_per_called_tool(server) -> None:
    """DIFFERENCES["definitions_text_checked"]: with definitions as JSON text, 1.18 skips its check that every
    called tool has one (and judges); ours applies it as for a list (not applicable, no judge call)."""
    import json

    given = {"query": query("definitions_text"), "response": WEATHER_RUN, "tool_definitions": json.dumps([EMAIL_DEF])}
    theirs = azure_class("ToolCallAccuracyEvaluator")(_config(server))(**given)
    assert theirs["tool_call_accuracy_status"] == "completed"
    before = server.stats()["requests"]
    ours = our_class("ToolCallAccuracyEvaluator")(_config(server))(**given)
    as_list = our_class("ToolCallAccuracyEvaluator")(_config(server))(**{**given, "tool_definitions": [EMAIL_DEF]})
    assert ours == as_list and ours["tool_call_accuracy_result"] == "not_applicable"
    assert ours["tool_call_accuracy_reason"] == "Not applicable: Tool definitions for all tool calls must be provided."
    assert server.stats()["requests"] == before
