"""Issue 20.10: `agent-eval calibrate` takes the evaluator names `agent-eval list` shows and the judge
flags `agent-eval run` takes (keys only from a variable)."""

import json
import re
from pathlib import Path

from agent_evaluators.testing import JudgeServer

from .helpers import agent_eval, clean_env


def _judge_flags(*argv: str) -> set:
    return set(re.findall(r"--(?:judge-[a-z-]+|max-concurrency)", agent_eval(*argv, "--help").out))


def test_calibrate_offers_the_judge_flags_of_run() -> None:
    assert _judge_flags("calibrate") == _judge_flags("run")


def test_calibrate_lists_and_accepts_the_names_agent_eval_list_shows(tmp_path: Path) -> None:
    listed = json.loads(agent_eval("list", "--json").out)
    judge_names = [name for name, d in listed.items() if d.get("judge")]
    help_text = " ".join(agent_eval("calibrate", "--help").out.split())
    for name in judge_names:
        assert name in help_text, (name, help_text)
    report = tmp_path / "cal.json"
    with JudgeServer() as server:
        r = agent_eval("calibrate", "--judge-base-url", server.url + "/v1", "--judge-model", "fake", "--quick",
                       "--evaluator", "hallucinations", "--evaluator", "intent", "--json", report, env=clean_env())
    assert r.rc == 0, r
    assert [c["evaluator"] for c in json.loads(report.read_text())] == ["hallucinations_v1", "intent_resolution"]


def test_calibrate_refuses_a_key_on_the_command_line() -> None:
    r = agent_eval("calibrate", "--judge-model", "m", "--judge-api-key", "sk-secret-123", "--evaluator", "intent")
    assert r.rc == 2, r
    assert "--judge-api-key-env" in r.err and "sk-secret-123" not in r.out + r.err, r


def test_unknown_name_lists_the_registry_names() -> None:
    r = agent_eval("calibrate", "--judge-model", "m", "--judge-base-url", "http://127.0.0.1:9/v1", "--evaluator", "halucinations")
    assert r.rc == 2, r
    assert "unknown judge-backed evaluator 'halucinations'" in r.err and "hallucinations," in r.err, r


def _table_names(out: str) -> list:
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.split()[:2] == ["evaluator", "scored"])
    return [line.split()[0] for line in lines[head + 1:] if line.strip() and not set(line.strip()) <= set("-+| ")]


def test_calibrate_prints_the_names_agent_eval_run_takes(tmp_path: Path) -> None:
    """What calibrate prints (its summary lines and table) can be pasted into `agent-eval run --evaluator`:
    the registry names, not result keys such as ``hallucinations_v1`` or ``rubric_score`` that run refuses."""
    from agent_evaluators.config.run_config import parse_evaluator_arg

    with JudgeServer() as server:
        r = agent_eval("calibrate", "--judge-base-url", server.url + "/v1", "--judge-model", "fake", "--quick",
                       "--evaluator", "hallucinations_v1", "--evaluator", "rubric", "--evaluator", "trajectory_accuracy",
                       "--min-kappa", "2", env=clean_env())
    assert r.rc == 1, r
    names = _table_names(r.out)
    assert names == ["hallucinations", "rubric", "trajectory_judge"], r
    for name in names:
        assert parse_evaluator_arg(name).name == name
        assert re.search(rf"^{name} \(judge fake\)", r.out, re.M), r
    assert "for: hallucinations, rubric, trajectory_judge" in r.err, r


def test_azure_compat_calibrate_prints_the_names_agent_eval_run_takes() -> None:
    with JudgeServer() as server:
        r = agent_eval("calibrate", "--azure-compat", "--judge-base-url", server.url + "/v1", "--judge-model", "fake",
                       "--quick", "--evaluator", "task_adherence", env=clean_env())
    assert r.rc == 0, r
    assert _table_names(r.out) == ["task_adherence"], r
