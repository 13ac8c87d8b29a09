"""One ADK criterion as an ``evaluate()`` evaluator, and a case's verdict read back from its row.

An eval-set run is one ``evaluate_async`` run (see :mod:`.runner`): a row per eval
case, the agent's invocations as the target's output, and per criterion a
:class:`CriterionCell` that scores the case with :func:`.criteria.aevaluate_invocations`.
Everything ADK puts in its result file is then rebuilt from the finished row by
:func:`case_result_from_row`, so the engine owns concurrency, the judge budget and
error capture, and this module owns only ADK's verdict rules:

* a metric passes when ``score >= threshold``; a case passes when some metric passed
  and none failed; ``NOT_EVALUATED`` (and ``INFORMATIONAL``) metrics are skipped, so a
  case with only those is ``NOT_EVALUATED`` (:func:`final_eval_status`);
* a metric that raises is ``NOT_EVALUATED``, with the reason in the case's ``notes``;
* a judge that failed (``details["judge_error"]``, a :class:`JudgeError`, or a cell the
  engine recorded as an error, e.g. timed out) is an error: the metric is ``FAILED`` with
  no score, the case is ``FAILED`` and lists it in ``errors`` (never ``NOT_EVALUATED``,
  which would let the case pass on its other metrics);
* a case whose invocations could not be obtained (the agent crashed or ran past its
  deadline) is ``FAILED`` with no metric results, and the reason in ``errors`` and ``notes``.
"""

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from ...errors import ConfigError, JudgeError
from ...evaluators.base import score_scale
from ...runner.cells import ErrorResult
from ...wording import Text, recall, remember
from ..eval_config import Criterion
from ..models import EvalCase, Invocation
from ..results import (
    JUDGE_ERROR,
    EvalCaseResult,
    EvalMetricResult,
    EvalMetricResultDetails,
    EvalMetricResultPerInvocation,
    EvalStatus,
    RubricScore,
)
from .criteria import InvocationsResult, aevaluate_invocations, get_metric
from .metric_outcome import FAILED, INFORMATIONAL, NOT_EVALUATED

CASE_COLUMN = "case"
INVOCATIONS_COLUMN = "invocations"
#: the producer's output column holding a simulated user's per-turn records (scenario cases)
SIMULATED_USER_COLUMN = "simulated_user"

_ENGINE_RESULT = {"PASSED": "pass", "FAILED": "fail", NOT_EVALUATED: "not_applicable", INFORMATIONAL: "informational"}
#: the target's output column holding the agent's final session state (``None`` when unknown)
FINAL_STATE_COLUMN = "final_session_state"


@dataclass
class CaseSlot:
    """One eval case of one eval set, as a row refers to it (rows carry only its key)."""

    key: str
    eval_set_id: str
    case: EvalCase
    #: the config's criteria, then ADK's efficiency metrics (``None``: they take no criterion)
    criteria: Dict[str, Optional[Criterion]]
    #: the criteria that are ADK custom metrics: their functions (``custom_metrics`` in the config)
    custom: Dict[str, Any] = field(default_factory=dict)

    @property
    def expected(self) -> Optional[List[Invocation]]:
        """The reference invocations; ``None`` for a ``conversation_scenario`` case."""
        return self.case.conversation


class CriterionCell:
    """One ADK criterion as an ``evaluate()`` evaluator over case rows.

    Called with the row's case key and the agent's invocations (the target's output); it
    looks the case up, scores it with :func:`aevaluate_invocations` (given the case's expected
    invocations and its ``conversation_scenario``, whichever the metric reads) and returns an
    ``evaluate()`` cell whose ``<name>_details`` holds everything ADK's result needs. A
    metric that raises becomes ``NOT_EVALUATED`` with the error as its reason (ADK's
    ``LocalEvalService`` does the same), so one broken metric never hides the others; a
    :class:`JudgeError` is a judge failure instead (``FAILED``, marked ``judge_error``), and
    a judge failure is an ``"error"`` cell with ``<name>_error``.
    """

    def __init__(self, name: str, slots: Mapping[str, CaseSlot], model_config: Any) -> None:
        self.name = name
        self._slots = slots
        self._model_config = model_config
        self.__name__ = name
        custom = next((s.custom[name] for s in slots.values() if name in s.custom), None)
        #: what a report names as this cell's evaluator (this adapter class says nothing to a reader)
        where = f"{getattr(custom, '__module__', '?')}.{getattr(custom, '__qualname__', '?')}"
        self.scored_by = (f"{_metric_class(name).__name__} (ADK criterion {name})" if custom is None else
                          f"{where} (ADK custom metric {name})")
        self._custom = custom is not None

    @property
    def score_scale(self) -> Tuple[float, float]:
        """The criterion's own scale, as its evaluator class declares it (0–1 unless it says otherwise:
        every ADK criterion but the 1–5 ``response_evaluation_score`` is a 0–1 share)."""
        return (score_scale(_metric_class(self.name)) if not self._custom else None) or (0.0, 1.0)

    async def __call__(self, *, case: str, invocations: List[Dict[str, Any]],
                       final_session_state: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        slot = self._slots[case]
        n = self.name
        if n not in slot.criteria:  # another eval set's criterion: this case's config does not name it
            return {n: None, f"{n}_result": "not_applicable", f"{n}_reason": "not a criterion of this eval set"}
        crit = slot.criteria[n]
        threshold = crit.threshold if crit is not None else None
        try:
            if n in slot.custom:
                from .custom import custom_result

                assert crit is not None
                result = await custom_result(n, slot.custom[n], crit, invocations, slot.expected,
                                             slot.case.conversation_scenario)
            else:
                result = await aevaluate_invocations(n, invocations, slot.expected, crit, self._model_config,
                                                     scenario=slot.case.conversation_scenario,
                                                     final_state=final_session_state,
                                                     expected_state=slot.case.final_session_state)
        except Exception as exc:  # noqa: BLE001 - ADK records a crashed metric as NOT_EVALUATED
            # a failed judge, or a custom metric that returned the wrong thing: an error, not "does not apply"
            custom_error = isinstance(exc, ConfigError) and n in slot.custom
            if isinstance(exc, JudgeError) or custom_error:
                message = str(exc)
                raise ErrorResult({n: None, f"{n}_result": "error", f"{n}_threshold": threshold, f"{n}_error": message,
                                   f"{n}_reason": message if custom_error else f"the judge failed: {message}",
                                   f"{n}_details": {"status": FAILED, "error": message, JUDGE_ERROR: message,
                                                    "per_invocation": []}}, message) from None
            message = f"{type(exc).__name__}: {exc}"
            return {n: None, f"{n}_result": "not_applicable", f"{n}_threshold": threshold,
                    f"{n}_reason": f"not evaluated: {message}",
                    f"{n}_details": {"status": NOT_EVALUATED, "error": message, "per_invocation": []}}
        cell = _cell(result)
        if result.judge_error:  # some invocations could not be judged: the engine counts an error cell
            raise ErrorResult(cell, result.judge_error)
        return cell


def _metric_class(name: str) -> type:
    return get_metric(name).evaluator_class()


def _cell(result: InvocationsResult) -> Dict[str, Any]:
    n = result.metric_name
    cell = {
        n: result.score,
        f"{n}_result": _ENGINE_RESULT.get(result.status, "not_applicable"),
        f"{n}_threshold": result.threshold,
        f"{n}_reason": result.details.get("reason", ""),
        f"{n}_details": {"status": result.status, **result.details},
    }
    if result.details.get("usage"):  # the engine sums <key>_usage into the run's usage (summary.json)
        cell[f"{n}_usage"] = result.details["usage"]
    if result.judge_error:
        cell.update({f"{n}_result": "error", f"{n}_error": result.judge_error})
    return cell


# ----------------------------------------------------------------------------- rows → ADK results


def _said(template: str, **fields: Any) -> str:
    """A case's error or note: its Python words, remembered with the references of the judge error it quotes,
    so ``agent-eval adk`` prints it in its own words (:func:`agent_evaluators.wording.recall`)."""
    return remember(Text(template, **fields))


def case_result(slot: CaseSlot, status: EvalStatus, notes: Sequence[str] = (),
                errors: Sequence[str] = ()) -> EvalCaseResult:
    """A case result with no metric results (not run, or no invocations to score)."""
    user_id = slot.case.session_input.user_id if slot.case.session_input else None
    return EvalCaseResult(
        eval_set_file=slot.eval_set_id, eval_set_id=slot.eval_set_id, eval_id=slot.case.eval_id,
        final_eval_status=status, session_id="", user_id=user_id or None, notes=list(notes), errors=list(errors),
    )


def case_result_from_row(slot: CaseSlot, row: Mapping[str, Any], names: Sequence[str]) -> EvalCaseResult:
    """ADK's :class:`EvalCaseResult` for one finished engine row (see the module docstring)."""
    target_error = row.get("target_error")
    invocations = row.get(f"outputs.{INVOCATIONS_COLUMN}")
    if target_error or not isinstance(invocations, list):
        why = recall(target_error or row.get("row_error") or "the agent's invocations are missing")
        return case_result(slot, EvalStatus.FAILED, [_said("no invocations to evaluate: {why}", why=why)],
                           [_said("the agent could not be run: {why}", why=why)])
    actual = [Invocation.model_validate(v) for v in invocations]
    expected = slot.expected
    per_invocation = [
        EvalMetricResultPerInvocation(
            actual_invocation=a, expected_invocation=expected[i] if expected is not None and i < len(expected) else None
        )
        for i, a in enumerate(actual)
    ]
    overall: List[EvalMetricResult] = []
    notes: List[str] = []
    errors: List[str] = []
    for name in names:
        crit = slot.criteria[name]
        prefix = f"outputs.{name}."
        details = row.get(f"{prefix}{name}_details")
        if not isinstance(details, Mapping):  # the engine recorded an error cell (e.g. a timeout)
            error = row.get(f"{prefix}error") or row.get(f"{prefix}{name}_error") or "no result"
            errors.append(_said("{name} could not be judged: {error}", name=name, error=recall(error)))
            overall.append(_metric(name, crit, None, EvalStatus.FAILED, None))
            for item in per_invocation:
                item.eval_metric_results.append(_metric(name, crit, None, EvalStatus.FAILED, None))
            continue
        status = EvalStatus.parse(details.get("status", NOT_EVALUATED))
        score = row.get(f"{prefix}{name}")
        judge_error = details.get(JUDGE_ERROR)
        if judge_error:  # an error, whatever status a metric of our own reported
            errors.append(_said("{name} could not be judged: {error}", name=name, error=recall(judge_error)))
            status, score = EvalStatus.FAILED, None
        overall.append(_metric(name, crit, score, status, details.get("rubric_scores"), details))
        if details.get("error") and not judge_error and not details.get("per_invocation"):
            notes.append(_said("{name}: not evaluated: {error}", name=name, error=recall(details["error"])))
        elif status == EvalStatus.NOT_EVALUATED:
            notes.append(f"{name}: not evaluated: {details.get('reason', '')}")
        per = details.get("per_invocation") or []
        for i, item in enumerate(per_invocation):
            inv: Mapping[str, Any] = per[i] if i < len(per) and isinstance(per[i], Mapping) else {}
            if inv.get("error"):
                notes.append(_said("{name}: invocation {id}: {error}", name=name,
                                   id=item.actual_invocation.invocation_id or "?", error=recall(inv["error"])))
            inv_details = inv.get("details")
            rubric_scores = inv_details.get("rubric_scores") if isinstance(inv_details, Mapping) else None
            item.eval_metric_results.append(_metric(
                name, crit, inv.get("score"), EvalStatus.parse(inv.get("status", NOT_EVALUATED)), rubric_scores,
                inv_details,
            ))
    status = EvalStatus.FAILED if errors else final_eval_status(m.eval_status for m in overall)
    result = case_result(slot, status, notes, errors)
    result.overall_eval_metric_results = overall
    result.eval_metric_result_per_invocation = per_invocation
    return result


def _metric(name: str, crit: Optional[Criterion], score: Any, status: EvalStatus, rubric_scores: Any,
            details: Any = None) -> EvalMetricResult:
    """One metric's result in ADK's shape; an efficiency metric has no criterion and keeps its
    breakdown (``token_usage_details`` / ``duration_details``) where ADK's result file has it."""
    extra = details if isinstance(details, Mapping) else {}
    return EvalMetricResult(
        metric_name=name, threshold=crit.threshold if crit is not None else None,
        criterion=crit.to_json_dict() if crit is not None else None,
        score=None if score is None else float(score), eval_status=status,
        details=EvalMetricResultDetails(rubric_scores=_rubrics(rubric_scores),
                                        token_usage_details=extra.get("token_usage_details"),
                                        duration_details=extra.get("duration_details")),
    )


def _rubrics(items: Any) -> Optional[List[RubricScore]]:
    if not items:
        return None
    out = [
        RubricScore(rubric_id=str(s["rubric_id"]), rationale=s.get("rationale"), score=s.get("score"))
        for s in items
        if isinstance(s, Mapping) and s.get("rubric_id") is not None
    ]
    return out or None


def final_eval_status(statuses: Iterable[EvalStatus]) -> EvalStatus:
    """ADK's ``_generate_final_eval_status``: PASSED once any metric passed, FAILED at the first
    failure; NOT_EVALUATED and INFORMATIONAL metrics are skipped."""
    final = EvalStatus.NOT_EVALUATED
    for status in statuses:
        if status == EvalStatus.PASSED:
            final = EvalStatus.PASSED
        elif status == EvalStatus.FAILED:
            return EvalStatus.FAILED
    return final
