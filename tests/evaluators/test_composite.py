"""The composites (ToolUseQuality, OutputQuality): members run concurrently in one call against a
real local judge, merged under their own keys, and aggregated by ``evaluate()`` like any evaluator."""

import json

import pytest

from agent_evaluators import ConfigError, InputError, JudgeError, OutputQualityEvaluator, ToolUseQualityEvaluator, evaluate
from agent_evaluators.testing import schema_reply

from .test_tool_use_evaluators import QUERY, TOOLS, azure_run

TOOL_MEMBERS = ("tool_call_accuracy", "tool_call_success", "tool_input_accuracy", "tool_output_utilization",
                "tool_selection")
OUTPUT_MEMBERS = ("intent_resolution", "task_adherence", "task_completion")


def verdict_name(req):
    return req.response_format["json_schema"]["name"]


def judge_failing(*failing):
    """The bundled judge's verdicts, except a failing score for the named verdict schemas."""
    def respond(req):
        name = verdict_name(req)
        if name not in failing:
            return schema_reply(req)
        if name == "ToolCallAccuracyVerdict":
            reply = schema_reply(req)
            for call in reply["calls"].values():
                call["useful"] = False
            return reply
        return schema_reply(req, score=0)
    return respond


def test_tool_use_quality_merges_every_member_under_its_own_keys(judge_server):
    server = judge_server(judge_failing("ToolSelectionVerdict"), delay_s=0.3)
    ev = ToolUseQualityEvaluator(server.openai_config())
    out = ev(query=QUERY, response=azure_run(), tool_definitions=TOOLS)
    for key in TOOL_MEMBERS:
        assert {f"{key}_result", f"{key}_threshold", f"{key}_reason", f"{key}_details", f"{key}_usage"} <= set(out)
    assert out["tool_selection_result"] == "fail" and out["tool_selection"] == 0.0
    assert all(out[f"{k}_result"] == "pass" for k in TOOL_MEMBERS if k != "tool_selection")
    # the composite's own keys: the share of members that pass; pass only when all do
    assert out["tool_use_quality"] == 0.8 and out["tool_use_quality_result"] == "fail"
    assert out["tool_use_quality_threshold"] == 1.0
    assert out["tool_use_quality_details"]["failed"] == ["tool_selection"]
    assert out["tool_use_quality_usage"]["judge_calls"] == 5
    # one request per member, all in flight at once
    stats = server.stats()
    assert stats["requests"] == 5 and stats["max_in_flight"] == 5
    assert sorted(verdict_name(r) for r in server.requests) == [
        "ToolCallAccuracyVerdict", "ToolCallSuccessVerdict", "ToolInputAccuracyVerdict",
        "ToolOutputUtilizationVerdict", "ToolSelectionVerdict"]


def test_a_member_that_cannot_apply_is_not_applicable_in_its_own_keys(judge_server):
    server = judge_server(judge_failing())
    ev = ToolUseQualityEvaluator(server.openai_config())
    # only a response: the members that need the query or the definitions cannot run
    out = ev(response=azure_run())
    assert out["tool_call_success_result"] == "pass"
    for key in ("tool_call_accuracy", "tool_input_accuracy", "tool_output_utilization", "tool_selection"):
        assert out[f"{key}_result"] == "not_applicable" and out[key] is None
        assert "needs the input" in out[f"{key}_reason"], out[f"{key}_reason"]
    assert out["tool_use_quality"] == 1.0 and out["tool_use_quality_details"]["not_applicable"] == [
        "tool_call_accuracy", "tool_input_accuracy", "tool_output_utilization", "tool_selection"]
    assert server.stats()["requests"] == 1
    # no tool call at all: every member is not applicable, and so is the composite
    none = ev(query=QUERY, response=[{"role": "assistant", "content": "Hello"}], tool_definitions=TOOLS)
    assert none["tool_use_quality_result"] == "not_applicable" and none["tool_use_quality"] is None
    assert all(none[f"{k}_result"] == "not_applicable" for k in TOOL_MEMBERS)
    assert server.stats()["requests"] == 1
    with pytest.raises(InputError, match="no member can run"):
        ev(tool_definitions=TOOLS)


def test_a_member_judge_failure_fails_the_call(judge_server):
    def respond(req):
        if verdict_name(req) == "ToolInputAccuracyVerdict":
            return "not json at all"
        return schema_reply(req)

    server = judge_server(respond)
    with pytest.raises(JudgeError):
        ToolUseQualityEvaluator(server.openai_config())(query=QUERY, response=azure_run(), tool_definitions=TOOLS)


def test_thresholds_per_member_and_for_the_composite(judge_server):
    server = judge_server(judge_failing("TaskCompletionVerdict"))
    strict = OutputQualityEvaluator(server.openai_config(), thresholds={"intent_resolution": 5})
    out = strict(query=QUERY, response=azure_run(), tool_definitions=TOOLS)
    assert out["intent_resolution"] == 4.0 and out["intent_resolution_result"] == "fail"
    assert out["intent_resolution_threshold"] == 5
    # scored: fluency, coherence, task adherence pass; intent resolution (threshold 5) and task completion
    # fail; groundedness has no context (no file_search results) and is not applicable
    assert out["groundedness_result"] == "not_applicable"
    assert out["output_quality"] == pytest.approx(3 / 5) and out["output_quality_result"] == "fail"
    lenient = OutputQualityEvaluator(server.openai_config(), threshold=0.5)
    assert lenient(query=QUERY, response=azure_run())["output_quality_result"] == "pass"
    with pytest.raises(ConfigError, match="tool_selection"):
        OutputQualityEvaluator(server.openai_config(), thresholds={"tool_selection": 1})


def test_output_quality_takes_a_conversation_each_member_scoring_its_turns(judge_server):
    server = judge_server(judge_failing())
    conversation = [{"role": "user", "content": "Weather in Paris?"},
                    {"role": "assistant", "content": "It is 18 °C in Paris."},
                    {"role": "user", "content": "And in Rome?"},
                    {"role": "assistant", "content": "It is 24 °C in Rome."}]
    out = OutputQualityEvaluator(server.openai_config())(conversation=conversation)
    for key in OUTPUT_MEMBERS:
        assert out[f"{key}_result"] == "pass"
        assert len(out[f"{key}_details"]["per_turn"]) == 2
    # intent, adherence, completion, fluency and coherence judge both turns; groundedness has no context
    assert out["fluency_result"] == out["coherence_result"] == "pass"
    assert out["groundedness_result"] == "not_applicable"
    assert server.stats()["requests"] == 10


def test_evaluate_aggregates_each_member_key_and_passes_a_row_when_all_members_pass(judge_server, tmp_path):
    def respond(req):
        # the row about Lyon gets a failing tool selection; every other verdict passes
        if verdict_name(req) == "ToolSelectionVerdict" and "Lyon" in req.text:
            return schema_reply(req, score=0)
        return schema_reply(req)

    server = judge_server(respond)
    lyon_query = [{"role": "user", "content": "What's the weather in Lyon?"}]
    rows = [
        {"query": QUERY, "response": azure_run(), "tool_definitions": TOOLS},
        {"query": lyon_query, "response": azure_run(city="Lyon"), "tool_definitions": TOOLS},
        {"query": QUERY, "response": [{"role": "assistant", "content": "Hello"}], "tool_definitions": TOOLS},
    ]
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    result = evaluate(data=str(data), evaluators={"tools": ToolUseQualityEvaluator(server.openai_config())},
                      output_path=str(tmp_path / "out"))
    m = result.metrics
    assert m["tools.n"] == 2 and m["tools.not_applicable_count"] == 1 and m["tools.error_count"] == 0
    assert m["tools.pass_rate"] == 0.5  # one of the two scored rows has every member passing
    assert m["tools.tool_selection"] == 0.5 and m["tools.tool_call_success"] == 1.0
    assert m["tools.tool_use_quality"] == pytest.approx(0.9)
    assert result.rows[1]["outputs.tools.tool_selection_result"] == "fail"
    assert result.rows[2]["outputs.tools.tool_call_accuracy_result"] == "not_applicable"
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["metrics"]["tools.tool_selection"] == 0.5
    # resume: every cell is done, so no member is asked again
    before = server.stats()["requests"]
    again = evaluate(data=str(data), evaluators={"tools": ToolUseQualityEvaluator(server.openai_config())},
                     output_path=str(tmp_path / "out"), resume=True)
    assert server.stats()["requests"] == before and again.metrics["tools.tool_selection"] == 0.5
