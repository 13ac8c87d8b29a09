"""Prompt flow: our evaluators as class-based flex flows (promptflow-core's executor) and our
shipped ``.prompty`` files in ``promptflow.core.Prompty``, against the local judge server."""

import json

import pytest

from tests.conftest import REPO_ROOT, optional_import

optional_import("promptflow.core")
from promptflow.core import Prompty  # noqa: E402
from promptflow.executor import FlowExecutor  # noqa: E402

from agent_evaluators.testing import ChatRequest, JudgeServer, schema_reply  # noqa: E402

FLOWS = REPO_ROOT / "samples" / "flows"
PROMPTY = sorted((REPO_ROOT / "prompty").glob("*.prompty"))
ROWS = [json.loads(line) for line in (REPO_ROOT / "samples" / "data" / "agents.jsonl").read_text().splitlines()]


def _judge(req: ChatRequest):
    # 5 only when the agent's answer reached the judge
    return schema_reply(req, score=5 if "QX7P2M" in req.text else 1)


@pytest.fixture(scope="module")
def server():
    with JudgeServer(_judge) as s:
        yield s


def executor(flow: str, model_config):
    d = FLOWS / flow
    return FlowExecutor.create(d / "flow.flex.yaml", connections={}, working_dir=d,
                               init_kwargs={"model_config": model_config})


def test_intent_resolution_class_is_a_flex_flow_entry(server):
    ex = executor("intent_resolution", server.openai_config())
    good = ex.exec_line({"query": ROWS[0]["query"], "response": ROWS[0]["response"]})
    assert good.run_info.status.value == "Completed", good.run_info.error
    assert good.output["intent_resolution"] == 5.0 and good.output["intent_resolution_result"] == "pass"
    bad = ex.exec_line({"query": ROWS[3]["query"], "response": ROWS[3]["response"]})
    assert bad.output["intent_resolution"] == 1.0 and bad.output["intent_resolution_result"] == "fail"


def test_composite_flow_scores_and_aggregates(server):
    ex = executor("agent_quality", server.openai_config())
    outputs = []
    for row in ROWS[:4]:  # the travel agent: three good runs, one bad
        r = ex.exec_line({"query": row["query"], "response": row["response"],
                          "expected_tool_calls": row["expected_tool_calls"]})
        assert r.run_info.status.value == "Completed", r.run_info.error
        outputs.append(r.output)
    assert [o["tool_trajectory_avg_score"] for o in outputs] == [1.0, 1.0, 1.0, 0.0]
    # the judge gives 5 only to the run that mentions booking QX7P2M; the others fail intent resolution
    assert [o["passed"] for o in outputs] == ["QX7P2M" in json.dumps(r["response"]) for r in ROWS[:4]] == [
        True, False, False, False]
    metrics = ex.exec_aggregation(inputs={}, aggregation_inputs=outputs).metrics
    assert metrics["tool_trajectory_avg_score"] == 0.75
    assert metrics["pass_rate"] == sum(o["passed"] for o in outputs) / 4


@pytest.mark.parametrize("path", PROMPTY, ids=[p.stem for p in PROMPTY])
def test_shipped_prompty_loads_in_promptflow(path, server):
    p = Prompty.load(source=str(path), model={"configuration": {
        "type": "openai", "model": "judge-model", "base_url": server.url + "/v1", "api_key": "test-key"}})
    inputs = {name: "probe text" for name in (p._inputs or {})}
    rendered = p.render(**inputs)
    assert "probe text" in rendered
    reply = p(**inputs)  # a real request to the local judge server through promptflow's own client
    reply = json.loads(reply) if isinstance(reply, str) else reply
    assert reply["score"] == 1 and reply["reason"]
