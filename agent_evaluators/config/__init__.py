"""Run configuration outside Python: run configs (``.eval.yaml``), the judge's settings and panels,
calibration records, run-level thresholds, and the one path from a run config into ``evaluate()``.

::

    from agent_evaluators.config import JudgeSettings, judge_model_config, load_config

    judge = judge_model_config(JudgeSettings(model="gpt-4o-mini"))   # None when no judge is configured

The modules of this package are internal; import from here. Names are imported on first use.
"""

from .._util.lazy import lazy_exports

_LAZY = {
    "RunConfig": "run_config", "load_config": "run_config", "build_evaluators": "run_config",
    "parse_evaluator_arg": "run_config",
    "JudgeSettings": "judge_settings", "judge_model_config": "judge_settings", "JUDGE_HOWTO": "judge_settings",
    "Threshold": "thresholds", "parse_threshold": "thresholds", "check_threshold_metrics": "thresholds",
    "evaluate_with": "run_call",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals())
