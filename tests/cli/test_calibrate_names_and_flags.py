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
