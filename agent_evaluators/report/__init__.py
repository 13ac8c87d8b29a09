"""Reports of finished runs: a single-file offline HTML page and JUnit XML.

::

    from agent_evaluators.report import write_report
    write_report("out/run-2")                          # -> out/run-2/report.html
    write_report("out/run-2", compare_to="out/run-1")  # + deltas and rows that flipped

Both read only the run folder (``rows.jsonl``, ``summary.json`` and the CLI's
``checks.json`` when present), so a report can be re-rendered at any time.
"""

import os
from pathlib import Path
from typing import Any, Optional

from .load import RunData, load_run

__all__ = ["write_report", "load_run", "RunData"]

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

    run = load_run(output_dir)
    previous = load_run(compare_to) if compare_to is not None else None
    target = Path(path) if path is not None else Path(output_dir) / REPORT_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    rows_href = Path(os.path.relpath(run.path.resolve() / "rows.jsonl", target.parent.resolve())).as_posix()
    target.write_text(render_report(run, previous, max_rows=max_rows, rows_href=rows_href), encoding="utf-8")
    return target
