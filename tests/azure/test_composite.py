"""The catalog composites in the azure layer: one call, every member's 1.18 row plus a 1.18-shaped
summary key; a member without its inputs is not applicable in its own keys; through evaluate() too."""

import re
from inspect import signature

import pytest

from agent_evaluators import evaluate
from agent_evaluators.azure import (
    CoherenceEvaluator,
    FluencyEvaluator,
    GroundednessEvaluator,
    IntentResolutionEvaluator,
    OutputQualityEvaluator,
    TaskAdherenceEvaluator,
    TaskCompletionEvaluator,
    ToolUseQualityEvaluator,
)
from agent_evaluators.errors import InputError
from agent_evaluators.testing import schema_reply

from ..cli.helpers import write_jsonl

WEATHER = {"name": "get_weather", "description": "Weather for a city.",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}
RUN = [
    {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "get_weather",
                                       "arguments": {"city": "Paris"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": "18 C"}]},
    {"role": "assistant", "content": [{"type": "text", "text": "It is 18 C."}]},
]
KEYS = ("tool_call_accuracy", "tool_call_success", "tool_input_accuracy", "tool_output_utilization", "tool_selection")


def judge(req):
    """A 1-5 metric gets 4, a 0/1 metric 1; a query marked [bad] gets the lowest score."""
    if not re.search(r"\[bad\]", req.text):
        return schema_reply(req, score=4)
    binary = "enum" in req.json_schema["properties"]["score"]
    return schema_reply(req, score=0 if binary else 1)


def test_tool_use_quality_is_its_members_rows_merged(judge_server):
    server = judge_server(judge)
    config = server.openai_config()
    row = ToolUseQualityEvaluator(config)(query="Weather in Paris?", response=RUN, tool_definitions=[WEATHER])
    assert server.stats()["requests"] == len(KEYS)
    for key in KEYS:
        assert row[f"{key}_status"] == "completed" and row[f"{key}_result"] == "pass", key
    assert row["tool_call_accuracy"] == row["gpt_tool_call_accuracy"] == 4.0
    assert row["tool_selection"] == 1.0 and row["tool_selection_threshold"] == 1


def test_output_quality_equals_its_members_called_alone(judge_server):
    server = judge_server(judge)
    config = server.openai_config()
    inputs = {"query": "Weather in Paris? [bad]", "response": RUN, "tool_definitions": [WEATHER]}
    row = OutputQualityEvaluator(config)(**inputs)
    alone = {}
    for cls in (FluencyEvaluator, CoherenceEvaluator, GroundednessEvaluator, IntentResolutionEvaluator,
                TaskAdherenceEvaluator, TaskCompletionEvaluator):
        alone.update(cls(config)(**{k: v for k, v in inputs.items() if k in signature(cls.__call__).parameters}))
    assert set(row) == set(alone) | {f"output_quality{s}" for s in ("", "_score", "_passed", "_result", "_reason",
                                                                        "_status", "_threshold", "_properties")}
    # fluency judges the response alone, which carries no [bad] marker: the one member that passes
    assert row["fluency_result"] == "pass"
    assert row["output_quality_result"] == "fail" and row["output_quality"] == pytest.approx(1 / 6)
    for key in ("fluency", "coherence", "groundedness", "intent_resolution", "task_adherence", "task_completion"):
        for suffix in ("", "_result", "_passed", "_threshold", "_status"):
            assert row[key + suffix] == alone[key + suffix], key + suffix
    assert row["task_adherence_result"] == "fail" and row["task_adherence_threshold"] == 3


def test_a_member_without_its_inputs_is_not_applicable_in_its_own_keys(judge_server):
    server = judge_server(judge)
    row = ToolUseQualityEvaluator(server.openai_config())(query="Weather?", tool_definitions=[WEATHER],
                                                          tool_calls=RUN[0]["content"])
    for key in ("tool_input_accuracy", "tool_output_utilization", "tool_call_success"):  # they read response=
        assert row[f"{key}_result"] == "not_applicable" and row[f"{key}_status"] == "skipped", key
        assert "response" in row[f"{key}_reason"]
    assert row["tool_selection_result"] == row["tool_call_accuracy_result"] == "pass"
    assert row["tool_use_quality"] == 1.0 and row["tool_use_quality_status"] == "completed"
    assert row["tool_use_quality_properties"]["not_applicable"] == [
        "tool_call_success", "tool_input_accuracy", "tool_output_utilization"]
    assert server.stats()["requests"] == 2


def test_no_member_can_run_is_an_input_error(judge_server):
    server = judge_server(judge)
    with pytest.raises(InputError, match="no member can run"):
        OutputQualityEvaluator(server.openai_config())(tool_definitions=[WEATHER])


def test_composite_runs_in_evaluate(judge_server, tmp_path):
    server = judge_server(judge)
    data = write_jsonl(tmp_path / "data.jsonl", [
        {"query": "Weather in Paris?", "response": RUN, "tool_definitions": [WEATHER]},
        {"query": "Weather in Rome? [bad]", "response": RUN, "tool_definitions": [WEATHER]},
    ])
    result = evaluate(data=str(data), evaluators={"tools": ToolUseQualityEvaluator(server.openai_config())})
    assert result.metrics["tools.pass_rate"] == 0.5  # the [bad] row fails
    assert result.metrics["tools.tool_call_accuracy"] == (4 + 1) / 2 and result.metrics["tools.tool_selection"] == 0.5
    # the [bad] row: tool_call_success passes (its judge sees the calls, not the query), the other four fail
    assert result.metrics["tools.tool_use_quality"] == (1.0 + 1 / 5) / 2
    assert result.metrics["tools.n"] == 2 and result.metrics["tools.error_count"] == 0
