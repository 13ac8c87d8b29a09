"""split_turns and the judge-facing rendering helpers."""

import json

from agent_evaluators.conversation import final_text, last_user_text, messages_to_json, split_turns, system_text, to_messages

THREE_TURNS = {
    "messages": [
        {"role": "system", "content": "You are Contoso's returns assistant."},
        {"role": "user", "content": "I want to return my headphones."},
        {"role": "assistant", "content": "Sure, what's the order number?"},
        {"role": "user", "content": "It's 5521."},
        {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                                              "function": {"name": "create_return", "arguments": "{\"order\": \"5521\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "{\"rma\": \"R-88\"}"},
        {"role": "assistant", "content": "Your return R-88 is created."},
        {"role": "user", "content": "Thanks! When will I get my money?"},
        {"role": "assistant", "content": "Within 5 business days of receipt."},
    ],
    "context": "returns policy v3",
}


def test_split_turns_three_turns():
    turns = split_turns(THREE_TURNS)
    assert len(turns) == 3
    assert [t.query[-1].content for t in turns] == [
        "I want to return my headphones.", "It's 5521.", "Thanks! When will I get my money?"]
    assert [len(t.query) for t in turns] == [2, 4, 8]
    assert turns[0].query[0].role == "system"
    assert [m.role for m in turns[1].response] == ["assistant", "tool", "assistant"]
    assert turns[2].response[0].content == "Within 5 business days of receipt."


def test_turns_without_response_are_dropped():
    turns = split_turns([{"role": "user", "content": "hello?"}, {"role": "user", "content": "anyone?"},
                         {"role": "assistant", "content": "Hi!"}, {"role": "user", "content": "bye"}])
    assert len(turns) == 1
    assert [m.content for m in turns[0].query] == ["hello?", "anyone?"]


def test_messages_to_json_is_compact_json_not_repr():
    rendered = messages_to_json(to_messages(THREE_TURNS)[3:6])
    assert rendered == [
        {"role": "user", "content": "It's 5521."},
        {"role": "assistant", "tool_calls": [{"id": "c1", "name": "create_return", "arguments": {"order": "5521"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "{\"rma\": \"R-88\"}"},
    ]
    json.dumps(rendered)  # plain JSON types only


def test_messages_to_json_keeps_structured_results_and_drops_none_arguments():
    rendered = messages_to_json([
        {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "t", "name": "ping", "arguments": None}]},
        {"role": "tool", "tool_call_id": "t", "content": [{"type": "tool_result", "tool_result": {"ok": True}}]},
    ])
    assert rendered[0]["tool_calls"] == [{"id": "t", "name": "ping"}]
    assert rendered[1]["content"] == {"ok": True}


def test_text_helpers():
    messages = to_messages(THREE_TURNS)
    assert last_user_text(messages) == "Thanks! When will I get my money?"
    assert final_text(messages) == "Within 5 business days of receipt."
    assert final_text(messages[:6]) == "Sure, what's the order number?"
    assert system_text(messages) == "You are Contoso's returns assistant."
    assert system_text(messages[1:]) is None
