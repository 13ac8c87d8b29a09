"""``evaluate(..., dry_run=True)``: every prompt rendered, no judge called, the estimate in the result and
``summary.json``; a real run afterwards compares its usage with it (issue 25, item 1).

The fake judge (``JudgeServer``, real HTTP) counts the requests a real run sends and, with
``count_tokens``, reports usage counted with the same tokenizer the dry run uses: so the
dry run's predicted judge calls must equal the requests the server then receives, and its
token counts must be within 10% of what the real run records.
"""

import json
from pathlib import Path
from typing import Any, Dict

import pytest

from agent_evaluators import (
    FinalResponseMatchEvaluator,
    HallucinationEvaluator,
    IntentResolutionEvaluator,
    ToolTrajectoryEvaluator,
    ToolUseQualityEvaluator,
    evaluate,
)
from agent_evaluators.agents.dialogue import simulated_conversation_target
from agent_evaluators.config.run_config import load_config
from agent_evaluators.judge.token_count import counter_for
from agent_evaluators.testing import JudgeServer, schema_reply
from tests.cli.helpers import SAMPLES

MODEL = "gpt-4o-mini"


def _samples(model_config: Dict[str, Any]):
    """The bundled sample run (samples/eval.yaml): its evaluators built on ``model_config``."""
    cfg = load_config(SAMPLES / "eval.yaml")
    evaluators = {s.alias: s.build(model_config if s.uses_judge else None) for s in cfg.evaluators}
    return dict(data=str(cfg.data), evaluators=evaluators, evaluator_config=cfg.evaluator_config(), show_progress=False)


def _summary(folder: Path) -> Dict[str, Any]:
    return json.loads((folder / "summary.json").read_text())


def test_dry_run_on_the_samples_predicts_the_calls_and_tokens_of_the_real_run(tmp_path):
    out = tmp_path / "run"
    with JudgeServer(count_tokens=counter_for(MODEL)) as server:
        run = _samples(server.openai_config(MODEL))
        dry = evaluate(**run, output_path=out, dry_run=True)
        assert server.stats()["requests"] == 0  # no judge was called
        assert sorted(p.name for p in out.iterdir()) == ["summary.json"]  # no rows
        assert dry.rows == [] and dry.metrics == {}
        est = dry.estimate
        assert est == _summary(out)["estimate"] and _summary(out)["status"] == "dry_run"
        real = evaluate(**run, output_path=out)
        sent = server.stats()["requests"]
    assert est["total"]["judge_calls"] == sent == 48  # four judge metrics on twelve rows
    for alias in ("intent", "task_adherence", "tool_calls", "completeness"):
        used = real.usage[alias]
        assert est[alias]["judge_calls"] == used["attempts"] == 12
        assert est[alias]["prompt_tokens"] == pytest.approx(used["prompt_tokens"], rel=0.10)
        assert est[alias]["completion_tokens"] == pytest.approx(used["completion_tokens"], rel=0.10)
        assert est[alias]["model"] == MODEL and est[alias]["token_method"] == counter_for(MODEL).method
        assert est[alias]["cost_usd"] > 0
    for alias in ("trajectory", "response_match"):  # deterministic: no call, nothing to pay
        assert est[alias] == {"judge_calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0}
    assert set(est["total"]) >= {"judge_calls", "prompt_tokens", "completion_tokens", "cost_usd"}
    assert est["total"]["prompt_tokens"] == sum(est[a]["prompt_tokens"] for a in est if a != "total")
    compared = _summary(out)["estimate_vs_actual"]
    assert set(compared) == {"intent", "task_adherence", "tool_calls", "completeness"}
    assert compared["intent"]["judge_calls"] == {"estimated": 12, "actual": 12, "ratio": 1.0}
    assert 0.9 <= compared["intent"]["prompt_tokens"]["ratio"] <= 1.1


def test_fan_out_is_the_real_one_samples_runs_panels_and_segment_then_validate(tmp_path):
    rows = [
        {"query": "Where is my order?", "response": "It shipped on Monday. It arrives on Friday. The carrier is DHL.",
         "ground_truth": "It arrives on Friday.", "context": "Order 7 shipped Monday with DHL, due Friday."},
        {"query": "Cancel my 3pm meeting", "response": "I cancelled it.", "ground_truth": "Cancelled.",
         "context": "Calendar: 3pm sync."},
    ]
    with JudgeServer() as a, JudgeServer() as b:
        evaluators = {
            "match": FinalResponseMatchEvaluator(model_config=a.openai_config(MODEL), num_samples=3),
            "hallucinations": HallucinationEvaluator(model_config=a.openai_config(MODEL)),
            "panel": IntentResolutionEvaluator(model_config=[{**a.openai_config(MODEL), "name": "a"},
                                                             {**b.openai_config(MODEL), "name": "b"}]),
        }
        common = dict(data=rows, evaluators=evaluators, num_runs=2, show_progress=False)
        dry = evaluate(**common, dry_run=True)
        assert a.stats()["requests"] == b.stats()["requests"] == 0
        real = evaluate(**common)
        sent = a.stats()["requests"] + b.stats()["requests"]
    est = dry.estimate
    assert est["match"]["judge_calls"] == 2 * 2 * 3  # rows x runs x samples
    # a segmenter call, then one validator call over the sentences it found: rows x runs x 2
    assert est["hallucinations"]["judge_calls"] == 2 * 2 * 2
    assert est["panel"]["judge_calls"] == 2 * 2 * 2  # rows x runs x judges
    assert est["total"]["judge_calls"] == sent
    for alias in evaluators:
        assert est[alias]["judge_calls"] == real.usage[alias]["attempts"]
        # the fake judge's default usage is characters / 4: the dry run counts with a tokenizer, so only roughly
        assert est[alias]["completion_tokens"] == pytest.approx(real.usage[alias]["completion_tokens"], rel=0.5)


def test_unknown_price_is_null_and_deterministic_only_runs_cost_nothing(tmp_path):
    rows = [{"query": "hi", "response": "hello", "ground_truth": "hello"}]
    with JudgeServer() as server:
        dry = evaluate(data=rows, evaluators={"intent": IntentResolutionEvaluator(model_config=server.openai_config(
            "my-own-deployment"))}, dry_run=True, show_progress=False)
        priced = evaluate(data=rows, evaluators={"intent": IntentResolutionEvaluator(model_config=server.openai_config(
            "my-own-deployment"))}, dry_run=True, show_progress=False,
            prices={"my-own-deployment": {"input": 1.0, "output": 2.0}})
    assert dry.estimate["intent"]["cost_usd"] is None and dry.estimate["total"]["cost_usd"] is None
    entry = priced.estimate["intent"]
    assert entry["cost_usd"] == pytest.approx((entry["prompt_tokens"] * 1.0 + entry["completion_tokens"] * 2.0) / 1e6)
    only = evaluate(data=[{"response": [], "ground_truth": []}], evaluators={"t": ToolTrajectoryEvaluator()},
                    dry_run=True, show_progress=False)
    assert only.estimate["total"]["cost_usd"] == 0.0 and only.estimate["total"]["judge_calls"] == 0


def test_a_dry_run_beside_an_earlier_run_leaves_it_and_writes_estimate_json(tmp_path):
    out = tmp_path / "run"
    with JudgeServer() as server:
        run = _samples(server.openai_config(MODEL))
        evaluate(**run, output_path=out)
        before = {p.name: p.read_bytes() for p in out.iterdir()}
        dry = evaluate(**run, output_path=out, dry_run=True)
        assert {p.name: p.read_bytes() for p in out.iterdir() if p.name != "estimate.json"} == before
        assert json.loads((out / "estimate.json").read_text())["estimate"] == dry.estimate
        evaluate(**run, output_path=out)  # the next run compares with it
    assert _summary(out)["estimate_vs_actual"]["tool_calls"]["judge_calls"]["ratio"] == 1.0


def _never_stops(req):
    """The fake judge, but a simulated user that talks until its turn limit."""
    rf = req.response_format or {}
    if (rf.get("json_schema") or {}).get("name") == "SimulatedUserTurn":
        return {"message": "and one more thing"}
    return schema_reply(req)


def test_the_user_simulator_is_estimated_to_its_turn_limit():
    def agent(messages):
        return f"reply {len(messages)}"

    rows = [{"starting_prompt": "Weather in Paris?", "conversation_plan": "Ask for Paris, then tomorrow."},
            {"starting_prompt": "Book a table", "conversation_plan": "A table for 2 at 7pm."}]
    with JudgeServer(_never_stops, count_tokens=counter_for(MODEL)) as server:
        judge = server.openai_config(MODEL)
        common = dict(data=rows, target=simulated_conversation_target(agent, model_config=judge, max_invocations=4),
                      evaluators={"intent": IntentResolutionEvaluator(model_config=judge)},
                      evaluator_config={"intent": {"column_mapping": {"conversation": "${target.conversation}"}}},
                      show_progress=False)
        dry = evaluate(**common, dry_run=True)
        assert server.stats()["requests"] == 0
        real = evaluate(**common)
        sent = server.stats()["requests"]
    est = dry.estimate
    assert est["(target)"]["judge_calls"] == 2 * 3  # the starting prompt and three simulated turns per row
    assert est["intent"]["judge_calls"] == 2 * 4  # every user turn graded
    assert est["total"]["judge_calls"] == sent == 14
    assert est["total"]["prompt_tokens"] == pytest.approx(
        real.usage["intent"]["prompt_tokens"] + sum(r["outputs.simulation"]["usage"]["prompt_tokens"] for r in real.rows),
        rel=0.10)


def test_a_composite_counts_its_members_calls_once(tmp_path):
    # the composite's own usage sums its members'; the summary (and so the estimate) counts each request once
    with JudgeServer() as server:
        evaluators = {"tools": ToolUseQualityEvaluator(model_config=server.openai_config(MODEL))}
        run = _samples(server.openai_config(MODEL))
        common = dict(data=run["data"], evaluators=evaluators, show_progress=False)
        dry = evaluate(**common, dry_run=True)
        real = evaluate(**common, output_path=tmp_path / "out")
        sent = server.stats()["requests"]
    assert dry.estimate["tools"]["judge_calls"] == real.usage["tools"]["attempts"] == sent
    assert _summary(tmp_path / "out")["usage"]["tools"]["attempts"] == sent


def test_evaluate_async_dry_run_and_azure_classes_are_not_run(monkeypatch):
    import asyncio

    from agent_evaluators import evaluate_async
    from tests.conftest import optional_import

    monkeypatch.setenv("PF_DISABLE_TRACING", "true")
    azure = optional_import("azure.ai.evaluation")
    rows = [{"query": "Cancel my 3pm meeting", "response": "I cancelled it."}]
    with JudgeServer() as server:
        evaluators = {"ours": IntentResolutionEvaluator(model_config=server.openai_config(MODEL)),
                      "theirs": azure.IntentResolutionEvaluator({**server.openai_config(MODEL), "type": "openai"})}
        result = asyncio.run(evaluate_async(data=rows, evaluators=evaluators, dry_run=True, show_progress=False))
        assert server.stats()["requests"] == 0
    assert result.estimate["ours"]["judge_calls"] == 1
    assert result.estimate["theirs"]["judge_calls"] is None and "not estimated" in result.estimate["theirs"]["note"]
    assert result.estimate["total"]["judge_calls"] == 1  # what could be estimated; the note says what could not


def test_a_dry_run_puts_no_placeholder_verdict_in_the_judge_cache(tmp_path):
    rows = [{"query": "Cancel my 3pm meeting", "response": "I cancelled it."},
            {"query": "Book a flight", "response": "Booked."}]
    with JudgeServer() as server:
        ev = IntentResolutionEvaluator(model_config=server.openai_config(MODEL), cache=str(tmp_path / "cache.sqlite"))
        evaluate(data=rows, evaluators={"intent": ev}, dry_run=True, show_progress=False)
        real = evaluate(data=rows, evaluators={"intent": ev}, show_progress=False)
        assert server.stats()["requests"] == 2  # the real run asked the judge: nothing came from the cache
    assert all(r["outputs.intent.intent_resolution_usage"]["attempts"] == 1 for r in real.rows)
