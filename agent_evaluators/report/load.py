"""Reading a finished run folder (``rows.jsonl``, ``summary.json``, optional ``checks.json``)."""

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ..errors import ConfigError
from ..runner.store import cell_status as cell_status  # re-exported: the report modules read cells through here
from ..runner.summary_file import read_summary
from ..wording import Text

logger = logging.getLogger(__name__)

ROWS_FILE = "rows.jsonl"
SUMMARY_FILE = "summary.json"
CHECKS_FILE = "checks.json"


@dataclass
class RunData:
    """One run as the report sees it; ``rows`` hold the latest record per line, in line order."""

    path: Path
    summary: Dict[str, Any]
    rows: List[Dict[str, Any]]
    checks: Dict[str, Any] = field(default_factory=dict)

    @property
    def aliases(self) -> List[str]:
        evaluators = (self.summary.get("config") or {}).get("evaluators") or {}
        names = list(evaluators)
        names += [a for a in (self.checks.get("skipped") or {}) if a not in names]
        return names

    @property
    def skipped(self) -> Dict[str, str]:
        return dict(self.checks.get("skipped") or {})

    def result_key(self, alias: str) -> Optional[str]:
        evaluators = (self.summary.get("config") or {}).get("evaluators") or {}
        key = (evaluators.get(alias) or {}).get("result_key")
        if key:
            return key
        prefix = f"outputs.{alias}."
        for row in self.rows:
            for k in row:
                if k.startswith(prefix) and k.endswith("_result"):
                    return k[len(prefix):-len("_result")]
        return None

    def score_scale(self, alias: str) -> Optional[Tuple[float, float]]:
        """The (low, high) scale of an evaluator's score, from the evaluator, never guessed from the scores.

        In order: the scale the evaluator itself declared (``score_scale``, recorded in the run's
        ``summary.json`` as ``scale``); for run folders written before that was recorded, the
        run's recorded options (``scale`` of a PromptyEvaluator ``(low, high)``, or
        of answer similarity, ``0..scale``), then the registry's score range for the class
        (its calibration set), then 0..1 for the package's deterministic evaluators.
        ``None`` for a class we do not know (the histogram then reads the scale off the data).
        """
        desc = ((self.summary.get("config") or {}).get("evaluators") or {}).get(alias) or {}
        declared = desc.get("scale")
        if isinstance(declared, list) and len(declared) == 2 and all(_is_number(v) for v in declared):
            return float(declared[0]), float(declared[1])
        scale = (desc.get("config") or {}).get("scale")
        if isinstance(scale, (list, tuple)) and len(scale) == 2 and all(_is_number(v) for v in scale):
            return float(scale[0]), float(scale[1])
        if isinstance(scale, (int, float)) and not isinstance(scale, bool) and scale > 0:
            return 0.0, float(scale)
        from .. import registry

        entry = registry.by_class_name(str(desc.get("class") or ""))
        if entry is None or not str(desc.get("module") or "").startswith("agent_evaluators."):
            return None
        if entry.calibration is not None:
            low, high = entry.calibration.score_range
            return float(low), float(high)
        return (0.0, 1.0) if not entry.judge else None

    def judged(self, alias: str) -> Optional[bool]:
        """Whether ``alias`` asked a judge (its calls in the usage, or its template), ``False`` for the
        package's deterministic evaluators, ``None`` when the run does not say (another library's class)."""
        usage = (self.summary.get("usage") or {}).get(alias) or {}
        desc = ((self.summary.get("config") or {}).get("evaluators") or {}).get(alias) or {}
        if (usage.get("judge_calls") or 0) > 0 or desc.get("template_hash"):
            return True
        from .. import registry

        entry = registry.by_class_name(str(desc.get("class") or ""))
        if entry is not None and str(desc.get("module") or "").startswith("agent_evaluators."):
            return entry.judge
        return None

    @property
    def incomplete(self) -> Optional[str]:
        """``"incomplete: N of M rows"`` for a run that did not finish (interrupted, or crashed while
        ``running``); ``None`` for a finished one. M is left out when the run never knew it."""
        status = self.summary.get("status")
        if status in (None, "complete"):
            return None
        if status == "stopped":  # the judge budget (max_cost / max_judge_calls)
            budget = self.summary.get("budget") or {}
            return (f"incomplete: stopped by the judge budget ({budget.get('reason')}); "
                    f"{budget.get('not_run_cells')} cell(s) not run (resume with a higher cap continues it)")
        done = self.summary.get("rows") if status == "interrupted" else len(self.rows)
        total = self.summary.get("rows_total")
        how = "interrupted" if status == "interrupted" else "did not finish"
        of = f" of {total}" if isinstance(total, int) else ""
        return f"incomplete: {done}{of} rows ({how}; resume=True / --resume continues it)"

    @property
    def target_usage(self) -> Dict[str, Dict[str, Any]]:
        """Judge usage the target spent (a simulated user's turns), per output column, over all rows.

        ``summary.json``'s usage covers evaluator cells only; a target that asks a judge keeps each
        call's usage in its output records (``outputs.simulated_user`` turns, ``outputs.simulation``).
        Keyed ``"target: <column>"``.
        """
        from ..runner.aggregate import add_usage

        totals: Dict[str, Dict[str, Any]] = {}
        cells = tuple(f"outputs.{a}." for a in self.aliases)
        for row in self.rows:
            for k, v in row.items():
                if not k.startswith("outputs.") or k.startswith(cells):
                    continue
                for record in v if isinstance(v, list) else [v]:
                    usage = record.get("usage") if isinstance(record, Mapping) else None
                    if isinstance(usage, Mapping) and usage:
                        add_usage(totals.setdefault(f"target: {k[len('outputs.'):]}", {}), usage)
        return totals

    @property
    def metrics(self) -> Dict[str, Any]:
        return dict(self.summary.get("metrics") or {})


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def load_run(path: Any) -> RunData:
    """Read a run folder written by ``evaluate(output_path=...)`` / ``agent-eval run``."""
    path = Path(path)
    summary_path = path / SUMMARY_FILE
    rows_path = path / ROWS_FILE
    if not summary_path.is_file():
        raise ConfigError(Text("{path} holds no {file}; point at the output folder of a run ({how})", path=path,
                               file=SUMMARY_FILE,
                               how=Text.keyed("run-folder-how", "evaluate(output_path=...) or agent-eval run --output")))
    summary = read_summary(summary_path) or {}
    latest: Dict[int, Dict[str, Any]] = {}
    if rows_path.is_file():
        with open(rows_path, "rb") as f:
            for raw in f:
                if not raw.strip():
                    continue
                try:
                    record = json.loads(raw)
                except ValueError:
                    logger.warning("%s: skipped an unreadable line", rows_path)
                    continue
                line = record.get("line_number") if isinstance(record, dict) else None
                if isinstance(line, int):
                    latest[line] = record
    checks: Dict[str, Any] = {}
    checks_path = path / CHECKS_FILE
    if checks_path.is_file():
        try:
            checks = json.loads(checks_path.read_text(encoding="utf-8"))
        except ValueError:
            logger.warning("%s: not valid JSON; ignored", checks_path)
    return RunData(path=path, summary=summary, rows=[latest[k] for k in sorted(latest)], checks=checks)


def row_label(row: Mapping[str, Any]) -> str:
    """A human name for a row: its ``id`` / ``eval_id`` column when it has one (an ADK case's
    ``eval_id`` with its invocation, or with its run number when the case ran several times)."""
    for col in ("id", "eval_id", "name", "case_id"):
        v = row.get(f"inputs.{col}")
        if isinstance(v, (str, int)) and not isinstance(v, bool) and str(v):
            if col != "eval_id":
                return str(v)
            inv, run = row.get("inputs.invocation_id"), row.get("inputs.run")
            return f"{v}/{inv}" if inv else (f"{v} run {run}" if isinstance(run, int) else str(v))
    return ""


def row_key(row: Mapping[str, Any]) -> str:
    """How rows of two runs are paired: the row's label when it has one, else its line number."""
    return row_label(row) or f"line {row.get('line_number')}"
