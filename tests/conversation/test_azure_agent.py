"""Azure AI agent converter format -> canonical model."""

import pytest

from agent_evaluators import InputError
from agent_evaluators.conversation import ToolCall, to_messages

# The row azure-ai-evaluation's AIAgentConverter produces (see reference/azure.md §5).
QUERY = [
    {"role": "system", "content": "You are an order agent."},
    {"createdAt": "2025-03-14T06:14:20Z", "role": "user", "content": [{"type": "text", "text": "Status of order 7?"}]},
]
RESPONSE = [
    {"createdAt": "2025-03-14T06:14:30Z", "run_id": "run_1", "role": "assistant",
     "content": [{"type": "tool_call", "tool_call_id": "call_7", "name": "get_order", "arguments": {"order_id": "7"}}]},
    {"createdAt": "2025-03-14T06:14:35Z", "run_id": "run_1", "tool_call_id": "call_7", "role": "tool",
     "content": [{"type": "tool_result", "tool_result": {"status": "shipped", "carrier": "UPS"}}]},
    {"createdAt": "2025-03-14T06:14:40Z", "run_id": "run_1", "role": "assistant",
     "content": [{"type": "text", "text": "Order 7 has shipped with UPS."}]},
]


def test_query_text_items_are_read():
    messages = to_messages(QUERY, input_name="query")
    assert [(m.role, m.content) for m in messages] == [
        ("system", "You are an order agent."), ("user", "Status of order 7?")]


def test_tool_call_content_items_and_structured_tool_results():
    call, tool, final = to_messages(RESPONSE, input_name="response")
    assert call.tool_calls == [ToolCall(name="get_order", arguments={"order_id": "7"}, id="call_7")]
    assert call.content is None
    assert tool.tool_call_id == "call_7"
    assert tool.tool_result == {"status": "shipped", "carrier": "UPS"}
    assert tool.content == '{"status": "shipped", "carrier": "UPS"}'
    assert final.content == "Order 7 has shipped with UPS."


def test_older_nested_tool_call_form():
    [m] = to_messages([{"role": "assistant", "content": [{"type": "tool_call", "tool_call": {
        "id": "call_n", "type": "function", "function": {"name": "fetch_weather", "arguments": "{\"location\": \"Seattle\"}"}}}]}])
    assert m.tool_calls == [ToolCall(name="fetch_weather", arguments={"location": "Seattle"}, id="call_n")]


def test_output_text_and_input_text_items():
    messages = to_messages([
        {"role": "user", "content": [{"type": "input_text", "text": "hi"}]},
        {"role": "assistant", "content": [{"type": "output_text", "text": "hello"}]},
    ])
    assert [m.content for m in messages] == ["hi", "hello"]


def test_mcp_approval_content_items_are_dropped():
    [m] = to_messages([{"role": "assistant", "content": [
        {"type": "mcp_approval_request", "id": "r1", "name": "delete_repo", "arguments": "{}"},
        {"type": "text", "text": "Waiting for approval."}]}])
    assert m.content == "Waiting for approval." and m.tool_calls == []


def test_unknown_content_item_names_position():
    with pytest.raises(InputError) as err:
        to_messages(RESPONSE[:2] + [{"role": "assistant", "content": [{"type": "sticker", "id": 3}]}], input_name="response")
    assert "response[2].content[0]" in str(err.value) and "'sticker'" in str(err.value)
