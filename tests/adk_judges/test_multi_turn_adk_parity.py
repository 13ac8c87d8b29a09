"""rubric_based_multi_turn_trajectory_quality_v1 against google-adk 2.13.0's own evaluator.

``tests/reference/adk_multi_turn.json`` was produced by ``tests/reference/gen_adk_multi_turn.py``:
ADK's ``RubricBasedMultiTurnTrajectoryEvaluator`` with a scripted fake judge (see its docstring to
regenerate). Here the same per-sample verdicts come from the real local judge server, in the
same number of samples, and our score, status, per-invocation scores and statuses and per-rubric
scores must equal ADK's.
"""

import json
from pathlib import Path

import pytest

from agent_evaluators.adk import evaluate_invocations

from .conftest import Script, rubrics_of

REFERENCE = json.loads((Path(__file__).resolve().parent.parent / "reference" / "adk_multi_turn.json").read_text())
METRIC = "rubric_based_multi_turn_trajectory_quality_v1"


def invocations(n, own_rubrics):
    out = [{"invocation_id": f"i{k}", "user_content": {"role": "user", "parts": [{"text": f"user turn {k + 1}"}]},
            "final_response": {"role": "model", "parts": [{"text": f"agent answer {k + 1}"}]}} for k in range(n)]
    if own_rubrics:
        out[-1]["rubrics"] = own_rubrics
    return out


@pytest.mark.parametrize("name", sorted(REFERENCE["scenarios"]))
def test_scores_and_statuses_equal_adks(judge_server, name):
    case = REFERENCE["scenarios"][name]
    plan = Script(case["samples"])

    def judge(req):
        sample = plan.next()
        return {"rubrics": [{"rubric_id": r["rubric_id"], "property": r["property"], "evidence": "e",
                             "rationale": "r", "verdict": sample[r["rubric_id"]]} for r in rubrics_of(req)]}

    server = judge_server(judge)
    out = evaluate_invocations(METRIC, invocations(case["invocations"], case["own_rubrics"]),
                               criterion=case["criterion"], model_config=server.openai_config())
    assert len(server.requests) == case["judge_calls"]
    assert out.score == pytest.approx(case["adk_score"])
    assert out.status == case["adk_status"]
    assert out.per_invocation_scores == pytest.approx(case["adk_per_invocation_scores"])
    assert out.per_invocation_statuses == case["adk_per_invocation_statuses"]
    ours = {r["rubric_id"]: r["score"] for r in out.details["overall_rubric_scores"]}
    assert ours == case["adk_overall_rubric_scores"]
