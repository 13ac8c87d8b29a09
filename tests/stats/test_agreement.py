"""Krippendorff's alpha and Fleiss' kappa against a reference table.

``agreement_table.json`` was made once by ``tests/stats/make_agreement_tables.py`` in a
throw-away virtualenv with krippendorff 0.9.0 and statsmodels 0.15.0 (the command is in that
script's docstring); our functions are pure Python and never import them.
"""

import json
import math
from pathlib import Path

import pytest

from agent_evaluators.stats.agreement import LEVELS, fleiss_kappa, krippendorff_alpha

TABLE = json.loads(Path(__file__).with_name("agreement_table.json").read_text())
CASES = TABLE["cases"]


def _close(ours, theirs):
    if theirs is None:
        return ours is None
    return ours is not None and math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-12)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_alpha_matches_the_krippendorff_package_at_every_level(case):
    for level in LEVELS:
        ours = krippendorff_alpha(case["units"], level)
        assert _close(ours, case["alpha"][level]), (level, ours, case["alpha"][level])


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_fleiss_kappa_matches_statsmodels(case):
    ours = fleiss_kappa(case["units"])
    assert _close(ours, case["fleiss_kappa"]), (ours, case["fleiss_kappa"])


def test_the_table_covers_the_edge_cases():
    names = {c["name"] for c in CASES}
    assert {"all_equal", "one_unit", "no_units", "nan_as_missing", "ties_everywhere"} <= names
    assert len(CASES) >= 80


def test_nan_is_a_missing_verdict_like_none():
    with_none = [[1, None, 2], [2, 2, None], [3, 3, 3]]
    with_nan = [[1, float("nan"), 2], [2, 2, float("nan")], [3, 3, 3]]
    assert krippendorff_alpha(with_nan, "interval") == krippendorff_alpha(with_none, "interval")


def test_undefined_agreement_is_none_never_a_number():
    assert krippendorff_alpha([], "nominal") is None
    assert krippendorff_alpha([[5, 5], [5, 5]], "interval") is None
    assert fleiss_kappa([["pass", "pass"], ["pass", "pass"]]) is None
    assert fleiss_kappa([["pass"], ["fail"]]) is None


def test_labels_work_as_categories():
    assert fleiss_kappa([["pass", "pass"], ["fail", "fail"]]) == 1.0
    assert krippendorff_alpha([["safe", "safe"], ["unsafe", "unsafe"]], "nominal") == 1.0


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="level must be one of"):
        krippendorff_alpha([[1, 2]], "ratio")
