"""The quality judges by name, as a user reaches them: `agent-eval list`, `run -e NAME`, a run
config's `type: NAME`, and `agent-eval calibrate --quick` against the bundled fake judge."""

import json
from pathlib import Path

from agent_evaluators.testing import ChatRequest, JudgeServer, schema_reply

from .helpers import agent_eval, clean_env, write_jsonl

QUALITY = ("groundedness", "relevance", "coherence", "fluency", "similarity", "retrieval", "qa")
ROWS = [
    {"id": "good", "query": "How many days of leave do I get?", "response": "You get 25 days of paid leave.",
     "context": "Employees get 25 days of paid leave.", "ground_truth": "25 days of paid leave a year."},
    {"id": "bad", "query": "How many days of leave do I get?", "response": "The cafeteria opens at noon.",
     "context": "Employees get 25 days of paid leave.", "ground_truth": "25 days of paid leave a year."},
]


def _judge(req: ChatRequest):
    response = req.text.split("<response>")[-1].split("</response>")[0]
    return schema_reply(req, score=5 if "25 days of paid leave." in response else 1)


def test_list_shows_each_quality_judge_with_its_key_and_inputs():
    listed = json.loads(agent_eval("list", "--json").out)
    for name in QUALITY:
        assert listed[name]["judge"] is True, listed[name]
        assert listed[name]["key"] == name and listed[name]["threshold"] == (1.0 if name == "qa" else 3)
    assert "context" in json.dumps(listed["groundedness"]) and "ground_truth" in json.dumps(listed["similarity"])


def test_run_by_name_and_by_config_type(tmp_path: Path):
    data = write_jsonl(tmp_path / "rows.jsonl", ROWS)
    cfg = tmp_path / "eval.yaml"
    cfg.write_text(f"data: {data}\nevaluators:\n  grounded:\n    type: groundedness\n    threshold: 4\n"
                   "  close:\n    type: similarity\n")
    with JudgeServer(_judge) as server:
        judge = ["--judge-base-url", server.url + "/v1", "--judge-model", "local-judge"]
        by_name = agent_eval("run", "--data", data, "-e", "relevance", "-e", "fluency", *judge, "-o", tmp_path / "a")
        by_config = agent_eval("run", "--config", cfg, *judge, "-o", tmp_path / "b")
    assert by_name.rc == 1 and by_config.rc == 1, (by_name, by_config)  # the bad row fails
    rows = {r["inputs.id"]: r for r in map(json.loads, (tmp_path / "a" / "rows.jsonl").read_text().splitlines())}
    assert rows["good"]["outputs.relevance.relevance"] == 5.0 and rows["bad"]["outputs.relevance.relevance"] == 1.0
    assert rows["bad"]["outputs.fluency.fluency_result"] == "fail"
    rows = {r["inputs.id"]: r for r in map(json.loads, (tmp_path / "b" / "rows.jsonl").read_text().splitlines())}
    assert rows["good"]["outputs.grounded.groundedness_threshold"] == 4
    assert rows["good"]["outputs.grounded.groundedness_result"] == "pass"
    assert rows["bad"]["outputs.close.similarity_result"] == "fail"


def test_calibrate_quick_runs_on_every_quality_judge(tmp_path: Path):
    report = tmp_path / "cal.json"
    args = [a for name in QUALITY for a in ("--evaluator", name)]
    with JudgeServer() as server:
        r = agent_eval("calibrate", "--judge-base-url", server.url + "/v1", "--judge-model", "fake", "--quick",
                       *args, "--json", report, env=clean_env())
    assert r.rc in (0, 1), r  # the fake judge checks the wiring, not the verdicts
    results = json.loads(report.read_text())
    assert [c["evaluator"] for c in results] == list(QUALITY)
    assert all(c["total"] == c["scored"] == 24 and not c["errors"] for c in results), results
