"""to_tool_calls: bare calls in every shape, message lists, and errors."""

import pytest

from agent_evaluators import InputError
from agent_evaluators.conversation import ToolCall, to_tool_calls

EXPECTED = ToolCall(name="get_order", arguments={"order_id": "7"}, id="call_7")


@pytest.mark.parametrize(
    "call",
    [
        {"id": "call_7", "type": "function", "function": {"name": "get_order", "arguments": "{\"order_id\": \"7\"}"}},
        {"type": "tool_call", "tool_call_id": "call_7", "name": "get_order", "arguments": {"order_id": "7"}},
        {"type": "tool_call", "tool_call": {"id": "call_7", "type": "function",
                                            "function": {"name": "get_order", "arguments": "{\"order_id\": \"7\"}"}}},
        {"type": "function_call", "id": "fc_1", "call_id": "call_7", "name": "get_order", "arguments": "{\"order_id\": \"7\"}"},
        {"name": "get_order", "args": {"order_id": "7"}, "id": "call_7", "type": "tool_call"},
        {"name": "get_order", "arguments": {"order_id": "7"}, "id": "call_7"},
        {"id": "call_7", "name": "get_order", "args": {"order_id": "7"}},
        {"function_call": {"id": "call_7", "name": "get_order", "args": {"order_id": "7"}}},
        ToolCall(name="get_order", arguments={"order_id": "7"}, id="call_7"),
    ],
    ids=["openai", "azure", "azure-nested", "responses", "langchain", "name-arguments", "adk", "genai-part", "model"],
)
def test_every_bare_call_shape(call):
    assert to_tool_calls([call]) == [EXPECTED]
    assert to_tool_calls(call) == [EXPECTED]


def test_calls_collected_from_assistant_messages_in_order_across_formats():
    mixed = [
        {"role": "user", "content": "Where are orders 7 and 8?"},
        {"role": "assistant", "tool_calls": [
            {"id": "call_7", "type": "function", "function": {"name": "get_order", "arguments": "{\"order_id\": \"7\"}"}}]},
        {"role": "tool", "tool_call_id": "call_7", "content": "shipped"},
        {"type": "function_call", "call_id": "call_8", "name": "get_order", "arguments": "{\"order_id\": \"8\"}"},
        {"type": "function_call_output", "call_id": "call_8", "output": "pending"},
        {"type": "ai", "content": "", "tool_calls": [{"name": "notify", "args": {"orders": ["7", "8"]}, "id": "n1"}]},
    ]
    assert [(c.name, c.id) for c in to_tool_calls(mixed)] == [("get_order", "call_7"), ("get_order", "call_8"), ("notify", "n1")]


def test_message_list_without_calls_gives_empty_list():
    assert to_tool_calls([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]) == []


def test_call_without_name_is_an_error_with_index():
    with pytest.raises(InputError) as err:
        to_tool_calls([EXPECTED, {"arguments": {"x": 1}, "id": "q"}], input_name="expected_tool_calls")
    assert "expected_tool_calls[1]" in str(err.value) and err.value.input_name == "expected_tool_calls"


def test_string_is_rejected():
    with pytest.raises(InputError, match="tool_calls is a string"):
        to_tool_calls("get_order(7)")


def test_invalid_json_in_bare_call():
    with pytest.raises(InputError, match=r"tool_calls\[0\].*not valid JSON"):
        to_tool_calls([{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{oops"}])
