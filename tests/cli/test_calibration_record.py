"""Calibration records: ``agent-eval calibrate --judge-config`` saves them beside the judge config, and
``agent-eval run`` records and shows which calibration its judge had (subprocess, local JudgeServer)."""

import json
from pathlib import Path

import yaml

from agent_evaluators import IntentResolutionEvaluator
from agent_evaluators.testing import JudgeServer

from .helpers import agent_eval, clean_env, write_jsonl


def _config(tmp_path: Path, server: JudgeServer, judge=None) -> Path:
    data = write_jsonl(tmp_path / "rows.jsonl", [{"query": "Cancel my 3pm meeting", "response": "Done, it is cancelled."}])
    path = tmp_path / "eval.yaml"
    path.write_text(yaml.safe_dump({
        "data": str(data), "evaluators": {"intent": "intent_resolution"}, "output_path": str(tmp_path / "out"),
        "judge": judge or {"model": "fake", "base_url": server.url + "/v1"},
    }))
    return path


def test_calibrate_saves_the_record_beside_the_config_and_a_run_shows_it(tmp_path):
    with JudgeServer() as server:
        config = _config(tmp_path, server)
        cal = agent_eval("calibrate", "--judge-config", config, "--quick", "--evaluator", "intent", env=clean_env())
        run = agent_eval("run", "--config", config, "--html", env=clean_env())
    assert cal.rc == 0, cal
    record = tmp_path / "eval.calibration.json"
    assert f"Saved the calibration record {record}" in cal.out
    (entry,) = json.loads(record.read_text())["entries"]
    assert entry["model"] == "fake" and entry["evaluator"] == "intent_resolution"
    assert entry["template_hash"] == IntentResolutionEvaluator(model_config=None).prompty.template_hash
    assert entry["cases"] == entry["total"] > 0 and entry["kappa"] is not None
    assert run.rc in (0, 1), run
    shown = f"intent: judge fake calibrated on {entry['cases']} cases, κ {entry['kappa']:.2f}"
    assert shown in run.out, run
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    (judge,) = summary["calibration"]["intent"]["judges"]
    assert judge["calibrated"] is True and judge["cases"] == entry["cases"] and judge["kappa"] == entry["kappa"]
    assert shown.split(": ", 1)[1] in (tmp_path / "out" / "report.html").read_text()


def test_a_run_without_a_record_says_uncalibrated(tmp_path):
    with JudgeServer() as server:
        run = agent_eval("run", "--config", _config(tmp_path, server), env=clean_env())
    assert "intent: judge fake uncalibrated" in run.out, run
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["calibration"]["intent"]["judges"][0]["calibrated"] is False


def test_a_record_for_another_template_does_not_count(tmp_path):
    with JudgeServer() as server:
        config = _config(tmp_path, server)
        (tmp_path / "eval.calibration.json").write_text(json.dumps({"version": 1, "entries": [
            {"model": "fake", "evaluator": "intent_resolution", "template_hash": "an-older-prompt", "cases": 24,
             "total": 24, "kappa": 0.81, "accuracy": 0.9}]}))
        run = agent_eval("run", "--config", config, env=clean_env())
    assert "intent: judge fake uncalibrated" in run.out, run


def test_each_judge_of_a_panel_is_calibrated_and_shown(tmp_path):
    with JudgeServer() as a, JudgeServer() as b:
        judges = [{"name": "a", "model": "fake-a", "base_url": a.url + "/v1"},
                  {"name": "b", "model": "fake-b", "base_url": b.url + "/v1"}]
        (tmp_path / "judges.yaml").write_text(yaml.safe_dump(judges))
        config = _config(tmp_path, a, judge=judges)
        cal = agent_eval("calibrate", "--judge-config", tmp_path / "judges.yaml", "--quick", "--evaluator", "intent",
                         env=clean_env())
        run = agent_eval("run", "--config", config, "--judge-config", tmp_path / "judges.yaml", env=clean_env())
    assert cal.rc == 0, cal
    models = [e["model"] for e in json.loads((tmp_path / "judges.calibration.json").read_text())["entries"]]
    assert models == ["fake-a", "fake-b"]
    assert "intent: judge fake-a calibrated on" in run.out and "; judge fake-b calibrated on" in run.out, run
