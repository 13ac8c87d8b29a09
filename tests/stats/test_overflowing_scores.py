"""Aggregates of scores whose sum is past float's range (issue 36, item 7).

Two finite scores of 1.5e308 made the summary raise ``OverflowError``: the run stayed ``running``
and every resume crashed the same way. Aggregates now survive any finite input (the mean is a
float, a sum or spread past float's range is ``inf`` and a warning says so), and a part of the
summary that fails anyway is reported in ``summary.json`` instead of leaving the run unfinishable.
"""

import json
import math

import pytest

from agent_evaluators import evaluate
from agent_evaluators.runner.aggregate import AliasStats, ExactSum
from agent_evaluators.stats.intervals import bootstrap_mean, normal_mean, percentile
from agent_evaluators.stats.noise import split_variance

BIG = 1.5e308


def _score(*, value: float) -> dict:
    return {"score": value}


def _run(path, values, **kw):
    data = [{"id": f"r{i}", "value": v} for i, v in enumerate(values)]
    return evaluate(data=data, evaluators={"s": _score}, output_path=path, show_progress=False, **kw)


def test_two_scores_whose_sum_overflows_give_their_mean_and_a_complete_run(tmp_path, caplog):
    result = _run(tmp_path / "run", [BIG, BIG])
    assert result.metrics["s.score"] == BIG
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["status"] == "complete" and summary["metrics"]["s.score"] == BIG
    assert summary["intervals"]["s.score"]["low"] == summary["intervals"]["s.score"]["high"] == BIG
    assert "past the range of a float" in caplog.text
    again = _run(tmp_path / "run", [BIG, BIG], resume=True)  # a resume reuses both rows and finishes too
    assert again.metrics["s.score"] == BIG and again.summary["rows_reused"] == 2


def test_mixed_signs_near_the_range_and_repetitions_are_aggregated(tmp_path):
    values = [BIG, -BIG, BIG, BIG, -1.7e308, 1.7e308]
    result = _run(tmp_path / "run", values, num_runs=2)
    assert result.metrics["s.score"] == pytest.approx(math.fsum(v / len(values) for v in values))
    assert result.summary["status"] == "complete"
    interval = result.summary["intervals"]["s.score"]
    assert interval["low"] <= result.metrics["s.score"] <= interval["high"]


def test_the_statistics_take_any_finite_input():
    from agent_evaluators.stats.intervals import finite_mean

    assert finite_mean([BIG, BIG]) == BIG
    ci = bootstrap_mean([BIG, BIG, -BIG, BIG], resamples=200)
    assert ci is not None and -BIG <= ci.low <= ci.high <= BIG
    nested = bootstrap_mean([[BIG, BIG], [BIG, -BIG], [1.0]], resamples=200)
    assert nested is not None and math.isfinite(nested.low) and math.isfinite(nested.high)
    wide = normal_mean([BIG, -BIG, BIG])  # the spread itself is past float's range: an infinite interval, no error
    assert wide is not None and wide.low == -math.inf and wide.high == math.inf
    assert percentile([-1.7e308, 1.7e308], 0.5) == 0.0
    split = split_variance([[[BIG, -BIG]], [[BIG, BIG]]])
    assert split.judge == math.inf


def test_an_exact_sum_past_the_range_is_order_free_and_merges():
    values = [BIG, 1.0, -BIG, BIG, 3.0, 1e-300, BIG]
    forward, backward = ExactSum(), ExactSum()
    for v in values:
        forward.add(v)
    for v in reversed(values):
        backward.add(v)
    assert forward.mean() == backward.mean() == pytest.approx(sum(v / 7 for v in values))
    assert forward.total == math.inf and forward.overflows
    left, right = ExactSum(), ExactSum()
    for v in values[:3]:
        left.add(v)
    for v in values[3:]:
        right.add(v)
    left.merge(right)
    assert left.mean() == forward.mean() and left.count == 7
    small = ExactSum()
    for v in (0.1, 0.2, 0.3):
        small.add(v)
    assert small.total == math.fsum([0.1, 0.2, 0.3]) and not small.overflows


def test_a_summary_part_that_fails_is_reported_and_the_run_still_finishes(tmp_path, monkeypatch, caplog):
    def broken(self, alias):
        raise OverflowError("a hostile aggregate")

    monkeypatch.setattr(AliasStats, "intervals", broken)
    result = _run(tmp_path / "run", [0.2, 0.8])
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["status"] == "complete" and summary["metrics"]["s.score"] == pytest.approx(0.5)
    assert summary["intervals"] == {} and summary["summary_problems"] == [
        "s intervals: OverflowError: a hostile aggregate"]
    assert result.metrics["s.score"] == pytest.approx(0.5)
    assert "s intervals could not be computed" in caplog.text
    monkeypatch.undo()
    again = _run(tmp_path / "run", [0.2, 0.8], resume=True)
    assert again.summary["status"] == "complete" and "summary_problems" not in again.summary
