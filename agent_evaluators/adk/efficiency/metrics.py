"""ADK's four informational efficiency metrics, computed from per-turn measurements.

google-adk 2.13 appends ``tool_call_count_v1``, ``inference_call_count_v1``,
``token_usage_v1`` and ``invocation_duration_v1`` to every eval (its
``_efficiency_evaluators.py``). They report what the *agent* spent, never pass or fail
(status ``INFORMATIONAL``), and a threshold on one is an error. The arithmetic lives here
once, over a neutral :class:`TurnUsage` (one user turn: its tool calls, model calls, the
usage each model call reported and the turn's timing), so the ADK runner (from
invocations, :mod:`.sources`) and the ``evaluate()`` evaluators (from messages) give the
same numbers for the same turns. The rules, as ADK has them:

* every metric is computed per turn; the case value is the **average** over turns, so it
  reads "per turn" whatever the conversation's length;
* ``None`` is "not available", never 0: a turn without usage reports ``None`` and is left
  out of the count averages;
* tokens: per model call, ``input = prompt + tool_use`` and ``output = candidates +
  reasoning`` (each ``None`` when neither part was reported), summed per turn with
  unreported counts staying ``None``; ``total = input + output``. The case breakdown
  averages each count over *every* turn (a count some turn did not report is 0 for that
  turn), and a count no turn reported stays ``None``;
* duration: measured while the agent ran (never rebuilt from timestamps in ADK's runner),
  ``framework = max(total - model - tool, 0)`` rounded to milliseconds, ``None`` when a
  part is unmeasured; the case breakdown averages each part over the turns that have it.
"""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence

from ...errors import ConfigError

TOOL_CALL_COUNT = "tool_call_count_v1"
INFERENCE_CALL_COUNT = "inference_call_count_v1"
TOKEN_USAGE = "token_usage_v1"
INVOCATION_DURATION = "invocation_duration_v1"
#: in the order ADK appends them to every eval
EFFICIENCY_METRICS = (TOOL_CALL_COUNT, INFERENCE_CALL_COUNT, TOKEN_USAGE, INVOCATION_DURATION)

#: ADK's ``TokenUsageDetails`` fields (the counts nest: total ⊇ input ⊇ prompt ⊇ cached, ...)
TOKEN_FIELDS = ("total_tokens", "input_tokens", "prompt_tokens", "cached_tokens", "tool_use_tokens",
                "output_tokens", "candidates_tokens", "reasoning_tokens")
#: ADK's ``DurationDetails`` fields (the parts add up to the total)
DURATION_FIELDS = ("total_seconds", "model_seconds", "tool_seconds", "framework_seconds")

#: a model call's usage in genai's ``GenerateContentResponseUsageMetadata`` terms (snake_case)
_GENAI = ("prompt_token_count", "tool_use_prompt_token_count", "cached_content_token_count",
          "candidates_token_count", "thoughts_token_count")


@dataclass
class TurnUsage:
    """What one user turn cost the agent.

    ``model_calls`` is ``None`` when the source cannot say which steps were model calls
    (ADK's legacy ``tool_uses`` form); ``usages`` holds one genai-style usage dict per model
    call that reported usage (see :func:`call_tokens`); the durations are seconds, ``None``
    when not measured.
    """

    tool_calls: int = 0
    model_calls: Optional[int] = None
    usages: List[Mapping[str, Any]] = field(default_factory=list)
    duration: Optional[float] = None
    model_duration: Optional[float] = None
    tool_duration: Optional[float] = None


@dataclass
class EfficiencyResult:
    """One metric over a case: the per-turn values, their average and the breakdowns
    (``token_usage_v1`` and ``invocation_duration_v1`` only)."""

    metric: str
    per_turn: List[Optional[float]]
    overall: Optional[float]
    per_turn_details: Optional[List[Dict[str, Optional[float]]]] = None
    overall_details: Optional[Dict[str, Optional[float]]] = None


def reject_threshold(metric: str, threshold: Any, *, where: str = "criteria") -> None:
    """A threshold on an informational metric is a :class:`ConfigError` (ADK raises too): they
    report a value and never pass or fail, so a threshold could only mislead."""
    if threshold is not None:
        raise ConfigError(
            f"{where}: {metric} does not take a threshold: it reports a value and never passes or fails "
            "(status INFORMATIONAL); remove it, it is reported on every agent run anyway"
        )


def _count(usage: Mapping[str, Any], name: str) -> Optional[int]:
    camel = name.split("_")[0] + "".join(w.title() for w in name.split("_")[1:])
    value = usage.get(name, usage.get(camel))
    if value is None or isinstance(value, bool):
        return None
    return int(value)


def call_tokens(usage: Mapping[str, Any]) -> Dict[str, Optional[int]]:
    """One model call's counts (ADK's ``TokenUsage.from_usage_metadata``), keyed by
    :data:`TOKEN_FIELDS` minus ``total_tokens``; snake_case or camelCase genai keys."""
    prompt, tool = _count(usage, "prompt_token_count"), _count(usage, "tool_use_prompt_token_count")
    cand, thoughts = _count(usage, "candidates_token_count"), _count(usage, "thoughts_token_count")
    return {
        "input_tokens": None if prompt is None and tool is None else (prompt or 0) + (tool or 0),
        "prompt_tokens": prompt,
        "cached_tokens": _count(usage, "cached_content_token_count"),
        "tool_use_tokens": tool,
        "output_tokens": None if cand is None and thoughts is None else (cand or 0) + (thoughts or 0),
        "candidates_tokens": cand,
        "reasoning_tokens": thoughts,
    }


def _token_details(turn: TurnUsage) -> Dict[str, Optional[float]]:
    totals: Dict[str, Optional[float]] = dict.fromkeys(TOKEN_FIELDS)
    for usage in turn.usages:
        for name, value in call_tokens(usage).items():
            if value is not None:
                totals[name] = (totals[name] or 0) + value
    if totals["input_tokens"] is not None or totals["output_tokens"] is not None:
        totals["total_tokens"] = (totals["input_tokens"] or 0) + (totals["output_tokens"] or 0)
    return totals


def _duration_details(turn: TurnUsage) -> Dict[str, Optional[float]]:
    if turn.duration is None:
        return dict.fromkeys(DURATION_FIELDS)
    model, tool = turn.model_duration, turn.tool_duration
    framework = None if model is None or tool is None else round(max(turn.duration - model - tool, 0.0), 3)
    return {"total_seconds": turn.duration, "model_seconds": model, "tool_seconds": tool,
            "framework_seconds": framework}


def _mean_present(values: Sequence[Optional[float]]) -> Optional[float]:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def compute(metric: str, turns: Sequence[TurnUsage]) -> EfficiencyResult:
    """``metric`` (one of :data:`EFFICIENCY_METRICS`) over a case's turns, as ADK computes it."""
    if metric == TOOL_CALL_COUNT:
        per: List[Optional[float]] = [float(t.tool_calls) for t in turns]
        return EfficiencyResult(metric, per, _mean_present(per))
    if metric == INFERENCE_CALL_COUNT:
        per = [None if t.model_calls is None else float(t.model_calls) for t in turns]
        return EfficiencyResult(metric, per, _mean_present(per))
    if metric == TOKEN_USAGE:
        details = [_token_details(t) for t in turns]
        overall = {name: (sum(v for v in values if v is not None) / len(values)
                          if any(v is not None for v in values) else None)
                   for name in TOKEN_FIELDS for values in [[d[name] for d in details]]}
        return EfficiencyResult(metric, [d["total_tokens"] for d in details], overall["total_tokens"] if turns else None,
                                details, overall if turns else None)
    if metric == INVOCATION_DURATION:
        details = [_duration_details(t) for t in turns]
        averaged: Dict[str, Optional[float]] = {}
        for name in DURATION_FIELDS:
            mean = _mean_present([d[name] for d in details])
            averaged[name] = None if mean is None else round(mean, 3)
        return EfficiencyResult(metric, [d["total_seconds"] for d in details],
                                averaged["total_seconds"] if turns else None, details, averaged if turns else None)
    raise ConfigError(f"unknown efficiency metric {metric!r}; the efficiency metrics are {', '.join(EFFICIENCY_METRICS)}")
