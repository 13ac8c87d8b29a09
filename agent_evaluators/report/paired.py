"""Did it get worse? Two runs over the same rows, paired by row, one verdict per metric.

The one comparison engine: ``agent-eval compare``, :func:`agent_evaluators.compare_runs` and the
HTML report's compare view all read :func:`compare_runs`' :class:`Comparison`. It only reads run
folders and calls the pure functions of :mod:`agent_evaluators.stats`.

Per metric (an evaluator's score ``<alias>.<key>``, or its ``<alias>.pass_rate``):

* rows are paired by row id (the data line, or the ``id`` / ``eval_id`` column where rows have one,
  or a column the caller names); rows in one run only are counted, never silently dropped;
* ``diff`` = mean_b - mean_a over the pairs, with a 95% paired-bootstrap interval;
* the test: exact McNemar for pass/fail, Wilcoxon signed-rank (scipy's defaults) for scores;
  ``p_adjusted`` is Holm's over the metrics compared;
* the verdict: ``regressed`` when ``p_adjusted < alpha`` and the whole interval is on the worse side
  of 0 (below for higher-is-better metrics, above for lower-is-better ones), ``improved`` the other
  way, ``no_change`` when the whole interval lies within +-``min_effect`` (default 0.05 on 0-1 scales,
  0.25 on 1-5 scales), else ``inconclusive``, with the smallest effect these pairs could detect.
"""

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..errors import InputError
from ..stats.intervals import DEFAULT_LEVEL, bootstrap_mean
from ..stats.multiple import holm
from ..stats.paired_tests import mcnemar_exact, wilcoxon
from ..stats.power import detectable_effect
from .direction import LOWER, metric_direction
from .load import RunData, cell_status, row_key

VERDICTS = ("improved", "regressed", "no_change", "inconclusive")
JSON_FIELDS = ("metric", "n_pairs", "mean_a", "mean_b", "diff", "ci_low", "ci_high", "p_value", "p_adjusted", "test",
               "verdict")


@dataclass
class MetricComparison:
    """One metric of two runs, paired; ``diff`` is B minus A."""

    metric: str
    n_pairs: int
    mean_a: Optional[float]
    mean_b: Optional[float]
    diff: Optional[float]
    ci_low: Optional[float]
    ci_high: Optional[float]
    p_value: Optional[float]
    p_adjusted: Optional[float]
    test: str
    verdict: str
    direction: str = "higher"
    min_effect: float = 0.05
    detectable_effect: Optional[float] = None
    level: float = DEFAULT_LEVEL

    def as_json(self) -> Dict[str, Any]:
        """The fields ``--json`` prints (NaN as null), then the ones that explain the verdict."""
        out = {k: _finite(v) for k, v in asdict(self).items()}
        return {**{k: out[k] for k in JSON_FIELDS}, **{k: v for k, v in out.items() if k not in JSON_FIELDS}}


@dataclass
class Comparison:
    """Every compared metric, the rows each run has alone, and the cells whose verdict flipped."""

    a: str
    b: str
    metrics: List[MetricComparison]
    n_pairs: int
    unpaired_a: int
    unpaired_b: int
    alpha: float
    flips: List[Dict[str, Any]] = field(default_factory=list)

    @property
    def regressed(self) -> List[MetricComparison]:
        return [m for m in self.metrics if m.verdict == "regressed"]


def _finite(v: Any) -> Any:
    return None if isinstance(v, float) and not math.isfinite(v) else v


def _pair_key(row: Mapping[str, Any], key: Optional[str]) -> str:
    if key is None:
        return row_key(row)
    value = row.get(f"inputs.{key}")
    if value is None or isinstance(value, (dict, list)):
        raise InputError(f"compare: row {row.get('line_number')} has no usable '{key}' column to pair rows by; "
                         f"name a column every row has (--key COLUMN), or leave --key out to pair by data line")
    return str(value)


def _index(run: RunData, key: Optional[str]) -> Dict[str, Mapping[str, Any]]:
    out: Dict[str, Mapping[str, Any]] = {}
    for row in run.rows:
        k = _pair_key(row, key)
        if k in out:
            how = f"column '{key}'" if key else "row id"
            raise InputError(f"compare: two rows of {run.path} share the {how} {k!r}, so rows cannot be paired; "
                             "name a column whose values are unique (--key COLUMN)")
        out[k] = row
    return out


def cell_value(row: Mapping[str, Any], alias: str, key: str) -> Optional[float]:
    """A cell's number for the comparison: 1/0 for pass_rate, the score otherwise; None when not scored."""
    status = cell_status(row, alias)
    if key == "pass_rate":
        return 1.0 if status == "pass" else 0.0 if status == "fail" else None
    if status in ("error", "not_applicable"):
        return None
    v = row.get(f"outputs.{alias}.{key}")
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        return None  # NaN / inf: no difference to take
    return float(v)


def default_metrics(a: RunData, b: RunData) -> List[str]:
    """Each evaluator both runs have: its score, then its pass rate."""
    out = []
    for alias in [x for x in b.aliases if x in a.aliases]:
        key = b.result_key(alias) or a.result_key(alias)
        if key:
            out.append(f"{alias}.{key}")
        out.append(f"{alias}.pass_rate")
    return out


def default_min_effect(metric: str, run: RunData) -> float:
    """0.05 on a 0-1 scale (and for pass rates), 0.25 on a 1-5 scale: 1/16 of a wider scale."""
    alias, _, key = metric.partition(".")
    if key == "pass_rate":
        return 0.05
    scale = run.score_scale(alias)
    if scale is None:
        return 0.05
    width = scale[1] - scale[0]
    return 0.05 if width <= 1 else width / 16


def check_metric(metric: str, a: RunData, b: RunData) -> Tuple[str, str]:
    alias, dot, key = metric.partition(".")
    if not dot or alias not in a.aliases or alias not in b.aliases:
        both = sorted(set(a.aliases) & set(b.aliases))
        raise InputError(f"compare: metric {metric!r} names no evaluator both runs have; write ALIAS.METRIC with "
                         f"ALIAS one of {both} (e.g. {default_metrics(a, b)[:2]})")
    return alias, key


def _one(metric: str, pairs: Sequence[Tuple[float, float]], level: float) -> MetricComparison:
    alias, _, key = metric.partition(".")
    n = len(pairs)
    if not n:
        return MetricComparison(metric, 0, None, None, None, None, None, math.nan, math.nan,
                                "mcnemar-exact" if key == "pass_rate" else "wilcoxon", "inconclusive")
    diffs = [bv - av for av, bv in pairs]
    mean_a = math.fsum(av for av, _ in pairs) / n
    mean_b = math.fsum(bv for _, bv in pairs) / n
    ci = bootstrap_mean(diffs, level)
    assert ci is not None
    if key == "pass_rate":
        res = mcnemar_exact(sum(1 for av, bv in pairs if av > bv), sum(1 for av, bv in pairs if bv > av))
    else:
        res = wilcoxon(diffs)
    return MetricComparison(metric, n, mean_a, mean_b, mean_b - mean_a, ci.low, ci.high, res.p_value, math.nan,
                            res.method, "inconclusive", level=level)


def _verdict(m: MetricComparison, alpha: float) -> str:
    if not m.n_pairs or m.ci_low is None or m.ci_high is None:
        return "inconclusive"
    worse_below = m.direction != LOWER
    significant = m.p_adjusted is not None and m.p_adjusted == m.p_adjusted and m.p_adjusted < alpha
    if significant and m.ci_high < 0:
        return "regressed" if worse_below else "improved"
    if significant and m.ci_low > 0:
        return "improved" if worse_below else "regressed"
    if -m.min_effect <= m.ci_low and m.ci_high <= m.min_effect:
        return "no_change"
    return "inconclusive"


def _sd(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    mu = math.fsum(values) / len(values)
    return math.sqrt(math.fsum((v - mu) ** 2 for v in values) / (len(values) - 1))


def compare_loaded(a: RunData, b: RunData, *, metrics: Optional[Sequence[str]] = None, alpha: float = 0.05,
                   min_effect: Optional[float] = None, key: Optional[str] = None,
                   level: float = DEFAULT_LEVEL) -> Comparison:
    """:func:`agent_evaluators.compare_runs` on two loaded runs (see the module docstring)."""
    if not 0 < alpha < 1:
        raise InputError(f"compare: alpha must be between 0 and 1, got {alpha}; the usual value is 0.05")
    if min_effect is not None and (min_effect < 0 or min_effect != min_effect):
        raise InputError(f"compare: min_effect must be >= 0, got {min_effect}")
    names = list(metrics) if metrics else default_metrics(a, b)
    ia, ib = _index(a, key), _index(b, key)
    shared = [k for k in ib if k in ia]
    out: List[MetricComparison] = []
    for metric in names:
        alias, mkey = check_metric(metric, a, b)
        pairs = []
        for k in shared:
            va, vb = cell_value(ia[k], alias, mkey), cell_value(ib[k], alias, mkey)
            if va is not None and vb is not None:
                pairs.append((va, vb))
        m = _one(metric, pairs, level)
        m.direction = metric_direction(metric) or "higher"
        m.min_effect = min_effect if min_effect is not None else default_min_effect(metric, b)
        m.detectable_effect = detectable_effect(_sd([bv - av for av, bv in pairs]), len(pairs), 0.8, alpha)
        out.append(m)
    for m, p in zip(out, holm([m.p_value if m.p_value is not None else math.nan for m in out])):
        m.p_adjusted = p
        m.verdict = _verdict(m, alpha)
    return Comparison(a=str(a.path), b=str(b.path), metrics=out, n_pairs=len(shared),
                      unpaired_a=len(ia) - len(shared), unpaired_b=len(ib) - len(shared), alpha=alpha,
                      flips=flipped_rows(ia, ib, shared, [x for x in b.aliases if x in a.aliases]))


def by_effect(metrics: Sequence[MetricComparison]) -> List[MetricComparison]:
    """The metrics largest change first, for the compare views (terminal and HTML): ``|B-A|`` in units of
    the metric's ``min_effect``, so a 1-5 score and a pass rate rank on one footing; a metric with no
    difference (nothing paired) last; ties keep the order asked for."""
    def size(m: MetricComparison) -> float:
        if m.diff is None:
            return -1.0
        return abs(m.diff) / m.min_effect if m.min_effect else abs(m.diff)

    return sorted(metrics, key=size, reverse=True)


def flipped_rows(ia: Mapping[str, Mapping[str, Any]], ib: Mapping[str, Mapping[str, Any]], shared: Sequence[str],
                 aliases: Sequence[str]) -> List[Dict[str, Any]]:
    """The cells whose verdict differs between the two runs (pass -> fail, ok -> error, ...)."""
    flips = []
    for k in shared:
        old, row = ia[k], ib[k]
        for alias in aliases:
            before, after = cell_status(old, alias), cell_status(row, alias)
            if before != after and "none" not in (before, after):
                flips.append({"row": k, "line": row.get("line_number"), "alias": alias, "before": before,
                              "after": after})
    return flips
