"""The azure layer's judge evaluators run through our engine: evaluate(), resume, usage, the CLI, reports.

A 1.18-shaped cell has ``<k>_result`` (what the runner counts) and its token counts inside
``<k>_properties`` (what the usage totals read); everything else the engine does is unchanged.
"""

import json
import re

from agent_evaluators import evaluate
from agent_evaluators.azure import IntentResolutionEvaluator, ToolCallAccuracyEvaluator
from agent_evaluators.testing import schema_reply

from ..cli.helpers import agent_eval, clean_env, write_jsonl

ROWS = [
    {"query": "Weather in Paris? [good]", "response": [{"role": "assistant", "content": [{"type": "text", "text": "18 C."}]}],
     "tool_definitions": [{"name": "get_weather"}]},
    {"query": "Weather in Rome? [bad]", "response": "I like trains.", "tool_definitions": [{"name": "get_weather"}]},
    {"query": "Weather in Oslo? [good]", "response": [
        {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "get_weather",
                                           "arguments": {"city": "Oslo"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": "2 C"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "2 C."}]}],
     "tool_definitions": [{"name": "get_weather"}]},
]


def judge(req):
    last = re.findall(r"\[(good|bad)\]", req.text)[-1]
    return schema_reply(req, score=5 if last == "good" else 2)


def test_evaluate_counts_usage_and_resumes(judge_server, tmp_path):
    server = judge_server(judge)
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    evaluators = {"intent": IntentResolutionEvaluator(server.openai_config()),
                  "tca": ToolCallAccuracyEvaluator(server.openai_config())}
    result = evaluate(data=str(data), evaluators=evaluators, output_path=str(tmp_path / "run"))
    metrics = result.metrics
    assert metrics["intent.intent_resolution"] == (5 + 2 + 5) / 3
    assert metrics["intent.pass_rate"] == 2 / 3
    # row 1: messages without a call (not applicable); row 2: plain text, judged as the calls' text (1.18's rule)
    assert metrics["tca.n"] == 2 and metrics["tca.not_applicable_count"] == 1
    assert metrics["tca.gpt_tool_call_accuracy"] == metrics["tca.tool_call_accuracy"] == (2 + 5) / 2
    rows = list(result.rows)
    assert rows[1]["outputs.intent.intent_resolution_result"] == "fail"
    assert rows[1]["outputs.intent.intent_resolution_passed"] is False
    assert rows[0]["outputs.tca.tool_call_accuracy_reason"].startswith("Not applicable: No tool calls")
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    requests = server.stats()["requests"]
    assert requests == 5
    assert summary["usage"]["intent"]["prompt_tokens"] == sum(
        r["outputs.intent.intent_resolution_properties"]["prompt_tokens"] for r in rows)
    assert summary["usage"]["tca"]["model"] == "judge-model"

    again = evaluate(data=str(data), evaluators=evaluators, output_path=str(tmp_path / "run"), resume=True)
    assert server.stats()["requests"] == requests  # every cell was kept: no judge call
    assert again.metrics["intent.intent_resolution"] == metrics["intent.intent_resolution"]


def test_cli_runs_an_azure_layer_evaluator_and_writes_its_report(judge_server, tmp_path):
    server = judge_server(judge)
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    out = tmp_path / "out"
    env = clean_env(OPENAI_API_KEY="test-key", OPENAI_BASE_URL=server.url + "/v1", OPENAI_MODEL="judge-model")
    result = agent_eval("run", "--data", data, "-e", "agent_evaluators.azure:IntentResolutionEvaluator=intent",
                        "--output", out, "--html", env=env)
    assert result.rc == 1, result  # a scored cell failed (row 2), no run-level threshold
    summary = json.loads((out / "summary.json").read_text())
    assert summary["metrics"]["intent.pass_rate"] == 2 / 3
    assert summary["usage"]["intent"]["prompt_tokens"] > 0
    html = (out / "report.html").read_text()
    assert "intent_resolution" in html
    (out / "report.html").unlink()
    report = agent_eval("report", out, env=env)
    assert report.rc == 0, report
    assert "intent_resolution" in (out / "report.html").read_text()
