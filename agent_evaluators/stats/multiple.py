"""Holm's step-down correction: comparing ten metrics at alpha 0.05 must not find one "regression" by chance.

Matches statsmodels' ``multipletests(p, method="holm")[1]``. NaN p-values (a metric with nothing
to test) stay NaN and do not count as tests.
"""

import math
from typing import List, Sequence

__all__ = ["holm"]


def holm(p_values: Sequence[float]) -> List[float]:
    """Holm-adjusted p-values, in the order given."""
    idx = [i for i, p in enumerate(p_values) if p == p]
    m = len(idx)
    out = [math.nan] * len(p_values)
    running = 0.0
    for rank, i in enumerate(sorted(idx, key=lambda j: p_values[j])):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        out[i] = running
    return out
