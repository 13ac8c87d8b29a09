"""Read the parts of an ADK invocation that metrics look at, and turn ADK files into rows.

Text extraction follows ADK: the text of a Content is ``"\\n".join`` of its parts'
non-empty ``text`` (a ``text: null`` part is skipped), and ``""`` when the content or
its parts are missing. One deliberate difference: parts marked ``thought: true`` (a
model's private reasoning) are left out by default, because every judge input is built
from these texts and a thought is neither the user's words nor the agent's answer;
``include_thoughts=True`` gives ADK's text exactly (``response_match_score`` uses it).

Tool calls come from ``intermediate_data.tool_uses`` (static form) or from every
``function_call`` part of every event (events form), in order.

Rows (:func:`iter_rows`) are how ``evaluate()`` reads an ADK file: one dict per
invocation. See its docstring for what each column holds.
"""

from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from pydantic import ValidationError

from ..conversation.models import ToolCall, ToolResult
from ..errors import InputError
from .actual import load_actual_invocations
from .loading import PathLike, load_eval_set, validation_message
from .models import (
    Content,
    EvalCase,
    EvalSet,
    FunctionCall,
    FunctionResponse,
    IntermediateData,
    Invocation,
    InvocationEvents,
    Part,
    Rubric,
)

InvocationLike = Union[Invocation, Mapping[str, Any]]


def as_invocation(value: InvocationLike, *, where: str = "invocation") -> Invocation:
    """An :class:`Invocation` from a model or an ADK invocation dict (snake or camel keys)."""
    if isinstance(value, Invocation):
        return value
    if isinstance(value, Mapping):
        try:
            return Invocation.model_validate(dict(value))
        except ValidationError as exc:
            raise InputError(f"{where} is not a valid ADK Invocation:\n{validation_message(exc)}", input_name=where) from None
    raise InputError(
        f"{where} must be an ADK Invocation dict or model, got {type(value).__name__}", input_name=where
    )


def as_invocations(values: Optional[Sequence[InvocationLike]], *, name: str) -> Optional[List[Invocation]]:
    """Validate a list of invocations; ``None`` stays ``None``."""
    if values is None:
        return None
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Sequence):
        raise InputError(f"{name} must be a list of ADK invocations, got {type(values).__name__}", input_name=name)
    return [as_invocation(v, where=f"{name}[{i}]") for i, v in enumerate(values)]


def _says(part: Part, include_thoughts: bool) -> bool:
    return bool(part.text) and (include_thoughts or not part.thought)


def content_text(content: Optional[Content], *, include_thoughts: bool = False) -> str:
    """ADK's ``_get_text_from_content``: non-empty part texts joined by newlines; parts marked
    ``thought`` are dropped unless ``include_thoughts`` (see the module docstring)."""
    if content is None or not content.parts:
        return ""
    return "\n".join(part.text for part in content.parts if part.text and _says(part, include_thoughts))


def user_text(invocation: InvocationLike) -> str:
    """The user's query text of an invocation (thought parts dropped)."""
    return content_text(as_invocation(invocation).user_content)


def intermediate_responses(invocation: InvocationLike, *, include_thoughts: bool = False) -> List[Tuple[str, str]]:
    """``(author, text)`` of the natural-language steps before the final response.

    Static form: each ``intermediate_responses`` entry. Events form: each event with
    text (ADK's ``get_text_from_content(..., include_intermediate_responses_in_final)``).
    """
    inv = as_invocation(invocation)
    data = inv.intermediate_data
    out: List[Tuple[str, str]] = []
    if isinstance(data, IntermediateData):
        for author, parts in data.intermediate_responses:
            text = "\n".join(p.text for p in parts if p.text and _says(p, include_thoughts))
            if text:
                out.append((author, text))
    elif isinstance(data, InvocationEvents):
        for event in data.invocation_events:
            text = content_text(event.content, include_thoughts=include_thoughts)
            if text:
                out.append((event.author, text))
    return out


def final_response_text(
    invocation: InvocationLike, *, include_intermediate: bool = False, include_thoughts: bool = False
) -> str:
    """The final response text; with ``include_intermediate`` the intermediate texts come
    first, everything joined by newlines (ADK's ``include_intermediate_responses_in_final``)."""
    inv = as_invocation(invocation)
    final = content_text(inv.final_response, include_thoughts=include_thoughts)
    if not include_intermediate:
        return final
    texts = [text for _, text in intermediate_responses(inv, include_thoughts=include_thoughts)]
    if final:
        texts.append(final)
    return "\n".join(texts)


def function_calls(invocation: InvocationLike) -> List[FunctionCall]:
    """ADK's ``get_all_tool_calls``: the invocation's tool calls in order ([] when none)."""
    data = as_invocation(invocation).intermediate_data
    if isinstance(data, IntermediateData):
        return list(data.tool_uses)
    if isinstance(data, InvocationEvents):
        return [
            part.function_call
            for event in data.invocation_events
            if event.content and event.content.parts
            for part in event.content.parts
            if part.function_call is not None
        ]
    return []


def function_responses(invocation: InvocationLike) -> List[FunctionResponse]:
    """The tool responses, read the same way as :func:`function_calls`."""
    data = as_invocation(invocation).intermediate_data
    if isinstance(data, IntermediateData):
        return list(data.tool_responses)
    if isinstance(data, InvocationEvents):
        return [
            part.function_response
            for event in data.invocation_events
            if event.content and event.content.parts
            for part in event.content.parts
            if part.function_response is not None
        ]
    return []


def tool_calls(invocation: InvocationLike) -> List[ToolCall]:
    """The tool calls as canonical :class:`ToolCall` (``args=None`` stays ``None``)."""
    return [ToolCall(name=fc.name or "", arguments=fc.args, id=fc.id) for fc in function_calls(invocation)]


def tool_results(invocation: InvocationLike) -> List[ToolResult]:
    """The tool responses as canonical :class:`ToolResult`, tied to their call by id."""
    return [ToolResult(call_id=fr.id, name=fr.name, content=fr.response) for fr in function_responses(invocation)]


def tool_call_dicts(invocation: InvocationLike) -> List[Dict[str, Any]]:
    """JSON-ready tool calls ``{"name", "arguments"[, "id"]}`` for row columns."""
    out = []
    for call in tool_calls(invocation):
        item: Dict[str, Any] = {"name": call.name, "arguments": call.arguments}
        if call.id is not None:
            item["id"] = call.id
        out.append(item)
    return out


# ----------------------------------------------------------------------------- rows


def iter_rows(
    path: PathLike,
    *,
    actual: Optional[Union[PathLike, Mapping[str, Sequence[InvocationLike]]]] = None,
) -> Iterator[Dict[str, Any]]:
    """One row per invocation of an ADK eval file, for ``evaluate(data=...)``.

    Columns:

    * ``eval_id``, ``invocation_id``, ``turn`` (0-based position in the case);
    * ``query``: the user text;
    * ``ground_truth``: the expected final-response text (the eval set's invocation);
    * ``expected_tool_calls``: the expected tool calls, ``[{"name", "arguments"}]``;
    * ``expected_invocation``: the expected invocation as an ADK dict (for metrics that
      take whole invocations, e.g. trajectory with ADK's per-invocation semantics);
    * ``response``, ``tool_calls``, ``actual_invocation``: what the agent did, taken from
      ``actual`` (an eval-set result / JSONL file, see
      :func:`agent_evaluators.adk.actual.load_actual_invocations`, or a mapping
      ``eval_id -> [invocation, ...]``).

    An eval-set file holds only expectations, so without ``actual`` the ``response``,
    ``tool_calls`` and ``actual_invocation`` columns are ``None``: generate them with a
    ``target`` in ``evaluate()`` (it receives ``query``) and map them with
    ``${target.response}``. They are never filled from the expectations, which would
    score every reference against itself.

    ``conversation_scenario`` cases have no invocations and yield no rows.
    """
    eval_set = load_eval_set(path)
    actual_map: Optional[Mapping[Any, Sequence[InvocationLike]]] = None
    if actual is not None:
        actual_map = actual if isinstance(actual, Mapping) else load_actual_invocations(actual)
    yield from _rows(eval_set, actual_map, source=str(path))


def _rows(
    eval_set: EvalSet, actual_map: Optional[Mapping[Any, Sequence[InvocationLike]]], *, source: str
) -> Iterator[Dict[str, Any]]:
    for case in eval_set.eval_cases:
        if case.conversation is None:
            continue
        actuals: Optional[List[Invocation]] = None
        if actual_map is not None:
            given = actual_map.get(case.eval_id)
            if given is None:
                raise InputError(
                    f"{source}: no actual invocations for eval case {case.eval_id!r}", input_name="actual"
                )
            actuals = as_invocations(given, name=f"actual[{case.eval_id!r}]")
            if len(actuals) != len(case.conversation):  # type: ignore[arg-type]
                raise InputError(
                    f"{source}: eval case {case.eval_id!r} has {len(case.conversation)} expected invocation(s) "
                    f"but {len(actuals)} actual one(s)",  # type: ignore[arg-type]
                    input_name="actual",
                )
        for i, expected in enumerate(case.conversation):
            act = actuals[i] if actuals is not None else None
            yield {
                "eval_id": case.eval_id,
                "invocation_id": expected.invocation_id,
                "turn": i,
                "query": user_text(expected),
                "response": final_response_text(act) if act is not None else None,
                "tool_calls": tool_call_dicts(act) if act is not None else None,
                "ground_truth": final_response_text(expected),
                "expected_tool_calls": tool_call_dicts(expected),
                "expected_invocation": expected.to_json_dict(),
                "actual_invocation": act.to_json_dict() if act is not None else None,
            }


# ----------------------------------------------------------------------------- rubrics


def copy_rubrics(case: EvalCase, expected: Optional[Sequence[Invocation]], actual: Sequence[Invocation]) -> None:
    """ADK's ``LocalEvalService``: the case's rubrics and each expected invocation's rubrics go
    onto the matching actual invocation, which is where the rubric metrics read them.

    A rubric already there unchanged (actual invocations read back from an ADK result file,
    where ADK had copied them) is skipped; the same id with other content is a ``ValueError``,
    as in ADK.
    """
    for i, inv in enumerate(actual):
        own = list(expected[i].rubrics or []) if expected is not None and i < len(expected) else []
        for rubric in list(case.rubrics or []) + own:
            add_rubric(inv, rubric)


def add_rubric(invocation: Invocation, rubric: Rubric) -> None:
    """Put ``rubric`` on ``invocation`` unless an identical one is there (see :func:`copy_rubrics`)."""
    current = invocation.rubrics or []
    for existing in current:
        if existing.rubric_id == rubric.rubric_id:
            if existing == rubric:
                return
            raise ValueError(f"Rubric with rubric_id '{rubric.rubric_id}' already exists.")
    invocation.rubrics = [*current, rubric]
