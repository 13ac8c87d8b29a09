"""Verdict bounds for local servers: ``max_text_length`` / ``max_list_items`` in a model config
put ``maxLength`` / ``maxItems`` into the json_schema sent (and nothing for cloud configs).

Against the scripted judge server, which records the schema each request carried.
"""

import pytest

from agent_evaluators import TaskAdherenceEvaluator
from agent_evaluators.adk.judges import SafetyEvaluator
from agent_evaluators.errors import ConfigError
from agent_evaluators.testing import JudgeServer, schema_reply


def _walk(node):
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


def _sent_schema(config, evaluator_cls, **inputs):
    with JudgeServer(lambda req: schema_reply(req, score=4)) as server:
        evaluator_cls(model_config={**server.openai_config(), **config})(**inputs)
        return server.requests[-1].json_schema


def test_limits_bound_free_text_and_lists():
    schema = _sent_schema({"max_text_length": 300, "max_list_items": 7}, TaskAdherenceEvaluator,
                          query="Book a table for two.", response="Booked a table for two at 8 pm.")
    strings = [n for n in _walk(schema) if n.get("type") == "string"]
    arrays = [n for n in _walk(schema) if n.get("type") == "array"]
    assert strings and arrays
    assert all(n["maxLength"] == 300 for n in strings)
    assert all(n["maxItems"] == 7 for n in arrays)


def test_enum_strings_keep_their_values_unbounded():
    schema = _sent_schema({"max_text_length": 300}, SafetyEvaluator, response="Here is a cake recipe.")
    labels = [n for n in _walk(schema) if "enum" in n]
    assert labels and all("maxLength" not in n for n in labels)
    assert any(n.get("maxLength") == 300 for n in _walk(schema) if n.get("type") == "string" and "enum" not in n)


def test_cloud_configs_send_no_bounds():
    schema = _sent_schema({}, TaskAdherenceEvaluator, query="q", response="r")
    assert not any("maxLength" in n or "maxItems" in n for n in _walk(schema))


@pytest.mark.parametrize("key,value", [("max_text_length", 0), ("max_list_items", "10"), ("max_text_length", True)])
def test_bad_bounds_are_config_errors(key, value):
    with JudgeServer() as server:
        ev = TaskAdherenceEvaluator(model_config={**server.openai_config(), key: value})
        with pytest.raises(ConfigError, match=f"'{key}' must be an integer >= 1"):
            ev(query="q", response="r")


def test_limits_keep_the_score_range_for_the_server_to_enforce():
    schema = _sent_schema({"max_text_length": 300}, TaskAdherenceEvaluator, query="q", response="r")
    assert schema["properties"]["score"]["minimum"] == 1 and schema["properties"]["score"]["maximum"] == 5
    cloud = _sent_schema({}, TaskAdherenceEvaluator, query="q", response="r")
    assert "minimum" not in cloud["properties"]["score"] and "maximum" not in cloud["properties"]["score"]
