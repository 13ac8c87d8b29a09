"""``num_runs > 1`` on a 1.18-shaped cell: one row in 1.18's keys holding the mean of the runs.

Our engine's multi-run cell (:func:`agent_evaluators.runner.cells.combine_runs`) writes
``<k>_details`` and ``<k>_usage``, keys a 1.18 row does not have, and would leave ``<k>_score``,
``<k>_passed`` and ``gpt_<k>`` at the first run's values. Here every score column of every
metric in the row (a composite's members too) is the mean of the runs that scored, ``_passed``
and ``_result`` apply azure's pass rule to that mean (TaskAdherence/TaskCompletion: a score of 1,
whatever threshold they report), and ``<k>_properties`` carries what the runs were: ``scores``,
``std``, ``min``, ``max``, the token counts summed over the runs (so the run's usage totals count
every run), and under the evaluator's own key, ``runs``: every run's row (what the engine reads
for ``<alias>.<k>_std`` and ``pass_rate_run_<i>``, :func:`agent_evaluators.runner.aggregate.cell_runs`).
A metric no run scored keeps the first run's not-applicable columns.
"""

import math
from typing import Any, Dict, List, Mapping, Optional

from ..judge.usage import merge_usage
from ._row import AzureRow, judge_usage_of

_TOKENS = ("prompt_tokens", "completion_tokens", "total_tokens")
_SCORES = ("", "_score")


def pass_marks(evaluator: Any) -> Dict[str, float]:
    """The score each metric of ``evaluator``'s row passes at: azure's rule (``pass_mark``), else its threshold."""
    marks: Dict[str, float] = {}
    for ev in [*getattr(evaluator, "members", ()), evaluator]:
        mark = getattr(ev, "pass_mark", None)
        marks[ev.result_key] = mark if mark is not None else ev.threshold
    return marks


def _scored(run: Mapping[str, Any], key: str) -> bool:
    score = run.get(key)
    return (run.get(f"{key}_result") in ("pass", "fail") and isinstance(score, (int, float))
            and not isinstance(score, bool) and not math.isnan(score))


def _token_sum(rows: List[Dict[str, Any]], key: str) -> Dict[str, Optional[int]]:
    """The runs' token counts added up; a count some run did not report stays unknown (``None``)."""
    out: Dict[str, Optional[int]] = {}
    for name in _TOKENS:
        values = [(r.get(f"{key}_properties") or {}).get(name) for r in rows]
        counts = [v for v in values if isinstance(v, int)]
        out[name] = sum(counts) if values and len(counts) == len(values) else None
    return out


def _combine_key(out: Dict[str, Any], runs: List[Dict[str, Any]], key: str, mark: float, keep_runs: bool) -> None:
    scored = [r for r in runs if _scored(r, key)]
    if not scored:
        return
    scores = [float(r[key]) for r in scored]
    mean = math.fsum(scores) / len(scores)
    std = math.sqrt(math.fsum((s - mean) ** 2 for s in scores) / len(scores))
    first = scored[0]
    out.update({k: v for k, v in first.items() if k.startswith(key)})  # a completed run's columns
    for column in [key + s for s in _SCORES] + [f"gpt_{key}"]:
        if column in out:
            out[column] = mean
    passed = mean >= mark
    out[f"{key}_passed"] = passed
    out[f"{key}_result"] = "pass" if passed else "fail"
    out[f"{key}_reason"] = f"Mean of {len(scored)} scored run(s) of {len(runs)} (std {std:.4g})"
    properties = dict(first.get(f"{key}_properties") or {})
    if any(name in properties for name in _TOKENS):
        properties.update(_token_sum(runs, key))
    properties.update(scores=[r.get(key) for r in runs], std=std, min=min(scores), max=max(scores))
    if keep_runs:
        properties["runs"] = runs
    out[f"{key}_properties"] = properties


def combine_azure_runs(evaluator: Any, runs: List[Dict[str, Any]]) -> Dict[str, Any]:
    """One 1.18 row for ``num_runs`` runs of ``evaluator`` on the same inputs (see the module doc)."""
    out = dict(runs[0])
    for key, mark in pass_marks(evaluator).items():
        if f"{key}_status" in out:
            _combine_key(out, runs, key, mark, keep_runs=key == evaluator.result_key)
    if f"{evaluator.result_key}_properties" in out and not _scored(out, evaluator.result_key):
        # no run scored the evaluator's own metric: the runs are still kept for the engine
        out[f"{evaluator.result_key}_properties"] = {**(out[f"{evaluator.result_key}_properties"] or {}), "runs": runs}
    return AzureRow(out, merge_usage(judge_usage_of(r) for r in runs))  # every run's judge calls
