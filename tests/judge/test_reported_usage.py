"""Reported usage is validated before it is priced (issue 36, item 14).

The judge's ``usage`` was trusted: negative token counts priced a run at -$27 and let 400 of 400
calls through a ``max_cost`` cap, and a non-numeric count turned every cell into a raw
``ValueError`` though its verdict was valid. A count that is not a non-negative integer now makes
the call counted and priced from the request itself, and the cell's usage says so.
"""

from typing import Any, Dict

import pytest

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators.testing import JudgeServer, Reply, schema_reply

from ..runner.budget_helpers import KEY, PRICE
from ..runner.distributed.helpers import make_rows, rule_judge

ROWS = 8


def _judge(usage: Any):
    return lambda req: Reply(content=rule_judge(req), usage=usage)


def _intent(server: JudgeServer) -> IntentResolutionEvaluator:
    return IntentResolutionEvaluator(model_config={**server.openai_config("judge-m"), "price": PRICE})


@pytest.mark.parametrize("usage", [
    {"prompt_tokens": -5_000_000, "completion_tokens": -1_000_000, "total_tokens": -6_000_000},
    {"prompt_tokens": "lots", "completion_tokens": 200},
    {"prompt_tokens": 1000, "completion_tokens": 2.5},
    "not an object",
], ids=["negative", "text", "fraction", "not-an-object"])
def test_untrusted_usage_is_priced_from_the_request_and_noted(tmp_path, usage):
    with JudgeServer(_judge(usage)) as server:
        result = evaluate(data=make_rows(ROWS), evaluators={"intent": _intent(server)}, output_path=tmp_path / "out",
                          show_progress=False, max_cost=1.0)
        assert server.stats()["requests"] == ROWS
    assert result.metrics["intent.error_count"] == 0 and result.metrics["intent.n"] == ROWS
    for row in result.rows:
        cell_usage: Dict[str, Any] = row[f"{KEY}_usage"]
        assert row[f"{KEY}_result"] in ("pass", "fail")
        assert cell_usage["prompt_tokens"] > 50 and cell_usage["completion_tokens"] > 0
        assert cell_usage["cost_usd"] > 0
        assert "not non-negative integers; this call is counted and priced from the request itself" in (
            cell_usage["usage_problem"])
    budget = result.summary["budget"]
    assert 0 < budget["cost_usd"] < 1.0 and result.summary["cost_usd"] > 0


def test_negative_counts_do_not_let_calls_through_a_money_cap(tmp_path):
    bad = {"prompt_tokens": -5_000_000, "completion_tokens": -1_000_000}
    with JudgeServer(_judge(bad)) as server:
        result = evaluate(data=make_rows(40), evaluators={"intent": _intent(server)}, output_path=tmp_path / "out",
                          show_progress=False, max_cost=0.02, max_concurrency=2)
        sent = server.stats()["requests"]
    budget = result.summary["budget"]
    assert result.summary["status"] == "stopped" and 0 < budget["cost_usd"] <= 0.02
    assert sent < 40 and result.metrics["intent.not_run_count"] == 40 - sent


def test_a_direct_call_with_text_counts_returns_its_verdict(tmp_path):
    reply = {"prompt_tokens": "12", "completion_tokens": None}
    with JudgeServer(lambda req: Reply(content=schema_reply(req, score=4), usage=reply)) as server:
        out = _intent(server)(query="Cancel my 3pm meeting", response="Done, the 3pm meeting is cancelled.")
    usage = out["intent_resolution_usage"]
    assert out["intent_resolution_result"] in ("pass", "fail") and usage["prompt_tokens"] > 0
    assert "prompt_tokens='12'" in usage["usage_problem"]
