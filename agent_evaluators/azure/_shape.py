"""azure-ai-evaluation 1.18's result shape: the one place its row keys are written.

A 1.18 evaluator returns ``<k>``, ``<k>_score``, ``<k>_passed``, ``<k>_result``,
``<k>_reason``, ``<k>_status``, ``<k>_threshold`` and ``<k>_properties`` (plus a legacy
``gpt_<k>`` alias for some metrics, on completed results only). A skipped row (nothing
to judge) has ``None`` scores, ``_result: "not_applicable"``, ``_status: "skipped"`` and a
reason starting ``"Not applicable: "``. Every evaluator of :mod:`agent_evaluators.azure`
writes its dict through :func:`azure_result` / :func:`not_applicable_result`, so the shape
cannot drift between metrics.

The safety evaluators, which 1.18 sends to its cloud RAI service, have that service's row
instead (:func:`service_severity_result`, :func:`service_label_result`): no ``_passed``,
``_status`` or ``_properties``, and token counts as strings in keys of their own.
"""

import functools
import math
from typing import Any, Dict, Mapping, Optional, Tuple

NOT_APPLICABLE_PREFIX = "Not applicable: "


def verdict_word(score: Optional[float], passed: Optional[bool]) -> str:
    """``"pass"`` / ``"fail"``, or ``"unknown"`` for a NaN score (azure's words)."""
    if score is None or (isinstance(score, float) and math.isnan(score)) or passed is None:
        return "unknown"
    return "pass" if passed else "fail"


#: a completed row's keys after ``<k>`` (and a legacy alias), in 1.18's order for most metrics
ROW_ORDER = ("score", "passed", "result", "reason", "status", "threshold", "properties")
#: ToolCallAccuracy's order: ``_result`` before ``_passed`` (its own ``_do_eval`` writes them so)
RESULT_FIRST_ORDER = ("score", "result", "passed", "reason", "status", "threshold", "properties")


def azure_result(
    key: str,
    *,
    score: Optional[float],
    passed: Optional[bool],
    reason: Optional[str],
    threshold: Any,
    properties: Optional[Mapping[str, Any]],
    legacy_alias: Optional[str] = None,
    order: Tuple[str, ...] = ROW_ORDER,
) -> Dict[str, Any]:
    """A completed 1.18 result for ``key``. ``legacy_alias`` (e.g. ``"gpt_tool_call_accuracy"``)
    repeats the score under the old name, placed second as azure places it; ``order``: the other
    keys' order (:data:`ROW_ORDER`, or :data:`RESULT_FIRST_ORDER`)."""
    word = verdict_word(score, passed)
    out: Dict[str, Any] = {key: score}
    if legacy_alias:
        out[legacy_alias] = score
    values = {"score": score, "passed": word == "pass", "result": word, "reason": reason, "status": "completed",
              "threshold": threshold, "properties": dict(properties) if properties is not None else None}
    for part, name in zip(order, _row_keys(key, order)):
        out[name] = values[part]
    return out


@functools.lru_cache(maxsize=256)
def _row_keys(key: str, order: Tuple[str, ...] = ROW_ORDER) -> Tuple[str, ...]:
    """A completed row's keys after ``<k>``, in ``order`` (made once per key, not per row)."""
    return tuple(f"{key}_{part}" for part in order)


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


#: the token and sample keys of a 1.18 RAI service row, in azure's order (``_base_rai_svc_eval._parse_eval_result``)
_SERVICE_META = ("total_tokens", "prompt_tokens", "completion_tokens", "finish_reason", "sample_input",
                 "sample_output", "model")


def service_tokens(key: str, usage: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    """The RAI service row's token keys for ``key``: counts as strings (``""`` when unknown), and
    ``""`` for the finish reason, samples and model, which 1.18's service rows leave empty."""
    usage = usage or {}
    prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
    values = {
        "total_tokens": str(prompt + completion) if prompt and completion else "",
        "prompt_tokens": str(prompt) if prompt is not None else "",
        "completion_tokens": str(completion) if completion is not None else "",
    }
    return {f"{key}_{name}": values.get(name, "") for name in _SERVICE_META}


def service_severity_result(key: str, *, severity: Any, score: Any, reason: str, threshold: Any,
                            passed: bool, usage: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    """A 1.18 harm-severity row: ``<k>`` (the severity label), ``<k>_score`` (0-7), ``<k>_reason``,
    the token keys, then ``<k>_threshold`` and ``<k>_result`` (``pass`` when at most the threshold)."""
    return {key: severity, f"{key}_score": score, f"{key}_reason": reason, **service_tokens(key, usage),
            f"{key}_threshold": threshold, f"{key}_result": "pass" if passed else "fail"}


def service_label_result(key: str, *, label: bool, reason: str, components: Optional[Mapping[str, bool]] = None,
                         details: Optional[Mapping[str, Any]] = None,
                         usage: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
    """A 1.18 label row: ``<k>_label``, ``<k>_reason``, each component's ``<component>_label``
    (protected material's), ``<k>_details``, then the token keys."""
    out: Dict[str, Any] = {f"{key}_label": label, f"{key}_reason": reason}
    out.update({f"{name}_label": value for name, value in (components or {}).items()})
    if details is not None:
        out[f"{key}_details"] = dict(details)
    out.update(service_tokens(key, usage))
    return out
