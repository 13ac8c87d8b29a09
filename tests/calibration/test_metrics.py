"""Confusion matrix, accuracy and Cohen's kappa against scikit-learn's numbers.

Expected values: tests/reference/calibration_kappa.json, produced by
tests/reference/gen_calibration_kappa.py (scikit-learn's accuracy_score,
cohen_kappa_score and confusion_matrix) in a separate venv.
"""

import json
import math

import pytest

from agent_evaluators.calibration.kappa import accuracy, cohen_kappa, confusion_matrix, kappa_band

from ..conftest import REPO_ROOT

REFERENCE = json.loads((REPO_ROOT / "tests" / "reference" / "calibration_kappa.json").read_text())["cases"]


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_matches_sklearn(name):
    case = REFERENCE[name]
    pairs = [(t, p) for t, p in zip(case["truth"], case["predicted"]) if p is not None]
    matrix = confusion_matrix([t for t, _ in pairs], [p for _, p in pairs])
    assert matrix == case["confusion"]
    assert accuracy(matrix) == pytest.approx(case["accuracy"])
    if case["kappa"] is None:
        assert cohen_kappa(matrix) is None
    else:
        assert cohen_kappa(matrix) == pytest.approx(case["kappa"], abs=1e-12)


def test_kappa_undefined_is_none_not_nan():
    matrix = confusion_matrix(["bad"] * 4, ["bad"] * 4)
    value = cohen_kappa(matrix)
    assert value is None and not (isinstance(value, float) and math.isnan(value))
    assert kappa_band(value) == "undefined"


def test_empty_matrix_has_no_accuracy():
    matrix = confusion_matrix([], [])
    assert accuracy(matrix) is None and cohen_kappa(matrix) is None


def test_unknown_label_is_rejected():
    with pytest.raises(ValueError, match="labels must be one of"):
        confusion_matrix(["good"], ["pass"])
    with pytest.raises(ValueError, match="1 labels but predicted has 2"):
        confusion_matrix(["good"], ["good", "bad"])


@pytest.mark.parametrize("kappa,band", [(-0.2, "poor (no better than chance)"), (0.0, "poor (no better than chance)"),
                                        (0.05, "poor (no better than chance)"),
                                        (0.15, "slight"), (0.35, "fair"), (0.5, "moderate"), (0.7, "substantial"),
                                        (0.95, "almost perfect")])
def test_kappa_bands_follow_landis_and_koch(kappa, band):
    assert kappa_band(kappa) == band
