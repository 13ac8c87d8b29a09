"""LangChain / LangGraph messages (dicts, serialized forms, duck-typed objects) -> canonical model."""

from agent_evaluators.conversation import ToolCall, to_messages, to_tool_calls

LANGGRAPH_STATE = {
    "messages": [
        {"type": "system", "content": "You are a calendar assistant."},
        {"type": "human", "content": "Cancel my 3pm meeting today", "id": "3f1c"},
        {"type": "ai", "content": "", "id": "run-9",
         "tool_calls": [{"name": "find_events", "args": {"date": "2025-06-02", "start": "15:00"}, "id": "toolu_01", "type": "tool_call"}]},
        {"type": "tool", "content": "[{\"event_id\": \"ev_42\", \"title\": \"1:1 with Dana\"}]",
         "tool_call_id": "toolu_01", "name": "find_events"},
        {"type": "ai", "content": "", "tool_calls": [{"name": "cancel_event", "args": {"event_id": "ev_42"}, "id": "toolu_02"}]},
        {"type": "tool", "content": "cancelled", "tool_call_id": "toolu_02", "name": "cancel_event"},
        {"type": "ai", "content": "Your 3pm 1:1 with Dana is cancelled."},
    ]
}


def test_langgraph_state_dict():
    messages = to_messages(LANGGRAPH_STATE)
    assert [m.role for m in messages] == ["system", "user", "assistant", "tool", "assistant", "tool", "assistant"]
    assert messages[2].tool_calls == [ToolCall(name="find_events", arguments={"date": "2025-06-02", "start": "15:00"}, id="toolu_01")]
    assert messages[2].content is None  # "" next to tool calls means no text
    assert messages[3].name == "find_events" and messages[3].tool_call_id == "toolu_01"
    assert to_tool_calls(LANGGRAPH_STATE) == [
        ToolCall(name="find_events", arguments={"date": "2025-06-02", "start": "15:00"}, id="toolu_01"),
        ToolCall(name="cancel_event", arguments={"event_id": "ev_42"}, id="toolu_02"),
    ]


def test_role_dicts_with_name_args_calls():
    [m] = to_messages([{"role": "assistant", "tool_calls": [{"name": "search", "args": {"q": "flights"}, "id": "1"}]}])
    assert m.tool_calls == [ToolCall(name="search", arguments={"q": "flights"}, id="1")]


def test_messages_to_dict_and_dumpd_forms():
    as_dict = [{"type": "human", "data": {"content": "hi", "additional_kwargs": {}}},
               {"type": "ai", "data": {"content": "", "tool_calls": [{"name": "ping", "args": {}, "id": "p1"}]}}]
    dumped = {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"],
              "kwargs": {"content": "pong", "tool_calls": []}}
    messages = to_messages(as_dict + [dumped])
    assert [(m.role, m.content) for m in messages] == [("user", "hi"), ("assistant", None), ("assistant", "pong")]
    assert messages[1].tool_calls[0].arguments == {}


def test_anthropic_tool_use_parts_are_not_duplicated():
    [m] = to_messages([{"type": "ai", "content": [
        {"type": "text", "text": "Let me check."},
        {"type": "tool_use", "id": "toolu_9", "name": "get_stock", "input": {"sku": "B-7"}}],
        "tool_calls": [{"name": "get_stock", "args": {"sku": "B-7"}, "id": "toolu_9"}]}])
    assert m.content == "Let me check."
    assert m.tool_calls == [ToolCall(name="get_stock", arguments={"sku": "B-7"}, id="toolu_9")]


class _FakeMessage:
    """Duck-typed like langchain_core.messages.BaseMessage (langchain is not a dependency)."""

    def __init__(self, type, content, tool_calls=None, tool_call_id=None, name=None):
        self.type, self.content, self.tool_calls = type, content, tool_calls or []
        self.tool_call_id, self.name, self.additional_kwargs = tool_call_id, name, {}


def test_message_objects_are_read_by_attribute():
    objs = [
        _FakeMessage("human", "What's 2+2?"),
        _FakeMessage("ai", "", tool_calls=[{"name": "calculator", "args": {"expression": "2+2"}, "id": "c1", "type": "tool_call"}]),
        _FakeMessage("tool", "4", tool_call_id="c1", name="calculator"),
        _FakeMessage("ai", "2+2 is 4."),
    ]
    messages = to_messages(objs)
    assert [m.role for m in messages] == ["user", "assistant", "tool", "assistant"]
    assert messages[1].tool_calls[0] == ToolCall(name="calculator", arguments={"expression": "2+2"}, id="c1")
    assert messages[2].tool_result == "4"
