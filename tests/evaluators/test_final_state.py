"""``final_state_match``: the end state an agent leaves, against the expected one (subset, exact, per-key
rules), in ``evaluate()`` rows and in ``agent-eval adk`` runs of the sample agent (its ``get_weather``
tool writes ``last_city`` into the ADK session state)."""

import json

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import ConfigError, InputError
from agent_evaluators.evaluators.final_state import FinalStateMatchEvaluator
from tests.cli.helpers import SAMPLES, agent_eval
from tests.conftest import optional_import

STATE = {"last_city": "Tokyo", "units": "metric", "balance": 99.996, "note": "booked ref AB12"}


def test_subset_is_the_default_and_extra_keys_are_fine():
    out = FinalStateMatchEvaluator()(final_state=STATE, expected_state={"last_city": "Tokyo"})
    assert out["final_state_match"] == 1.0 and out["final_state_match_result"] == "pass"


def test_exact_lists_each_mismatching_key():
    out = FinalStateMatchEvaluator(mode="exact")(final_state=STATE, expected_state={"last_city": "Paris",
                                                                                    "units": "metric",
                                                                                    "missing": 1})
    mismatches = out["final_state_match_details"]["mismatches"]
    assert [(m["key"], m["check"]) for m in mismatches] == [
        ("last_city", "equals"), ("missing", "equals"), ("balance", "unexpected"), ("note", "unexpected")]
    assert mismatches[0]["expected"] == "Paris" and mismatches[0]["found"] == "Tokyo"
    assert mismatches[1]["found"] == "<absent>"
    assert out["final_state_match"] == pytest.approx(1 / 5) and out["final_state_match_result"] == "fail"


def test_per_key_rules():
    rules = {"balance": {"approx": 100, "tolerance": 0.01}, "note": {"regex": r"ref [A-Z]{2}\d+"},
             "units": {"present": True}, "error": {"absent": True}}
    out = FinalStateMatchEvaluator(rules=rules)(final_state=STATE, expected_state={"last_city": "Tokyo"})
    assert out["final_state_match"] == 1.0, out
    bad = FinalStateMatchEvaluator(rules={"balance": {"approx": 100, "tolerance": 0.001}, "last_city": {"absent": True}})
    out = bad(final_state=STATE, expected_state={})
    assert {m["key"] for m in out["final_state_match_details"]["mismatches"]} == {"balance", "last_city"}


def test_nothing_expected_is_not_applicable_and_bad_input_is_named():
    ev = FinalStateMatchEvaluator()
    assert ev(final_state=STATE, expected_state={})["final_state_match_result"] == "not_applicable"
    with pytest.raises(InputError, match="final_state"):
        ev(final_state=None, expected_state={"a": 1})
    with pytest.raises(InputError, match="expected_state must be a JSON object"):
        ev(final_state=STATE, expected_state=["a"])
    with pytest.raises(ConfigError, match="mode must be one of"):
        FinalStateMatchEvaluator(mode="superset")
    with pytest.raises(ConfigError, match="rule for key 'x'"):
        FinalStateMatchEvaluator(rules={"x": {"approximately": 1}})


def test_columns_in_evaluate_rows():
    rows = [{"final_state": STATE, "expected_state": {"last_city": "Tokyo"}},
            {"final_state": STATE, "expected_state": {"last_city": "London"}}]
    result = evaluate(data=rows, evaluators={"end_state": FinalStateMatchEvaluator()})
    assert [r["outputs.end_state.final_state_match_result"] for r in result["rows"]] == ["pass", "fail"]


def _config(tmp_path, criterion):
    path = tmp_path / "test_config.json"
    path.write_text(json.dumps({"criteria": {"tool_trajectory_avg_score": 1.0, "final_state_match": criterion}}))
    return path


def test_the_sample_agents_session_state_is_checked(tmp_path):
    optional_import("google.adk")
    evalset = SAMPLES / "adk_agent" / "weather.evalset.json"
    r = agent_eval("adk", SAMPLES / "adk_agent", f"{evalset}:weather_paris,convert_then_weather",
                   "--config", _config(tmp_path, {"threshold": 1.0}), "--output", tmp_path / "out")
    assert r.rc == 0, r
    (path,) = (tmp_path / "out").glob("*.evalset_result.json")
    cases = {c["eval_id"]: c for c in json.loads(path.read_text())["eval_case_results"]}
    for case in cases.values():
        metric = next(m for m in case["overall_eval_metric_results"] if m["metric_name"] == "final_state_match")
        assert metric["eval_status"] == 1 and metric["score"] == 1.0
    rows = [json.loads(line) for line in next((tmp_path / "out").glob("run_*")).joinpath("rows.jsonl").read_text()
            .splitlines()]
    states = {row["inputs.eval_id"]: row["outputs.final_session_state"] for row in rows}
    assert states == {"weather_paris": {"last_city": "Paris"},
                      "convert_then_weather": {"units": "metric", "last_city": "London"}}


def test_a_wrong_end_state_fails_the_case_naming_the_key(tmp_path):
    optional_import("google.adk")
    data = json.loads((SAMPLES / "adk_agent" / "weather.evalset.json").read_text())
    case = next(c for c in data["eval_cases"] if c["eval_id"] == "convert_then_weather")
    case["final_session_state"] = {"last_city": "Paris"}
    data["eval_cases"] = [case]
    evalset = tmp_path / "state.evalset.json"
    evalset.write_text(json.dumps(data))
    config = _config(tmp_path, {"threshold": 1.0, "mode": "exact", "rules": {"units": {"regex": "^met"}}})
    r = agent_eval("adk", SAMPLES / "adk_agent", evalset, "--config", config, "--output", tmp_path / "out",
                   "--print_detailed_results")
    assert r.rc == 1, r
    assert "Metric: final_state_match, Status: FAILED, Score: 0.5" in r.out
    (run_dir,) = (tmp_path / "out").glob("run_*")
    (row,) = [json.loads(line) for line in (run_dir / "rows.jsonl").read_text().splitlines()]
    details = row["outputs.final_state_match.final_state_match_details"]
    assert details["mismatches"] == [{"key": "last_city", "check": "equals", "expected": "Paris", "found": "London"}]
