"""``max_rows``: evaluate only the first N rows, on every path that reads a run's input.

Issue 22, point 3: the option is one table entry (``runner/option_table.py``) read by the one
row source (``runner/row_source.py``); these tests drive it as users do: ``evaluate()`` with a
judge metric over real HTTP (``JudgeServer``), a resume that goes on with a larger limit, the
progress total, ``agent-eval run --max-rows`` (and the HTML report's line) and a run config's
``max_rows:`` key, and the pytest plugin's one-test-per-row listing.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators.errors import ConfigError
from agent_evaluators.testing import JudgeServer
from tests.cli.helpers import agent_eval, clean_env

from .distributed.helpers import make_rows, rule_judge, write_data
from .helpers import ExactMatch, write_jsonl

N = 12


def _data(tmp_path: Path) -> Path:
    lines = [json.dumps(r) for r in make_rows(N)]
    lines.insert(3, "")  # a blank line is not a row: the limit counts rows, not file lines
    return write_data(tmp_path / "runs.jsonl", lines)


def test_only_the_first_rows_reach_the_judge_and_summary_records_the_limit(tmp_path):
    data = _data(tmp_path)
    with JudgeServer(rule_judge) as server:
        evs = {"intent": IntentResolutionEvaluator(model_config=server.openai_config()), "exact": ExactMatch()}
        result = evaluate(data=str(data), evaluators=evs, output_path=tmp_path / "out", max_rows=5,
                          show_progress=False)
        assert server.stats()["requests"] == 5
    assert [r["line_number"] for r in result.rows] == [0, 1, 2, 3, 4]
    assert [r["inputs.row_id"] for r in result.rows] == [0, 1, 2, 3, 4]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["config"]["max_rows"] == 5
    assert summary["rows"] == 5
    assert "max_rows" not in json.dumps(summary["fingerprint"])


def test_resume_with_a_larger_limit_goes_on_where_the_smaller_one_stopped(tmp_path):
    data = _data(tmp_path)
    out = tmp_path / "out"
    with JudgeServer(rule_judge) as server:
        evs = {"intent": IntentResolutionEvaluator(model_config=server.openai_config())}
        evaluate(data=str(data), evaluators=evs, output_path=out, max_rows=4, show_progress=False)
        server.reset()
        more = evaluate(data=str(data), evaluators=evs, output_path=out, max_rows=9, resume=True,
                        show_progress=False)
        assert server.stats()["requests"] == 5  # rows 4..8 only: the first four are kept
        server.reset()
        rest = evaluate(data=str(data), evaluators=evs, output_path=out, resume=True, show_progress=False)
        assert server.stats()["requests"] == N - 9
    assert more.summary["rows_reused"] == 4 and len(more.rows) == 9
    assert rest.summary["rows_reused"] == 9 and len(rest.rows) == N
    assert [r["outputs.intent.intent_resolution"] for r in rest.rows] == [i % 5 + 1 for i in range(N)]


def test_limit_on_an_iterable_and_a_bad_limit(tmp_path):
    rows = [{"response": str(i), "ground_truth": "1"} for i in range(50)]
    result = evaluate(data=iter(rows), evaluators={"exact": ExactMatch()}, max_rows=3)
    assert len(result.rows) == 3 and result.metrics["exact.exact"] == pytest.approx(1 / 3)
    assert len(evaluate(data=rows, evaluators={"exact": ExactMatch()}, max_rows=100).rows) == 50
    for bad in (0, -1, 2.5, True, "3"):
        with pytest.raises(ConfigError, match="max_rows must be a positive integer"):
            evaluate(data=rows, evaluators={"exact": ExactMatch()}, max_rows=bad)


def test_progress_total_honours_the_limit(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [{"response": "a", "ground_truth": "a"}] * 40)
    r = agent_eval("run", "--data", data, "-e", "response_match", "--max-rows", "7", "-o", tmp_path / "out",
                   env=clean_env(AGENT_EVAL_PROGRESS_INTERVAL="0.01"))
    assert r.rc == 0, r
    assert "evaluate: 7/7 rows" in r.err, r
    assert "/40" not in r.err, r
    assert "7 row(s) evaluated" in r.out, r


def test_cli_flag_and_run_config_key(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [{"response": "a", "ground_truth": "a"}] * 10)
    r = agent_eval("run", "--data", data, "-e", "response_match", "--max-rows", "4", "-o", tmp_path / "flag",
                   "--tag", "team=search", "--html")
    assert r.rc == 0 and "4 row(s) evaluated" in r.out, r
    report = (tmp_path / "flag" / "report.html").read_text()
    assert "<dt>Row limit</dt><dd>4</dd>" in report and "<dt>Tags</dt><dd>team=search</dd>" in report
    (tmp_path / "run.yaml").write_text("data: d.jsonl\nmax_rows: 6\noutput_path: yaml\n"
                                       "evaluators:\n  m: {type: response_match}\n")
    r = agent_eval("run", "--config", tmp_path / "run.yaml")
    assert r.rc == 0 and "6 row(s) evaluated" in r.out, r
    assert json.loads((tmp_path / "yaml" / "summary.json").read_text())["config"]["max_rows"] == 6
    r = agent_eval("run", "--config", tmp_path / "run.yaml", "--max-rows", "2", "-o", tmp_path / "both")
    assert r.rc == 0 and "2 row(s) evaluated" in r.out, r  # the flag wins over the file
    r = agent_eval("run", "--data", data, "-e", "response_match", "--max-rows", "0", "-o", tmp_path / "bad")
    assert r.rc == 2 and "--max-rows must be a positive integer" in r.err and "max_rows" not in r.err, r
    (tmp_path / "bad.yaml").write_text("data: d.jsonl\nmax_rows: zero\nevaluators: [response_match]\n")
    r = agent_eval("run", "--config", tmp_path / "bad.yaml")
    assert r.rc == 2 and "bad.yaml: max_rows: must be a positive integer, got 'zero'" in r.err, r


def test_pytest_plugin_lists_and_runs_only_the_first_rows(tmp_path):
    write_jsonl(tmp_path / "d.jsonl", [{"response": "a", "ground_truth": "a"}] * 10)
    (tmp_path / "few.eval.yaml").write_text("data: d.jsonl\nmax_rows: 3\nevaluators: [response_match]\n")
    env = clean_env(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    env.pop("CI", None)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "agent_evaluators.pytest_plugin", "-q", "-rA", "--no-header",
         "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True, text=True, env=env, timeout=180, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "3 passed" in proc.stdout and "PASSED few.eval.yaml::row2" in proc.stdout, proc.stdout
    assert "row3" not in proc.stdout
