"""Metrics and usage totals, accumulated row by row so memory does not grow with the run.

Per evaluator alias:

* ``<alias>.<key>``: mean over *scored* cells of every numeric output key
  (``*_threshold`` and bools excluded); error and not-applicable cells never
  enter a mean, and an error is never a 0 or a fail;
* ``<alias>.pass_rate``: share of scored cells whose ``*_result`` values are all
  ``"pass"`` (cells without a pass/fail result are left out);
* ``<alias>.n`` (scored cells), ``<alias>.error_count``, ``<alias>.not_applicable_count``;
* ``<alias>.not_run_count``: cells a run's budget left unrun (``<key>_result: "not_run"``, see
  :mod:`agent_evaluators.judge.caps`), in a run with a cap or with such cells; like errors, they
  enter no mean and no pass rate;
* with ``num_runs > 1``: ``<alias>.<key>_std`` (population standard deviation of the
  per-run means, i.e. how much the headline number moves between runs),
  ``<alias>.pass_rate_run_<i>`` for runs ``i = 1..num_runs``, and ``<alias>.pass_at_<k>`` /
  ``<alias>.pass_hat_<k>`` (pass@k, pass^k: the unbiased estimators over each row's runs, averaged
  over rows, :mod:`agent_evaluators.stats.passk`) for ``k = 1..num_runs``.

:meth:`AliasStats.intervals` gives each mean and pass rate its 95% interval for ``summary.json``
(Wilson for pass rates, a seeded bootstrap over rows for means, over rows and repetitions with
``num_runs > 1``); the per-row values it needs are kept as 8-byte floats, so the hot path only
appends a number.

Means do not depend on the order rows finish in: each total is kept exactly (Shewchuk's
partials, what :func:`math.fsum` uses) and rounded once, so a rerun, a resume or a
Ray run of the same rows reports the same last digits.

Usage totals sum every ``*_usage`` dict of an alias's cells (error cells too: a
failed judge call was still paid for); a count some call did not report stays
``None`` (unknown), never 0. A cell in another result shape (the compatibility wing's rows)
has no ``*_usage``: made in this run, it carries its usage record as ``judge_usage``
(:class:`agent_evaluators.azure._row.AzureRow`); read back from ``rows.jsonl`` (kept by a resume), its
token counts and model come from its ``*_properties`` (:func:`properties_usage`) and its call count is unknown.
"""

import logging
import math
from array import array
from collections.abc import Mapping  # not typing.Mapping: isinstance() against it is 3x slower
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ..judge.prices import cost_usd, price_for
from ..stats.intervals import bootstrap_mean, finite_mean, normal_mean, squared_deviations, wilson
from ..stats.noise import split_variance
from ..stats.passk import mean_over_rows

logger = logging.getLogger("agent_evaluators.runner")

_NUM = (int, float)

#: the metrics every alias gets besides its score means (see :meth:`AliasStats.metrics`)
COUNT_METRICS = ("pass_rate", "n", "error_count", "not_applicable_count", "not_run_count")
#: the pass rate corrected for the judge's errors, present where people's labels certified the judge
#: (the calibration wing adds it at the end of a run: ``certification`` run option)
CORRECTED_PASS_RATE = "corrected_pass_rate"


def known_metric(metric: str, result_key: Union[str, Sequence[str]]) -> bool:
    """Whether ``<alias>.<metric>`` can exist for an evaluator whose only number is ``result_key``
    (every :class:`~agent_evaluators.evaluators.base.Evaluator`), or one of ``result_key``'s keys
    (a composite: its own and its members'): checked before a run, so that a misspelt threshold
    fails before any judge is paid. (A run with ``azure_compat`` has 1.18's names too: the
    threshold check asks that wing.)"""
    keys = (result_key,) if isinstance(result_key, str) else tuple(result_key)
    if metric in COUNT_METRICS or metric == CORRECTED_PASS_RATE or any(metric in (key, f"{key}_std") for key in keys):
        return True
    head, _, run = metric.rpartition("_")
    return head in ("pass_rate_run", "pass_at", "pass_hat") and run.isdigit()


def cell_runs(cell: Mapping[str, Any], result_key: Optional[str]) -> Optional[List[Mapping[str, Any]]]:
    """The per-run results a ``num_runs > 1`` cell keeps in its details."""
    if result_key:
        details = cell.get(f"{result_key}_details")
        if details is None:  # a cell in another result shape keeps them in its properties
            details = cell.get(f"{result_key}_properties")
        runs = details.get("runs") if isinstance(details, Mapping) else None
    else:
        runs = cell.get("runs")
    return runs if isinstance(runs, list) else None


_ABSENT = object()

#: the end-of-run bootstrap: 1,000 resamples, and the normal interval past 500,000 draws (500 rows),
#: so a run's summary costs at most ~0.1 s per mean (bench/bench_evaluate.py --quick keeps it honest)
SUMMARY_RESAMPLES = 1000
SUMMARY_MAX_DRAWS = 500_000


class ExactSum:
    """A running sum whose result does not depend on the order of the values added.

    Plain ``+=`` rounds after every addition, so the last digits of a mean depended on
    which row finished first. This keeps the sum exactly as a few non-overlapping float
    partials (Shewchuk's algorithm, the one :func:`math.fsum` runs over a whole list) and
    rounds once when read, in constant memory. Infinities are kept apart (their sum is
    order-free already; the partials cannot hold them). Where the sum would pass float's range
    (two scores of 1.5e308) the partials are kept scaled down by ``2**-SHIFT`` (exact for all but
    values too small to matter beside such a sum): the mean is still a float, the sum is ``inf``.
    """

    __slots__ = ("partials", "count", "special", "shift")

    #: the scaling exponent once a sum nears float's range, and where that is
    SHIFT = 600
    _NEAR_RANGE = 2.0 ** 1020

    def __init__(self) -> None:
        self.partials: List[float] = []
        self.count = 0
        self.special = 0.0
        self.shift = 0

    def add(self, x: float) -> None:
        self.count += 1
        if type(x) is not float:
            try:
                x = float(x)
            except OverflowError:  # an int past float's range
                x = math.inf if x > 0 else -math.inf
        if not math.isfinite(x):
            self.special += x
            return
        if self.shift:
            x = math.ldexp(x, -self.shift)
        elif abs(x) > self._NEAR_RANGE or (self.partials and abs(self.partials[-1]) > self._NEAR_RANGE):
            self._scale_down()
            x = math.ldexp(x, -self.shift)
        self._add(x)

    def _add(self, x: float) -> None:
        partials = self.partials
        i = 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials[i] = lo
                i += 1
            x = hi
        partials[i:] = [x]

    def _scale_down(self) -> None:
        old, self.partials, self.shift = self.partials, [], self.SHIFT
        for p in old:
            self._add(math.ldexp(p, -self.SHIFT))

    def merge(self, other: "ExactSum") -> None:
        """Fold in another part's sum (a Ray shard's): still exact, still order-free."""
        count = self.count + other.count
        if other.shift and not self.shift:
            self._scale_down()
        for x in other.partials:
            if self.shift == other.shift:
                self._add(x)
            else:  # this sum is scaled, the other's is not
                self.add(x)
        self.special += other.special
        self.count = count

    def _scaled_total(self) -> float:
        try:
            return math.fsum(self.partials)
        except (OverflowError, ValueError):  # a sum past float's range
            return sum(self.partials)

    @property
    def total(self) -> float:
        if self.special:
            return self.special
        total = self._scaled_total()
        try:
            return math.ldexp(total, self.shift) if self.shift else total
        except OverflowError:
            return math.copysign(math.inf, total)

    @property
    def overflows(self) -> bool:
        """Whether the finite values' sum is past float's range (their mean is still a float)."""
        return not self.special and math.isinf(self.total)

    def mean(self) -> float:
        if self.shift and not self.special:
            try:
                return math.ldexp(self._scaled_total() / self.count, self.shift)
            except OverflowError:
                return math.copysign(math.inf, self._scaled_total())
        return self.total / self.count


#: the usage keys a 1.18-shaped ``*_properties`` dict carries
_PROPERTIES_USAGE = ("prompt_tokens", "completion_tokens", "model")


def properties_usage(properties: Mapping[str, Any]) -> Optional[Dict[str, Any]]:
    """The usage record inside a 1.18-shaped ``*_properties`` dict (token counts and model),
    or ``None`` when it has none (a deterministic metric's properties)."""
    if "prompt_tokens" not in properties:
        return None
    usage = {k: properties.get(k) for k in _PROPERTIES_USAGE}
    usage["judge_calls"] = None  # not in a 1.18 row (a kept row of a resumed run): unknown, never 0
    model = usage.get("model")
    usage["cost_usd"] = cost_usd(usage, price_for(model if isinstance(model, str) else None))
    return usage


def run_cost(usage: Mapping[str, Optional[Mapping[str, Any]]]) -> Optional[float]:
    """The whole run's judge cost: the aliases' ``cost_usd`` summed (0.0 when nothing called a judge);
    unknown (``None``) when any judged alias's is, so an unknown price never reads as free."""
    total = 0.0
    for u in usage.values():
        if not u:
            continue
        if u.get("cost_usd") is None:
            return None
        total += u["cost_usd"]
    return round(total, 12)


def add_usage(total: Dict[str, Any], usage: Mapping[str, Any]) -> None:
    """Fold one usage record into ``total`` (numbers summed, unknown stays unknown, labels joined)."""
    for k, v in usage.items():
        cur = total.get(k, _ABSENT)
        if cur is _ABSENT:
            total[k] = dict(v) if isinstance(v, Mapping) else v
            continue
        tc, tv = type(cur), type(v)
        if (tc is int or tc is float) and (tv is int or tv is float):  # the usual cases, first
            total[k] = cur + v
        elif (tc is str and cur == v) or (cur is None and v is None):  # a label that agrees; unknown stays unknown
            pass
        else:
            _add_other(total, k, cur, v)


def _add_other(total: Dict[str, Any], k: str, cur: Any, v: Any) -> None:
    """:func:`add_usage` for one key whose values are not two plain numbers."""
    if isinstance(cur, _NUM) and not isinstance(cur, bool) and isinstance(v, _NUM) and not isinstance(v, bool):
        total[k] = cur + v
    elif cur is None or v is None:
        other = v if cur is None else cur
        if isinstance(other, Mapping):
            total[k] = dict(other)
        else:
            total[k] = other if isinstance(other, str) else None  # unknown + number = unknown
    elif isinstance(cur, str) and isinstance(v, str):
        if v not in cur.split(","):
            total[k] = ",".join(sorted(set(cur.split(",")) | {v}))
    elif isinstance(cur, dict) and isinstance(v, Mapping):
        add_usage(cur, v)


def _classify(cell: Mapping[str, Any]) -> str:
    """"scored" or "not_applicable" for a cell that did not error."""
    results = [v for k, v in cell.items() if k.endswith("_result") and isinstance(v, str)]
    if results and all(r == "not_applicable" for r in results):
        return "not_applicable"
    return "scored"


def _passed(cell: Mapping[str, Any]) -> Optional[bool]:
    verdicts = [v for k, v in cell.items() if k.endswith("_result") and v in ("pass", "fail")]
    if not verdicts:
        return None
    return all(v == "pass" for v in verdicts)


def _numeric_items(cell: Mapping[str, Any]):
    for k, v in cell.items():
        if type(v) in _NUM and not k.endswith("_threshold") and not (type(v) is float and math.isnan(v)):
            yield k, v


class AliasStats:
    """Running totals for one evaluator alias."""

    __slots__ = ("result_key", "n", "errors", "na", "passes", "pass_den", "sums", "usage", "runs", "num_runs",
                 "values", "reps", "row_passes", "details_key", "usage_key", "panel", "not_run", "budgeted")

    def __init__(self, result_key: Optional[str], num_runs: int = 1) -> None:
        self.result_key = result_key
        self.details_key = f"{result_key}_details" if result_key else "details"
        self.usage_key = f"{result_key}_usage" if result_key else None
        #: a judge panel's verdicts (:class:`~.panel_votes.PanelVotes`), made when the first panel cell comes
        self.panel: Any = None
        self.num_runs = num_runs
        self.n = self.errors = self.na = self.passes = self.pass_den = self.not_run = 0
        #: the run has a budget cap: ``not_run_count`` is reported even when it is 0
        self.budgeted = False
        self.sums: Dict[str, ExactSum] = {}
        self.usage: Optional[Dict[str, Any]] = None
        # per run: [passes, pass_den, {key: ExactSum}]
        self.runs: List[List[Any]] = [[0, 0, {}] for _ in range(num_runs)] if num_runs > 1 else []
        # per scored cell, for the intervals: each key's value; with runs, each key's per-run values and
        # (runs with a verdict, runs passed) for pass@k
        self.values: Dict[str, "array[float]"] = {}
        self.reps: Dict[str, List[Tuple[float, ...]]] = {}
        self.row_passes: List[Tuple[int, int]] = []

    def add(self, cell: Mapping[str, Any], ok: bool) -> None:
        # one pass over the cell (this runs once per row and evaluator): usage, verdicts, numbers
        results: List[str] = []
        numbers: List[Any] = []
        # a composite's own usage already sums its members' (their ``<member>_usage`` keys would count twice);
        # a 1.18 row made in this run carries the whole usage of its judge calls beside its token counts
        own_usage = getattr(cell, "judge_usage", None) or (cell.get(self.usage_key) if self.usage_key else None)
        if type(own_usage) is dict or isinstance(own_usage, Mapping):
            self.usage = {} if self.usage is None else self.usage
            add_usage(self.usage, own_usage)
        for k, v in cell.items():
            if v is own_usage:  # folded in above
                continue
            t = type(v)
            if t is int or t is float:  # not bool: a flag is not a metric
                if not k.endswith("_threshold") and v == v:  # v != v: NaN
                    numbers.append((k, v))
            elif t is str:  # the usual cell's other values first: its result and reason, its details
                if k.endswith("_result"):
                    results.append(v)
            elif v is None or (t is dict and not k.endswith("_usage") and not k.endswith("_properties")):
                continue
            elif isinstance(v, str):
                if k.endswith("_result"):
                    results.append(v)
            elif k.endswith("_usage") and isinstance(v, Mapping):
                if own_usage is not None:
                    continue
                if self.usage is None:
                    self.usage = {}
                add_usage(self.usage, v)
            elif k.endswith("_properties") and isinstance(v, Mapping):
                if own_usage is not None:
                    continue
                usage = properties_usage(v)
                if usage is not None:
                    if self.usage is None:
                        self.usage = {}
                    add_usage(self.usage, usage)
        if not ok:
            self.errors += 1
            return
        # list.count, not all() over a generator: this runs once per row and evaluator
        if results and results.count("not_applicable") == len(results):
            self.na += 1
            return
        if "not_run" in results:
            self.not_run += 1
            return
        self.n += 1
        details = cell.get(self.details_key)
        if type(details) is dict and ("panel" in details or "runs" in details):
            self._add_panel(details)
        failed = results.count("fail")
        if failed or "pass" in results:  # a pass/fail verdict: passed when none of them failed
            self.pass_den += 1
            self.passes += not failed
        sums = self.sums
        values = self.values
        for k, v in numbers:
            acc = sums.get(k)
            if acc is None:
                acc = sums[k] = ExactSum()
                values[k] = array("d")
            acc.add(v)
            values[k].append(v)
        if self.runs:
            self._add_runs(cell_runs(cell, self.result_key) or [])

    def _add_runs(self, runs: List[Mapping[str, Any]]) -> None:
        per_key: Dict[str, List[float]] = {}
        judged = passed = 0
        for i, run in enumerate(runs[: self.num_runs]):
            if not isinstance(run, Mapping) or _classify(run) == "not_applicable":
                continue
            slot = self.runs[i]
            p = _passed(run)
            if p is not None:
                slot[1] += 1
                slot[0] += p
                judged += 1
                passed += p
            for k, v in _numeric_items(run):
                slot[2].setdefault(k, ExactSum()).add(v)
                per_key.setdefault(k, []).append(float(v))
        for k, vs in per_key.items():
            self.reps.setdefault(k, []).append(tuple(vs))
        if judged:
            self.row_passes.append((judged, passed))

    def _add_panel(self, details: Mapping[str, Any]) -> None:
        from .panel_votes import PanelVotes

        if self.panel is None:
            self.panel = PanelVotes()
        self.panel.add(details)

    def merge(self, other: "AliasStats") -> None:
        """Fold in the totals of another part of the same run (a shard evaluated elsewhere)."""
        if other.panel is not None:
            if self.panel is None:
                self.panel = other.panel
            else:
                self.panel.merge(other.panel)
        self.n += other.n
        self.errors += other.errors
        self.na += other.na
        self.not_run += other.not_run
        self.passes += other.passes
        self.pass_den += other.pass_den
        for k, part in other.sums.items():
            self.sums.setdefault(k, ExactSum()).merge(part)
        if other.usage is not None:
            if self.usage is None:
                self.usage = {}
            add_usage(self.usage, other.usage)
        for k, vals in other.values.items():
            self.values.setdefault(k, array("d")).extend(vals)
        for k, reps in other.reps.items():
            self.reps.setdefault(k, []).extend(reps)
        self.row_passes.extend(other.row_passes)
        for mine, theirs in zip(self.runs, other.runs):
            mine[0] += theirs[0]
            mine[1] += theirs[1]
            for k, part in theirs[2].items():
                mine[2].setdefault(k, ExactSum()).merge(part)

    def metrics(self, alias: str) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for k, acc in self.sums.items():
            if acc.count:
                out[f"{alias}.{k}"] = acc.mean()
                if acc.overflows:
                    logger.warning("%s.%s: the scores' sum is past the range of a float; the mean is taken from "
                                   "scaled values and intervals or spreads of it may be infinite", alias, k)
        if self.pass_den:
            out[f"{alias}.pass_rate"] = self.passes / self.pass_den
        out[f"{alias}.n"] = self.n
        out[f"{alias}.error_count"] = self.errors
        out[f"{alias}.not_applicable_count"] = self.na
        if self.not_run or self.budgeted:
            out[f"{alias}.not_run_count"] = self.not_run
        if self.runs:
            keys = sorted({k for slot in self.runs for k in slot[2]})
            for k in keys:
                means = [slot[2][k].mean() for slot in self.runs if k in slot[2] and slot[2][k].count]
                if len(means) > 1:
                    out[f"{alias}.{k}_std"] = math.sqrt(squared_deviations(means, finite_mean(means)) / len(means))
            for i, slot in enumerate(self.runs, 1):
                if slot[1]:
                    out[f"{alias}.pass_rate_run_{i}"] = slot[0] / slot[1]
            rows = sorted(self.row_passes)
            for tries in range(1, self.num_runs + 1):
                at, hat = mean_over_rows(rows, tries)
                if at is not None:
                    out[f"{alias}.pass_at_{tries}"] = at
                    out[f"{alias}.pass_hat_{tries}"] = hat
        return out

    def intervals(self, alias: str) -> Dict[str, Dict[str, Any]]:
        """95% intervals of this alias's means and pass rate, for ``summary.json``'s ``"intervals"``.

        Computed once at the end of a run; a large run gets the normal interval (named in ``method``)
        where the bootstrap would cost more than a fraction of a second."""
        out: Dict[str, Dict[str, Any]] = {}
        for k, vals in self.values.items():
            reps = self.reps.get(k)
            if reps and len(reps) == len(vals):
                ci = bootstrap_mean(reps, resamples=SUMMARY_RESAMPLES, max_draws=SUMMARY_MAX_DRAWS)
            elif len(vals) * SUMMARY_RESAMPLES > SUMMARY_MAX_DRAWS:  # no copy of a large run's values
                ci = normal_mean(vals)
            else:
                ci = bootstrap_mean(list(vals), resamples=SUMMARY_RESAMPLES, max_draws=SUMMARY_MAX_DRAWS)
            if ci is not None:
                out[f"{alias}.{k}"] = ci.as_dict()
        pr = wilson(self.passes, self.pass_den)
        if pr is not None:
            out[f"{alias}.pass_rate"] = pr.as_dict()
        return out

    def noise(self, alias: str) -> Dict[str, Dict[str, Any]]:
        """With ``num_runs > 1``: each mean's judge noise (the variance of repeated verdicts on one row's
        output) and the spread between rows, for ``summary.json``'s ``"noise"``; agent noise needs the
        agent rerun (ADK ``--num_runs``), which ``agent-eval plan`` reads from the rows."""
        out: Dict[str, Dict[str, Any]] = {}
        for k, reps in self.reps.items():
            split = split_variance([[list(r)] for r in reps])
            if split.judge is not None:
                out[f"{alias}.{k}"] = {"judge_variance": split.judge, "agent_variance": split.agent,
                                       "between_rows_variance": split.rows, "verdicts_per_row": split.verdicts_per_run}
        return out
