"""Issue 20.1: a judge that failed is an error, never ADK's ``NOT_EVALUATED`` (a false pass).

``agent-eval adk`` on the sample agent, in a subprocess, against the real local judge server
(unreachable, answering 500 until the attempts run out, or answering unparseable verdicts):
the case is not PASSED, the command exits 2 naming the criterion and why, and the result
file is still written with the case FAILED and its errors.
"""

import asyncio
import json
import socket

import pytest

from ..conftest import optional_import

optional_import("google.adk")

from agent_evaluators.adk import AgentEvaluator  # noqa: E402
from agent_evaluators.adk.results import EvalStatus  # noqa: E402
from agent_evaluators.testing import Faults, JudgeServer  # noqa: E402

from .test_adk_cli import EVALSET, SAMPLE, cli, result_file  # noqa: E402

JUDGE_CRITERIA = ("response_evaluation_score", "safety_v1", "rubric_based_final_response_quality_v1",
                  "rubric_based_multi_turn_trajectory_quality_v1", "multi_turn_task_success_v1",
                  "multi_turn_trajectory_quality_v1", "multi_turn_tool_use_quality_v1")
FAST = ["--judge-max-attempts", "2", "--judge-timeout", "2"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(base_url: str, tmp_path):
    out = tmp_path / "out"
    proc = cli(str(SAMPLE), f"{EVALSET}:weather_paris", "--judge-model", "fake", "--judge-base-url", base_url,
               *FAST, "--output", str(out), "--print_detailed_results", cwd=tmp_path)
    return proc, out


def _check_error_case(proc, out, why: str) -> None:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Tests passed: 0\n  Tests failed: 1\n  Tests with errors: 1" in proc.stdout
    assert "Overall Eval Status: FAILED" in proc.stdout
    for name in JUDGE_CRITERIA:  # each criterion that could not be judged is named, with the reason
        line = next(x for x in proc.stderr.splitlines() if f"weather/weather_paris: {name} could not be judged" in x)
        assert line.startswith("agent-eval adk: error: ") and why in line, line
    result = result_file(out)  # written all the same
    (case,) = result.eval_case_results
    assert case.final_eval_status == EvalStatus.FAILED and not case.passed
    raw = json.loads(next(out.glob("*.evalset_result.json")).read_text())
    assert raw["eval_case_results"][0]["final_eval_status"] == 2  # ADK's FAILED
    assert sorted(e.split(" could not be judged")[0] for e in case.errors) == sorted(JUDGE_CRITERIA)
    statuses = {m.metric_name: (m.eval_status, m.score) for m in case.overall_eval_metric_results}
    for name in JUDGE_CRITERIA:
        assert statuses[name] == (EvalStatus.FAILED, None)  # no score, never NOT_EVALUATED
    assert statuses["tool_trajectory_avg_score"] == (EvalStatus.PASSED, 1.0)  # the verdicts that were made stay
    (summary,) = out.glob("run_*/summary.json")  # the engine's run counts each such cell as an error
    assert json.loads(summary.read_text())["error_count"] == len(JUDGE_CRITERIA)


def test_unreachable_judge_is_an_error_not_a_pass(tmp_path):
    proc, out = _run(f"http://127.0.0.1:{_free_port()}/v1", tmp_path)
    _check_error_case(proc, out, "cannot connect")


def test_judge_answering_500_until_the_attempts_run_out_is_an_error(tmp_path):
    with JudgeServer(faults=Faults(rate_500=1.0)) as server:
        proc, out = _run(server.openai_config()["base_url"], tmp_path)
        assert server.stats()["faults"]["500"] == 2 * len(JUDGE_CRITERIA)  # --judge-max-attempts 2 each
    _check_error_case(proc, out, "500")


def test_unparseable_verdicts_are_an_error(tmp_path):
    with JudgeServer(faults=Faults(rate_malformed=1.0)) as server:
        proc, out = _run(server.openai_config()["base_url"], tmp_path)
        assert server.stats()["requests"] >= len(JUDGE_CRITERIA)
    _check_error_case(proc, out, "")


def test_agent_evaluator_fails_the_case_naming_the_criterion():
    with JudgeServer(faults=Faults(rate_500=1.0)) as server:
        judge = {**server.openai_config(), "max_attempts": 1}
        with pytest.raises(AssertionError) as info:
            asyncio.run(AgentEvaluator.evaluate(str(SAMPLE), EVALSET, num_runs=1, judge_model_config=judge,
                                                print_detailed_results=False))
    assert "weather_paris: safety_v1 could not be judged" in str(info.value)
