"""Make ``agreement_table.json``: reference values of Krippendorff's alpha and Fleiss' kappa.

Run once, in a throw-away virtualenv (the package itself never imports these)::

    python3 -m venv /tmp/statsvenv && /tmp/statsvenv/bin/pip install krippendorff==0.9.0 statsmodels==0.15.0 numpy==2.4.6 scipy
    /tmp/statsvenv/bin/python tests/stats/make_agreement_tables.py

The cases are fixed (a seeded generator plus hand-written edge cases: ties, all-equal
verdicts, one unit, no units, missing and NaN verdicts); the expected values are what
``krippendorff.alpha`` and ``statsmodels.stats.inter_rater.fleiss_kappa`` return, ``None``
where they refuse (one value in the domain) or return NaN.
"""

import json
import math
import random
from importlib.metadata import version
from pathlib import Path

import krippendorff
import numpy as np
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

OUT = Path(__file__).with_name("agreement_table.json")


def alpha_reference(units, level):
    raters = max((len(u) for u in units), default=0)
    data = np.full((raters, len(units)), np.nan)
    for j, unit in enumerate(units):
        for i, v in enumerate(unit):
            if v is not None:
                data[i, j] = v
    try:
        value = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    except (ValueError, ZeroDivisionError):
        return None
    return None if value is None or math.isnan(value) else float(value)


def kappa_reference(units):
    rated = [[v for v in u if v is not None] for u in units]
    raters = max((len(u) for u in rated), default=0)
    full = [u for u in rated if len(u) == raters]
    if raters < 2 or not full or len({v for u in full for v in u}) < 2:
        return None
    table, _ = aggregate_raters(np.array(full))
    with np.errstate(all="ignore"):
        value = fleiss_kappa(table, method="fleiss")
    return None if math.isnan(value) else float(value)


def cases():
    rng = random.Random(20261125)
    out = []
    for i in range(40):  # Likert 1-5 panels of 2-4 judges, some verdicts missing
        judges, n = rng.randint(2, 4), rng.randint(2, 30)
        units = []
        for _ in range(n):
            truth = rng.randint(1, 5)
            units.append([None if rng.random() < 0.1 else min(5, max(1, truth + rng.choice((-1, 0, 0, 0, 1))))
                          for _ in range(judges)])
        out.append({"name": f"likert_{i}", "units": units})
    for i in range(20):  # 0-1 shares (continuous scores)
        judges, n = rng.randint(2, 3), rng.randint(3, 25)
        units = [[round(rng.random(), 3) for _ in range(judges)] for _ in range(n)]
        out.append({"name": f"share_{i}", "units": units})
    for i in range(20):  # pass/fail as 0/1
        judges, n = rng.randint(2, 5), rng.randint(2, 40)
        units = []
        for _ in range(n):
            truth = rng.random() < 0.6
            units.append([int(truth if rng.random() < 0.85 else not truth) for _ in range(judges)])
        out.append({"name": f"binary_{i}", "units": units})
    out += [
        {"name": "perfect_agreement", "units": [[1, 1], [5, 5], [3, 3]]},
        {"name": "all_equal", "units": [[4, 4, 4], [4, 4, 4]]},
        {"name": "one_unit", "units": [[1, 2, 2]]},
        {"name": "one_unit_equal", "units": [[3, 3]]},
        {"name": "no_units", "units": []},
        {"name": "singletons_only", "units": [[1, None], [None, 2]]},
        {"name": "ties_everywhere", "units": [[1, 2], [2, 1], [1, 2], [2, 1]]},
        {"name": "nan_as_missing", "units": [[1, None, 2], [2, 2, None], [3, 3, 3], [None, 1, 1]]},
        {"name": "systematic_disagreement", "units": [[1, 5], [1, 5], [2, 4], [5, 1]]},
    ]
    return out


def main():
    table = {"made_with": {name: version(name) for name in ("krippendorff", "statsmodels", "numpy")}, "cases": []}
    for case in cases():
        units = case["units"]
        case["alpha"] = {level: alpha_reference(units, level) for level in ("nominal", "ordinal", "interval")}
        case["fleiss_kappa"] = kappa_reference(units)
        table["cases"].append(case)
    lines = ",\n".join(json.dumps(case) for case in table["cases"])
    OUT.write_text('{"made_with": %s,\n"cases": [\n%s\n]}\n' % (json.dumps(table["made_with"]), lines))
    print(f"wrote {len(table['cases'])} cases to {OUT}")


if __name__ == "__main__":
    main()
