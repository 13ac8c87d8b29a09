"""azure-ai-evaluation 1.18's result shape: the one place its row keys are written.

A 1.18 evaluator returns ``<k>``, ``<k>_score``, ``<k>_passed``, ``<k>_result``,
``<k>_reason``, ``<k>_status``, ``<k>_threshold`` and ``<k>_properties`` (plus a legacy
``gpt_<k>`` alias for some metrics, on completed results only). A skipped row (nothing
to judge) has ``None`` scores, ``_result: "not_applicable"``, ``_status: "skipped"`` and a
reason starting ``"Not applicable: "``. Every evaluator of :mod:`agent_evaluators.azure`
writes its dict through :func:`azure_result` / :func:`not_applicable_result`, so the shape
cannot drift between metrics.
"""

import math
from typing import Any, Dict, Mapping, Optional

__all__ = ["azure_result", "not_applicable_result", "verdict_word", "NOT_APPLICABLE_PREFIX"]

NOT_APPLICABLE_PREFIX = "Not applicable: "


def verdict_word(score: Optional[float], passed: Optional[bool]) -> str:
    """``"pass"`` / ``"fail"``, or ``"unknown"`` for a NaN score (azure's words)."""
    if score is None or (isinstance(score, float) and math.isnan(score)) or passed is None:
        return "unknown"
    return "pass" if passed else "fail"


def azure_result(
    key: str,
    *,
    score: Optional[float],
    passed: Optional[bool],
    reason: Optional[str],
    threshold: Any,
    properties: Optional[Mapping[str, Any]],
    legacy_alias: Optional[str] = None,
) -> Dict[str, Any]:
    """A completed 1.18 result for ``key``. ``legacy_alias`` (e.g. ``"gpt_tool_call_accuracy"``)
    repeats the score under the old name, placed second as azure places it."""
    word = verdict_word(score, passed)
    out: Dict[str, Any] = {key: score}
    if legacy_alias:
        out[legacy_alias] = score
    out[f"{key}_score"] = score
    out[f"{key}_passed"] = word == "pass"
    out[f"{key}_result"] = word
    out[f"{key}_reason"] = reason
    out[f"{key}_status"] = "completed"
    out[f"{key}_threshold"] = threshold
    out[f"{key}_properties"] = dict(properties) if properties is not None else None
    return out


def not_applicable_result(key: str, reason: str, threshold: Any) -> Dict[str, Any]:
    """A skipped 1.18 result: no score, ``not_applicable``, the reason prefixed as azure prefixes it."""
    if not reason.startswith(NOT_APPLICABLE_PREFIX):
        reason = NOT_APPLICABLE_PREFIX + reason
    return {
        key: None,
        f"{key}_score": None,
        f"{key}_passed": None,
        f"{key}_result": "not_applicable",
        f"{key}_reason": reason,
        f"{key}_status": "skipped",
        f"{key}_threshold": threshold,
        f"{key}_properties": None,
    }
