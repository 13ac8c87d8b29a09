"""Issue 20.4: a threshold naming a metric (or alias) no evaluator produces is a configuration error
before the run: exit 2, no judge request made, the closest valid name suggested."""

from pathlib import Path

import pytest

from .helpers import AGENTS, agent_eval, clean_env


@pytest.mark.parametrize("threshold, suggestion", [
    ("traj.pass_rat >= 0.5", "did you mean 'traj.pass_rate'?"),
    ("intent.intent_resolutoin >= 3", "did you mean 'intent.intent_resolution'?"),
    ("intnet.pass_rate >= 0.5", "did you mean 'intent'?"),
])
def test_misspelt_threshold_fails_before_any_judge_call(judge_server, tmp_path: Path, threshold: str,
                                                         suggestion: str) -> None:
    server = judge_server(None)
    r = agent_eval("run", "--data", AGENTS, "-e", "tool_trajectory=traj", "-e", "intent_resolution=intent",
                   "--judge-base-url", server.url + "/v1", "--judge-model", "judge-model", "-t", threshold,
                   "-o", tmp_path / "out", env=clean_env())
    assert r.rc == 2, r
    assert suggestion in r.err and threshold.split()[0] in r.err, r
    assert server.stats()["requests"] == 0
    assert not (tmp_path / "out" / "rows.jsonl").exists()


def test_every_metric_a_run_reports_is_accepted(tmp_path: Path) -> None:
    thresholds = ["traj.tool_trajectory_avg_score >= 0.5", "traj.pass_rate >= 0.5", "traj.n >= 1",
                  "traj.error_count == 0", "traj.not_applicable_count == 0"]
    args = [a for t in thresholds for a in ("-t", t)]
    r = agent_eval("run", "--data", AGENTS, "-e", "tool_trajectory=traj", "--map", "traj.ground_truth=expected_tool_calls",
                   *args, "-o", tmp_path / "out")
    assert r.rc == 0, r
    assert r.out.count("PASS  traj.") == len(thresholds), r


def test_a_skipped_evaluator_with_its_own_result_key_is_not_refused(tmp_path: Path) -> None:
    r = agent_eval("run", "--data", AGENTS, "-e", "response_match", "-e", "rubric=rub", "--option", "rub.rubrics=[a]",
                   "--option", "rub.result_key=myrub", "-t", "rub.myrub >= 0.5", "-o", tmp_path / "out")
    assert r.rc in (0, 1), r
    assert "SKIP  rub.myrub >= 0.5" in r.out, r
