"""Formats mixed in one list, non-dict objects, and the error contract."""

import pytest
from pydantic import BaseModel

from agent_evaluators import InputError
from agent_evaluators.conversation import Message, to_messages


def test_mixed_formats_in_one_list():
    messages = to_messages([
        {"role": "system", "content": "Be brief."},
        {"type": "human", "content": "Convert 10 USD to EUR."},
        {"type": "function_call", "call_id": "fx1", "name": "convert", "arguments": "{\"amount\": 10, \"to\": \"EUR\"}"},
        {"role": "tool", "tool_call_id": "fx1", "content": [{"type": "tool_result", "tool_result": 9.2}]},
        Message(role="assistant", content="10 USD is 9.20 EUR."),
    ])
    assert [m.role for m in messages] == ["system", "user", "assistant", "tool", "assistant"]
    assert messages[3].tool_result == 9.2 and messages[3].content == "9.2"


class _SdkMessage(BaseModel):  # stands in for openai's ChatCompletionMessage
    role: str
    content: str


def test_pydantic_objects_of_other_sdks_are_dumped():
    [m] = to_messages([_SdkMessage(role="assistant", content="ok")])
    assert (m.role, m.content) == ("assistant", "ok")


@pytest.mark.parametrize(
    "bad, where",
    [
        ([{"role": "user", "content": "hi"}, 42], "query[1]"),
        ([{"role": "user", "content": "hi"}, {"text": "orphan"}], "query[1]"),
        ([{"role": "user", "content": 3.5}], "query[0].content"),
        ([{"role": "user", "content": "a"}, "plain string in a list"], "query[1]"),
    ],
)
def test_unrecognised_items_are_errors_never_dropped(bad, where):
    with pytest.raises(InputError) as err:
        to_messages(bad, input_name="query")
    assert err.value.input_name == "query"
    assert str(err.value).startswith(where)


def test_bare_tool_call_in_message_list_gets_a_hint():
    with pytest.raises(InputError, match="bare tool call"):
        to_messages([{"type": "tool_call", "tool_call_id": "c", "name": "f", "arguments": {}}])


def test_openai_sdk_objects_are_read_and_responses_calls_merge():
    from openai.types.chat import ChatCompletionMessage
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage

    chat = ChatCompletionMessage.model_validate({"role": "assistant", "content": None, "tool_calls": [
        {"id": "c0", "type": "function", "function": {"name": "lookup", "arguments": "{\"q\": \"x\"}"}}]})
    calls = [ResponseFunctionToolCall.model_validate({"type": "function_call", "call_id": f"c{i}", "name": "fetch",
                                                      "arguments": json_args}) for i, json_args in ((1, "{}"), (2, "{\"page\": 2}"))]
    answer = ResponseOutputMessage.model_validate({"type": "message", "id": "m", "role": "assistant", "status": "completed",
                                                   "content": [{"type": "output_text", "text": "Found it.", "annotations": []}]})
    messages = to_messages([chat, *calls, answer])
    assert [len(m.tool_calls) for m in messages] == [1, 2, 0]
    assert messages[1].tool_calls[1].arguments == {"page": 2}
    assert messages[2].content == "Found it."
