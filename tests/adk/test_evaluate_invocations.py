"""``evaluate_invocations`` for the deterministic ADK criteria matches ADK 2.13 itself.

Expected numbers in tests/reference/adk_evaluate_invocations.json were produced by ADK's
own ``TrajectoryEvaluator`` / ``RougeEvaluator``, configured through ADK's
``EvalConfig`` (so every criterion spelling was parsed by ADK), by running
``/work/refvenvs/adk/bin/python tests/reference/adk_evaluate_invocations.py`` with
google-adk 2.13.0 and rouge-score 0.1.2 (see that script).
"""

import asyncio
import json
from pathlib import Path

import pytest

from agent_evaluators.adk import evaluate_invocations
from agent_evaluators.adk.evalsets.criteria import METRICS, MetricSpec, aevaluate_invocations, register_metric
from agent_evaluators.errors import ConfigError, InputError
from agent_evaluators.evaluators.base import Evaluator, Outcome

REFERENCE = json.loads((Path(__file__).resolve().parents[1] / "reference" / "adk_evaluate_invocations.json").read_text())
SCENARIOS = REFERENCE["scenarios"]
CASES = REFERENCE["cases"]


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c['scenario']}-{c['metric']}-{json.dumps(c['criterion'])}" for c in CASES]
)
def test_matches_adk(case):
    scenario = SCENARIOS[case["scenario"]]
    result = evaluate_invocations(case["metric"], scenario["actual"], scenario["expected"], case["criterion"])
    assert result.score == pytest.approx(case["adk_score"], abs=1e-12)
    assert result.status == case["adk_status"]
    assert result.per_invocation_scores == pytest.approx(case["adk_per_invocation_scores"], abs=1e-12)
    assert result.per_invocation_statuses == case["adk_per_invocation_statuses"]


def _inv(text, reply="ok", calls=()):
    return {
        "user_content": {"role": "user", "parts": [{"text": text}]},
        "final_response": {"role": "model", "parts": [{"text": reply}]},
        "intermediate_data": {"tool_uses": list(calls)},
    }


TWO = [_inv("a", "x", [{"name": "t", "args": {}}]), _inv("b", "y")]


@pytest.mark.parametrize("metric", ["tool_trajectory_avg_score", "response_match_score"])
def test_length_mismatch_raises_value_error(metric):
    with pytest.raises(ValueError, match="same length; got 2 and 1"):
        evaluate_invocations(metric, TWO, TWO[:1])


@pytest.mark.parametrize("metric", ["tool_trajectory_avg_score", "response_match_score"])
def test_reference_based_metric_without_expected_is_not_evaluated(metric):
    result = evaluate_invocations(metric, TWO)
    assert (result.score, result.status) == (None, "NOT_EVALUATED")
    assert result.per_invocation_scores == [None, None]
    assert "expected" in result.details["reason"]


def test_no_invocations_is_not_evaluated():
    result = evaluate_invocations("tool_trajectory_avg_score", [], [])
    assert (result.score, result.status, result.per_invocation_scores) == (None, "NOT_EVALUATED", [])


def test_criterion_none_uses_adk_defaults():
    actual = [_inv("a", "the cat sat", [{"name": "t", "args": {"x": 1}}, {"name": "u"}])]
    expected = [_inv("a", "the cat sat down today", [{"name": "t", "args": {"x": 1}}])]
    traj = evaluate_invocations("tool_trajectory_avg_score", actual, expected)
    assert (traj.threshold, traj.criterion.match_type.value, traj.score) == (1.0, "EXACT", 0.0)  # EXACT: extra call fails
    match = evaluate_invocations("response_match_score", actual, expected)
    assert match.threshold == 0.8
    assert match.score == pytest.approx(2 * 1.0 * 0.6 / 1.6) and match.status == "FAILED"


def test_threshold_only_object_criterion_keeps_defaults_for_the_rest():
    actual = [_inv("a", calls=[{"name": "t"}, {"name": "u"}])]
    expected = [_inv("a", calls=[{"name": "t"}])]
    assert evaluate_invocations("tool_trajectory_avg_score", actual, expected, {"match_type": "in order"}).score == 1.0
    assert evaluate_invocations("tool_trajectory_avg_score", actual, expected, {"threshold": 0.0}).status == "PASSED"


@pytest.mark.parametrize("metric", ["final_response_match_v2", "rubric_based_final_response_quality_v1",
                                    "rubric_based_tool_use_quality_v1", "hallucinations_v1", "safety_v1"])
def test_judge_metric_without_threshold_is_a_config_error(metric):
    with pytest.raises(ConfigError, match="threshold"):
        evaluate_invocations(metric, TWO, TWO)
    with pytest.raises(ConfigError, match="threshold"):
        evaluate_invocations(metric, TWO, TWO, {"judge_model_options": {"num_samples": 1}})


def test_unknown_metric_lists_the_supported_ones():
    with pytest.raises(ConfigError, match="unknown ADK metric 'rouge'.*tool_trajectory_avg_score"):
        evaluate_invocations("rouge", TWO, TWO)


def test_unavailable_judge_module_is_a_clear_config_error():
    spec = MetricSpec("not_here_v1", "agent_evaluators.evaluators.no_such_module:X", uses_judge=True)
    register_metric(spec)
    try:
        with pytest.raises(ConfigError, match="not available yet"):
            evaluate_invocations("not_here_v1", TWO, TWO, 0.5)
    finally:
        del METRICS["not_here_v1"]


def test_invalid_invocation_names_its_position():
    with pytest.raises(InputError, match=r"(?s)actual\[1\] is not a valid ADK Invocation.*\$\.user_content: Field required"):
        evaluate_invocations("response_match_score", [TWO[0], {"final_response": {}}], TWO)


class _Flaky(Evaluator):
    """Scores the length of the response; a response 'skip' is not applicable."""

    result_key = "flaky_len"
    default_threshold = 2.0

    def _evaluate(self, *, response: str) -> Outcome:
        if response == "skip":
            return Outcome(None, "nothing to score", not_applicable=True)
        return Outcome(float(len(response)), "length")


def test_registered_per_invocation_metric_follows_adk_status_and_mean_rules():
    register_metric(MetricSpec("flaky_len", f"{__name__}:_Flaky",
                               inputs=lambda a, e, c: {"response": a.final_response.parts[0].text},
                               reference_based=False, default_threshold=2.0))
    try:
        actual = [_inv("q", "abc"), _inv("q", "skip"), _inv("q", "a")]
        result = evaluate_invocations("flaky_len", actual)
        assert result.per_invocation_scores == [3.0, None, 1.0]
        assert result.per_invocation_statuses == ["PASSED", "NOT_EVALUATED", "FAILED"]
        assert result.score == 2.0 and result.status == "PASSED"  # mean over scored invocations, >= threshold
    finally:
        del METRICS["flaky_len"]


def test_async_twin_gives_the_same_result():
    result = asyncio.run(aevaluate_invocations("response_match_score", TWO, TWO, 0.5))
    assert result.score == 1.0 and result.status == "PASSED"
