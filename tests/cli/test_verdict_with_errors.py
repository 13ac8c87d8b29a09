"""Issue 20.13: a run threshold over a metric with errored cells is ERROR (not PASS), and a run whose only
problem is unreadable input lines says so instead of blaming evaluators."""

import xml.etree.ElementTree as ET
from pathlib import Path

from agent_evaluators.testing import ChatRequest, schema_reply

from .helpers import agent_eval, clean_env, write_jsonl


def _judge(req: ChatRequest):
    if "BREAK" in req.text:  # the repair request repeats the conversation: it fails too
        return "this is not a verdict"
    return schema_reply(req, score=5)


def test_threshold_over_errored_cells_is_error_not_pass(judge_server, tmp_path: Path) -> None:
    server = judge_server(_judge)
    rows = [{"id": f"r{i}", "query": f"question {i}" + (" BREAK" if i < 7 else ""), "response": "an answer"}
            for i in range(12)]
    junit = tmp_path / "junit.xml"
    r = agent_eval("run", "--data", write_jsonl(tmp_path / "d.jsonl", rows), "-e", "intent_resolution=intent",
                   "--judge-base-url", server.url + "/v1", "--judge-model", "m", "--judge-max-attempts", "1",
                   "-t", "intent.pass_rate >= 0.5", "-t", "intent.error_count <= 10", "-o", tmp_path / "out",
                   "--junit", junit, env=clean_env())
    assert r.rc == 2, r
    assert "ERROR intent.pass_rate >= 0.5" in r.out and "7 of 12 cells errored" in r.out, r
    assert "PASS  intent.pass_rate" not in r.out, r
    assert "PASS  intent.error_count <= 10" in r.out, r  # a check on the error count itself is still checked
    assert "Result: ERROR (7 evaluator error(s)), exit code 2" in r.out, r
    suite = next(s for s in ET.parse(junit).getroot() if s.get("name") == "agent-eval.thresholds")
    assert suite.get("errors") == "1" and suite.get("failures") == "0"


def test_unreadable_lines_alone_are_reported_as_such(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text('{"response": "Paris", "ground_truth": "Paris"}\n{not json\n'
                    '{"response": "Lyon", "ground_truth": "Lyon"}\n', encoding="utf-8")
    r = agent_eval("run", "--data", data, "-e", "response_match", "-o", tmp_path / "out")
    assert r.rc == 2, r
    assert "Result: ERROR (1 unreadable input line(s)), exit code 2" in r.out, r
    assert "evaluator error" not in r.out, r
