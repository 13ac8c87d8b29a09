"""A judge metric through the runner and evaluate_invocations, against the real local judge server."""

import copy
import json

from agent_evaluators.adk import evaluate_invocations
from agent_evaluators.adk.evalsets.runner import run_eval_sets
from agent_evaluators.adk.results import EvalStatus
from agent_evaluators.testing import ChatRequest, JudgeServer

DEPENDENT = "home_automation_agent/test_files/dependent_tool_calls.test.json"


def _verdict(req: ChatRequest):
    # the judge sees the agent's answer: a wrong device is an invalid answer
    return {"reason": "compared", "verdict": "invalid" if "device_9" in req.last_user_text else "valid"}


def _actual(root):
    conv = json.loads((root / DEPENDENT).read_text())["eval_cases"][0]["conversation"]
    actual = copy.deepcopy(conv)
    actual[1]["final_response"] = {"role": "model", "parts": [{"text": "Status of device_9 is on."}]}
    return conv, actual


def test_judge_metric_through_the_runner_respects_the_judge_budget(tmp_path, adk_root):
    expected, actual = _actual(adk_root)
    eval_id = json.loads((adk_root / DEPENDENT).read_text())["eval_cases"][0]["eval_id"]
    config = {"criteria": {"final_response_match_v2": {"threshold": 0.5, "judge_model_options": {"num_samples": 3}}}}
    with JudgeServer(_verdict, delay_s=0.05) as server:
        (result,) = run_eval_sets(adk_root / DEPENDENT, actual={eval_id: actual}, config=config,
                                  model_config=server.openai_config(), max_concurrency=2)
        stats = server.stats()
    (metric,) = result.overall_eval_metric_results
    assert (metric.score, metric.eval_status) == (0.5, EvalStatus.PASSED)
    per = [item.eval_metric_results[0].score for item in result.eval_metric_result_per_invocation]
    assert per == [1.0, 0.0]
    assert stats["requests"] == 6  # 2 invocations x 3 samples
    assert 1 < stats["max_in_flight"] <= 2  # concurrent, within the run's judge budget


def test_judge_metric_through_evaluate_invocations(adk_root):
    expected, actual = _actual(adk_root)
    with JudgeServer(_verdict) as server:
        result = evaluate_invocations("final_response_match_v2", actual, expected,
                                      {"threshold": 0.8, "judgeModelOptions": {"numSamples": 1}},
                                      model_config=server.openai_config())
        missing = evaluate_invocations("final_response_match_v2", actual, None, 0.8, model_config=server.openai_config())
    assert (result.score, result.status, result.per_invocation_scores) == (0.5, "FAILED", [1.0, 0.0])
    assert missing.status == "NOT_EVALUATED" and missing.per_invocation_scores == [None, None]
