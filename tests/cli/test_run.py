"""``agent-eval run`` through a subprocess: exit codes, the table, files, resume, JUnit, skipped judges."""

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from agent_evaluators.testing import ChatRequest, JudgeServer, schema_reply

from .helpers import AGENTS, SAMPLES, agent_eval, clean_env, sample_rows, write_jsonl

BAD_IDS = sorted(r["id"] for r in sample_rows() if r["label"] == "bad")


def skip_lines(out: str):
    return [line for line in out.splitlines() if line.startswith("Skipped ")]


# ---------------------------------------------------------------------------- the bundled samples
def test_sample_config_without_judge_passes_and_flags_bad_rows(tmp_path):
    r = agent_eval("run", "--config", SAMPLES / "eval.yaml", "--output", tmp_path / "run")
    assert r.rc == 0, r
    # the table: deterministic evaluators scored, judge-backed ones skipped
    table = {line.split()[0]: line for line in r.out.splitlines() if line.split()[:1]}
    assert "75.0%" in table["trajectory"] and "skipped" in table["intent"], r.out
    # the bad runs of the sample data are exactly the failing trajectory rows
    failing = sorted({line.split()[2] for line in r.out.splitlines()
                      if line.startswith("  row ") and " trajectory " in line})
    assert failing == BAD_IDS
    # ONE line on how to configure a judge, naming the skipped evaluators
    lines = skip_lines(r.out)
    assert len(lines) == 1 and "intent" in lines[0] and "OPENAI_API_KEY" in lines[0] and "--judge-base-url" in lines[0]
    assert "SKIP  intent.intent_resolution >= 3.5" in r.out
    for name in ("rows.jsonl", "summary.json", "checks.json"):
        assert (tmp_path / "run" / name).is_file()
    checks = json.loads((tmp_path / "run" / "checks.json").read_text())
    assert checks["exit_code"] == 0 and set(checks["skipped"]) == {"intent", "task_adherence", "tool_calls", "completeness"}


def test_console_script_is_installed_and_runs(tmp_path):
    script = Path(sys.executable).parent / ("agent-eval.exe" if os.name == "nt" else "agent-eval")
    assert script.exists(), "the agent-eval console script is missing: reinstall the project (pip install -e .)"
    proc = subprocess.run([str(script), "run", "--config", str(SAMPLES / "eval.yaml"), "-o", str(tmp_path)],
                          capture_output=True, text=True, env=clean_env(), timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# ---------------------------------------------------------------------------- exit codes
def test_run_threshold_failure_exits_1(tmp_path):
    r = agent_eval("run", "--config", SAMPLES / "eval.yaml", "-o", tmp_path, "--threshold", "trajectory.pass_rate >= 0.9")
    assert r.rc == 1, r
    assert "FAIL  trajectory.pass_rate >= 0.9" in r.out and "(actual 0.750)" in r.out


def test_without_thresholds_a_failing_cell_exits_1_and_all_passing_exits_0(tmp_path):
    mapping = tmp_path / "map.yaml"
    mapping.write_text("evaluators:\n  trajectory:\n    type: tool_trajectory\n    column_mapping:\n"
                       "      ground_truth: ${data.expected_tool_calls}\n")
    r = agent_eval("run", "--config", mapping, "--data", AGENTS, "-o", tmp_path / "all")
    assert r.rc == 1, r
    good = write_jsonl(tmp_path / "good.jsonl", [row for row in sample_rows() if row["label"] == "good"])
    r = agent_eval("run", "--config", mapping, "--data", good, "-o", tmp_path / "good")
    assert r.rc == 0, r
    assert "Failing rows" not in r.out


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--evaluator", "no_such_metric"], "unknown evaluator 'no_such_metric'"),
        (["--evaluator", "tool_trajectory", "--threshold", "trajectory.pass_rate >= 1"], "not in this run"),
        (["--evaluator", "tool_trajectory", "--threshold", "tool_trajectory.pass_rate about 1"], "not understood"),
        (["--evaluator", "intent_resolution"], "nothing to evaluate"),
    ],
)
def test_bad_configuration_exits_2_with_a_message(tmp_path, extra, message):
    r = agent_eval("run", "--data", AGENTS, "-o", tmp_path, *extra)
    assert r.rc == 2, r
    assert message in r.err


def test_missing_data_file_and_bad_config_key_exit_2(tmp_path):
    r = agent_eval("run", "--data", tmp_path / "nope.jsonl", "--evaluator", "response_match", "-o", tmp_path)
    assert r.rc == 2 and "not found" in r.err, r
    cfg = tmp_path / "eval.yaml"
    cfg.write_text("data: x.jsonl\nevaluatorz: {}\n")
    r = agent_eval("run", "--config", cfg)
    assert r.rc == 2 and "unknown key 'evaluatorz'" in r.err, r
    # the known keys are the file's own words, not the flags the CLI rewrites keywords into
    assert "'num_runs'" in r.err and "'evaluators'" in r.err and "--num-runs" not in r.err, r


def test_error_cell_exits_2_and_its_threshold_is_error(tmp_path):
    rows = sample_rows()
    del rows[1]["expected_tool_calls"]  # this row cannot be compared: an error cell, not a score
    data = write_jsonl(tmp_path / "rows.jsonl", rows)
    cfg = tmp_path / "eval.yaml"
    cfg.write_text(f"data: {data}\nevaluators:\n  trajectory:\n    type: tool_trajectory\n    options: {{match_type: in_order}}\n"
                   "    column_mapping:\n      ground_truth: ${data.expected_tool_calls}\n"
                   "thresholds:\n  - trajectory.pass_rate >= 0.5\n")
    r = agent_eval("run", "--config", cfg, "-o", tmp_path / "out")
    assert r.rc == 2, r
    assert "Errors (1 cell(s))" in r.out and rows[1]["id"] in r.out and "expected_tool_calls" in r.out
    assert "ERROR trajectory.pass_rate >= 0.5" in r.out  # issue 20.13: over an errored cell, never PASS


# ---------------------------------------------------------------------------- with a judge
def _judge(req: ChatRequest):
    # the score depends on what reached the judge: the bad travel run never mentions FR8812
    return schema_reply(req, score=5 if "FR8812" in req.text else 2)


def test_judge_flags_run_judge_evaluators_against_a_local_server(tmp_path):
    travel = write_jsonl(tmp_path / "travel.jsonl", [r for r in sample_rows() if r["agent"] == "travel"])
    with JudgeServer(_judge) as server:
        r = agent_eval("run", "--data", travel, "--evaluator", "intent_resolution=intent", "--evaluator", "response_match",
                       "--judge-base-url", server.url + "/v1", "--judge-model", "local-judge", "-o", tmp_path / "out")
        requests = server.stats()["requests"]
    assert requests == 4
    assert r.rc == 1, r  # no thresholds: the failing cells decide
    assert not skip_lines(r.out)
    assert "judge: local-judge at " + server.url in r.out
    intent_line = next(line for line in r.out.splitlines() if line.startswith("intent "))
    assert "(4 calls)" in intent_line
    rows = [json.loads(line) for line in (tmp_path / "out" / "rows.jsonl").read_text().splitlines()]
    scores = {row["inputs.id"]: row["outputs.intent.intent_resolution"] for row in rows}
    expected = {row["inputs.id"]: 5.0 if "FR8812" in json.dumps(row["inputs.response"]) else 2.0 for row in rows}
    assert scores == expected


def test_judge_api_key_env_must_exist(tmp_path):
    r = agent_eval("run", "--data", AGENTS, "--evaluator", "intent_resolution", "--judge-model", "m",
                   "--judge-api-key-env", "AGENT_EVAL_TEST_NO_SUCH_VAR", "-o", tmp_path)
    assert r.rc == 2 and "AGENT_EVAL_TEST_NO_SUCH_VAR is not set" in r.err, r


def test_judge_from_environment(tmp_path):
    data = write_jsonl(tmp_path / "one.jsonl", sample_rows()[:2])
    with JudgeServer(lambda req: schema_reply(req, score=4)) as server:
        env = clean_env(OPENAI_BASE_URL=server.url + "/v1", AGENT_EVAL_JUDGE_MODEL="env-judge")
        r = agent_eval("run", "--data", data, "--evaluator", "intent_resolution", "-o", tmp_path / "o", env=env)
        assert server.stats()["requests"] == 2
    assert r.rc == 0, r


def test_a_key_in_the_environment_does_not_fail_a_run_of_deterministic_evaluators(tmp_path):
    # issue 36 item 26: OPENAI_API_KEY without a judge model made every run exit 2, judge or not
    mapping = tmp_path / "map.yaml"
    mapping.write_text("evaluators:\n  trajectory:\n    type: tool_trajectory\n    column_mapping:\n"
                       "      ground_truth: ${data.expected_tool_calls}\n")
    good = write_jsonl(tmp_path / "good.jsonl", [row for row in sample_rows() if row["label"] == "good"])
    for data, rc in ((good, 0), (AGENTS, 1)):
        r = agent_eval("run", "--config", mapping, "--data", data, "-o", tmp_path / f"out{rc}",
                       env=clean_env(OPENAI_API_KEY="sk-not-used"))
        assert r.rc == rc and "judge" not in r.err, r


# ---------------------------------------------------------------------------- resume, junit
def test_resume_reuses_finished_rows_without_new_judge_calls(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", sample_rows()[:6])
    args = ["run", "--data", data, "--evaluator", "intent_resolution=intent", "--evaluator", "response_match",
            "--judge-model", "m", "-o", tmp_path / "out"]
    with JudgeServer(lambda req: schema_reply(req, score=4)) as server:
        first = agent_eval(*args, "--judge-base-url", server.url + "/v1")
        assert server.stats()["requests"] == 6
        second = agent_eval(*args, "--judge-base-url", server.url + "/v1", "--resume")
        assert server.stats()["requests"] == 6, "resume must not judge finished rows again"
    assert first.rc == second.rc == 1  # response_match fails on the bad runs
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["rows_reused"] == 6
    # the resumed run says what it kept; the table and the rest are the same
    assert "6 row(s) evaluated (6 kept from the earlier run, 0 evaluated now)" in second.out
    assert first.out.split("\n\n", 2)[2].split("Wrote")[0] == second.out.split("\n\n", 2)[2].split("Wrote")[0]
    # a changed setup is refused, not silently mixed
    third = agent_eval("run", "--data", data, "--evaluator", "response_match", "-o", tmp_path / "out", "--resume")
    assert third.rc == 2 and "resume refused" in third.err, third


def test_junit_has_a_case_per_row_and_evaluator(tmp_path):
    junit = tmp_path / "junit.xml"
    r = agent_eval("run", "--config", SAMPLES / "eval.yaml", "-o", tmp_path / "o", "--junit", junit)
    assert r.rc == 0, r
    root = ET.parse(junit).getroot()
    n_rows = len(sample_rows())
    suites = {s.get("name"): s for s in root}
    assert len(suites["agent-eval.trajectory"].findall("testcase")) == n_rows
    failed = sorted(c.get("name").split("(")[1].rstrip(")") for c in suites["agent-eval.trajectory"]
                    if c.find("failure") is not None)
    assert failed == BAD_IDS
    failure = next(c.find("failure") for c in suites["agent-eval.trajectory"] if c.find("failure") is not None)
    assert "below threshold 1" in failure.get("message") and "reason:" in failure.text
    intent = suites["agent-eval.intent"]
    assert intent.get("skipped") == str(n_rows) and intent.find("testcase/skipped") is not None
    thresholds = suites["agent-eval.thresholds"]
    assert thresholds.get("failures") == "0" and thresholds.get("skipped") == "4"
    assert int(root.get("tests")) == n_rows * 6 + 6


def test_html_flag_writes_the_report(tmp_path):
    r = agent_eval("run", "--config", SAMPLES / "eval.yaml", "-o", tmp_path, "--html")
    assert r.rc == 0, r
    page = (tmp_path / "report.html").read_text()
    assert "travel-004" in page and "Skipped (no judge configured)" in page
