"""Is your judge model fit for the job? Measure it on labelled sets before trusting its scores.

Every judge-backed evaluator ships with a small labelled set (clear good and bad
cases we wrote ourselves). :func:`calibrate` runs the evaluator with *your* judge
over its set and reports accuracy, Cohen's κ and the confusion matrix::

    from agent_evaluators.calibration import calibrate

    report = calibrate("task_adherence", {"model": "gpt-4o-mini", "api_key": "..."})
    print(report.summary())

``agent-eval calibrate --judge-model M --judge-base-url URL [--evaluator NAME]``
does the same from the shell. :func:`judge_metrics` lists the evaluators covered.
"""

from .._util.lazy import lazy_exports
from .catalog import CalibrationCase, JudgeMetric, find_metric, judge_metrics
from .kappa import cohen_kappa, confusion_matrix
from .labelled_run import CalibrationReport, CaseResult, calibrate, calibrate_async

__all__ = [
    "calibrate",
    "calibrate_async",
    "CalibrationReport",
    "CaseResult",
    "CalibrationCase",
    "JudgeMetric",
    "judge_metrics",
    "find_metric",
    "cohen_kappa",
    "confusion_matrix",
]

#: ``agent-eval calibrate``'s entry, which lives with the command line now: importable here for one more
#: release, with a warning
__getattr__, __dir__ = lazy_exports(__name__, {}, globals(), moved={"calibrate_main": "agent_evaluators.cli.calibrate"})
