"""How far several judges agree: Krippendorff's alpha and Fleiss' kappa, as pure functions.

A judge panel (several judge configs on one evaluator) is only worth its cost when its
judges agree more than chance; when they do not, a run-level PASS/FAIL built on their
verdicts says more about the judges than about the agent. These two coefficients are the
ones annotation studies report, so a user can compare a panel with published figures:

* :func:`krippendorff_alpha`: any number of judges, missing verdicts allowed, and a
  distance that fits the data (``"nominal"`` for labels, ``"ordinal"`` for ranks such as
  a 1-5 Likert score read as ranks, ``"interval"`` for scores whose differences mean
  something). The form with a coincidence matrix (Krippendorff 2011, "Computing
  Krippendorff's Alpha-Reliability").
* :func:`fleiss_kappa`: categorical verdicts (pass/fail, labels) where every unit was
  rated by the same number of judges (Fleiss 1971).

Both return ``None`` where the coefficient is undefined (no unit with two verdicts, or
every verdict the same value, so chance agreement is already perfect): an undefined
agreement is reported as such, never as 0 or 1. Checked against the ``krippendorff``
package and statsmodels' ``fleiss_kappa`` (``tests/stats/test_agreement.py``).
"""

import math
from collections import Counter
from typing import Any, Dict, Hashable, List, Optional, Sequence

__all__ = ["krippendorff_alpha", "fleiss_kappa", "LEVELS", "chance_note", "kappa_text"]

#: a κ below this (near 0, or negative) is agreement that chance alone would give
CHANCE_KAPPA = 0.1


def chance_note(kappa: Optional[float]) -> Optional[str]:
    """``"no better than chance"`` for a κ near 0 or below (:data:`CHANCE_KAPPA`), else ``None``: the one
    wording every place that shows a κ uses (calibrate, a run's judge calibration and panel agreement, the
    HTML report), so a κ of 0.03 never reads as a small but real agreement in one place and not another."""
    return "no better than chance" if kappa is not None and kappa < CHANCE_KAPPA else None


def kappa_text(kappa: Optional[float], digits: int = 2, missing: str = "undefined") -> str:
    """A κ as shown: ``0.81``, ``0.03 (no better than chance)``, or ``missing``."""
    if kappa is None:
        return missing
    note = chance_note(kappa)
    return f"{kappa:.{digits}f}" + (f" ({note})" if note else "")

#: the levels of measurement :func:`krippendorff_alpha` knows
LEVELS = ("nominal", "ordinal", "interval")


def _present(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def krippendorff_alpha(units: Sequence[Sequence[Any]], level: str = "interval") -> Optional[float]:
    """Krippendorff's alpha over ``units``: one sequence of verdicts per unit (a row), one
    entry per judge, ``None`` or NaN where that judge gave none.

    Units with fewer than two verdicts carry no information about agreement and are left
    out, as the coefficient prescribes. ``level`` is one of :data:`LEVELS`; values must be
    numbers for ``"interval"`` and orderable for ``"ordinal"``.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    pairable = [[v for v in unit if _present(v)] for unit in units]
    pairable = [values for values in pairable if len(values) >= 2]
    if not pairable:
        return None
    coincidence: Dict[Any, Dict[Any, float]] = {}
    for values in pairable:
        counts = Counter(values)
        weight = 1.0 / (len(values) - 1)
        for c, nc in counts.items():
            row = coincidence.setdefault(c, {})
            for k, nk in counts.items():
                pairs = nc * (nk - 1) if c == k else nc * nk
                if pairs:
                    row[k] = row.get(k, 0.0) + pairs * weight
    domain = sorted(coincidence)
    if len(domain) < 2:
        return None
    marginal = {c: math.fsum(coincidence[c].values()) for c in domain}
    total = math.fsum(marginal.values())
    distance = _distance(level, domain, marginal)
    observed = math.fsum(o * distance(c, k) for c in domain for k, o in coincidence[c].items())
    expected = math.fsum(marginal[c] * marginal[k] * distance(c, k) for c in domain for k in domain)
    if expected == 0:
        return None
    return 1.0 - (total - 1) * observed / expected


def _distance(level: str, domain: List[Any], marginal: Dict[Any, float]) -> Any:
    """The squared difference function δ² of ``level`` over the values seen."""
    if level == "nominal":
        return lambda c, k: 0.0 if c == k else 1.0
    if level == "interval":
        return lambda c, k: (float(c) - float(k)) ** 2
    # ordinal: the ranks between c and k, counted by how often each value was given
    cumulative: Dict[Any, float] = {}
    running = 0.0
    for value in domain:
        cumulative[value] = running  # sum of marginals below value
        running += marginal[value]

    def ordinal(c: Any, k: Any) -> float:
        if c == k:
            return 0.0
        low, high = (c, k) if c < k else (k, c)
        between = cumulative[high] + marginal[high] - cumulative[low]
        return (between - (marginal[low] + marginal[high]) / 2.0) ** 2

    return ordinal


def fleiss_kappa(units: Sequence[Sequence[Hashable]]) -> Optional[float]:
    """Fleiss' kappa over ``units``: the categorical verdicts (labels, ``"pass"``/``"fail"``)
    each unit got, one per judge.

    The coefficient assumes every unit was rated by the same number of judges: units with a
    missing verdict (``None``) are left out, and so is every unit with fewer verdicts than
    the most any unit got. ``None`` when fewer than two judges rated a unit, or when every
    verdict is the same category (chance agreement is then already perfect).
    """
    rated = [[v for v in unit if _present(v)] for unit in units]
    raters = max((len(values) for values in rated), default=0)
    if raters < 2:
        return None
    full = [Counter(values) for values in rated if len(values) == raters]
    categories = sorted({c for counts in full for c in counts}, key=repr)
    if len(categories) < 2:
        return None
    n_units = len(full)
    share = {c: math.fsum(counts.get(c, 0) for counts in full) / (n_units * raters) for c in categories}
    observed = math.fsum(
        (math.fsum(n * n for n in counts.values()) - raters) / (raters * (raters - 1)) for counts in full
    ) / n_units
    chance = math.fsum(p * p for p in share.values())
    return (observed - chance) / (1.0 - chance)
