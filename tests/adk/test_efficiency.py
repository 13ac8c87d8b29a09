"""ADK's informational efficiency metrics: parity with google-adk's own evaluators, and every
``agent-eval adk`` agent run reporting them (per invocation and averaged, INFORMATIONAL).

The parity table ``parity/efficiency_table.json`` was generated once by
``python tests/adk/parity/gen_efficiency_table.py`` (google-adk 2.13.0's ``_efficiency_evaluators.py``
on invocation fixtures built with google-adk's own models, carrying usage and timings); our numbers
must equal it, field by field.
"""

import json
from pathlib import Path

import pytest

from agent_evaluators.adk.efficiency import EFFICIENCY_METRICS
from agent_evaluators.adk.evalsets.criteria import evaluate_invocations
from agent_evaluators.adk.models import Invocation
from agent_evaluators.errors import ConfigError
from agent_evaluators.testing import JudgeServer
from tests.cli.helpers import SAMPLES, agent_eval
from tests.conftest import optional_import

TABLE = json.loads((Path(__file__).parent / "parity" / "efficiency_table.json").read_text())
SAMPLE = SAMPLES / "adk_agent"
EVALSET = SAMPLE / "weather.evalset.json"


@pytest.mark.parametrize("case", TABLE["cases"], ids=[c["name"] for c in TABLE["cases"]])
@pytest.mark.parametrize("metric", EFFICIENCY_METRICS)
def test_equals_google_adks_own_efficiency_evaluators(case, metric):
    want = case["results"][metric]
    invocations = [Invocation.model_validate(i) for i in case["invocations"]]
    got = evaluate_invocations(metric, invocations)
    assert got.status == "INFORMATIONAL" == want["status"]
    assert got.score == want["overall_score"]
    assert got.per_invocation_scores == [p["score"] for p in want["per_invocation"]]
    assert all(s == "INFORMATIONAL" for s in got.per_invocation_statuses)
    key = "token_usage_details" if metric == "token_usage_v1" else "duration_details"
    if want["overall_details"] is not None:
        assert got.details[key] == want["overall_details"]
        assert [p.details[key] for p in got.per_invocation] == [p["details"] for p in want["per_invocation"]]


def test_the_table_covers_unknown_counts_and_every_token_type():
    by_name = {c["name"]: c["results"] for c in TABLE["cases"]}
    assert by_name["no_usage_reported"]["token_usage_v1"]["overall_score"] is None  # unknown is not 0
    assert by_name["zero_tokens_reported"]["token_usage_v1"]["overall_score"] == 0.0  # reported 0 is 0
    assert by_name["legacy_tool_uses_untimed"]["inference_call_count_v1"]["overall_score"] is None
    full = by_name["one_turn_full_usage_timed"]["token_usage_v1"]["overall_details"]
    assert all(v is not None for v in full.values())


def test_a_threshold_on_an_efficiency_metric_is_a_config_error():
    with pytest.raises(ConfigError, match="token_usage_v1 does not take a threshold"):
        evaluate_invocations("token_usage_v1", [], criterion=0.5)


@pytest.fixture(scope="module")
def judge():
    with JudgeServer() as server:
        yield server


def test_agent_eval_adk_reports_them_per_invocation_and_averaged(judge, tmp_path):
    optional_import("google.adk")
    r = agent_eval("adk", SAMPLE, EVALSET, "--judge-model", "fake", "--judge-base-url", judge.url + "/v1",
                   "--output", tmp_path / "out", "--print_detailed_results")
    assert r.rc == 1, r  # wrong_expectation fails on purpose; efficiency metrics never decide anything
    assert "Tests passed: 3" in r.out and "Tests failed: 1" in r.out
    assert "Per turn, averaged over cases (informational):" in r.out
    assert "Metric: token_usage_v1, Status: INFORMATIONAL" in r.out and "Token breakdown:" in r.out
    assert "Duration breakdown:" in r.out
    (path,) = (tmp_path / "out").glob("*.evalset_result.json")
    results = {c["eval_id"]: c for c in json.loads(path.read_text())["eval_case_results"]}
    case = results["convert_then_weather"]
    overall = {m["metric_name"]: m for m in case["overall_eval_metric_results"]}
    for name in EFFICIENCY_METRICS:
        assert overall[name]["eval_status"] == 4 and "threshold" not in overall[name]  # INFORMATIONAL, none
    per = [{m["metric_name"]: m for m in item["eval_metric_results"]} for item in case["eval_metric_result_per_invocation"]]
    # the sample's scripted model: one tool call and two model calls (call, then phrase) per turn, 0 tokens each
    assert [p["tool_call_count_v1"]["score"] for p in per] == [1.0, 1.0]
    assert [p["inference_call_count_v1"]["score"] for p in per] == [2.0, 2.0]
    assert overall["tool_call_count_v1"]["score"] == 1.0 and overall["inference_call_count_v1"]["score"] == 2.0
    assert overall["token_usage_v1"]["details"]["token_usage_details"]["prompt_tokens"] == 0
    assert overall["token_usage_v1"]["details"]["token_usage_details"].get("reasoning_tokens") is None
    durations = [p["invocation_duration_v1"]["details"]["duration_details"] for p in per]
    assert all(d["total_seconds"] > 0 and d["model_seconds"] is not None for d in durations)
    mean = round(sum(d["total_seconds"] for d in durations) / 2, 3)
    assert overall["invocation_duration_v1"]["score"] == mean
    # the sample's test_config also names its custom metric (by function path) and its end-state check
    assert overall["answered_every_turn"]["eval_status"] == 1 and overall["final_state_match"]["eval_status"] == 1


def test_a_threshold_in_test_config_is_a_config_error_exit_2(tmp_path):
    optional_import("google.adk")  # agent-eval adk loads the agent with ADK before it reads the config
    config = tmp_path / "test_config.json"
    config.write_text(json.dumps({"criteria": {"tool_trajectory_avg_score": 1.0, "tool_call_count_v1": 3}}))
    r = agent_eval("adk", SAMPLE, f"{EVALSET}:weather_paris", "--config", config, "--output", tmp_path / "out")
    assert r.rc == 2, r
    assert "tool_call_count_v1 does not take a threshold" in r.err + r.out
