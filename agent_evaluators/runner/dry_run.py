"""``evaluate(..., dry_run=True)``: what a run would send to its judges, and what that would cost.

The run itself is made, on the same engine code, with every judge request answered in process
by :class:`~agent_evaluators.judge.dry_transport.DryRunTransport` (no network; placeholder verdicts valid
for each schema), into a throw-away folder: so the count of requests covers every fan-out
exactly (samples, ``num_runs``, per turn, per tool call, panels, the hallucination metric's
segment-then-validate, the user simulator up to its turn limit), and the usage the
evaluators record is the estimate. The run's folder gets only ``summary.json`` with
``status: "dry_run"`` and ``estimate`` (no rows; thresholds are for the caller not to check);
when that folder already holds a run's rows, the estimate goes to ``estimate.json`` beside
them instead, and the run is left as it is.

A real run later in the same folder compares its usage with that estimate
(``estimate_vs_actual`` in its ``summary.json``, :func:`compare_estimate`).

Not estimated: another library's evaluators that call their own judge (:mod:`.foreign`: they
send their own requests, which no dry run can intercept, so they are not run at all) and a ``target``'s own model calls (the
target runs: its answers are what the judges are asked about).
"""

import dataclasses
import logging
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, Optional

from ..judge.dry_transport import DryRunTransport
from .dry_run_estimate import ESTIMATE_FILE, build_estimate
from .engine import run_local
from .foreign import ForeignLibrary, foreign_library
from .options import RunOptions
from .result import EvaluationResult
from .store import ROWS_FILE, SUMMARY_FILE, write_json_atomic

logger = logging.getLogger("agent_evaluators.runner")

def _calls_own_judge(evaluator: Any) -> Optional[ForeignLibrary]:
    """The library of an evaluator whose judge requests a dry run cannot see (its own client), else ``None``."""
    library = foreign_library(evaluator)
    return library if library is not None and library.calls_own_judge else None


def _inner_options(options: RunOptions, folder: Path) -> RunOptions:
    """The run to make: the same, minus evaluators that call their own judge, into ``folder``, quietly."""
    evaluators = {a: e for a, e in options.rows.evaluators.items() if not _calls_own_judge(e)}
    rows = dataclasses.replace(options.rows, evaluators=evaluators)
    settings = dataclasses.replace(options.settings, output_path=folder, dry_run=False, show_progress=False,
                                   fail_on_evaluator_errors=False, resume=False, rerun_failed=False)
    return dataclasses.replace(options, rows=rows, settings=settings, continues_earlier_run=False)


async def run_dry(options: RunOptions) -> EvaluationResult:
    """Make the dry run of ``options`` (see the module docstring) and return its result (``estimate`` set)."""
    skipped = {a: library.not_estimated for a, e in options.rows.evaluators.items()
               if (library := _calls_own_judge(e)) is not None}
    started = time.time()
    transport = DryRunTransport()
    with tempfile.TemporaryDirectory(prefix="agent-eval-dry-run-") as folder:
        inner = _inner_options(options, Path(folder))
        made = await run_local(inner, dry=transport) if inner.rows.evaluators else None
        usage = dict(made.usage) if made is not None else {}
        errors = list(made.errors) if made is not None else []
        rows = len(made.rows) if made is not None else 0
        base = dict(made.summary) if made is not None else {}
    estimate = build_estimate(usage, skipped, transport.methods, transport.total)
    summary: Dict[str, Any] = {
        "status": "dry_run", "started_at": base.get("started_at"), "duration_s": round(time.time() - started, 3),
        "rows": rows, "config": base.get("config"), "versions": base.get("versions"),
        "fingerprint": base.get("fingerprint"), "estimate": estimate,
        "error_count": len(errors), "errors": errors,
    }
    out = options.output_path
    if out is not None:
        _write(out, summary)
    result = EvaluationResult(rows=[], metrics={}, errors=errors, usage={}, summary=summary, output_path=out)
    result.estimate = estimate
    return result


def _write(out: Path, summary: Dict[str, Any]) -> None:
    """``summary.json``, or ``estimate.json`` where the folder holds an earlier run's rows."""
    out.mkdir(parents=True, exist_ok=True)
    rows = out / ROWS_FILE
    if rows.exists() and rows.stat().st_size:
        logger.warning("%s holds an earlier run's rows: the dry run's estimate is in %s, the run is left as it is",
                       out, ESTIMATE_FILE)
        write_json_atomic(out / ESTIMATE_FILE, summary)
    else:
        write_json_atomic(out / SUMMARY_FILE, summary)


