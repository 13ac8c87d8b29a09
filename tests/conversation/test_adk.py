"""ADK Invocation dicts -> canonical model.

The first fixture is one invocation of google/adk-python's
tests/integration/fixture/home_automation_agent/simple_test.test.json (Apache-2.0), with the
null-filled Part fields ADK 1.x wrote; the others follow ADK 2.x's schema (reference/adk.md §1).
"""

import pytest

from agent_evaluators import InputError
from agent_evaluators.conversation import ToolCall, final_text, split_turns, to_messages, to_tool_calls

_NULLS = {"video_metadata": None, "thought": None, "code_execution_result": None, "executable_code": None,
          "file_data": None, "function_call": None, "function_response": None, "inline_data": None}

HOME_AUTOMATION = {
    "invocation_id": "b7982664-0ab6-47cc-ab13-326656afdf75",
    "user_content": {"parts": [{**_NULLS, "text": "Turn off device_2 in the Bedroom."}], "role": "user"},
    "final_response": {"parts": [{**_NULLS, "text": "I have set the device_2 status to off."}], "role": "model"},
    "intermediate_data": {
        "tool_uses": [{"id": None, "args": {"location": "Bedroom", "device_id": "device_2", "status": "OFF"},
                       "name": "set_device_info"}],
        "intermediate_responses": [],
    },
    "creation_timestamp": 1747337309.2360144,
}

EVENTS_CAMEL = {
    "invocationId": "e-1",
    "userContent": {"role": "user", "parts": [{"text": "Roll a 6-sided die and tell me if it's prime."}]},
    "finalResponse": {"role": "model", "parts": [{"text": "I rolled a 5, which is prime."}]},
    "intermediateData": {"invocationEvents": [
        {"author": "dice_agent", "content": {"role": "model", "parts": [
            {"text": "Rolling now."}, {"functionCall": {"id": "adk-1", "name": "roll_die", "args": {"sides": 6}}}]}},
        {"author": "dice_agent", "content": {"role": "user", "parts": [
            {"functionResponse": {"id": "adk-1", "name": "roll_die", "response": {"result": 5}}}]}},
        {"author": "dice_agent", "content": {"role": "model", "parts": [
            {"function_call": {"id": "adk-2", "name": "check_prime", "args": {"nums": [5]}}}]}},
        {"author": "dice_agent", "content": None},
    ]},
}


def test_legacy_intermediate_data_invocation():
    messages = to_messages([HOME_AUTOMATION])
    assert [m.role for m in messages] == ["user", "assistant", "assistant"]
    assert messages[0].content == "Turn off device_2 in the Bedroom."
    assert messages[1].tool_calls == [
        ToolCall(name="set_device_info", arguments={"location": "Bedroom", "device_id": "device_2", "status": "OFF"})]
    assert final_text(messages) == "I have set the device_2 status to off."


def test_invocation_events_camel_case():
    messages = to_messages(EVENTS_CAMEL)
    assert [m.role for m in messages] == ["user", "assistant", "tool", "assistant", "assistant"]
    assert messages[1].content == "Rolling now." and messages[1].name == "dice_agent"
    assert messages[2].tool_call_id == "adk-1" and messages[2].tool_result == {"result": 5}
    assert to_tool_calls([EVENTS_CAMEL]) == [
        ToolCall(name="roll_die", arguments={"sides": 6}, id="adk-1"),
        ToolCall(name="check_prime", arguments={"nums": [5]}, id="adk-2"),
    ]


def test_tool_responses_and_intermediate_responses():
    inv = {
        "user_content": {"parts": [{"text": "Plan a trip"}], "role": "user"},
        "intermediate_data": {
            "tool_uses": [{"id": "t1", "name": "transfer_to_agent", "args": {"agent_name": "planner"}}],
            "tool_responses": [{"id": "t1", "name": "transfer_to_agent", "response": {}}],
            "intermediate_responses": [["planner", [{"text": "Looking at options."}]]],
        },
        "final_response": {"parts": [{"text": "Here is your plan."}], "role": "model"},
    }
    messages = to_messages([inv])
    assert [(m.role, m.name) for m in messages] == [
        ("user", None), ("assistant", None), ("tool", "transfer_to_agent"), ("assistant", "planner"), ("assistant", None)]


def test_null_final_text_adds_no_final_message_and_none_args_stay_none():
    inv = {"user_content": {"parts": [{"text": "Book a flight to London"}], "role": "user"},
           "final_response": {"parts": [{"text": None}], "role": "model"},
           "intermediate_data": {"tool_uses": [{"id": None, "args": None, "name": "trigger_elicitation"}]}}
    messages = to_messages([inv])
    assert [m.role for m in messages] == ["user", "assistant"]
    assert messages[1].tool_calls[0].arguments is None
    assert final_text(messages) is None


def test_several_invocations_are_several_turns():
    second = {"user_content": {"parts": [{"text": "And device_3?"}], "role": "user"},
              "final_response": {"parts": [{"text": "device_3 is off too."}], "role": "model"}}
    turns = split_turns([HOME_AUTOMATION, second])
    assert len(turns) == 2
    assert turns[1].query[-1].content == "And device_3?" and len(turns[1].query) == 4


def test_bad_tool_use_names_its_path():
    inv = {"user_content": {"parts": [{"text": "x"}]}, "intermediate_data": {"tool_uses": [{"args": {}}]}}
    with pytest.raises(InputError) as err:
        to_messages([inv], input_name="response")
    assert "response[0].intermediate_data.tool_uses[0]" in str(err.value)
