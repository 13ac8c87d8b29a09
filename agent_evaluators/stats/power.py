"""How many rows a paired comparison needs: power, rows needed and the smallest detectable effect.

A two-sided paired test at level ``alpha`` of a mean difference ``effect`` with per-row standard
deviation ``sd`` of the differences, by the normal approximation (statsmodels'
``NormalIndPower().solve_power(..., ratio=0)``, the one-sample z test):

* power(n) = Phi(effect * sqrt(n) / sd - z_{1-alpha/2}) + Phi(-effect * sqrt(n) / sd - z_{1-alpha/2})
* rows needed = the smallest n with power(n) >= the power asked for
* smallest detectable effect at n rows: the effect whose power(n) is the power asked for (both tails
  counted, so a hair below the textbook (z_{1-alpha/2} + z_power) * sd / sqrt(n))

With ``r`` repetitions per row, a row's mean has variance ``between + within / r``: :func:`sd_with_repetitions`.
"""

import math
from statistics import NormalDist
from typing import Optional

__all__ = ["power", "rows_needed", "detectable_effect", "sd_with_repetitions"]

_N = NormalDist()


def power(effect: float, sd: float, n: int, alpha: float = 0.05) -> float:
    """Probability of a significant two-sided result when the true mean difference is ``effect``."""
    if n <= 0:
        return 0.0
    if sd <= 0:
        return 1.0 if effect else alpha
    z = _N.inv_cdf(1 - alpha / 2)
    shift = abs(effect) * math.sqrt(n) / sd
    return _N.cdf(shift - z) + _N.cdf(-shift - z)


def rows_needed(effect: float, sd: float, target: float = 0.8, alpha: float = 0.05) -> Optional[int]:
    """Rows (pairs) for ``power(...) >= target``; None for a zero effect (no sample size detects it)."""
    if effect == 0:
        return None
    if sd <= 0:
        return 1
    z = _N.inv_cdf(1 - alpha / 2) + _N.inv_cdf(target)
    n = max(1, math.ceil((z * sd / abs(effect)) ** 2) - 1)
    while power(effect, sd, n, alpha) < target:
        n += 1
    return n


def detectable_effect(sd: float, n: int, target: float = 0.8, alpha: float = 0.05) -> Optional[float]:
    """The smallest effect ``n`` pairs detect with probability ``target`` (None with no pair)."""
    if n <= 0:
        return None
    if sd <= 0:
        return 0.0
    high = (_N.inv_cdf(1 - alpha / 2) + _N.inv_cdf(target)) * sd / math.sqrt(n)  # the one-tail answer
    low = 0.0
    for _ in range(200):  # bisection: power is increasing in the effect
        mid = (low + high) / 2
        if power(mid, sd, n, alpha) < target:
            low = mid
        else:
            high = mid
        if high - low <= 1e-15 * high:
            break
    return high


def sd_with_repetitions(between_var: float, within_var: float, repetitions: int) -> float:
    """The standard deviation of a row's mean over ``repetitions`` repeated scores."""
    return math.sqrt(max(0.0, between_var) + max(0.0, within_var) / max(1, repetitions))
