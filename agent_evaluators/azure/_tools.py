"""1.18's input rules for the tool metrics, in one place: which calls are judged, and when a row is skipped.

azure-ai-evaluation 1.18's tool evaluators (ToolCallAccuracy, ToolSelection, ToolInputAccuracy)
read their calls the same way (``_convert_kwargs_to_eval_input``): calls found in ``response``
win over ``tool_calls``; with no calls a plain-text response goes to the judge as the calls'
text; with none at all the row is not applicable; a called tool needs a definition unless it is
a known built-in tool. Empty ``tool_definitions`` is refused before that (1.18's validator).
The messages are azure's, word for word, so dashboards that match on them keep working.

Two of 1.18's readings are easy to miss, and change the numbers:

* in a response, only azure-agent ``tool_call`` content items are calls (``_parse_tools_from_response``):
  a ``function_call`` or ``openapi_call`` item (the Responses API's names) passes 1.18's validator
  (a text ``name`` and ``tool_call_id``, dict ``arguments``: else 1.18's words as an ``InputError``)
  and is then not read, so a response whose calls are all such items is "No tool calls found";
  in ``tool_calls=``, such an item fails 1.18's definitions check, so the row is not applicable
  ("Tool definitions for all tool calls must be provided.");
* ``tool_definitions`` may be JSON text (a CSV column): 1.18 takes it, and so does this layer,
  reading the list it holds (:func:`definitions_from_text`). Then, unlike 1.18, the rule that every
  called tool needs a definition still applies: the same definitions mean the same row, as text or
  as a list (a deliberate difference; 1.18 skips that check for text).
"""

import json
from typing import Any, List, Mapping, Optional

from ..errors import InputError
from ..evaluators.declared import NotApplicable
from ..evaluators.inputs import require_messages

NO_TOOL_CALLS = "No tool calls found in response or provided tool_calls."
NO_TOOL_DEFINITIONS = "Tool definitions input is required but not provided"
TOOL_DEFINITIONS_MISSING = "Tool definitions for all tool calls must be provided."
EMPTY_RESPONSE = "Response string cannot be empty."

#: content items 1.18's validator accepts as calls but its tool metrics do not read as calls
_UNREAD_CALL_ITEMS = ("function_call", "openapi_call")


def definitions_from_text(value: Any) -> Any:
    """``tool_definitions`` as 1.18 takes it: JSON text of a list (or of one definition) is that list;
    blank text is none given (1.18: "not provided"); anything else is returned as it is (text that is
    not JSON then fails as our readers fail on it, where 1.18 would send the text to its judge)."""
    if not isinstance(value, str):
        return value
    if not value.strip():
        return None
    try:
        parsed = json.loads(value)
    except ValueError:
        return value
    if isinstance(parsed, dict):
        parsed = [parsed]
    return parsed if isinstance(parsed, list) else value


def _check_call_item(evaluator: Any, item: Mapping[str, Any]) -> None:
    """1.18's validator on a ``function_call`` / ``openapi_call`` content item (its words): a text
    ``name``, a dict ``arguments`` (JSON text is refused), a text ``tool_call_id`` (``call_id``,
    the Responses API's own name, is not read)."""
    for field, kind, word in (("name", str, "a string"), ("arguments", dict, "a dictionary"),
                              ("tool_call_id", str, "a string")):
        if field not in item:
            problem = f"Each tool_call content items must contain a '{field}' field."
        elif not isinstance(item[field], kind):
            problem = f"The '{field}' field must be {word} in tool_call content items."
        else:
            continue
        raise InputError(f"{evaluator.name}: {problem} (in 'response')", evaluator=evaluator.name, input_name="response")


def _calls_as_read(evaluator: Any, response: List[Any]) -> List[Any]:
    """``response`` without the call items 1.18's tool metrics do not read (see the module docstring),
    after 1.18's validator has checked them."""
    out = []
    for message in response:
        content = message.get("content") if isinstance(message, Mapping) else None
        if isinstance(content, list) and any(isinstance(i, Mapping) and i.get("type") in _UNREAD_CALL_ITEMS
                                              for i in content):
            if message.get("role") == "assistant":
                for item in content:
                    if isinstance(item, Mapping) and item.get("type") in _UNREAD_CALL_ITEMS:
                        _check_call_item(evaluator, item)
            kept = [i for i in content if not (isinstance(i, Mapping) and i.get("type") in _UNREAD_CALL_ITEMS)]
            if not kept:
                continue
            message = {**message, "content": kept}
        out.append(message)
    return out


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
    if response == "" and not (tool_calls and given.get("tool_calls")):  # 1.18's validator refuses it
        message = NO_TOOL_CALLS if tool_calls else EMPTY_RESPONSE
        raise InputError(f"{evaluator.name}: {message}", evaluator=evaluator.name, input_name="response")
    if response is not None and not isinstance(response, str):
        messages = require_messages(evaluator, response, "response", "assistant")
        if isinstance(response, list):
            read = _calls_as_read(evaluator, response)
            messages = require_messages(evaluator, read, "response", "assistant") if read else []
        calls = to_tool_calls(messages, input_name="response") if messages else []
    if not calls and tool_calls and given.get("tool_calls"):
        listed = given["tool_calls"] if isinstance(given["tool_calls"], list) else [given["tool_calls"]]
        if any(isinstance(c, Mapping) and c.get("type") in _UNREAD_CALL_ITEMS for c in listed):
            # 1.18 reads only azure-agent ``tool_call`` items here: another format fails its definitions
            # check ("Unsupported tool call format"), which it reports as this reason
            raise NotApplicable(TOOL_DEFINITIONS_MISSING)
        calls = to_tool_calls(given["tool_calls"], input_name="tool_calls")
    if not calls:
        if isinstance(response, str) and response:
            return None
        raise NotApplicable(NO_TOOL_CALLS)
    defined = {d.name for d in definitions}
    if any(c.name not in defined and builtin_tool_definition(c.name) is None for c in calls):
        raise NotApplicable(TOOL_DEFINITIONS_MISSING)
    return calls
