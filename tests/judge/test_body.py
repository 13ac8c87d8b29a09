"""The request encoder reuses repeating parts yet writes exactly what ``json.dumps`` writes.

``encode_body`` must be a pure speed-up: for any body, its bytes equal
``json.dumps(body, ensure_ascii=False).encode()``, on the first call (nothing cached), on
later calls (system message and response format reused), and when a cached text would be
wrong (same role and content in another key order, a format dict that is not ours).
"""

import json
from typing import Any, Dict, List

import pytest
from pydantic import BaseModel

from agent_evaluators.judge import request_body as body_module
from agent_evaluators.judge.request_body import MAX_CACHED_MESSAGES, MIN_CACHED_CHARS, encode_body
from agent_evaluators.judge.schema import format_json, response_format_for

SYSTEM = "You grade agents. " * 60  # a template's instructions: well over MIN_CACHED_CHARS


class Verdict(BaseModel):
    reason: str
    score: int


def _reference(body: Dict[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False).encode()


def _bodies() -> List[Dict[str, Any]]:
    rf = response_format_for(Verdict, "json_schema")
    user = {"role": "user", "content": "<conversation>[{\"role\": \"user\", \"content\": \"日本語 🚀\"}]</conversation>"}
    return [
        {"model": "m", "messages": [{"role": "system", "content": SYSTEM}, user], "temperature": 0.0,
         "max_tokens": 800, "response_format": rf},
        {"model": "m", "messages": [{"role": "system", "content": SYSTEM}, user]},
        {"messages": [{"content": SYSTEM, "role": "system"}], "model": "m"},  # other key order
        {"model": "m", "messages": [{"role": "system", "content": SYSTEM, "name": "x"}], "seed": None},
        {"model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": SYSTEM}]}]},
        {"model": "m", "messages": [{"role": "user", "content": "x" * (MIN_CACHED_CHARS - 1)}],
         "response_format": {"type": "json_schema", "json_schema": {"name": "theirs", "strict": True}}},
        {"model": "m", "messages": [{"role": "user", "content": "nan \u2028 \x00 \"quoted\""}],
         "temperature": float("nan"), "stop": ["\n"], "response_format": response_format_for(Verdict, "json_object")},
        {"model": "m", "messages": [], "response_format": None},
        {"model": "m", "messages": ({"role": "user", "content": SYSTEM},)},  # a tuple: encoded in full
        {},
    ]


@pytest.mark.parametrize("index", range(len(_bodies())))
def test_bytes_equal_json_dumps_cold_and_warm(index: int) -> None:
    body_module._messages.clear()
    body = _bodies()[index]
    first = encode_body(body)
    assert first == _reference(body)
    assert encode_body(body) == first  # now from the cache, where it applies


def test_a_cached_message_in_another_key_order_is_written_in_that_order() -> None:
    body_module._messages.clear()
    encode_body({"messages": [{"role": "system", "content": SYSTEM}]})
    swapped = {"messages": [{"content": SYSTEM, "role": "system"}]}
    assert encode_body(swapped) == _reference(swapped)
    other_role = {"messages": [{"role": "user", "content": SYSTEM}]}
    assert encode_body(other_role) == _reference(other_role)


def test_the_system_message_is_encoded_once_and_the_table_stays_bounded() -> None:
    body_module._messages.clear()
    calls: List[Any] = []
    real = body_module._dumps

    def counting(value: Any) -> str:
        calls.append(value)
        return real(value)

    body_module._dumps = counting  # type: ignore[assignment]
    try:
        for i in range(3 * MAX_CACHED_MESSAGES):
            body = {"model": "m", "messages": [{"role": "system", "content": SYSTEM},
                                               {"role": "user", "content": f"row {i} " + "y" * MIN_CACHED_CHARS}]}
            assert encode_body(body) == _reference(body)
    finally:
        body_module._dumps = real  # type: ignore[assignment]
    system_encodes = sum(1 for c in calls if isinstance(c, dict) and c.get("content") == SYSTEM)
    assert system_encodes <= 4  # once, then once after each time the table filled and was cleared
    assert len(body_module._messages) <= MAX_CACHED_MESSAGES


def test_only_our_own_response_formats_are_taken_by_identity() -> None:
    ours = response_format_for(Verdict, "json_schema")
    assert format_json(ours) == json.dumps(ours, ensure_ascii=False)
    assert format_json(dict(ours)) is None  # an equal copy is not ours: encoded in full
    assert format_json({"type": "json_object"}) is None


def test_parameters_that_compare_equal_but_are_written_differently_are_not_confused() -> None:
    body_module._params.clear()
    values = [0.0, -0.0, 0, False, 1, 1.0, True, (1,), (1.0,), [1], None, "0", float("inf")]
    for _ in range(2):  # the second pass is served from the table where it applies
        for value in values:
            body = {"model": "m", "temperature": value}
            assert encode_body(body) == _reference(body), value
