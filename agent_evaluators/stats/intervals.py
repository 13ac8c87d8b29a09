"""Confidence intervals for a run's aggregates: Wilson for pass rates, a seeded bootstrap for means.

Why these two: a pass rate near 0 or 1 on a few dozen rows is where a plain normal interval goes
below 0 or above 1 (Wilson never does), and a mean of 1-5 judge scores is far from normal on small
samples, so its interval comes from resampling the rows themselves. The bootstrap is seeded, so the
same rows give the same interval on every machine and every rerun; values are sorted first, so the
order rows finished in (or the Ray shard they ran on) does not matter either.

With repetitions (``num_runs > 1``) each row holds several scores; :func:`bootstrap_mean` then
resamples twice, rows and, within each drawn row, its repetitions, so the interval carries the
noise between repetitions as well as the spread between rows.
"""

import math
import random
from statistics import NormalDist
from typing import Iterable, List, NamedTuple, Optional, Sequence, Union

__all__ = ["Interval", "wilson", "bootstrap_mean", "normal_mean", "percentile", "z_value", "finite_mean",
           "squared_deviations", "DEFAULT_LEVEL", "RESAMPLES", "BOOTSTRAP_MAX_DRAWS", "SEED"]

DEFAULT_LEVEL = 0.95
#: bootstrap resamples: the percentile interval's ends move by well under 1% of its width between seeds
RESAMPLES = 2000
SEED = 20260
#: beyond this many draws (resamples x values) the bootstrap would cost seconds at the end of a run; a
#: sample that large is where the mean is close to normal, so the normal interval is used and named
BOOTSTRAP_MAX_DRAWS = 4_000_000

Value = Union[float, Sequence[float]]


class Interval(NamedTuple):
    """``low``..``high`` at confidence ``level``, made by ``method`` (recorded beside it in summary.json)."""

    low: float
    high: float
    level: float
    method: str

    def as_dict(self) -> dict:
        return {"low": self.low, "high": self.high, "level": self.level, "method": self.method}


def z_value(level: float) -> float:
    """The two-sided normal quantile for ``level`` (1.959964 for 0.95)."""
    return NormalDist().inv_cdf(0.5 + level / 2)


def wilson(successes: int, n: int, level: float = DEFAULT_LEVEL) -> Optional[Interval]:
    """Wilson score interval for ``successes`` of ``n`` (statsmodels' ``proportion_confint(method="wilson")``).

    ``None`` when ``n`` is 0: no rows, no interval (never a made-up 0..1)."""
    if n <= 0:
        return None
    z = z_value(level)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return Interval(max(0.0, centre - half), min(1.0, centre + half), level, "wilson")


def finite_mean(values: Sequence[float]) -> float:
    """The mean of finite values, whatever their size: a sum past float's range (two scores of 1.5e308)
    is summed again scaled down by the count, never an ``OverflowError``."""
    n = len(values)
    try:
        return math.fsum(values) / n
    except OverflowError:
        return math.fsum(v / n for v in values)
    except ValueError:  # inf and -inf among them: no mean
        return math.nan


def squared_deviations(values: Iterable[float], mean: float) -> float:
    """The sum of ``(v - mean)**2``; ``inf`` where it is past float's range (reported by the caller, never raised)."""
    try:
        return math.fsum((v - mean) * (v - mean) for v in values)  # ``*``, not ``**``: float ``**`` raises on overflow
    except OverflowError:
        return math.inf


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of already sorted values, linear between points (numpy's default)."""
    n = len(sorted_values)
    pos = q * (n - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, n - 1)
    a, b, frac = sorted_values[lo], sorted_values[hi], pos - lo
    if not frac:
        return a
    width = b - a
    if math.isinf(width) and math.isfinite(a) and math.isfinite(b):  # ends of opposite sign near float's range
        return a * (1 - frac) + b * frac
    return a + width * frac


def _clean(values: Sequence[Value]) -> List[Value]:
    """Drop NaN and infinite scores (and rows with no scores left): neither has an interval."""
    out: List[Value] = []
    for v in values:
        if isinstance(v, (int, float)):
            if math.isfinite(v):
                out.append(float(v))
        else:
            reps = [float(x) for x in v if math.isfinite(x)]
            if reps:
                out.append(reps if len(reps) > 1 else reps[0])
    return out


def normal_mean(values: Iterable[float], level: float = DEFAULT_LEVEL) -> Optional[Interval]:
    """mean +- z * sd / sqrt(n) in two passes over ``values`` (any re-iterable: an ``array``), no copy:
    the interval of a sample too large to bootstrap at the end of a run. NaN and inf are left out."""
    n = 0
    total = 0.0
    for v in values:
        if math.isfinite(v):
            n += 1
            total += v
    if n == 0:
        return None
    mu = total / n if math.isfinite(total) else math.fsum(v / n for v in values if math.isfinite(v))
    ss = 0.0
    for v in values:
        if math.isfinite(v):
            ss += (v - mu) * (v - mu)  # inf past float's range, never an OverflowError
    sd = math.sqrt(ss / (n - 1)) if n > 1 else 0.0
    half = z_value(level) * sd / math.sqrt(n)
    return Interval(mu - half, mu + half, level, "normal")


def _normal(values: List[Value], level: float) -> Interval:
    got = normal_mean([v if isinstance(v, float) else finite_mean(v) for v in values], level)
    assert got is not None
    return got


def bootstrap_mean(values: Sequence[Value], level: float = DEFAULT_LEVEL, *, resamples: int = RESAMPLES,
                   seed: int = SEED, max_draws: int = BOOTSTRAP_MAX_DRAWS) -> Optional[Interval]:
    """Percentile bootstrap interval of the mean over rows (seeded, order-free).

    ``values``: one score per row, or per row the scores of its repetitions (then rows and
    repetitions are both resampled: method ``bootstrap-rows-repetitions``). NaN and inf are left out.
    Past ``max_draws`` random draws the normal interval is returned instead (method ``normal``).
    ``None`` with no scored row; a single row gives its own value at both ends."""
    rows = sorted(_clean(values), key=lambda v: (v,) if isinstance(v, float) else tuple(v))
    n = len(rows)
    if n == 0:
        return None
    nested = any(not isinstance(v, float) for v in rows)
    draws = n * resamples if not nested else resamples * (n + sum(1 if isinstance(v, float) else len(v) for v in rows))
    if draws > max_draws:
        return _normal(rows, level)
    rng = random.Random(seed)
    means: List[float] = []
    if not nested:
        flat = [float(v) for v in rows]  # type: ignore[arg-type]
        for _ in range(resamples):
            means.append(finite_mean(rng.choices(flat, k=n)))
        method = "bootstrap-rows"
    else:
        groups = [[v] if isinstance(v, float) else list(v) for v in rows]
        for _ in range(resamples):
            parts = [finite_mean(rng.choices(g, k=len(g))) for g in rng.choices(groups, k=n)]
            total = 0.0
            for part in parts:
                total += part
            means.append(total / n if math.isfinite(total) else finite_mean(parts))
        method = "bootstrap-rows-repetitions"
    means.sort()
    alpha = 1 - level
    return Interval(percentile(means, alpha / 2), percentile(means, 1 - alpha / 2), level, method)
