"""The hand-written JSON of messages is exactly ``json.dumps(..., ensure_ascii=False)``, or declined."""

import json
from typing import Any

import pytest

from agent_evaluators._util.json_text import escape, message_json, messages_json

TEXTS = ["", "plain", "日本語 🚀", 'quote " backslash \\ slash /', "ctrl \x00\x1f\x7f \u2028\u2029", "\ud800 lone",
         "<tag>&amp;", "line\r\nbreak\ttab"]


@pytest.mark.parametrize("text", TEXTS)
def test_strings_and_messages_match_json_dumps(text: str) -> None:
    assert escape(text) == json.dumps(text, ensure_ascii=False)
    message = {"role": "user", "content": text}
    assert message_json(message) == json.dumps(message, ensure_ascii=False)
    messages = [message, {"role": text or "assistant", "content": "ok"}]
    assert messages_json(messages) == json.dumps(messages, ensure_ascii=False)


@pytest.mark.parametrize("value", [
    {"content": "x", "role": "user"},  # other key order
    {"role": "user", "content": None},
    {"role": "user", "content": [{"type": "text", "text": "x"}]},
    {"role": "user", "content": "x", "name": "n"},
    {"role": 1, "content": "x"},
    ("tuple",),
])
def test_other_shapes_are_declined(value: Any) -> None:
    assert message_json(value) is None
    assert messages_json([{"role": "user", "content": "ok"}, value]) is None


def test_lists_only() -> None:
    assert messages_json([]) == "[]"
    assert messages_json(({"role": "user", "content": "x"},)) is None
    assert messages_json("text") is None
