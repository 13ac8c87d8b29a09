"""Moved: the eval-set runner is :mod:`agent_evaluators.adk_eval.runner` and its command line
:mod:`agent_evaluators.adk_eval.cli`. Old imports (``from agent_evaluators.adk.runner import
main, run_eval_sets``) keep working through these by-name forwards; nothing is imported until used."""

from importlib import import_module
from typing import Any

_MOVED = {
    "main": "agent_evaluators.adk_eval.cli",
    "run_eval_sets": "agent_evaluators.adk_eval.runner",
    "arun_eval_sets": "agent_evaluators.adk_eval.runner",
    "load_actual_invocations": "agent_evaluators.adk.actual",
    "final_eval_status": "agent_evaluators.adk_eval.cases",
}


def __getattr__(name: str) -> Any:
    module = _MOVED.get(name)
    if module is None:
        raise AttributeError(
            f"module 'agent_evaluators.adk.runner' has no attribute {name!r} (it moved to agent_evaluators.adk_eval)"
        )
    return getattr(import_module(module), name)
