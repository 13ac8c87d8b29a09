"""1.18's input rules for the tool metrics, in one place: which calls are judged, and when a row is skipped.

azure-ai-evaluation 1.18's tool evaluators (ToolCallAccuracy, ToolSelection, ToolInputAccuracy)
read their calls the same way (``_convert_kwargs_to_eval_input``): calls found in ``response``
win over ``tool_calls``; with no calls a plain-text response goes to the judge as the calls'
text; with none at all the row is not applicable; a called tool needs a definition unless it is
a known built-in tool. Empty ``tool_definitions`` is refused before that (1.18's validator).
The messages are azure's, word for word, so dashboards that match on them keep working.
"""

from typing import Any, List, Mapping, Optional

from ..errors import InputError
from ..evaluators.declared import NotApplicable
from ..evaluators.inputs import require_messages

NO_TOOL_CALLS = "No tool calls found in response or provided tool_calls."
NO_TOOL_DEFINITIONS = "Tool definitions input is required but not provided"
TOOL_DEFINITIONS_MISSING = "Tool definitions for all tool calls must be provided."


def require_definitions(evaluator: Any, given: Mapping[str, Any]) -> List[Any]:
    """The row's tool definitions (:class:`~agent_evaluators.conversation.ToolDefinition`); none
    is an ``InputError`` with 1.18's words (its validator refuses the call too)."""
    from ..conversation import to_tool_definitions

    definitions = to_tool_definitions(given.get("tool_definitions") or [], input_name="tool_definitions")
    if not definitions:
        raise InputError(f"{evaluator.name}: {NO_TOOL_DEFINITIONS}; pass tool_definitions= with a definition for "
                         "every tool the agent may call", evaluator=evaluator.name, input_name="tool_definitions")
    return definitions


def judged_calls(evaluator: Any, given: Mapping[str, Any], definitions: List[Any], *,
                 tool_calls: bool = True) -> Optional[List[Any]]:
    """The calls 1.18 judges for this row, or ``None`` when a plain-text response is judged as
    the calls' text. Raises :class:`NotApplicable` with 1.18's reason: no calls; a called tool
    without a definition that is not a known built-in tool. ``tool_calls=False``: the metric
    reads calls from ``response`` only (ToolInputAccuracy)."""
    from ..conversation import builtin_tool_definition, to_tool_calls

    response = given.get("response")
    calls: List[Any] = []
    if response is not None and not isinstance(response, str):
        calls = to_tool_calls(require_messages(evaluator, response, "response", "assistant"), input_name="response")
    if not calls and tool_calls and given.get("tool_calls"):
        calls = to_tool_calls(given["tool_calls"], input_name="tool_calls")
    if not calls:
        if isinstance(response, str) and response:
            return None
        raise NotApplicable(NO_TOOL_CALLS)
    defined = {d.name for d in definitions}
    if any(c.name not in defined and builtin_tool_definition(c.name) is None for c in calls):
        raise NotApplicable(TOOL_DEFINITIONS_MISSING)
    return calls
