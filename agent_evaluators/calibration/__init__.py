"""Is your judge model fit for the job? Measure it on labelled sets before trusting its scores.

Every judge-backed evaluator ships with a small labelled set (clear good and bad
cases we wrote ourselves). :func:`calibrate` runs the evaluator with *your* judge
over its set and reports accuracy, Cohen's κ and the confusion matrix::

    from agent_evaluators.calibration import calibrate

    report = calibrate("task_adherence", {"model": "gpt-4o-mini", "api_key": "..."})
    print(report.summary())

``agent-eval calibrate --judge-model M --judge-base-url URL [--evaluator NAME]``
does the same from the shell. :func:`judge_metrics` lists the evaluators covered.

People's labels of a run's own rows (``labels.jsonl``, ``agent-eval label RUN``) certify the judge that
scored them: :func:`certify` gives per evaluator its TPR and TNR with exact intervals and whether both
lower bounds clear a floor (``agent-eval calibrate --labels RUN``); :func:`labels_to_cases` turns the
labels into a labelled set, so a judge is calibrated on them as on ours.
"""

from .._util.lazy import lazy_exports
from .catalog import CalibrationCase, JudgeMetric, find_metric, judge_metrics
from .certify import certify, describe_certification, uncertified_note
from .kappa import cohen_kappa, confusion_matrix
from .label_cases import labels_to_cases
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
    "certify",
    "describe_certification",
    "labels_to_cases",
    "uncertified_note",
]

#: ``agent-eval calibrate``'s entry, which lives with the command line now: importable here for one more
#: release, with a warning
__getattr__, __dir__ = lazy_exports(__name__, {}, globals(), moved={"calibrate_main": "agent_evaluators.cli.calibrate"})
