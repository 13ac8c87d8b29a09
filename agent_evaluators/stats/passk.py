"""pass@k and pass^k over repetitions: "would one of k tries pass?" and "would all k pass?".

Both are the unbiased estimators from ``n`` repetitions of which ``c`` passed (Chen et al. 2021 for
pass@k; pass^k as tau-bench defines it): choosing ``k`` of the ``n`` runs without replacement,

* pass@k = 1 - C(n - c, k) / C(n, k)   (at least one of the k passed)
* pass^k = C(c, k) / C(n, k)           (all k passed)

A run-level figure is the mean over rows. ``k`` larger than ``n`` has no unbiased estimate: None.
"""

import math
from typing import Iterable, Optional, Tuple

__all__ = ["pass_at_k", "pass_hat_k", "mean_over_rows"]


def _check(n: int, c: int, k: int) -> bool:
    if n < 0 or c < 0 or c > n or k < 1:
        raise ValueError(f"pass@k needs 0 <= c <= n and k >= 1, got n={n}, c={c}, k={k}")
    return k <= n


def pass_at_k(n: int, c: int, k: int) -> Optional[float]:
    """Probability that at least one of ``k`` runs drawn from the ``n`` (``c`` passing) passes."""
    if not _check(n, c, k):
        return None
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> Optional[float]:
    """Probability that all ``k`` runs drawn from the ``n`` (``c`` passing) pass."""
    if not _check(n, c, k):
        return None
    return math.comb(c, k) / math.comb(n, k)


def mean_over_rows(rows: Iterable[Tuple[int, int]], k: int) -> Tuple[Optional[float], Optional[float]]:
    """(pass@k, pass^k) averaged over rows given as (n, c); None where no row has k runs."""
    at, hat = [], []
    for n, c in rows:
        a, h = pass_at_k(n, c, k), pass_hat_k(n, c, k)
        if a is not None and h is not None:
            at.append(a)
            hat.append(h)
    if not at:
        return None, None
    return math.fsum(at) / len(at), math.fsum(hat) / len(hat)
