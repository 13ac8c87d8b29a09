"""The tolerant, fail-closed judge reply parser."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_evaluators.judge import JudgeReplyParseError, parse_json_reply


@pytest.mark.parametrize("text", [
    '{"score": 4, "reason": "ok"}',
    '  \n{"score": 4, "reason": "ok"}\n',
    '```json\n{"score": 4, "reason": "ok"}\n```',
    '```\n{"score": 4, "reason": "ok"}\n```',
    'Here is my verdict:\n{"score": 4, "reason": "ok"}\nThanks!',
    'Thinking {about it} first.\n```json\n{"score": 4, "reason": "ok"}\n```',
])
def test_accepts_raw_fenced_and_surrounded_json(text):
    assert parse_json_reply(text) == {"score": 4, "reason": "ok"}


def test_nested_objects_and_braces_in_strings_are_one_object():
    text = 'Result: {"score": 2, "reason": "uses } and { inside", "details": {"a": {"b": 1}}} done'
    assert parse_json_reply(text) == {"score": 2, "reason": "uses } and { inside", "details": {"a": {"b": 1}}}


@pytest.mark.parametrize("text", [
    '{"score": 1, "reason": "bad"}\n{"score": 5, "reason": "good"}',
    'Example: {"score": 5, "reason": "x"}. My answer: {"score": 1, "reason": "y"}',
    '```json\n{"score": 1}\n```\n```json\n{"score": 5}\n```',
])
def test_two_verdicts_fail_closed(text):
    with pytest.raises(JudgeReplyParseError, match="2 JSON objects"):
        parse_json_reply(text)


@pytest.mark.parametrize("text", [
    '{"score": 1, "reason": "r", "score": 5}',
    'verdict: {"score": 1, "details": {"k": 1, "k": 2}}',
])
def test_duplicate_keys_fail_closed(text):
    with pytest.raises(JudgeReplyParseError, match="repeats the key"):
        parse_json_reply(text)


def test_broken_outer_object_does_not_yield_inner_object():
    # a trailing comma breaks the outer object; its inner object must not be taken as the verdict
    with pytest.raises(JudgeReplyParseError, match="no JSON object"):
        parse_json_reply('{"score": 5, "details": {"a": 1},}')


@pytest.mark.parametrize("text,match", [
    ("", "empty"),
    ("   ", "empty"),
    ("I think it is a 4.", "no JSON object"),
    ('{"score": 4, "reason": "cut', "never closed"),
    ("[1, 2]", "JSON list"),
    ("4", "JSON int"),
    ("{'score': 4}", "no JSON object"),
])
def test_unusable_replies_raise_value_error(text, match):
    with pytest.raises(ValueError, match=match):
        parse_json_reply(text)


@settings(max_examples=200, deadline=None)
@given(obj=st.dictionaries(st.text(min_size=1, max_size=8),
                           st.one_of(st.integers(), st.text(max_size=20), st.booleans(), st.none()), max_size=5),
       prefix=st.text(alphabet=st.characters(blacklist_characters="{}"), max_size=30),
       suffix=st.text(alphabet=st.characters(blacklist_characters="{}"), max_size=30))
def test_roundtrip_with_prose_around(obj, prefix, suffix):
    assert parse_json_reply(prefix + "\n" + json.dumps(obj) + "\n" + suffix) == obj
