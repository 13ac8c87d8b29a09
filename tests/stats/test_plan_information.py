"""``agent-eval plan`` says when it does not know (issue 35 item 13): a skipped metric and a noise-free one get
``-`` and "not enough information" (before: "1 row" after ``--num-runs 3``), and repetitions of the judge only
divide the judge's noise (before: 1,285 rows became 643 at two repetitions for a deterministic metric)."""

import json

from tests.cli.helpers import AGENTS, agent_eval


def _plan(run, *extra):
    r = agent_eval("plan", "--from", run, "--effect", "0.05", "--json", *extra)
    assert r.rc == 0, r
    return {p["metric"]: p for p in map(json.loads, r.out.splitlines())}


def _run(tmp_path, name, *extra):
    out = tmp_path / name
    r = agent_eval("run", "--data", AGENTS, "-e", "response_match=match", "-e", "intent_resolution=intent",
                   "-o", out, *extra)
    assert r.rc in (0, 1), r
    return out


def test_a_deterministic_metric_needs_as_many_rows_at_any_repetition(tmp_path):
    plans = _plan(_run(tmp_path, "once"), "-m", "match.response_match_score")
    need = plans["match.response_match_score"]["rows_needed"]
    assert need["1"] is not None and need["1"] > 1 and need["1"] == need["2"] == need["3"] == need["5"], need
    assert "deterministic" in plans["match.response_match_score"]["basis"]


def test_repeating_a_deterministic_metric_shows_no_noise_so_plan_says_it_cannot_tell(tmp_path):
    plans = _plan(_run(tmp_path, "reps", "--num-runs", "3"), "-m", "match.response_match_score")
    plan = plans["match.response_match_score"]
    assert set(plan["rows_needed"].values()) == {None}, plan
    assert plan["basis"].startswith("not enough information: every repetition gave the same verdict"), plan
    text = agent_eval("plan", "--from", tmp_path / "reps", "--effect", "0.05", "-m", "match.response_match_score")
    assert "not enough information" in text.out and " 1 " not in text.out.splitlines()[2], text


def test_a_skipped_judge_metric_is_not_enough_information(tmp_path):
    plans = _plan(_run(tmp_path, "nojudge"), "-m", "intent.intent_resolution")
    plan = plans["intent.intent_resolution"]
    assert set(plan["rows_needed"].values()) == {None} and "no scored cell" in plan["basis"], plan
