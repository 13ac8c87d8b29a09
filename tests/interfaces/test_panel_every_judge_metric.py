"""Every judge-backed evaluator of the registry works as a judge panel: each of two local judges is
asked the same number of times and every labelled calibration case is scored (no metric-specific
code for panels exists; this proves it for the sampled, per-call, per-turn and two-step metrics too)."""

import pytest

from agent_evaluators.calibration import calibrate, judge_metrics
from agent_evaluators.testing import JudgeServer


@pytest.fixture(scope="module")
def two_judges():
    with JudgeServer() as a, JudgeServer() as b:
        yield a, b


@pytest.mark.parametrize("metric", judge_metrics(), ids=lambda m: m.name)
def test_a_panel_of_two_scores_every_case_and_asks_both_judges_alike(metric, two_judges):
    a, b = two_judges
    before = (len(a.requests), len(b.requests))
    report = calibrate(metric.name, [{**a.openai_config("judge-a"), "name": "a"},
                                     {**b.openai_config("judge-b"), "name": "b"}], quick=True)
    asked = (len(a.requests) - before[0], len(b.requests) - before[1])
    assert report.scored == report.total > 0, [c.message for c in report.errors][:3]
    assert asked[0] == asked[1] >= report.total
