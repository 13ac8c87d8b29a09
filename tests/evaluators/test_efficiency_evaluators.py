"""The efficiency metrics on any conversation: ``evaluate()`` rows over OpenAI messages with ``usage``
and timestamps, genai ``usage_metadata``, ADK invocations, and a simulated-user conversation; never a
verdict, and a threshold is a ConfigError (constructor, ``threshold:`` in a run config, a gate)."""

import json

import pytest

from agent_evaluators import evaluate
from agent_evaluators.adk.efficiency.evaluators import (
    InferenceCallCountEvaluator,
    InvocationDurationEvaluator,
    TokenUsageEvaluator,
    ToolCallCountEvaluator,
)
from agent_evaluators.agents import simulated_conversation_target
from agent_evaluators.errors import ConfigError
from tests.cli.helpers import agent_eval, write_jsonl

CALL = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}
OPENAI = [
    {"role": "system", "content": "be brief"},
    {"role": "user", "content": "Weather in Paris?", "createdAt": "2026-01-01T10:00:00Z"},
    {"role": "assistant", "content": None, "tool_calls": [CALL], "createdAt": "2026-01-01T10:00:01Z",
     "usage": {"prompt_tokens": 100, "completion_tokens": 20, "prompt_tokens_details": {"cached_tokens": 60},
               "completion_tokens_details": {"reasoning_tokens": 8}}},
    {"role": "tool", "tool_call_id": "c1", "content": "{\"temp\": 22}", "createdAt": "2026-01-01T10:00:01.500Z"},
    {"role": "assistant", "content": "22 degrees.", "createdAt": "2026-01-01T10:00:03Z",
     "usage": {"prompt_tokens": 130, "completion_tokens": 5}},
    {"role": "user", "content": "Thanks", "createdAt": "2026-01-01T10:01:00Z"},
    {"role": "assistant", "content": "You're welcome.", "createdAt": "2026-01-01T10:01:00.500Z",
     "usage": {"prompt_tokens": 140, "completion_tokens": 4}},
]
EVALUATORS = {"tools": ToolCallCountEvaluator(), "calls": InferenceCallCountEvaluator(), "tokens": TokenUsageEvaluator(),
              "time": InvocationDurationEvaluator()}


def test_openai_messages_with_usage_and_timestamps_in_evaluate_rows():
    result = evaluate(data=[{"response": OPENAI}], evaluators=EVALUATORS)
    (row,) = result["rows"]
    assert row["outputs.tools.tool_call_count_v1"] == 0.5  # (1 + 0) / 2 turns
    assert row["outputs.calls.inference_call_count_v1"] == 1.5  # (2 + 1) / 2
    # turn 1: input 230, output 25 (reasoning 8 moved out of candidates); turn 2: 140 + 4
    assert row["outputs.tokens.token_usage_v1"] == (255 + 144) / 2
    details = row["outputs.tokens.token_usage_v1_details"]["token_usage_details"]
    assert details["reasoning_tokens"] == 4.0 and details["candidates_tokens"] == (17 + 4) / 2
    assert details["cached_tokens"] == 30.0 and details["tool_use_tokens"] is None  # unknown is not 0
    assert row["outputs.time.invocation_duration_v1"] == (3.0 + 0.5) / 2
    for alias in EVALUATORS:
        key = {"tools": "tool_call_count_v1", "calls": "inference_call_count_v1", "tokens": "token_usage_v1",
               "time": "invocation_duration_v1"}[alias]
        assert row[f"outputs.{alias}.{key}_result"] == "informational"
        assert row[f"outputs.{alias}.{key}_threshold"] is None


def test_genai_usage_metadata_and_unknown_usage():
    genai = [{"role": "user", "content": "hi"},
             {"role": "assistant", "content": "hello", "usage_metadata": {"promptTokenCount": 7,
                                                                          "candidatesTokenCount": 3,
                                                                          "thoughtsTokenCount": 2}}]
    out = TokenUsageEvaluator()(response=genai)
    assert out["token_usage_v1"] == 12.0
    plain = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    none = TokenUsageEvaluator()(response=plain)
    assert none["token_usage_v1"] is None and none["token_usage_v1_result"] == "informational"  # as ADK: n/a, still INFORMATIONAL
    assert InferenceCallCountEvaluator()(response=plain)["inference_call_count_v1"] is None  # cannot tell: not 0


def test_adk_invocations_are_read_as_adk_reads_them():
    invocation = {"user_content": {"role": "user", "parts": [{"text": "q"}]},
                  "intermediate_data": {"invocation_events": [
                      {"author": "a", "content": {"role": "model", "parts": [{"function_call": {"name": "t", "args": {}}}]},
                       "usage_metadata": {"prompt_token_count": 5, "candidates_token_count": 1}}]},
                  "duration": 0.7, "model_duration": 0.5, "tool_duration": 0.1}
    assert TokenUsageEvaluator()(response=[invocation])["token_usage_v1"] == 6.0
    timing = InvocationDurationEvaluator()(response=[invocation])["invocation_duration_v1_details"]["duration_details"]
    assert timing == {"total_seconds": 0.7, "model_seconds": 0.5, "tool_seconds": 0.1, "framework_seconds": 0.1}


def test_a_simulated_conversation_carries_timings_usage_and_state():
    def agent(messages):
        turn = sum(m["role"] == "user" for m in messages)
        return {"messages": [{"role": "assistant", "content": f"reply {turn}",
                              "usage": {"prompt_tokens": 10 * turn, "completion_tokens": 2}}],
                "state": {"turns_seen": turn}}

    target = simulated_conversation_target(agent)
    result = evaluate(data=[{"user_turns": ["one", "two"]}], target=target, evaluators=EVALUATORS,
                      evaluator_config={name: {"column_mapping": {"response": "${target.conversation}"}}
                                        for name in EVALUATORS})
    (row,) = result["rows"]
    assert row["outputs.tokens.token_usage_v1"] == (12 + 22) / 2
    assert row["outputs.calls.inference_call_count_v1"] == 1.0
    assert row["outputs.time.invocation_duration_v1"] is not None  # measured by the simulation loop
    assert row["outputs.final_state"] == {"turns_seen": 2}
    assert all("duration" in t for t in row["outputs.simulation"]["turns"])


def test_a_threshold_is_a_config_error():
    with pytest.raises(ConfigError, match="does not take a threshold"):
        TokenUsageEvaluator(threshold=100)


def test_run_config_threshold_or_gate_on_one_is_exit_2(tmp_path):
    data = write_jsonl(tmp_path / "rows.jsonl", [{"response": OPENAI}])
    for spec, gate in (({"type": "token_usage", "threshold": 100}, []),
                       ({"type": "token_usage"}, ["tokens.token_usage_v1 <= 500"])):
        config = tmp_path / "eval.yaml"
        config.write_text(json.dumps({"data": str(data), "evaluators": {"tokens": spec}, "thresholds": gate}))
        r = agent_eval("run", "--config", config, "-o", tmp_path / "out")
        assert r.rc == 2, r
        assert "token_usage_v1 does not take a threshold" in r.err, r


def test_agent_eval_run_with_the_registry_name_reports_the_value(tmp_path):
    data = write_jsonl(tmp_path / "rows.jsonl", [{"response": OPENAI}])
    r = agent_eval("run", "--data", data, "-e", "token_usage", "-e", "tool_call_count", "-o", tmp_path / "out")
    assert r.rc == 0, r
    rows = [json.loads(line) for line in (tmp_path / "out" / "rows.jsonl").read_text().splitlines()]
    assert rows[0]["outputs.token_usage.token_usage_v1"] == 199.5


def test_agent_eval_list_shows_the_new_names():
    r = agent_eval("list")
    assert r.rc == 0, r
    for name in ("tool_call_count", "inference_call_count", "token_usage", "invocation_duration", "final_state_match"):
        assert f"\n{name}  [deterministic]" in r.out
    assert "token_usage  [deterministic]  TokenUsageEvaluator, key token_usage_v1, default threshold none" in r.out
