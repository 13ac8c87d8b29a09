"""A κ near 0 is called "no better than chance" wherever one is shown: calibrate's band, a run's judge
calibration line and its panel agreement line (the terminal and the HTML report share those two)."""

import pytest

from agent_evaluators.calibration.kappa import kappa_band
from agent_evaluators.config.calibration_records import describe_calibration
from agent_evaluators.runner.panel_votes import describe_agreement

CHANCE = "no better than chance"


def _shown(kappa):
    calibration = describe_calibration({"judges": [{"model": "m", "calibrated": True, "cases": 40, "kappa": kappa}]})
    agreement = describe_agreement({"judges": ["a", "b", "c"], "alpha": 0.5, "level": "nominal",
                                    "fleiss_kappa": kappa, "disagreements": 3, "cells": 40})
    return kappa_band(kappa), calibration, agreement


@pytest.mark.parametrize("kappa", [-0.3, 0.0, 0.03, 0.09])
def test_a_kappa_near_zero_reads_no_better_than_chance_everywhere(kappa):
    for text in _shown(kappa):
        assert CHANCE in text, text


@pytest.mark.parametrize("kappa", [0.25, 0.81, None])
def test_a_real_agreement_does_not(kappa):
    for text in _shown(kappa):
        assert CHANCE not in text, text
