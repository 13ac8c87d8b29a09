"""The noise budget: how much of a metric's spread is the judge, how much the agent, how much the rows.

Data per row: its agent runs (ADK ``--num_runs``), each with its judge verdicts on the same output
(``evaluate(num_runs=...)`` repeats the judge on one output). A nested method-of-moments split
(one-way nested ANOVA, sample variances with n - 1):

* judge noise = the pooled variance of verdicts within one agent output;
* agent noise = the pooled variance of agent-run means within one row, less the judge noise
  those means still carry (judge / verdicts per run), floored at 0;
* between rows = the variance of row means, less what agent and judge noise add to a row mean.

A component the data cannot show (no repeated verdicts, no repeated agent runs) is None, never 0.
"""

import math
from typing import List, NamedTuple, Optional, Sequence

from .intervals import finite_mean, squared_deviations

__all__ = ["NoiseSplit", "split_variance"]


class NoiseSplit(NamedTuple):
    judge: Optional[float]
    agent: Optional[float]
    rows: Optional[float]
    runs_per_row: float
    verdicts_per_run: float


def _var(xs: Sequence[float]) -> float:
    """The sample variance; ``inf`` past float's range (scores near 1e308), never an ``OverflowError``."""
    return squared_deviations(xs, finite_mean(xs)) / (len(xs) - 1)


def _pooled(groups: List[List[float]]) -> Optional[float]:
    """Pooled within-group variance over groups with at least two values (None when there is none)."""
    ss = df = 0.0
    for g in groups:
        if len(g) > 1:
            ss += _var(g) * (len(g) - 1)
            df += len(g) - 1
    return ss / df if df else None


def split_variance(rows: Sequence[Sequence[Sequence[float]]]) -> NoiseSplit:
    """Split a metric's variance; ``rows[i][j]`` are the judge verdicts on agent run ``j`` of row ``i``.

    NaN and infinite verdicts are left out (a score of inf has no variance), then empty runs and rows."""
    clean = [[[float(v) for v in run if math.isfinite(v)] for run in row] for row in rows]
    clean = [[run for run in row if run] for row in clean]
    clean = [row for row in clean if row]
    if not clean:
        return NoiseSplit(None, None, None, 0.0, 0.0)
    runs = [run for row in clean for run in row]
    verdicts = len([v for run in runs for v in run]) / len(runs)
    per_row = len(runs) / len(clean)
    judge = _pooled(runs)
    run_means = [[finite_mean(run) for run in row] for row in clean]
    agent_raw = _pooled(run_means)
    agent = None if agent_raw is None else max(0.0, agent_raw - (judge or 0.0) / verdicts)
    row_means = [finite_mean(m) for m in run_means]
    between = None
    if len(row_means) > 1:
        carried = (agent or 0.0) / per_row + (judge or 0.0) / (per_row * verdicts)
        between = max(0.0, _var(row_means) - carried)
    return NoiseSplit(judge, agent, between, per_row, verdicts)
