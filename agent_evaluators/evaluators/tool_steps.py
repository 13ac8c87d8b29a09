"""The tool calls a tool metric judges: read once, checked against their definitions, rendered as JSON.

Every tool metric (tool call accuracy, selection, input accuracy, output utilization, call
success) starts the same way: find the calls (from ``tool_calls=`` or a response's messages, in
any supported format), pair them with their results, make sure each called tool is defined (a
built-in tool such as ``file_search`` gets a synthetic definition) and render the calls for the
judge. Doing that in one place keeps the not-applicable rules and their words the same for all
of them; each metric then decides only what its judge is shown.
"""

from typing import Any, Dict, List, NamedTuple, Optional, Sequence

from ..conversation import Message, ToolCall, ToolDefinition
from ..errors import InputError
from .declared import NotApplicable
from .inputs import require_messages

#: the not-applicable reasons shared by the tool metrics (each metric's tests read these words)
NO_CALLS = "Not applicable: no tool calls found in the response or tool_calls"
NO_DEFINITIONS = ("Not applicable: no tool definitions were given; pass the definitions of the tools "
                  "the agent could call (tool_definitions=)")


class ToolSteps(NamedTuple):
    """The calls of one row, their results by call id, and the response's messages (``None``
    when the calls came from ``tool_calls=``)."""

    calls: List[ToolCall]
    results: Dict[str, Any]
    messages: Optional[List[Message]]


def tool_results(messages: Sequence[Message]) -> Dict[str, Any]:
    """Each tool result of a conversation, by the id of the call it answers."""
    return {m.tool_call_id: m.tool_result if m.tool_result is not None else m.content
            for m in messages if m.role == "tool" and m.tool_call_id}


def read_tool_steps(evaluator: Any, tool_calls: Any, response: Any) -> ToolSteps:
    """The calls from ``tool_calls`` (preferred) or from ``response``'s messages, with the results
    the response holds. Neither given is an ``InputError``; no call found is :class:`NotApplicable`."""
    from ..conversation import to_tool_calls

    require_calls_source(evaluator, tool_calls, response)
    if tool_calls is None:
        return steps_in(require_messages(evaluator, response, "response", "assistant"))
    calls = to_tool_calls(tool_calls, input_name="tool_calls")
    if not calls:
        raise NotApplicable(NO_CALLS)
    return ToolSteps(calls, {}, None)


def require_calls_source(evaluator: Any, tool_calls: Any, response: Any) -> None:
    """An ``InputError`` when neither ``tool_calls`` nor ``response`` is given (nowhere to read calls from)."""
    if tool_calls is None and response is None:
        raise InputError(f"{evaluator.name}: pass tool_calls= or response= (messages holding the tool calls)",
                         evaluator=evaluator.name, input_name="tool_calls")


def steps_in(messages: List[Message]) -> ToolSteps:
    """The calls the agent made in ``messages``, with their results; none is :class:`NotApplicable`."""
    calls = [c for m in messages if m.role == "assistant" for c in m.tool_calls]
    if not calls:
        raise NotApplicable(NO_CALLS)
    return ToolSteps(calls, tool_results(messages), messages)


def defined_tools(calls: Sequence[ToolCall], tool_definitions: Any, *, optional: bool = True,
                  require_some: bool = False) -> Dict[str, ToolDefinition]:
    """The given definitions by name, plus a synthetic one for each called built-in tool.

    A called tool with neither is :class:`NotApplicable` (the judge could not tell what it does),
    with the reason "no tool definitions" when ``require_some=True`` and none were given (calls of
    built-in tools only need none);
    ``optional=False``: ``None`` is an ``InputError`` (the metric needs the definitions)."""
    from ..conversation import builtin_tool_definition, to_tool_definitions

    given = ([] if tool_definitions is None and optional
             else to_tool_definitions(tool_definitions, input_name="tool_definitions"))
    definitions = {d.name: d for d in given}
    for call in calls:
        if call.name not in definitions:
            builtin = builtin_tool_definition(call.name)
            if builtin is None:
                if require_some and not given:
                    raise NotApplicable(NO_DEFINITIONS)
                raise NotApplicable(
                    f"Not applicable: tool {call.name!r} was called but has no definition in tool_definitions; "
                    "pass a definition for every called tool")
            definitions[call.name] = builtin
    return definitions


def render_calls(calls: Sequence[ToolCall], results: Dict[str, Any], *, arguments: bool = True) -> List[Dict[str, Any]]:
    """The calls as the judge sees them: index, name, arguments (unless left out) and the result
    where the response holds one."""
    return [
        {
            "call_index": i,
            "name": c.name,
            **({"arguments": c.arguments} if arguments else {}),
            **({"result": results[c.id]} if c.id and c.id in results else {}),
        }
        for i, c in enumerate(calls)
    ]


def definitions_json(definitions: Dict[str, ToolDefinition], calls: Sequence[ToolCall]) -> List[Dict[str, Any]]:
    """The definitions as the judge sees them: the called tools first, then the others."""
    used = sorted({c.name for c in calls})
    return ([definitions[n].model_dump(exclude_none=True) for n in used if n in definitions]
            + [d.model_dump(exclude_none=True) for n, d in definitions.items() if n not in used])
