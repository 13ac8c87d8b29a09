"""Intervals in ``summary.json`` and the report, ``compare_runs`` from Python, and the report's compare view."""

import json
import math

import pytest

from agent_evaluators import evaluate
from agent_evaluators.report import compare_runs, write_report
from agent_evaluators.stats.intervals import wilson
from tests.report.dom import parse


def _score(*, value: float) -> dict:
    return {"score": value, "score_result": "pass" if value >= 0.5 else "fail"}


def _run(path, values, **kw):
    data = [{"id": f"r{i}", "value": v} for i, v in enumerate(values)]
    return evaluate(data=data, evaluators={"s": _score}, output_path=path, **kw)


def test_summary_records_each_interval_with_its_method(tmp_path):
    values = [i / 20 for i in range(20)]
    result = _run(tmp_path / "run", values)
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["intervals"] == result.summary["intervals"]
    score, rate = summary["intervals"]["s.score"], summary["intervals"]["s.pass_rate"]
    assert set(score) == {"low", "high", "level", "method"} and score["level"] == 0.95
    assert score["method"] == "bootstrap-rows" and score["low"] < summary["metrics"]["s.score"] < score["high"]
    assert rate["method"] == "wilson" and (rate["low"], rate["high"]) == pytest.approx(wilson(10, 20)[:2])


def test_the_interval_does_not_depend_on_row_order_and_is_reproducible(tmp_path):
    values = [0.1, 0.9, 0.4, 0.4, 0.7, 0.2, 1.0, 0.0]
    a = _run(tmp_path / "a", values).summary["intervals"]
    b = _run(tmp_path / "b", list(reversed(values))).summary["intervals"]
    assert a == b


def test_repetitions_resample_rows_and_repetitions(tmp_path):
    result = _run(tmp_path / "run", [0.2, 0.6, 0.9], num_runs=2)
    assert result.summary["intervals"]["s.score"]["method"] == "bootstrap-rows-repetitions"
    assert result.metrics["s.pass_at_2"] == pytest.approx(2 / 3)


def test_a_large_run_gets_the_normal_interval_and_says_so(tmp_path):
    result = _run(None, [(i % 7) / 7 for i in range(800)])
    iv = result.summary["intervals"]["s.score"]
    assert iv["method"] == "normal" and iv["low"] < result.metrics["s.score"] < iv["high"]


def test_no_scored_row_means_no_interval(tmp_path):
    result = evaluate(data=[{"value": math.nan}], evaluators={"s": lambda *, value: {"score": value}})
    assert "s.score" not in result.summary["intervals"]


def test_compare_runs_in_python_pairs_by_row_id_and_counts_unpaired_rows(tmp_path):
    _run(tmp_path / "a", [0.9] * 30)
    _run(tmp_path / "b", [0.2] * 25)
    cmp = compare_runs(tmp_path / "a", tmp_path / "b")
    assert (cmp.n_pairs, cmp.unpaired_a, cmp.unpaired_b) == (25, 5, 0)
    score = cmp.metrics[0]
    assert score.metric == "s.score" and score.verdict == "regressed" and score.diff == pytest.approx(-0.7)
    assert cmp.regressed == [m for m in cmp.metrics if m.verdict == "regressed"]
    same = compare_runs(tmp_path / "a", tmp_path / "a")
    assert [m.verdict for m in same.metrics] == ["no_change", "no_change"]  # every pair equal: interval [0, 0]


def test_n0_compare_is_inconclusive_not_an_error(tmp_path):
    _run(tmp_path / "a", [0.9, 0.8])
    evaluate(data=[{"id": "x", "value": 0.1}], evaluators={"s": _score}, output_path=tmp_path / "b")
    cmp = compare_runs(tmp_path / "a", tmp_path / "b")
    assert cmp.n_pairs == 0 and {m.verdict for m in cmp.metrics} == {"inconclusive"}
    assert cmp.metrics[0].as_json()["p_value"] is None


def test_the_report_compare_view_shows_verdicts_interval_bars_and_flipped_rows(tmp_path):
    _run(tmp_path / "a", [0.9] * 30)
    _run(tmp_path / "b", [0.9] * 20 + [0.1] * 10)
    page = parse(write_report(tmp_path / "b", compare_to=tmp_path / "a").read_text(encoding="utf-8"))
    section = page.find("section", id="compare")
    verdicts = [tr for tr in section.find_all("tr") if "verdict-row" in tr.classes]
    assert [tr.find_all("td")[0].text for tr in verdicts] == ["s.pass_rate", "s.score"]  # largest change first
    badges = [tr.find("span").text for tr in verdicts]
    assert badges == ["regressed", "regressed"]
    assert all(tr.find("svg") is not None for tr in verdicts)  # the interval bar
    assert len([tr for tr in section.find_all("tr") if "flip" in tr.classes]) == 10


def test_the_report_shows_each_interval(tmp_path):
    _run(tmp_path / "run", [i / 10 for i in range(10)])
    page = write_report(tmp_path / "run").read_text(encoding="utf-8")
    assert "mean 95% interval" in page and "bootstrap-rows" in page and "pass rate 95% interval" in page
