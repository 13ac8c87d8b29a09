"""assert_passes() and eval_cases(), called in-process."""

import pytest

from agent_evaluators import ToolTrajectoryEvaluator, evaluate
from agent_evaluators.pytest_plugin import EvalRowCase, assert_passes, eval_cases
from tests.cli.helpers import AGENTS, JUDGE_ENV, SAMPLES, sample_rows

MAPPING = {"trajectory": {"column_mapping": {"ground_truth": "${data.expected_tool_calls}"}}}


@pytest.fixture(scope="module")
def result():
    return evaluate(data=str(AGENTS), evaluators={"trajectory": ToolTrajectoryEvaluator(match_type="in_order")},
                    evaluator_config=MAPPING)


def test_assert_passes_accepts_met_thresholds(result):
    assert_passes(result, {"trajectory.pass_rate": 0.75, "trajectory.tool_trajectory_avg_score": 0.7})
    assert_passes(result.metrics, ["trajectory.error_count == 0", "trajectory.pass_rate < 0.8"])


def test_assert_passes_message_lists_every_failed_check(result):
    with pytest.raises(AssertionError) as info:
        assert_passes(result, {"trajectory.pass_rate": 1.0, "trajectory.tool_trajectory_avg_score": 0.5,
                               "trajectory.f1": 0.9})
    msg = str(info.value)
    assert msg.startswith("2 of 3 threshold(s) not met")
    assert "trajectory.pass_rate >= 1: actual 0.75" in msg
    assert "trajectory.f1 >= 0.9: no such metric (available: trajectory.error_count" in msg


def test_eval_cases_one_per_row_with_readable_failures(result):
    cases = eval_cases(data=str(AGENTS), evaluators={"trajectory": ToolTrajectoryEvaluator(match_type="in_order")},
                       evaluator_config=MAPPING)
    rows = sample_rows()
    assert [p.id for p in cases] == [f"row{i}-{r['id']}" for i, r in enumerate(rows)]
    outcomes = {}
    for param in cases:
        case: EvalRowCase = param.values[0]
        try:
            case.check()
            outcomes[case.label] = "pass"
        except pytest.fail.Exception as exc:
            outcomes[case.label] = str(exc)
    bad = {r["id"] for r in rows if r["label"] == "bad"}
    assert {k for k, v in outcomes.items() if v != "pass"} == bad
    msg = outcomes["travel-004"]
    assert "trajectory: tool_trajectory_avg_score = 0 below threshold 1" in msg
    assert "reason: in_order: no match" in msg and "missing search_flights" in msg


def test_eval_cases_from_a_config_skips_judge_evaluators_without_a_judge(monkeypatch):
    for name in JUDGE_ENV:
        monkeypatch.delenv(name, raising=False)
    cases = eval_cases(SAMPLES / "eval.yaml")
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("AGENT_EVAL_STRICT", raising=False)
    first: EvalRowCase = cases[0].values[0]
    assert first.problems() == []  # travel-001 passes its deterministic evaluators
    with pytest.raises(pytest.skip.Exception, match="intent, task_adherence, tool_calls, completeness not run"):
        first.check()
    assert set(first.run.skipped) == {"intent", "task_adherence", "tool_calls", "completeness"}
