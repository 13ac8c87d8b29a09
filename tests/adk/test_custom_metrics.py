"""ADK custom metrics by function path (``custom_metrics.<name>.code_config.name``), called as ADK calls
them, and the same function through ``agent-eval run -e module:function``: one resolver."""

import json
import textwrap

import pytest

from tests.cli.helpers import SAMPLES, agent_eval, write_jsonl
from tests.conftest import optional_import

SAMPLE = SAMPLES / "adk_agent"
EVALSET = SAMPLE / "weather.evalset.json"

METRICS_MODULE = textwrap.dedent('''
    """Custom metrics written for ADK's custom_metrics (they import google-adk, as ADK users' do)."""
    from google.adk.evaluation.eval_case import Invocation
    from google.adk.evaluation.evaluator import EvalStatus, EvaluationResult, PerInvocationResult


    def mentions_degrees(eval_metric, actual_invocations, expected_invocations, conversation_scenario):
        # ADK's contract: google-adk models in, the threshold withheld (it stays on the criterion)
        assert all(isinstance(i, Invocation) for i in actual_invocations)
        assert eval_metric.threshold is None and eval_metric.criterion.threshold == 0.5
        per = []
        for inv in actual_invocations:
            text = " ".join(p.text or "" for p in inv.final_response.parts)
            score = 1.0 if "degrees" in text else 0.0
            per.append(PerInvocationResult(actual_invocation=inv, score=score,
                                           eval_status=EvalStatus.PASSED if score else EvalStatus.FAILED))
        overall = sum(p.score for p in per) / len(per)
        return EvaluationResult(overall_score=overall, per_invocation_results=per,
                                overall_eval_status=EvalStatus.PASSED if overall >= 0.5 else EvalStatus.FAILED)


    async def turns(eval_metric, actual_invocations, expected_invocations, conversation_scenario):
        per = [PerInvocationResult(actual_invocation=i, score=1.0, eval_status=EvalStatus.INFORMATIONAL)
               for i in actual_invocations]
        return EvaluationResult(overall_score=float(len(per)), per_invocation_results=per,
                                overall_eval_status=EvalStatus.INFORMATIONAL)


    def wrong_return(eval_metric, actual_invocations, expected_invocations, conversation_scenario):
        return 0.5
''')


@pytest.fixture
def metrics_dir(tmp_path):
    optional_import("google.adk")
    (tmp_path / "my_metrics.py").write_text(METRICS_MODULE)
    return tmp_path


def _config(folder, paths, criteria=None):
    config = folder / "test_config.json"
    config.write_text(json.dumps({
        "criteria": criteria or {name: 0.5 for name in paths},
        "custom_metrics": {name: {"code_config": {"name": path}, "metric_info": {"metric_name": name}}
                           for name, path in paths.items()},
    }))
    return config


def _result(out_dir):
    (path,) = out_dir.glob("*.evalset_result.json")
    return {c["eval_id"]: c for c in json.loads(path.read_text())["eval_case_results"]}


def test_custom_metrics_run_as_adk_calls_them(metrics_dir):
    config = _config(metrics_dir, {"mentions_degrees": "my_metrics.mentions_degrees", "turns": "my_metrics.turns"})
    r = agent_eval("adk", SAMPLE, f"{EVALSET}:weather_paris,convert_then_weather", "--config", config,
                   "--output", metrics_dir / "out")
    assert r.rc == 0, r  # "That is 90.0 EUR." does not mention degrees, but 0.5 >= 0.5: the function's own PASSED
    cases = _result(metrics_dir / "out")
    paris = {m["metric_name"]: m for m in cases["weather_paris"]["overall_eval_metric_results"]}
    assert paris["mentions_degrees"]["eval_status"] == 1 and paris["mentions_degrees"]["score"] == 1.0
    assert paris["turns"]["eval_status"] == 4 and paris["turns"]["score"] == 1.0  # async, INFORMATIONAL
    convert = cases["convert_then_weather"]
    per = [{m["metric_name"]: m for m in item["eval_metric_results"]} for item in convert["eval_metric_result_per_invocation"]]
    assert [p["mentions_degrees"]["score"] for p in per] == [0.0, 1.0]
    assert {m["metric_name"]: m["eval_status"] for m in convert["overall_eval_metric_results"]}["mentions_degrees"] == 1


@pytest.mark.parametrize("path, message", [
    ("no_such_module.fn", "custom metric 'm': 'no_such_module:fn': no module named 'no_such_module'"),
    ("my_metrics.missing", "custom metric 'm': 'my_metrics:missing': my_metrics has no 'missing'"),
    ("justaname", "custom metric 'm': 'justaname' names no module"),
])
def test_a_function_that_cannot_be_found_is_exit_2_before_any_case_runs(metrics_dir, path, message):
    config = _config(metrics_dir, {"m": path})
    r = agent_eval("adk", SAMPLE, f"{EVALSET}:weather_paris", "--config", config, "--output", metrics_dir / "out")
    assert r.rc == 2, r
    assert message in r.err, r
    assert not (metrics_dir / "out").exists() or not list((metrics_dir / "out").glob("*.evalset_result.json"))


def test_a_wrong_return_type_is_an_error_of_the_case_exit_2(metrics_dir):
    config = _config(metrics_dir, {"m": "my_metrics.wrong_return"})
    r = agent_eval("adk", SAMPLE, f"{EVALSET}:weather_paris", "--config", config, "--output", metrics_dir / "out")
    assert r.rc == 2, r
    assert "custom metric 'm' returned float; it must return an EvaluationResult" in r.out + r.err, r
    assert _result(metrics_dir / "out")["weather_paris"]["final_eval_status"] == 2


def test_a_custom_metric_without_code_config_is_exit_2(metrics_dir):
    config = metrics_dir / "test_config.json"
    config.write_text(json.dumps({"criteria": {"m": 0.5}, "custom_metrics": {"m": {"metric_info": {}}}}))
    r = agent_eval("adk", SAMPLE, f"{EVALSET}:weather_paris", "--config", config)
    assert r.rc == 2 and "custom_metrics.m needs code_config.name" in r.err, r


def test_the_same_function_through_agent_eval_run_e_module_function(metrics_dir):
    invocation = {"user_content": {"role": "user", "parts": [{"text": "Weather?"}]},
                  "final_response": {"role": "model", "parts": [{"text": "It is 22 degrees."}]}}
    data = write_jsonl(metrics_dir / "rows.jsonl", [{"actual_invocations": [invocation]}])
    config = metrics_dir / "eval.yaml"
    config.write_text(json.dumps({"data": str(data), "evaluators": {
        "degrees": {"type": "my_metrics:mentions_degrees", "threshold": 0.5}}}))
    r = agent_eval("run", "--config", config, "-o", metrics_dir / "yaml", cwd=metrics_dir)
    assert r.rc == 0, r
    (row,) = [json.loads(line) for line in (metrics_dir / "yaml" / "rows.jsonl").read_text().splitlines()]
    assert row["outputs.degrees.degrees"] == 1.0 and row["outputs.degrees.degrees_result"] == "pass"
    r = agent_eval("run", "--data", data, "-e", "my_metrics:wrong_return", "-o", metrics_dir / "cli", cwd=metrics_dir)
    assert r.rc != 0 and "returned float; it must return an EvaluationResult" in r.out + r.err, r
