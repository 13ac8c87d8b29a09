"""Our evaluators run unchanged inside azure-ai-evaluation's own evaluate() (the `azure` extra).

azure-ai-evaluation returns normally with NaN cells when an evaluator fails, so
this test asserts the real scores in its rows and metrics, not just that it ran.
"""

import json
import math

from agent_evaluators import IntentResolutionEvaluator

from ..conftest import optional_import
from .conftest import block

azure_evaluation = optional_import("azure.ai.evaluation")


def judge(req):
    response = block(req, "agent_response")
    text = " ".join(m.get("content") or "" for m in response)
    return {"user_intent": "x", "reason": "r", "score": 5 if "refund" in text else 2}


def test_our_evaluator_inside_azure_evaluate(judge_server, tmp_path, monkeypatch):
    monkeypatch.setenv("PF_DISABLE_TRACING", "true")
    server = judge_server(judge)
    data = tmp_path / "data.jsonl"
    rows = [
        {"query": "I want my money back", "response": "I have issued a refund of $20."},
        {"query": "I want my money back", "response": "Have a nice day."},
        {"query": "Cancel my order", "response": "Your refund is on its way."},
    ]
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    result = azure_evaluation.evaluate(
        data=str(data),
        evaluators={"intent": IntentResolutionEvaluator(server.openai_config())},
    )
    scores = [r["outputs.intent.intent_resolution"] for r in result["rows"]]
    assert scores == [5.0, 2.0, 5.0]
    assert [r["outputs.intent.intent_resolution_result"] for r in result["rows"]] == ["pass", "fail", "pass"]
    assert math.isclose(result["metrics"]["intent.intent_resolution"], 4.0)
    assert server.stats()["requests"] == 3
