"""evaluate() with real judge evaluators against the local judge server (real HTTP, official client).

The server injects 429s (with retry-after-ms), replies slower than the per-request
timeout and malformed JSON. The run must finish, score most cells, turn the rest
into error cells with a reason, never count an error as a score, and report judge
attempts that match what the server actually received.
"""

import re

import pytest

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators.judge import get_judge_client
from agent_evaluators.testing import Faults, JudgeServer

N = 300


def expected_score(i: int) -> int:
    return i % 5 + 1


def rule_judge(req):
    """Score read from the query the judge was shown, so wrong content -> wrong score."""
    m = re.search(r"\[score=(\d)\]", req.text)
    assert m, "query did not reach the judge"
    return {"user_intent": "help with a task", "reason": f"rule {m.group(1)}", "score": int(m.group(1))}


def rows(n: int):
    return [{"query": f"Please help with task {i} [score={expected_score(i)}]", "response": f"Done task {i}."} for i in range(n)]


def test_faulty_judge_run_completes_and_accounts_every_request(tmp_path):
    faults = Faults(rate_429=0.20, retry_after_ms=20, rate_slow=0.05, slow_s=2.0, rate_malformed=0.05, seed=7)
    with JudgeServer(rule_judge, faults=faults, delay_s=0.005) as server:
        client = get_judge_client(server.openai_config(), timeout=0.5)
        result = evaluate(
            data=rows(N),
            evaluators={"intent": IntentResolutionEvaluator(model_config=client)},
            output_path=tmp_path / "run",
            max_concurrency=10,
        )
        stats = server.stats()

    assert stats["faults"].get("429", 0) > 30 and stats["faults"].get("slow", 0) > 5 and stats["faults"].get("malformed", 0) > 5
    m = result.metrics
    assert m["intent.n"] + m["intent.error_count"] + m["intent.not_applicable_count"] == N
    assert m["intent.n"] >= 0.85 * N

    scored = []
    for row in result.rows:
        i = row["line_number"]
        status = row["cell_status"]["intent"]
        if status == "ok":
            assert row["outputs.intent.intent_resolution"] == expected_score(i)
            scored.append(expected_score(i))
        else:
            assert row["outputs.intent.intent_resolution_result"] == "error"
            assert row["outputs.intent.intent_resolution"] is None
            assert row["outputs.intent.intent_resolution_error"].startswith(f"row {i}: evaluator 'intent'")
    # errors never enter the mean nor the pass rate
    assert m["intent.intent_resolution"] == pytest.approx(sum(scored) / len(scored))
    assert m["intent.pass_rate"] == pytest.approx(sum(s >= 3 for s in scored) / len(scored))
    assert len(result.errors) == m["intent.error_count"]

    # every HTTP request the server saw is accounted for in the run's usage
    usage = result.usage["intent"]
    assert usage["attempts"] == stats["requests"]
    assert usage["attempts"] > N  # retries happened and were counted
    assert result.summary["usage"]["intent"]["attempts"] == stats["requests"]


def test_one_judge_budget_shared_by_all_evaluators():
    with JudgeServer(rule_judge, delay_s=0.03) as server:
        cfg = server.openai_config()
        result = evaluate(
            data=rows(60),
            evaluators={"a": IntentResolutionEvaluator(model_config=cfg), "b": IntentResolutionEvaluator(model_config=cfg)},
            max_concurrency=4,
        )
        stats = server.stats()
    assert stats["requests"] == 120
    assert stats["max_in_flight"] == 4  # never more than the shared budget, and the budget is used
    assert result.metrics["a.n"] == 60 and result.metrics["b.n"] == 60
