"""Row and metric shapes for mixed evaluators; a real azure-ai-evaluation evaluator through our runner."""

import asyncio
import json

import pytest

from agent_evaluators import blocking, evaluate, evaluate_async
from agent_evaluators.runner import EvaluationResult

from ..conftest import optional_import
from .helpers import AsyncLength, ExactMatch, write_jsonl

ROWS = [
    {"query": "hi", "response": "abc", "ground_truth": "abc"},
    {"query": "yo", "response": "abcd", "ground_truth": "x"},
    {"query": "hey", "response": "n/a", "ground_truth": "x"},
]


def f1ish(response, ground_truth):
    """plain function returning a dict"""
    return {"overlap": float(len(set(response) & set(ground_truth))), "overlap_result": "pass"}


def char_count(response):
    """plain function returning a scalar"""
    return len(response)


async def async_upper(response):
    await asyncio.sleep(0)
    return {"upper": float(response.isupper()), "flag": True}


def test_mixed_evaluators_rows_and_metrics(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", ROWS)
    result = evaluate(
        data=data,
        evaluators={"exact": ExactMatch(), "f1": f1ish, "count": char_count, "up": async_upper, "alen": AsyncLength()},
    )
    assert isinstance(result, EvaluationResult)
    assert set(result) == {"rows", "metrics", "studio_url"} and result["studio_url"] is None
    rows = list(result["rows"])
    assert [r["line_number"] for r in rows] == [0, 1, 2]
    r0 = rows[0]
    assert r0["inputs.query"] == "hi" and r0["inputs.ground_truth"] == "abc"
    assert r0["outputs.exact.exact"] == 1.0 and r0["outputs.exact.exact_result"] == "pass"
    assert r0["outputs.exact.exact_threshold"] == 1.0
    assert r0["outputs.f1.overlap"] == 3.0
    assert r0["outputs.count.output"] == 3
    assert r0["outputs.up.upper"] == 0.0
    assert r0["outputs.alen.alen"] == 3.0
    assert r0["cell_status"] == {"exact": "ok", "f1": "ok", "count": "ok", "up": "ok", "alen": "ok"}

    m = result.metrics
    # not_applicable (row 2) is neither scored nor failed
    assert m["exact.exact"] == pytest.approx(0.5)
    assert m["exact.pass_rate"] == pytest.approx(0.5)
    assert m["exact.n"] == 2 and m["exact.not_applicable_count"] == 1 and m["exact.error_count"] == 0
    assert "exact.exact_threshold" not in m
    assert m["count.output"] == pytest.approx((3 + 4 + 3) / 3)
    assert "count.pass_rate" not in m  # no *_result key: no pass rate invented
    assert m["alen.alen"] == pytest.approx(10 / 3)
    assert m["alen.pass_rate"] == pytest.approx(1.0)
    assert "up.flag" not in m  # bools are not averaged
    assert result.errors == []


def test_errors_are_never_scores(tmp_path):
    def sometimes(response):
        if response == "boom":
            raise RuntimeError("kaput")
        return {"s": 1.0, "s_result": "pass"}

    rows = [{"response": "a", "ground_truth": "a"}, {"response": "boom", "ground_truth": "b"}]
    result = evaluate(data=rows, evaluators={"s": sometimes, "exact": ExactMatch()})
    m = result.metrics
    assert m["s.s"] == 1.0 and m["s.pass_rate"] == 1.0 and m["s.n"] == 1 and m["s.error_count"] == 1
    assert m["exact.n"] == 2 and m["exact.pass_rate"] == 0.5
    bad = result.rows[1]
    assert "RuntimeError: kaput" in bad["outputs.s.error"] and "'s'" in bad["outputs.s.error"]
    assert bad["cell_status"]["s"] == "error"
    assert result.errors == [{"line_number": 1, "alias": "s", "message": bad["outputs.s.error"]}]


def test_our_evaluator_error_cell_uses_result_key(tmp_path):
    rows = [{"response": "a", "ground_truth": "a"}, {"response": None, "ground_truth": "a"}]
    result = evaluate(data=rows, evaluators={"ex": ExactMatch()})
    bad = result.rows[1]
    assert bad["outputs.ex.exact_result"] == "error"
    assert bad["outputs.ex.exact"] is None
    assert "response" in bad["outputs.ex.exact_error"]
    assert result.metrics["ex.exact"] == 1.0 and result.metrics["ex.error_count"] == 1


def test_azure_ai_evaluation_evaluator_runs(tmp_path):
    F1ScoreEvaluator = optional_import("azure.ai.evaluation").F1ScoreEvaluator

    rows = [
        {"response": "the cat sat", "ground_truth": "the cat sat", "query": "unused"},
        {"response": "a dog", "ground_truth": "the cat sat"},
    ]
    result = evaluate(data=rows, evaluators={"f1": F1ScoreEvaluator()})
    r = result.rows
    expected = [F1ScoreEvaluator()(response=x["response"], ground_truth=x["ground_truth"])["f1_score"] for x in rows]
    assert [row["outputs.f1.f1_score"] for row in r] == expected
    assert result.metrics["f1.f1_score"] == pytest.approx(sum(expected) / 2)
    assert result.metrics["f1.n"] == 2
    assert result.summary["config"]["evaluators"]["f1"]["kind"] == "azure"
    assert result.summary["config"]["evaluators"]["f1"]["mode"] == "thread"


def test_azure_evaluator_missing_input_fails_fast():
    from agent_evaluators.errors import InputError
    F1ScoreEvaluator = optional_import("azure.ai.evaluation").F1ScoreEvaluator

    with pytest.raises(InputError) as e:
        evaluate(data=[{"response": "x"}], evaluators={"f1": F1ScoreEvaluator()})
    assert "'f1'" in str(e.value) and "ground_truth" in str(e.value)


def test_blocking_runs_in_worker_thread_and_inline_runs_on_loop():
    import threading

    seen = {}

    def inline(response):
        seen["inline"] = threading.current_thread().name
        return 1

    def slow(response):
        seen["blocking"] = threading.current_thread().name
        return 2

    class Declared:
        blocking = True

        def __call__(self, response):
            seen["declared"] = threading.current_thread().name
            return 3

    result = evaluate(data=[{"response": "x"}], evaluators={"i": inline, "b": blocking(slow), "d": Declared()})
    assert result.rows[0]["outputs.b.output"] == 2 and result.rows[0]["outputs.d.output"] == 3
    assert seen["inline"] == "agent-evaluators-loop"
    assert seen["blocking"] != "agent-evaluators-loop" and seen["declared"] != "agent-evaluators-loop"


def test_evaluate_works_inside_running_loop_and_async_entry():
    async def main():
        inner = evaluate(data=[{"response": "ab"}], evaluators={"c": char_count})
        outer = await evaluate_async(data=[{"response": "abc"}], evaluators={"c": char_count})
        return inner, outer

    inner, outer = asyncio.run(main())
    assert inner.rows[0]["outputs.c.output"] == 2
    assert outer.rows[0]["outputs.c.output"] == 3


def test_num_runs_mean_std_and_per_run_pass_rates():
    calls = {"n": 0}

    def flaky(response):
        calls["n"] += 1
        v = float(calls["n"] % 2)  # alternates 1, 0, 1, 0 ...
        return {"v": v, "v_result": "pass" if v else "fail"}

    class Counter(ExactMatch):
        pass

    result = evaluate(data=[{"response": "a", "ground_truth": "a"}] * 2, evaluators={"f": flaky, "ex": Counter()}, num_runs=3)
    row = result.rows[0]
    assert row["outputs.f.v"] == pytest.approx(2 / 3)
    assert [r["v"] for r in row["outputs.f.runs"]] == [1.0, 0.0, 1.0]
    assert row["outputs.ex.exact"] == 1.0
    assert row["outputs.ex.exact_details"]["scores"] == [1.0, 1.0, 1.0]
    m = result.metrics
    # run means: run1 rows (1,0) -> .5, run2 (0,1) -> .5, run3 (1,0) -> .5
    assert m["f.v_std"] == pytest.approx(0.0)
    assert m["f.pass_rate_run_1"] == pytest.approx(0.5)
    assert m["ex.exact_std"] == pytest.approx(0.0)
    assert m["ex.pass_rate_run_3"] == 1.0


def test_output_files_and_lazy_rows(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", ROWS)
    out = tmp_path / "run"
    result = evaluate(data=data, evaluators={"exact": ExactMatch()}, output_path=out)
    lines = [json.loads(l) for l in (out / "rows.jsonl").read_text().splitlines()]
    assert sorted(l["line_number"] for l in lines) == [0, 1, 2]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "complete"
    assert summary["metrics"] == result.metrics
    assert summary["config"]["evaluators"]["exact"]["class"] == "ExactMatch"
    assert summary["config"]["evaluators"]["exact"]["config"]["threshold"] == 1.0
    assert summary["config"]["max_concurrency"] == 10
    assert summary["versions"]["python"] and "openai" in summary["versions"]
    assert summary["fingerprint"]["data"].startswith("sha256:")
    assert type(result.rows).__name__ == "RowsView" and len(result.rows) == 3
    assert result.rows[2]["inputs.response"] == "n/a"
    assert [r["line_number"] for r in result.rows] == [0, 1, 2]
    assert result.output_path == out


def test_secrets_never_written(tmp_path):
    class WithKey(ExactMatch):
        def __init__(self):
            super().__init__()
            self.model_config = {"model": "m", "api_key": "sk-SECRET", "base_url": "http://x"}

    out = tmp_path / "run"
    evaluate(data=[{"response": "a", "ground_truth": "a"}], evaluators={"e": WithKey()}, output_path=out)
    text = (out / "summary.json").read_text()
    assert "sk-SECRET" not in text and '"base_url": "http://x"' in text
