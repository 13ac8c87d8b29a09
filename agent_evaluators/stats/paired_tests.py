"""Paired tests for two runs over the same rows: exact McNemar for pass/fail, Wilcoxon signed-rank for scores.

Why paired: the same row scored by run A and by run B shares its difficulty, so the difference per
row is far less noisy than the difference of two means; a paired test sees a drop that the two
means alone hide.

:func:`wilcoxon` is scipy's ``scipy.stats.wilcoxon(d)`` with its defaults (scipy 1.17:
``zero_method="wilcox"``: zero differences are dropped before ranking; ``correction=False``;
``method="auto"``), two-sided, reproduced exactly:

* more than 50 differences (zeros included in the count): the normal approximation with the tie
  correction of the variance;
* up to 50, no ties and no zeros: the exact null distribution of the signed-rank sum;
* up to 13 with ties or zeros: the exact permutation distribution (all 2**n sign flips);
* 14 to 50 with ties or zeros: the normal approximation, as above.

:func:`mcnemar_exact` is statsmodels' ``mcnemar(table, exact=True)``: a two-sided binomial test on
the discordant pairs only.
"""

import math
from statistics import NormalDist
from typing import Dict, List, NamedTuple, Sequence, Tuple

__all__ = ["TestResult", "mcnemar_exact", "wilcoxon", "signed_ranks"]


class TestResult(NamedTuple):
    """A test's statistic and its two-sided p-value (NaN where the test has nothing to test)."""

    statistic: float
    p_value: float
    method: str


def _binom_cdf_half(k: int, n: int) -> float:
    """P(X <= k) for X ~ Binomial(n, 1/2), exactly (integers, then one division)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n


def mcnemar_exact(b: int, c: int) -> TestResult:
    """Exact McNemar test from the discordant counts: ``b`` rows passed in A and failed in B, ``c`` the reverse.

    p = min(1, 2 * P(X <= min(b, c))), X ~ Binomial(b + c, 1/2); with no discordant pair p is 1."""
    n = b + c
    low = min(b, c)
    p = min(1.0, 2 * _binom_cdf_half(low, n)) if n else 1.0
    return TestResult(float(low), p, "mcnemar-exact")


def signed_ranks(diffs: Sequence[float]) -> Tuple[List[float], List[float], Dict[float, int]]:
    """Non-zero differences, their average ranks by absolute value, and the size of each tie group."""
    nz = [d for d in diffs if d != 0]
    order = sorted(range(len(nz)), key=lambda i: abs(nz[i]))
    ranks = [0.0] * len(nz)
    ties: Dict[float, int] = {}
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and abs(nz[order[j + 1]]) == abs(nz[order[i]]):
            j += 1
        avg = (i + j) / 2 + 1
        for t in range(i, j + 1):
            ranks[order[t]] = avg
        ties[abs(nz[order[i]])] = j - i + 1
        i = j + 1
    return nz, ranks, ties


def _exact_signed_rank_counts(n: int) -> List[int]:
    """How many of the 2**n sign patterns give each rank sum 0..n(n+1)/2 (ranks 1..n, no ties)."""
    top = n * (n + 1) // 2
    counts = [0] * (top + 1)
    counts[0] = 1
    for r in range(1, n + 1):
        for s in range(top, r - 1, -1):
            counts[s] += counts[s - r]
    return counts


def _permutation_p(diffs: Sequence[float], observed: float) -> float:
    """Two-sided p of the rank sum over all 2**n sign flips of the differences (zeros flip to themselves)."""
    n = len(diffs)
    _, ranks_nz, _ = signed_ranks(diffs)
    ranks: List[float] = []
    k = 0
    for d in diffs:
        if d != 0:
            ranks.append(ranks_nz[k])
            k += 1
        else:
            ranks.append(0.0)
    gamma = abs(observed) * 1e2 * 2.220446049250313e-16
    ge = le = 0
    total = 2 ** n
    for mask in range(total):
        s = 0.0
        for i in range(n):
            if mask >> i & 1:
                s += ranks[i]
        if s >= observed - gamma:
            ge += 1
        if s <= observed + gamma:
            le += 1
    return min(1.0, 2 * min(ge / total, le / total))


def wilcoxon(diffs: Sequence[float]) -> TestResult:
    """Two-sided Wilcoxon signed-rank test of paired differences, as scipy's defaults compute it (module doc).

    NaN (and infinite) differences are left out first (a row one run did not score is not a pair). Statistic:
    min(W+, W-). No non-zero difference: p is NaN (nothing to rank)."""
    d = [float(x) for x in diffs if math.isfinite(x)]
    n_all = len(d)
    if n_all == 0:
        return TestResult(math.nan, math.nan, "wilcoxon")
    nz, ranks, ties = signed_ranks(d)
    count = len(nz)
    r_plus = math.fsum(r for x, r in zip(nz, ranks) if x > 0)
    r_minus = math.fsum(r for x, r in zip(nz, ranks) if x < 0)
    stat = min(r_plus, r_minus)
    has_ties = any(t > 1 for t in ties.values())
    has_zero = count < n_all
    if n_all <= 50 and not (has_ties or has_zero):
        counts = _exact_signed_rank_counts(count)
        total = 2 ** count
        r = int(round(r_plus))
        sf = sum(counts[r:]) / total
        cdf = sum(counts[: r + 1]) / total
        return TestResult(stat, min(1.0, 2 * min(sf, cdf)), "wilcoxon-exact")
    if n_all <= 13:
        return TestResult(stat, _permutation_p(d, r_plus), "wilcoxon-permutation")
    if count == 0:
        return TestResult(stat, math.nan, "wilcoxon-normal")
    mn = count * (count + 1) * 0.25
    se2 = float(count * (count + 1) * (2 * count + 1))
    se2 -= sum(t ** 3 - t for t in ties.values()) / 2
    se = math.sqrt(se2 / 24)
    if se == 0:
        return TestResult(stat, math.nan, "wilcoxon-normal")
    z = (r_plus - mn) / se
    return TestResult(stat, min(1.0, 2 * NormalDist().cdf(-abs(z))), "wilcoxon-normal")


