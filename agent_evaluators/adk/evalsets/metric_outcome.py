"""What scoring one ADK metric over a case produces: the status names, ADK's ``score >= threshold``
rule and the :class:`InvocationsResult` shape, shared by :mod:`.criteria` (which re-exports them)
and the metric kinds scored outside it (:mod:`.informational`, :mod:`.end_state`, :mod:`.custom`)."""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ..eval_config import Criterion
from ..results import JUDGE_ERROR

PASSED = "PASSED"
FAILED = "FAILED"
NOT_EVALUATED = "NOT_EVALUATED"
#: a metric that reports a value and never passes or fails (ADK's efficiency metrics)
INFORMATIONAL = "INFORMATIONAL"


def status_for(score: Optional[float], threshold: float) -> str:
    """ADK's ``get_eval_status``: no score → NOT_EVALUATED, else PASSED iff ``score >= threshold``."""
    if score is None:
        return NOT_EVALUATED
    return PASSED if score >= threshold else FAILED


@dataclass
class InvocationScore:
    """One invocation's result for one metric."""

    score: Optional[float]
    status: str
    reason: str = ""
    details: Any = None
    error: Optional[str] = None
    usage: Optional[Dict[str, Any]] = None
    #: why the judge failed on this invocation (then ``status`` is ``FAILED`` and ``score`` ``None``)
    judge_error: Optional[str] = None


@dataclass
class InvocationsResult:
    """What :func:`evaluate_invocations` returns (ADK's ``EvaluationResult``, flattened).

    ``score`` is the overall score (``None`` when nothing was scored), ``status`` one of
    ``"PASSED"``, ``"FAILED"``, ``"NOT_EVALUATED"``; ``per_invocation_scores`` has one
    entry per actual invocation. ``details`` holds ``reason``, ``per_invocation``
    (score, status, reason, evaluator details, error per invocation), ``usage`` for
    judge metrics, and whatever case-level details the metric adds (e.g. rubric scores).
    A judge failure makes the metric ``FAILED`` with ``score`` ``None`` and sets
    ``details["judge_error"]`` (:attr:`judge_error`): an error, not a verdict.
    """

    metric_name: str
    score: Optional[float]
    status: str
    per_invocation_scores: List[Optional[float]]
    threshold: Optional[float]
    criterion: Optional[Criterion]
    per_invocation: List[InvocationScore] = field(default_factory=list)
    details: Dict[str, Any] = field(default_factory=dict)

    @property
    def per_invocation_statuses(self) -> List[str]:
        return [p.status for p in self.per_invocation]

    @property
    def judge_error(self) -> Optional[str]:
        """Why the judge failed (``None`` when it did not): the metric is then an error, not a verdict."""
        value = self.details.get(JUDGE_ERROR)
        return str(value) if value else None


def _score_dict(p: InvocationScore) -> Dict[str, Any]:
    out: Dict[str, Any] = {"score": p.score, "status": p.status, "reason": p.reason}
    if p.details is not None:
        out["details"] = p.details
    if p.error is not None:
        out["error"] = p.error
    if p.judge_error:
        out[JUDGE_ERROR] = p.judge_error
    return out
