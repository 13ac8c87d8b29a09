"""OpenAI Chat Completions messages -> canonical model."""

import pytest

from agent_evaluators import InputError
from agent_evaluators.conversation import Message, ToolCall, to_messages

WEATHER_RUN = [
    {"role": "system", "content": "You are a travel assistant. Use tools for live data."},
    {"role": "user", "content": "What's the weather in Lisbon and in Porto tomorrow?"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_Lx1", "type": "function",
             "function": {"name": "get_forecast", "arguments": "{\"city\": \"Lisbon\", \"days\": 1}"}},
            {"id": "call_Po2", "type": "function",
             "function": {"name": "get_forecast", "arguments": "{\"city\": \"Porto\", \"days\": 1}"}},
        ],
    },
    {"role": "tool", "tool_call_id": "call_Lx1", "content": "{\"high_c\": 24, \"sky\": \"sunny\"}"},
    {"role": "tool", "tool_call_id": "call_Po2", "content": "{\"high_c\": 19, \"sky\": \"showers\"}"},
    {"role": "assistant", "content": "Tomorrow Lisbon is sunny (24°C); Porto has showers (19°C)."},
]


def test_parallel_tool_calls_decode_json_string_arguments():
    messages = to_messages(WEATHER_RUN)
    assert [m.role for m in messages] == ["system", "user", "assistant", "tool", "tool", "assistant"]
    calls = messages[2].tool_calls
    assert calls == [
        ToolCall(name="get_forecast", arguments={"city": "Lisbon", "days": 1}, id="call_Lx1"),
        ToolCall(name="get_forecast", arguments={"city": "Porto", "days": 1}, id="call_Po2"),
    ]
    assert messages[2].content is None


def test_tool_results_keep_call_id_and_text():
    tool = to_messages(WEATHER_RUN)[3]
    assert tool.tool_call_id == "call_Lx1"
    assert tool.content == "{\"high_c\": 24, \"sky\": \"sunny\"}"
    assert tool.tool_result == tool.content


def test_content_parts_are_joined_and_images_left_out():
    msg = {"role": "user", "content": [
        {"type": "text", "text": "Here is my receipt."},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        {"type": "text", "text": "Was I overcharged?"},
    ]}
    [m] = to_messages([msg])
    assert m.content == "Here is my receipt.\nWas I overcharged?"


def test_empty_tool_calls_list_means_no_calls():
    [m] = to_messages([{"role": "assistant", "content": "Done.", "tool_calls": []}])
    assert m.tool_calls == [] and m.content == "Done."


def test_none_arguments_stay_none_and_empty_object_stays_empty():
    [m] = to_messages([{"role": "assistant", "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "list_alarms", "arguments": None}},
        {"id": "b", "type": "function", "function": {"name": "list_alarms", "arguments": "{}"}},
        {"id": "c", "type": "function", "function": {"name": "list_alarms", "arguments": {}}},
    ]}])
    assert [c.arguments for c in m.tool_calls] == [None, {}, {}]
    assert m.tool_calls[0].arguments is None


def test_legacy_function_call_and_function_role():
    messages = to_messages([
        {"role": "assistant", "content": None,
         "function_call": {"name": "lookup_sku", "arguments": "{\"sku\": \"A-100\"}"}},
        {"role": "function", "name": "lookup_sku", "content": "{\"stock\": 3}"},
    ])
    assert messages[0].tool_calls == [ToolCall(name="lookup_sku", arguments={"sku": "A-100"})]
    assert messages[1].role == "tool" and messages[1].name == "lookup_sku"


def test_string_becomes_one_message_of_default_role():
    assert to_messages("Your refund is on its way.") == [Message(role="assistant", content="Your refund is on its way.")]
    assert to_messages("Where is my refund?", default_role="user")[0].role == "user"


def test_message_objects_pass_through_unchanged():
    m = Message(role="user", content="hi")
    out = to_messages([m, {"role": "assistant", "content": "hello"}])
    assert out[0] is m and out[1].content == "hello"


def test_wrapper_dict_is_unwrapped():
    assert [m.role for m in to_messages({"messages": WEATHER_RUN})] == [m.role for m in to_messages(WEATHER_RUN)]


def test_invalid_json_arguments_name_input_and_index():
    bad = WEATHER_RUN[:2] + [{"role": "assistant", "tool_calls": [
        {"id": "x", "type": "function", "function": {"name": "get_forecast", "arguments": "{\"city\": \"Lisbon\""}}]}]
    with pytest.raises(InputError) as err:
        to_messages(bad, input_name="response")
    assert err.value.input_name == "response"
    assert "response[2].tool_calls[0]" in str(err.value)
    assert "get_forecast" in str(err.value) and "not valid JSON" in str(err.value)


def test_non_object_json_arguments_are_rejected():
    with pytest.raises(InputError, match="must be a JSON object"):
        to_messages([{"role": "assistant", "tool_calls": [
            {"id": "x", "type": "function", "function": {"name": "f", "arguments": "[1, 2]"}}]}])


def test_unknown_role_is_an_error():
    with pytest.raises(InputError, match=r"messages\[0\]: unknown role 'critic'"):
        to_messages([{"role": "critic", "content": "meh"}])


def test_none_value_is_an_error_naming_the_input():
    with pytest.raises(InputError) as err:
        to_messages(None, input_name="query")
    assert err.value.input_name == "query"
