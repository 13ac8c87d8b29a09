"""ADK's criteria by name, and ``evaluate_invocations``: ADK's own evaluator entry shape.

A metric is one :class:`MetricSpec` line in :data:`METRICS`: the ADK name, the
evaluator class that scores it and whether it needs expected invocations. The
built-in criteria name their class by the ADK metric name in the one evaluator
registry (:mod:`agent_evaluators.registry`, imported on first use); a
custom metric may give ``"module:Class"`` instead. Two kinds of class plug in:

* a class with an ``evaluate_adk_case(actual, expected, criterion, model_config)``
  classmethod coroutine scores a whole case itself, in ADK's terms (the judge metrics
  in ``agent_evaluators.adk.judges`` do: they own their sampling, rubric
  handling and aggregation). It returns an object with ``score``, ``status``,
  ``per_invocation_scores``, ``per_invocation`` (dicts with ``score``, ``status``,
  ``reason``, ``details``, ``error``), ``details`` and ``usage``;
* a ``scenario_based`` metric's class has an ``evaluate_scenario_case(actual, scenario,
  criterion, model_config)`` classmethod coroutine: it scores a ``conversation_scenario``
  case's simulated conversation against the scenario (the user simulator's quality), with
  the same result shape; a case without a scenario is ``NOT_EVALUATED``;
* any other :class:`~agent_evaluators.evaluators.base.Evaluator` is called once per
  invocation pair with the keyword inputs ``spec.inputs`` builds, and the case score
  is the mean over scored invocations (the deterministic metrics).

What ADK defines around every metric is done here once, before either path: the
length check, ``NOT_EVALUATED`` without expected invocations for reference-based
metrics, and the status rule ``score >= threshold``. A judge metric whose module is
not installed yet raises :class:`ConfigError` ("not available yet").

A judge that failed (unreachable, errors until its attempts ran out, unusable verdicts) is
an error, never ``NOT_EVALUATED`` (ADK's "this criterion does not apply", which a case's
verdict skips: the case would pass on its other metrics). The result keeps ADK's shape:
the metric (and the invocation) is ``FAILED`` with no score, and ``details["judge_error"]``
(:attr:`InvocationsResult.judge_error`) says why; every path that turns metric results
into a case status reads it.
"""

import asyncio
import dataclasses
import importlib
import logging
import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from ...errors import ConfigError, JudgeError
from ..convert import InvocationLike, add_rubric, as_invocations, final_response_text
from ..efficiency import EFFICIENCY_METRICS, reject_threshold
from ..eval_config import Criterion, parse_criterion
from ..models import Invocation
from ..results import JUDGE_ERROR, judge_error_summary
from .metric_outcome import (
    FAILED,
    NOT_EVALUATED,
    InvocationScore,
    InvocationsResult,
    _score_dict,
    status_for,
)

logger = logging.getLogger(__name__)

JUDGES_MODULE = "agent_evaluators.adk.judges"


# ----------------------------------------------------------------------------- specs

Inputs = Callable[[Invocation, Optional[Invocation], Criterion], Dict[str, Any]]
Options = Callable[[Criterion], Dict[str, Any]]


def _no_options(criterion: Criterion) -> Dict[str, Any]:
    return {}


@dataclass(frozen=True)
class MetricSpec:
    """How to score one ADK metric with one of our evaluator classes.

    ``evaluator`` is a name in the shared evaluator registry or ``"module:Class"``,
    imported on first use. Without ``inputs`` the class must provide
    ``evaluate_adk_case``; with ``inputs`` it is called per
    invocation pair (constructed as ``Class(threshold=..., **options(criterion))``, plus
    ``model_config=`` when ``uses_judge``). ``reference_based`` metrics need expected
    invocations; ``default_threshold=None`` means a threshold must be configured.
    ``reads_rubrics`` metrics read rubrics off the actual invocations, where the expected
    invocations' rubrics are copied first (as ADK's ``LocalEvalService`` does).
    ``scenario_based`` metrics score a case against its ``conversation_scenario`` (through the
    class's ``evaluate_scenario_case``) and are ``NOT_EVALUATED`` on a static case.
    ``informational`` metrics (ADK's efficiency metrics) take no criterion, report a value per
    invocation and their average, and are always ``INFORMATIONAL`` (:mod:`.informational`).
    ``state_based`` metrics compare the agent's final session state with the case's
    ``final_session_state`` (:mod:`.end_state`).
    """

    name: str
    evaluator: str
    inputs: Optional[Inputs] = None
    reference_based: bool = True
    uses_judge: bool = False
    default_threshold: Optional[float] = None
    options: Options = _no_options
    reads_rubrics: bool = False
    scenario_based: bool = False
    informational: bool = False
    state_based: bool = False

    def evaluator_class(self) -> type:
        if ":" not in self.evaluator:  # a name in the shared evaluator registry
            from ... import registry

            try:
                cls = registry.get(self.evaluator).load()
            except ImportError as exc:
                raise ConfigError(
                    f"ADK metric {self.name!r} is not available yet: its evaluator is not part of this installation ({exc})"
                ) from exc
            self._check_case_entry(cls)
            return cls
        module_name, _, attr = self.evaluator.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            if module_name == JUDGES_MODULE or getattr(exc, "name", None) == module_name:
                raise ConfigError(
                    f"ADK metric {self.name!r} is not available yet: its evaluator module {module_name} "
                    f"is not part of this installation ({exc})"
                ) from exc
            raise
        found = getattr(module, attr, None)
        if not isinstance(found, type):
            raise ConfigError(f"ADK metric {self.name!r} is not available yet: {module_name} has no class {attr}")
        self._check_case_entry(found)
        return found

    def _check_case_entry(self, cls: type) -> None:
        if self.informational or self.state_based:
            return
        if self.scenario_based:
            if not callable(getattr(cls, "evaluate_scenario_case", None)):
                raise ConfigError(f"ADK metric {self.name!r}: {self.evaluator} has no evaluate_scenario_case")
            return
        if self.inputs is None and not callable(getattr(cls, "evaluate_adk_case", None)):
            raise ConfigError(f"ADK metric {self.name!r}: {self.evaluator} has no evaluate_adk_case and no inputs were given")


def _trajectory_inputs(actual: Invocation, expected: Optional[Invocation], crit: Criterion) -> Dict[str, Any]:
    # single-invocation lists: the evaluator scores the pair 1/0 exactly as ADK does per invocation
    assert expected is not None  # reference_based: checked before any pair is scored
    return {"response": [actual.to_json_dict()], "ground_truth": [expected.to_json_dict()]}


def _trajectory_options(crit: Criterion) -> Dict[str, Any]:
    return {"match_type": crit.match_type.value.lower(), "ignore_args": crit.ignore_args}


def _response_match_inputs(actual: Invocation, expected: Optional[Invocation], crit: Criterion) -> Dict[str, Any]:
    # ROUGE-1 reads only final responses (ADK ignores include_intermediate_responses_in_final here),
    # with every text part as ADK reads it, thoughts included (this is not a judge input)
    assert expected is not None  # reference_based: checked before any pair is scored
    return {"response": final_response_text(actual, include_thoughts=True),
            "ground_truth": final_response_text(expected, include_thoughts=True)}


#: ADK metric name → how to score it. A new metric is one line here (or :func:`register_metric`);
#: each class comes from the shared evaluator registry under the ADK metric name.
METRICS: Dict[str, MetricSpec] = {
    spec.name: spec
    for spec in (
        MetricSpec("tool_trajectory_avg_score", "tool_trajectory_avg_score", _trajectory_inputs,
                   default_threshold=1.0, options=_trajectory_options),
        MetricSpec("response_match_score", "response_match_score", _response_match_inputs, default_threshold=0.8),
        MetricSpec("final_response_match_v2", "final_response_match_v2", uses_judge=True),
        MetricSpec("rubric_based_final_response_quality_v1", "rubric_based_final_response_quality_v1",
                   reference_based=False, uses_judge=True, reads_rubrics=True),
        MetricSpec("rubric_based_tool_use_quality_v1", "rubric_based_tool_use_quality_v1",
                   reference_based=False, uses_judge=True, reads_rubrics=True),
        MetricSpec("hallucinations_v1", "hallucinations_v1", reference_based=False, uses_judge=True),
        MetricSpec("safety_v1", "safety_v1", reference_based=False, uses_judge=True),
        MetricSpec("response_evaluation_score", "response_evaluation_score", uses_judge=True),
        MetricSpec("rubric_based_multi_turn_trajectory_quality_v1", "rubric_based_multi_turn_trajectory_quality_v1",
                   reference_based=False, uses_judge=True, reads_rubrics=True),
        *(MetricSpec(name, name, reference_based=False, uses_judge=True)
          for name in ("multi_turn_task_success_v1", "multi_turn_trajectory_quality_v1",
                       "multi_turn_tool_use_quality_v1")),
        MetricSpec("per_turn_user_simulator_quality_v1", "per_turn_user_simulator_quality_v1",
                   reference_based=False, uses_judge=True, scenario_based=True),
        *(MetricSpec(name, name, reference_based=False, informational=True) for name in EFFICIENCY_METRICS),
        MetricSpec("final_state_match", "final_state_match", reference_based=False, default_threshold=1.0,
                   state_based=True),
    )
}


def register_metric(spec: MetricSpec) -> None:
    """Add or replace a metric (e.g. a custom one) in :data:`METRICS`."""
    METRICS[spec.name] = spec


def get_metric(name: str) -> MetricSpec:
    spec = METRICS.get(name)
    if spec is None:
        raise ConfigError(f"unknown ADK metric {name!r}; supported metrics are: {', '.join(METRICS)} (or a "
                          "custom metric: name it under custom_metrics with its code_config.name)")
    return spec


# ----------------------------------------------------------------------------- evaluation


def evaluate_invocations(
    metric_name: str,
    actual: Sequence[InvocationLike],
    expected: Optional[Sequence[InvocationLike]] = None,
    criterion: Union[None, float, Mapping[str, Any], Criterion] = None,
    model_config: Any = None,
    scenario: Any = None,
    final_state: Optional[Mapping[str, Any]] = None,
    expected_state: Optional[Mapping[str, Any]] = None,
) -> InvocationsResult:
    """Score ``actual`` invocations with ADK metric ``metric_name``, as ADK's evaluator would.

    Args:
        metric_name: an ADK criterion name, e.g. ``"tool_trajectory_avg_score"``.
        actual: the agent's invocations (ADK invocation dicts or models).
        expected: the reference invocations, paired by position.
        criterion: a threshold, a criterion dict as in ``test_config.json``, or ``None``
            for ADK's default (trajectory 1.0 EXACT, response match 0.8; judge metrics
            have no default and raise :class:`ConfigError`).
        model_config: the judge for judge metrics (``None`` reads the environment); a
            criterion's ``judge_model_options.judge_model`` replaces its model name.
        scenario: the case's ``conversation_scenario`` (a model or dict), for the metrics that
            score a simulated conversation against it (``per_turn_user_simulator_quality_v1``).
        final_state: the agent's final session state, for ``final_state_match``.
        expected_state: the case's ``final_session_state``, for ``final_state_match``.

    The efficiency metrics (``tool_call_count_v1`` ...) take no criterion: a threshold is a
    :class:`ConfigError`, as in ADK; they are always ``INFORMATIONAL``.

    Raises:
        ValueError: ``expected`` is given and its length differs from ``actual`` (ADK ≥ 2.6).
        ConfigError: unknown metric, bad criterion, or a judge metric not available yet.

    A reference-based metric without ``expected`` gives ``NOT_EVALUATED``. An invocation whose
    judge failed makes the metric ``FAILED`` with no score and ``details["judge_error"]``
    (:attr:`InvocationsResult.judge_error`): an error, never ``NOT_EVALUATED``.
    """
    from ..._util.loop import run_sync

    return run_sync(aevaluate_invocations(metric_name, actual, expected, criterion, model_config, scenario,
                                          final_state, expected_state))


async def aevaluate_invocations(
    metric_name: str,
    actual: Sequence[InvocationLike],
    expected: Optional[Sequence[InvocationLike]] = None,
    criterion: Union[None, float, Mapping[str, Any], Criterion] = None,
    model_config: Any = None,
    scenario: Any = None,
    final_state: Optional[Mapping[str, Any]] = None,
    expected_state: Optional[Mapping[str, Any]] = None,
) -> InvocationsResult:
    """Async twin of :func:`evaluate_invocations`; the invocations are scored concurrently."""
    spec = get_metric(metric_name)
    if spec.informational:
        from .informational import informational_result

        reject_threshold(metric_name, criterion, where=metric_name)
        return informational_result(metric_name, as_invocations(actual, name="actual") or [])
    if criterion is None and spec.default_threshold is None:
        raise ConfigError(
            f"{metric_name} needs a criterion with a threshold, e.g. criterion={{'threshold': 0.8}} "
            "(judge metrics have no default threshold)"
        )
    crit = parse_criterion(metric_name, criterion, default_threshold=spec.default_threshold)
    threshold = float(crit.threshold)  # type: ignore[arg-type]
    actual_invs = as_invocations(actual, name="actual") or []
    expected_invs = as_invocations(expected, name="expected")
    if expected_invs is not None and len(expected_invs) != len(actual_invs):
        raise ValueError(
            f"{metric_name}: actual and expected invocations must have the same length; got {len(actual_invs)} "
            f"and {len(expected_invs)}"
        )
    if spec.reference_based and expected_invs is None:
        why = "a conversation_scenario case has none" if scenario is not None else "none were given"
        return _not_evaluated(spec.name, crit, len(actual_invs),
                              f"{metric_name} compares with expected invocations, and {why}")
    if spec.scenario_based and scenario is None:
        return _not_evaluated(spec.name, crit, len(actual_invs),
                              f"{metric_name} needs the case's conversation_scenario; a static conversation has none")
    if not actual_invs:
        return _not_evaluated(spec.name, crit, 0, "there are no invocations to evaluate")
    if spec.state_based:
        from .end_state import end_state_result

        return end_state_result(spec.name, crit, len(actual_invs), final_state, expected_state)
    if spec.reads_rubrics and expected_invs is not None:
        try:
            actual_invs = _with_expected_rubrics(actual_invs, expected_invs)
        except ValueError as exc:  # the same rubric id with other content: ADK fails the metric
            return _not_evaluated(spec.name, crit, len(actual_invs), str(exc))
    cls = spec.evaluator_class()
    if spec.scenario_based:
        scored = await cls.evaluate_scenario_case(actual_invs, scenario, crit, model_config)  # type: ignore[attr-defined]
        return _from_case_result(spec.name, crit, scored)
    if spec.inputs is None:
        case = await cls.evaluate_adk_case(actual_invs, expected_invs, crit, model_config)  # type: ignore[attr-defined]
        return _from_case_result(spec.name, crit, case)
    pairs = [(a, expected_invs[i] if expected_invs is not None else None) for i, a in enumerate(actual_invs)]
    evaluator = _construct(spec, cls, crit, model_config)
    per = list(await asyncio.gather(*(_score_pair(spec, evaluator, threshold, a, e, crit) for a, e in pairs)))
    per_dicts = [_score_dict(p) for p in per]
    judge_error = judge_error_summary(per_dicts)
    scores = [p.score for p in per if p.score is not None]
    score = sum(scores) / len(scores) if scores and judge_error is None else None
    details: Dict[str, Any] = {
        "reason": (f"mean over {len(scores)} scored invocation(s) of {len(per)}; threshold {threshold}"
                   if score is not None else
                   f"the judge failed: {judge_error}" if judge_error else "no invocation could be scored"),
        "per_invocation": per_dicts,
    }
    if judge_error:
        details[JUDGE_ERROR] = judge_error
    usage = _merge_usage([p.usage for p in per])
    if usage is not None:
        details["usage"] = usage
    status = FAILED if judge_error else status_for(score, threshold)
    return InvocationsResult(spec.name, score, status, [p.score for p in per], threshold, crit, per, details)


def _with_expected_rubrics(actual: List[Invocation], expected: List[Invocation]) -> List[Invocation]:
    """Copies of ``actual`` carrying each expected invocation's rubrics (the caller's objects
    stay untouched). Actual invocations read back from an ADK result file already hold them;
    identical copies are skipped rather than counted twice."""
    out = []
    for act, exp in zip(actual, expected):
        if exp.rubrics:
            act = act.model_copy(deep=True)
            for rubric in exp.rubrics:
                add_rubric(act, rubric)
        out.append(act)
    return out


def _construct(spec: MetricSpec, cls: type, crit: Criterion, model_config: Any) -> Any:
    options = spec.options(crit)
    if spec.uses_judge:
        return cls(model_config=judge_endpoint(model_config, crit), threshold=crit.threshold, **options)
    return cls(threshold=crit.threshold, **options)


async def _score_pair(
    spec: MetricSpec, evaluator: Any, threshold: float, actual: Invocation, expected: Optional[Invocation],
    crit: Criterion,
) -> InvocationScore:
    inputs = spec.inputs(actual, expected, crit)  # type: ignore[misc]
    try:
        out = await evaluator.acall(**inputs)
    except JudgeError as exc:
        logger.warning("%s: judge failed for invocation %r: %s", spec.name, actual.invocation_id, exc)
        return InvocationScore(None, FAILED, "the judge failed", error=str(exc), usage=exc.usage,
                               judge_error=str(exc))
    key = getattr(evaluator, "result_key", "") or spec.name
    score = out.get(key)
    if isinstance(score, float) and math.isnan(score):
        score = None
    return InvocationScore(
        score=None if score is None else float(score),
        status=status_for(score, threshold),
        reason=out.get(f"{key}_reason") or "",
        details=out.get(f"{key}_details"),
        usage=out.get(f"{key}_usage"),
    )


def _from_case_result(name: str, crit: Criterion, case: Any) -> InvocationsResult:
    """A class's own ``evaluate_adk_case`` result → :class:`InvocationsResult`."""
    threshold = float(crit.threshold)  # type: ignore[arg-type]
    per = [
        InvocationScore(
            score=item.get("score"),
            status=item.get("status") or status_for(item.get("score"), threshold),
            reason=item.get("reason") or "",
            details=item.get("details"),
            error=item.get("error"),
            judge_error=item.get(JUDGE_ERROR),
        )
        for item in (getattr(case, "per_invocation", None) or [])
    ]
    details = dict(getattr(case, "details", None) or {})
    details.setdefault("reason", "")
    details["per_invocation"] = [_score_dict(p) for p in per]
    if getattr(case, "usage", None) is not None:
        details["usage"] = case.usage
    score = case.score
    return InvocationsResult(name, score, case.status, list(case.per_invocation_scores), threshold, crit, per, details)


def _not_evaluated(name: str, crit: Criterion, n: int, reason: str) -> InvocationsResult:
    per = [InvocationScore(None, NOT_EVALUATED, reason) for _ in range(n)]
    return InvocationsResult(name, None, NOT_EVALUATED, [None] * n, float(crit.threshold), crit, per,  # type: ignore[arg-type]
                             {"reason": reason, "per_invocation": [_score_dict(p) for p in per]})


def judge_endpoint(model_config: Any, crit: Criterion) -> Any:
    """The judge for this criterion: ``model_config`` (or the environment), with the model
    replaced by the criterion's ``judge_model`` when it names one."""
    name = crit.judge_model_options.judge_model
    if not name:
        return model_config
    from ...judge.endpoint import resolve_config

    return dataclasses.replace(resolve_config(model_config), model=name)


def _merge_usage(usages: Sequence[Optional[Dict[str, Any]]]) -> Optional[Dict[str, Any]]:
    present = [u for u in usages if u]
    if not present:
        return None
    from ...judge.usage import merge_usage

    return merge_usage(present)
