"""``final_state_match`` for ADK eval cases: the agent's final session state against the case's
``final_session_state``, with :class:`~agent_evaluators.evaluators.final_state.FinalStateMatchEvaluator`.

The criterion carries the evaluator's options beside its threshold (default 1.0)::

    "final_state_match": {"threshold": 1.0, "mode": "subset", "rules": {"last_city": {"present": true}}}

The state is one per case, so the case's score sits on its last invocation (the others are
``NOT_EVALUATED``): ADK's per-invocation mean and ``AgentEvaluator``'s flat mean over runs then
both read the case's score.
"""

from typing import Any, Mapping, Optional

from ...errors import ConfigError
from ..eval_config import Criterion
from .metric_outcome import NOT_EVALUATED, InvocationScore, InvocationsResult, _score_dict, status_for


def _evaluator(crit: Criterion) -> Any:
    from ...evaluators.final_state import FinalStateMatchEvaluator

    extra = crit.model_extra or {}
    unknown = [k for k in extra if k not in ("mode", "rules")]
    if unknown:
        raise ConfigError(f"final_state_match: unknown criterion field {unknown[0]!r}; it takes threshold, mode "
                          "(subset or exact) and rules (per-key checks)")
    return FinalStateMatchEvaluator(mode=extra.get("mode", "subset"), rules=extra.get("rules"),
                                    threshold=crit.threshold)


def end_state_result(name: str, crit: Criterion, n: int, final_state: Optional[Mapping[str, Any]],
                     expected_state: Optional[Mapping[str, Any]]) -> InvocationsResult:
    """The case's end-state score (``NOT_EVALUATED`` when nothing is expected or the state is unknown)."""
    evaluator = _evaluator(crit)
    threshold = float(crit.threshold)  # type: ignore[arg-type]
    reason = ""
    if not expected_state and not evaluator.rules:
        reason = "the eval case has no final_session_state (and the criterion no rules): nothing to compare"
    elif final_state is None:
        reason = ("the agent's final session state is not known: recorded invocations carry none; run the agent "
                  "(agent-eval adk AGENT_DIR EVALSET) to compare it")
    if reason:
        per = [InvocationScore(None, NOT_EVALUATED, reason) for _ in range(n)]
        return InvocationsResult(name, None, NOT_EVALUATED, [None] * n, threshold, crit, per,
                                 {"reason": reason, "per_invocation": [_score_dict(p) for p in per]})
    out = evaluator(final_state=dict(final_state or {}), expected_state=dict(expected_state or {}))
    score = out["final_state_match"]
    status = status_for(score, threshold)
    once = "scored once per case, on its last invocation"
    per = [InvocationScore(None, NOT_EVALUATED, once) for _ in range(n - 1)]
    per.append(InvocationScore(score, status, out["final_state_match_reason"], out["final_state_match_details"]))
    details = {"reason": out["final_state_match_reason"], "per_invocation": [_score_dict(p) for p in per],
               **out["final_state_match_details"]}
    return InvocationsResult(name, score, status, [p.score for p in per], threshold, crit, per, details)
