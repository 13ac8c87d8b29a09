"""Make ``judge_error_table.json``: exact (Clopper–Pearson) binomial intervals from scipy.

Run once, in a throw-away virtualenv (the package itself never imports scipy)::

    python3 -m venv /tmp/lstats-venv && /tmp/lstats-venv/bin/pip install scipy==1.16.3
    /tmp/lstats-venv/bin/python tests/stats/make_judge_error_table.py

The cases are fixed: every k of small n, edge counts (0, n) and a few large n, at levels 0.95, 0.90
and 0.99; the expected values are ``scipy.stats.binomtest(k, n).proportion_ci(confidence_level,
method="exact")``, and the Beta quantiles behind them ``scipy.stats.beta.ppf``.
"""

import json
from pathlib import Path

import scipy
from scipy.stats import beta, binomtest

OUT = Path(__file__).with_name("judge_error_table.json")

cases = []
sizes = [(k, n) for n in (1, 2, 3, 5, 10, 20) for k in range(n + 1)]
sizes += [(0, 50), (50, 50), (49, 50), (40, 50), (97, 100), (100, 100), (480, 500), (0, 1000), (999, 1000), (700, 1000)]
for k, n in sizes:
    for level in (0.95, 0.90, 0.99):
        ci = binomtest(k, n).proportion_ci(confidence_level=level, method="exact")
        cases.append({"k": k, "n": n, "level": level, "low": float(ci.low), "high": float(ci.high)})
quantiles = [{"q": q, "a": a, "b": b, "ppf": float(beta.ppf(q, a, b)), "cdf_at_half": float(beta.cdf(0.5, a, b))}
             for q in (0.025, 0.5, 0.975) for a, b in ((1, 1), (0.5, 0.5), (2, 30), (30, 2), (300, 5), (5.5, 1.5))]
OUT.write_text(json.dumps({"scipy": scipy.__version__, "intervals": cases, "beta": quantiles}, indent=1) + "\n")
print(f"wrote {len(cases)} intervals and {len(quantiles)} quantiles to {OUT}")
