"""What a finished ``agent-eval run`` comes to: failing and erroring cells, run-level checks, the exit code.

Exit codes of ``run``: 2 on bad configuration, when any row × evaluator cell
errored, or when the judge budget (``--max-cost`` / ``--max-judge-calls``) stopped the run
before every cell ran (the run is incomplete; these take precedence); else 1 when a run-level threshold failed or,
with no thresholds, when any scored cell failed; else 3 when a threshold is
INCONCLUSIVE (over a judge panel whose agreement is below ``min_agreement``); else 0.
Judge-backed evaluators that were skipped because no judge is configured do not count.
"""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..config.run_config import Threshold
from ..runner.panel_votes import low_agreement


# ---------------------------------------------------------------------------- outcome of a run
@dataclass
class CellFailure:
    line: int
    label: str
    alias: str
    kind: str  # "fail" | "error" | "row" (an input line that could not be read: one entry, not one per evaluator)
    score: Any = None
    threshold: Any = None
    reason: str = ""
    #: an error cell's :class:`~agent_evaluators.runner.cells.CellProblem` (its message with its references),
    #: when the run kept it in memory (``EvaluationResult.problems``); ``None`` otherwise
    problem: Any = None


@dataclass
class RunOutcome:
    """What the table, JUnit file and exit code are made from."""

    metrics: Dict[str, Any]
    usage: Dict[str, Any]
    aliases: List[str]
    result_keys: Dict[str, Optional[str]]
    skipped: Dict[str, str]  # alias -> why
    checks: List[Dict[str, Any]] = field(default_factory=list)
    failures: List[CellFailure] = field(default_factory=list)
    fail_count: int = 0
    error_count: int = 0
    rows: int = 0
    unreadable: int = 0
    intervals: Dict[str, Any] = field(default_factory=dict)  # summary.json's "intervals"
    #: ``--azure-compat``: the table shows azure-ai-evaluation 1.18's ``binary_aggregate``, not our pass rate
    azure_compat: bool = False
    #: ``summary.json``'s ``"budget"`` when the judge budget stopped the run (cells ``not_run``), else ``None``
    budget_stop: Optional[Dict[str, Any]] = None

    def not_run(self, alias: str) -> int:
        """Cells of ``alias`` the judge budget left unrun."""
        return int(self.metrics.get(f"{alias}.not_run_count") or 0)

    @property
    def not_run_total(self) -> int:
        """Cells of every alias left unrun (by this run's budget or an earlier one's): a run with any is not done."""
        return sum(self.not_run(alias) for alias in self.aliases)


def exit_code(outcome: RunOutcome) -> int:
    """2: error cells, a run the judge budget stopped or with cells not run, or a threshold that is ERROR or
    INCOMPLETE; 1: a threshold failed (or, without applicable thresholds, a scored cell failed); 3: a threshold
    is inconclusive (its judge panel disagrees too much to tell); 0: pass."""
    if outcome.error_count or outcome.budget_stop is not None or outcome.not_run_total or any(
            c["status"] in ("error", "incomplete") for c in outcome.checks):
        return 2
    applicable = [c for c in outcome.checks if c["status"] != "skipped"]
    if applicable:
        if any(c["status"] == "fail" for c in applicable):
            return 1
        return 3 if any(c["status"] == "inconclusive" for c in applicable) else 0
    return 1 if outcome.fail_count else 0


def summarize_rows(
    rows: Any, aliases: Sequence[str], result_keys: Mapping[str, Optional[str]],
    problems: Optional[Mapping[Tuple[int, str], Any]] = None,
) -> Tuple[List[CellFailure], int, int, int]:
    """Failing and erroring cells (for the table and exit code), read once from the rows; ``problems``
    (``EvaluationResult.problems``) gives each error cell its problem with its references."""
    from ..report.load import cell_status, row_label

    failures: List[CellFailure] = []
    n_fail = n_err = n_rows = 0
    for row in rows:
        n_rows += 1
        line = row.get("line_number", n_rows - 1)
        if row.get("row_error"):
            # one unreadable line is one problem, whatever the number of evaluators
            n_err += 1
            failures.append(CellFailure(line, "", "(row)", "row", reason=f"unreadable input line: {row['row_error']}"))
            continue
        for alias in aliases:
            key = result_keys.get(alias)
            prefix = f"outputs.{alias}."
            status = cell_status(row, alias)
            if status == "error":
                n_err += 1
                msg = (row.get(f"{prefix}{key}_error") if key else None) or row.get(f"{prefix}error")
                failures.append(CellFailure(line, row_label(row), alias, "error",
                                            reason=str(msg or row.get("row_error") or row.get("target_error") or "error"),
                                            problem=(problems or {}).get((line, alias))))
            elif status == "fail":
                n_fail += 1
                failures.append(CellFailure(
                    line, row_label(row), alias, "fail",
                    score=_cell_score(row, f"{prefix}{key}") if key else None,
                    threshold=row.get(f"{prefix}{key}_threshold") if key else None,
                    reason=str(row.get(f"{prefix}{key}_reason") or "") if key else "",
                ))
    return failures, n_fail, n_err, n_rows


def check_thresholds(
    thresholds: Sequence[Threshold], metrics: Mapping[str, Any], skipped: Mapping[str, str],
    agreement: Optional[Mapping[str, Any]] = None, certification: Optional[Mapping[str, Any]] = None,
    require_certified: bool = False,
) -> List[Dict[str, Any]]:
    """Each run-level threshold's status: pass, fail, error (cells of its evaluator errored), incomplete (cells
    the judge budget did not run), skipped, or inconclusive (``agreement``:
    ``summary.json``'s judge-panel records; one marked ``inconclusive`` makes every check over its
    evaluator INCONCLUSIVE, since a pass or fail there would be the judges' taste). ``certification``
    (``summary.json``'s): a check over a judge evaluator people's labels did not certify says so in its note,
    and is INCONCLUSIVE with ``require_certified``, as is one on a corrected pass rate that has no value."""
    out: List[Dict[str, Any]] = []
    for t in thresholds:
        uncertified = _uncertified(t, certification or {})
        if uncertified and (require_certified or t.metric.endswith(".corrected_pass_rate")) \
                and not t.metric.endswith("_count"):
            out.append({"check": str(t), "metric": t.metric, "value": metrics.get(t.metric), "status": "inconclusive",
                        "note": uncertified})
            continue
        if t.alias in skipped:
            out.append({"check": str(t), "metric": t.metric, "value": None, "status": "skipped", "note": skipped[t.alias]})
            continue
        value = metrics.get(t.metric)
        unknown = _unknowable(t, metrics)
        if unknown is not None:  # nothing was scored: every cell errored, or the budget ran none
            out.append({"check": str(t), "metric": t.metric, "value": None, "status": unknown[0], "note": unknown[1]})
            continue
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            known = sorted(k for k in metrics if k.startswith(t.alias + "."))
            out.append({"check": str(t), "metric": t.metric, "value": None, "status": "fail",
                        "note": f"no value for {t.metric} (this run has: {', '.join(known)})"})
            continue
        errored = metrics.get(f"{t.alias}.error_count") or 0
        if errored and not t.metric.endswith(".error_count"):
            # a mean or rate over the cells that did not error says nothing about the ones that did
            total = errored + (metrics.get(f"{t.alias}.n") or 0) + (metrics.get(f"{t.alias}.not_applicable_count") or 0)
            out.append({"check": str(t), "metric": t.metric, "value": value, "status": "error",
                        "note": f"{errored} of {total} cells errored; the value leaves them out"})
            continue
        low = low_agreement(t.alias, agreement or {}) if not t.metric.endswith(".error_count") else None
        if low:
            out.append({"check": str(t), "metric": t.metric, "value": value, "status": "inconclusive", "note": low})
            continue
        not_run = _not_run_note(t.alias, t.metric, metrics)
        if not_run:  # a value over the cells that ran says nothing about those the budget left: not a verdict
            out.append({"check": str(t), "metric": t.metric, "value": value, "status": "incomplete", "note": not_run})
            continue
        out.append({"check": str(t), "metric": t.metric, "value": value, "status": "pass" if t.check(value) else "fail",
                    "note": uncertified})
    return out


def _uncertified(t: Threshold, certification: Mapping[str, Any]) -> str:
    """``"judge not certified (...)"`` for a check over a judge evaluator people's labels did not certify, else ``""``."""
    record = certification.get(t.alias)
    if not isinstance(record, Mapping) or record.get("certified"):
        return ""
    why = record.get("reason")
    if not why and record.get("tpr_interval") and record.get("tnr_interval"):
        why = (f"TPR lower bound {record['tpr_interval'][0]:.2f}, TNR lower bound {record['tnr_interval'][0]:.2f}, "
               f"floor {record.get('floor')}")
    return f"judge not certified ({why or 'no labels'})"


def _unknowable(t: Threshold, metrics: Mapping[str, Any]) -> Optional[Tuple[str, str]]:
    """(status, note) for a threshold over an evaluator none of whose cells was scored because they errored
    (``error``) or the judge budget ran none of them (``incomplete``); ``None`` when there is a value, or
    when the metric is a count that is known anyway."""
    if t.metric.endswith("_count"):
        return None
    counts = {m: int(metrics.get(f"{t.alias}.{m}") or 0) for m in ("n", "error_count", "not_run_count",
                                                                     "not_applicable_count")}
    if counts["n"]:
        return None
    total = sum(counts.values())
    if counts["error_count"]:
        return "error", f"{counts['error_count']} of {total} cells errored and none was scored: no value to check"
    if counts["not_run_count"]:
        return "incomplete", f"{counts['not_run_count']} of {total} cells not run (budget) and none was scored"
    return None


def _not_run_note(alias: str, metric: str, metrics: Mapping[str, Any]) -> str:
    """A check over an evaluator the judge budget cut short says how many cells its value leaves out."""
    not_run = metrics.get(f"{alias}.not_run_count") or 0
    if not not_run or metric.endswith("_count"):
        return ""
    total = sum(metrics.get(f"{alias}.{m}") or 0 for m in ("n", "error_count", "not_applicable_count", "not_run_count"))
    return f"{not_run} of {total} cells not run (budget); the value leaves them out"


def _cell_score(row: Mapping[str, Any], column: str) -> Any:
    """A failing cell's score: ``<k>``, or ``<k>_score`` where ``<k>`` is a label (1.18's severity rows)."""
    value = row.get(column)
    return row.get(f"{column}_score", value) if isinstance(value, str) else value
