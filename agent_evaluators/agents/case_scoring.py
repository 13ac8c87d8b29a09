"""Score one ADK case's recorded invocations with its criteria, static and scenario cases alike.

A thin layer over :func:`agent_evaluators.adk.aevaluate_invocations` (ADK's evaluator entry
shape) that adds what a ``conversation_scenario`` case needs: reference-based criteria are
``NOT_EVALUATED`` with a one-line reason (there is no expected conversation), and
``per_turn_user_simulator_quality_v1`` is scored against the scenario. The case status follows
ADK's ``_generate_final_eval_status``: any FAILED → FAILED, else any PASSED → PASSED, else
NOT_EVALUATED. The lead's ``run_eval_sets`` can call :func:`score_case` per case and run.
"""

import logging
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence

__all__ = ["MetricOutcome", "CaseScore", "score_case", "final_status"]

logger = logging.getLogger(__name__)

PER_TURN = "per_turn_user_simulator_quality_v1"


@dataclass
class MetricOutcome:
    name: str
    threshold: float
    score: Optional[float]
    status: str
    reason: str = ""
    per_invocation_scores: List[Optional[float]] = field(default_factory=list)
    details: Dict[str, Any] = field(default_factory=dict)


@dataclass
class CaseScore:
    eval_id: str
    status: str
    metrics: List[MetricOutcome]
    invocations: List[Any]


def final_status(statuses: Sequence[str]) -> str:
    """ADK's case status from its metric statuses."""
    status = "NOT_EVALUATED"
    for s in statuses:
        if s == "FAILED":
            return "FAILED"
        if s == "PASSED":
            status = "PASSED"
    return status


async def score_case(case: Any, invocations: Sequence[Any], criteria: Mapping[str, Any],
                     model_config: Any = None) -> CaseScore:
    """Score ``invocations`` (what the agent did for ``case``) with every criterion of ``criteria``."""
    from ..adk_eval.criteria import aevaluate_invocations
    from ..evaluators.user_simulator_quality import PerTurnUserSimulatorQualityEvaluator

    scenario = case.conversation_scenario
    expected = None if scenario is not None else case.conversation
    outcomes: List[MetricOutcome] = []
    for name, crit in criteria.items():
        if name == PER_TURN:
            r: Any = await PerTurnUserSimulatorQualityEvaluator.evaluate_scenario_case(invocations, scenario, crit,
                                                                                      model_config)
            outcomes.append(MetricOutcome(name, r.threshold, r.score, r.status, r.details.get("reason", ""),
                                          r.per_invocation_scores, r.details))
            continue
        try:
            res = await aevaluate_invocations(name, invocations, expected, crit, model_config)
        except ValueError as exc:  # ADK: an exception inside a metric leaves it NOT_EVALUATED
            logger.warning("%s: %s not evaluated: %s", case.eval_id, name, exc)
            threshold = float(getattr(crit, "threshold", None) or 0.0)
            outcomes.append(MetricOutcome(name, threshold, None, "NOT_EVALUATED", str(exc)))
            continue
        reason = res.details.get("reason", "")
        if scenario is not None and res.status == "NOT_EVALUATED" and "expected invocations" in reason:
            reason = f"{name} needs expected invocations, and a conversation_scenario case has none"
        outcomes.append(MetricOutcome(name, res.threshold, res.score, res.status, reason, res.per_invocation_scores,
                                      res.details))
    return CaseScore(case.eval_id, final_status([o.status for o in outcomes]), outcomes, list(invocations))
