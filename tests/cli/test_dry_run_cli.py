"""``agent-eval run --dry-run`` and a run config's ``dry_run: true`` (issue 25, item 1), in a subprocess.

A dry run needs no judge: without one configured it prices the config's judge model at an
endpoint it never contacts. It prints the estimate per evaluator, writes summary.json's
``estimate`` and no rows, checks no thresholds and exits 0.
"""

import json

from agent_evaluators.judge.token_count import counter_for
from agent_evaluators.testing import JudgeServer

from .helpers import SAMPLES, agent_eval


def test_dry_run_of_the_samples_without_a_judge(tmp_path):
    r = agent_eval("run", "--config", SAMPLES / "eval.yaml", "--dry-run", "--output", tmp_path / "out")
    assert r.rc == 0, r
    assert "no judge called, thresholds not checked" in r.out and "Result: DRY RUN, exit code 0" in r.out, r
    line = next(t for t in r.out.splitlines() if t.startswith("intent "))
    assert "gpt-4o-mini" in line and " 12 " in line and "$" in line, line
    total = next(t for t in r.out.splitlines() if t.startswith("total "))
    assert " 48 " in total, total
    assert "Tokens counted with: " in r.out and "Skipped" not in r.out
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["summary.json"]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["status"] == "dry_run" and summary["estimate"]["total"]["judge_calls"] == 48
    assert summary["estimate"]["intent"]["model"] == "gpt-4o-mini"
    rep = agent_eval("report", tmp_path / "out", "-o", tmp_path / "report.html")
    assert rep.rc == 0, rep
    page = (tmp_path / "report.html").read_text()
    assert "<h2>Estimate</h2>" in page and "A dry run: no judge was called" in page


def test_run_config_dry_run_key_then_a_real_run_compares(tmp_path):
    config = (SAMPLES / "eval.yaml").read_text().replace("concurrency: 8", "concurrency: 8\ndry_run: true")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "agents.jsonl").write_text((SAMPLES / "data" / "agents.jsonl").read_text())
    (tmp_path / "dry.yaml").write_text(config)
    with JudgeServer(count_tokens=counter_for("gpt-4o-mini")) as server:
        judge = ("--judge-base-url", server.url + "/v1", "--judge-model", "gpt-4o-mini")
        dry = agent_eval("run", "--config", tmp_path / "dry.yaml", *judge, "--output", tmp_path / "out")
        assert dry.rc == 0, dry
        assert server.stats()["requests"] == 0
        real = agent_eval("run", "--config", SAMPLES / "eval.yaml", *judge, "--output", tmp_path / "out")
        assert real.rc == 0, real
        assert server.stats()["requests"] == 48
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["status"] == "complete"
    assert summary["estimate_vs_actual"]["intent"]["judge_calls"] == {"estimated": 12, "actual": 12, "ratio": 1.0}
    assert summary["estimate_vs_actual"]["intent"]["prompt_tokens"]["ratio"] == 1.0
    rep = agent_eval("report", tmp_path / "out", "-o", tmp_path / "report.html")
    assert rep.rc == 0, rep
    page = (tmp_path / "report.html").read_text()
    assert "<h3>Estimate vs actual</h3>" in page and "<td>12 → 12 (1.0)</td>" in page
