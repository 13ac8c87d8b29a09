"""Writes ``reference_tables.json``: what scipy / statsmodels compute for the cases the stats tests check.

Run once, in a throw-away venv (the package never imports scipy or numpy)::

    python3 -m venv /tmp/statsvenv && /tmp/statsvenv/bin/pip install scipy statsmodels numpy
    /tmp/statsvenv/bin/python tests/stats/make_tables.py      # scipy 1.17.1, statsmodels 0.15.0

The cases are fixed lists plus seeded random draws, so a rerun writes the same file.
"""

import json
import math
import random
from pathlib import Path

import numpy as np
import scipy
import statsmodels
from scipy import stats
from scipy.special import comb
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import proportion_confint

OUT = Path(__file__).with_name("reference_tables.json")


def _num(x):
    x = float(x)
    return None if math.isnan(x) else x


def wilson_cases():
    out = []
    for count, n in [(0, 1), (1, 1), (0, 10), (10, 10), (3, 10), (17, 40), (1, 2), (39, 40), (500, 1000), (1, 3)]:
        for level in (0.95, 0.9):
            lo, hi = proportion_confint(count, n, alpha=1 - level, method="wilson")
            out.append({"successes": count, "n": n, "level": level, "low": float(lo), "high": float(hi)})
    return out


def wilcoxon_cases():
    rng = random.Random(7)
    diffs = [
        [1.5],                                   # n = 1
        [0.0, 0.0, 0.0],                         # all equal pairs: every difference zero
        [1.0, -2.0, 3.0, 4.0, -5.0, 6.0, 7.0],   # exact, no ties
        [1, 1, 1, -1, 2, 2, -3, 0],              # ties and a zero, n <= 13: permutation
        [0, 0, 1, 2],                            # zeros
        [1, 1, 1, 1, 1],                         # all equal, non-zero
        [-1, -1, -1, -1, -1, -1],
        [round(rng.uniform(-1, 1), 3) for _ in range(30)],              # exact, n = 30
        [rng.choice([-2, -1, 0, 1, 2]) for _ in range(30)],             # ties, 14..50: normal
        [rng.choice([-1, 0, 1, 1]) for _ in range(80)],                 # > 50: normal
        [round(rng.gauss(0.2, 1), 4) for _ in range(200)],             # > 50, no ties
        [rng.choice([-4, -2, 0, 1, 2, 3]) for _ in range(13)],          # 13 with ties: permutation
        [rng.choice([-1, 0, 1]) for _ in range(14)],                    # 14 with ties: normal
    ]
    out = []
    for d in diffs:
        res = stats.wilcoxon(np.asarray(d, dtype=float))
        out.append({"diffs": d, "statistic": _num(res.statistic), "p_value": _num(res.pvalue)})
    # NaN scores: a pair one run did not score is left out (scipy's nan_policy="omit"); n = 0: NaN
    with_nan = [1.0, float("nan"), -2.0, 3.0, 4.0, float("nan"), 5.0]
    res = stats.wilcoxon(np.asarray(with_nan), nan_policy="omit")
    out.append({"diffs": [_num(x) for x in with_nan], "statistic": _num(res.statistic), "p_value": _num(res.pvalue)})
    out.append({"diffs": [], "statistic": None, "p_value": None})
    return out


def mcnemar_cases():
    out = []
    for b, c in [(0, 0), (0, 1), (1, 0), (3, 3), (0, 10), (7, 2), (25, 10), (40, 60), (1, 12)]:
        res = mcnemar([[5, b], [c, 5]], exact=True)
        out.append({"b": b, "c": c, "statistic": float(res.statistic), "p_value": float(res.pvalue)})
    return out


def holm_cases():
    out = []
    for ps in [[0.01], [0.01, 0.04, 0.03], [0.5, 0.001, 0.02, 0.02, 0.9], [0.2, 0.2], [0.04, 0.01, 0.03, 0.05]]:
        out.append({"p": ps, "adjusted": [float(x) for x in multipletests(ps, method="holm")[1]]})
    return out


def power_cases():
    out = []
    solver = NormalIndPower()
    for effect, sd, n, alpha in [(0.05, 0.3, 100, 0.05), (0.1, 0.5, 40, 0.05), (0.25, 1.2, 60, 0.05),
                                 (0.02, 0.2, 500, 0.01), (0.3, 0.3, 5, 0.05), (0.05, 0.3, 1, 0.05)]:
        d = effect / sd
        pw = solver.power(effect_size=d, nobs1=n, alpha=alpha, ratio=0, alternative="two-sided")
        need = solver.solve_power(effect_size=d, power=0.8, alpha=alpha, ratio=0, alternative="two-sided")
        mde = solver.solve_power(nobs1=n, power=0.8, alpha=alpha, ratio=0, alternative="two-sided")
        out.append({"effect": effect, "sd": sd, "n": n, "alpha": alpha, "power": float(pw),
                    "rows_needed": int(math.ceil(float(need) - 1e-9)), "detectable": float(mde) * sd})
    return out


def passk_cases():
    out = []
    for n, c, k in [(1, 0, 1), (1, 1, 1), (5, 2, 1), (5, 2, 2), (5, 2, 3), (5, 5, 5), (10, 3, 4), (10, 0, 3), (3, 3, 2)]:
        at = 1 - comb(n - c, k, exact=True) / comb(n, k, exact=True)
        hat = comb(c, k, exact=True) / comb(n, k, exact=True)
        out.append({"n": n, "c": c, "k": k, "pass_at_k": float(at), "pass_hat_k": float(hat)})
    return out


def bootstrap_cases():
    rng = random.Random(11)
    out = []
    for values in ([rng.choice([1, 2, 3, 4, 5]) for _ in range(40)], [rng.random() for _ in range(25)],
                   [rng.choice([0.0, 1.0]) for _ in range(60)]):
        res = stats.bootstrap((np.asarray(values, dtype=float),), np.mean, confidence_level=0.95,
                              n_resamples=20000, method="percentile", random_state=np.random.default_rng(3))
        ci = res.confidence_interval
        out.append({"values": values, "low": float(ci.low), "high": float(ci.high)})
    return out


def noise_cases():
    """Balanced nested data; the expected split from numpy's mean squares (method of moments)."""
    rng = np.random.default_rng(5)
    out = []
    for rows, runs, verdicts in [(20, 3, 4), (8, 2, 2), (30, 1, 5), (15, 4, 1)]:
        true_row = rng.normal(3, 0.8, rows)
        data = [[list(np.round(true_row[i] + a + rng.normal(0, 0.4, verdicts), 4))
                 for a in rng.normal(0, 0.5, runs)] for i in range(rows)]
        arr = np.asarray(data)  # rows x runs x verdicts
        judge = (arr.var(axis=2, ddof=1).mean()) if verdicts > 1 else None
        run_means = arr.mean(axis=2)
        agent = max(0.0, run_means.var(axis=1, ddof=1).mean() - (judge or 0) / verdicts) if runs > 1 else None
        row_means = run_means.mean(axis=1)
        between = max(0.0, row_means.var(ddof=1) - (agent or 0) / runs - (judge or 0) / (runs * verdicts))
        out.append({"rows": [[[float(v) for v in run] for run in row] for row in data],
                    "judge": None if judge is None else float(judge), "agent": None if agent is None else float(agent),
                    "between": float(between)})
    return out


def main():
    tables = {
        "made_with": {"scipy": scipy.__version__, "statsmodels": statsmodels.__version__, "numpy": np.__version__},
        "wilson": wilson_cases(), "wilcoxon": wilcoxon_cases(), "mcnemar": mcnemar_cases(), "holm": holm_cases(),
        "power": power_cases(), "passk": passk_cases(), "bootstrap": bootstrap_cases(), "noise": noise_cases(),
    }
    OUT.write_text(json.dumps(tables, indent=1, allow_nan=False) + "\n", encoding="utf-8")  # NaN written as null
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
