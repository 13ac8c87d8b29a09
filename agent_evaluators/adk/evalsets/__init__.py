"""Scoring ADK eval sets: ADK's criteria by name (``evaluate_invocations``) and an ``adk eval``-like
runner on the shared run engine, with its ``agent-eval adk`` command line.

The ADK data model (eval sets, invocations, ``test_config.json``, result files) lives in
:mod:`agent_evaluators.adk`, which re-exports the public names below lazily; this package
is where judges and the run engine come in.

* :mod:`.criteria`: :class:`MetricSpec` / :data:`METRICS` and :func:`evaluate_invocations`;
* :mod:`.producers`: where a case's actual invocations come from (recorded, a per-turn
  target, or a live agent runner's ``producer``);
* :mod:`.cases`: a criterion as an ``evaluate()`` evaluator, and ADK's verdict per case row;
* :mod:`.runner`: :func:`run_eval_sets` / :func:`arun_eval_sets`;
* :mod:`.printing`: ADK's console output (``agent-eval adk`` is :mod:`agent_evaluators.cli.eval_sets`).
"""


from ..._util.lazy import lazy_exports

_LAZY = {
    "evaluate_invocations": "criteria", "aevaluate_invocations": "criteria", "InvocationsResult": "criteria",
    "MetricSpec": "criteria", "METRICS": "criteria", "register_metric": "criteria", "get_metric": "criteria",
    "run_eval_sets": "runner", "arun_eval_sets": "runner",
    "Producer": "producers",
    "final_eval_status": "cases",
}
#: names this package had that now live elsewhere: importable for one more release, with a warning
_MOVED = {"main": "agent_evaluators.cli.eval_sets"}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals(), moved=_MOVED)
