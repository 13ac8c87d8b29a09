"""``agent-eval compare`` and ``agent-eval plan`` as a user drives them: two real ``agent-eval run``s of the
same data against the bundled judge made noisy (:class:`~agent_evaluators.testing.noisy.NoisyJudge`),
differing only in the evaluator's judge model, then the comparison."""

import json
import random

import pytest

from agent_evaluators.testing import JudgeServer
from agent_evaluators.testing.noisy import NoisyJudge
from tests.cli.helpers import agent_eval, write_jsonl

JSON_FIELDS = ["metric", "n_pairs", "mean_a", "mean_b", "diff", "ci_low", "ci_high", "p_value", "p_adjusted", "test",
               "verdict"]


def _data(tmp_path, n=40, seed=1):
    rng = random.Random(seed)
    rows = [{"id": f"r{i}", "query": f"Question {i}?", "response": f"Answer {i} (true={rng.uniform(2, 4.5):.2f})"}
            for i in range(n)]
    return write_jsonl(tmp_path / "data.jsonl", rows)


def _run(server, data, out, model, *extra):
    r = agent_eval("run", "--data", data, "-e", "intent_resolution=intent", "--judge-base-url", server.url + "/v1",
                   "--judge-model", model, "-o", out, *extra)
    assert r.rc in (0, 1), r
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A: judge-a; A2: judge-a again (fresh noise); B: judge-b, one point lower on average."""
    tmp = tmp_path_factory.mktemp("compare")
    data = _data(tmp)
    with JudgeServer(NoisyJudge(sd=0.7, seed=3, shifts={"judge-b": -1.0})) as server:
        a = _run(server, data, tmp / "a", "judge-a")
        a2 = _run(server, data, tmp / "a2", "judge-a")
        b = _run(server, data, tmp / "b", "judge-b")
        reps = _run(server, data, tmp / "reps", "judge-a", "--num-runs", "3")
    return {"a": a, "a2": a2, "b": b, "reps": reps, "data": data, "tmp": tmp}


def _json_lines(out):
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_a_changed_judge_that_scores_lower_is_a_regression_and_fails_the_gate(runs):
    r = agent_eval("compare", runs["a"], runs["b"], "--json", "--fail-on-regression")
    assert r.rc == 1, r
    lines = _json_lines(r.out)
    assert [m["metric"] for m in lines] == ["intent.intent_resolution", "intent.pass_rate"]
    score = lines[0]
    assert list(score)[: len(JSON_FIELDS)] == JSON_FIELDS
    assert score["n_pairs"] == 40 and score["verdict"] == "regressed" and score["test"].startswith("wilcoxon")
    assert score["diff"] == pytest.approx(score["mean_b"] - score["mean_a"])
    assert score["ci_low"] <= score["diff"] <= score["ci_high"] < 0
    assert score["p_adjusted"] >= score["p_value"] and score["p_adjusted"] < 0.05
    assert lines[1]["test"] == "mcnemar-exact"


def test_the_same_judge_twice_is_not_a_regression_and_passes_the_gate(runs):
    r = agent_eval("compare", runs["a"], runs["a2"], "--fail-on-regression")
    assert r.rc == 0, r
    assert "REGRESSED" not in r.out and "40 row(s) paired; 0 only in A, 0 only in B" in r.out
    verdicts = {line.split()[0]: line.split()[-1] for line in r.out.splitlines() if line.startswith("intent.")
                and not line.split()[0].endswith(":")}  # the table's lines, not the explanations under it
    assert set(verdicts.values()) <= {"inconclusive", "no_change"}, r.out
    if "inconclusive" in verdicts.values():
        assert "detect a change of about" in r.out  # the smallest effect these pairs could detect


def test_without_the_gate_a_regression_still_exits_0(runs):
    r = agent_eval("compare", runs["a"], runs["b"], "--metric", "intent.intent_resolution")
    assert r.rc == 0 and "REGRESSED" in r.out and "intent.pass_rate" not in r.out, r


def test_swapped_runs_improve(runs):
    r = agent_eval("compare", runs["b"], runs["a"], "--json", "-m", "intent.intent_resolution")
    assert r.rc == 0 and _json_lines(r.out)[0]["verdict"] == "improved", r


def test_a_wide_min_effect_turns_noise_into_no_change(runs):
    r = agent_eval("compare", runs["a"], runs["a2"], "--json", "-m", "intent.intent_resolution", "--min-effect", "2")
    assert r.rc == 0 and _json_lines(r.out)[0]["verdict"] == "no_change", r


def test_rows_in_one_run_only_are_counted_not_dropped(runs, tmp_path):
    lines = runs["data"].read_text().splitlines()
    fewer = tmp_path / "fewer.jsonl"
    fewer.write_text("\n".join(lines[:30]) + "\n")
    with JudgeServer(NoisyJudge(sd=0.7, seed=4)) as server:
        short = _run(server, fewer, tmp_path / "short", "judge-a")
    r = agent_eval("compare", runs["a"], short, "--json")
    assert r.rc == 0 and _json_lines(r.out)[0]["n_pairs"] == 30, r
    text = agent_eval("compare", runs["a"], short)
    assert "30 row(s) paired; 10 only in A, 0 only in B (not compared)" in text.out


@pytest.mark.parametrize("args, words", [
    (["--metric", "nope.score"], "names no evaluator both runs have"),
    (["--alpha", "1.5"], "alpha must be between 0 and 1"),
    (["--key", "missing"], "no usable 'missing' column"),
])
def test_bad_input_exits_2_with_what_to_do(runs, args, words):
    r = agent_eval("compare", runs["a"], runs["b"], *args)
    assert r.rc == 2 and words in r.err, r


def test_a_folder_without_a_run_exits_2(runs, tmp_path):
    r = agent_eval("compare", runs["a"], tmp_path)
    assert r.rc == 2 and "holds no summary.json" in r.err, r


def test_pairing_by_a_named_key_column(runs):
    r = agent_eval("compare", runs["a"], runs["b"], "--key", "id", "--json")
    assert r.rc == 0 and _json_lines(r.out)[0]["n_pairs"] == 40, r


def test_plan_reads_the_judge_noise_of_a_run_with_repetitions(runs):
    r = agent_eval("plan", "--from", runs["reps"], "--effect", "0.25", "--power", "0.8", "--json")
    assert r.rc == 0, r
    score = _json_lines(r.out)[0]
    assert score["metric"] == "intent.intent_resolution" and score["basis"] == "measured judge noise"
    assert 0.2 < score["judge_variance"] < 1.0  # sd 0.7 plus rounding: about 0.57
    need = score["rows_needed"]
    assert need["1"] > need["2"] > need["3"] > need["5"] > 0
    text = agent_eval("plan", "--from", runs["reps"], "--effect", "0.25")
    assert text.rc == 0 and "rows x1" in text.out and "measured judge noise" in text.out, text


def test_plan_without_repetitions_says_the_row_spread_stands_in(runs):
    r = agent_eval("plan", "--from", runs["a"], "--effect", "0.25", "--json")
    assert r.rc == 0 and "no repetitions" in _json_lines(r.out)[0]["basis"], r
    bad = agent_eval("plan", "--from", runs["a"], "--effect", "0")
    assert bad.rc == 2 and "--effect must be > 0" in bad.err


def test_repetitions_give_pass_at_k_in_rows_summary_and_report(runs):
    summary = json.loads((runs["reps"] / "summary.json").read_text())
    m = summary["metrics"]
    assert m["intent.pass_at_1"] <= m["intent.pass_at_2"] <= m["intent.pass_at_3"]
    assert m["intent.pass_hat_3"] <= m["intent.pass_hat_2"] <= m["intent.pass_hat_1"] == pytest.approx(
        m["intent.pass_at_1"])
    assert summary["intervals"]["intent.intent_resolution"]["method"] == "bootstrap-rows-repetitions"
    row = json.loads((runs["reps"] / "rows.jsonl").read_text().splitlines()[0])
    details = row["outputs.intent.intent_resolution_details"]
    c = [r["intent_resolution_result"] for r in details["runs"]].count("pass")
    assert details["passes"] == c and set(details["pass_at_k"]) == {"1", "2", "3"}
    assert details["pass_hat_k"]["3"] == (1.0 if c == 3 else 0.0)
    r = agent_eval("report", runs["reps"])
    assert r.rc == 0, r
    page = (runs["reps"] / "report.html").read_text()
    assert "pass_at_3" in page and "pass_hat_3" in page and "mean 95% interval" in page


def test_repetitions_split_the_noise_in_summary_and_report(runs):
    summary = json.loads((runs["reps"] / "summary.json").read_text())
    noise = summary["noise"]["intent.intent_resolution"]
    assert 0.2 < noise["judge_variance"] < 1.0 and noise["agent_variance"] is None  # the agent did not rerun
    assert noise["verdicts_per_row"] == 3 and noise["between_rows_variance"] > 0
    page = (runs["reps"] / "report.html").read_text() if (runs["reps"] / "report.html").is_file() else ""
    if not page:
        assert agent_eval("report", runs["reps"]).rc == 0
        page = (runs["reps"] / "report.html").read_text()
    assert "noise (variance)" in page and "judge " in page
    assert "noise" not in json.loads((runs["a"] / "summary.json").read_text())  # no repetitions: not measurable
