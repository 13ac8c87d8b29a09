"""Issue 20.9: every message a user of `agent-eval run / report / calibrate` sees names the flag, never the
Python keyword (``resume=True``, ``output_path``, ``engine='ray'``, ``model_config=...``). Each message is
driven through the CLI in a subprocess, the way a user meets it."""

import json
import re
from pathlib import Path
from typing import Callable, Dict

import pytest

from agent_evaluators.testing import ChatRequest, JudgeServer, Reply

from .helpers import AGENTS, agent_eval, clean_env, write_jsonl

PYTHON_WORDS = re.compile(r"\b\w+=(True|False|None)\b|model_config|output_path|engine='|evaluator_config|"
                          r"JudgeError\.raw_text|\bcredential\b|[^-]api_key\b|register_reader|\(model_config dict\)")

ROWS = [{"response": "Paris", "ground_truth": "Paris"}, {"response": "Lyon", "ground_truth": "Lyon"}]
NO_JUDGE = "http://127.0.0.1:9/v1"  # nothing listens there; these messages come before any request


def _run(tmp: Path, *extra: object, env: Dict[str, str] = None):
    data = write_jsonl(tmp / "d.jsonl", ROWS)
    return agent_eval("run", "--data", data, "-e", "response_match", "-o", tmp / "out", *extra, env=env)


def _judge_run(tmp: Path, *extra: object):
    return agent_eval("run", "--data", AGENTS, "-e", "intent_resolution", "-o", tmp / "out", *extra)


def _interrupted_earlier_run(tmp: Path):
    assert _run(tmp).rc == 0
    summary = tmp / "out" / "summary.json"
    summary.write_text(json.dumps({**json.loads(summary.read_text()), "status": "interrupted"}))
    return _run(tmp)


def _data_inside_output(tmp: Path):
    assert _run(tmp).rc == 0
    return agent_eval("run", "--data", tmp / "out" / "rows.jsonl", "-e", "response_match", "-o", tmp / "out", "--force")


def _ray_missing(tmp: Path):
    shim = tmp / "shim" / "ray"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text("raise ImportError('No module named ray')\n")
    import os

    env = clean_env(PYTHONPATH=os.pathsep.join([str(tmp / "shim"), os.environ.get("PYTHONPATH", "")]))
    return _run(tmp, "--engine", "ray", env=env)


def _rerun_failed_with_new_rows(tmp: Path):
    assert _run(tmp).rc == 0
    write_jsonl(tmp / "more.jsonl", ROWS + [{"response": "Nice", "ground_truth": "Nice"}])
    return agent_eval("run", "--data", tmp / "more.jsonl", "-e", "response_match", "-o", tmp / "out",
                      "--rerun-failed", "--force")


def _unknown_suffix(tmp: Path):
    (tmp / "d.txt").write_text("x\n")
    return agent_eval("run", "--data", tmp / "d.txt", "-e", "response_match", "-o", tmp / "out")


def _unusable_judge_reply(tmp: Path):
    def judge(req: ChatRequest) -> str:
        return "no verdict here"

    with JudgeServer(judge) as server:
        data = write_jsonl(tmp / "d.jsonl", [{"query": "q", "response": "r"}])
        return agent_eval("run", "--data", data, "-e", "intent_resolution", "-o", tmp / "out", "--judge-base-url",
                          server.url + "/v1", "--judge-model", "m", "--judge-max-attempts", "1")


def _rejected_key(tmp: Path):
    with JudgeServer(lambda req: Reply("Incorrect API key provided.", status=401)) as server:
        data = write_jsonl(tmp / "d.jsonl", [{"query": "q", "response": "r"}])
        return agent_eval("run", "--data", data, "-e", "intent_resolution", "-o", tmp / "out", "--judge-base-url",
                          server.url + "/v1", "--judge-model", "m", "--judge-max-attempts", "1")


CASES: Dict[str, tuple] = {
    "judge max attempts": (lambda t: _judge_run(t, "--judge-base-url", NO_JUDGE, "--judge-model", "m",
                                                "--judge-max-attempts", "0"), "--judge-max-attempts must be"),
    "judge timeout": (lambda t: _judge_run(t, "--judge-base-url", NO_JUDGE, "--judge-model", "m", "--judge-timeout", "0"),
                      "--judge-timeout must be"),
    "judge schema limit": (lambda t: _judge_run(t, "--judge-base-url", NO_JUDGE, "--judge-model", "m",
                                                "--judge-max-text-length", "0"), "--judge-max-text-length must be"),
    "run timeout": (lambda t: _run(t, "--timeout", "0"), "--timeout must be a positive number"),
    "credentials in the URL": (lambda t: _judge_run(t, "--judge-base-url", "http://u:p@127.0.0.1:9/v1",
                                                    "--judge-model", "m"), "--judge-base-url carries credentials"),
    "azure without deployment": (lambda t: _judge_run(t, "--judge-azure-endpoint", "https://x.openai.azure.com"),
                                 "the judge needs --judge-azure-deployment"),
    "azure without key": (lambda t: _judge_run(t, "--judge-azure-endpoint", "https://x.openai.azure.com",
                                               "--judge-model", "d"), "--judge-api-key-env VAR"),
    "interrupted earlier run": (_interrupted_earlier_run, "pass --resume to continue it, or --force"),
    "data inside the output folder": (_data_inside_output, "choose another --output"),
    "ray not installed": (_ray_missing, "--engine ray needs Ray"),
    "mapping not a column": (lambda t: _run(t, "--map", "response_match.response=${foo}"),
                             "write --map response_match.response=COLUMN"),
    "mapping unknown input": (lambda t: _run(t, "--map", "response_match.nope=response"),
                              "--map response_match.nope=... maps input 'nope'"),
    "unknown data suffix": (_unknown_suffix, "(convert the file to one of them)"),
    "rerun-failed warning": (_rerun_failed_with_new_rows, "(--rerun-failed reruns error and not-run cells only); use --resume"),
    "unusable judge reply": (_unusable_judge_reply, "the cell's details (raw_text) in rows.jsonl"),
    "rejected API key": (_rejected_key, "the variable named by --judge-api-key-env"),
    "report of a folder without a run": (lambda t: agent_eval("report", t), "(agent-eval run --output DIR)"),
    "calibrate without a judge": (lambda t: agent_eval("calibrate", "--evaluator", "intent"),
                                  "no judge model configured: set OPENAI_API_KEY"),
    "calibrate concurrency": (lambda t: agent_eval("calibrate", "--evaluator", "intent", "--max-concurrency", "0",
                                                   "--judge-base-url", NO_JUDGE, "--judge-model", "m"),
                              "--max-concurrency must be a positive integer, got 0"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_message_names_the_flag(tmp_path: Path, case: str) -> None:
    drive: Callable = CASES[case][0]
    expected: str = CASES[case][1]
    r = drive(tmp_path)
    shown = r.out + r.err
    assert expected in shown, r
    assert not PYTHON_WORDS.search(shown), (PYTHON_WORDS.search(shown), r)
