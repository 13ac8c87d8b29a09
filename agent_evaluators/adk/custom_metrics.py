"""Custom metrics by function path: one resolver for ADK's ``custom_metrics`` and our registry.

ADK names a custom metric's function in ``test_config.json`` as
``custom_metrics.<name>.code_config.name = "package.module.function"`` and calls it as
``fn(eval_metric, actual_invocations, expected_invocations, conversation_scenario)``, sync or
async, expecting an ``EvaluationResult`` (``overall_score``, ``overall_eval_status``,
``per_invocation_results``: one per actual invocation). The function decides its own status:
ADK hands it a copy of the metric with ``threshold=None`` (the configured threshold stays on
``eval_metric.criterion``).

This module is that contract, once:

* :func:`resolve_function` imports ``package.module.function`` (ADK's dotted form) or
  ``package.module:function`` (ours) through :func:`~agent_evaluators._util.import_path.import_object`,
  the resolver ``agent-eval run -e module:function`` and YAML ``type: module:function`` use;
* :func:`acall_adk_metric` calls a function as ADK does (google-adk's own models when google-adk
  is installed, so a function written for ``adk eval`` runs unchanged) and checks what it
  returned, so a wrong return is a :class:`~agent_evaluators.errors.ConfigError` naming the
  metric, never a silent pass;
* :class:`AdkCustomMetric` makes such a function an ``evaluate()`` evaluator (inputs
  ``actual_invocations``, ``expected_invocations``, ``conversation_scenario``), which is what
  ``-e module:function`` builds when the function has ADK's signature.
"""

import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

from ..errors import ConfigError

ADK_SIGNATURE = "(eval_metric, actual_invocations, expected_invocations, conversation_scenario)"
_STATUSES = {1: "PASSED", 2: "FAILED", 3: "NOT_EVALUATED", 4: "INFORMATIONAL"}


def resolve_function(path: str, *, metric: str, search: Sequence[Path] = ()) -> Callable[..., Any]:
    """The function ``path`` names (``pkg.mod.fn`` or ``pkg.mod:fn``), or a :class:`ConfigError`
    naming the metric and what to write."""
    if not isinstance(path, str) or not path.strip():
        raise ConfigError(f"custom metric {metric!r}: code_config.name must name a function, e.g. "
                          "'my_package.my_metrics.my_metric'")
    target = path.strip()
    if ":" not in target:
        module, _, attr = target.rpartition(".")
        if not module:
            raise ConfigError(f"custom metric {metric!r}: {target!r} names no module; write "
                              "'package.module.function' (ADK) or 'package.module:function'")
        target = f"{module}:{attr}"
    return import_function(target, metric=metric, search=search)


def import_function(target: str, *, metric: str, search: Sequence[Path] = ()) -> Callable[..., Any]:
    from .._util.import_path import import_object

    found = import_object(target, search, what=f"custom metric {metric!r}:",
                          shape="'package.module.function' or 'package.module:function'", kind="a function")
    if inspect.isclass(found):
        raise ConfigError(f"custom metric {metric!r}: {target} is a class; code_config.name names a function "
                          f"{ADK_SIGNATURE} (a class goes in agent-eval run -e module:Class)")
    return found  # type: ignore[no-any-return]


def is_adk_metric_function(fn: Any) -> bool:
    """Whether ``fn`` has ADK's custom-metric signature (its first parameter is ``eval_metric``)."""
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return False
    return bool(params) and params[0] == "eval_metric" and "actual_invocations" in params


@dataclass
class CustomResult:
    """What a custom metric returned, in plain terms: the case's score and status (ADK's names),
    and one ``{"score", "status"}`` per actual invocation."""

    score: Optional[float]
    status: str
    per_invocation: List[Dict[str, Any]] = field(default_factory=list)


def _adk_models() -> Any:
    try:
        from google.adk.evaluation import eval_case, eval_metrics
    except ImportError:
        return None
    return eval_case, eval_metrics


def _arguments(metric: str, criterion: Optional[Mapping[str, Any]], actual: Sequence[Any],
               expected: Optional[Sequence[Any]], scenario: Any) -> List[Any]:
    """ADK's four arguments: google-adk's own models when it is installed, else ours."""
    from .convert import as_invocations

    ours = as_invocations(actual, name="actual_invocations") or []
    theirs_expected = as_invocations(expected, name="expected_invocations")
    crit = dict(criterion or {})
    models = _adk_models()
    if models is None:
        from types import SimpleNamespace

        eval_metric = SimpleNamespace(metric_name=metric, threshold=None, criterion=SimpleNamespace(**crit))
        return [eval_metric, ours, theirs_expected, scenario]
    eval_case, eval_metrics = models
    criterion_model = eval_metrics.BaseCriterion.model_validate(crit) if "threshold" in crit else None
    eval_metric = eval_metrics.EvalMetric(metric_name=metric, threshold=None, criterion=criterion_model)
    as_adk = [eval_case.Invocation.model_validate(i.to_json_dict()) for i in ours]
    exp_adk = (None if theirs_expected is None else
               [eval_case.Invocation.model_validate(i.to_json_dict()) for i in theirs_expected])
    if scenario is not None and hasattr(scenario, "model_dump"):
        scenario = eval_case.ConversationScenario.model_validate(scenario.model_dump(mode="json", exclude_none=True))
    return [eval_metric, as_adk, exp_adk, scenario]


def _status(value: Any, metric: str) -> str:
    name = getattr(value, "name", value)
    if isinstance(name, int) and name in _STATUSES:
        return _STATUSES[name]
    if isinstance(name, str) and name.upper() in _STATUSES.values():
        return name.upper()
    raise ConfigError(f"custom metric {metric!r}: eval_status {value!r} is not one of PASSED, FAILED, "
                      "NOT_EVALUATED, INFORMATIONAL")


def _field(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, Mapping) else getattr(obj, name, None)


def _number(value: Any, metric: str, where: str) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"custom metric {metric!r}: {where} must be a number or None, got {value!r}")
    return float(value)


def read_result(out: Any, metric: str, n: int) -> CustomResult:
    """Check and read an ``EvaluationResult`` (or a mapping with its fields) as ADK reads it."""
    if out is None or not (isinstance(out, Mapping) or hasattr(out, "overall_eval_status")):
        raise ConfigError(
            f"custom metric {metric!r} returned {type(out).__name__}; it must return an EvaluationResult "
            "(google.adk.evaluation.evaluator.EvaluationResult: overall_score, overall_eval_status, "
            "per_invocation_results with one result per actual invocation)")
    status = _status(_field(out, "overall_eval_status") or "NOT_EVALUATED", metric)
    per = []
    for i, item in enumerate(_field(out, "per_invocation_results") or []):
        per.append({"score": _number(_field(item, "score"), metric, f"per_invocation_results[{i}].score"),
                    "status": _status(_field(item, "eval_status") or "NOT_EVALUATED", metric)})
    if status not in ("NOT_EVALUATED", "INFORMATIONAL") and len(per) != n:
        raise ConfigError(f"custom metric {metric!r} returned {len(per)} per_invocation_results for {n} "
                          "invocation(s); ADK needs one per actual invocation")
    return CustomResult(_number(_field(out, "overall_score"), metric, "overall_score"), status, per)


async def acall_adk_metric(fn: Callable[..., Any], metric: str, criterion: Optional[Mapping[str, Any]],
                           actual: Sequence[Any], expected: Optional[Sequence[Any]] = None,
                           scenario: Any = None) -> CustomResult:
    """Call ``fn`` as ADK's ``_CustomMetricEvaluator`` does (sync or async) and read its result."""
    out = fn(*_arguments(metric, criterion, actual, expected, scenario))
    if inspect.isawaitable(out):
        out = await out
    return read_result(out, metric, len(actual))


class AdkCustomMetric:
    """An ADK custom-metric function as an ``evaluate()`` evaluator: ``<name>`` is its overall
    score, ``<name>_result`` pass / fail / not_applicable / informational from the status it
    returned, ``<name>_details`` its per-invocation results."""

    def __init__(self, fn: Callable[..., Any], name: str, criterion: Optional[Mapping[str, Any]] = None) -> None:
        self.fn = fn
        self.name = self.__name__ = name
        self.criterion = dict(criterion or {})

    async def __call__(self, *, actual_invocations: List[Any], expected_invocations: Optional[List[Any]] = None,
                       conversation_scenario: Any = None) -> Dict[str, Any]:
        result = await acall_adk_metric(self.fn, self.name, self.criterion, actual_invocations, expected_invocations,
                                        conversation_scenario)
        verdict = {"PASSED": "pass", "FAILED": "fail", "NOT_EVALUATED": "not_applicable",
                   "INFORMATIONAL": "informational"}[result.status]
        n = self.name
        return {n: result.score, f"{n}_result": verdict, f"{n}_threshold": self.criterion.get("threshold"),
                f"{n}_reason": f"{result.status} (custom metric)",
                f"{n}_details": {"status": result.status, "per_invocation": result.per_invocation}}
