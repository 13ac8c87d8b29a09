"""Every statistic of ``agent_evaluators.stats`` against what scipy / statsmodels computed for the same input.

The table ``reference_tables.json`` was made once by ``tests/stats/make_tables.py`` in a throw-away
venv (``pip install scipy statsmodels numpy``; scipy 1.17.1, statsmodels 0.15.0, recorded in the
file under ``made_with``); the package itself never imports them.
"""

import json
import math
from pathlib import Path

import pytest

from agent_evaluators.stats.intervals import bootstrap_mean, wilson
from agent_evaluators.stats.multiple import holm
from agent_evaluators.stats.noise import split_variance
from agent_evaluators.stats.paired_tests import mcnemar_exact, wilcoxon
from agent_evaluators.stats.passk import mean_over_rows, pass_at_k, pass_hat_k
from agent_evaluators.stats.power import detectable_effect, power, rows_needed

TABLES = json.loads(Path(__file__).with_name("reference_tables.json").read_text(encoding="utf-8"))


def _same(ours, theirs, rel=1e-9, abs_=1e-12):
    if theirs is None:
        return ours is None or ours != ours
    return ours == pytest.approx(theirs, rel=rel, abs=abs_)


@pytest.mark.parametrize("case", TABLES["wilson"], ids=lambda c: f"{c['successes']}of{c['n']}@{c['level']}")
def test_wilson_matches_statsmodels(case):
    got = wilson(case["successes"], case["n"], case["level"])
    assert got is not None and got.method == "wilson" and got.level == case["level"]
    assert _same(got.low, case["low"]) and _same(got.high, case["high"])


def test_wilson_of_no_rows_is_no_interval():
    assert wilson(0, 0) is None


@pytest.mark.parametrize("case", TABLES["wilcoxon"], ids=lambda c: f"n{len(c['diffs'])}")
def test_wilcoxon_matches_scipy_defaults(case):
    got = wilcoxon([math.nan if d is None else d for d in case["diffs"]])  # null in the table: a NaN score
    assert _same(got.p_value, case["p_value"], rel=1e-7)
    if case["statistic"] is not None:
        assert _same(got.statistic, case["statistic"])


def test_wilcoxon_names_the_variant_it_used():
    assert wilcoxon([1.0, -2.0, 3.0]).method == "wilcoxon-exact"
    assert wilcoxon([1, 1, 0]).method == "wilcoxon-permutation"
    assert wilcoxon([1, 1, 0] * 10).method == "wilcoxon-normal"


@pytest.mark.parametrize("case", TABLES["mcnemar"], ids=lambda c: f"b{c['b']}c{c['c']}")
def test_exact_mcnemar_matches_statsmodels(case):
    got = mcnemar_exact(case["b"], case["c"])
    assert _same(got.p_value, case["p_value"]) and got.statistic == case["statistic"]


@pytest.mark.parametrize("case", TABLES["holm"], ids=lambda c: str(len(c["p"])))
def test_holm_matches_statsmodels(case):
    assert holm(case["p"]) == pytest.approx(case["adjusted"], rel=1e-12)


def test_holm_leaves_untestable_metrics_out():
    got = holm([0.01, math.nan, 0.04])
    assert got[0] == pytest.approx(0.02) and math.isnan(got[1]) and got[2] == pytest.approx(0.04)
    assert holm([]) == []


@pytest.mark.parametrize("case", TABLES["power"], ids=lambda c: f"{c['effect']}/{c['sd']}/{c['n']}")
def test_power_rows_needed_and_detectable_effect_match_statsmodels(case):
    assert power(case["effect"], case["sd"], case["n"], case["alpha"]) == pytest.approx(case["power"], rel=1e-9)
    assert rows_needed(case["effect"], case["sd"], 0.8, case["alpha"]) == case["rows_needed"]
    # statsmodels solves for the effect with brentq's default tolerance: agreement to 1e-4, and ours has power 0.8
    mde = detectable_effect(case["sd"], case["n"], 0.8, case["alpha"])
    assert mde == pytest.approx(case["detectable"], rel=1e-4)
    assert power(mde, case["sd"], case["n"], case["alpha"]) == pytest.approx(0.8, rel=1e-9)


def test_power_edges():
    assert rows_needed(0.0, 0.3) is None and detectable_effect(0.3, 0) is None and power(0.1, 0.3, 0) == 0.0


@pytest.mark.parametrize("case", TABLES["passk"], ids=lambda c: f"n{c['n']}c{c['c']}k{c['k']}")
def test_pass_at_k_and_pass_hat_k_match_scipy_comb(case):
    assert pass_at_k(case["n"], case["c"], case["k"]) == pytest.approx(case["pass_at_k"], rel=1e-12)
    assert pass_hat_k(case["n"], case["c"], case["k"]) == pytest.approx(case["pass_hat_k"], rel=1e-12)


def test_pass_at_k_beyond_the_runs_has_no_estimate():
    assert pass_at_k(2, 1, 3) is None and pass_hat_k(2, 1, 3) is None
    assert mean_over_rows([(2, 1)], 3) == (None, None)
    assert mean_over_rows([(2, 1), (2, 2)], 1) == (0.75, 0.75)
    with pytest.raises(ValueError):
        pass_at_k(2, 3, 1)


@pytest.mark.parametrize("case", TABLES["bootstrap"], ids=lambda c: str(len(c["values"])))
def test_bootstrap_agrees_with_scipy_percentile_bootstrap(case):
    got = bootstrap_mean(case["values"])
    width = case["high"] - case["low"]
    # different generators: the ends agree to Monte Carlo error (and a 0/1 mean's step of 1/n)
    assert abs(got.low - case["low"]) < 0.1 * width and abs(got.high - case["high"]) < 0.1 * width
    assert got.method == "bootstrap-rows"


def test_bootstrap_is_seeded_and_order_free():
    values = TABLES["bootstrap"][0]["values"]
    assert bootstrap_mean(values) == bootstrap_mean(list(reversed(values)))


def test_bootstrap_edges_n0_n1_nan_and_all_equal():
    assert bootstrap_mean([]) is None and bootstrap_mean([math.nan]) is None
    one = bootstrap_mean([3.0])
    assert (one.low, one.high) == (3.0, 3.0)
    assert bootstrap_mean([2.0, 2.0, math.nan, 2.0])[:2] == (2.0, 2.0)


def test_bootstrap_over_repetitions_is_wider_than_over_row_means():
    rows = [[1.0, 5.0], [2.0, 4.0], [3.0, 3.0], [1.0, 5.0]] * 5
    nested = bootstrap_mean(rows)
    flat = bootstrap_mean([sum(r) / 2 for r in rows])
    assert nested.method == "bootstrap-rows-repetitions"
    assert nested.high - nested.low > flat.high - flat.low


def test_bootstrap_of_a_large_sample_is_the_normal_interval_and_says_so():
    got = bootstrap_mean([float(i % 5) for i in range(5000)])
    assert got.method == "normal" and got.low < 2.0 < got.high


@pytest.mark.parametrize("case", TABLES["noise"], ids=lambda c: f"{len(c['rows'])}x{len(c['rows'][0])}")
def test_noise_split_matches_the_numpy_mean_squares(case):
    got = split_variance(case["rows"])
    assert _same(got.judge, case["judge"]) and _same(got.agent, case["agent"])
    assert got.rows == pytest.approx(case["between"], rel=1e-9, abs=1e-12)


def test_noise_split_without_repetitions_says_unknown():
    got = split_variance([[[3.0]], [[4.0]], [[math.nan]]])
    assert got.judge is None and got.agent is None and got.rows == pytest.approx(0.5)
    assert split_variance([]).rows is None


def test_infinite_scores_are_left_out_like_nan():
    assert bootstrap_mean([1.0, math.inf, 2.0, -math.inf])[:2] == bootstrap_mean([1.0, 2.0])[:2]
    assert split_variance([[[math.inf, 2.0, 3.0]], [[1.0, -math.inf, 2.0]]]).judge == pytest.approx(0.5)
    assert wilcoxon([1.0, math.inf, -2.0, 3.0]).p_value == wilcoxon([1.0, -2.0, 3.0]).p_value
