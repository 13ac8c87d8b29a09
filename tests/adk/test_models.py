"""ADK eval files load: every shared fixture, both key spellings, null-filled parts, both
intermediate-data forms; invalid input names the file and the JSON path."""

import json

import pytest

from agent_evaluators.adk import load_eval_set
from agent_evaluators.adk.convert import final_response_text, tool_calls, user_text
from agent_evaluators.adk.models import EvalCase, IntermediateData, Invocation, InvocationEvents
from agent_evaluators.errors import InputError

# eval-set file -> (number of cases, invocations per case, tool calls per invocation of the first case)
FIXTURE_SHAPES = {
    "home_automation_agent/simple_test.test.json": ([1], [1]),
    "home_automation_agent/simple_test2.test.json": ([1], [1]),
    "home_automation_agent/test_files/dependent_tool_calls.test.json": ([2], [1, 1]),
    "home_automation_agent/test_files/simple_multi_turn_conversation.test.json": ([2], [1, 1]),
    "hello_world_agent/roll_die.test.json": ([3], [0, 0, 1]),
    "trip_planner_agent/trip_inquiry.test.json": ([2], [0, 1]),
    "ecommerce_customer_service_agent/order_query.test.json": ([4], [1, 1, 4, 1]),
    "elicitation_agent/elicitation_flow.test.json": ([2], [1, 1]),
    "live_non_blocking_tool_agent/live_non_blocking_tool_agent.evalset.json": ([0, 2], [0, 0]),
}


def test_every_fixture_file_is_covered(adk_root):
    files = {str(p.relative_to(adk_root)) for p in adk_root.rglob("*.json") if p.name != "test_config.json"}
    assert files == set(FIXTURE_SHAPES)


@pytest.mark.parametrize("rel", sorted(FIXTURE_SHAPES))
def test_fixture_loads_with_its_shape(rel, adk_root):
    eval_set = load_eval_set(adk_root / rel)
    lengths, calls = FIXTURE_SHAPES[rel]
    assert [len(c.conversation or []) for c in eval_set.eval_cases] == lengths
    first = next(c for c in eval_set.eval_cases if c.conversation)
    assert [len(tool_calls(inv)) for inv in first.conversation] == calls
    assert all(user_text(inv) for c in eval_set.eval_cases for inv in c.conversation or [])


def test_null_text_part_reads_as_empty_final_response(adk_root):
    path = adk_root / "hello_world_agent/roll_die.test.json"
    roll = load_eval_set(path).eval_cases[0].conversation
    assert roll[2].final_response.parts[0].text is None and final_response_text(roll[2]) == ""
    raw = json.loads(path.read_text())["eval_cases"][0]["conversation"][2]["intermediate_data"]["tool_uses"][0]
    assert tool_calls(roll[2])[0].arguments == raw["args"] and set(raw["args"]) == {"sides"}


def test_scenario_case_and_case_without_responses_load(adk_root):
    path = adk_root / "live_non_blocking_tool_agent/live_non_blocking_tool_agent.evalset.json"
    cases = load_eval_set(path).eval_cases
    assert cases[0].conversation_scenario.user_persona == "NOVICE" and cases[0].conversation is None
    assert cases[1].conversation[0].final_response is None and cases[1].session_input.app_name == "live_non_blocking_tool_agent"


def test_camel_case_keys_are_accepted_everywhere():
    data = {
        "evalSetId": "s", "evalCases": [{
            "evalId": "c", "sessionInput": {"appName": "a", "userId": "u"},
            "conversation": [{
                "invocationId": "i", "userContent": {"role": "user", "parts": [{"text": "hi"}]},
                "finalResponse": {"parts": [{"text": "yo", "thoughtSignature": None}]},
                "intermediateData": {"toolUses": [{"name": "t", "args": None}],
                                     "intermediateResponses": [["sub", [{"text": "thinking"}]]]},
            }],
        }],
    }
    inv = EvalCase.model_validate(data["evalCases"][0]).conversation[0]
    assert isinstance(inv.intermediate_data, IntermediateData)
    assert tool_calls(inv)[0].arguments is None  # None stays None, never {}
    assert final_response_text(inv, include_intermediate=True) == "thinking\nyo"


def test_invocation_events_form_and_union_resolution():
    events = Invocation.model_validate({
        "user_content": {"parts": [{"text": "q"}]},
        "intermediate_data": {"invocation_events": [
            {"author": "a", "content": {"parts": [
                {"text": "step"}, {"function_call": {"name": "f", "args": {"x": 1}, "id": "c1"}}]},
             "unknown_event_key": 1},
            {"author": "a", "content": {"parts": [{"function_response": {"name": "f", "id": "c1", "response": {"r": 2}}}]}},
        ]},
    })
    assert isinstance(events.intermediate_data, InvocationEvents)
    assert [(c.name, c.arguments, c.id) for c in tool_calls(events)] == [("f", {"x": 1}, "c1")]
    empty = Invocation.model_validate({"user_content": {"parts": []}, "intermediate_data": {}})
    assert isinstance(empty.intermediate_data, IntermediateData)


def test_unknown_part_fields_from_newer_genai_are_kept():
    part = {"text": "q", "media_resolution": None, "part_metadata": {"k": 1}}
    inv = Invocation.model_validate({"user_content": {"parts": [part]}})
    assert inv.user_content.parts[0].model_extra == {"media_resolution": None, "part_metadata": {"k": 1}}


def test_misspelled_invocation_key_is_an_error_naming_the_path(tmp_path):
    path = tmp_path / "bad.evalset.json"
    path.write_text(json.dumps({"eval_set_id": "s", "eval_cases": [{"eval_id": "c", "conversation": [
        {"user_content": {"parts": [{"text": "q"}]}, "final_respons": {"parts": []}}]}]}))
    with pytest.raises(InputError) as info:
        load_eval_set(path)
    message = str(info.value)
    assert str(path) in message and "$.eval_cases[0].conversation[0].final_respons" in message


def test_case_needs_exactly_one_of_conversation_and_scenario(tmp_path):
    path = tmp_path / "bad.evalset.json"
    path.write_text(json.dumps({"eval_set_id": "s", "eval_cases": [{"eval_id": "c"}]}))
    with pytest.raises(InputError, match=r"(?s)\$\.eval_cases\[0\].*exactly one of `conversation` and `conversation_scenario`"):
        load_eval_set(path)


@pytest.mark.parametrize(
    "content, needle",
    [
        ("{not json", "not valid JSON (line 1, column 2)"),
        ("[]", "empty list"),
        ('[{"foo": 1}]', "$[0] is an object with keys [foo]"),
        ('"text"', "expected an ADK EvalSet object or a legacy list"),
    ],
)
def test_unreadable_files_say_what_is_wrong(tmp_path, content, needle):
    path = tmp_path / "x.test.json"
    path.write_text(content)
    with pytest.raises(InputError) as info:
        load_eval_set(path)
    assert needle in str(info.value) and str(path) in str(info.value)


def test_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="not found"):
        load_eval_set(tmp_path / "nope.evalset.json")
