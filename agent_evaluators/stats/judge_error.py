"""A judge's error rates and a pass rate corrected for them, as pure functions.

A judge that passes 84% of rows when people would pass 71% is the failure this module is for.
Given people's labels on some rows, the judge's true-positive rate (TPR: of the rows people pass,
the share the judge passes) and true-negative rate (TNR) are proportions; their intervals are
exact (:func:`clopper_pearson`), because label samples are small and the rates sit near 1, where
a normal or Wilson interval is too short on the side that matters for certification (the lower
bound).

The judge's raw pass rate ``p`` estimates ``π·TPR + (1 − π)·(1 − TNR)``, not the true rate ``π``.
:func:`rogan_gladen` inverts that (Rogan & Gladen 1978): ``π̂ = (p + TNR − 1) / (TPR + TNR − 1)``,
clipped to [0, 1]. When ``TPR + TNR − 1 ≤ 0`` the judge is no better than a coin (or inverted)
and no correction exists: ``None``, never a number.

:func:`corrected_interval` gives the corrected rate's interval by the delta method over the three
independent samples (the run's rows for ``p``, the labelled passes for TPR, the labelled fails for
TNR), each proportion taken with the Agresti–Coull adjustment (``z²/2`` successes and ``z²/2``
failures added) before its variance is formed. Why the delta method and not a bootstrap: it is
closed-form, so ``summary.json`` gets the same interval on every machine without a seed and in
microseconds; why the adjustment: the plain delta method gives a variance of 0 to a TPR or TNR
estimated as exactly 1 (common: 40 of 40 labelled passes), which makes the interval too short;
adding pseudo-counts is the remedy Lang & Reiczigel (2014) found to keep coverage near nominal.
``bench/label_correction_coverage.py`` measures the coverage at several judge qualities.
"""

import math
from typing import NamedTuple, Optional

from .intervals import DEFAULT_LEVEL, Interval, z_value

__all__ = ["clopper_pearson", "rogan_gladen", "corrected_interval", "Correction", "beta_ppf", "beta_cdf"]


# ---------------------------------------------------------------------------- the regularized incomplete beta
def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """Lentz's continued fraction for the incomplete beta (Numerical Recipes §6.4)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def beta_cdf(x: float, a: float, b: float) -> float:
    """The Beta(a, b) distribution function at ``x`` (scipy's ``beta.cdf``; ``a, b > 0``)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_continued_fraction(b, a, 1.0 - x) / b


def beta_ppf(q: float, a: float, b: float) -> float:
    """The ``q`` quantile of Beta(a, b) (scipy's ``beta.ppf``), by bisection: the cdf is monotone, so 200
    halvings reach the float next to the answer whatever the shape."""
    low, high = 0.0, 1.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if mid in (low, high):
            break
        if beta_cdf(mid, a, b) < q:
            low = mid
        else:
            high = mid
    return (low + high) / 2.0


def clopper_pearson(successes: int, n: int, level: float = DEFAULT_LEVEL) -> Optional[Interval]:
    """The exact two-sided interval for ``successes`` of ``n`` (scipy's ``binomtest(k, n).proportion_ci(
    method="exact")``): it covers the true proportion at least ``level`` of the time for every ``n``.

    ``None`` when ``n`` is 0 (no labels, no interval)."""
    if n <= 0:
        return None
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n={n}, got {successes}")
    alpha = 1.0 - level
    low = 0.0 if successes == 0 else beta_ppf(alpha / 2, successes, n - successes + 1)
    high = 1.0 if successes == n else beta_ppf(1 - alpha / 2, successes + 1, n - successes)
    return Interval(low, high, level, "clopper-pearson")


def rogan_gladen(observed: float, tpr: float, tnr: float) -> Optional[float]:
    """The true pass rate behind a judge's ``observed`` pass rate, given its ``tpr`` and ``tnr``:
    ``(observed + tnr - 1) / (tpr + tnr - 1)`` clipped to [0, 1]; ``None`` when ``tpr + tnr - 1 <= 0``
    (a judge no better than chance cannot be corrected for)."""
    youden = tpr + tnr - 1.0
    if youden <= 0.0:
        return None
    return min(1.0, max(0.0, (observed + tnr - 1.0) / youden))


class Correction(NamedTuple):
    """A corrected pass rate (``rate``) with its interval, and the raw rate it came from."""

    rate: float
    interval: Interval
    raw: float

    def as_dict(self) -> dict:
        return {"rate": self.rate, "raw": self.raw, **{"interval": self.interval.as_dict()}}


def _adjusted(successes: int, n: int, z: float) -> tuple:
    """(Agresti–Coull proportion, its variance) for ``successes`` of ``n``."""
    n_adj = n + z * z
    p = (successes + z * z / 2.0) / n_adj
    return p, p * (1.0 - p) / n_adj


def corrected_interval(run_passes: int, run_n: int, true_pos: int, positives: int, true_neg: int, negatives: int,
                       level: float = DEFAULT_LEVEL) -> Optional[Correction]:
    """The Rogan–Gladen corrected pass rate of a run and its delta-method interval (see the module's text).

    ``run_passes`` of ``run_n`` rows the judge passed; of the labelled rows, people passed
    ``positives`` (the judge passed ``true_pos`` of them) and failed ``negatives`` (the judge failed
    ``true_neg``). ``None`` when a sample is empty or the judge is not correctable (TPR + TNR - 1 <= 0,
    on the plain estimates)."""
    if run_n <= 0 or positives <= 0 or negatives <= 0:
        return None
    for name, k, n in (("run_passes", run_passes, run_n), ("true_pos", true_pos, positives),
                       ("true_neg", true_neg, negatives)):
        if not 0 <= k <= n:
            raise ValueError(f"{name} must be between 0 and {n}, got {k}")
    raw, tpr, tnr = run_passes / run_n, true_pos / positives, true_neg / negatives
    rate = rogan_gladen(raw, tpr, tnr)
    if rate is None:
        return None
    z = z_value(level)
    p_a, var_p = _adjusted(run_passes, run_n, z)
    se_a, var_se = _adjusted(true_pos, positives, z)
    sp_a, var_sp = _adjusted(true_neg, negatives, z)
    youden = se_a + sp_a - 1.0
    if youden <= 0.0:
        return Correction(rate, Interval(0.0, 1.0, level, "delta-agresti-coull"), raw)
    centre = (p_a + sp_a - 1.0) / youden
    variance = (var_p + centre * centre * var_se + (1.0 - centre) ** 2 * var_sp) / (youden * youden)
    half = z * math.sqrt(variance)
    low, high = max(0.0, min(1.0, centre - half)), max(0.0, min(1.0, centre + half))
    return Correction(rate, Interval(min(low, rate), max(high, rate), level, "delta-agresti-coull"), raw)
