"""How many rows x repetitions a comparison needs: the noise budget of a finished run, and power from it.

A run with repetitions shows its noise (:func:`agent_evaluators.stats.noise.split_variance`): judge
noise (``evaluate(num_runs=...)`` repeats the judge on the same output) and agent noise (ADK
``--num_runs`` runs the agent again: rows of one case with different ``run`` numbers). Two runs of
the same rows differ row by row by that noise twice over, so a paired comparison with ``r``
repetitions of the judge per row (``--num-runs r``) has differences of variance
``2 * (agent + judge / r)``: repeating the judge averages away judge noise only, and needs the rows
:func:`agent_evaluators.stats.power.rows_needed` says. Without any repetition the noise is not
measurable; the spread between rows stands in for it (an upper bound, said so in ``basis``), and
how much of it repetitions would remove is unknown for a judge metric (``-``) and nothing for a
deterministic one. A metric with no scored cell, or one whose repetitions all agreed (no noise to
size a comparison by), gets ``-`` and a basis that says why: not enough information.
"""

import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..runner.aggregate import cell_runs
from ..stats.noise import NoiseSplit, split_variance
from ..stats.passk import mean_over_rows
from ..stats.power import detectable_effect, power, rows_needed
from .load import RunData, cell_status
from .paired import cell_value, check_metric, default_metrics

REPETITIONS = (1, 2, 3, 5)
#: a variance below this is the rounding of identical values (the mean of equal floats), not noise
_NO_NOISE = 1e-12


@dataclass
class MetricPlan:
    """One metric's noise and what a comparison of ``effect`` needs at each repetition count."""

    metric: str
    rows: int
    noise: NoiseSplit
    basis: str
    #: per-row variance repetitions of the judge do not touch (agent noise, or the row-spread stand-in)
    fixed_var: float
    #: per-row judge variance, which ``r`` repetitions divide by ``r``
    judge_var: float
    effect: float
    power: float
    alpha: float
    needed: Dict[int, Optional[int]] = field(default_factory=dict)
    detectable_now: Optional[float] = None

    @property
    def sd_diff_one(self) -> float:
        return self.sd_diff(1)

    def sd_diff(self, repetitions: int) -> float:
        """Standard deviation of a paired difference when the judge is repeated ``repetitions`` times per row."""
        return math.sqrt(2 * (self.fixed_var + self.judge_var / repetitions))

    def predicted_power(self, rows: int, repetitions: int = 1) -> float:
        return power(self.effect, self.sd_diff(repetitions), rows, self.alpha)

    def as_json(self) -> Dict[str, Any]:
        n = self.noise
        return {"metric": self.metric, "rows": self.rows, "judge_variance": n.judge, "agent_variance": n.agent,
                "between_rows_variance": n.rows, "basis": self.basis, "effect": self.effect, "power": self.power,
                "alpha": self.alpha, "detectable_effect_now": self.detectable_now,
                "rows_needed": {str(r): v for r, v in self.needed.items()}}


def _case(row: Mapping[str, Any]) -> Tuple[Any, ...]:
    """Rows of one case that differ only in their ADK ``run`` number are agent repetitions of it."""
    if isinstance(row.get("inputs.run"), int) and row.get("inputs.eval_id") is not None:
        return ("case", row.get("inputs.eval_set_id"), row.get("inputs.eval_id"), row.get("inputs.invocation_id"))
    return ("line", row.get("line_number"))


def _verdicts(row: Mapping[str, Any], alias: str, key: str, result_key: Optional[str]) -> List[float]:
    """The judge's repeated verdicts on this row's one output (``num_runs`` > 1), else its one value."""
    prefix = f"outputs.{alias}."
    cell = {k[len(prefix):]: v for k, v in row.items() if k.startswith(prefix)}
    runs = cell_runs(cell, result_key) if cell_status(row, alias) not in ("error", "not_applicable") else None
    if runs:
        out = []
        for r in runs:
            if not isinstance(r, Mapping):
                continue
            if key == "pass_rate":
                res = r.get(f"{result_key}_result")
                if res in ("pass", "fail"):
                    out.append(1.0 if res == "pass" else 0.0)
            else:
                v = r.get(key)
                if isinstance(v, (int, float)) and not isinstance(v, bool) and v == v:
                    out.append(float(v))
        return out
    v = cell_value(row, alias, key)
    return [] if v is None else [v]


def noise_rows(run: RunData, metric: str) -> List[List[List[float]]]:
    """``rows[case][agent run]`` = the judge verdicts, the shape :func:`split_variance` reads."""
    alias, _, key = metric.partition(".")
    result_key = run.result_key(alias)
    cases: Dict[Tuple[Any, ...], List[List[float]]] = {}
    for row in run.rows:
        verdicts = _verdicts(row, alias, key, result_key)
        if verdicts:
            cases.setdefault(_case(row), []).append(verdicts)
    return list(cases.values())


def plan_metric(run: RunData, metric: str, *, effect: float, target: float = 0.8, alpha: float = 0.05,
                repetitions: Sequence[int] = REPETITIONS) -> MetricPlan:
    data = noise_rows(run, metric)
    split = split_variance(data)
    judged = run.judged(metric.partition(".")[0])
    measured = split.judge is not None or split.agent is not None
    if measured:
        fixed, judge = split.agent or 0.0, split.judge or 0.0
        parts = [p for p, v in (("judge", split.judge), ("agent", split.agent)) if v is not None]
        basis = f"measured {' and '.join(parts)} noise"
    else:
        fixed, judge = split.rows or 0.0, 0.0
        basis = "no repetitions in this run: the spread between rows stands in for the noise (an upper bound)"
    plan = MetricPlan(metric, len(data), split, basis, fixed, judge, effect, target, alpha)
    unknown = _not_enough(plan, measured, judged)
    if unknown is not None:
        plan.basis = f"not enough information: {unknown}"
        plan.needed = {r: None for r in repetitions}
        return plan
    for r in repetitions:
        repeats_unknown = r > 1 and not measured and judged is not False  # the judge's share is not measured
        plan.needed[r] = None if repeats_unknown else rows_needed(effect, plan.sd_diff(r), target, alpha)
    if not measured and judged is not False:
        plan.basis += "; repeat the judge (--num-runs 2 or more) to measure what repetitions would save"
    elif not measured:
        plan.basis += "; a deterministic metric: repetitions do not change it"
    plan.detectable_now = detectable_effect(plan.sd_diff(1), len(data), target, alpha)
    return plan


def _not_enough(plan: MetricPlan, measured: bool, judged: Optional[bool]) -> Optional[str]:
    """Why this run cannot size a comparison of the metric, or ``None`` when it can."""
    if plan.rows == 0:
        return "no scored cell (the evaluator was skipped, or every cell errored)"
    if plan.fixed_var + plan.judge_var > _NO_NOISE:
        return None
    if measured:
        return "every repetition gave the same verdict, so the run shows no noise to size a comparison by"
    return "every row has the same value, so the run shows no spread to size a comparison by"


def plan_run(run: RunData, *, effect: float, target: float = 0.8, alpha: float = 0.05,
             metrics: Optional[Sequence[str]] = None) -> List[MetricPlan]:
    names = list(metrics) if metrics else default_metrics(run, run)
    for m in names:
        check_metric(m, run, run)
    return [plan_metric(run, m, effect=effect, target=target, alpha=alpha) for m in names]


def agent_run_pass_at_k(run: RunData, alias: str) -> Dict[int, Tuple[float, float]]:
    """pass@k and pass^k over ADK ``--num_runs`` agent runs (rows of one case), k = 1..runs per case.

    ``{}`` when no case ran more than once. A case's n is its runs with a pass/fail verdict."""
    cases: Dict[Tuple[Any, ...], List[int]] = {}
    for row in run.rows:
        key = _case(row)
        status = cell_status(row, alias)
        if key[0] == "case" and status in ("pass", "fail"):
            counts = cases.setdefault(key, [0, 0])
            counts[0] += 1
            counts[1] += status == "pass"
    pairs = sorted((n, c) for n, c in cases.values())
    if not pairs or max(n for n, _ in pairs) < 2:
        return {}
    out: Dict[int, Tuple[float, float]] = {}
    for k in range(1, max(n for n, _ in pairs) + 1):
        at, hat = mean_over_rows(pairs, k)
        if at is not None and hat is not None:
            out[k] = (at, hat)
    return out
