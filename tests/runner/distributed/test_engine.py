"""evaluate(engine="ray") gives the local engine's rows, metrics and files (local Ray, 2 CPUs).

Both engines run over the same data against the same local judge server (real HTTP,
official client), whose replies are derived from the query; rows are compared field by
field (only the measured judge latency may differ), metrics exactly.
"""

import json

import pytest

from agent_evaluators import IntentResolutionEvaluator, evaluate
from agent_evaluators.ray_engine import evaluate_ray
from agent_evaluators.testing import JudgeServer

from ..helpers import ExactMatch
from .helpers import comparable, expected_score, make_rows, record_lines, rule_judge, write_data

pytestmark = [pytest.mark.heavy, pytest.mark.ray]

N = 150


@pytest.fixture
def dataset(tmp_path):
    rows = make_rows(N)
    lines = [json.dumps(r) for r in rows]
    lines.insert(40, "{not json")  # a malformed line: an error row naming its file line
    lines.insert(90, "")  # blank lines are not rows
    lines.insert(91, "   ")
    return write_data(tmp_path / "runs.jsonl", lines)


def test_ray_rows_metrics_and_files_equal_local(ray_cluster, dataset, tmp_path):
    with JudgeServer(rule_judge, delay_s=0.01) as server:
        evs = {"intent": IntentResolutionEvaluator(model_config=server.openai_config()), "exact": ExactMatch()}
        local = evaluate(data=str(dataset), evaluators=evs, output_path=tmp_path / "local", max_concurrency=6)
        local_requests = server.stats()["requests"]
        server.reset()
        dist = evaluate_ray(data=str(dataset), evaluators=evs, output_path=tmp_path / "ray", max_concurrency=6,
                            num_workers=3, shard_size=17)
        stats = server.stats()

    assert stats["requests"] == local_requests == N
    assert stats["max_in_flight"] <= 6
    assert dist.metrics == local.metrics
    assert dist.metrics["intent.n"] == N and dist.metrics["intent.error_count"] == 1
    assert dist.metrics["intent.intent_resolution"] == pytest.approx(sum(expected_score(i) for i in range(N)) / N)
    # every row exactly once in rows.jsonl, result.rows in input order, equal to the local rows
    lines = record_lines(tmp_path / "ray" / "rows.jsonl")
    assert sorted(lines) == list(range(N + 1))
    assert [r["line_number"] for r in dist.rows] == list(range(N + 1))
    assert comparable(dist.rows) == comparable(local.rows)
    bad = dist.rows[40]
    assert bad["row_error"].startswith("line 41 of runs.jsonl: invalid JSON")
    # the same summary.json contents (config, fingerprint, errors, usage); the engine is recorded
    s_local = json.loads((tmp_path / "local" / "summary.json").read_text())
    s_ray = json.loads((tmp_path / "ray" / "summary.json").read_text())
    for key in ("status", "config", "fingerprint", "metrics", "error_count", "rows"):
        assert s_ray[key] == s_local[key], key
    assert sorted(map(json.dumps, s_ray["errors"])) == sorted(map(json.dumps, s_local["errors"]))
    assert {k: v for k, v in s_ray["usage"]["intent"].items() if k != "latency_s"} == {
        k: v for k, v in s_local["usage"]["intent"].items() if k != "latency_s"
    }
    engine = s_ray["engine"]
    assert engine["name"] == "ray" and engine["shards"] == 9 and engine["input"].startswith("byte ranges")
    assert engine["num_cpus_per_worker"] == pytest.approx(2 / 3, abs=0.01)  # fractional CPUs on 2 cores


def test_iterable_input_in_memory_and_driver_streamed_chunks(ray_cluster):
    rows = make_rows(60) + ["not a dict"]
    with JudgeServer(rule_judge, delay_s=0.005) as server:
        evs = {"intent": IntentResolutionEvaluator(model_config=server.openai_config()), "exact": ExactMatch()}
        local = evaluate(data=rows, evaluators=evs, max_concurrency=4, num_runs=2)
        dist = evaluate(data=rows, evaluators=evs, max_concurrency=4, num_runs=2, engine="ray", num_workers=2)
    assert dist.metrics == local.metrics
    assert "intent.pass_rate_run_2" in dist.metrics  # num_runs > 1 totals merge across shards
    assert comparable(dist.rows) == comparable(local.rows)
    assert dist.summary["engine"]["input"].startswith("row chunks")


def test_budget_is_cluster_wide(ray_cluster):
    """4 workers, budget 5: the judge never sees more than 5 requests at once, and sees 5."""
    with JudgeServer(rule_judge, delay_s=0.08) as server:
        ev = IntentResolutionEvaluator(model_config=server.openai_config())
        result = evaluate_ray(data=make_rows(120), evaluators={"intent": ev}, max_concurrency=5,
                              num_workers=4, shard_size=15)
        stats = server.stats()
    assert stats["requests"] == 120
    assert stats["max_in_flight"] == 5
    budget = result.summary["engine"]["budget"]
    assert budget["max_leased"] == 5 and budget["leased"] == 0 and budget["workers"] == 0
    assert result.summary["engine"]["shards"] == 8


def test_run_prices_reach_the_workers(ray_cluster, tmp_path):
    """``prices=`` prices judge calls made in Ray worker processes as it does in a local run."""
    from agent_evaluators.testing import Reply

    usage = {"prompt_tokens": 1000, "completion_tokens": 200}
    per_call = (1000 * 3.0 + 200 * 12.0) / 1e6
    with JudgeServer(lambda req: Reply(content=rule_judge(req), usage=usage)) as server:
        evs = {"intent": IntentResolutionEvaluator(model_config=server.openai_config("my-deployment"))}
        dist = evaluate(data=make_rows(6), evaluators=evs, engine="ray", num_workers=2, output_path=tmp_path / "o",
                        prices={"my-deployment": {"input": 3.0, "output": 12.0}}, show_progress=False)
    costs = [r["outputs.intent.intent_resolution_usage"]["cost_usd"] for r in dist.rows]
    assert costs == [pytest.approx(per_call)] * 6  # not None: the workers knew the run's price
    assert dist.summary["cost_usd"] == pytest.approx(6 * per_call)


def test_evaluate_ray_called_directly_sends_its_results_too(ray_cluster, tmp_path, monkeypatch):
    """``evaluate_ray(..., otel=True)`` sends every cell, as ``evaluate(engine="ray")`` and a local run do
    (the send is the entry points' shared last step, ``runner/publishing.py``)."""
    from tests.export.otlp_receiver import OtlpReceiver

    with OtlpReceiver() as receiver:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint)
        monkeypatch.delenv("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", raising=False)
        result = evaluate_ray(data=make_rows(6), evaluators={"exact": ExactMatch()}, num_workers=2,
                              output_path=tmp_path / "o", otel=True, show_progress=False)
    sent = sorted((r["attributes"]["agent_eval.row.line_number"], r["attributes"]["agent_eval.evaluator.alias"])
                  for r in receiver.records)
    assert sent == [(line, "exact") for line in range(6)]
    assert len(result.rows) == 6
