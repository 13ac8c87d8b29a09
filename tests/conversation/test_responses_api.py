"""OpenAI Responses API input/output items -> canonical model."""

import pytest

from agent_evaluators import InputError
from agent_evaluators.conversation import ToolCall, to_messages

# Shaped like `response.output` items plus the input that produced them.
RESPONSES_RUN = [
    {"role": "developer", "content": "You are the billing agent for Contoso Telecom."},
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Why is my bill $20 higher?"}]},
    {"type": "reasoning", "id": "rs_01", "summary": []},
    {"type": "function_call", "id": "fc_01", "call_id": "call_b1", "name": "get_invoice",
     "arguments": "{\"account\": \"88-1203\", \"period\": \"2025-05\"}", "status": "completed"},
    {"type": "function_call", "id": "fc_02", "call_id": "call_b2", "name": "get_invoice",
     "arguments": "{\"account\": \"88-1203\", \"period\": \"2025-04\"}", "status": "completed"},
    {"type": "function_call_output", "call_id": "call_b1", "output": "{\"total\": 65.0, \"roaming\": 20.0}"},
    {"type": "function_call_output", "call_id": "call_b2", "output": "{\"total\": 45.0}"},
    {"type": "message", "id": "msg_9", "role": "assistant", "status": "completed",
     "content": [{"type": "output_text", "text": "May includes $20 of roaming charges.", "annotations": []}]},
]


def test_items_become_messages_and_reasoning_is_dropped():
    messages = to_messages(RESPONSES_RUN)
    assert [m.role for m in messages] == ["developer", "user", "assistant", "tool", "tool", "assistant"]
    assert messages[1].content == "Why is my bill $20 higher?"
    assert messages[-1].content == "May includes $20 of roaming charges."


def test_consecutive_function_calls_form_one_parallel_call_message():
    calls = to_messages(RESPONSES_RUN)[2].tool_calls
    assert calls == [
        ToolCall(name="get_invoice", arguments={"account": "88-1203", "period": "2025-05"}, id="call_b1"),
        ToolCall(name="get_invoice", arguments={"account": "88-1203", "period": "2025-04"}, id="call_b2"),
    ]


def test_function_call_output_links_by_call_id():
    tool = to_messages(RESPONSES_RUN)[3]
    assert tool.role == "tool" and tool.tool_call_id == "call_b1"
    assert tool.tool_result == "{\"total\": 65.0, \"roaming\": 20.0}"


def test_calls_separated_by_other_items_stay_separate():
    items = [
        {"type": "function_call", "call_id": "c1", "name": "search", "arguments": "{\"q\": \"a\"}"},
        {"type": "function_call_output", "call_id": "c1", "output": "[]"},
        {"type": "function_call", "call_id": "c2", "name": "search", "arguments": "{\"q\": \"b\"}"},
    ]
    messages = to_messages(items)
    assert [len(m.tool_calls) for m in messages] == [1, 0, 1]


def test_mcp_approvals_are_dropped_and_mcp_call_keeps_output():
    items = [
        {"type": "mcp_list_tools", "id": "mcpl_1", "server_label": "deepwiki", "tools": []},
        {"type": "mcp_approval_request", "id": "mcpr_1", "name": "ask_question", "arguments": "{}", "server_label": "deepwiki"},
        {"type": "mcp_approval_response", "approval_request_id": "mcpr_1", "approve": True},
        {"type": "mcp_call", "id": "mcp_1", "name": "ask_question", "server_label": "deepwiki",
         "arguments": "{\"question\": \"What transport does MCP use?\"}", "output": "stdio and HTTP"},
    ]
    messages = to_messages(items)
    assert [m.role for m in messages] == ["assistant", "tool"]
    assert messages[0].tool_calls[0].arguments == {"question": "What transport does MCP use?"}
    assert messages[1].tool_result == "stdio and HTTP"


def test_builtin_web_search_call_becomes_a_tool_call():
    [m] = to_messages([{"type": "web_search_call", "id": "ws_1", "status": "completed",
                        "action": {"type": "search", "query": "Lisbon ferry timetable"}}])
    assert m.tool_calls[0].name == "web_search"
    assert m.tool_calls[0].arguments == {"action": {"type": "search", "query": "Lisbon ferry timetable"}}


def test_unknown_item_type_names_index_and_expectation():
    with pytest.raises(InputError) as err:
        to_messages(RESPONSES_RUN[:2] + [{"type": "hologram", "payload": 1}], input_name="response")
    text = str(err.value)
    assert "response[2]" in text and "'hologram'" in text and "expected a message" in text
