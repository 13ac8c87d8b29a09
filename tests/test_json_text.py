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


# ---------------------------------------------------------------- loads: json.loads, result and error alike

from agent_evaluators._util.json_text import decode_with, loads  # noqa: E402

DOCUMENTS = [
    '{"query": "q", "response": "r"}', '{"a": 1}\n', '{"a": 1}\r\n', ' {"a": 1}', '{"a": 1} ', '{"a": 1}\n\n',
    '[1, 2.5, -3e2, true, false, null]', '"text"', "42", "-0", "1e400", "NaN", "[Infinity, -Infinity]",
    '{"a": 1, "a": 2}', '{"日本語": "🚀 \\ud83d\\ude80", "lone": "\\ud800"}', '{"deep": ' * 50 + "1" + "}" * 50,
    "", "   ", "\n", "{", '{"a": 1}{"b": 2}', '{"a": 1} x', "[1,]", "{'a': 1}", "tru", '{"a": "\x01"}',
    '\ufeff{"a": 1}', '{"big": 123456789012345678901234567890}',
]
ENCODED = [d.encode("utf-8", "surrogatepass") for d in DOCUMENTS] + [
    '{"a": 1}'.encode("utf-16"), '{"a": 1}'.encode("utf-16-le"), '{"a": 1}'.encode("utf-32"),
    b'{"a": "\xff"}', b'{"a": "\xed\xa0\x80"}', b'\xef\xbb\xbf{"a": 1}', b"\x00",
]


def _outcome(fn: Any, data: Any) -> Any:
    try:
        value = fn(data)
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return ("error", type(e), str(e))
    return ("value", json.dumps(value, sort_keys=True, allow_nan=True), type(value))


@pytest.mark.parametrize("data", DOCUMENTS + ENCODED + [bytearray(b'{"a": 1}')], ids=repr)
def test_loads_is_json_loads(data: Any) -> None:
    assert _outcome(loads, data) == _outcome(json.loads, data)


def test_decode_with_keeps_a_decoders_hooks_and_errors() -> None:
    class Duplicate(ValueError):
        pass

    def no_duplicates(pairs: Any) -> Any:
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise Duplicate(f"repeated key in {keys}")
        return dict(pairs)

    decoder = json.JSONDecoder(object_pairs_hook=no_duplicates, parse_float=lambda t: ("float", t))
    for text in ['{"a": 1.5}', '{"a": 1, "a": 2}', '{"a": [1.0, {"b": 2e0}]}\n', " {}", "{} {}", "[1.5"]:
        assert _outcome(lambda t: decode_with(decoder.scan_once, t, decoder.decode), text) == \
            _outcome(decoder.decode, text)
