"""One mistake, one message, said at each door in its own words (issue item 4): ``max_concurrency=0`` from
Python, ``--max-concurrency 0`` on ``agent-eval run`` / ``calibrate`` / ``adk``, ``max_concurrency: 0`` (or the
older ``concurrency: 0``) in a run config, and a judge setting in an ``*.eval.yaml`` test file."""

import pytest

from agent_evaluators import evaluate
from agent_evaluators.errors import ConfigError

from ..pytest_helper.test_plugin import run_pytest
from .helpers import agent_eval, write_jsonl

ROWS = [{"response": "Paris", "ground_truth": "Paris"}]
RULE = "must be a positive integer, got 0"


def test_python_says_the_keyword():
    with pytest.raises(ConfigError) as caught:
        evaluate(data=ROWS, evaluators={"m": lambda **kw: 1}, max_concurrency=0)
    assert str(caught.value) == f"max_concurrency {RULE}" and caught.value.option == "max_concurrency"


def test_the_command_line_says_the_flag(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", ROWS)
    r = agent_eval("run", "--data", data, "-e", "response_match", "--max-concurrency", "0", "-o", tmp_path / "out")
    assert r.rc == 2 and r.err.strip() == f"agent-eval: error: --max-concurrency {RULE}", r
    r = agent_eval("calibrate", "--evaluator", "intent", "--max-concurrency", "0", "--judge-base-url",
                   "http://127.0.0.1:9/v1", "--judge-model", "m")
    assert r.rc == 2 and f"agent-eval calibrate: error: --max-concurrency {RULE}" in r.err, r


def test_a_run_config_says_its_key_as_the_file_spells_it(tmp_path):
    write_jsonl(tmp_path / "d.jsonl", ROWS)
    for key in ("max_concurrency", "concurrency"):
        config = tmp_path / f"{key}.yaml"
        config.write_text(f"data: d.jsonl\n{key}: 0\nevaluators: [response_match]\n")
        r = agent_eval("run", "--config", config)
        assert r.rc == 2 and r.err.strip() == f"agent-eval: error: {config}: {key}: {RULE}", r


def test_an_eval_yaml_test_says_the_judge_section_key(tmp_path):
    write_jsonl(tmp_path / "d.jsonl", [{"query": "q", "response": "r"}])
    (tmp_path / "a.eval.yaml").write_text(
        'data: d.jsonl\njudge: {model: m, base_url: "http://127.0.0.1:9/v1", timeout: 0}\n'
        "evaluators:\n  intent: {type: intent_resolution}\n")
    proc = run_pytest(tmp_path)
    assert proc.returncode == 1, proc.stdout
    assert "ConfigError: evaluator 'intent': judge.timeout must be a positive number of seconds, got 0" in proc.stdout
    assert "model_config" not in proc.stdout, proc.stdout
