"""Reports of finished runs: a single-file offline HTML page and JUnit XML.

::

    from agent_evaluators.report import write_report
    write_report("out/run-2")                          # -> out/run-2/report.html
    write_report("out/run-2", compare_to="out/run-1")  # + deltas, verdicts and rows that flipped

    from agent_evaluators.report import compare_runs
    cmp = compare_runs("out/run-1", "out/run-2")       # paired by row: diff, interval, test, verdict
    [m.verdict for m in cmp.metrics]                   # "improved" / "regressed" / "no_change" / "inconclusive"

Both read only the run folder (``rows.jsonl``, ``summary.json`` and the CLI's
``checks.json`` when present), so a report can be re-rendered at any time.
"""

import os
from pathlib import Path
from typing import Any, Optional, Sequence

from .load import RunData, load_run
from .paired import Comparison, MetricComparison

__all__ = ["write_report", "load_run", "RunData", "compare_runs", "Comparison", "MetricComparison"]

REPORT_FILE = "report.html"


def write_report(output_dir: Any, compare_to: Any = None, *, path: Optional[Any] = None, max_rows: int = 2000) -> Path:
    """Write the HTML report of the run in ``output_dir`` and return its path.

    Args:
        output_dir: a run folder (``evaluate(output_path=...)`` / ``agent-eval run --output``).
        compare_to: an earlier run folder; adds metric deltas and the rows whose verdict flipped.
        path: where to write (default ``output_dir/report.html``).
        max_rows: rows listed in the page (failing and erroring rows first); all stay in rows.jsonl.
    """
    from .html import render_report

    run = _load_for_report(output_dir)
    previous = _load_for_report(compare_to) if compare_to is not None else None
    target = Path(path) if path is not None else Path(output_dir) / REPORT_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    rows_href = Path(os.path.relpath(run.path.resolve() / "rows.jsonl", target.parent.resolve())).as_posix()
    target.write_text(render_report(run, previous, max_rows=max_rows, rows_href=rows_href), encoding="utf-8")
    return target


def _load_for_report(output_dir: Any) -> RunData:
    """The run in ``output_dir``; a red-team scan's folder with no engine files (a ``red_team.json`` alone, as
    azure writes one) is a run with no rows, so its page is the red-team section."""
    from .load import SUMMARY_FILE
    from .red_team_scores import has_scan

    folder = Path(output_dir)
    if not (folder / SUMMARY_FILE).is_file() and has_scan(folder):
        return RunData(path=folder, summary={}, rows=[])
    return load_run(folder)


def compare_runs(a: Any, b: Any, *, metrics: Optional[Sequence[str]] = None, alpha: float = 0.05,
                 min_effect: Optional[float] = None, key: Optional[str] = None) -> Comparison:
    """Run B against run A, row by row: per metric the paired difference (B minus A) with its 95%
    interval, the paired test and its Holm-adjusted p, and a verdict (``improved``, ``regressed``,
    ``no_change``, ``inconclusive``); rows in one run only are counted in ``unpaired_a`` / ``unpaired_b``.

    Args:
        a: the baseline run's folder (or :class:`RunData`).
        b: the run compared with it (a folder or :class:`RunData`).
        metrics: ``"<alias>.<key>"`` or ``"<alias>.pass_rate"`` (default: every evaluator both runs
            have, its score and its pass rate).
        alpha: the test level, after Holm's correction across ``metrics``.
        min_effect: the change too small to matter (default 0.05 on 0-1 scales, 0.25 on 1-5).
        key: a data column that names rows (default: the ``id`` / ``eval_id`` column, else the line).

    Raises:
        InputError: a metric neither run has, rows that cannot be paired, alpha out of range.
        ConfigError: a folder that holds no run.
    """
    from .paired import compare_loaded

    run_a = a if isinstance(a, RunData) else load_run(a)
    run_b = b if isinstance(b, RunData) else load_run(b)
    return compare_loaded(run_a, run_b, metrics=metrics, alpha=alpha, min_effect=min_effect, key=key)
