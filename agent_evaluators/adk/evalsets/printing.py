"""ADK's console output for an eval run: the ``Eval Run Summary`` and ``pretty_print_eval_result``."""

import textwrap
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ...wording import PYTHON, Words, recall
from ..convert import content_text, function_calls
from ..results import EvalCaseResult, EvalMetricResult, EvalMetricResultPerInvocation, EvalStatus

_FIELD_VALUE_COLUMN = 30
_FIELD_VALUE_WIDTH = 80
_RULE = "-" * 69


def format_summary(results: Sequence[EvalCaseResult]) -> str:
    """ADK's ``Eval Run Summary`` block, plus a ``Tests not evaluated`` line when some case was
    neither passed nor failed (ADK counts those as failed; they are not failures), and a
    ``Tests with errors`` line for the failed cases that failed on an error (a judge that
    could not score a criterion, an agent that crashed or timed out) rather than a verdict."""
    counts: Dict[str, List[int]] = {}
    for r in results:
        tally = counts.setdefault(r.eval_set_id, [0, 0, 0, 0])
        tally[_column(r.final_eval_status)] += 1
        tally[3] += bool(r.errors)
    lines = ["*" * 69, "Eval Run Summary"]
    for set_id, (passed, failed, skipped, errored) in counts.items():
        lines.append(f"{set_id}:\n  Tests passed: {passed}\n  Tests failed: {failed}")
        if skipped:
            lines.append(f"  Tests not evaluated: {skipped}")
        if errored:
            lines.append(f"  Tests with errors: {errored} (counted as failed; see the errors below)")
        efficiency = _efficiency_line([r for r in results if r.eval_set_id == set_id])
        if efficiency:
            lines.append(efficiency)
    return "\n".join(lines)


_EFFICIENCY_UNITS = (("tool_call_count_v1", "tool calls", "{:g}"), ("inference_call_count_v1", "model calls", "{:g}"),
                     ("token_usage_v1", "tokens", "{:g}"), ("invocation_duration_v1", "", "{:.2f}s"))


def _efficiency_line(results: Sequence[EvalCaseResult]) -> str:
    """What the agent spent per turn, averaged over the eval set's cases (informational; n/a when
    no case reported it), or "" when the run has no efficiency metrics."""
    parts = []
    for name, unit, fmt in _EFFICIENCY_UNITS:
        scores = [m.score for r in results for m in r.overall_eval_metric_results if m.metric_name == name]
        if not scores:
            continue
        known = [s for s in scores if s is not None]
        value = fmt.format(sum(known) / len(known)) if known else "n/a"
        parts.append(f"{value} {unit}".rstrip())
    return f"  Per turn, averaged over cases (informational): {', '.join(parts)}" if parts else ""


def format_errors(results: Sequence[EvalCaseResult], words: Words = PYTHON) -> List[str]:
    """One line per error of every case, naming the eval set, the case and what could not be done (in
    ``words``: ``agent-eval adk`` says the judge errors in its own)."""
    return [f"{r.eval_set_id}/{r.eval_id}: {words.render(recall(error))}" for r in results for error in r.errors]


def _column(status: EvalStatus) -> int:
    if status == EvalStatus.PASSED:
        return 0
    return 1 if status == EvalStatus.FAILED else 2


def format_case(result: EvalCaseResult, words: Words = PYTHON) -> str:
    """ADK's ``pretty_print_eval_result`` (plus our ``Note:`` lines saying why something was not evaluated);
    errors and notes in ``words`` (``agent-eval adk`` says the judge errors in its own)."""
    lines = [
        f"Eval Set Id: {result.eval_set_id}",
        f"Eval Id: {result.eval_id}",
        f"Overall Eval Status: {result.final_eval_status.name}",
    ]
    lines += [f"Error: {words.render(recall(error))}" for error in result.errors]
    lines += [f"Note: {words.render(recall(note))}" for note in result.notes]
    for m in result.overall_eval_metric_results:
        lines.append(_RULE)
        lines.append(f"Metric: {m.metric_name}, Status: {m.eval_status.name}, Score: {m.score}, Threshold: {m.threshold}")
        lines += _breakdown("Token breakdown:", _TOKEN_ROWS, m.details.token_usage_details, _count)
        lines += _breakdown("Duration breakdown:", _DURATION_ROWS, m.details.duration_details, _seconds)
        if m.details.rubric_scores:
            lines.append("Rubric Scores:")
            texts = _rubric_texts(m)
            for s in m.details.rubric_scores:
                lines.append(f"Rubric: {texts.get(s.rubric_id) or s.rubric_id}, Score: {s.score}, Reasoning: {s.rationale}")
    if result.eval_metric_result_per_invocation:
        lines.append(_RULE)
        lines.append("Invocation Details:")
        n = len(result.eval_metric_result_per_invocation)
        for index, item in enumerate(result.eval_metric_result_per_invocation, start=1):
            lines.append(f"\nInvocation {index} of {n}")
            for label, value in _invocation_fields(item):
                lines.extend(_field_lines(label, value))
        lines.append("\n")
    return "\n".join(lines)


def _rubric_texts(m: EvalMetricResult) -> Dict[str, Optional[str]]:
    rubrics = (m.criterion or {}).get("rubrics") or []
    return {str(r.get("rubric_id")): (r.get("rubric_content") or {}).get("text_property") for r in rubrics if isinstance(r, dict)}


def _format_call(call: Any) -> str:
    args = [f"{k}={v!r}" for k, v in (call.args or {}).items()]
    if not args:
        return f"{call.name}()"
    return f"{call.name}(\n  " + ",\n  ".join(args) + ")"


def _invocation_fields(item: EvalMetricResultPerInvocation) -> List[Tuple[str, str]]:
    act, exp = item.actual_invocation, item.expected_invocation
    fields: List[Tuple[str, Optional[str]]] = [
        ("prompt", content_text(act.user_content)),
        ("expected_response", content_text(exp.final_response) if exp else None),
        ("actual_response", content_text(act.final_response)),
        ("expected_tool_calls", "\n".join(_format_call(c) for c in function_calls(exp)) if exp else None),
        ("actual_tool_calls", "\n".join(_format_call(c) for c in function_calls(act))),
    ]
    for m in item.eval_metric_results:
        fields.append((m.metric_name, _metric_cell(m)))
        if m.details.rubric_scores:
            texts = _rubric_texts(m)
            for s in m.details.rubric_scores:
                fields.append(("rubric", f"{texts.get(s.rubric_id) or s.rubric_id}\nScore: {s.score}, Reasoning: {s.rationale}"))
    return [(label, value) for label, value in fields if value is not None]


#: ADK's breakdown rows: (field, depth); the indentation says what contains what
_TOKEN_ROWS = (("total_tokens", 1), ("input_tokens", 2), ("prompt_tokens", 3), ("cached_tokens", 4),
               ("tool_use_tokens", 3), ("output_tokens", 2), ("candidates_tokens", 3), ("reasoning_tokens", 3))
_DURATION_ROWS = (("total_seconds", 1), ("model_seconds", 2), ("tool_seconds", 2), ("framework_seconds", 2))
_BREAKDOWN_LABEL_WIDTH = 20


def _count(value: Any) -> str:
    """A token count; an unreported one is n/a, never 0."""
    return "n/a" if value is None else f"{value:g}"


def _seconds(value: Any) -> str:
    return "n/a" if value is None else f"{value:g}s"


def _breakdown(title: str, rows: Sequence[Tuple[str, int]], details: Optional[Dict[str, Any]], fmt: Any) -> List[str]:
    """ADK's ``Token breakdown:`` / ``Duration breakdown:`` block under an efficiency metric."""
    if not details:
        return []
    out = [title]
    for name, depth in rows:
        label = f"{'  ' * depth}{name.rsplit('_', 1)[0].replace('_', ' ')}:"
        out.append(f"{label:<{_BREAKDOWN_LABEL_WIDTH}}{fmt(details.get(name))}")
    return out


def _metric_cell(m: EvalMetricResult) -> str:
    """ADK's cell: ``PASSED (1.0)``; an informational metric shows only its value (with its unit)."""
    if m.eval_status != EvalStatus.INFORMATIONAL:
        return f"{m.eval_status.name} ({m.score})"
    if m.score is None:
        return "n/a"
    duration, tokens = m.details.duration_details, m.details.token_usage_details
    if duration is not None:
        if duration.get("model_seconds") is not None:
            return (f"{m.score:.2f}s (model {_seconds(duration.get('model_seconds'))}, tool "
                    f"{_seconds(duration.get('tool_seconds'))}, framework {_seconds(duration.get('framework_seconds'))})")
        return f"{m.score:.2f}s"
    if tokens is not None:
        return f"{m.score:g} (in {_count(tokens.get('input_tokens'))}, out {_count(tokens.get('output_tokens'))})"
    return f"{m.score:g}"


def _field_lines(label: str, value: str) -> List[str]:
    wrapped = [w for line in value.splitlines() or ["(none)"] for w in textwrap.wrap(line, _FIELD_VALUE_WIDTH) or [""]]
    prefix = f"  {label}: ".ljust(_FIELD_VALUE_COLUMN)
    return [f"{prefix}{wrapped[0]}"] + [f"{' ' * len(prefix)}{w}" for w in wrapped[1:]]
