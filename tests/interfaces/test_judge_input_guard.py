"""A huge row is an error cell before any judge request (not 2.6 M tokens sent to the judge)."""

import json

from agent_evaluators import IntentResolutionEvaluator
from agent_evaluators.testing import JudgeServer, schema_reply
from tests.cli.helpers import agent_eval, write_jsonl


def test_ten_megabyte_response_is_an_error_cell_and_never_sent(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [
        {"id": "huge", "query": "What is the weather?", "response": "x" * 10_000_000},
        {"id": "small", "query": "What is the weather?", "response": "Sunny, 21 degrees."},
    ])
    with JudgeServer(lambda req: schema_reply(req, score=4)) as server:
        r = agent_eval("run", "--data", data, "-e", "intent_resolution=intent", "--judge-base-url", server.url + "/v1",
                       "--judge-model", "m", "-o", tmp_path / "run")
        sizes = [len(q.text) for q in server.requests]
    assert r.rc == 2, r
    assert len(sizes) == 1 and max(sizes) < 10_000, sizes  # only the small row reached the judge
    rows = sorted((json.loads(x) for x in (tmp_path / "run" / "rows.jsonl").read_text().splitlines()),
                  key=lambda row: row["line_number"])  # the file is in completion order
    assert rows[0]["cell_status"]["intent"] == "error"
    assert "max_input_chars" in r.out and "'response'" in r.out, r


def test_the_limit_is_a_judge_setting(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [{"query": "q", "response": "y" * 3000}])
    with JudgeServer(lambda req: schema_reply(req, score=4)) as server:
        low = agent_eval("run", "--data", data, "-e", "intent_resolution", "--judge-base-url", server.url + "/v1",
                         "--judge-model", "m", "--judge-max-input-chars", "1000", "-o", tmp_path / "a")
        assert low.rc == 2 and "over the limit of 1,000" in low.out, low
        assert not server.requests
        ev = IntentResolutionEvaluator(model_config={**server.openai_config(), "max_input_chars": 1_000_000})
        assert ev(query="q", response="y" * 3000)["intent_resolution"] == 4.0


def test_yaml_judge_section_takes_the_same_settings(tmp_path):
    write_jsonl(tmp_path / "d.jsonl", [{"query": "q", "response": "y" * 500}])
    with JudgeServer(lambda req: schema_reply(req, score=4)) as server:
        (tmp_path / "run.yaml").write_text(
            f"data: d.jsonl\njudge:\n  model: m\n  base_url: {server.url}/v1\n  max_input_chars: 100\n"
            "  max_attempts: 1\n  timeout: 5\nevaluators: [intent_resolution]\n")
        r = agent_eval("run", "--config", tmp_path / "run.yaml", "-o", tmp_path / "run")
        assert not server.requests
    assert r.rc == 2 and "over the limit of 100" in r.out, r
