"""The five 0/1 agent metrics and the two composites from the command line (a subprocess, as a shell
runs it): listed, run by name with ``-e`` and from YAML, thresholds on a composite's member keys,
and ``agent-eval calibrate --quick`` against the bundled judge."""

import json
from pathlib import Path

from .helpers import AGENTS, agent_eval, clean_env

NEW = ("task_completion", "tool_selection", "tool_input_accuracy", "tool_output_utilization", "tool_call_success",
       "tool_use_quality", "output_quality")


def test_list_shows_the_new_names_as_judge_evaluators() -> None:
    listed = json.loads(agent_eval("list", "--json").out)
    for name in NEW:
        assert listed[name]["judge"] is True, name


def test_run_by_name_with_thresholds_on_member_keys(judge_server, tmp_path: Path) -> None:
    server = judge_server(None)
    r = agent_eval("run", "--data", AGENTS, "-e", "tool_use_quality=tools", "-e", "task_completion",
                   "--judge-base-url", server.url + "/v1", "--judge-model", "fake",
                   "-t", "tools.tool_selection >= 0.5", "-t", "tools.tool_use_quality >= 0.5",
                   "-t", "task_completion.pass_rate >= 0.5", "-o", tmp_path / "out", env=clean_env())
    assert r.rc == 0, r
    for line in ("PASS  tools.tool_selection", "PASS  tools.tool_use_quality", "PASS  task_completion.pass_rate"):
        assert line in r.out, r
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert {f"tools.{k}" for k in ("tool_call_accuracy", "tool_call_success", "tool_input_accuracy",
                                   "tool_output_utilization", "tool_selection")} <= set(summary["metrics"])


def test_a_misspelt_member_metric_is_refused_before_any_judge_call(judge_server, tmp_path: Path) -> None:
    server = judge_server(None)
    r = agent_eval("run", "--data", AGENTS, "-e", "tool_use_quality=tools", "--judge-base-url", server.url + "/v1",
                   "--judge-model", "fake", "-t", "tools.tool_selecton >= 0.5", "-o", tmp_path / "out", env=clean_env())
    assert r.rc == 2, r
    assert "did you mean 'tools.tool_selection'?" in r.err, r
    assert server.stats()["requests"] == 0


def test_yaml_types_and_member_thresholds(judge_server, tmp_path: Path) -> None:
    server = judge_server(None)
    config = tmp_path / "eval.yaml"
    config.write_text(
        f"data: {AGENTS}\n"
        "evaluators:\n"
        "  quality:\n"
        "    type: output_quality\n"
        "    options:\n"
        "      thresholds: {intent_resolution: 4}\n"
        "  success:\n"
        "    type: tool_call_success\n"
        "thresholds:\n"
        "  - quality.intent_resolution >= 3\n"
        "  - success.pass_rate >= 0.5\n", encoding="utf-8")
    r = agent_eval("run", "--config", config, "--judge-base-url", server.url + "/v1", "--judge-model", "fake",
                   "-o", tmp_path / "out", env=clean_env())
    assert r.rc == 0, r
    assert "PASS  quality.intent_resolution" in r.out and "PASS  success.pass_rate" in r.out, r
    rows = [json.loads(line) for line in (tmp_path / "out" / "rows.jsonl").read_text().splitlines()]
    assert {row["outputs.quality.intent_resolution_threshold"] for row in rows
            if "outputs.quality.intent_resolution_threshold" in row} == {4}


def test_calibrate_quick_runs_on_each_new_name(tmp_path: Path, judge_server) -> None:
    server = judge_server(None)
    report = tmp_path / "cal.json"
    args = [a for name in NEW for a in ("--evaluator", name)]
    r = agent_eval("calibrate", "--judge-base-url", server.url + "/v1", "--judge-model", "fake", "--quick", *args,
                   "--json", report, env=clean_env())
    assert r.rc in (0, 1), r  # 1: the fake judge's verdicts do not agree with the labels (the gate), not an error
    cal = json.loads(report.read_text())
    assert [c["evaluator"] for c in cal] == list(NEW)
    for c in cal:
        assert c["scored"] == c["total"] == 24, c
