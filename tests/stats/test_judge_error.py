"""Clopper–Pearson intervals against scipy; Rogan–Gladen and its delta-method interval by hand.

``judge_error_table.json`` was made once by ``tests/stats/make_judge_error_table.py`` with scipy 1.16.3 in a
throw-away virtualenv (the command is in that script's docstring)::

    /tmp/lstats-venv/bin/python tests/stats/make_judge_error_table.py
"""

import json
import math
from pathlib import Path

import pytest

from agent_evaluators.stats.judge_error import (beta_cdf, beta_ppf, clopper_pearson, corrected_interval,
                                                 rogan_gladen)

TABLE = json.loads(Path(__file__).with_name("judge_error_table.json").read_text())


@pytest.mark.parametrize("case", TABLE["intervals"], ids=lambda c: f"{c['k']}of{c['n']}@{c['level']}")
def test_clopper_pearson_matches_scipy_exact_interval(case):
    got = clopper_pearson(case["k"], case["n"], case["level"])
    assert got is not None and got.method == "clopper-pearson" and got.level == case["level"]
    assert math.isclose(got.low, case["low"], rel_tol=1e-9, abs_tol=1e-12), (got, case)
    assert math.isclose(got.high, case["high"], rel_tol=1e-9, abs_tol=1e-12), (got, case)


@pytest.mark.parametrize("case", TABLE["beta"], ids=lambda c: f"q{c['q']}-a{c['a']}-b{c['b']}")
def test_beta_quantile_and_cdf_match_scipy(case):
    assert math.isclose(beta_ppf(case["q"], case["a"], case["b"]), case["ppf"], rel_tol=1e-9, abs_tol=1e-12)
    assert math.isclose(beta_cdf(0.5, case["a"], case["b"]), case["cdf_at_half"], rel_tol=1e-9, abs_tol=1e-12)


def test_no_labels_no_interval_and_bad_counts_are_refused():
    assert clopper_pearson(0, 0) is None
    with pytest.raises(ValueError, match="between 0 and n=5"):
        clopper_pearson(6, 5)


@pytest.mark.parametrize("observed, tpr, tnr, expected", [
    (0.84, 0.95, 0.60, 0.80),   # (0.84 + 0.60 - 1) / (0.95 + 0.60 - 1) = 0.44 / 0.55
    (0.62, 0.90, 0.80, 0.60),   # 0.42 / 0.70
    (0.50, 1.00, 1.00, 0.50),   # a perfect judge: no change
    (0.10, 0.90, 0.80, 0.00),   # -0.10 / 0.70, clipped to 0
    (0.95, 0.90, 0.90, 1.00),   # 0.85 / 0.80 = 1.0625, clipped to 1
])
def test_rogan_gladen_worked_examples(observed, tpr, tnr, expected):
    assert rogan_gladen(observed, tpr, tnr) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("tpr, tnr", [(0.5, 0.5), (0.4, 0.5), (0.2, 0.3)])
def test_a_judge_no_better_than_chance_is_not_correctable(tpr, tnr):
    assert rogan_gladen(0.6, tpr, tnr) is None
    # labelled counts giving the same rates: no corrected interval either
    assert corrected_interval(60, 100, int(tpr * 10), 10, int(tnr * 10), 10) is None


def test_corrected_interval_by_hand():
    # run: 62 of 100 rows passed by the judge; labels: 45 of 50 people-passes judged pass, 40 of 50 fails judged fail
    got = corrected_interval(62, 100, 45, 50, 40, 50)
    assert got is not None
    assert got.raw == pytest.approx(0.62)
    assert got.rate == pytest.approx((0.62 + 0.8 - 1) / (0.9 + 0.8 - 1))  # 0.6
    z = 1.959963984540054
    adj = lambda k, n: ((k + z * z / 2) / (n + z * z), n + z * z)  # noqa: E731  (Agresti–Coull)
    (p, np_), (se, ns), (sp, nn) = adj(62, 100), adj(45, 50), adj(40, 50)
    centre = (p + sp - 1) / (se + sp - 1)
    var = (p * (1 - p) / np_ + centre ** 2 * se * (1 - se) / ns + (1 - centre) ** 2 * sp * (1 - sp) / nn) \
        / (se + sp - 1) ** 2
    assert got.interval.low == pytest.approx(centre - z * math.sqrt(var), rel=1e-12)
    assert got.interval.high == pytest.approx(centre + z * math.sqrt(var), rel=1e-12)
    assert got.interval.method == "delta-agresti-coull"


def test_more_labels_narrow_the_corrected_interval_and_it_stays_in_0_1():
    few = corrected_interval(300, 500, 18, 20, 8, 10)
    many = corrected_interval(300, 500, 180, 200, 80, 100)
    assert few is not None and many is not None
    assert (many.interval.high - many.interval.low) < (few.interval.high - few.interval.low)
    edge = corrected_interval(500, 500, 50, 50, 50, 50)  # everything passes, a perfect judge
    assert edge is not None and edge.rate == 1.0 and 0.0 <= edge.interval.low <= edge.interval.high == 1.0


def test_no_sample_no_correction():
    assert corrected_interval(0, 0, 5, 5, 5, 5) is None
    assert corrected_interval(3, 10, 0, 0, 5, 5) is None
    assert corrected_interval(3, 10, 5, 5, 0, 0) is None


def test_the_coverage_simulation_meets_its_target():
    """``bench/label_correction_coverage.py`` (seeded, under a second): the corrected interval covers the true
    pass rate at least 93% of the time at every judge quality, the raw judge rate's interval does not."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "bench" / "label_correction_coverage.py"), "--json", "--check"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    table = json.loads(done.stdout)["table"]
    assert len(table) == 3 and all(r["corrected_coverage"] >= 0.93 for r in table)
    assert min(r["raw_coverage"] for r in table) < 0.5  # a poor judge's raw interval misses the truth
