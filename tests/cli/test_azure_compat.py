"""``agent-eval run --azure-compat`` and the run config's ``azure_compat: true``: azure-ai-evaluation
1.18's meaning for a whole run (registry names resolve to ``agent_evaluators.azure`` classes, the
metrics and the table add 1.18's names), driven in a subprocess against the bundled fake judge."""

import json

import pytest

from agent_evaluators.testing import JudgeServer

from .helpers import agent_eval, write_jsonl

ROWS = [
    {"query": "Weather in Paris?", "response": "It is sunny in Paris, 21 degrees."},
    {"query": "Book a table for two", "response": "I booked a table for two at 7pm."},
]


@pytest.fixture(scope="module")
def judge():
    with JudgeServer() as server:  # the default rules answer our templates and the azure layer's
        yield server.openai_config()["base_url"]


def _judge_flags(url: str):
    return ["--judge-model", "fake", "--judge-base-url", url, "--no-show-progress"]


def _run(tmp_path, judge, *extra):
    data = write_jsonl(tmp_path / "d.jsonl", ROWS)
    out = tmp_path / "out"
    result = agent_eval("run", "--data", data, "-e", "task_adherence=task", "-e", "intent_resolution=intent",
                        "-o", out, *_judge_flags(judge), *extra, cwd=tmp_path)
    rows = [json.loads(line) for line in (out / "rows.jsonl").read_text().splitlines()] if out.exists() else []
    summary = json.loads((out / "summary.json").read_text()) if (out / "summary.json").exists() else {}
    return result, rows, summary


def test_the_flag_gives_1_18s_classes_row_keys_and_metric_names(tmp_path, judge):
    result, rows, summary = _run(tmp_path, judge, "--azure-compat", "-t", "task.binary_aggregate >= 0.5", "--html")
    assert result.rc == 0, result
    for row in rows:
        assert row["outputs.task.task_adherence"] in (0.0, 1.0)  # 1.18's 0/1 material-failure scale
        assert row["outputs.task.task_adherence_status"] == "completed"
        assert isinstance(row["outputs.intent.intent_resolution_passed"], bool)
    metrics = summary["metrics"]
    for name in ("task.binary_aggregate", "intent.binary_aggregate", "task.task_adherence_passed",
                 "intent.intent_resolution_score"):
        assert name in metrics, name
    assert summary["config"]["azure_compat"] is True
    assert "binary aggregate" in result.out and "PASS  task.binary_aggregate >= 0.5" in result.out
    assert "<dt>azure-ai-evaluation 1.18 meaning</dt><dd>yes</dd>" in (tmp_path / "out" / "report.html").read_text()


def test_the_flag_keeps_the_judge_call_counts_in_the_table_and_the_summary(tmp_path, judge):
    """1.18's rows carry token counts only; the run still counts the judge calls that made them."""
    (tmp_path / "compat").mkdir()
    (tmp_path / "ours").mkdir()
    compat, _, compat_summary = _run(tmp_path / "compat", judge, "--azure-compat")
    ours, _, our_summary = _run(tmp_path / "ours", judge)
    assert compat.rc == ours.rc == 0, (compat, ours)
    for summary in (compat_summary, our_summary):
        for alias in ("task", "intent"):
            assert summary["usage"][alias]["judge_calls"] == len(ROWS), summary["usage"]
            assert summary["usage"][alias]["attempts"] == len(ROWS)
    assert compat.out.count(f"({len(ROWS)} calls)") == 2, compat.out


def test_without_the_flag_the_names_keep_the_seed_meaning(tmp_path, judge):
    result, rows, summary = _run(tmp_path, judge, "--html")
    assert result.rc == 0, result
    assert all(1 <= row["outputs.task.task_adherence"] <= 5 for row in rows)  # the seed's 1-5 scale
    assert "outputs.task.task_adherence_status" not in rows[0]
    assert "task.binary_aggregate" not in summary["metrics"] and "pass rate" in result.out
    assert "1.18 meaning" not in (tmp_path / "out" / "report.html").read_text()


def test_a_1_18_metric_name_in_a_threshold_without_the_flag_is_refused_before_any_judge_call(tmp_path, judge):
    result, _, _ = _run(tmp_path, judge, "-t", "task.binary_aggregate >= 0.5")
    assert result.rc == 2, result
    assert "produces no metric 'binary_aggregate'" in result.err


def test_the_run_config_switch_does_the_same(tmp_path, judge):
    write_jsonl(tmp_path / "d.jsonl", ROWS)
    (tmp_path / "run.yaml").write_text("data: d.jsonl\noutput_path: out\nazure_compat: true\n"
                                       "evaluators: {task: {type: task_adherence}}\n")
    result = agent_eval("run", "--config", "run.yaml", *_judge_flags(judge), cwd=tmp_path)
    assert result.rc == 0, result
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["metrics"]["task.binary_aggregate"] == 1.0 and summary["config"]["azure_compat"] is True
    # the meaning is part of the resume fingerprint: continuing the run without the switch is refused
    (tmp_path / "plain.yaml").write_text("data: d.jsonl\noutput_path: out\nevaluators: {task: {type: task_adherence}}\n")
    resumed = agent_eval("run", "--config", "plain.yaml", *_judge_flags(judge), "--resume", cwd=tmp_path)
    assert resumed.rc == 2, resumed
    assert "--azure-compat changed" in resumed.err
